/*
 * tessrun.c: run one kernel of a manifest on .npy files.
 *
 *     tessrun [--device gpu|interp|N] MANIFEST [-k NAME] [-v] ARG... [SIZE=VALUE...]
 *
 * The ARGs bind, in launch order, the kernel's array and scalar parameters:
 * an array takes a .npy path (in: read; out: created with the shape its
 * symbolic sizes give; inout: read, then overwritten), a scalar takes a
 * number. Symbolic sizes come from the shapes of the arrays read, or from
 * NAME=VALUE; two sources that disagree are an error naming both. Then the
 * inputs go to the device, the kernel runs through libtessrt, and the
 * outputs come back to their files.
 *
 * The device is a CUDA device (gpu: device 0; N: device N) or the
 * interpreter (interp), which runs the kernel's tile IR (the manifest's
 * "interp" file) on the CPU. tessrun links libtessinterp and registers it
 * with libtessrt, so the interpreter needs no libtessinterp.so, and
 * `--device interp` never opens libcuda. Without --device: $TESSRT_DEVICE
 * when set, else the GPU when the driver finds a device, else the
 * interpreter, said on stderr.
 *
 * Exit status: 0 ok, 1 bad input or a runtime failure, 2 usage.
 */
#include "npy.h"
#include "tessrt.h"
#include "tessrt_interp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: tessrun MANIFEST [-k NAME] [--device gpu|interp|N] [-v] ARG... [SIZE=VALUE...]\n"
    "\n"
    "Runs a kernel of a Tessera manifest on the GPU or on the interpreter.\n"
    "  ARG          one per array or scalar parameter, in launch order:\n"
    "                 array: a .npy file (in: read; out: written; inout: read, then overwritten)\n"
    "                 scalar: a number\n"
    "  SIZE=VALUE   a symbolic size; otherwise inferred from the input arrays' shapes\n"
    "  -k NAME      the kernel (needed when the manifest has more than one)\n"
    "  --device DEV gpu (CUDA device 0), N (CUDA device N) or interp (the CPU interpreter,\n"
    "               which runs the manifest's tile IR); default: $TESSRT_DEVICE if set, else\n"
    "               gpu when a CUDA device is present, else interp\n"
    "  -v           say which artifact and grid were used\n"
    "  --max-programs N  the most programs the interpreter runs in one launch (default\n"
    "               16777216; sets $TESSRT_INTERP_MAX_PROGRAMS)\n"
    "  --           the words after it are the manifest and ARGs, even when they start with '-'\n"
    "  --help       this text\n"
    "bf16 arrays are stored as '<u2' (raw bits). Exit status: 0 ok, 1 bad input or\n"
    "runtime failure, 2 usage. A negative number (-1, -inf, -nan) is an ARG, not an option.\n";

__attribute__((format(printf, 2, 3)))
static int fail(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tessrun: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (code == EXIT_USAGE)
        fputs("(tessrun --help for usage)\n", stderr);
    return code;
}

