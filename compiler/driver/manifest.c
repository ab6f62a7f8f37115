/*
 * manifest.c: writes the launch manifest (docs/manifest.md), the last step
 * of emission.
 *
 * In: a ManifestInput (the source's name and bytes, and per kernel its
 * IrKernel, contracts and per-arch artifact records). Out: one JSON file
 * with keys in a fixed order, no times and no absolute paths, so that the
 * same input gives the same bytes from any directory. Grid expressions and
 * contracts are printed in the manifest's expression grammar, which the
 * runtime parses back (runtime/expr.c).
 *
 * This is the compiler's only file that includes cJSON.
 */
#include "manifest.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- expressions ------------------------------------------------------- */

static int manifest_expr_precedence(GridExprKind kind) {
    switch (kind) {
    case GRID_ADD:
    case GRID_SUB:
        return 1;
    case GRID_MUL:
    case GRID_DIV:
    case GRID_REM:
        return 2;
    default:
        return 3;
    }
}

typedef struct ExprBuf {
    char *buf;
    size_t size, used;
} ExprBuf;

__attribute__((format(printf, 2, 3)))
static void expr_put(ExprBuf *out, const char *fmt, ...) {
    if (out->used >= out->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out->buf + out->used, out->size - out->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        out->used += (size_t)n;
}

/* Prints `e`, parenthesized when its precedence is below `min_precedence`. */
static void manifest_expr_print(const GridExpr *e, int min_precedence, ExprBuf *out) {
    if (!e) {
        expr_put(out, "?");
        return;
    }
    static const char *const binary[] = {
        [GRID_ADD] = " + ", [GRID_SUB] = " - ", [GRID_MUL] = " * ", [GRID_DIV] = " / ",
        [GRID_REM] = " % ",
    };
    int p = manifest_expr_precedence(e->kind);
    switch (e->kind) {
    case GRID_CONST:
        expr_put(out, e->value < 0 ? "(%lld)" : "%lld", (long long)e->value);
        return;
    case GRID_SIZE:
        expr_put(out, "%s", e->size);
        return;
    case GRID_RESIDENT:
        expr_put(out, "resident_blocks()");
        return;
    case GRID_CDIV:
    case GRID_MIN:
    case GRID_MAX:
        expr_put(out, "%s(", e->kind == GRID_CDIV ? "cdiv" : e->kind == GRID_MIN ? "min" : "max");
        manifest_expr_print(e->lhs, 0, out);
        expr_put(out, ", ");
        manifest_expr_print(e->rhs, 0, out);
        expr_put(out, ")");
        return;
    case GRID_ADD:
    case GRID_SUB:
    case GRID_MUL:
    case GRID_DIV:
    case GRID_REM:
        if (p < min_precedence)
            expr_put(out, "(");
        manifest_expr_print(e->lhs, p, out);
        expr_put(out, "%s", binary[e->kind]);
        manifest_expr_print(e->rhs, p + 1, out);   /* left-associative */
        if (p < min_precedence)
            expr_put(out, ")");
        return;
    }
    expr_put(out, "?");
}

void manifest_format_expr(const GridExpr *expr, char *buf, size_t size) {
    ExprBuf out = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    manifest_expr_print(expr, 0, &out);
}

/* ---- building the JSON -------------------------------------------------- */

typedef struct Writer {
    char *err;
    size_t errsize;
    bool failed;
} Writer;

__attribute__((format(printf, 2, 3)))
static void writer_fail(Writer *w, const char *fmt, ...) {
    if (w->failed)
        return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, w->errsize, fmt, ap);
    va_end(ap);
}

/* A buffer size that holds the text of `e` whole: the operands and at most
   8 more characters per operator ("cdiv(a, b)", "(a) - (b)"). */
static size_t manifest_expr_size(const GridExpr *e) {
    if (!e)
        return 8;
    if (e->kind == GRID_CONST)
        return 24;
    if (e->kind == GRID_SIZE)
        return strlen(e->size) + 1;
    if (e->kind == GRID_RESIDENT)
        return sizeof "resident_blocks()";
    return manifest_expr_size(e->lhs) + manifest_expr_size(e->rhs) + 8;
}

