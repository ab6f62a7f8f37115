/*
 * manifest_write_test.c: the manifest writer (compiler/driver/manifest.c) and
 * SHA-256 (compiler/driver/sha256.c), checked against libtessrt's reader
 * (built as $(BUILD)/tests/manifest_write_test).
 *
 *   manifest_write_test sha256 STRING      the digest of STRING
 *   manifest_write_test sha256-million     the digest of 1,000,000 'a'
 *   manifest_write_test sha256-file PATH   the digest of a file's bytes
 *   manifest_write_test write DIR          writes DIR/kernels.json for two
 *       hand-built IrKernels (and empty artifact files), then loads it back
 *   manifest_write_test roundtrip DIR SEED KERNELS
 *       random grid expressions: written by the writer, parsed and evaluated
 *       by the runtime, compared with a direct evaluation of the GridExpr tree
 */
#include "manifest.h"
#include "tessrt.h"

#include <stdlib.h>
#include <string.h>

/* ---- sha256 -------------------------------------------------------------- */

static int cmd_sha256(const char *data, size_t length) {
    char hex[65];
    sha256_hex(data, length, hex);
    printf("%s\n", hex);
    return 0;
}

static int cmd_sha256_million(void) {
    /* fed in uneven pieces to exercise the block buffering */
    Sha256 ctx;
    unsigned char digest[32];
    char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    sha256_init(&ctx);
    size_t left = 1000000;
    while (left) {
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        sha256_update(&ctx, chunk, n);
        left -= n;
    }
    sha256_final(&ctx, digest);
    for (int i = 0; i < 32; i++)
        printf("%02x", digest[i]);
    printf("\n");
    return 0;
}

static int cmd_sha256_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return cmd_sha256(buf, n);
}

/* ---- building IrKernels by hand ------------------------------------------- */

/* Test nodes come from one static pool (like the compiler's arenas), so
   nothing is freed one by one and nothing leaks. */
static _Alignas(16) unsigned char test_pool[8 << 20];
static size_t test_pool_used;

static void *test_alloc(size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (test_pool_used + size > sizeof test_pool) {
        fprintf(stderr, "manifest_write_test: test pool exhausted\n");
        exit(3);
    }
    void *p = test_pool + test_pool_used;
    test_pool_used += size;
    memset(p, 0, size);
    return p;
}

static IrValue *value(IrType type) {
    IrValue *v = test_alloc(sizeof *v);
    v->type = type;
    return v;
}

static IrType ref_type(DType dtype, int rank, const char *const *syms, const int64_t *sizes,
                       Access access) {
    IrType t;
    memset(&t, 0, sizeof t);
    t.kind = IRT_REF;
    t.dtype = dtype;
    t.rank = rank;
    for (int d = 0; d < rank; d++) {
        t.dims[d].sym = syms[d];
        t.dims[d].size = syms[d] ? 0 : sizes[d];
    }
    t.space = SPACE_GLOBAL;
    t.access = access;
    return t;
}

static IrType scalar_type(DType dtype) {
    IrType t;
    memset(&t, 0, sizeof t);
    t.kind = IRT_TILE;
    t.dtype = dtype;
    return t;
}

static GridExpr *gx(GridExprKind kind, int64_t v, const char *size, GridExpr *lhs, GridExpr *rhs) {
    GridExpr *e = test_alloc(sizeof *e);
    e->kind = kind;
    e->value = v;
    e->size = size;
    e->lhs = lhs;
    e->rhs = rhs;
    return e;
}
#define K(v) gx(GRID_CONST, (v), NULL, NULL, NULL)
#define S(name) gx(GRID_SIZE, 0, (name), NULL, NULL)
#define OP(kind, a, b) gx((kind), 0, NULL, (a), (b))

