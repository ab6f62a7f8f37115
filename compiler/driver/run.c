/*
 * run.c: `tessc run`, a kernel run on .npy files.
 *
 *     tessc run FILE.tess|FILE.tir [-k NAME] [-D N=V] [-O0..3] [--device interp|gpu]
 *               ARG... [SIZE=VALUE...]
 *
 * The front end as in compile() (parse, sema, lower, passes; or the IR
 * parser for .tir), then the ARGs bind the kernel's parameters exactly as
 * tessrun binds them: an array takes a .npy path (in: read; out: created
 * with the shape its sizes give; inout: read, then overwritten), a scalar
 * takes a number, and a symbolic size comes from the arrays' shapes or from
 * SIZE=VALUE (two sources that disagree are an error naming both). The
 * kernel runs on the interpreter, and the out and inout arrays are written
 * back to their files. On the GPU (run_on_gpu) the kernel is compiled into a
 * temporary directory and run by the tessrun beside tessc.
 *
 * Exit status: 0 ok, 1 bad input or an error the interpreter caught, 2 usage.
 */
#include "driver.h"
#include "front.h"
#include "interp.h"
#include "ir.h"
#include "npy.h"
#include "numeric.h"

#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { RUN_EXIT_INPUT = 1, RUN_EXIT_USAGE = 2 };

typedef struct RunOptions {
    const char *input;
    const char *kernel;
    const char *device;          /* NULL: the default */
    Define defines[64];
    int define_count;
    int opt_level;
    bool debug;              /* -g: print and assert kept */
    bool verbose;
    bool rotate_dots;            /* --overlap=rotate (tessc's) */
    const char *grid;            /* --grid=VALUE (tessc's), NULL: auto */
    const char *grid_order;      /* --grid-order=VALUE (tessc's), NULL: auto */
    const char *stationary;      /* --stationary=VALUE (tessc's), NULL: auto */
    int64_t max_programs;        /* 0: the interpreter's default */
    const char **words;          /* ARGs and SIZE=VALUE, in order */
    int num_words;
} RunOptions;

static Arena run_arena;

static void run_usage(FILE *out) {
    fprintf(out,
            "usage: tessc run FILE.tess|FILE.tir [options] ARG... [SIZE=VALUE...]\n"
            "\n"
            "Runs one kernel on .npy files.\n"
            "  ARG             one per array or scalar parameter, in order:\n"
            "                    array: a .npy file (in: read; out: written; inout: read, then\n"
            "                    overwritten); scalar: a number\n"
            "  SIZE=VALUE      a symbolic size; otherwise inferred from the input arrays' shapes\n"
            "  -k NAME         the kernel (needed when the file has more than one)\n"
            "  -D NAME=VALUE   set a compile-time parameter\n"
            "  -O0 .. -O3      optimization level of the IR passes (default -O2)\n"
            "  -g              keep print() and assert() (they print and check on either device)\n"
            "  --overlap=off|rotate  tessc's: rotate runs the overlap pass (docs/ir.md)\n"
            "  --grid=auto|per-tile|persistent|persistent-handoff  tessc's: persistent\n"
            "                  runs the persist pass, persistent-handoff the handoff pass too;\n"
            "                  auto is per-tile here (the default archs are not all sm_90a)\n"
            "  --grid-order=auto|launch|heavy-first  tessc's: the persist pass's tile\n"
            "                  order (auto: heavy-first)\n"
            "  --stationary=auto|registers|shared  tessc's: where a loop's stationary dot\n"
            "                  operand stays (auto: registers where it fits, as on sm_80, sm_90)\n"
            "  --device DEV    gpu (compiles for sm_80 and sm_90 into a temporary directory and\n"
            "                  runs it with the tessrun beside tessc) or interp (the interpreter);\n"
            "                  default: gpu when a CUDA device is present, else interp\n"
            "  -v              say which kernel, grid and device ran, and how long it took\n"
            "  --max-programs N  the most programs the interpreter runs in one launch\n"
            "                  (default 16777216; docs/interpreter.md)\n"
            "  --              the words after it are the input and ARGs, even when they\n"
            "                  start with '-'\n"
            "A negative number (-1, -inf, -nan) is an ARG, not an option.\n"
            "bf16 arrays are stored as '<u2' (raw bits).\n"
            "exit status: 0 ok, 1 bad input or an error the interpreter caught, 2 usage\n");
}