static cJSON *manifest_expr_string(const GridExpr *e) {
    size_t size = manifest_expr_size(e);   /* size names have no length limit */
    char *buf = malloc(size);
    if (!buf)
        return cJSON_CreateString("?");
    manifest_format_expr(e, buf, size);
    cJSON *s = cJSON_CreateString(buf);
    free(buf);
    return s;
}

static const char *manifest_param_kind(IrParamKind kind) {
    return kind == PARAM_ARRAY ? "array" : kind == PARAM_SCALAR ? "scalar" : "size";
}

static cJSON *manifest_param(Writer *w, const IrKernel *k, const IrParam *p) {
    cJSON *o = cJSON_CreateObject();
    const IrType *t = p->value ? &p->value->type : NULL;
    if (!t) {
        writer_fail(w, "kernel '%s': parameter '%s' has no type", k->name, p->name);
        return o;
    }
    cJSON_AddStringToObject(o, "name", p->name);
    cJSON_AddStringToObject(o, "kind", manifest_param_kind(p->kind));
    cJSON_AddStringToObject(o, "dtype", dtype_name(t->dtype));
    cJSON *shape = cJSON_AddArrayToObject(o, "shape");
    if (p->kind == PARAM_ARRAY) {
        for (int d = 0; d < t->rank; d++) {
            if (t->dims[d].sym)
                cJSON_AddItemToArray(shape, cJSON_CreateString(t->dims[d].sym));
            else
                cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)t->dims[d].size));
        }
        cJSON_AddStringToObject(o, "space", space_name(t->space));
        cJSON_AddStringToObject(o, "access", access_name(t->access));
        if (p->strides) {
            cJSON *strides = cJSON_AddArrayToObject(o, "strides");
            for (int d = 0; d < t->rank; d++) {
                if (p->strides[d].sym)
                    cJSON_AddItemToArray(strides, cJSON_CreateString(p->strides[d].sym));
                else
                    cJSON_AddItemToArray(strides, cJSON_CreateNumber((double)p->strides[d].size));
            }
        }
    }
    return o;
}

static bool manifest_arch_version(const char *arch, int *major, int *minor) {
    int v, n = 0;
    if (!arch || strncmp(arch, "sm_", 3) != 0 || sscanf(arch + 3, "%4d%n", &v, &n) != 1 || v < 10)
        return false;
    const char *rest = arch + 3 + n;
    if (*rest == 'a')
        rest++;
    if (*rest != '\0')
        return false;
    *major = v / 10;
    *minor = v % 10;
    return true;
}

/* What ptxas reported for a cubin (registers, spill bytes), or null: PTX
   has none, and -1 is unknown. */
