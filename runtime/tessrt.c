/*
 * tessrt.c: the public API over a loaded manifest: errors, queries, argument
 * and contract checks, grid computation, artifact choice and launch.
 *
 * A launch runs: check the arguments against the kernel's params (count,
 * kinds, scalar dtypes, sizes in range), evaluate the contracts and the grid
 * over the size arguments, load the module on the device once (driver.c),
 * and call cuLaunchKernel. Everything before the module load works without a
 * driver, so tests and tools check arguments on machines with no GPU.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- errors ---------------------------------------------------------------- */

static _Thread_local char tessrt_message[2048];

tessrt_status tessrt_fail(tessrt_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tessrt_message, sizeof tessrt_message, fmt, ap);
    va_end(ap);
    return status;
}

const char *tessrt_last_error(void) { return tessrt_message; }

const char *tessrt_error_string(tessrt_status status) {
    switch (status) {
    case TESSRT_OK: return "success";
    case TESSRT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case TESSRT_ERROR_IO: return "file could not be read";
    case TESSRT_ERROR_MANIFEST: return "malformed manifest";
    case TESSRT_ERROR_NOT_FOUND: return "no such kernel";
    case TESSRT_ERROR_LAUNCH_ARGUMENTS: return "launch arguments do not match the kernel";
    case TESSRT_ERROR_CONTRACT: return "a kernel contract does not hold";
    case TESSRT_ERROR_NO_DRIVER: return "no CUDA driver";
    case TESSRT_ERROR_NO_DEVICE: return "no such CUDA device";
    case TESSRT_ERROR_NO_ARTIFACT: return "no artifact runs on the device";
    case TESSRT_ERROR_CUDA: return "CUDA driver call failed";
    case TESSRT_ERROR_OUT_OF_MEMORY: return "out of memory";
    case TESSRT_ERROR_NO_INTERPRETER: return "no interpreter";
    case TESSRT_ERROR_INTERPRETER: return "the interpreter caught an error in the kernel";
    case TESSRT_ERROR_ASSERT: return "an assert in the kernel failed";
    }
    return "unknown status";
}

/* ---- dtypes ------------------------------------------------------------------ */

static const struct {
    const char *name;
    size_t bytes;
} tessrt_dtypes[TESSRT_DTYPE_COUNT] = {
    [TESSRT_BOOL] = {"bool", 1}, [TESSRT_I8] = {"i8", 1},    [TESSRT_I16] = {"i16", 2},
    [TESSRT_I32] = {"i32", 4},   [TESSRT_I64] = {"i64", 8},  [TESSRT_U8] = {"u8", 1},
    [TESSRT_U32] = {"u32", 4},   [TESSRT_F16] = {"f16", 2},  [TESSRT_BF16] = {"bf16", 2},
    [TESSRT_F32] = {"f32", 4},   [TESSRT_F64] = {"f64", 8},  [TESSRT_U16] = {"u16", 2},
    [TESSRT_U64] = {"u64", 8},   [TESSRT_F8E4M3] = {"f8e4m3", 1}, [TESSRT_F8E5M2] = {"f8e5m2", 1},
};

const char *tessrt_dtype_name(tessrt_dtype dtype) {
    return (unsigned)dtype < TESSRT_DTYPE_COUNT ? tessrt_dtypes[dtype].name : "?";
}

size_t tessrt_dtype_bytes(tessrt_dtype dtype) {
    return (unsigned)dtype < TESSRT_DTYPE_COUNT ? tessrt_dtypes[dtype].bytes : 0;
}

/* ---- manifests and kernels ------------------------------------------------- */

void tessrt_manifest_free(tessrt_manifest *m) {
    if (!m)
        return;
    tessrt_driver_unload(m);
    tessrt_device_interp_unload(m);
    pthread_mutex_destroy(&m->lock);
    tessrt_pool_free(&m->pool);
    free(m);
}

int tessrt_manifest_num_kernels(const tessrt_manifest *m) { return m ? m->num_kernels : 0; }

