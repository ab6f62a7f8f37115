/*
 * manifest_load.c: reads and validates a launch manifest (docs/manifest.md).
 *
 * In: the path of a JSON manifest written by tessc. Out: a tessrt_manifest
 * whose strings, params, expressions and artifacts all come from one pool.
 * Every field is checked here, once, so that a launch never meets a
 * malformed value: a missing field or a wrong type is an error that names the
 * file and the field's path ("m.json: kernels[0].params[1]: missing field
 * 'dtype'"). Unknown fields are ignored (later schema minor additions).
 * Both schemas are read: "tessera-manifest/2" has threads per artifact;
 * "tessera-manifest/1" has threads and shared bytes per kernel, and each of
 * its artifacts launches with the kernel's threads.
 *
 * This is the runtime's only file that includes cJSON; no cJSON object
 * outlives tessrt_manifest_load.
 */
#include "internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the pool ------------------------------------------------------------ */

struct TessrtPoolChunk {
    TessrtPoolChunk *next;
    max_align_t align[];
};

void *tessrt_pool_alloc(TessrtPool *pool, size_t size) {
    TessrtPoolChunk *c = calloc(1, sizeof *c + size + 1);
    if (!c)
        return NULL;
    c->next = pool->chunks;
    pool->chunks = c;
    return c->align;
}