static void add_ptxas_count(cJSON *o, const char *key, bool cubin, int value) {
    if (cubin && value >= 0)
        cJSON_AddNumberToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

/* "tma": the artifact's second entry, launched with one CUtensorMap per
   map after the kernel's parameters when the arguments meet TMA's rules. */
static cJSON *manifest_tma(const ManifestTma *t, bool cubin) {
    cJSON *o = cJSON_CreateObject();
    /* version 2: the entry's own threads (a producer warpgroup's,
       --hopper-schedule producer), which a reader of version 1 would not
       launch it with: it refuses the record instead */
    cJSON_AddNumberToObject(o, "version", t->threads ? 2 : 1);
    cJSON_AddStringToObject(o, "entry", t->entry);
    cJSON_AddNumberToObject(o, "shared_bytes", (double)t->shared_bytes);
    if (t->threads)
        cJSON_AddNumberToObject(o, "threads", t->threads);
    if (t->min_registers)   /* the runtime checks what the driver's JIT gave a PTX artifact */
        cJSON_AddNumberToObject(o, "min_registers", t->min_registers);
    add_ptxas_count(o, "registers", cubin, t->registers);
    add_ptxas_count(o, "spills", cubin, t->spills);
    cJSON *maps = cJSON_AddArrayToObject(o, "maps");
    for (int i = 0; i < t->num_maps; i++) {
        const ManifestTmaMap *m = &t->maps[i];
        cJSON *mo = cJSON_CreateObject();
        cJSON_AddStringToObject(mo, "param", m->param);
        cJSON_AddStringToObject(mo, "dtype", dtype_name(m->dtype));
        cJSON *box = cJSON_AddArrayToObject(mo, "box");
        for (int d = 0; d < m->rank; d++)
            cJSON_AddItemToArray(box, cJSON_CreateNumber((double)m->box[d]));
        cJSON_AddNumberToObject(mo, "swizzle", m->swizzle_bytes);
        if (m->store)   /* read as any map is: a reader that ignores it encodes the same map */
            cJSON_AddBoolToObject(mo, "store", true);
        if (m->row_warps) {
            cJSON *rows = cJSON_AddObjectToObject(mo, "rows");
            cJSON_AddStringToObject(rows, "order", "wgmma");
            cJSON_AddNumberToObject(rows, "warps", m->row_warps);
            cJSON_AddNumberToObject(rows, "slabs", m->row_slabs);
        }
        cJSON_AddItemToArray(maps, mo);
    }
    return o;
}

static cJSON *manifest_artifact(Writer *w, const IrKernel *k, const ManifestArtifact *a) {
    cJSON *o = cJSON_CreateObject();
    int major, minor, pmajor, pminor, n = 0;
    if (!manifest_arch_version(a->arch, &major, &minor))
        writer_fail(w, "kernel '%s': bad arch '%s'", k->name, a->arch ? a->arch : "(null)");
    if (!a->file || !a->file[0] || a->file[0] == '/' || strstr(a->file, ".."))
        writer_fail(w, "kernel '%s': artifact file '%s' must be a relative name", k->name,
                    a->file ? a->file : "(null)");
    if (!a->ptx_version || sscanf(a->ptx_version, "%3d.%3d%n", &pmajor, &pminor, &n) != 2 ||
        a->ptx_version[n] != '\0')
        writer_fail(w, "kernel '%s': bad PTX version '%s'", k->name,
                    a->ptx_version ? a->ptx_version : "(null)");
    if (a->threads < 1 || a->threads > 1024)
        writer_fail(w, "kernel '%s': artifact '%s' has %d threads per block", k->name, a->file ? a->file : "(null)",
                    a->threads);
    if (w->failed)
        return o;
    cJSON_AddStringToObject(o, "arch", a->arch);
    cJSON_AddStringToObject(o, "kind", a->kind == MANIFEST_PTX ? "ptx" : "cubin");
    cJSON_AddStringToObject(o, "file", a->file);
    cJSON_AddStringToObject(o, "ptx_version", a->ptx_version);
    cJSON_AddNumberToObject(o, "threads", a->threads);
    bool cubin = a->kind == MANIFEST_CUBIN;
    add_ptxas_count(o, "registers", cubin, a->registers);
    add_ptxas_count(o, "spills", cubin, a->spills);
    cJSON_AddNumberToObject(o, "shared_bytes", (double)a->shared_bytes);
    if (a->tma)
        cJSON_AddItemToObject(o, "tma", manifest_tma(a->tma, cubin));
    return o;
}

static const char *const manifest_compare_text[] = {
    [MANIFEST_EQ] = "==", [MANIFEST_NE] = "!=", [MANIFEST_LT] = "<",
    [MANIFEST_LE] = "<=", [MANIFEST_GT] = ">",  [MANIFEST_GE] = ">=",
};

static cJSON *manifest_kernel(Writer *w, const ManifestKernel *mk) {
    const IrKernel *k = mk->kernel;
    cJSON *o = cJSON_CreateObject();
    if (!k) {
        writer_fail(w, "a kernel record has no IrKernel");
        return o;
    }
    cJSON_AddStringToObject(o, "name", k->name);
    cJSON_AddStringToObject(o, "entry", mk->entry ? mk->entry : k->name);

    cJSON *cparams = cJSON_AddObjectToObject(o, "cparams");
    for (int i = 0; i < k->num_cparams; i++) {
        const IrCParam *c = &k->cparams[i];
        double v = c->is_float ? c->float_value : (double)c->int_value;
        if (!isfinite(v) || (!c->is_float && (int64_t)v != c->int_value))
            writer_fail(w, "kernel '%s': compile-time parameter '%s' is not exactly a JSON number",
                        k->name, c->name);
        cJSON_AddItemToObject(cparams, c->name, cJSON_CreateNumber(v));
    }

    cJSON *params = cJSON_AddArrayToObject(o, "params");
    for (int i = 0; i < k->num_params; i++)
        cJSON_AddItemToArray(params, manifest_param(w, k, &k->params[i]));

    cJSON *grid = cJSON_AddArrayToObject(o, "grid");
    for (int d = 0; d < k->grid_rank && d < 3; d++)
        cJSON_AddItemToArray(grid, manifest_expr_string(k->grid[d]));
    if (k->grid_rank <= 0)
        cJSON_AddItemToArray(grid, cJSON_CreateString("1"));

    /* Schema 2: the block size and shared bytes are the artifacts' (each
       target has its own plan); schema 1 had one of each per kernel. */
    cJSON_AddNumberToObject(o, "warps", k->warps);
    cJSON_AddNumberToObject(o, "stages", k->stages);

    cJSON *contracts = cJSON_AddArrayToObject(o, "contracts");
    for (int i = 0; i < mk->num_contracts; i++) {
        const ManifestContract *c = &mk->contracts[i];
        char lhs[512], rhs[512], text[1100];
        manifest_format_expr(c->lhs, lhs, sizeof lhs);
        manifest_format_expr(c->rhs, rhs, sizeof rhs);
        snprintf(text, sizeof text, "%s %s %s", lhs, manifest_compare_text[c->op], rhs);
        cJSON_AddItemToArray(contracts, cJSON_CreateString(text));
    }
    /* The block specs' covers are contracts too ("N <= 4096"), which any
       reader checks; "covers" below lets a newer one say which array, dim
       and block the contract is about. */
    for (int i = 0; i < k->num_covers; i++) {
        const IrCover *c = &k->covers[i];
        bool again = false;   /* x and y of one N and one block: one contract */
        for (int j = 0; j < i; j++)
            again |= k->covers[j].block == c->block &&
                     k->params[k->covers[j].param].value->type.dims[k->covers[j].dim].sym ==
                         k->params[c->param].value->type.dims[c->dim].sym;
        if (again)
            continue;
        char text[300];
        snprintf(text, sizeof text, "%s <= %lld", k->params[c->param].value->type.dims[c->dim].sym,
                 (long long)c->block);
        cJSON_AddItemToArray(contracts, cJSON_CreateString(text));
    }
    if (k->num_covers > 0) {
        cJSON *covers = cJSON_AddArrayToObject(o, "covers");
        for (int i = 0; i < k->num_covers; i++) {
            const IrCover *c = &k->covers[i];
            cJSON *item = cJSON_CreateObject();
            cJSON_AddStringToObject(item, "param", k->params[c->param].name);
            cJSON_AddNumberToObject(item, "dim", c->dim);
            cJSON_AddNumberToObject(item, "block", (double)c->block);
            cJSON_AddItemToArray(covers, item);
        }
    }

    /* tessc -g: the asserts, in the order the GPU numbers them
       (llvm_debug.c); the runtime names the one that failed. */
    int num_asserts = ir_kernel_asserts(k, NULL, 0);
    if (num_asserts > 0) {
        const IrOp **ops = malloc(sizeof *ops * (size_t)num_asserts);
        if (ops) {
            ir_kernel_asserts(k, ops, num_asserts);
            cJSON *list = cJSON_AddArrayToObject(o, "asserts");
            for (int i = 0; i < num_asserts; i++) {
                cJSON *item = cJSON_CreateObject();
                cJSON_AddNumberToObject(item, "line", ops[i]->loc.line);
                cJSON_AddNumberToObject(item, "column", ops[i]->loc.col);
                cJSON_AddStringToObject(item, "message", ops[i]->text);
                cJSON_AddItemToArray(list, item);
            }
            free(ops);
        }
    }

    cJSON *artifacts = cJSON_AddArrayToObject(o, "artifacts");
    int min_major = 8, min_minor = 0, max_major = -1, max_minor = 0;
    bool portable_ptx = false;
    for (int i = 0; i < mk->num_artifacts; i++) {
        const ManifestArtifact *a = &mk->artifacts[i];
        cJSON_AddItemToArray(artifacts, manifest_artifact(w, k, a));
        int major, minor;
        if (!manifest_arch_version(a->arch, &major, &minor))
            continue;
        bool specific = a->arch[strlen(a->arch) - 1] == 'a';
        if (i == 0 || major * 10 + minor < min_major * 10 + min_minor) {
            min_major = major;
            min_minor = minor;
        }
        if (a->kind == MANIFEST_PTX && !specific)
            portable_ptx = true;
        /* a plain cubin runs on later minors of its major */
        int top_minor = a->kind == MANIFEST_CUBIN && !specific ? 9 : minor;
        if (major * 10 + top_minor > max_major * 10 + max_minor) {
            max_major = major;
            max_minor = top_minor;
        }
    }
    cJSON *cc = cJSON_AddObjectToObject(o, "compute_capability");
    char version[32];
    snprintf(version, sizeof version, "%d.%d", min_major, min_minor);
    cJSON_AddStringToObject(cc, "min", version);
    if (portable_ptx || max_major < 0) {
        cJSON_AddNullToObject(cc, "max");
    } else {
        snprintf(version, sizeof version, "%d.%d", max_major, max_minor);
        cJSON_AddStringToObject(cc, "max", version);
    }
    if (mk->interp)
        cJSON_AddStringToObject(o, "interp", mk->interp);
    if (mk->interp_tir)
        cJSON_AddStringToObject(o, "interp_tir", mk->interp_tir);
    return o;
}

static const char *manifest_basename(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The input's name as JSON can hold it: each byte that is not part of a
   valid UTF-8 sequence becomes U+FFFD, as in the JSON and SARIF
   diagnostics (diag.c). The field is informational (source_sha256 names
   the source); the artifacts' names, which the runtime opens, are never
   changed: the driver refuses a manifest for an input whose stem is not
   UTF-8. NULL when out of memory. */
static char *manifest_utf8(const char *s) {
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1), *q = out;
    if (!out)
        return NULL;
    for (const char *p = s; *p;) {
        int len = utf8_length(p);
        if (len == 0) {
            memcpy(q, "\xef\xbf\xbd", 3);
            q += 3, p++;
        } else {
            memcpy(q, p, (size_t)len);
            q += len, p += len;
        }
    }
    *q = '\0';
    return out;
}

/* ---- writing the file ------------------------------------------------------ */

static bool manifest_write_file(const char *path, const char *text, char *err, size_t errsize) {
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(err, errsize, "%s: out of memory", path);
        return false;
    }
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    size_t len = strlen(text);
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f) {
        if (fclose(f) != 0)
            ok = false;
    } else {
        close(fd);
    }
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
}