tessrt_status tessrt_manifest_kernel_at(const tessrt_manifest *m, int index, tessrt_kernel **out) {
    if (!m || !out || index < 0 || index >= m->num_kernels)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_manifest_kernel_at: no kernel %d",
                           index);
    *out = &m->kernels[index];
    return TESSRT_OK;
}

tessrt_status tessrt_kernel_get(const tessrt_manifest *m, const char *name, tessrt_kernel **out) {
    if (!m || !name || !out)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_get: NULL argument");
    for (int i = 0; i < m->num_kernels; i++) {
        if (strcmp(m->kernels[i].name, name) == 0) {
            *out = &m->kernels[i];
            return TESSRT_OK;
        }
    }
    char names[512] = "";
    size_t used = 0;
    for (int i = 0; i < m->num_kernels && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                 m->kernels[i].name);
    return tessrt_fail(TESSRT_ERROR_NOT_FOUND, "%s: no kernel '%s' (it has: %s)", m->path, name,
                       m->num_kernels ? names : "none");
}

const char *tessrt_kernel_name(const tessrt_kernel *k) { return k ? k->name : NULL; }
int tessrt_kernel_threads(const tessrt_kernel *k) { return k ? k->threads : 0; }
bool tessrt_kernel_persistent(const tessrt_kernel *k) { return k && k->persistent; }
int tessrt_kernel_num_params(const tessrt_kernel *k) { return k ? k->num_params : 0; }

tessrt_status tessrt_kernel_param(const tessrt_kernel *k, int index, tessrt_param_info *info) {
    if (!k || !info || index < 0 || index >= k->num_params)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_param: no parameter %d",
                           index);
    const TessrtParam *p = &k->params[index];
    memset(info, 0, sizeof *info);
    info->name = p->name;
    info->kind = p->kind;
    info->dtype = p->dtype;
    info->access = p->access;
    info->rank = p->rank;
    for (int d = 0; d < p->rank; d++) {
        info->dims[d] = p->dims[d];
        info->dim_names[d] = p->dim_names[d];
    }
    return TESSRT_OK;
}

int64_t tessrt_param_elements(const TessrtParam *p, const int64_t *sizes) {
    int64_t n = 1, reach = 1;
    for (int d = 0; d < p->rank; d++) {
        int64_t dim = p->dim_params[d] >= 0 ? sizes[p->dim_params[d]] : p->dims[d];
        if (dim == 0)
            return 0;
        if (p->strided) {
            int64_t st = p->stride_params[d] >= 0 ? sizes[p->stride_params[d]] : p->strides[d];
            if (__builtin_mul_overflow(dim - 1, st, &st) || __builtin_add_overflow(reach, st, &reach))
                return INT64_MAX;
        } else if (__builtin_mul_overflow(n, dim, &n)) {
            return INT64_MAX;
        }
    }
    return p->strided ? reach : n;
}

tessrt_status tessrt_kernel_param_strides(const tessrt_kernel *k, int index, int64_t strides[TESSRT_MAX_RANK],
                                          const char *names[TESSRT_MAX_RANK], bool *strided) {
    if (!k || !strides || !names || !strided || index < 0 || index >= k->num_params)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_param_strides: no parameter %d",
                           index);
    const TessrtParam *p = &k->params[index];
    *strided = p->strided;
    for (int d = 0; d < TESSRT_MAX_RANK; d++) {
        strides[d] = d < p->rank && p->strided ? p->strides[d] : 0;
        names[d] = d < p->rank && p->strided ? p->stride_names[d] : NULL;
    }
    return TESSRT_OK;
}

/* ---- artifact choice ----------------------------------------------------- */

static int artifact_rank(const TessrtArtifact *a) { return (a->major * 10 + a->minor) * 2 + a->arch_specific; }