__attribute__((format(printf, 2, 3)))
static int run_fail(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tessc run: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (code == RUN_EXIT_USAGE)
        fputs("try 'tessc run --help'\n", stderr);
    return code;
}

/* The value of option `arg` whose name is its first `prefix` bytes: after
   '=', glued to a short option, or the next word (NULL: none). In run.c,
   not main.c, so that the fuzzer's build (every compiler file but main.c)
   has it too. */
const char *driver_option_value(int argc, char **argv, int *i, const char *arg, size_t prefix) {
    if (arg[prefix] == '=')
        return arg + prefix + 1;
    if (arg[prefix] != '\0' && arg[1] != '-')
        return arg + prefix;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* True when `arg` reads whole as a number ("-1", "-inf", "-nan", "-1e3"):
   an ARG for a scalar, not an option. */
static bool run_is_number(const char *arg) {
    char *end;
    (void)strtod(arg, &end);
    return end != arg && *end == '\0';
}

/* Whether `arg` is option `name`, alone or as `name=VALUE`. */
static bool is_option(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* tessc's pass option `arg` (`name`), whose value must be one of `known`
   (NULL-terminated): *out = it. Returns 0, or run_fail's usage status. */
static int run_choice(int argc, char **argv, int *i, const char *arg, const char *name,
                      const char *const known[], const char **out) {
    const char *value = driver_option_value(argc, argv, i, arg, strlen(name));
    if (!value)
        return run_fail(RUN_EXIT_USAGE, "option '%s' needs a value", arg);
    char list[128] = "";
    for (int k = 0; known[k]; k++) {
        if (strcmp(value, known[k]) == 0) {
            *out = known[k];
            return 0;
        }
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", known[k]);
    }
    return run_fail(RUN_EXIT_USAGE, "unknown %s '%s' (known: %s)", name, value, list);
}

static int run_parse_args(RunOptions *opt, int argc, char **argv) {
    opt->opt_level = 2;
    opt->words = ARENA_ARRAY(&run_arena, const char *, argc + 1);
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        int rc;
        if (options_done || (arg[0] == '-' && run_is_number(arg))) {
            if (!opt->input)
                opt->input = arg;
            else
                opt->words[opt->num_words++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            run_usage(stdout);
            exit(0);
        } else if (strcmp(arg, "-v") == 0) {
            opt->verbose = true;
        } else if (strcmp(arg, "-k") == 0 || strncmp(arg, "--kernel", 8) == 0 ||
                   (strncmp(arg, "-k", 2) == 0 && arg[2])) {
            size_t prefix = arg[1] == 'k' ? 2 : 8;
            if (!(value = driver_option_value(argc, argv, &i, arg, prefix)))
                return run_fail(RUN_EXIT_USAGE, "option '%s' needs a value", arg);
            opt->kernel = value;
        } else if (strncmp(arg, "-D", 2) == 0) {
            if (!(value = driver_option_value(argc, argv, &i, arg, 2)))
                return run_fail(RUN_EXIT_USAGE, "option '%s' needs a value", arg);
            const char *eq = strchr(value, '=');
            if (!eq || eq == value || !eq[1])
                return run_fail(RUN_EXIT_USAGE, "-D expects NAME=VALUE, got '%s'", value);
            if (opt->define_count == (int)(sizeof opt->defines / sizeof opt->defines[0]))
                return run_fail(RUN_EXIT_USAGE, "too many -D options");
            Define *d = &opt->defines[opt->define_count++];
            d->name = intern(value, (size_t)(eq - value));
            d->value_text = eq + 1;
            d->used = false;
        } else if (strncmp(arg, "--device", 8) == 0 && (arg[8] == '\0' || arg[8] == '=')) {
            if (!(value = driver_option_value(argc, argv, &i, arg, 8)))
                return run_fail(RUN_EXIT_USAGE, "option '%s' needs a value", arg);
            if (strcmp(value, "interp") != 0 && strcmp(value, "gpu") != 0)
                return run_fail(RUN_EXIT_USAGE, "unknown device '%s' (known: interp, gpu)", value);
            opt->device = value;
        } else if (strncmp(arg, "--max-programs", 14) == 0 && (arg[14] == '\0' || arg[14] == '=')) {
            if (!(value = driver_option_value(argc, argv, &i, arg, 14)))
                return run_fail(RUN_EXIT_USAGE, "option '%s' needs a value", arg);
            char *end;
            errno = 0;
            long long v = strtoll(value, &end, 10);
            if (end == value || *end != '\0' || errno || v < 1)
                return run_fail(RUN_EXIT_USAGE, "--max-programs expects a positive integer, got '%s'", value);
            opt->max_programs = v;
        } else if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) {
            opt->opt_level = arg[2] - '0';
        } else if (strcmp(arg, "-g") == 0) {
            opt->debug = true;
        } else if (is_option(arg, "--overlap")) {
            static const char *const known[] = {"off", "rotate", NULL};
            const char *mode = NULL;
            if ((rc = run_choice(argc, argv, &i, arg, "--overlap", known, &mode)))
                return rc;
            opt->rotate_dots = mode[0] == 'r';
        } else if (is_option(arg, "--stationary")) {
            static const char *const known[] = {"auto", "registers", "shared", NULL};
            if ((rc = run_choice(argc, argv, &i, arg, "--stationary", known, &opt->stationary)))
                return rc;
        } else if (is_option(arg, "--grid-order")) {
            static const char *const known[] = {"auto", "launch", "heavy-first", NULL};
            if ((rc = run_choice(argc, argv, &i, arg, "--grid-order", known, &opt->grid_order)))
                return rc;
        } else if (is_option(arg, "--grid")) {
            static const char *const known[] = {"auto", "per-tile", "persistent", "persistent-handoff", NULL};
            if ((rc = run_choice(argc, argv, &i, arg, "--grid", known, &opt->grid)))
                return rc;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return run_fail(RUN_EXIT_USAGE, "unknown option '%s' (put '--' before ARGs that start with '-')",
                            arg);
        } else if (!opt->input) {
            opt->input = arg;
        } else {
            opt->words[opt->num_words++] = arg;
        }
    }
    if (!opt->input)
        return run_fail(RUN_EXIT_USAGE, "no input file");
    return 0;
}

/* ---- the front end ------------------------------------------------------------------ */

/* Whether --grid asks for the persist pass: auto is per-tile here, as tessc's
   default archs (not all sm_90a) make it. */
static bool run_persistent(const RunOptions *opt) {
    return opt->grid && strncmp(opt->grid, "persistent", 10) == 0;
}

/* The module of FILE after the front end and the passes; NULL after errors
   (already reported). Sema checks shared memory against sm_90's limit. */
static IrModule *run_front_end(const RunOptions *opt, const SourceFile *file) {
    FrontOptions front = {
        .defines = (Define *)opt->defines,
        .define_count = opt->define_count,
        .archs = (const ArchInfo *[]){arch_lookup("sm_90")},
        .arch_count = 1,
        .debug = opt->debug,
    };
    IrModule *module = NULL;
    if (!front_compile(&run_arena, file, &front, &module))
        return NULL;
    /* fp8 rings and sm_90's shared memory as the default arch gets them:
       the IR tessc gives by default */
    PassOptions passes = {.opt_level = opt->opt_level, .verify = true, .fp8_rings = true,
                          .rotate_dots = opt->rotate_dots,
                          .persistent = run_persistent(opt) ? PERSIST_ALL : PERSIST_NONE,
                          .handoff = opt->grid && strcmp(opt->grid, "persistent-handoff") == 0,
                          .heavy_first = !opt->grid_order || strcmp(opt->grid_order, "launch") != 0,
                          .stationary_shared = opt->stationary && strcmp(opt->stationary, "shared") == 0,
                          .shared_budget = arch_lookup("sm_90")->shared_bytes_max};
    if (!passes_run(module, &passes))
        return NULL;
    return module;
}

/* ---- binding the arguments ---------------------------------------------------------- */

typedef struct RunSize {
    bool known;
    int64_t value;
    const char *source;          /* "x.npy (x, dim 0)" or "N=1000" */
} RunSize;

typedef struct Run {
    const IrKernel *kernel;
    int n;
    const char **texts;          /* per param: its ARG */
    RunSize *sizes;              /* per param (sizes) */
    NpyArray *arrays;            /* per param (arrays) */
    InterpArg *args;
} Run;

static NpyDtype run_npy_dtype(DType dtype) {
    static const NpyDtype map[DT_COUNT] = {
        [DT_BOOL] = NPY_DT_BOOL, [DT_I8] = NPY_DT_I8,   [DT_I16] = NPY_DT_I16, [DT_I32] = NPY_DT_I32,
        [DT_I64] = NPY_DT_I64,   [DT_U8] = NPY_DT_U8,   [DT_U32] = NPY_DT_U32, [DT_F16] = NPY_DT_F16,
        [DT_BF16] = NPY_DT_U16,  [DT_F32] = NPY_DT_F32, [DT_F64] = NPY_DT_F64, [DT_U16] = NPY_DT_U16,
        [DT_U64] = NPY_DT_U64,   [DT_F8E4M3] = NPY_DT_U8, [DT_F8E5M2] = NPY_DT_U8,
    };
    return map[dtype];
}

static int run_size_named(const Run *run, const char *name) {
    for (int i = 0; i < run->n; i++)
        if (run->kernel->params[i].kind == PARAM_SIZE && strcmp(run->kernel->params[i].name, name) == 0)
            return i;
    return -1;
}

static int run_bind_size(Run *run, int param, int64_t value, const char *source) {
    RunSize *b = &run->sizes[param];
    if (b->known && b->value != value)
        return run_fail(RUN_EXIT_INPUT, "size '%s' is %lld from %s but %lld from %s",
                        run->kernel->params[param].name, (long long)b->value, b->source,
                        (long long)value, source);
    if (!b->known) {
        b->known = true;
        b->value = value;
        b->source = source;
    }
    return 0;
}

static void run_format_shape(const int64_t *shape, int rank, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "(");
    for (int d = 0; d < rank && n < size; d++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (n < size)
        snprintf(buf + n, size - n, rank == 1 ? ",)" : ")");
}

static void run_format_type(const IrType *t, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "%s[", dtype_name(t->dtype));
    for (int d = 0; d < t->rank && n < size; d++) {
        if (t->dims[d].sym)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", d ? ", " : "", t->dims[d].sym);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "", (long long)t->dims[d].size);
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

/* The dtype and shape of an input's header against its parameter; binds
   the sizes its shape gives. */
static int run_check_header(Run *run, int i, const char *path) {
    const IrParam *p = &run->kernel->params[i];
    const IrType *t = &p->value->type;
    const NpyArray *a = &run->arrays[i];
    char type[256], shape[256];
    run_format_type(t, type, sizeof type);
    if (a->dtype != run_npy_dtype(t->dtype))
        return run_fail(RUN_EXIT_INPUT, "%s holds '%s' but parameter '%s' is %s (stored as '%s')", path,
                        npy_dtype_descr(a->dtype), p->name, type,
                        npy_dtype_descr(run_npy_dtype(t->dtype)));
    if (p->strides)   /* its memory, of any shape; its sizes come from elsewhere (interp.c checks the reach) */
        return 0;
    run_format_shape(a->shape, a->rank, shape, sizeof shape);
    if (a->rank != t->rank)
        return run_fail(RUN_EXIT_INPUT, "%s has shape %s but parameter '%s' is %s", path, shape, p->name,
                        type);
    for (int d = 0; d < t->rank; d++) {
        if (!t->dims[d].sym) {
            if (a->shape[d] != t->dims[d].size)
                return run_fail(RUN_EXIT_INPUT, "%s has shape %s but parameter '%s' is %s", path, shape,
                                p->name, type);
            continue;
        }
        int s = run_size_named(run, t->dims[d].sym);
        const char *source = arena_printf(&run_arena, "%s (%s, dim %d)", path, p->name, d);
        if (s >= 0 && run_bind_size(run, s, a->shape[d], source))
            return RUN_EXIT_INPUT;
    }
    return 0;
}

/* Reads an in or inout array: the header first, checked against the
   parameter, so that a file of the wrong shape is rejected before its data
   is read. */
static int run_read_input(Run *run, int i) {
    const char *path = run->texts[i];
    char err[512];
    NpyReader reader;
    if (!npy_open(path, &reader, &run->arrays[i], err, sizeof err))
        return run_fail(RUN_EXIT_INPUT, "%s", err);
    int code = run_check_header(run, i, path);
    if (code) {
        npy_close(&reader);
        return code;
    }
    if (!npy_read_data(&reader, &run->arrays[i], err, sizeof err))
        return run_fail(RUN_EXIT_INPUT, "%s", err);
    return 0;
}

/* An out array starts as device memory does, undefined: NaN in float
   arrays and the byte pattern 0xA5 in integer ones (bool: 1), so that an
   element no program writes shows in the output instead of a plausible 0. */
static void run_poison(NpyArray *a, DType dtype) {
    size_t bytes = a->count * npy_dtype_bytes(a->dtype);
    if (dtype == DT_BOOL) {
        memset(a->data, 1, bytes);
    } else if (!dtype_is_float(dtype)) {
        memset(a->data, 0xA5, bytes);
    } else {
        for (size_t i = 0; i < a->count; i++) {
            if (dtype == DT_F32)
                ((float *)a->data)[i] = NAN;
            else if (dtype == DT_F64)
                ((double *)a->data)[i] = NAN;
            else if (dtype_is_fp8(dtype))
                ((uint8_t *)a->data)[i] = 0x7f;
            else
                ((uint16_t *)a->data)[i] = dtype == DT_F16 ? 0x7e00 : 0x7fc0;
        }
    }
}

/* The value of dim `d` (or of its stride) of parameter i, or -1 with the message said. */
static int64_t run_dim_value(Run *run, const IrParam *p, const IrDim *dim) {
    if (!dim->sym)
        return dim->size;
    int s = run_size_named(run, dim->sym);
    if (s < 0 || !run->sizes[s].known) {
        run_fail(RUN_EXIT_INPUT, "cannot infer size '%s' for output '%s': give it as %s=VALUE", dim->sym, p->name,
                 dim->sym);
        return -1;
    }
    return run->sizes[s].value;
}

static int run_create_output(Run *run, int i) {
    const IrParam *p = &run->kernel->params[i];
    const IrType *t = &p->value->type;
    int64_t shape[IR_MAX_RANK];
    char err[512];
    int rank = t->rank;
    for (int d = 0; d < t->rank; d++)
        if ((shape[d] = run_dim_value(run, p, &t->dims[d])) < 0)
            return RUN_EXIT_INPUT;
    if (p->strides) {
        /* a strided output is written as its memory: a flat .npy of the
           strides' reach, 1 + sum (dim - 1) stride */
        int64_t reach = 1;
        for (int d = 0; d < t->rank; d++) {
            int64_t st = run_dim_value(run, p, &p->strides[d]);
            if (st < 0)
                return RUN_EXIT_INPUT;
            if (shape[d] == 0 || reach == 0)
                reach = 0;
            else if (__builtin_mul_overflow(shape[d] - 1, st, &st) || __builtin_add_overflow(reach, st, &reach))
                return run_fail(RUN_EXIT_INPUT, "output '%s' reaches past 2^63 elements", p->name);
        }
        shape[0] = reach;
        rank = 1;
    }
    if (!npy_alloc(&run->arrays[i], run_npy_dtype(t->dtype), rank, shape, err, sizeof err))
        return run_fail(RUN_EXIT_INPUT, "output '%s': %s", p->name, err);
    run_poison(&run->arrays[i], t->dtype);
    return 0;
}

/* A number for a scalar parameter of `dtype`, rounded or range-checked. */
static bool run_parse_scalar(const char *text, DType dtype, InterpArg *arg) {
    char *end;
    errno = 0;
    if (dtype_is_float(dtype)) {
        double v = strtod(text, &end);
        if (end == text || *end != '\0')
            return false;
        arg->float_value = numeric_round(dtype, v);
        return true;
    }
    if (dtype == DT_BOOL) {
        if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
            arg->int_value = 1;
        else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
            arg->int_value = 0;
        else
            return false;
        return true;
    }
    if (dtype == DT_U64) {   /* its bits: one above INT64_MAX is negative as an int64 */
        if (text[0] == '-')
            return false;
        unsigned long long u = strtoull(text, &end, 0);
        if (end == text || *end != '\0' || errno)
            return false;
        arg->int_value = (int64_t)u;
        return true;
    }
    long long v = strtoll(text, &end, 0);
    if (end == text || *end != '\0' || errno)
        return false;
    if (numeric_wrap(dtype, v) != v)
        return false;
    arg->int_value = v;
    return true;
}

static bool run_is_size_word(const char *s) {
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (const char *p = s + 1; p < eq; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

/* Binds the command-line words to the kernel's parameters. */
static int run_bind(Run *run, const RunOptions *opt) {
    const IrKernel *k = run->kernel;
    int positional = 0, given = 0, next = 0;
    const char *expected = "";   /* the names, however long they are */
    for (int i = 0; i < run->n; i++)
        if (k->params[i].kind != PARAM_SIZE)
            expected = arena_printf(&run_arena, "%s%s%s", expected, positional++ ? ", " : "", k->params[i].name);
    for (int w = 0; w < opt->num_words; w++) {
        const char *word = opt->words[w];
        if (run_is_size_word(word)) {
            const char *eq = strchr(word, '=');
            const char *name = arena_printf(&run_arena, "%.*s", (int)(eq - word), word);
            int s = run_size_named(run, name);
            if (s < 0)
                return run_fail(RUN_EXIT_USAGE, "'%s': kernel '%s' has no size named '%s'", word, k->name,
                                name);
            char *end;
            errno = 0;
            long long v = strtoll(eq + 1, &end, 10);
            if (end == eq + 1 || *end != '\0' || errno || v < 0 || v > INT32_MAX)
                return run_fail(RUN_EXIT_USAGE, "'%s': a size is an integer from 0 to 2^31-1", word);
            if (run_bind_size(run, s, v, word))
                return RUN_EXIT_INPUT;
            continue;
        }
        given++;
        while (next < run->n && k->params[next].kind == PARAM_SIZE)
            next++;
        if (next < run->n)
            run->texts[next++] = word;
    }
    if (given != positional)
        return run_fail(RUN_EXIT_USAGE, "kernel '%s' takes %d arguments (%s) besides sizes, got %d", k->name,
                        positional, expected, given);
    int code = 0;
    for (int i = 0; i < run->n && !code; i++) {
        const IrParam *p = &k->params[i];
        const IrType *t = &p->value->type;
        if (p->kind == PARAM_ARRAY && t->access != ACCESS_OUT)
            code = run_read_input(run, i);
        else if (p->kind == PARAM_SCALAR && !run_parse_scalar(run->texts[i], t->dtype, &run->args[i]))
            code = run_fail(RUN_EXIT_INPUT, "'%s' is not a %s value for scalar '%s'", run->texts[i],
                            dtype_name(t->dtype), p->name);
    }
    for (int i = 0; i < run->n && !code; i++)
        if (k->params[i].kind == PARAM_ARRAY && k->params[i].value->type.access == ACCESS_OUT)
            code = run_create_output(run, i);
    for (int i = 0; i < run->n && !code; i++) {
        const IrParam *p = &k->params[i];
        if (p->kind == PARAM_SIZE) {
            if (!run->sizes[i].known)
                code = run_fail(RUN_EXIT_INPUT, "cannot infer size '%s': give it as %s=VALUE", p->name,
                                p->name);
            else if (run->sizes[i].value > INT32_MAX)
                code = run_fail(RUN_EXIT_INPUT, "size '%s' is %lld, more than an i32 holds", p->name,
                                (long long)run->sizes[i].value);
            else
                run->args[i].int_value = run->sizes[i].value;
        } else if (p->kind == PARAM_ARRAY) {
            run->args[i].data = run->arrays[i].data;
            run->args[i].count = (int64_t)run->arrays[i].count;
            for (int d = 0; d < run->arrays[i].rank && d < IR_MAX_RANK; d++)
                run->args[i].shape[d] = run->arrays[i].shape[d];
        }
    }
    return code;
}

/* ---- the run -------------------------------------------------------------------------- */

static bool run_cuda_device_present(void) {
    return access("/dev/nvidiactl", F_OK) == 0 || access("/dev/nvidia0", F_OK) == 0;
}

static int run_kernel(const RunOptions *opt, const IrKernel *kernel, const SourceFile *file, bool from_ir,
                      const char *source_name) {
    Run run = {.kernel = kernel, .n = kernel->num_params};
    run.texts = ARENA_ARRAY(&run_arena, const char *, run.n + 1);
    run.sizes = ARENA_ARRAY(&run_arena, RunSize, run.n + 1);
    run.arrays = ARENA_ARRAY(&run_arena, NpyArray, run.n + 1);
    run.args = ARENA_ARRAY(&run_arena, InterpArg, run.n + 1);
    int code = run_bind(&run, opt);
    if (!code) {
        struct timespec t0, t1;
        InterpError error;
        interp_set_max_programs(opt->max_programs);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        bool ok = interp_run_kernel(kernel, run.args, run.n, &error);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!ok) {
            if (error.loc.line > 0 && !from_ir) {
                diag_error(error.loc, "%s", error.message);
            } else if (error.loc.line > 0) {
                fprintf(stderr, "%s:%d:%d: error: %s\n", source_name, error.loc.line, error.loc.col,
                        error.message);
            } else {
                fprintf(stderr, "tessc run: error: %s\n", error.message);
            }
            code = RUN_EXIT_INPUT;
        } else if (opt->verbose) {
            int64_t grid[3] = {0, 0, 0};
            interp_grid(kernel, run.args, run.n, grid, &error);
            fprintf(stderr, "tessc run: kernel '%s', grid (%lld, %lld, %lld), interpreter: %.3f s\n",
                    kernel->name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
                    (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        }
    }
    for (int i = 0; i < run.n && !code; i++) {
        const IrParam *p = &kernel->params[i];
        if (p->kind != PARAM_ARRAY || p->value->type.access == ACCESS_IN)
            continue;
        char err[512];
        if (!npy_write(run.texts[i], &run.arrays[i], err, sizeof err))
            code = run_fail(RUN_EXIT_INPUT, "%s", err);
    }
    for (int i = 0; i < run.n; i++)
        npy_free(&run.arrays[i]);
    (void)file;
    return code;
}

/* ---- the GPU path ---------------------------------------------------------------- */

/* SIGINT, SIGTERM, SIGHUP on the GPU path: the handler passes the signal
   on to the child (the compiling tessc cleans up its own ptxas jobs) and
   notes it; run_on_gpu then removes its directory and dies of the signal.
   The child's pid is recorded with the signals blocked, so none is missed. */
static volatile sig_atomic_t run_signal;
static volatile pid_t run_child;

static void run_on_signal(int sig) {
    run_signal = sig;
    if (run_child > 0)
        kill(run_child, sig);
}

static void run_catch_signals(sigset_t *fatal) {
    sigemptyset(fatal);
    sigaddset(fatal, SIGINT);
    sigaddset(fatal, SIGTERM);
    sigaddset(fatal, SIGHUP);
    struct sigaction sa = {0};
    sa.sa_handler = run_on_signal;
    sa.sa_mask = *fatal;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

static void run_die_of_signal(void) {
    int sig = run_signal;
    signal(sig, SIG_DFL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(sig);
}

/* Runs argv[0] with argv and waits: its exit status, or -1 when it could not
   start or died from a signal. */
static int run_spawn(char **argv) {
    sigset_t fatal, saved;
    run_catch_signals(&fatal);
    sigprocmask(SIG_BLOCK, &fatal, &saved);
    if (run_signal) {
        sigprocmask(SIG_SETMASK, &saved, NULL);
        return -1;
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &saved);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int spawned = posix_spawn(&pid, argv[0], NULL, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    run_child = spawned == 0 ? pid : 0;
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (spawned != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            run_child = 0;
            return -1;
        }
    }
    run_child = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void run_remove_directory(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlink(arena_printf(&run_arena, "%s/%s", dir, e->d_name));
        closedir(d);
    }
    rmdir(dir);
}

/* On the GPU, `tessc run` is the build a user would do, then tessrun: this
   tessc compiles the kernel into a temporary directory (PTX and cubins for
   sm_80 and sm_90, so that every device from 8.0 up gets an exact cubin or
   a PTX to JIT), and the tessrun installed beside it binds the arguments,
   launches and writes the outputs. Both paths share one argument binder and
   one runtime. */
static int run_on_gpu(const RunOptions *opt) {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return run_fail(RUN_EXIT_INPUT, "cannot find the tessc executable (/proc/self/exe)");
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    const char *tessrun = arena_printf(&run_arena, "%.*s/tessrun", slash ? (int)(slash - self) : 1,
                                       slash ? self : ".");
    if (access(tessrun, X_OK) != 0)
        return run_fail(RUN_EXIT_INPUT, "--device gpu runs kernels with tessrun, which is not beside "
                        "tessc ('%s')", tessrun);
    sigset_t fatal;
    run_catch_signals(&fatal);   /* before the directory exists */
    const char *tmp = getenv("TMPDIR");
    char *dir = arena_printf(&run_arena, "%s/tessc-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return run_fail(RUN_EXIT_INPUT, "cannot create a temporary directory: %s", strerror(errno));

    const char *base = strrchr(opt->input, '/');
    base = base ? base + 1 : opt->input;
    const char *dot = strrchr(base, '.');
    const char *manifest = arena_printf(&run_arena, "%s/%.*s.manifest.json", dir,
                                        dot && dot != base ? (int)(dot - base) : (int)strlen(base), base);

    char **compile = ARENA_ARRAY(&run_arena, char *, 21 + 2 * opt->define_count);
    int c = 0;
    compile[c++] = self;
    compile[c++] = (char *)opt->input;
    compile[c++] = "--emit";
    compile[c++] = "ptx,cubin,manifest";
    compile[c++] = "--arch";
    compile[c++] = "sm_80,sm_90";
    compile[c++] = "-o";
    compile[c++] = dir;
    compile[c++] = arena_printf(&run_arena, "-O%d", opt->opt_level);
    if (opt->debug)
        compile[c++] = "-g";
    if (opt->rotate_dots)
        compile[c++] = "--overlap=rotate";
    if (opt->grid)
        compile[c++] = arena_printf(&run_arena, "--grid=%s", opt->grid);
    if (opt->grid_order)
        compile[c++] = arena_printf(&run_arena, "--grid-order=%s", opt->grid_order);
    if (opt->stationary)
        compile[c++] = arena_printf(&run_arena, "--stationary=%s", opt->stationary);
    if (opt->kernel) {
        compile[c++] = "-k";
        compile[c++] = (char *)opt->kernel;
    }
    for (int i = 0; i < opt->define_count; i++) {
        compile[c++] = "-D";
        compile[c++] = arena_printf(&run_arena, "%s=%s", opt->defines[i].name, opt->defines[i].value_text);
    }
    compile[c] = NULL;
    int code = run_spawn(compile);
    if (code == 0 && !run_signal) {
        char **launch = ARENA_ARRAY(&run_arena, char *, 9 + opt->num_words);
        int l = 0;
        launch[l++] = (char *)tessrun;
        launch[l++] = (char *)manifest;
        launch[l++] = "--device";
        launch[l++] = "gpu";
        if (opt->kernel) {
            launch[l++] = "-k";
            launch[l++] = (char *)opt->kernel;
        }
        if (opt->verbose)
            launch[l++] = "-v";
        launch[l++] = "--";   /* the ARGs may start with '-' (-inf) */
        for (int i = 0; i < opt->num_words; i++)
            launch[l++] = (char *)opt->words[i];
        launch[l] = NULL;
        code = run_spawn(launch);
        if (code < 0 && !run_signal)
            code = run_fail(RUN_EXIT_INPUT, "cannot run '%s'", tessrun);
    } else if (code < 0 && !run_signal) {
        code = run_fail(RUN_EXIT_INPUT, "cannot run '%s' to compile the kernel", self);
    }
    run_remove_directory(dir);
    if (run_signal)
        run_die_of_signal();
    return code;
}

int run_main(int argc, char **argv) {
    RunOptions opt = {0};
    int code = run_parse_args(&opt, argc, argv);
    if (code)
        return code;
    if (!opt.device) {
        if (run_cuda_device_present()) {
            opt.device = "gpu";
        } else {
            fputs("tessc run: no CUDA device; running on the interpreter\n", stderr);
            opt.device = "interp";
        }
    }
    if (strcmp(opt.device, "gpu") == 0) {
        code = run_on_gpu(&opt);
        arena_free(&run_arena);
        return code;
    }

    SourceFile file;
    if (!source_read(&run_arena, opt.input, &file))
        return RUN_EXIT_INPUT;
    diag_set_source(&file);
    IrModule *module = run_front_end(&opt, &file);
    if (!module)
        return diag_error_count() ? RUN_EXIT_INPUT : 3;

    const IrKernel *kernel = NULL;
    if (opt.kernel) {
        for (int i = 0; i < module->kernels.len; i++)
            if (strcmp(((IrKernel *)module->kernels.items[i])->name, opt.kernel) == 0)
                kernel = module->kernels.items[i];
        if (!kernel)
            code = run_fail(RUN_EXIT_USAGE, "no kernel named '%s' in '%s'", opt.kernel, opt.input);
    } else if (module->kernels.len == 1) {
        kernel = module->kernels.items[0];
    } else if (module->kernels.len == 0) {
        code = run_fail(RUN_EXIT_INPUT, "'%s' has no kernels", opt.input);
    } else {
        const char *names = "";
        for (int i = 0; i < module->kernels.len; i++)
            names = arena_printf(&run_arena, "%s%s%s", names, i ? ", " : "",
                                 ((IrKernel *)module->kernels.items[i])->name);
        code = run_fail(RUN_EXIT_USAGE, "'%s' has %d kernels (%s); choose one with -k NAME", opt.input,
                        module->kernels.len, names);
    }
    if (kernel)
        code = run_kernel(&opt, kernel, &file, front_is_tile_ir(opt.input),
                          module->source_name ? module->source_name : opt.input);
    for (int i = 0; i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
    arena_free(&run_arena);
    return code;
}