char *manifest_format(const ManifestInput *input, char *err, size_t errsize) {
    Writer w = {err, errsize, false};
    if (!input || !input->source_name || (input->source_length && !input->source_bytes)) {
        snprintf(err, errsize, "manifest_format: missing source name or source bytes");
        return NULL;
    }
    char digest[65];
    sha256_hex(input->source_bytes ? input->source_bytes : "", input->source_length, digest);

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", MANIFEST_SCHEMA);
    char *source = manifest_utf8(manifest_basename(input->source_name));
    if (!source) {
        snprintf(err, errsize, "out of memory");
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_AddStringToObject(root, "source", source);
    free(source);
    cJSON_AddStringToObject(root, "source_sha256", digest);
    cJSON_AddStringToObject(root, "tessc_version", TESSC_VERSION);
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (int i = 0; i < input->num_kernels; i++)
        cJSON_AddItemToArray(kernels, manifest_kernel(&w, &input->kernels[i]));
    char *text = w.failed ? NULL : cJSON_Print(root);
    cJSON_Delete(root);
    if (w.failed)
        return NULL;
    size_t len = text ? strlen(text) : 0;
    char *out = text ? malloc(len + 2) : NULL;
    if (!out) {
        snprintf(err, errsize, "out of memory");
        cJSON_free(text);
        return NULL;
    }
    memcpy(out, text, len);
    out[len] = '\n';
    out[len + 1] = '\0';
    cJSON_free(text);
    return out;
}

bool manifest_write(const char *path, const ManifestInput *input, char *err, size_t errsize) {
    if (!path) {
        snprintf(err, errsize, "manifest_write: missing path");
        return false;
    }
    char *text = manifest_format(input, err, errsize);
    if (!text)
        return false;
    bool ok = manifest_write_file(path, text, err, errsize);
    free(text);
    return ok;
}