tessrt_status tessrt_kernel_artifact_for(const tessrt_kernel *k, int major, int minor, int *index,
                                         char *desc, size_t desc_size) {
    if (!k || !index)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_artifact_for: NULL argument");
    int best = -1;
    /* 1. the cubin of exactly this SM (the arch-specific one first) */
    for (int i = 0; i < k->num_artifacts; i++) {
        const TessrtArtifact *a = &k->artifacts[i];
        if (a->kind == TESSRT_ARTIFACT_CUBIN && a->major == major && a->minor == minor &&
            (best < 0 || artifact_rank(a) > artifact_rank(&k->artifacts[best])))
            best = i;
    }
    /* 2. the newest PTX the driver can JIT for this SM */
    for (int i = 0; i < k->num_artifacts && best < 0; i++) {
        const TessrtArtifact *a = &k->artifacts[i];
        bool fits = a->arch_specific ? (a->major == major && a->minor == minor)
                                     : (a->major < major || (a->major == major && a->minor <= minor));
        if (a->kind == TESSRT_ARTIFACT_PTX && fits)
            best = i;
    }
    if (best >= 0 && k->artifacts[best].kind == TESSRT_ARTIFACT_PTX) {
        for (int i = 0; i < k->num_artifacts; i++) {
            const TessrtArtifact *a = &k->artifacts[i];
            bool fits = a->arch_specific ? (a->major == major && a->minor == minor)
                                         : (a->major < major || (a->major == major && a->minor <= minor));
            if (a->kind == TESSRT_ARTIFACT_PTX && fits && artifact_rank(a) > artifact_rank(&k->artifacts[best]))
                best = i;
        }
    }
    /* 3. a cubin of the same major and a lower minor (binary compatible) */
    for (int i = 0; i < k->num_artifacts && best < 0; i++) {
        const TessrtArtifact *a = &k->artifacts[i];
        if (a->kind == TESSRT_ARTIFACT_CUBIN && !a->arch_specific && a->major == major && a->minor < minor)
            best = i;
    }
    if (best < 0) {
        char have[1024] = "";
        size_t used = 0;
        for (int i = 0; i < k->num_artifacts && used < sizeof have; i++) {
            const TessrtArtifact *a = &k->artifacts[i];
            used += (size_t)snprintf(have + used, sizeof have - used, "%s%s for %d.%d (%s)",
                                     i ? ", " : "", a->kind == TESSRT_ARTIFACT_PTX ? "PTX" : "cubin",
                                     a->major, a->minor, a->arch);
        }
        return tessrt_fail(TESSRT_ERROR_NO_ARTIFACT,
                           "kernel '%s': no artifact runs on compute capability %d.%d; the manifest "
                           "has %s",
                           k->name, major, minor, k->num_artifacts ? have : "none");
    }
    *index = best;
    if (desc && desc_size) {
        const TessrtArtifact *a = &k->artifacts[best];
        snprintf(desc, desc_size, "%s %s %s", a->arch,
                 a->kind == TESSRT_ARTIFACT_PTX ? "ptx" : "cubin", a->file);
    }
    return TESSRT_OK;
}

tessrt_status tessrt_kernel_artifact_launch(const tessrt_kernel *k, int index, int *threads, int *shared_bytes) {
    if (!k || index < 0 || index >= k->num_artifacts)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_artifact_launch: no artifact %d", index);
    if (threads)
        *threads = k->artifacts[index].threads;
    if (shared_bytes)
        *shared_bytes = k->artifacts[index].shared_bytes;
    return TESSRT_OK;
}

/* ---- argument checks, contracts, grid -------------------------------------- */

static const char *kind_with_article(tessrt_param_kind kind) {
    return kind == TESSRT_PARAM_ARRAY ? "an array" : kind == TESSRT_PARAM_SCALAR ? "a scalar" : "a size";
}

static const char *arg_kind_with_article(tessrt_arg_kind kind) {
    return kind == TESSRT_ARG_ARRAY ? "an array" : kind == TESSRT_ARG_SCALAR ? "a scalar"
                                 : kind == TESSRT_ARG_SIZE ? "a size" : "an invalid kind";
}