char *tessrt_pool_strdup(TessrtPool *pool, const char *s) {
    size_t n = strlen(s);
    char *d = tessrt_pool_alloc(pool, n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

void tessrt_pool_free(TessrtPool *pool) {
    while (pool->chunks) {
        TessrtPoolChunk *next = pool->chunks->next;
        free(pool->chunks);
        pool->chunks = next;
    }
}

/* ---- field access with messages ----------------------------------------- */

typedef struct Loader {
    const char *path;            /* as given, for messages */
    const char *dir;             /* directory of the manifest, "" for the current one */
    TessrtPool *pool;
    tessrt_status status;        /* first failure */
    tessrt_kernel *kernel;       /* being loaded, for the size resolver */
    const tessrt_image *images;  /* tessrt_manifest_load_memory: the artifacts, by file name */
    int num_images;
    bool memory;                 /* nothing is read from disk */
    int schema;                  /* 1 or 2 (docs/manifest.md, "Schema versions") */
} Loader;

__attribute__((format(printf, 3, 4)))
static bool load_fail(Loader *ld, const char *field, const char *fmt, ...) {
    if (ld->status != TESSRT_OK)
        return false;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (field && *field)
        ld->status = tessrt_fail(TESSRT_ERROR_MANIFEST, "%s: %s: %s", ld->path, field, msg);
    else
        ld->status = tessrt_fail(TESSRT_ERROR_MANIFEST, "%s: %s", ld->path, msg);
    return false;
}

/* Writes a field path such as "kernels[0].params[1]" (truncated if huge). */
__attribute__((format(printf, 3, 4)))
static void field_path(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

static const char *json_type_name(const cJSON *item) {
    if (cJSON_IsNull(item)) return "null";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsArray(item)) return "a list";
    if (cJSON_IsObject(item)) return "an object";
    return "an invalid value";
}

typedef enum JsonWant { WANT_STRING, WANT_INT, WANT_ARRAY, WANT_OBJECT, WANT_ANY } JsonWant;

static const char *want_name(JsonWant want) {
    switch (want) {
    case WANT_STRING: return "a string";
    case WANT_INT: return "an integer";
    case WANT_ARRAY: return "a list";
    case WANT_OBJECT: return "an object";
    case WANT_ANY: return "a value";
    }
    return "?";
}

static bool json_is_int(const cJSON *item) {
    if (!cJSON_IsNumber(item))
        return false;
    double v = item->valuedouble;
    /* The range first: converting a double outside int64 is undefined.
       Below 2^53 in magnitude every integer is exact; 2^53 itself may be a
       rounded 2^53 + 1, so it is out of range too. */
    return v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v;
}

/* What is wrong with a value where an integer was wanted: "a string", or
   for a number, that it is out of range or not whole. */
static const char *json_not_int(const cJSON *item, char *buf, size_t size) {
    if (!cJSON_IsNumber(item))
        return json_type_name(item);
    double v = item->valuedouble;
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {   /* the shortest text that reads back */
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    if (!(v > -9007199254740992.0 && v < 9007199254740992.0))
        snprintf(buf, size, "%s, which is out of range (too large: an integer here is below 2^53 in magnitude)",
                 text);
    else
        snprintf(buf, size, "%s, which is not a whole number", text);
    return buf;
}

static bool json_has(const cJSON *item, JsonWant want) {
    switch (want) {
    case WANT_STRING: return cJSON_IsString(item) && item->valuestring;
    case WANT_INT: return json_is_int(item);
    case WANT_ARRAY: return cJSON_IsArray(item);
    case WANT_OBJECT: return cJSON_IsObject(item);
    case WANT_ANY: return true;
    }
    return false;
}

/* Checks an item already in hand (a list element). */
static bool check_item(Loader *ld, const cJSON *item, JsonWant want, const char *field) {
    if (json_has(item, want))
        return true;
    char number[160];
    load_fail(ld, field, "expected %s, got %s", want_name(want),
              want == WANT_INT ? json_not_int(item, number, sizeof number) : json_type_name(item));
    return false;
}

/* The member `key` of `obj` (whose path is `where`); NULL after an error. */
static const cJSON *member(Loader *ld, const cJSON *obj, const char *where, const char *key,
                           JsonWant want) {
    if (ld->status != TESSRT_OK)
        return NULL;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) {
        load_fail(ld, where, "missing field '%s'", key);
        return NULL;
    }
    char field[256];
    field_path(field, sizeof field, "%s%s%s", where, *where ? "." : "", key);
    return check_item(ld, item, want, field) ? item : NULL;
}

static const char *member_string(Loader *ld, const cJSON *obj, const char *where, const char *key) {
    const cJSON *item = member(ld, obj, where, key, WANT_STRING);
    return item ? tessrt_pool_strdup(ld->pool, item->valuestring) : NULL;
}

/* An integer member in [lo, hi]. */
static bool member_int(Loader *ld, const cJSON *obj, const char *where, const char *key,
                       int64_t lo, int64_t hi, int64_t *out) {
    const cJSON *item = member(ld, obj, where, key, WANT_INT);
    if (!item)
        return false;
    int64_t v = (int64_t)item->valuedouble;
    if (v < lo || v > hi) {
        load_fail(ld, where, "'%s' is %lld, outside [%lld, %lld]", key, (long long)v,
                  (long long)lo, (long long)hi);
        return false;
    }
    *out = v;
    return true;
}

/* A member that is an integer >= 0 or null. */
static bool member_count_or_null(Loader *ld, const cJSON *obj, const char *where, const char *key) {
    const cJSON *item = member(ld, obj, where, key, WANT_ANY);
    if (!item)
        return false;
    if (cJSON_IsNull(item) || (json_is_int(item) && item->valuedouble >= 0))
        return true;
    char number[160];
    load_fail(ld, where, "'%s' must be an integer >= 0 or null, got %s", key,
              cJSON_IsNumber(item) && json_is_int(item) ? "a negative number" : json_not_int(item, number, sizeof number));
    return false;
}

/* "8.0" -> 8, 0 */
static bool parse_version(const char *s, int *major, int *minor) {
    int a, b, n = 0;
    if (sscanf(s, "%3d.%3d%n", &a, &b, &n) != 2 || s[n] != '\0' || a < 0 || b < 0)
        return false;
    *major = a;
    *minor = b;
    return true;
}

/* "sm_90a" -> 9, 0, true */
static bool parse_arch(const char *s, int *major, int *minor, bool *specific) {
    int n = 0, v;
    if (strncmp(s, "sm_", 3) != 0 || sscanf(s + 3, "%4d%n", &v, &n) != 1 || v < 10)
        return false;
    const char *rest = s + 3 + n;
    *specific = false;
    if (*rest == 'a') {
        *specific = true;
        rest++;
    }
    if (*rest != '\0')
        return false;
    *major = v / 10;
    *minor = v % 10;
    return true;
}

static bool parse_enum(const char *s, const char *const *names, int count, int *out) {
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return true;
        }
    return false;
}

static bool is_identifier(const char *s) {
    if (!*s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

static int load_resolve_size(void *context, const char *name) {
    tessrt_kernel *k = context;
    for (int i = 0; i < k->num_params; i++)
        if (k->params[i].kind == TESSRT_PARAM_SIZE && strcmp(k->params[i].name, name) == 0)
            return i;
    return -1;
}

/* A grid may also name an i32 scalar parameter (its value is known at
   launch: varlen attention's cdiv(max_seqlen, BQ)); shapes and contracts
   name sizes only. */
static int load_resolve_grid(void *context, const char *name) {
    tessrt_kernel *k = context;
    if (strcmp(name, "resident_blocks()") == 0) {   /* expr.c's call; the launch's slot after the params */
        k->persistent = true;
        return k->num_params;
    }
    for (int i = 0; i < k->num_params; i++)
        if ((k->params[i].kind == TESSRT_PARAM_SIZE ||
             (k->params[i].kind == TESSRT_PARAM_SCALAR && k->params[i].dtype == TESSRT_I32)) &&
            strcmp(k->params[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- the pieces --------------------------------------------------------- */

static const char *const kind_names[] = {"array", "scalar", "size"};
static const char *const dtype_names[] = {"bool", "i8",   "i16", "i32", "i64", "u8",
                                          "u32",  "f16", "bf16", "f32", "f64", "u16", "u64", "f8e4m3", "f8e5m2"};
static const char *const access_names[] = {"in", "out", "inout"};
static const char *const space_names[] = {"global", "shared"};

static bool load_param(Loader *ld, const cJSON *obj, const char *where, TessrtParam *p) {
    p->name = member_string(ld, obj, where, "name");
    const char *kind = member_string(ld, obj, where, "kind");
    const char *dtype = member_string(ld, obj, where, "dtype");
    const cJSON *shape = member(ld, obj, where, "shape", WANT_ARRAY);
    if (ld->status != TESSRT_OK)
        return false;
    int v;
    if (!is_identifier(p->name))
        return load_fail(ld, where, "'name' is '%s', not an identifier", p->name);
    if (!parse_enum(kind, kind_names, 3, &v))
        return load_fail(ld, where, "'kind' is '%s'; expected array, scalar or size", kind);
    p->kind = (tessrt_param_kind)v;
    if (!parse_enum(dtype, dtype_names, TESSRT_DTYPE_COUNT, &v))
        return load_fail(ld, where, "'dtype' is '%s', not a Tessera dtype", dtype);
    p->dtype = (tessrt_dtype)v;
    p->access = TESSRT_ACCESS_IN;
    int rank = cJSON_GetArraySize(shape);
    if (p->kind != TESSRT_PARAM_ARRAY) {
        if (rank != 0)
            return load_fail(ld, where, "a %s has shape [], not %d dims", kind, rank);
        if (p->kind == TESSRT_PARAM_SIZE && p->dtype != TESSRT_I32 && p->dtype != TESSRT_I64)
            return load_fail(ld, where, "a size has dtype i32 or i64, not %s", dtype);
        return true;
    }
    const char *space = member_string(ld, obj, where, "space");
    const char *access = member_string(ld, obj, where, "access");
    if (ld->status != TESSRT_OK)
        return false;
    if (!parse_enum(space, space_names, 2, &v))
        return load_fail(ld, where, "'space' is '%s'; expected global or shared", space);
    p->space_shared = v == 1;
    if (!parse_enum(access, access_names, 3, &v))
        return load_fail(ld, where, "'access' is '%s'; expected in, out or inout", access);
    p->access = (tessrt_access)v;
    if (rank < 1 || rank > TESSRT_MAX_RANK)
        return load_fail(ld, where, "an array has 1 to %d dims, not %d", TESSRT_MAX_RANK, rank);
    p->rank = rank;
    for (int d = 0; d < rank; d++) {
        const cJSON *dim = cJSON_GetArrayItem(shape, d);
        p->dim_params[d] = -1;
        if (json_is_int(dim) && dim->valuedouble >= 0) {
            p->dims[d] = (int64_t)dim->valuedouble;
        } else if (cJSON_IsString(dim) && dim->valuestring && is_identifier(dim->valuestring)) {
            p->dim_names[d] = tessrt_pool_strdup(ld->pool, dim->valuestring);
            p->dims[d] = -1;
        } else {
            char field[256], number[160];
            field_path(field, sizeof field, "%s.shape[%d]", where, d);
            return load_fail(ld, field, "expected an integer >= 0 or a size name, got %s",
                             json_is_int(dim) ? "a negative number"
                             : cJSON_IsNumber(dim) ? json_not_int(dim, number, sizeof number)
                                                   : json_type_name(dim));
        }
    }
    /* optional: one stride per dim, in elements (docs/manifest.md) */
    const cJSON *strides = cJSON_GetObjectItemCaseSensitive(obj, "strides");
    for (int d = 0; d < rank; d++)
        p->stride_params[d] = -1;
    if (strides) {
        char field[256];
        field_path(field, sizeof field, "%s.strides", where);
        if (!check_item(ld, strides, WANT_ARRAY, field))
            return false;
        if (cJSON_GetArraySize(strides) != rank)
            return load_fail(ld, field, "%d strides for an array of %d dims", cJSON_GetArraySize(strides), rank);
        p->strided = true;
        for (int d = 0; d < rank; d++) {
            const cJSON *st = cJSON_GetArrayItem(strides, d);
            if (json_is_int(st) && st->valuedouble >= 0) {
                p->strides[d] = (int64_t)st->valuedouble;
            } else if (cJSON_IsString(st) && st->valuestring && is_identifier(st->valuestring)) {
                p->stride_names[d] = tessrt_pool_strdup(ld->pool, st->valuestring);
                p->strides[d] = -1;
            } else {
                field_path(field, sizeof field, "%s.strides[%d]", where, d);
                return load_fail(ld, field, "expected an integer >= 0 or a size name");
            }
        }
    }
    return true;
}

/* The index of the kernel's array parameter `name`, or -1. */
static int array_param(const tessrt_kernel *k, const char *name) {
    for (int j = 0; j < k->num_params; j++)
        if (k->params[j].kind == TESSRT_PARAM_ARRAY && strcmp(k->params[j].name, name) == 0)
            return j;
    return -1;
}

/* An artifact's "tma" record (docs/manifest.md): version 1 (or 2, with the
   entry's own threads), its entry, and
   per tensor map an array parameter of 16-bit elements, one box extent per
   dim (1 to 256), and a swizzle of 32, 64 or 128 bytes that the innermost
   box's bytes fit. */
static bool load_tma(Loader *ld, const cJSON *obj, const char *where, TessrtArtifact *a) {
    int64_t version = 0, shared = 0, threads = a->threads;
    member_int(ld, obj, where, "version", 1, 2, &version);
    const char *entry = member_string(ld, obj, where, "entry");
    member_int(ld, obj, where, "shared_bytes", 0, INT32_MAX, &shared);
    int64_t min_registers = 0;
    if (ld->status == TESSRT_OK && version == 2) {   /* the entry's own threads: a producer warpgroup's more */
        member_int(ld, obj, where, "threads", a->threads, 1024, &threads);
        if (cJSON_GetObjectItemCaseSensitive(obj, "min_registers"))   /* optional: setmaxnreg's split */
            member_int(ld, obj, where, "min_registers", 1, 255, &min_registers);
    }
    if (ld->status == TESSRT_OK && version == 1 && cJSON_GetObjectItemCaseSensitive(obj, "threads"))
        return load_fail(ld, where, "'threads' needs version 2");
    if (ld->status == TESSRT_OK && version == 2 && threads % 32 != 0)
        return load_fail(ld, where, "'threads' is %lld, not a whole number of warps", (long long)threads);
    member_count_or_null(ld, obj, where, "registers");
    member_count_or_null(ld, obj, where, "spills");
    const cJSON *maps = member(ld, obj, where, "maps", WANT_ARRAY);
    if (ld->status != TESSRT_OK)
        return false;
    if (!is_identifier(entry))
        return load_fail(ld, where, "'entry' is '%s', not a symbol name", entry);
    TessrtTma *t = tessrt_pool_alloc(ld->pool, sizeof *t);
    int n = cJSON_GetArraySize(maps);
    if (!t || !(t->maps = tessrt_pool_alloc(ld->pool, sizeof *t->maps * (size_t)(n + 1))))
        return load_fail(ld, where, "out of memory");
    t->entry = entry;
    t->shared_bytes = (int)shared;
    t->threads = (int)threads;
    t->min_registers = (int)min_registers;
    t->num_maps = n;
    const tessrt_kernel *k = ld->kernel;
    for (int i = 0; i < n; i++) {
        char field[300];
        field_path(field, sizeof field, "%s.maps[%d]", where, i);
        const cJSON *m = cJSON_GetArrayItem(maps, i);
        if (!check_item(ld, m, WANT_OBJECT, field))
            return false;
        const char *param = member_string(ld, m, field, "param");
        const char *dtype = member_string(ld, m, field, "dtype");
        const cJSON *box = member(ld, m, field, "box", WANT_ARRAY);
        int64_t swizzle = 0;
        member_int(ld, m, field, "swizzle", 32, 128, &swizzle);
        if (ld->status != TESSRT_OK)
            return false;
        TessrtTmaMap *tm = &t->maps[i];
        tm->param = array_param(k, param);
        if (tm->param < 0)
            return load_fail(ld, field, "'param' is '%s', not an array parameter of kernel '%s'", param, k->name);
        int v;
        if (!parse_enum(dtype, dtype_names, TESSRT_DTYPE_COUNT, &v) || (v != TESSRT_F16 && v != TESSRT_BF16))
            return load_fail(ld, field, "'dtype' is '%s'; expected f16 or bf16", dtype);
        tm->dtype = (tessrt_dtype)v;
        const TessrtParam *p = &k->params[tm->param];
        if (p->dtype != tm->dtype)
            return load_fail(ld, field, "'dtype' is %s but array '%s' is %s", dtype, param, dtype_names[p->dtype]);
        if (swizzle != 32 && swizzle != 64 && swizzle != 128)
            return load_fail(ld, field, "'swizzle' is %lld; expected 32, 64 or 128", (long long)swizzle);
        tm->swizzle = (int)swizzle;
        tm->rank = cJSON_GetArraySize(box);
        if (tm->rank != p->rank || tm->rank > 5)
            return load_fail(ld, field, "'box' has %d dims; array '%s' has %d (at most 5)", tm->rank, param, p->rank);
        for (int d = 0; d < tm->rank; d++) {
            const cJSON *e = cJSON_GetArrayItem(box, d);
            if (!json_is_int(e) || e->valuedouble < 1 || e->valuedouble > 256)
                return load_fail(ld, field, "'box[%d]' must be an integer from 1 to 256", d);
            tm->box[d] = (int64_t)e->valuedouble;
        }
        const cJSON *store = cJSON_GetObjectItemCaseSensitive(m, "store");
        if (store && !cJSON_IsBool(store))
            return load_fail(ld, field, "'store' must be true or false");
        tm->store = store && cJSON_IsTrue(store);
        const cJSON *rows = cJSON_GetObjectItemCaseSensitive(m, "rows");
        if (rows) {
            char rfield[320];
            field_path(rfield, sizeof rfield, "%s.rows", field);
            int64_t warps = 0, slabs = 0;
            const char *order = check_item(ld, rows, WANT_OBJECT, rfield) ? member_string(ld, rows, rfield, "order") : NULL;
            member_int(ld, rows, rfield, "warps", 4, 32, &warps);
            member_int(ld, rows, rfield, "slabs", 1, 64, &slabs);
            if (ld->status != TESSRT_OK)
                return false;
            if (strcmp(order, "wgmma") != 0)
                return load_fail(ld, rfield, "'order' is '%s'; expected wgmma", order);
            if ((warps & (warps - 1)) || (slabs & (slabs - 1)) || tm->rank != 2 || tm->box[0] != 64)
                return load_fail(ld, rfield, "rows in wgmma order need a 2-dim array, a box of 64 rows, and powers of "
                                 "two for 'warps' and 'slabs'");
            tm->row_warps = (int)warps;
            tm->row_slabs = (int)slabs;
        }
        if ((tm->box[tm->rank - 1] * 2) % 16 != 0 || tm->box[tm->rank - 1] * 2 > tm->swizzle)
            return load_fail(ld, field, "the innermost box of %lld elements is not a multiple of 16 bytes within "
                             "the %d-byte swizzle", (long long)tm->box[tm->rank - 1], tm->swizzle);
    }
    a->tma = t;
    return true;
}

static bool load_artifact(Loader *ld, const cJSON *obj, const char *where, TessrtArtifact *a) {
    a->arch = member_string(ld, obj, where, "arch");
    const char *kind = member_string(ld, obj, where, "kind");
    a->file = member_string(ld, obj, where, "file");
    const char *ptx_version = member_string(ld, obj, where, "ptx_version");
    member_count_or_null(ld, obj, where, "registers");
    member_count_or_null(ld, obj, where, "spills");
    int64_t shared = 0, threads = ld->kernel->threads;
    if (ld->schema >= 2)
        member_int(ld, obj, where, "threads", 1, 1024, &threads);
    member_int(ld, obj, where, "shared_bytes", 0, INT32_MAX, &shared);
    if (ld->status != TESSRT_OK)
        return false;
    a->threads = (int)threads;
    a->shared_bytes = (int)shared;
    if (!parse_arch(a->arch, &a->major, &a->minor, &a->arch_specific))
        return load_fail(ld, where, "'arch' is '%s'; expected sm_NN or sm_NNa", a->arch);
    const cJSON *tma = cJSON_GetObjectItemCaseSensitive(obj, "tma");
    if (tma) {
        char field[280];
        field_path(field, sizeof field, "%s.tma", where);
        if (!check_item(ld, tma, WANT_OBJECT, field) || !load_tma(ld, tma, field, a))
            return false;
    }
    if (strcmp(kind, "ptx") == 0)
        a->kind = TESSRT_ARTIFACT_PTX;
    else if (strcmp(kind, "cubin") == 0)
        a->kind = TESSRT_ARTIFACT_CUBIN;
    else
        return load_fail(ld, where, "'kind' is '%s'; expected ptx or cubin", kind);
    int major, minor;
    if (!parse_version(ptx_version, &major, &minor))
        return load_fail(ld, where, "'ptx_version' is '%s'; expected MAJOR.MINOR", ptx_version);
    if (a->file[0] == '\0' || a->file[0] == '/' || strstr(a->file, ".."))
        return load_fail(ld, where, "'file' is '%s'; expected a name relative to the manifest",
                         a->file);
    if (ld->memory) {
        for (int i = 0; i < ld->num_images; i++) {
            if (ld->images[i].file && strcmp(ld->images[i].file, a->file) == 0) {
                if (!ld->images[i].data || ld->images[i].size == 0)
                    return load_fail(ld, where, "the image of artifact '%s' is empty", a->file);
                a->data = ld->images[i].data;
                a->size = ld->images[i].size;
                return true;
            }
        }
        return load_fail(ld, where, "no image named '%s' was given", a->file);
    }
    size_t n = strlen(ld->dir) + strlen(a->file) + 2;
    char *path = tessrt_pool_alloc(ld->pool, n);
    if (!path)
        return load_fail(ld, where, "out of memory");
    snprintf(path, n, "%s%s", ld->dir, a->file);
    a->path = path;
    if (access(path, R_OK) != 0)
        return load_fail(ld, where, "cannot read artifact '%s' (%s): %s", a->file, path,
                         strerror(errno));
    return true;
}

static bool load_kernel(Loader *ld, const cJSON *obj, const char *where, tessrt_kernel *k) {
    k->name = member_string(ld, obj, where, "name");
    k->entry = member_string(ld, obj, where, "entry");
    const cJSON *cparams = member(ld, obj, where, "cparams", WANT_OBJECT);
    const cJSON *params = member(ld, obj, where, "params", WANT_ARRAY);
    const cJSON *grid = member(ld, obj, where, "grid", WANT_ARRAY);
    int64_t warps = 0, stages = 0, threads = 0, shared = 0;
    member_int(ld, obj, where, "warps", 1, 32, &warps);
    member_int(ld, obj, where, "stages", 1, 64, &stages);
    if (ld->schema == 1) {   /* schema 2 has them per artifact */
        member_int(ld, obj, where, "threads", 1, 1024, &threads);
        member_int(ld, obj, where, "shared_bytes", 0, INT32_MAX, &shared);
    }
    const cJSON *contracts = member(ld, obj, where, "contracts", WANT_ARRAY);
    const cJSON *artifacts = member(ld, obj, where, "artifacts", WANT_ARRAY);
    const cJSON *cc = member(ld, obj, where, "compute_capability", WANT_OBJECT);
    if (ld->status != TESSRT_OK)
        return false;
    char field[256];
    if (!is_identifier(k->name))
        return load_fail(ld, where, "'name' is '%s', not an identifier", k->name);
    if (!is_identifier(k->entry))
        return load_fail(ld, where, "'entry' is '%s', not a symbol name", k->entry);
    k->warps = (int)warps;
    k->stages = (int)stages;
    k->threads = (int)threads;   /* schema 2: the artifacts' largest, below */
    (void)shared;                /* schema 1: the largest of the artifacts', which have their own */
    if (ld->schema == 1 && threads != warps * 32)
        return load_fail(ld, where, "'threads' is %d but 'warps' is %d (threads = 32 * warps)",
                         k->threads, k->warps);

    const cJSON *item;
    cJSON_ArrayForEach(item, cparams) {
        if (!cJSON_IsNumber(item) && !cJSON_IsBool(item)) {
            field_path(field, sizeof field, "%s.cparams.%s", where, item->string);
            return load_fail(ld, field, "expected a number, got %s", json_type_name(item));
        }
    }

    k->num_params = cJSON_GetArraySize(params);
    k->params = tessrt_pool_alloc(ld->pool, sizeof *k->params * (size_t)(k->num_params + 1));
    if (!k->params)
        return load_fail(ld, where, "out of memory");
    for (int i = 0; i < k->num_params && ld->status == TESSRT_OK; i++) {
        field_path(field, sizeof field, "%s.params[%d]", where, i);
        const cJSON *p = cJSON_GetArrayItem(params, i);
        if (check_item(ld, p, WANT_OBJECT, field))
            load_param(ld, p, field, &k->params[i]);
        for (int j = 0; j < i && ld->status == TESSRT_OK; j++)
            if (strcmp(k->params[j].name, k->params[i].name) == 0)
                load_fail(ld, field, "a second parameter named '%s'", k->params[i].name);
    }
    if (ld->status != TESSRT_OK)
        return false;
    for (int i = 0; i < k->num_params; i++) {
        TessrtParam *p = &k->params[i];
        for (int d = 0; d < p->rank; d++) {
            if (!p->dim_names[d])
                continue;
            p->dim_params[d] = load_resolve_size(k, p->dim_names[d]);
            if (p->dim_params[d] < 0) {
                field_path(field, sizeof field, "%s.params[%d].shape[%d]", where, i, d);
                return load_fail(ld, field, "'%s' is not a size parameter of kernel '%s'",
                                 p->dim_names[d], k->name);
            }
        }
        for (int d = 0; p->strided && d < p->rank; d++) {
            if (!p->stride_names[d])
                continue;
            p->stride_params[d] = load_resolve_size(k, p->stride_names[d]);
            if (p->stride_params[d] < 0) {
                field_path(field, sizeof field, "%s.params[%d].strides[%d]", where, i, d);
                return load_fail(ld, field, "'%s' is not a size parameter of kernel '%s'",
                                 p->stride_names[d], k->name);
            }
        }
    }

    k->grid_rank = cJSON_GetArraySize(grid);
    if (k->grid_rank < 1 || k->grid_rank > 3)
        return load_fail(ld, where, "'grid' has 1 to 3 dimensions, not %d", k->grid_rank);
    for (int i = 0; i < k->grid_rank; i++) {
        field_path(field, sizeof field, "%s.grid[%d]", where, i);
        const cJSON *g = cJSON_GetArrayItem(grid, i);
        if (!check_item(ld, g, WANT_STRING, field))
            return false;
        char err[300];
        k->grid_text[i] = tessrt_pool_strdup(ld->pool, g->valuestring);
        if (!tessrt_expr_parse(ld->pool, g->valuestring, load_resolve_grid, k, &k->grid[i], err,
                               sizeof err))
            return load_fail(ld, field, "%s", err);
    }

    k->num_contracts = cJSON_GetArraySize(contracts);
    k->contracts = tessrt_pool_alloc(ld->pool, sizeof *k->contracts * (size_t)(k->num_contracts + 1));
    if (!k->contracts)
        return load_fail(ld, where, "out of memory");
    for (int i = 0; i < k->num_contracts; i++) {
        field_path(field, sizeof field, "%s.contracts[%d]", where, i);
        const cJSON *c = cJSON_GetArrayItem(contracts, i);
        if (!check_item(ld, c, WANT_STRING, field))
            return false;
        TessrtContract *tc = &k->contracts[i];
        tc->text = tessrt_pool_strdup(ld->pool, c->valuestring);
        char err[300];
        if (!tessrt_expr_parse_contract(ld->pool, c->valuestring, load_resolve_size, k, &tc->lhs,
                                        &tc->op, &tc->rhs, err, sizeof err))
            return load_fail(ld, field, "%s", err);
    }

    const cJSON *covers = cJSON_GetObjectItemCaseSensitive(obj, "covers");
    if (covers) {
        field_path(field, sizeof field, "%s.covers", where);
        if (!check_item(ld, covers, WANT_ARRAY, field))
            return false;
        k->num_covers = cJSON_GetArraySize(covers);
        k->covers = tessrt_pool_alloc(ld->pool, sizeof *k->covers * (size_t)(k->num_covers + 1));
        if (!k->covers)
            return load_fail(ld, where, "out of memory");
        for (int i = 0; i < k->num_covers; i++) {
            field_path(field, sizeof field, "%s.covers[%d]", where, i);
            const cJSON *c = cJSON_GetArrayItem(covers, i);
            if (!check_item(ld, c, WANT_OBJECT, field))
                return false;
            const char *param = member_string(ld, c, field, "param");
            const cJSON *dim = member(ld, c, field, "dim", WANT_INT);
            const cJSON *block = member(ld, c, field, "block", WANT_INT);
            if (ld->status != TESSRT_OK)
                return false;
            TessrtCover *tc = &k->covers[i];
            tc->param = array_param(k, param);
            if (tc->param < 0)
                return load_fail(ld, field, "'%s' is not an array parameter of the kernel", param);
            tc->dim = (int)dim->valuedouble;
            tc->block = (int64_t)block->valuedouble;
            if (dim->valuedouble != tc->dim || tc->dim < 0 || tc->dim >= k->params[tc->param].rank ||
                k->params[tc->param].dim_params[tc->dim] < 0)
                return load_fail(ld, field, "'dim' must name a dim of '%s' whose size is a size parameter", param);
            if (block->valuedouble != (double)tc->block || tc->block < 1 || tc->block > INT32_MAX)
                return load_fail(ld, field, "'block' must be a whole number from 1 to 2147483647");
        }
    }

    const cJSON *asserts = cJSON_GetObjectItemCaseSensitive(obj, "asserts");
    if (asserts) {
        field_path(field, sizeof field, "%s.asserts", where);
        if (!check_item(ld, asserts, WANT_ARRAY, field))
            return false;
        k->num_asserts = cJSON_GetArraySize(asserts);
        k->asserts = tessrt_pool_alloc(ld->pool, sizeof *k->asserts * (size_t)(k->num_asserts + 1));
        if (!k->asserts)
            return load_fail(ld, where, "out of memory");
        for (int i = 0; i < k->num_asserts; i++) {
            field_path(field, sizeof field, "%s.asserts[%d]", where, i);
            const cJSON *a = cJSON_GetArrayItem(asserts, i);
            if (!check_item(ld, a, WANT_OBJECT, field))
                return false;
            const cJSON *line = member(ld, a, field, "line", WANT_INT);
            const cJSON *column = member(ld, a, field, "column", WANT_INT);
            const char *message = member_string(ld, a, field, "message");
            if (ld->status != TESSRT_OK)
                return false;
            if (line->valuedouble < 0 || line->valuedouble > INT32_MAX || column->valuedouble < 0 ||
                column->valuedouble > INT32_MAX)
                return load_fail(ld, field, "'line' and 'column' must be whole numbers from 0 to 2147483647");
            k->asserts[i] = (TessrtAssert){(int)line->valuedouble, (int)column->valuedouble,
                                           tessrt_pool_strdup(ld->pool, message)};
        }
    }

    k->num_artifacts = cJSON_GetArraySize(artifacts);
    k->artifacts = tessrt_pool_alloc(ld->pool, sizeof *k->artifacts * (size_t)(k->num_artifacts + 1));
    if (!k->artifacts)
        return load_fail(ld, where, "out of memory");
    ld->kernel = k;
    for (int i = 0; i < k->num_artifacts && ld->status == TESSRT_OK; i++) {
        field_path(field, sizeof field, "%s.artifacts[%d]", where, i);
        const cJSON *a = cJSON_GetArrayItem(artifacts, i);
        if (check_item(ld, a, WANT_OBJECT, field))
            load_artifact(ld, a, field, &k->artifacts[i]);
    }
    if (ld->status != TESSRT_OK)
        return false;
    if (ld->schema >= 2) {
        k->threads = k->warps * 32;   /* an interpreter-only kernel has no artifact */
        for (int i = 0; i < k->num_artifacts; i++)
            if (i == 0 || k->artifacts[i].threads > k->threads)
                k->threads = k->artifacts[i].threads;
    }

    field_path(field, sizeof field, "%s.compute_capability", where);
    const char *min = member_string(ld, cc, field, "min");
    const cJSON *max = member(ld, cc, field, "max", WANT_ANY);
    if (ld->status != TESSRT_OK)
        return false;
    int major, minor;
    if (!parse_version(min, &major, &minor))
        return load_fail(ld, field, "'min' is '%s'; expected MAJOR.MINOR", min);
    if (!cJSON_IsNull(max) && !(cJSON_IsString(max) && parse_version(max->valuestring, &major, &minor)))
        return load_fail(ld, field, "'max' must be null or a string MAJOR.MINOR");

    const cJSON *interp = ld->memory ? NULL : cJSON_GetObjectItemCaseSensitive(obj, "interp");
    if (interp) {
        field_path(field, sizeof field, "%s.interp", where);
        if (!check_item(ld, interp, WANT_STRING, field))
            return false;
        const char *file = interp->valuestring;
        if (file[0] == '\0' || file[0] == '/' || strstr(file, ".."))
            return load_fail(ld, field, "'%s' is not a name relative to the manifest", file);
        size_t n = strlen(ld->dir) + strlen(file) + 1;
        char *path = tessrt_pool_alloc(ld->pool, n);
        if (!path)
            return load_fail(ld, where, "out of memory");
        snprintf(path, n, "%s%s", ld->dir, file);
        k->interp = path;   /* read at the interpreter's first use of the kernel */
        k->interp_file = tessrt_pool_strdup(ld->pool, file);
    }
    /* the kernel's tile IR itself; read in memory manifests too */
    const cJSON *tir = cJSON_GetObjectItemCaseSensitive(obj, "interp_tir");
    if (tir) {
        field_path(field, sizeof field, "%s.interp_tir", where);
        if (!check_item(ld, tir, WANT_STRING, field))
            return false;
        k->interp_tir = tessrt_pool_strdup(ld->pool, tir->valuestring);
        if (!k->interp_tir)
            return load_fail(ld, where, "out of memory");
    }
    if (k->num_artifacts == 0 && !k->interp && !k->interp_tir)
        return load_fail(ld, where, "'artifacts' is empty (and there is no 'interp' or 'interp_tir')");
    return true;
}

static char *load_read_file(const char *path, size_t *length) {
    bool not_regular;
    FILE *f = tessrt_open_input(path, &not_regular);
    if (!f) {
        struct stat st;
        if (not_regular && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            tessrt_fail(TESSRT_ERROR_IO, "%s: is a directory, not a manifest file", path);
        else if (not_regular)
            tessrt_fail(TESSRT_ERROR_IO, "%s: not a regular file", path);
        else
            tessrt_fail(TESSRT_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            return NULL;
        }
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        cap *= 2;
        char *grown = realloc(buf, cap);
        if (!grown)
            free(buf);
        buf = grown;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        tessrt_fail(TESSRT_ERROR_IO, "%s: read error", path);
        return NULL;
    }
    buf[len] = '\0';
    *length = len;
    return buf;
}

static void load_position(const char *text, const char *at, int *line, int *col) {
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* Parses and checks the manifest `text` (`length` bytes; text[length] is a
   NUL) into a new manifest; the loader says where artifacts come from. */
static tessrt_status load_text(Loader ld, const char *text, size_t length, tessrt_manifest **out) {
    const char *path = ld.path;
    tessrt_manifest *m = calloc(1, sizeof *m);
    if (!m)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    pthread_mutex_init(&m->lock, NULL);
    ld.pool = &m->pool;
    m->path = tessrt_pool_strdup(&m->pool, path);
    const char *slash = ld.memory ? NULL : strrchr(path, '/');
    if (slash) {
        size_t n = (size_t)(slash - path) + 1;
        char *dir = tessrt_pool_alloc(&m->pool, n + 1);
        if (dir)
            memcpy(dir, path, n);
        ld.dir = dir ? dir : "";
    }

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, false);
    if (root && end) {
        /* only white space may follow the value */
        const char *rest = end + strspn(end, " \t\r\n");
        if (rest < text + length) {
            int line, col;
            load_position(text, rest, &line, &col);
            load_fail(&ld, NULL, "invalid JSON: text after the top-level value at line %d, column %d",
                      line, col);
        }
    }
    if (ld.status != TESSRT_OK) {
        /* reported above */
    } else if (!root) {
        int line, col;
        const char *at = end && end <= text + length ? end : text + length;
        load_position(text, at, &line, &col);
        /* show what is there; say so when the file ends within that text */
        size_t left = (size_t)(text + length - at), shown = strcspn(at, "\n");
        if (shown > 24)
            shown = 24;
        if (left == 0)
            load_fail(&ld, NULL, "invalid JSON: unexpected end of file at line %d, column %d", line, col);
        else
            load_fail(&ld, NULL, "invalid JSON at line %d, column %d, near '%.*s'%s", line, col,
                      (int)shown, at, shown == left && left <= 3 ? " (the file ends there: truncated?)" : "");
    } else if (!cJSON_IsObject(root)) {
        load_fail(&ld, NULL, "expected a JSON object at the top, got %s", json_type_name(root));
    } else {
        const char *schema = member_string(&ld, root, "", "schema");
        if (schema && strcmp(schema, TESSRT_MANIFEST_SCHEMA) == 0)
            ld.schema = 2;
        else if (schema && strcmp(schema, "tessera-manifest/1") == 0)
            ld.schema = 1;
        else if (schema)
            load_fail(&ld, "schema", "'%s' is not supported (this runtime reads %s and tessera-manifest/1)",
                      schema, TESSRT_MANIFEST_SCHEMA);
        m->source = member_string(&ld, root, "", "source");
        m->source_sha256 = member_string(&ld, root, "", "source_sha256");
        m->tessc_version = member_string(&ld, root, "", "tessc_version");
        const cJSON *kernels = member(&ld, root, "", "kernels", WANT_ARRAY);
        if (m->source_sha256 && (strlen(m->source_sha256) != 64 ||
                                 strspn(m->source_sha256, "0123456789abcdef") != 64))
            load_fail(&ld, "source_sha256", "expected 64 lowercase hex digits");
        if (ld.status == TESSRT_OK) {
            m->num_kernels = cJSON_GetArraySize(kernels);
            m->kernels = tessrt_pool_alloc(&m->pool, sizeof *m->kernels * (size_t)(m->num_kernels + 1));
            if (!m->kernels)
                load_fail(&ld, NULL, "out of memory");
        }
        for (int i = 0; i < m->num_kernels && ld.status == TESSRT_OK; i++) {
            char field[64];
            field_path(field, sizeof field, "kernels[%d]", i);
            const cJSON *k = cJSON_GetArrayItem(kernels, i);
            m->kernels[i].manifest = m;
            if (check_item(&ld, k, WANT_OBJECT, field))
                load_kernel(&ld, k, field, &m->kernels[i]);
            for (int j = 0; j < i && ld.status == TESSRT_OK; j++)
                if (strcmp(m->kernels[j].name, m->kernels[i].name) == 0)
                    load_fail(&ld, field, "a second kernel named '%s'", m->kernels[i].name);
        }
    }
    cJSON_Delete(root);
    if (ld.status != TESSRT_OK) {
        pthread_mutex_destroy(&m->lock);
        tessrt_pool_free(&m->pool);
        free(m);
        return ld.status;
    }
    *out = m;
    return TESSRT_OK;
}

tessrt_status tessrt_manifest_load(const char *path, tessrt_manifest **out) {
    if (!path || !out)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_manifest_load: NULL argument");
    *out = NULL;
    size_t length = 0;
    char *text = load_read_file(path, &length);
    if (!text)
        return strstr(tessrt_last_error(), "out of memory") ? TESSRT_ERROR_OUT_OF_MEMORY
                                                              : TESSRT_ERROR_IO;
    Loader ld = {path, "", NULL, TESSRT_OK, NULL, NULL, 0, false, 0};
    tessrt_status s = load_text(ld, text, length, out);
    free(text);
    return s;
}

/* The same checks as tessrt_manifest_load; artifacts come from `images`. */
tessrt_status tessrt_manifest_load_memory(const char *name, const char *json, size_t json_size,
                                          const tessrt_image *images, int num_images,
                                          tessrt_manifest **out) {
    if (!json || !out || num_images < 0 || (num_images > 0 && !images))
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_manifest_load_memory: NULL argument");
    *out = NULL;
    /* cJSON and the messages want a NUL after the text. */
    char *text = malloc(json_size + 1);
    if (!text)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "%s: out of memory", name ? name : "(memory)");
    memcpy(text, json, json_size);
    text[json_size] = '\0';
    Loader ld = {name ? name : "(memory)", "", NULL, TESSRT_OK, NULL, images, num_images, true, 0};
    tessrt_status s = load_text(ld, text, json_size, out);
    free(text);
    return s;
}
