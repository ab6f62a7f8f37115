/*
 * interp_device.c: the tile-IR interpreter as a device of libtessrt.
 *
 * Part of libtessinterp, not of libtessrt: it fills in the table of
 * interp_device.h over the compiler's IR reader (ir_parse.c, ir_verify.c)
 * and interpreter (interp.c). In: a manifest kernel's .tir file or the
 * tile IR text the manifest holds ('interp_tir'), its
 * parameters as the manifest gives them, and launch arguments whose arrays
 * are host addresses. Out: the arrays as the GPU would leave them, or a
 * message naming the kernel, program and source line.
 *
 * Invariants: a loaded kernel's parameters match the manifest's (kind,
 * dtype, shape, access), so the checks libtessrt made on the arguments
 * hold for the IR too. Nothing here calls libtessrt, exits or aborts on bad
 * input, nor when host memory runs out: the arena's out-of-memory handler
 * longjmps back to the load or launch, which fails with
 * TESSRT_ERROR_OUT_OF_MEMORY. The IR reader and the interpreter keep process-wide state (the
 * diagnostics, interned names, a conversion table), so one lock serializes
 * every load, launch and unload: kernels run one at a time per process.
 */
#include "interp.h"
#include "numeric.h"
#include "interp_device.h"
#include "tessrt_interp.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

enum { INTERP_DEVICE_MAX_FILE_BYTES = 64 << 20 };

typedef struct InterpDeviceKernel {
    Arena arena;                 /* the file's text and the module */
    IrModule *module;
    IrKernel *kernel;
    const char *source_name;     /* for error positions: the .tess file the IR came from */
} InterpDeviceKernel;

static pthread_mutex_t interp_device_lock = PTHREAD_MUTEX_INITIALIZER;