/* Appends "N = 1000, M = 3" for the sizes an expression reads. */
static void describe_sizes(const tessrt_kernel *k, const TessrtExpr *e, const int64_t *sizes,
                           bool *seen, char *buf, size_t size) {
    if (!e)
        return;
    if (e->kind == TX_SIZE && !seen[e->size]) {
        seen[e->size] = true;
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s = %lld", used ? ", " : "", k->params[e->size].name,
                 (long long)sizes[e->size]);
    }
    describe_sizes(k, e->lhs, sizes, seen, buf, size);
    describe_sizes(k, e->rhs, sizes, seen, buf, size);
}

/* Fills sizes[] (indexed by param) from the arguments after checking them;
   sizes[num_params] is resident_blocks() (resident_grid), unbounded here:
   a persistent grid's min(tiles, resident_blocks()) is then its tile
   count, which the grid's checks hold to the kernel's i32 program ids. */
static tessrt_status check_arguments(const tessrt_kernel *k, const tessrt_arg *args, int num_args,
                                     int64_t *sizes) {
    if (num_args > 0 && !args)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT,
                           "kernel '%s': args is NULL but num_args is %d", k->name, num_args);
    if (num_args != k->num_params) {
        char names[512] = "";
        size_t used = 0;
        for (int i = 0; i < k->num_params && used < sizeof names; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     k->params[i].name);
        return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS, "kernel '%s' takes %d arguments (%s), got %d",
                           k->name, k->num_params, names, num_args);
    }
    for (int i = 0; i < k->num_params; i++) {
        const TessrtParam *p = &k->params[i];
        const tessrt_arg *a = &args[i];
        sizes[i] = 0;
        bool kind_ok = (p->kind == TESSRT_PARAM_ARRAY && a->kind == TESSRT_ARG_ARRAY) ||
                       (p->kind == TESSRT_PARAM_SCALAR && a->kind == TESSRT_ARG_SCALAR) ||
                       (p->kind == TESSRT_PARAM_SIZE && a->kind == TESSRT_ARG_SIZE);
        if (!kind_ok)
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS,
                               "kernel '%s', argument %d ('%s'): expected %s, got %s", k->name, i,
                               p->name, kind_with_article(p->kind), arg_kind_with_article(a->kind));
        if (p->kind == TESSRT_PARAM_SCALAR && a->dtype != p->dtype)
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS,
                               "kernel '%s', argument %d ('%s'): expected a scalar of dtype %s, got %s",
                               k->name, i, p->name, tessrt_dtype_name(p->dtype),
                               tessrt_dtype_name(a->dtype));
        if (p->kind == TESSRT_PARAM_SIZE) {
            int64_t limit = p->dtype == TESSRT_I32 ? INT32_MAX : INT64_MAX;
            if (a->value.size < 0 || a->value.size > limit)
                return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS,
                                   "kernel '%s', size '%s' is %lld; expected 0 to %lld", k->name,
                                   p->name, (long long)a->value.size, (long long)limit);
            sizes[i] = a->value.size;
        }
        if (p->kind == TESSRT_PARAM_SCALAR && p->dtype == TESSRT_I32)
            sizes[i] = a->value.i32;   /* a grid may name it (manifest_load.c load_resolve_grid) */
    }
    sizes[k->num_params] = INT64_MAX;
    for (int i = 0; i < k->num_params; i++) {
        const TessrtParam *p = &k->params[i];
        if (p->kind != TESSRT_PARAM_ARRAY || args[i].value.pointer != 0)
            continue;
        bool empty = false;
        for (int d = 0; d < p->rank; d++)
            if ((p->dim_params[d] >= 0 ? sizes[p->dim_params[d]] : p->dims[d]) == 0)
                empty = true;
        if (!empty)
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS,
                               "kernel '%s', argument %d ('%s'): NULL device pointer for a "
                               "non-empty array",
                               k->name, i, p->name);
    }
    return TESSRT_OK;
}