static void touch(const char *dir, const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

static void print_loaded(const char *path) {
    tessrt_manifest *m;
    tessrt_status s = tessrt_manifest_load(path, &m);
    if (s != TESSRT_OK) {
        printf("load error: %s\n", tessrt_last_error());
        return;
    }
    for (int i = 0; i < tessrt_manifest_num_kernels(m); i++) {
        tessrt_kernel *k;
        tessrt_manifest_kernel_at(m, i, &k);
        printf("loaded %s: %d params, %d threads\n", tessrt_kernel_name(k),
               tessrt_kernel_num_params(k), tessrt_kernel_threads(k));
    }
    tessrt_manifest_free(m);
}

static int cmd_write(const char *dir) {
    /* scale2d(x: f32[M, N] in, o: f16[M, 64] out, alpha: f32, M, N) */
    static const char *const mn[] = {"M", "N"};
    static const char *const m64[] = {"M", NULL};
    static const int64_t sizes64[] = {0, 64};
    IrParam params[5] = {
        {"x", PARAM_ARRAY, value(ref_type(DT_F32, 2, mn, NULL, ACCESS_IN)), NULL},
        {"o", PARAM_ARRAY, value(ref_type(DT_F16, 2, m64, sizes64, ACCESS_OUT)), NULL},
        {"alpha", PARAM_SCALAR, value(scalar_type(DT_F32)), NULL},
        {"M", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
        {"N", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
    };
    IrCParam cparams[2] = {{"BLOCK", false, 128, 0}, {"EPS", true, 0, 0.5}};
    IrKernel k1;
    memset(&k1, 0, sizeof k1);
    k1.name = "scale2d";
    k1.params = params;
    k1.num_params = 5;
    k1.cparams = cparams;
    k1.num_cparams = 2;
    k1.grid[0] = OP(GRID_CDIV, S("M"), K(16));
    k1.grid[1] = OP(GRID_CDIV, S("N"), K(128));
    k1.grid_rank = 2;
    k1.warps = 4;
    k1.stages = 2;
    ManifestContract contracts[2] = {
        {OP(GRID_REM, S("N"), K(16)), MANIFEST_EQ, K(0)},
        {S("M"), MANIFEST_GE, K(1)},
    };
    ManifestArtifact arts1[3] = {
        {"sm_80", MANIFEST_PTX, "scale2d.sm_80.ptx", "7.0", 128, -1, -1, 1024, NULL},
        {"sm_90", MANIFEST_PTX, "scale2d.sm_90.ptx", "8.0", 128, -1, -1, 1024, NULL},
        {"sm_90", MANIFEST_CUBIN, "scale2d.sm_90.cubin", "8.0", 128, 40, 0, 1024, NULL},
    };

    /* mixed(buf: f16[N] inout, N): grid ((N - 1) / 4 + 1, min(N, 7) * 2, max(N % 5, 1)) */
    static const char *const n1[] = {"N"};
    IrParam params2[2] = {
        {"buf", PARAM_ARRAY, value(ref_type(DT_F16, 1, n1, NULL, ACCESS_INOUT)), NULL},
        {"N", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
    };
    IrKernel k2;
    memset(&k2, 0, sizeof k2);
    k2.name = "mixed";
    k2.params = params2;
    k2.num_params = 2;
    k2.grid[0] = OP(GRID_ADD, OP(GRID_DIV, OP(GRID_SUB, S("N"), K(1)), K(4)), K(1));
    k2.grid[1] = OP(GRID_MUL, OP(GRID_MIN, S("N"), K(7)), K(2));
    k2.grid[2] = OP(GRID_MAX, OP(GRID_REM, S("N"), K(5)), K(1));
    k2.grid_rank = 3;
    k2.warps = 8;
    k2.stages = 1;
    static const ManifestTmaMap tma_maps[2] = {{"buf", 1, {64}, 128, DT_F16, 0, 0, false},
                                               {"buf", 1, {32}, 64, DT_F16, 0, 0, true}};
    static const ManifestTma tma = {"mixed_entry_tma", 65600, 512, 168, 60, 0, tma_maps, 2};
    ManifestArtifact arts2[1] = {{"sm_90a", MANIFEST_CUBIN, "mixed.sm_90a.cubin", "8.0", 384, 72, 16, 65536, &tma}};

    ManifestKernel kernels[2] = {
        {&k1, NULL, contracts, 2, arts1, 3, "scale2d.tir", NULL},
        {&k2, "mixed_entry", NULL, 0, arts2, 1, NULL, "module \"kernels.tess\"\n"},
    };
    static const char source[] = "kernel scale2d(...) { }\n";
    ManifestInput input = {"/some/absolute/dir/kernels.tess", source, sizeof source - 1, kernels, 2};
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/kernels.json", dir);
    for (int i = 0; i < 3; i++)
        touch(dir, arts1[i].file);
    touch(dir, arts2[0].file);
    if (!manifest_write(path, &input, err, sizeof err)) {
        printf("write error: %s\n", err);
        return 1;
    }
    print_loaded(path);

    /* errors: an absolute artifact path, and an unwritable directory */
    ManifestArtifact bad = {"sm_90", MANIFEST_PTX, "/abs/x.ptx", "8.0", 256, -1, -1, 0, NULL};
    ManifestKernel badk = {&k2, NULL, NULL, 0, &bad, 1, NULL, NULL};
    ManifestInput badin = {"k.tess", "", 0, &badk, 1};
    if (!manifest_write(path, &badin, err, sizeof err))
        printf("write error: %s\n", err);
    /* an artifact with no block size (schema 2 has one per artifact) */
    ManifestArtifact no_threads = {"sm_90", MANIFEST_PTX, "x.ptx", "8.0", 0, -1, -1, 0, NULL};
    badk.artifacts = &no_threads;
    if (!manifest_write(path, &badin, err, sizeof err))
        printf("write error: %s\n", err);
    input.num_kernels = 0;
    if (!manifest_write("/nonexistent-dir/m.json", &input, err, sizeof err))
        printf("write error: %s\n", err);
    return 0;
}

/* ---- random expressions ----------------------------------------------------- */

static uint64_t rng_state;
static uint32_t rng(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

static const char *const size_names[] = {"A", "B", "C"};

static GridExpr *random_expr(int depth) {
    if (depth == 0 || rng() % 4 == 0) {
        if (rng() % 2)
            return K(rng() % 300);
        return S(size_names[rng() % 3]);
    }
    static const GridExprKind ops[] = {GRID_ADD, GRID_SUB, GRID_MUL, GRID_DIV, GRID_REM,
                                       GRID_CDIV, GRID_MIN, GRID_MAX};
    GridExprKind kind = ops[rng() % 8];
    return OP(kind, random_expr(depth - 1), random_expr(depth - 1));
}

/* The reference: the tree itself, in C's int64 with overflow checks. */
static bool eval_ref(const GridExpr *e, const int64_t *sizes, int64_t *out) {
    int64_t a, b;
    switch (e->kind) {
    case GRID_CONST:
        *out = e->value;
        return true;
    case GRID_SIZE:
        *out = sizes[e->size[0] - 'A'];
        return true;
    default:
        break;
    }
    if (!eval_ref(e->lhs, sizes, &a) || !eval_ref(e->rhs, sizes, &b))
        return false;
    switch (e->kind) {
    case GRID_ADD: return !__builtin_add_overflow(a, b, out);
    case GRID_SUB: return !__builtin_sub_overflow(a, b, out);
    case GRID_MUL: return !__builtin_mul_overflow(a, b, out);
    case GRID_DIV:
        if (b == 0) return false;
        *out = a / b;
        return true;
    case GRID_REM:
        if (b == 0) return false;
        *out = a % b;
        return true;
    case GRID_CDIV: {
        if (b == 0) return false;
        /* floor division of the negated numerator, negated */
        int64_t q = a / b, r = a % b;
        if (r != 0 && ((r < 0) != (b < 0)))
            q--;              /* q is now floor(a / b) */
        *out = (r != 0) ? q + 1 : q;
        return true;
    }
    case GRID_MIN: *out = a < b ? a : b; return true;
    case GRID_MAX: *out = a > b ? a : b; return true;
    default: return false;
    }
}

static int cmd_roundtrip(const char *dir, unsigned seed, int count) {
    rng_state = seed;
    IrParam params[3] = {
        {"A", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
        {"B", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
        {"C", PARAM_SIZE, value(scalar_type(DT_I32)), NULL},
    };
    IrKernel *ks = calloc((size_t)count, sizeof *ks);
    ManifestKernel *mks = calloc((size_t)count, sizeof *mks);
    ManifestArtifact art = {"sm_80", MANIFEST_PTX, "dummy.ptx", "7.0", 32, -1, -1, 0, NULL};
    char (*names)[32] = calloc((size_t)count, sizeof *names);
    for (int i = 0; i < count; i++) {
        snprintf(names[i], sizeof names[i], "k%d", i);
        ks[i].name = names[i];
        ks[i].params = params;
        ks[i].num_params = 3;
        ks[i].grid[0] = random_expr(1 + i % 5);
        ks[i].grid_rank = 1;
        ks[i].warps = 1;
        ks[i].stages = 1;
        mks[i] = (ManifestKernel){&ks[i], NULL, NULL, 0, &art, 1, NULL, NULL};
    }
    ManifestInput input = {"random.tess", "", 0, mks, count};
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/random.json", dir);
    touch(dir, "dummy.ptx");
    if (!manifest_write(path, &input, err, sizeof err)) {
        printf("write error: %s\n", err);
        return 1;
    }
    tessrt_manifest *m;
    if (tessrt_manifest_load(path, &m) != TESSRT_OK) {
        printf("load error: %s\n", tessrt_last_error());
        return 1;
    }
    int checked = 0, errors = 0, mismatches = 0;
    for (int i = 0; i < count; i++) {
        tessrt_kernel *k;
        tessrt_manifest_kernel_at(m, i, &k);
        for (int t = 0; t < 20; t++) {
            int64_t sizes[3] = {rng() % 1000, rng() % 1000, rng() % 3 == 0 ? 0 : rng() % 1000};
            tessrt_arg args[3] = {tessrt_arg_size(sizes[0]), tessrt_arg_size(sizes[1]),
                                  tessrt_arg_size(sizes[2])};
            uint32_t grid[3];
            int64_t want;
            bool ok = eval_ref(ks[i].grid[0], sizes, &want) && want >= 0 && want <= INT32_MAX;
            tessrt_status s = tessrt_kernel_check(k, args, 3, grid);
            checked++;
            if (!ok)
                errors++;
            if (ok != (s == TESSRT_OK) || (ok && grid[0] != (uint64_t)want)) {
                char text[1024];
                manifest_format_expr(ks[i].grid[0], text, sizeof text);
                if (mismatches++ < 10)
                    printf("MISMATCH %s with A=%lld B=%lld C=%lld: want %s%lld, runtime %s %u (%s)\n",
                           text, (long long)sizes[0], (long long)sizes[1], (long long)sizes[2],
                           ok ? "" : "error ", ok ? (long long)want : 0LL,
                           s == TESSRT_OK ? "gives" : "fails", s == TESSRT_OK ? grid[0] : 0,
                           s == TESSRT_OK ? "" : tessrt_last_error());
            }
        }
    }
    tessrt_manifest_free(m);
    free(ks);
    free(mks);
    free(names);
    printf("checked %d launches (%d expected errors), %d mismatches\n", checked, errors, mismatches);
    return mismatches != 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "sha256") == 0)
        return cmd_sha256(argv[2], strlen(argv[2]));
    if (argc == 2 && strcmp(argv[1], "sha256-million") == 0)
        return cmd_sha256_million();
    if (argc == 3 && strcmp(argv[1], "sha256-file") == 0)
        return cmd_sha256_file(argv[2]);
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        return cmd_write(argv[2]);
    if (argc == 5 && strcmp(argv[1], "roundtrip") == 0)
        return cmd_roundtrip(argv[2], (unsigned)strtoul(argv[3], NULL, 10), atoi(argv[4]));
    fprintf(stderr, "usage: manifest_write_test sha256|sha256-million|sha256-file|write|roundtrip ...\n");
    return 2;
}