static bool is_identifier_prefix(const char *s, size_t n) {
    if (n == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

/* ---- scalars -------------------------------------------------------------- */

static uint16_t float_to_half(float value) {
    uint32_t x;
    memcpy(&x, &value, 4);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xff, mant = x & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = (uint32_t)e << 10 | mant >> 13, rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++;   /* may carry into the exponent, which is right */
    return (uint16_t)(sign | half);
}

static uint16_t float_to_bf16(float value) {
    uint32_t x;
    memcpy(&x, &value, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static bool parse_scalar(const char *text, tessrt_dtype dtype, tessrt_arg *arg) {
    char *end;
    arg->kind = TESSRT_ARG_SCALAR;
    arg->dtype = dtype;
    errno = 0;
    if (dtype == TESSRT_F16 || dtype == TESSRT_BF16 || dtype == TESSRT_F32 || dtype == TESSRT_F64) {
        double v = strtod(text, &end);
        if (end == text || *end != '\0')
            return false;
        if (dtype == TESSRT_F64)
            arg->value.f64 = v;
        else if (dtype == TESSRT_F32)
            arg->value.f32 = (float)v;
        else
            arg->value.bits16 = dtype == TESSRT_F16 ? float_to_half((float)v) : float_to_bf16((float)v);
        return true;
    }
    if (dtype == TESSRT_BOOL) {
        if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
            arg->value.b = true;
        else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
            arg->value.b = false;
        else
            return false;
        return true;
    }
    if (dtype == TESSRT_U8 || dtype == TESSRT_U16 || dtype == TESSRT_U32 || dtype == TESSRT_U64) {
        if (text[0] == '-')
            return false;
        unsigned long long v = strtoull(text, &end, 0);
        unsigned long long max = dtype == TESSRT_U8 ? 255u : dtype == TESSRT_U16 ? 65535u
                                 : dtype == TESSRT_U32 ? 4294967295u : ~0ull;
        if (end == text || *end != '\0' || errno || v > max)
            return false;
        if (dtype == TESSRT_U8)
            arg->value.u8 = (uint8_t)v;
        else if (dtype == TESSRT_U16)
            arg->value.u16 = (uint16_t)v;
        else if (dtype == TESSRT_U32)
            arg->value.u32 = (uint32_t)v;
        else
            arg->value.u64 = v;
        return true;
    }
    long long v = strtoll(text, &end, 0);
    if (end == text || *end != '\0' || errno)
        return false;
    switch (dtype) {
    case TESSRT_I8:
        if (v < INT8_MIN || v > INT8_MAX) return false;
        arg->value.i8 = (int8_t)v;
        return true;
    case TESSRT_I16:
        if (v < INT16_MIN || v > INT16_MAX) return false;
        arg->value.i16 = (int16_t)v;
        return true;
    case TESSRT_I32:
        if (v < INT32_MIN || v > INT32_MAX) return false;
        arg->value.i32 = (int32_t)v;
        return true;
    case TESSRT_I64:
        arg->value.i64 = v;
        return true;
    default:
        return false;
    }
}

/* ---- the run ------------------------------------------------------------- */

typedef struct SizeBinding {
    bool known;
    int64_t value;
    char *source;                /* "x.npy (x, dim 0)" or "N=1000"; owned */
} SizeBinding;

typedef struct Run {
    tessrt_kernel *kernel;
    int num_params;
    tessrt_param_info *info;
    const char **texts;          /* per param: the ARG (arrays and scalars) */
    SizeBinding *sizes;          /* per param (sizes only) */
    NpyArray *arrays;            /* per param (arrays only) */
    tessrt_arg *args;
    uint64_t *device;            /* per param (arrays only) */
} Run;

static int size_param_named(const Run *run, const char *name) {
    for (int i = 0; i < run->num_params; i++)
        if (run->info[i].kind == TESSRT_PARAM_SIZE && strcmp(run->info[i].name, name) == 0)
            return i;
    return -1;
}

/* A malloc'd formatted string, or NULL. */
__attribute__((format(printf, 1, 2)))
static char *format_alloc(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

/* Binds a size; on the first binding the size takes `source` (malloc'd). */
static int bind_size(Run *run, int param, int64_t value, char *source) {
    SizeBinding *b = &run->sizes[param];
    if (b->known && b->value != value)
        return fail(EXIT_BAD_INPUT, "size '%s' is %lld from %s but %lld from %s",
                    run->info[param].name, (long long)b->value, b->source, (long long)value, source);
    if (!b->known) {
        b->known = true;
        b->value = value;
        b->source = source;
    }
    return 0;
}

static NpyDtype npy_for(tessrt_dtype dtype) {
    static const NpyDtype map[TESSRT_DTYPE_COUNT] = {
        [TESSRT_BOOL] = NPY_DT_BOOL, [TESSRT_I8] = NPY_DT_I8,   [TESSRT_I16] = NPY_DT_I16,
        [TESSRT_I32] = NPY_DT_I32,   [TESSRT_I64] = NPY_DT_I64, [TESSRT_U8] = NPY_DT_U8,
        [TESSRT_U32] = NPY_DT_U32,   [TESSRT_F16] = NPY_DT_F16, [TESSRT_BF16] = NPY_DT_U16,
        [TESSRT_F32] = NPY_DT_F32,   [TESSRT_F64] = NPY_DT_F64, [TESSRT_U16] = NPY_DT_U16,
        [TESSRT_U64] = NPY_DT_U64,   [TESSRT_F8E4M3] = NPY_DT_U8, [TESSRT_F8E5M2] = NPY_DT_U8,
    };
    return map[dtype];
}

static void format_shape(const int64_t *shape, int rank, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "(");
    for (int d = 0; d < rank && n < size; d++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (n < size)
        snprintf(buf + n, size - n, rank == 1 ? ",)" : ")");
}

static void format_param_type(const tessrt_param_info *p, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "%s[", tessrt_dtype_name(p->dtype));
    for (int d = 0; d < p->rank && n < size; d++) {
        if (p->dim_names[d])
            n += (size_t)snprintf(buf + n, size - n, "%s%s", d ? ", " : "", p->dim_names[d]);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "", (long long)p->dims[d]);
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

/* The dtype and shape of an input's header against its parameter; binds
   the sizes its shape gives. */
static int check_header(Run *run, int i, const char *path) {
    const tessrt_param_info *p = &run->info[i];
    const NpyArray *a = &run->arrays[i];
    char type[256], shape[256];
    format_param_type(p, type, sizeof type);
    if (a->dtype != npy_for(p->dtype))
        return fail(EXIT_BAD_INPUT, "%s holds '%s' but parameter '%s' is %s (stored as '%s')", path,
                    npy_dtype_descr(a->dtype), p->name, type, npy_dtype_descr(npy_for(p->dtype)));
    int64_t strides[TESSRT_MAX_RANK];
    const char *stride_names[TESSRT_MAX_RANK];
    bool strided = false;
    tessrt_kernel_param_strides(run->kernel, i, strides, stride_names, &strided);
    if (strided)   /* its memory, of any shape: the sizes come from elsewhere, the reach is checked below */
        return 0;
    format_shape(a->shape, a->rank, shape, sizeof shape);
    if (a->rank != p->rank)
        return fail(EXIT_BAD_INPUT, "%s has shape %s but parameter '%s' is %s", path, shape, p->name,
                    type);
    for (int d = 0; d < p->rank; d++) {
        if (!p->dim_names[d]) {
            if (a->shape[d] != p->dims[d])
                return fail(EXIT_BAD_INPUT, "%s has shape %s but parameter '%s' is %s", path, shape,
                            p->name, type);
            continue;
        }
        int s = size_param_named(run, p->dim_names[d]);
        if (s < 0)
            continue;
        char *source = format_alloc("%s (%s, dim %d)", path, p->name, d);
        if (!source)
            return fail(EXIT_BAD_INPUT, "out of memory");
        int code = bind_size(run, s, a->shape[d], source);
        if (run->sizes[s].source != source)
            free(source);
        if (code)
            return EXIT_BAD_INPUT;
    }
    return 0;
}

/* Reads an in or inout array: the header first, checked against the
   parameter, so that a file of the wrong shape is rejected before its data
   is read. */
static int read_input(Run *run, int i) {
    const char *path = run->texts[i];
    char err[512];
    NpyReader reader;
    if (!npy_open(path, &reader, &run->arrays[i], err, sizeof err))
        return fail(EXIT_BAD_INPUT, "%s", err);
    int code = check_header(run, i, path);
    if (code) {
        npy_close(&reader);
        return code;
    }
    if (!npy_read_data(&reader, &run->arrays[i], err, sizeof err))
        return fail(EXIT_BAD_INPUT, "%s", err);
    return 0;
}

/* The value of a dim or stride: a constant, or a bound size (-1, said, if not). */
static int64_t dim_value(Run *run, const tessrt_param_info *p, int64_t value, const char *name) {
    if (!name)
        return value;
    int s = size_param_named(run, name);
    if (s < 0 || !run->sizes[s].known) {
        fail(EXIT_BAD_INPUT, "cannot infer size '%s' for '%s': give it as %s=VALUE", name, p->name, name);
        return -1;
    }
    return run->sizes[s].value;
}

/* The elements a strided array spans, 1 + sum (dim - 1) stride; -1 (said)
   when a size is unknown. */
static int64_t strided_reach(Run *run, int i, const int64_t *strides, const char **names) {
    const tessrt_param_info *p = &run->info[i];
    int64_t reach = 1;
    for (int d = 0; d < p->rank; d++) {
        int64_t n = dim_value(run, p, p->dims[d], p->dim_names[d]), st = dim_value(run, p, strides[d], names[d]);
        if (n < 0 || st < 0)
            return -1;
        if (n == 0 || reach == 0)
            reach = 0;
        else if (__builtin_mul_overflow(n - 1, st, &st) || __builtin_add_overflow(reach, st, &reach)) {
            fail(EXIT_BAD_INPUT, "strided '%s' reaches past 2^63 elements", p->name);
            return -1;
        }
    }
    return reach;
}

static int create_output(Run *run, int i) {
    const tessrt_param_info *p = &run->info[i];
    int64_t shape[TESSRT_MAX_RANK];
    char err[512];
    int rank = p->rank;
    int64_t strides[TESSRT_MAX_RANK];
    const char *stride_names[TESSRT_MAX_RANK];
    bool strided = false;
    tessrt_kernel_param_strides(run->kernel, i, strides, stride_names, &strided);
    if (strided) {   /* written as its memory: a flat array of the strides' reach */
        if ((shape[0] = strided_reach(run, i, strides, stride_names)) < 0)
            return EXIT_BAD_INPUT;
        rank = 1;
    }
    for (int d = 0; !strided && d < p->rank; d++)
        if ((shape[d] = dim_value(run, p, p->dims[d], p->dim_names[d])) < 0)
            return EXIT_BAD_INPUT;
    if (!npy_alloc(&run->arrays[i], npy_for(p->dtype), rank, shape, err, sizeof err))
        return fail(EXIT_BAD_INPUT, "output '%s': %s", p->name, err);
    return 0;
}

static int run_on_device(Run *run, int device, bool verbose) {
    tessrt_status s = TESSRT_OK;
    int code = 0;
    char chosen[512];
    if ((s = tessrt_kernel_prepare(run->kernel, device, chosen, sizeof chosen)) != TESSRT_OK)
        return fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
    for (int i = 0; i < run->num_params && s == TESSRT_OK; i++) {
        if (run->info[i].kind != TESSRT_PARAM_ARRAY)
            continue;
        const NpyArray *a = &run->arrays[i];
        size_t bytes = a->count * npy_dtype_bytes(a->dtype);
        s = tessrt_device_alloc(device, bytes, &run->device[i]);
        /* An out array starts as 0xFF bytes (NaN for every float dtype), so
           an element the kernel never writes shows in the result instead of
           passing as whatever the allocator left there. */
        if (run->info[i].access == TESSRT_ACCESS_OUT)
            memset(a->data, 0xFF, bytes);
        if (s == TESSRT_OK)
            s = tessrt_copy_to_device(device, run->device[i], a->data, bytes);
        run->args[i] = tessrt_arg_array(run->device[i]);
    }
    char entry[512] = "";
    /* -v: which entry the launch takes; a failure here is the launch's to report */
    if (s == TESSRT_OK && verbose && device != TESSRT_DEVICE_INTERP &&
        tessrt_kernel_entry_for(run->kernel, device, run->args, run->num_params, entry, sizeof entry) != TESSRT_OK)
        snprintf(entry, sizeof entry, "entry unknown (%s)", tessrt_last_error());
    if (s == TESSRT_OK)
        s = tessrt_launch(run->kernel, device, run->args, run->num_params, NULL);
    if (s == TESSRT_OK)
        s = tessrt_device_synchronize(device);
    for (int i = 0; i < run->num_params && s == TESSRT_OK; i++) {
        if (run->info[i].kind != TESSRT_PARAM_ARRAY || run->info[i].access == TESSRT_ACCESS_IN)
            continue;
        NpyArray *a = &run->arrays[i];
        s = tessrt_copy_from_device(device, a->data, run->device[i], a->count * npy_dtype_bytes(a->dtype));
    }
    if (s != TESSRT_OK)
        code = fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
    for (int i = 0; i < run->num_params; i++)
        if (run->device[i])
            tessrt_device_free(device, run->device[i]);
    if (code)
        return code;
    for (int i = 0; i < run->num_params; i++) {
        if (run->info[i].kind != TESSRT_PARAM_ARRAY || run->info[i].access == TESSRT_ACCESS_IN)
            continue;
        char err[512];
        if (!npy_write(run->texts[i], &run->arrays[i], err, sizeof err))
            return fail(EXIT_BAD_INPUT, "%s", err);
    }
    if (verbose && device == TESSRT_DEVICE_INTERP)
        fprintf(stderr, "tessrun: ran '%s' on the interpreter with %s\n",
                tessrt_kernel_name(run->kernel), chosen);
    else if (verbose)
        fprintf(stderr, "tessrun: ran '%s' on device %d with %s, %s\n", tessrt_kernel_name(run->kernel),
                device, chosen, entry);
    return 0;
}

/* `fallback`: the interpreter was chosen for want of a CUDA device, which
   is said once the arguments are known to be good. */
static int tessrun(const char *manifest_path, const char *kernel_name, int device, bool fallback,
                   bool verbose, int num_raw, char **raw) {
    tessrt_manifest *m = NULL;
    if (tessrt_manifest_load(manifest_path, &m) != TESSRT_OK)
        return fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
    Run run = {0};
    int code = 0;
    if (kernel_name) {
        if (tessrt_kernel_get(m, kernel_name, &run.kernel) != TESSRT_OK) {
            code = fail(EXIT_USAGE, "%s", tessrt_last_error());
            goto out;
        }
    } else if (tessrt_manifest_num_kernels(m) == 1) {
        tessrt_manifest_kernel_at(m, 0, &run.kernel);
    } else if (tessrt_manifest_num_kernels(m) == 0) {
        code = fail(EXIT_BAD_INPUT, "%s has no kernels", manifest_path);
        goto out;
    } else {
        int count = tessrt_manifest_num_kernels(m);
        size_t length = 1;
        for (int i = 0; i < count; i++) {
            tessrt_kernel *k;
            tessrt_manifest_kernel_at(m, i, &k);
            length += strlen(tessrt_kernel_name(k)) + 2;
        }
        char *names = malloc(length);
        if (names) {
            names[0] = '\0';
            for (int i = 0; i < count; i++) {
                tessrt_kernel *k;
                tessrt_manifest_kernel_at(m, i, &k);
                if (i)
                    strcat(names, ", ");
                strcat(names, tessrt_kernel_name(k));
            }
        }
        code = fail(EXIT_USAGE, "%s has %d kernels (%s); choose one with -k NAME", manifest_path, count,
                    names ? names : "...");
        free(names);
        goto out;
    }
    int n = run.num_params = tessrt_kernel_num_params(run.kernel);
    run.info = calloc((size_t)n + 1, sizeof *run.info);
    run.texts = calloc((size_t)n + 1, sizeof *run.texts);
    run.sizes = calloc((size_t)n + 1, sizeof *run.sizes);
    run.arrays = calloc((size_t)n + 1, sizeof *run.arrays);
    run.args = calloc((size_t)n + 1, sizeof *run.args);
    run.device = calloc((size_t)n + 1, sizeof *run.device);
    if (!run.info || !run.texts || !run.sizes || !run.arrays || !run.args || !run.device) {
        code = fail(EXIT_BAD_INPUT, "out of memory");
        goto out;
    }
    int positional = 0;
    for (int i = 0; i < n; i++) {
        tessrt_kernel_param(run.kernel, i, &run.info[i]);
        if (run.info[i].kind != TESSRT_PARAM_SIZE)
            positional++;
    }

    /* bind the command-line words: NAME=VALUE for sizes, the rest in order */
    int next = 0, given = 0;
    for (int r = 0; r < num_raw; r++) {
        const char *eq = strchr(raw[r], '=');
        if (eq && is_identifier_prefix(raw[r], (size_t)(eq - raw[r]))) {
            char *name = format_alloc("%.*s", (int)(eq - raw[r]), raw[r]);
            int s = name ? size_param_named(&run, name) : -1;
            if (s < 0) {
                code = name ? fail(EXIT_USAGE, "'%s': kernel '%s' has no size named '%s'", raw[r],
                                   tessrt_kernel_name(run.kernel), name)
                            : fail(EXIT_BAD_INPUT, "out of memory");
                free(name);
                goto out;
            }
            free(name);
            char *end;
            errno = 0;
            long long v = strtoll(eq + 1, &end, 10);
            if (end == eq + 1 || *end != '\0' || errno || v < 0) {
                code = fail(EXIT_USAGE, "'%s': a size is an integer >= 0", raw[r]);
                goto out;
            }
            char *source = format_alloc("%s", raw[r]);
            if (!source) {
                code = fail(EXIT_BAD_INPUT, "out of memory");
                goto out;
            }
            int bound = bind_size(&run, s, v, source);
            if (run.sizes[s].source != source)
                free(source);
            if (bound) {
                code = EXIT_BAD_INPUT;
                goto out;
            }
            continue;
        }
        given++;
        while (next < n && run.info[next].kind == TESSRT_PARAM_SIZE)
            next++;
        if (next < n)
            run.texts[next++] = raw[r];
    }
    if (given != positional) {
        /* the names, however long: a message, never a bound on the call */
        size_t length = 1;
        for (int i = 0; i < n; i++)
            if (run.info[i].kind != TESSRT_PARAM_SIZE)
                length += strlen(run.info[i].name) + 2;
        char *expected = malloc(length);
        if (expected) {
            expected[0] = '\0';
            for (int i = 0, k = 0; i < n; i++)
                if (run.info[i].kind != TESSRT_PARAM_SIZE) {
                    if (k++)
                        strcat(expected, ", ");
                    strcat(expected, run.info[i].name);
                }
        }
        code = fail(EXIT_USAGE, "kernel '%s' takes %d arguments (%s) besides sizes, got %d",
                    tessrt_kernel_name(run.kernel), positional, expected ? expected : "...", given);
        free(expected);
        goto out;
    }

    for (int i = 0; i < n && !code; i++) {
        const tessrt_param_info *p = &run.info[i];
        if (p->kind == TESSRT_PARAM_ARRAY && p->access != TESSRT_ACCESS_OUT)
            code = read_input(&run, i);
        else if (p->kind == TESSRT_PARAM_SCALAR && !parse_scalar(run.texts[i], p->dtype, &run.args[i]))
            code = fail(EXIT_BAD_INPUT, "'%s' is not a valid %s for scalar '%s'", run.texts[i],
                        tessrt_dtype_name(p->dtype), p->name);
    }
    for (int i = 0; i < n && !code; i++)
        if (run.info[i].kind == TESSRT_PARAM_ARRAY && run.info[i].access == TESSRT_ACCESS_OUT)
            code = create_output(&run, i);
    for (int i = 0; i < n && !code; i++) {
        if (run.info[i].kind != TESSRT_PARAM_SIZE)
            continue;
        if (!run.sizes[i].known)
            code = fail(EXIT_BAD_INPUT, "cannot infer size '%s': give it as %s=VALUE", run.info[i].name,
                        run.info[i].name);
        else
            run.args[i] = tessrt_arg_size(run.sizes[i].value);
    }
    /* a strided input's file must hold every element its strides reach:
       the kernel reads that far */
    for (int i = 0; i < n && !code; i++) {
        int64_t strides[TESSRT_MAX_RANK];
        const char *stride_names[TESSRT_MAX_RANK];
        bool strided = false;
        if (run.info[i].kind != TESSRT_PARAM_ARRAY || run.info[i].access == TESSRT_ACCESS_OUT ||
            tessrt_kernel_param_strides(run.kernel, i, strides, stride_names, &strided) != TESSRT_OK || !strided)
            continue;
        int64_t reach = strided_reach(&run, i, strides, stride_names);
        if (reach < 0)
            code = EXIT_BAD_INPUT;
        else if ((size_t)reach > run.arrays[i].count)
            code = fail(EXIT_BAD_INPUT, "%s holds %zu elements but strided '%s' reaches %lld", run.texts[i],
                        run.arrays[i].count, run.info[i].name, (long long)reach);
    }
    if (code)
        goto out;
    /* arguments and contracts, before any device work (pointers come later) */
    for (int i = 0; i < n; i++)
        if (run.info[i].kind == TESSRT_PARAM_ARRAY)
            run.args[i] = tessrt_arg_array(1);
    uint32_t grid[3];
    if (tessrt_kernel_check(run.kernel, run.args, n, grid) != TESSRT_OK) {
        code = fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
        goto out;
    }
    if (fallback)
        fputs("tessrun: no CUDA device; running on the interpreter\n", stderr);
    if (verbose && tessrt_kernel_persistent(run.kernel))
        fprintf(stderr, "tessrun: kernel '%s', a persistent grid of %u tiles, %d threads per block\n",
                tessrt_kernel_name(run.kernel), grid[0], tessrt_kernel_threads(run.kernel));
    else if (verbose)
        fprintf(stderr, "tessrun: kernel '%s', grid (%u, %u, %u), %d threads per block\n",
                tessrt_kernel_name(run.kernel), grid[0], grid[1], grid[2],
                tessrt_kernel_threads(run.kernel));
    code = run_on_device(&run, device, verbose);
out:
    if (run.arrays)
        for (int i = 0; i < run.num_params; i++)
            npy_free(&run.arrays[i]);
    if (run.sizes)
        for (int i = 0; i < run.num_params; i++)
            free(run.sizes[i].source);
    free(run.info);
    free(run.texts);
    free(run.sizes);
    free(run.arrays);
    free(run.args);
    free(run.device);
    tessrt_manifest_free(m);
    return code;
}

/* Registers the linked interpreter and settles the device: a CUDA ordinal
   (the GPU kind, whatever $TESSRT_DEVICE says) or TESSRT_DEVICE_INTERP. */
static int choose_device(const char *text, int *device, bool *fallback) {
    if (tessrt_register_interpreter(tessinterp_device()) != TESSRT_OK)
        return fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
    if (text) {
        if (*device != TESSRT_DEVICE_INTERP)
            tessrt_set_device_kind(TESSRT_DEVICE_KIND_GPU);
        return 0;
    }
    const char *env = getenv("TESSRT_DEVICE");
    if (env && env[0] && strcmp(env, "auto") != 0) {
        tessrt_device_kind kind;
        if (tessrt_get_device_kind(&kind) != TESSRT_OK)
            return fail(EXIT_BAD_INPUT, "%s", tessrt_last_error());
        *device = kind == TESSRT_DEVICE_KIND_INTERP ? TESSRT_DEVICE_INTERP : 0;
        return 0;
    }
    int count = 0;
    tessrt_set_device_kind(TESSRT_DEVICE_KIND_GPU);
    if (tessrt_device_count(&count) != TESSRT_OK || count == 0) {
        *device = TESSRT_DEVICE_INTERP;
        *fallback = true;
    }
    return 0;
}

/* True when `arg` reads whole as a number ("-1", "-inf", "-nan"): an ARG
   for a scalar, not an option. */
static bool is_number(const char *arg) {
    char *end;
    (void)strtod(arg, &end);
    return end != arg && *end == '\0';
}

int main(int argc, char **argv) {
    const char *manifest = NULL, *kernel = NULL, *device_text = NULL;
    int device = 0;
    bool verbose = false;
    char **raw = calloc((size_t)argc + 1, sizeof *raw);
    int num_raw = 0;
    if (!raw)
        return fail(EXIT_BAD_INPUT, "out of memory");
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || (a[0] == '-' && is_number(a))) {
            if (!manifest)
                manifest = a;
            else
                raw[num_raw++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options_done = true;
        } else if (strcmp(a, "--max-programs") == 0 || strncmp(a, "--max-programs=", 15) == 0) {
            const char *v = a[14] == '=' ? a + 15 : i + 1 < argc ? argv[++i] : NULL;
            char *end = NULL;
            errno = 0;
            long long n = v ? strtoll(v, &end, 10) : 0;
            if (!v || end == v || *end != '\0' || errno || n < 1) {
                free(raw);
                return fail(EXIT_USAGE, "--max-programs expects a positive integer%s%s%s", v ? ", got '" : "",
                            v ? v : "", v ? "'" : "");
            }
            /* the interpreter device reads it at each launch */
            setenv("TESSRT_INTERP_MAX_PROGRAMS", v, 1);
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            free(raw);
            return 0;
        } else if (strcmp(a, "-k") == 0 || strcmp(a, "--device") == 0) {
            if (i + 1 >= argc) {
                free(raw);
                return fail(EXIT_USAGE, "%s needs a value", a);
            }
            const char *v = argv[++i];
            if (a[1] == 'k') {
                kernel = v;
                continue;
            }
            device_text = v;
            if (strcmp(v, "interp") == 0) {
                device = TESSRT_DEVICE_INTERP;
                continue;
            }
            if (strcmp(v, "gpu") == 0) {
                device = 0;
                continue;
            }
            char *end;
            long d = strtol(v, &end, 10);
            if (end == v || *end != '\0' || d < 0 || d > 1024) {
                free(raw);
                return fail(EXIT_USAGE, "--device %s: expected gpu, interp or a CUDA device ordinal (0, 1, ...)", v);
            }
            device = (int)d;
        } else if (strcmp(a, "-v") == 0) {
            verbose = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            free(raw);
            return fail(EXIT_USAGE, "unknown option '%s' (put '--' before ARGs that start with '-')", a);
        } else if (!manifest) {
            manifest = a;
        } else {
            raw[num_raw++] = argv[i];
        }
    }
    if (!manifest) {
        free(raw);
        return fail(EXIT_USAGE, "no manifest given");
    }
    bool fallback = false;
    if (choose_device(device_text, &device, &fallback) != 0) {
        free(raw);
        return EXIT_BAD_INPUT;
    }
    int code = tessrun(manifest, kernel, device, fallback, verbose, num_raw, raw);
    free(raw);
    return code;
}