static tessrt_status check_contracts_and_grid(const tessrt_kernel *k, const int64_t *sizes,
                                              uint32_t grid[3]) {
    char err[256];
    bool seen[256];
    /* the block covers first: their message names the array and the dim
       (compiler/interp/interp.c's bind_params writes the same one) */
    for (int i = 0; i < k->num_covers; i++) {
        const TessrtCover *c = &k->covers[i];
        const TessrtParam *p = &k->params[c->param];
        int size_param = p->dim_params[c->dim];
        int64_t n = sizes[size_param];
        if (n > c->block)
            return tessrt_fail(TESSRT_ERROR_CONTRACT,
                               "kernel '%s': array '%s' has %s = %lld along dim %d, more than its block's %lld: "
                               "the block spec reaches only elements 0 to %lld there (contract '%s <= %lld')",
                               k->name, p->name, k->params[size_param].name, (long long)n, c->dim,
                               (long long)c->block, (long long)c->block - 1, k->params[size_param].name,
                               (long long)c->block);
    }
    for (int i = 0; i < k->num_contracts; i++) {
        const TessrtContract *c = &k->contracts[i];
        int64_t lhs, rhs;
        char values[512] = "";
        memset(seen, 0, sizeof seen);
        if (k->num_params <= (int)sizeof seen) {
            describe_sizes(k, c->lhs, sizes, seen, values, sizeof values);
            describe_sizes(k, c->rhs, sizes, seen, values, sizeof values);
        }
        if (!tessrt_expr_eval(c->lhs, sizes, &lhs, err, sizeof err) ||
            !tessrt_expr_eval(c->rhs, sizes, &rhs, err, sizeof err))
            return tessrt_fail(TESSRT_ERROR_CONTRACT, "kernel '%s': contract '%s': %s (%s)", k->name,
                               c->text, err, values);
        if (!tessrt_expr_compare(c->op, lhs, rhs))
            return tessrt_fail(TESSRT_ERROR_CONTRACT, "kernel '%s': contract '%s' does not hold (%s)",
                               k->name, c->text, values);
    }
    static const int64_t limits[3] = {INT32_MAX, 65535, 65535};
    for (int d = 0; d < 3; d++) {
        int64_t v = 1;
        if (d < k->grid_rank && !tessrt_expr_eval(k->grid[d], sizes, &v, err, sizeof err))
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS, "kernel '%s': grid[%d] '%s': %s",
                               k->name, d, k->grid_text[d], err);
        if (v < 0 || v > limits[d])
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS,
                               "kernel '%s': grid[%d] '%s' is %lld; expected 0 to %lld", k->name, d,
                               k->grid_text[d], (long long)v, (long long)limits[d]);
        grid[d] = (uint32_t)v;
    }
    return TESSRT_OK;
}

/* A persistent grid (docs/manifest.md "resident_blocks()"): the grid again,
   with resident_blocks() the blocks of the entry that runs (`function`,
   its block and shared memory) the device holds at once. The tile count
   passed the checks; this only lowers grid[0] to at most it. */
static tessrt_status resident_grid(const tessrt_kernel *k, int ordinal, void *function, int threads, int shared,
                                   int64_t *sizes, uint32_t grid[3]) {
    int64_t resident;
    tessrt_status s = tessrt_driver_resident(k, ordinal, function, threads, shared, &resident);
    if (s != TESSRT_OK)
        return s;
    sizes[k->num_params] = resident;
    char err[256];
    for (int d = 0; d < k->grid_rank; d++) {
        int64_t v;
        if (!tessrt_expr_eval(k->grid[d], sizes, &v, err, sizeof err))
            return tessrt_fail(TESSRT_ERROR_LAUNCH_ARGUMENTS, "kernel '%s': grid[%d] '%s': %s", k->name, d,
                               k->grid_text[d], err);
        if (v >= 0 && v <= grid[d])
            grid[d] = (uint32_t)v;
    }
    sizes[k->num_params] = INT64_MAX;
    return TESSRT_OK;
}

tessrt_status tessrt_kernel_check(const tessrt_kernel *k, const tessrt_arg *args, int num_args,
                                  uint32_t grid[3]) {
    if (!k || !grid)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_check: NULL argument");
    int64_t small[32];
    int64_t *sizes = k->num_params < 32 ? small : malloc(sizeof *sizes * (size_t)(k->num_params + 1));
    if (!sizes)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "out of memory");
    tessrt_status s = check_arguments(k, args, num_args, sizes);
    if (s == TESSRT_OK)
        s = check_contracts_and_grid(k, sizes, grid);
    if (sizes != small)
        free(sizes);
    return s;
}