static bool interp_device_fail(char *err, size_t errsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool interp_device_fail(char *err, size_t errsize, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
    return false;
}

static tessrt_status interp_device_error(tessrt_status status, char *err, size_t errsize, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static tessrt_status interp_device_error(tessrt_status status, char *err, size_t errsize, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
    return status;
}

/* The file's bytes, NUL-terminated, in the arena; NULL with a message. */
static char *interp_device_read(Arena *arena, const char *path, size_t *length, char *err,
                                size_t errsize) {
    const char *refused;
    FILE *f = source_open(path, &refused);   /* never waits in open() on a FIFO */
    if (!f) {
        if (refused)
            interp_device_fail(err, errsize, "'%s' %s", path, refused);
        else
            interp_device_fail(err, errsize, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0 || len > INTERP_DEVICE_MAX_FILE_BYTES)
            break;
        if (len + 1 == cap) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    bool failed = !text || ferror(f) || len > INTERP_DEVICE_MAX_FILE_BYTES;
    fclose(f);
    if (failed) {
        interp_device_fail(err, errsize, "cannot read '%s': %s", path,
                           !text ? "out of memory"
                           : len > INTERP_DEVICE_MAX_FILE_BYTES ? "larger than 64 MiB"
                                                                 : "read error");
        free(text);
        return NULL;
    }
    char *copy = arena_strndup(arena, text, len);
    free(text);
    *length = len;
    return copy;
}

/* "f32[N, 64] out" for a manifest param, and the same for an IR param. */
static void interp_device_describe_manifest(const tessrt_param_info *p, char *buf, size_t size) {
    static const char *const kinds[] = {"array", "scalar", "size"};
    static const char *const access[] = {"in", "out", "inout"};
    /* tessrt_dtype_name is libtessrt's: this file calls nothing there */
    static const char *const dtypes[TESSRT_DTYPE_COUNT] = {
        [TESSRT_BOOL] = "bool", [TESSRT_I8] = "i8",   [TESSRT_I16] = "i16",  [TESSRT_I32] = "i32",
        [TESSRT_I64] = "i64",   [TESSRT_U8] = "u8",   [TESSRT_U32] = "u32",  [TESSRT_F16] = "f16",
        [TESSRT_BF16] = "bf16", [TESSRT_F32] = "f32", [TESSRT_F64] = "f64", [TESSRT_U16] = "u16",
        [TESSRT_U64] = "u64",   [TESSRT_F8E4M3] = "f8e4m3", [TESSRT_F8E5M2] = "f8e5m2",
    };
    const char *dtype = (unsigned)p->dtype < TESSRT_DTYPE_COUNT ? dtypes[p->dtype] : "?";
    size_t n = (size_t)snprintf(buf, size, "%s %s", (unsigned)p->kind < 3 ? kinds[p->kind] : "?", dtype);
    if (p->kind != TESSRT_PARAM_ARRAY)
        return;
    for (int d = 0; d < p->rank && n < size; d++) {
        if (p->dim_names[d])
            n += (size_t)snprintf(buf + n, size - n, "%s%s", d ? ", " : "[", p->dim_names[d]);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "[", (long long)p->dims[d]);
    }
    if (n < size)
        snprintf(buf + n, size - n, "%s %s", p->rank ? "]" : "[]",
                 (unsigned)p->access < 3 ? access[p->access] : "?");
}

static void interp_device_describe_ir(const IrParam *p, char *buf, size_t size) {
    static const char *const kinds[] = {[PARAM_ARRAY] = "array", [PARAM_SCALAR] = "scalar",
                                        [PARAM_SIZE] = "size"};
    const IrType *t = &p->value->type;
    size_t n = (size_t)snprintf(buf, size, "%s %s", kinds[p->kind], dtype_name(t->dtype));
    if (p->kind != PARAM_ARRAY)
        return;
    for (int d = 0; d < t->rank && n < size; d++) {
        if (t->dims[d].sym)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", d ? ", " : "[", t->dims[d].sym);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "[",
                                  (long long)t->dims[d].size);
    }
    if (n < size)
        snprintf(buf + n, size - n, "%s %s", t->rank ? "]" : "[]", access_name(t->access));
}

/* True when a manifest parameter and an IR parameter have one kind, dtype,
   shape and access (compared field by field: the descriptions above are for
   messages and may be cut short). */
static bool interp_device_same(const tessrt_param_info *p, const IrParam *q) {
    static const IrParamKind kinds[] = {[TESSRT_PARAM_ARRAY] = PARAM_ARRAY, [TESSRT_PARAM_SCALAR] = PARAM_SCALAR,
                                        [TESSRT_PARAM_SIZE] = PARAM_SIZE};
    static const DType dtypes[TESSRT_DTYPE_COUNT] = {
        [TESSRT_BOOL] = DT_BOOL, [TESSRT_I8] = DT_I8,   [TESSRT_I16] = DT_I16,  [TESSRT_I32] = DT_I32,
        [TESSRT_I64] = DT_I64,   [TESSRT_U8] = DT_U8,   [TESSRT_U32] = DT_U32,  [TESSRT_F16] = DT_F16,
        [TESSRT_BF16] = DT_BF16, [TESSRT_F32] = DT_F32, [TESSRT_F64] = DT_F64, [TESSRT_U16] = DT_U16,
        [TESSRT_U64] = DT_U64,   [TESSRT_F8E4M3] = DT_F8E4M3, [TESSRT_F8E5M2] = DT_F8E5M2,
    };
    static const Access access[] = {[TESSRT_ACCESS_IN] = ACCESS_IN, [TESSRT_ACCESS_OUT] = ACCESS_OUT,
                                    [TESSRT_ACCESS_INOUT] = ACCESS_INOUT};
    const IrType *t = &q->value->type;
    if ((unsigned)p->kind > TESSRT_PARAM_SIZE || kinds[p->kind] != q->kind ||
        (unsigned)p->dtype >= TESSRT_DTYPE_COUNT || dtypes[p->dtype] != t->dtype)
        return false;
    if (q->kind != PARAM_ARRAY)
        return true;
    if ((unsigned)p->access > TESSRT_ACCESS_INOUT || access[p->access] != t->access || p->rank != t->rank)
        return false;
    for (int d = 0; d < t->rank; d++) {
        if (!p->dim_names[d] != !t->dims[d].sym)
            return false;
        if (p->dim_names[d] ? strcmp(p->dim_names[d], t->dims[d].sym) != 0 : p->dims[d] != t->dims[d].size)
            return false;
    }
    return true;
}

/* True when the IR's parameters are the manifest's, in the same order. */
static bool interp_device_match(const IrKernel *k, const tessrt_param_info *params, int num_params,
                                const char *path, char *err, size_t errsize) {
    if (k->num_params != num_params)
        return interp_device_fail(err, errsize,
                                  "kernel '%s' has %d parameters in the manifest but %d in '%s'",
                                  k->name, num_params, k->num_params, path);
    for (int i = 0; i < num_params; i++) {
        char want[256], got[256];
        interp_device_describe_manifest(&params[i], want, sizeof want);
        interp_device_describe_ir(&k->params[i], got, sizeof got);
        if (strcmp(params[i].name, k->params[i].name) != 0 || !interp_device_same(&params[i], &k->params[i]))
            return interp_device_fail(err, errsize,
                                      "kernel '%s', parameter %d: '%s' %s in the manifest but '%s' "
                                      "%s in '%s'",
                                      k->name, i, params[i].name, want, k->params[i].name, got, path);
    }
    return true;
}

static void interp_device_free(InterpDeviceKernel *dk) {
    if (!dk)
        return;
    for (int i = 0; dk->module && i < dk->module->kernels.len; i++)
        ir_kernel_free(dk->module->kernels.items[i]);
    arena_free(&dk->arena);
    free(dk);
}

/* Parses and verifies the text (in dk's arena); diagnostics are collected
   into err. `label` names the text in messages. */
static IrModule *interp_device_parse(InterpDeviceKernel *dk, char *text, size_t length,
                                     const char *label, char *err, size_t errsize) {
    SourceFile *file = ARENA_NEW(&dk->arena, SourceFile);
    file->name = arena_strdup(&dk->arena, label);
    file->text = text;
    file->length = length;

    char *messages = NULL;
    size_t messages_length = 0;
    FILE *out = open_memstream(&messages, &messages_length);
    diag_reset();
    diag_set_source(file);
    diag_set_output(out);
    IrModule *module = ir_parse_module(&dk->arena, file);
    for (int i = 0; module && !diag_error_count() && i < module->kernels.len; i++) {
        IrKernel *kernel = module->kernels.items[i];
        char message[512];
        if (!ir_verify_kernel(kernel, message, sizeof message))
            diag_error(kernel->loc, "kernel '%s' is not valid tile IR: %s", kernel->name, message);
    }
    bool failed = !module || diag_error_count() > 0;
    diag_set_output(NULL);
    diag_set_source(NULL);
    diag_reset();
    if (out)
        fclose(out);
    if (failed) {
        size_t n = messages ? strlen(messages) : 0;
        while (n > 0 && messages[n - 1] == '\n')
            n--;
        interp_device_fail(err, errsize, "'%s' is not valid tile IR:\n%.*s", label, (int)n,
                           messages ? messages : "");
    }
    free(messages);
    if (module)
        dk->module = module;
    return failed ? NULL : module;
}

/* $TESSRT_INTERP_DEBUG_FAIL_ALLOC=N, a test knob read at each load and
   launch: after N more arena chunks the next allocation fails, as if the
   host were out of memory (docs/interpreter.md). */
static void interp_device_debug_fail_alloc(void) {
    const char *text = getenv("TESSRT_INTERP_DEBUG_FAIL_ALLOC");
    char *end;
    long n = text && text[0] ? strtol(text, &end, 10) : -1;
    arena_debug_fail_after(text && text[0] && *end == '\0' && n >= 0 ? n : -1);
}

/* The arena's out-of-memory handler during a load (launches have the
   interpreter's own): back to interp_device_load with the diagnostics'
   state reset. What the IR reader had allocated for the load in progress
   is lost; the process goes on. */
static jmp_buf *interp_device_load_fail;

static void interp_device_out_of_memory(void *context) {
    (void)context;
    longjmp(*interp_device_load_fail, 1);
}

/* One load: the file at `path`, or `length` bytes of `text`. */
typedef struct InterpDeviceLoad {
    InterpDeviceKernel *dk;
    const char *path, *text, *label, *name;
    size_t length;
    const tessrt_param_info *params;
    int num_params;
    char *err;
    size_t errsize;
} InterpDeviceLoad;

/* Reads or takes the tile IR, finds the kernel in it and checks its
   parameters against the manifest's. */
static bool interp_device_load_ir(const InterpDeviceLoad *r) {
    InterpDeviceKernel *dk = r->dk;
    size_t length = r->length;
    char *copy = r->path ? interp_device_read(&dk->arena, r->path, &length, r->err, r->errsize)
                         : arena_strndup(&dk->arena, r->text, length);
    IrModule *module = copy ? interp_device_parse(dk, copy, length, r->label, r->err, r->errsize) : NULL;
    if (!module)
        return false;
    for (int i = 0; i < module->kernels.len && !dk->kernel; i++)
        if (strcmp(((IrKernel *)module->kernels.items[i])->name, r->name) == 0)
            dk->kernel = module->kernels.items[i];
    if (!dk->kernel)
        return interp_device_fail(r->err, r->errsize, "'%s' has no kernel '%s'", r->label, r->name);
    if (!interp_device_match(dk->kernel, r->params, r->num_params, r->label, r->err, r->errsize))
        return false;
    dk->source_name = module->source_name ? module->source_name : r->label;
    return true;
}

/* interp_device_load_ir under the lock, with running out of memory a
   failure (*out_of_memory set) rather than the end of the process. */
static bool interp_device_load_guarded(const InterpDeviceLoad *r, bool *out_of_memory) {
    jmp_buf fail;
    pthread_mutex_lock(&interp_device_lock);
    interp_device_load_fail = &fail;
    ArenaOutOfMemory previous = arena_on_out_of_memory((ArenaOutOfMemory){interp_device_out_of_memory, NULL});
    interp_device_debug_fail_alloc();
    bool ok = false;
    if (setjmp(fail) == 0) {
        ok = interp_device_load_ir(r);
    } else {
        diag_set_output(NULL);
        diag_set_source(NULL);
        diag_reset();
        *out_of_memory = true;
        interp_device_fail(r->err, r->errsize, "out of memory while reading the tile IR '%s'", r->label);
    }
    arena_debug_fail_after(-1);
    arena_on_out_of_memory(previous);
    interp_device_load_fail = NULL;
    pthread_mutex_unlock(&interp_device_lock);
    return ok;
}

static void *interp_device_load_any(const InterpDeviceLoad *request, tessrt_status *status) {
    tessrt_status ignored;
    if (!status)
        status = &ignored;
    *status = TESSRT_ERROR_NO_ARTIFACT;
    InterpDeviceLoad r = *request;
    if ((!r.path && !r.text) || !r.label || !r.name || (r.num_params > 0 && !r.params)) {
        *status = TESSRT_ERROR_INVALID_ARGUMENT;
        interp_device_fail(r.err, r.errsize, "interpreter: NULL argument");
        return NULL;
    }
    r.dk = calloc(1, sizeof *r.dk);
    bool out_of_memory = !r.dk;
    if (!r.dk) {
        interp_device_fail(r.err, r.errsize, "out of memory");
    } else if (interp_device_load_guarded(&r, &out_of_memory)) {
        *status = TESSRT_OK;
        return r.dk;
    }
    if (out_of_memory)
        *status = TESSRT_ERROR_OUT_OF_MEMORY;
    interp_device_free(r.dk);
    return NULL;
}

static void *interp_device_load(const char *path, const char *name, const tessrt_param_info *params,
                                int num_params, tessrt_status *status, char *err, size_t errsize) {
    InterpDeviceLoad r = {.path = path, .label = path, .name = name, .params = params,
                          .num_params = num_params, .err = err, .errsize = errsize};
    return interp_device_load_any(&r, status);
}

static void *interp_device_load_text(const char *text, size_t length, const char *label, const char *name,
                                     const tessrt_param_info *params, int num_params, tessrt_status *status,
                                     char *err, size_t errsize) {
    InterpDeviceLoad r = {.text = text, .length = length, .label = label, .name = name, .params = params,
                          .num_params = num_params, .err = err, .errsize = errsize};
    return interp_device_load_any(&r, status);
}

/* The value of size parameter `sym` among the arguments, or -1. */
static int64_t interp_device_size(const IrKernel *k, const tessrt_arg *args, const char *sym) {
    for (int i = 0; i < k->num_params; i++)
        if (k->params[i].kind == PARAM_SIZE && strcmp(k->params[i].name, sym) == 0)
            return args[i].value.size;
    return -1;
}

static double interp_device_scalar_float(const tessrt_arg *a) {
    switch (a->dtype) {
    case TESSRT_F16: return numeric_f16_to_double(a->value.bits16);
    case TESSRT_BF16: return numeric_bf16_to_double(a->value.bits16);
    case TESSRT_F32: return a->value.f32;
    default: return a->value.f64;
    }
}

static int64_t interp_device_scalar_int(const tessrt_arg *a) {
    switch (a->dtype) {
    case TESSRT_BOOL: return a->value.b ? 1 : 0;
    case TESSRT_I8: return a->value.i8;
    case TESSRT_I16: return a->value.i16;
    case TESSRT_I32: return a->value.i32;
    case TESSRT_U8: return a->value.u8;
    case TESSRT_U16: return a->value.u16;
    case TESSRT_U32: return a->value.u32;
    case TESSRT_U64: return (int64_t)a->value.u64;
    default: return a->value.i64;
    }
}

static tessrt_status interp_device_launch(void *handle, const tessrt_arg *args, int num_args, char *err,
                                          size_t errsize) {
    InterpDeviceKernel *dk = handle;
    if (!dk || (num_args > 0 && !args))
        return interp_device_error(TESSRT_ERROR_INVALID_ARGUMENT, err, errsize, "interpreter: NULL argument");
    const IrKernel *k = dk->kernel;
    if (num_args != k->num_params)
        return interp_device_error(TESSRT_ERROR_LAUNCH_ARGUMENTS, err, errsize,
                                   "kernel '%s' takes %d arguments, got %d", k->name, k->num_params, num_args);
    InterpArg small[16];
    InterpArg *iargs = num_args <= 16 ? small : calloc((size_t)num_args, sizeof *iargs);
    if (!iargs)
        return interp_device_error(TESSRT_ERROR_OUT_OF_MEMORY, err, errsize, "out of memory");
    memset(iargs, 0, sizeof *iargs * (size_t)(num_args <= 16 ? 16 : num_args));
    for (int i = 0; i < num_args; i++) {
        const IrParam *p = &k->params[i];
        const IrType *t = &p->value->type;
        if (p->kind == PARAM_ARRAY) {
            iargs[i].data = (void *)(uintptr_t)args[i].value.pointer;
            iargs[i].count = -1;   /* a pointer: its memory unknown here (device.c checked the range) */
            for (int d = 0; d < t->rank; d++)
                iargs[i].shape[d] = t->dims[d].sym ? interp_device_size(k, args, t->dims[d].sym)
                                                   : t->dims[d].size;
        } else if (p->kind == PARAM_SIZE) {
            iargs[i].int_value = args[i].value.size;
        } else if (dtype_is_float(t->dtype)) {
            iargs[i].float_value = interp_device_scalar_float(&args[i]);
        } else {
            iargs[i].int_value = interp_device_scalar_int(&args[i]);
        }
    }
    /* $TESSRT_INTERP_MAX_PROGRAMS, read at each launch (tessrun --max-programs sets it) */
    const char *limit_text = getenv("TESSRT_INTERP_MAX_PROGRAMS");
    int64_t limit = 0;
    if (limit_text && limit_text[0]) {
        char *end;
        errno = 0;
        long long v = strtoll(limit_text, &end, 10);
        if (end == limit_text || *end != '\0' || errno || v < 1) {
            if (iargs != small)
                free(iargs);
            return interp_device_error(TESSRT_ERROR_INVALID_ARGUMENT, err, errsize,
                                       "TESSRT_INTERP_MAX_PROGRAMS is '%.64s'; expected a positive integer",
                                       limit_text);
        }
        limit = v;
    }
    InterpError error;
    pthread_mutex_lock(&interp_device_lock);
    interp_set_max_programs(limit);
    interp_device_debug_fail_alloc();
    bool ok = interp_run_kernel(k, iargs, num_args, &error);
    arena_debug_fail_after(-1);
    pthread_mutex_unlock(&interp_device_lock);
    if (iargs != small)
        free(iargs);
    if (ok)
        return TESSRT_OK;
    tessrt_status status = error.out_of_memory ? TESSRT_ERROR_OUT_OF_MEMORY :
                           error.assertion ? TESSRT_ERROR_ASSERT : TESSRT_ERROR_INTERPRETER;
    if (error.loc.line > 0)
        return interp_device_error(status, err, errsize, "%s:%d:%d: %s", dk->source_name, error.loc.line,
                                   error.loc.col, error.message);
    return interp_device_error(status, err, errsize, "%s", error.message);
}

static void interp_device_unload(void *handle) {
    pthread_mutex_lock(&interp_device_lock);
    interp_device_free(handle);
    pthread_mutex_unlock(&interp_device_lock);
}

const tessrt_interp_device *tessinterp_device(void) {
    static const tessrt_interp_device device = {
        .abi = TESSRT_INTERP_ABI,
        .version = "tessera interpreter " TESSC_VERSION,
        .load = interp_device_load,
        .load_text = interp_device_load_text,
        .launch = interp_device_launch,
        .unload = interp_device_unload,
    };
    return &device;
}