/* ---- launch ---------------------------------------------------------------- */

tessrt_status tessrt_kernel_prepare(const tessrt_kernel *k, int device, char *chosen,
                                    size_t chosen_size) {
    if (!k)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_prepare: NULL kernel");
    bool interp;
    tessrt_status s = tessrt_device_route(device, &interp);
    if (s == TESSRT_OK && interp)
        return tessrt_device_interp_prepare(k, chosen, chosen_size);
    int ordinal, threads, shared;
    void *function;
    if (s == TESSRT_OK)
        s = tessrt_driver_device(device, &ordinal);
    if (s == TESSRT_OK)
        s = tessrt_driver_load(k, ordinal, &function, &threads, &shared);
    if (s == TESSRT_OK && chosen && chosen_size) {
        const TessrtArtifact *a = &k->artifacts[k->loaded[ordinal].artifact];
        snprintf(chosen, chosen_size, "%s %s %s", a->arch,
                 a->kind == TESSRT_ARTIFACT_PTX ? "ptx" : "cubin", a->file);
    }
    return s;
}

static tessrt_status entry_for(const tessrt_kernel *k, int device, bool interp, const tessrt_arg *args,
                               const int64_t *sizes, char *desc, size_t desc_size);

tessrt_status tessrt_kernel_entry_for(const tessrt_kernel *k, int device, const tessrt_arg *args, int num_args,
                                      char *desc, size_t desc_size) {
    if (!k || !desc || !desc_size)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_kernel_entry_for: NULL argument");
    int64_t small[32];
    int64_t *sizes = k->num_params < 32 ? small : malloc(sizeof *sizes * (size_t)(k->num_params + 1));
    if (!sizes)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t grid[3];
    bool interp = false;
    tessrt_status s = check_arguments(k, args, num_args, sizes);
    if (s == TESSRT_OK)
        s = check_contracts_and_grid(k, sizes, grid);
    if (s == TESSRT_OK)
        s = tessrt_device_route(device, &interp);
    if (s == TESSRT_OK)
        s = entry_for(k, device, interp, args, sizes, desc, desc_size);
    if (sizes != small)
        free(sizes);
    return s;
}

/* tessrt_kernel_entry_for after the checks: `sizes` are the arguments'. */
static tessrt_status entry_for(const tessrt_kernel *k, int device, bool interp, const tessrt_arg *args,
                               const int64_t *sizes, char *desc, size_t desc_size) {
    tessrt_status s;
    if (interp) {
        snprintf(desc, desc_size, "the interpreter");
        return TESSRT_OK;
    }
    int ordinal, threads, shared;
    void *function;
    s = tessrt_driver_device(device, &ordinal);
    if (s == TESSRT_OK)
        s = tessrt_driver_load(k, ordinal, &function, &threads, &shared);
    if (s != TESSRT_OK)
        return s;
    const TessrtArtifact *a = &k->artifacts[k->loaded[ordinal].artifact];
    _Alignas(64) unsigned char maps[TESSRT_MAX_TMA_MAPS][128];
    char why[300];
    if (!a->tma)
        snprintf(desc, desc_size, "entry %s", k->entry);
    else if (tessrt_driver_tma(k, ordinal, args, sizes, &function, &threads, &shared, maps, why, sizeof why)) {
        int stores = 0;
        for (int i = 0; i < a->tma->num_maps; i++)
            stores += a->tma->maps[i].store;
        char through[64] = "";
        if (stores)
            snprintf(through, sizeof through, ", %d of them for stores", stores);
        snprintf(desc, desc_size, "entry %s (TMA, %d tensor maps%s%s)", a->tma->entry, a->tma->num_maps, through,
                 threads > a->threads ? ", a producer warpgroup" : "");
    } else {
        snprintf(desc, desc_size, "entry %s, not the TMA entry %s: %s", k->entry, a->tma->entry, why);
    }
    int64_t resident;
    if (k->persistent && tessrt_driver_resident(k, ordinal, function, threads, shared, &resident) == TESSRT_OK) {
        size_t n = strlen(desc);
        snprintf(desc + n, desc_size - n, ", %lld resident blocks", (long long)resident);
    }
    return TESSRT_OK;
}

/* One launch parameter's storage: sizes are converted to their dtype here. */
typedef union LaunchValue {
    int32_t i32;
    int64_t i64;
} LaunchValue;

tessrt_status tessrt_launch(const tessrt_kernel *k, int device, const tessrt_arg *args,
                            int num_args, void *stream) {
    if (!k)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_launch: NULL kernel");
    enum { SMALL = 32 };
    int64_t small_sizes[SMALL];
    void *small_params[SMALL + TESSRT_MAX_TMA_MAPS];
    LaunchValue small_values[SMALL];
    int64_t *sizes = small_sizes;
    void **params = small_params;
    LaunchValue *values = small_values;
    if (k->num_params >= SMALL) {
        sizes = malloc(sizeof *sizes * (size_t)(k->num_params + 1));
        params = malloc(sizeof *params * (size_t)(k->num_params + TESSRT_MAX_TMA_MAPS));
        values = malloc(sizeof *values * (size_t)k->num_params);
        if (!sizes || !params || !values) {
            free(sizes);
            free(params);
            free(values);
            return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "out of memory");
        }
    }
    uint32_t grid[3];
    tessrt_status s = check_arguments(k, args, num_args, sizes);
    if (s == TESSRT_OK)
        s = check_contracts_and_grid(k, sizes, grid);
    bool interp = false;
    if (s == TESSRT_OK && grid[0] && grid[1] && grid[2])
        s = tessrt_device_route(device, &interp);
    if (s == TESSRT_OK && interp) {
        s = tessrt_device_interp_launch(k, args, num_args);
    } else if (s == TESSRT_OK && grid[0] && grid[1] && grid[2]) {
        int ordinal, threads, shared;
        void *function;
        s = tessrt_driver_device(device, &ordinal);
        if (s == TESSRT_OK)
            s = tessrt_driver_load(k, ordinal, &function, &threads, &shared);
        if (s == TESSRT_OK) {
            for (int i = 0; i < k->num_params; i++) {
                const TessrtParam *p = &k->params[i];
                if (p->kind == TESSRT_PARAM_SIZE) {
                    if (p->dtype == TESSRT_I32)
                        values[i].i32 = (int32_t)sizes[i];
                    else
                        values[i].i64 = sizes[i];
                    params[i] = &values[i];
                } else {
                    /* the union's members all start at its first byte */
                    params[i] = (void *)&args[i].value;
                }
            }
            /* the TMA entry when these arguments meet its rules, with its
               tensor maps after the kernel's parameters (docs/manifest.md "tma") */
            _Alignas(64) unsigned char maps[TESSRT_MAX_TMA_MAPS][128];
            char why[8];
            const TessrtArtifact *a = &k->artifacts[k->loaded[ordinal].artifact];
            if (a->tma && tessrt_driver_tma(k, ordinal, args, sizes, &function, &threads, &shared, maps, why, sizeof why))
                for (int i = 0; i < a->tma->num_maps; i++)
                    params[k->num_params + i] = maps[i];
            if (k->persistent)
                s = resident_grid(k, ordinal, function, threads, shared, sizes, grid);
            if (s == TESSRT_OK)
                s = tessrt_driver_launch(k, ordinal, function, grid, threads, shared, stream, params);
        }
    }
    if (sizes != small_sizes) {
        free(sizes);
        free(params);
        free(values);
    }
    return s;
}

FILE *tessrt_open_input(const char *path, bool *not_regular) {
    *not_regular = false;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *not_regular = true;
        close(fd);
        errno = 0;
        return NULL;
    }
    FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f)
        close(fd);
    return f;
}
