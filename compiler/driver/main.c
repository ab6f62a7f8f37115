/*
 * main.c: the tessc driver.
 *
 * Reads the command line, then runs the pipeline in compile_into(): one
 * call a phase; the backend's phases per kernel and target are in
 * pipeline.c. Every artifact is produced in memory first and written only when the
 * whole run had no error, each to a temporary name in its directory that is
 * renamed into place, so a failed or killed compile never leaves a file that
 * a build could mistake for output.
 *
 * Build-system support (docs/build-integration.md): -MD/-MF write a make
 * depfile beside the outputs, --print-outputs names the outputs and writes
 * nothing, --check-golden/--update-golden compare the text artifacts with
 * a directory of expected files (golden.c) instead of writing them, and
 * --diagnostics-format=json|sarif makes diag.c print one document.
 *
 * Exit codes: 0 success, 1 errors in the input (or a golden difference),
 * 2 bad usage, 3 internal error.
 */
#include "codegen.h"
#include "driver.h"
#include "front.h"
#include "golden.h"
#include "ir.h"
#include "manifest.h"
#include "npy.h"
#include "pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* What --emit can ask for; the order is the order outputs are written. */
typedef enum EmitKind {
    EMIT_TOKENS, EMIT_AST, EMIT_IR, EMIT_IR_OPT,
    EMIT_LLVM, EMIT_PTX, EMIT_CUBIN, EMIT_MANIFEST,   /* the backend's (emit.c) */
    EMIT_HEADER, EMIT_SOURCE,                          /* C bindings (embed.c) */
    EMIT_COUNT
} EmitKind;

static const struct {
    const char *name;
    const char *suffix;   /* appended to the input's stem */
    const char *help;
    bool per_kernel;      /* one file per kernel (and arch), named by the backend */
} emit_kinds[EMIT_COUNT] = {
    [EMIT_TOKENS] = {"tokens", ".tokens", "the token stream, one token a line", false},
    [EMIT_AST] = {"ast", ".ast", "the syntax tree", false},
    [EMIT_IR] = {"ir", ".tir", "tile IR as lowered, before passes", false},
    [EMIT_IR_OPT] = {"ir-opt", ".opt.tir", "tile IR after the pass pipeline", false},
    [EMIT_LLVM] = {"llvm", ".KERNEL.ll", "LLVM IR after O3 for the first --arch", true},
    [EMIT_PTX] = {"ptx", ".KERNEL.ARCH.ptx", "PTX per kernel and arch", true},
    [EMIT_CUBIN] = {"cubin", ".KERNEL.ARCH.cubin", "ptxas's cubin per kernel and arch", true},
    [EMIT_MANIFEST] = {"manifest", ".manifest.json", "the launch manifest (docs/manifest.md)", true},
    [EMIT_HEADER] = {"header", ".h", "C header: a typed launch function per kernel", false},
    [EMIT_SOURCE] = {"source", ".c", "C source: PTX, cubins, manifest embedded; the functions", false},
};

/* What --check-golden and --update-golden compare when --emit is not given. */
static const char golden_default_emit[] = "ir,ir-opt,llvm,ptx,manifest";

/* --stationary (stationary_in_shared) */
typedef enum Stationary { STATIONARY_AUTO, STATIONARY_REGISTERS, STATIONARY_SHARED } Stationary;
typedef enum GridOrder { ORDER_AUTO, ORDER_LAUNCH, ORDER_HEAVY_FIRST } GridOrder;
typedef enum GridMode { GRID_AUTO, GRID_PER_TILE, GRID_PERSISTENT, GRID_PERSISTENT_HANDOFF } GridMode;

typedef struct Options {
    const char *input;
    const char *output_dir;      /* NULL: current directory; "-": stdout */
    bool emit[EMIT_COUNT];
    int emit_count;
    PtrVec kernels;              /* const char* from -k */
    Define defines[64];
    int define_count;
    const ArchInfo *archs[8];
    int arch_count;
    int opt_level;
    const char *dump_after;
    HopperSchedule hopper_schedule;  /* --hopper-schedule */
    GridOrder grid_order;            /* --grid-order (the backend's grid_heavy_first, PassOptions.heavy_first) */
    GridMode grid;                   /* --grid (PassOptions.persistent, .handoff) */
    Stationary stationary;           /* --stationary (PassOptions.stationary_shared) */
    bool rotate_dots;                /* --overlap=rotate (PassOptions.rotate_dots) */
    TmaStoreMode tma_store;          /* --tma-store (CodegenOptions.tma_store) */
    bool emit_given;             /* --emit was on the command line */
    bool depfile_wanted;         /* -MD or -MF */
    bool debug;                  /* -g: print and assert kept */
    const char *depfile;         /* -MF FILE; NULL: DIR/STEM.d */
    bool print_outputs;
    const char *golden_dir;      /* --check-golden DIR or --update-golden DIR */
    bool update_golden;
    PtrVec ptxas_args;           /* const char* from -Xptxas, in order */
    bool debug_error_in_ptxas;   /* hidden --debug-internal-error=ptxas: an internal
                                    error while ptxas jobs run (their cleanup's test) */
} Options;

static Arena driver_arena;

static void usage(FILE *out) {
    fprintf(out,
            "usage: tessc [options] FILE.tess|FILE.tir\n"
            "\n"
            "Compiles the kernels of a .tess file (or reads tile IR from a .tir file).\n"
            "\n"
            "options:\n"
            "  -o DIR            write outputs into DIR (default: the current directory);\n"
            "                    '-o -' writes the one requested text artifact to stdout\n"
            "  --emit LIST       comma-separated outputs to produce (default: ptx,cubin,manifest):\n");
    for (int i = 0; i < EMIT_COUNT; i++)
        fprintf(out, "                      %-8s %s (FILE%s)\n", emit_kinds[i].name,
                emit_kinds[i].help, emit_kinds[i].suffix);
    fprintf(out,
            "  -k, --kernel NAME compile only kernel NAME (repeatable; default: all)\n"
            "  -D NAME=VALUE     set compile-time parameter NAME of the kernels that have it\n"
            "  -Xptxas LIST      pass comma-separated options to ptxas, after tessc's own\n"
            "                    (e.g. -Xptxas --Ofast-compile=mid); repeatable\n"
            "  --arch LIST       target architectures, comma-separated (default: sm_90):\n"
            "                    %s; the shared-memory limit checked is\n"
            "                    the smallest of them\n"
            "  -O0 .. -O3        optimization level (default -O2; -O0 runs no IR pass)\n"
            "  -g                keep print() and assert() (docs/language.md 9.14); without it\n"
            "                    they are checked and compiled to nothing\n"
            "  --dump-after=PASS print the tile IR to stderr after PASS (%s),\n"
            "                    or the backend's plan or LLVM IR after a backend phase\n"
            "                    (%s; llvm and opt for the first arch)\n"
            "  --hopper-schedule=auto|lockstep|release|pingpong|producer|producer-pingpong\n"
            "                    how the warpgroups of an sm_90a TMA entry share a loop's\n"
            "                    ring (docs/codegen.md, \"Warpgroup schedules\"): a block\n"
            "                    barrier a trip (lockstep), releases counted per warp\n"
            "                    (release), or releases and two warpgroups taking turns\n"
            "                    at their wgmma dots (pingpong: experimental), or a\n"
            "                    producer warpgroup of its own issuing the copies\n"
            "                    (producer: warp specialization), and with two consumer\n"
            "                    warpgroups pingpong's turns between them\n"
            "                    (producer-pingpong: experimental); auto, the default:\n"
            "                    producer for a loop of two wgmma dots (attention) with\n"
            "                    two consumer warpgroups, lockstep elsewhere\n"
            "  --grid=auto|per-tile|persistent|persistent-handoff\n"
            "                    persistent: launch as many blocks as the device holds at\n"
            "                    once, each looping over the grid's tiles (the persist\n"
            "                    pass); per-tile: a block a tile; auto (default):\n"
            "                    persistent for kernels with a loop of two dots (flash\n"
            "                    attention) when every --arch is sm_90a (a causal one\n"
            "                    only at heavy-first), else per-tile;\n"
            "                    persistent-handoff (experimental):\n"
            "                    persistent, each tile's first ring copies issued in the\n"
            "                    tile before (the handoff pass)\n"
            "  --grid-order=auto|launch|heavy-first\n"
            "                    heavy-first: where a loop with a dot runs more trips the\n"
            "                    higher program_id(0) is (causal attention), run program\n"
            "                    id 0 backwards so the heaviest blocks start first (a\n"
            "                    persistent grid: the heaviest tiles, dealt out so that\n"
            "                    every block gets as much work); launch: %%ctaid order;\n"
            "                    auto (default): heavy-first for a persistent grid,\n"
            "                    launch for a block a tile\n"
            "  --stationary=auto|registers|shared\n"
            "                    where a pipelined loop's tensor-core dot keeps its\n"
            "                    loop-invariant A (flash attention's q): registers unless\n"
            "                    it would take more than 32 a thread (registers), or\n"
            "                    shared memory always, read by descriptor on sm_90a's\n"
            "                    wgmma (shared); auto: shared when every --arch is\n"
            "                    sm_90a, else registers\n"
            "  --tma-store=auto|off|on\n"
            "                    auto (default): an sm_90a TMA entry's epilogue store\n"
            "                    at the kernel's top level (a 16-bit tile that would go\n"
            "                    through shared memory) goes out as TMA bulk tensor\n"
            "                    stores; on: a persistent tile loop's too; off:\n"
            "                    st.global (docs/codegen.md, \"TMA stores\")\n"
            "  --overlap=off|rotate\n"
            "                    rotate (experimental): a loop of two dots, the second\n"
            "                    adding into a carried accumulator (flash attention's),\n"
            "                    issues the second a trip later, beside the next trip's\n"
            "                    first, so that on sm_90a the softmax runs while the\n"
            "                    tensor cores do (FlashAttention-3's in-warpgroup order)\n"
            "\n"
            "build integration (docs/build-integration.md):\n"
            "  -MD               also write a make depfile, DIR/FILE.d, naming the outputs\n"
            "                    and the inputs they depend on\n"
            "  -MF FILE          write the depfile to FILE (implies -MD)\n"
            "  --print-outputs   print the path of every file the command would write,\n"
            "                    one a line, and write nothing\n"
            "  --check-golden DIR  compare each text artifact (default --emit %s)\n"
            "                    with DIR/NAME after normalising tool-version lines;\n"
            "                    print a unified diff and exit 1 on a difference\n"
            "  --update-golden DIR write those artifacts into DIR as the new golden files\n"
            "  --diagnostics-format=FORMAT\n"
            "                    text (default), json or sarif (SARIF 2.1.0): print the\n"
            "                    diagnostics, with stable codes, as one document on stderr\n"
            "  --time-report     print the wall time of each compiler phase (parsing,\n"
            "                    tile IR passes, LLVM, ptxas, writing) to stderr\n"
            "  --version         print the version and exit\n"
            "  --help            print this help and exit\n"
            "\n"
            "exit status: 0 success, 1 errors in the input (or a golden difference),\n"
            "2 bad usage, 3 internal error\n",
            arch_names_joined(), passes_names(), codegen_phase_names(), golden_default_emit);
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_error_plain_v(fmt, ap);
    va_end(ap);
    if (diag_format() == DIAG_TEXT)
        fputs("try 'tessc --help'\n", stderr);
    exit(EXIT_USAGE);   /* diag_finish runs at exit */
}

static const char *emit_names_joined(void) {
    static char names[256];
    if (!names[0])
        for (int i = 0; i < EMIT_COUNT; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", emit_kinds[i].name);
    return names;
}

static void parse_emit_list(Options *opt, const char *list) {
    memset(opt->emit, 0, sizeof opt->emit);
    opt->emit_count = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        int found = -1;
        for (int i = 0; i < EMIT_COUNT; i++)
            if (strlen(emit_kinds[i].name) == n && strncmp(emit_kinds[i].name, p, n) == 0)
                found = i;
        if (found < 0)
            usage_error("unknown --emit kind '%.*s' (known: %s)", (int)n, p, emit_names_joined());
        if (!opt->emit[found])
            opt->emit_count++;
        opt->emit[found] = true;
        if (!comma)
            break;
        p = comma + 1;
    }
}

static void parse_arch_list(Options *opt, const char *list) {
    opt->arch_count = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[32];
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, p, n);
        name[n] = '\0';
        const ArchInfo *arch = arch_lookup(name);
        if (!arch)
            usage_error("unknown architecture '%s' (known: %s)", name, arch_names_joined());
        bool seen = false;
        for (int i = 0; i < opt->arch_count; i++)
            seen |= opt->archs[i] == arch;
        if (!seen) {
            if (opt->arch_count == (int)(sizeof opt->archs / sizeof opt->archs[0]))
                usage_error("too many architectures in --arch");
            opt->archs[opt->arch_count++] = arch;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
}

static void add_define(Options *opt, const char *text) {
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        usage_error("-D expects NAME=VALUE, got '%s'", text);
    if (opt->define_count == (int)(sizeof opt->defines / sizeof opt->defines[0]))
        usage_error("too many -D options");
    const char *name = intern(text, (size_t)(eq - text));
    /* Two values for one name: neither the first nor the last is an obvious
       choice (make's last wins, a shell script's may not), so it is bad usage. */
    for (int i = 0; i < opt->define_count; i++)
        if (opt->defines[i].name == name)
            usage_error("-D %s given twice", name);
    Define *d = &opt->defines[opt->define_count++];
    d->name = name;
    d->value_text = eq + 1;
    d->used = false;
}

/* The index of VALUE among NAMES (NULL-terminated), for an option whose
   value names one of a fixed set; the names are in the order of the enum
   the index is cast to. Anything else is a usage error listing them. */
static int option_choice(const char *option, const char *value, const char *const names[]) {
    for (int i = 0; names[i]; i++)
        if (strcmp(value, names[i]) == 0)
            return i;
    char known[256] = "";
    for (int i = 0; names[i]; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", names[i]);
    usage_error("unknown %s '%s' (known: %s)", option, value, known);
}

static const char *const diag_format_names[] = {[DIAG_TEXT] = "text", [DIAG_JSON] = "json", [DIAG_SARIF] = "sarif", NULL};
static const char *const schedule_names[] = {
    [SCHEDULE_AUTO] = "auto", [SCHEDULE_LOCKSTEP] = "lockstep", [SCHEDULE_RELEASE] = "release",
    [SCHEDULE_PINGPONG] = "pingpong", [SCHEDULE_PRODUCER] = "producer",
    [SCHEDULE_PRODUCER_PINGPONG] = "producer-pingpong", NULL};
static const char *const grid_order_names[] = {
    [ORDER_AUTO] = "auto", [ORDER_LAUNCH] = "launch", [ORDER_HEAVY_FIRST] = "heavy-first", NULL};
static const char *const grid_names[] = {
    [GRID_AUTO] = "auto", [GRID_PER_TILE] = "per-tile", [GRID_PERSISTENT] = "persistent",
    [GRID_PERSISTENT_HANDOFF] = "persistent-handoff", NULL};
static const char *const stationary_names[] = {
    [STATIONARY_AUTO] = "auto", [STATIONARY_REGISTERS] = "registers", [STATIONARY_SHARED] = "shared", NULL};
static const char *const overlap_names[] = {"off", "rotate", NULL};                     /* rotate_dots */
static const char *const tma_store_names[] = {[TMA_STORE_AUTO] = "auto", [TMA_STORE_OFF] = "off", [TMA_STORE_ON] = "on", NULL};

/* An option's value (driver_option_value); a missing one is a usage error. */
static const char *option_value(int argc, char **argv, int *i, const char *arg, size_t prefix) {
    const char *value = driver_option_value(argc, argv, i, arg, prefix);
    if (!value)
        usage_error("option '%s' needs a value", arg);
    return value;
}

/* --diagnostics-format is looked at before anything else, so that the
   errors of the command line itself come out in the format asked for. */
static void parse_diagnostics_format(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--diagnostics-format", 20) != 0 || (argv[i][20] != '\0' && argv[i][20] != '='))
            continue;
        const char *value = argv[i][20] == '=' ? argv[i] + 21 : i + 1 < argc ? argv[i + 1] : "";
        diag_set_format((DiagFormat)option_choice("--diagnostics-format", value, diag_format_names));
    }
}

/* -Xptxas LIST: comma-separated options appended to every ptxas command.
   The ones tessc sets itself (the arch, the output, the input) are refused:
   a second value would silently win or name a file tessc never reads. */
static void add_ptxas_options(Options *opt, const char *list) {
    static const char *const reserved[] = {"-arch", "--gpu-name", "-o", "--output-file", "-h", "--help",
                                           "--version", "-V", "--options-file", "-optf"};
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == 0)
            usage_error("-Xptxas: empty option in '%s'", list);
        const char *arg = arena_strndup(&driver_arena, p, n);
        if (arg[0] != '-')
            usage_error("-Xptxas: '%s' is not an option (write an option's value as --name=value)", arg);
        for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
            size_t m = strlen(reserved[i]);
            if (strncmp(arg, reserved[i], m) == 0 && (arg[m] == '\0' || arg[m] == '='))
                usage_error("-Xptxas: tessc sets '%s' itself (use --arch and -o)", reserved[i]);
        }
        ptrvec_push(&driver_arena, &opt->ptxas_args, (void *)arg);
        if (!comma)
            break;
        p = comma + 1;
    }
}

static bool option_is(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static void parse_args(Options *opt, int argc, char **argv) {
    parse_diagnostics_format(argc, argv);
    parse_emit_list(opt, "ptx,cubin,manifest");
    opt->opt_level = 2;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (option_is(arg, "--diagnostics-format")) {
            option_value(argc, argv, &i, arg, 20);   /* taken by parse_diagnostics_format */
        } else if (strcmp(arg, "-g") == 0) {
            opt->debug = true;
        } else if (strcmp(arg, "-MD") == 0) {
            opt->depfile_wanted = true;
        } else if (strncmp(arg, "-MF", 3) == 0) {
            opt->depfile_wanted = true;
            opt->depfile = option_value(argc, argv, &i, arg, 3);
        } else if (strcmp(arg, "--debug-internal-error=ptxas") == 0) {
            opt->debug_error_in_ptxas = true;
        } else if (strcmp(arg, "--time-report") == 0) {
            timing_enable();
        } else if (strcmp(arg, "--print-outputs") == 0) {
            opt->print_outputs = true;
        } else if (option_is(arg, "--check-golden") || option_is(arg, "--update-golden")) {
            bool update = arg[2] == 'u';
            if (opt->golden_dir && update != opt->update_golden)
                usage_error("--check-golden and --update-golden cannot be used together");
            opt->update_golden = update;
            opt->golden_dir = option_value(argc, argv, &i, arg, update ? 15 : 14);
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--version") == 0) {
            printf("tessc %s\n", TESSC_VERSION);
            exit(0);
        } else if (strncmp(arg, "-o", 2) == 0 && (arg[2] == '\0' || arg[1] != '-')) {
            opt->output_dir = option_value(argc, argv, &i, arg, 2);
        } else if (strncmp(arg, "--emit", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            parse_emit_list(opt, option_value(argc, argv, &i, arg, 6));
            opt->emit_given = true;
        } else if (strcmp(arg, "-k") == 0 || strncmp(arg, "--kernel", 8) == 0) {
            size_t prefix = arg[1] == 'k' ? 2 : 8;
            if (prefix == 8 && arg[8] != '\0' && arg[8] != '=')
                usage_error("unknown option '%s'", arg);
            ptrvec_push(&driver_arena, &opt->kernels,
                        (void *)intern_cstr(option_value(argc, argv, &i, arg, prefix)));
        } else if (option_is(arg, "-Xptxas")) {
            add_ptxas_options(opt, option_value(argc, argv, &i, arg, 7));
        } else if (strncmp(arg, "-D", 2) == 0) {
            add_define(opt, option_value(argc, argv, &i, arg, 2));
        } else if (strncmp(arg, "--arch", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            parse_arch_list(opt, option_value(argc, argv, &i, arg, 6));
        } else if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) {
            opt->opt_level = arg[2] - '0';
        } else if (strncmp(arg, "--dump-after", 12) == 0 && (arg[12] == '\0' || arg[12] == '=')) {
            opt->dump_after = option_value(argc, argv, &i, arg, 12);
            if (!passes_known(opt->dump_after) && !codegen_phase_known(opt->dump_after))
                usage_error("unknown pass '%s' for --dump-after (known: %s)", opt->dump_after,
                            arena_printf(&driver_arena, "%s; backend: %s", passes_names(), codegen_phase_names()));
        } else if (option_is(arg, "--hopper-schedule")) {
            opt->hopper_schedule =
                (HopperSchedule)option_choice("--hopper-schedule", option_value(argc, argv, &i, arg, 17), schedule_names);
        } else if (option_is(arg, "--grid")) {
            opt->grid = (GridMode)option_choice("--grid", option_value(argc, argv, &i, arg, 6), grid_names);
        } else if (option_is(arg, "--grid-order")) {
            opt->grid_order =
                (GridOrder)option_choice("--grid-order", option_value(argc, argv, &i, arg, 12), grid_order_names);
        } else if (option_is(arg, "--stationary")) {
            opt->stationary = (Stationary)option_choice("--stationary", option_value(argc, argv, &i, arg, 12), stationary_names);
        } else if (option_is(arg, "--tma-store")) {
            opt->tma_store = (TmaStoreMode)option_choice("--tma-store", option_value(argc, argv, &i, arg, 11), tma_store_names);
        } else if (option_is(arg, "--overlap")) {
            opt->rotate_dots = option_choice("--overlap", option_value(argc, argv, &i, arg, 9), overlap_names);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            usage_error("unknown option '%s'", arg);
        } else {
            if (opt->input)
                usage_error("more than one input file ('%s' and '%s')", opt->input, arg);
            opt->input = arg;
        }
    }
    if (!opt->input)
        usage_error("no input file");
    if (opt->golden_dir && !opt->emit_given)
        parse_emit_list(opt, golden_default_emit);
    if (opt->golden_dir && opt->output_dir)
        usage_error("-o cannot be used with %s", opt->update_golden ? "--update-golden" : "--check-golden");
    if (opt->golden_dir && opt->depfile_wanted)
        usage_error("-MD and -MF cannot be used with %s", opt->update_golden ? "--update-golden" : "--check-golden");
    if (opt->depfile_wanted && !opt->depfile && opt->output_dir && strcmp(opt->output_dir, "-") == 0)
        usage_error("-MD writes FILE.d beside the outputs; with '-o -' name it with -MF FILE");
    if (opt->arch_count == 0)
        parse_arch_list(opt, "sm_90");
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && opt->emit_count != 1)
        usage_error("'-o -' writes one artifact to stdout, but --emit asks for %d", opt->emit_count);
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && (opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST]))
        usage_error("'-o -' writes one text artifact; --emit %s needs a directory",
                    opt->emit[EMIT_CUBIN] ? "cubin" : "manifest");
}

/* ---- input ---------------------------------------------------------------- */

/* ---- output --------------------------------------------------------------- */

typedef struct Artifact {
    char *data;
    size_t size;
    FILE *stream;
} Artifact;

static FILE *artifact_open(Artifact *a) {
    a->stream = open_memstream(&a->data, &a->size);
    if (!a->stream)
        fatal_out_of_memory();   /* its only failure */
    return a->stream;
}

static const char *path_stem(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return arena_strndup(&driver_arena, base, n);
}

/* stdout, flushed and checked: a failed write (a full disk, /dev/full)
   is an error, not exit 0 with the output lost. */
static bool flush_stdout(void) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        diag_error_plain("cannot write to standard output: %s", strerror(errno ? errno : EIO));
        return false;
    }
    return true;
}

/* Outputs are written in two steps so that a failure leaves the earlier
   outputs as they were, all of them: every file goes to a temporary name in
   its directory first (a full disk fails here), and only when all are
   written are they renamed over the old ones, which cannot fail for want of
   space.

   Only regular files (and names not there yet) are replaced that way. A
   name that is a device, a FIFO or a socket (-MF /dev/null, a tessrun
   output of /dev/full) is not ours to replace: it is written in place, as
   every compiler writes `-o /dev/null`, after all temporary files are
   complete and before any rename, so that a failure there still replaces
   nothing. A symbolic link is followed: its target is what gets replaced,
   and the link stays. A path through /proc (/dev/stdout is
   /proc/self/fd/1) names an open file, not a name to replace, and is
   written in place too. */
typedef struct StagedFile {
    const char *tmp;      /* NULL: written in place at commit */
    const char *path;     /* as the user named it */
    const char *target;   /* what a rename replaces: `path` with its links followed */
    const char *data;     /* in place: what to write */
    size_t size;
} StagedFile;

/* The temporary files of the write phase, for the signal handler: an entry
   is complete before the count covers it. */
static const StagedFile *volatile signal_staged;
static volatile sig_atomic_t signal_num_staged;

/* `path` with its symbolic links followed, in the driver's arena (the rules
   of npy_output_target, which tessrun's outputs follow too); NULL with errno
   for a link loop. */
static const char *output_target(const char *path, bool *in_place) {
    char *target = npy_output_target(path, in_place);
    if (!target) {
        if (errno == ENOMEM)
            fatal_out_of_memory();
        return NULL;
    }
    const char *copy = arena_strdup(&driver_arena, target);
    free(target);
    return copy;
}

/* Writes `a` to a temporary file beside dir/name (beside its link's
   target); *staged says where. A special file is only recorded: `a` must
   then live until commit_staged. */
static bool stage_artifact(const char *dir, const char *name, const Artifact *a, StagedFile *staged) {
    const char *path = arena_printf(&driver_arena, "%s/%s", dir, name);
    bool in_place;
    const char *target = output_target(path, &in_place);
    if (!target) {
        diag_error_plain("cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    if (in_place) {
        *staged = (StagedFile){NULL, path, target, a->data, a->size};
        return true;
    }
    const char *slash = strrchr(target, '/');
    const char *target_dir = slash ? arena_strndup(&driver_arena, target, (size_t)(slash - target)) : ".";
    if (slash == target)
        target_dir = "/";
    char *tmp = arena_printf(&driver_arena, "%s/.%s.tmp.XXXXXX", target_dir, slash ? slash + 1 : target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_error_plain("cannot create a file in '%s': %s", target_dir, strerror(errno));
        return false;
    }
    if (!npy_write_all(fd, a->data, a->size)) {
        diag_error_plain("cannot write '%s': %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return false;
    }
    if (fchmod(fd, 0644) != 0 || close(fd) != 0) {
        diag_error_plain("cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        return false;
    }
    *staged = (StagedFile){tmp, path, target, NULL, 0};
    return true;
}

static void unstage(const StagedFile *staged, int n) {
    for (int i = 0; i < n; i++)
        if (staged[i].tmp)
            unlink(staged[i].tmp);
}

/* A special file written where it is: opened without O_CREAT (it exists)
   and without O_TRUNC (a device or FIFO has nothing to truncate; a regular
   file reached through /proc does). */
static bool write_in_place(const StagedFile *f) {
    struct stat st;
    bool regular = stat(f->path, &st) == 0 && S_ISREG(st.st_mode);
    int fd = open(f->path, O_WRONLY | O_NOCTTY | (regular ? O_TRUNC : 0));
    if (fd < 0 || !npy_write_all(fd, f->data, f->size) || close(fd) != 0) {
        diag_error_plain("cannot write '%s': %s", f->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    return true;
}

static bool commit_staged(const StagedFile *staged, int n) {
    /* A rename that cannot succeed, found before any is made: a directory
       under an output's name. */
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (staged[i].tmp && lstat(staged[i].target, &st) == 0 && S_ISDIR(st.st_mode)) {
            diag_error_plain("cannot write '%s': %s", staged[i].path, strerror(EISDIR));
            unstage(staged, n);
            return false;
        }
    }
    for (int i = 0; i < n; i++) {
        if (!staged[i].tmp && !write_in_place(&staged[i])) {
            unstage(staged, n);
            return false;
        }
    }
    for (int i = 0; i < n; i++) {
        if (staged[i].tmp && rename(staged[i].tmp, staged[i].target) != 0) {
            diag_error_plain("cannot write '%s': %s", staged[i].path, strerror(errno));
            unstage(staged + i, n - i);
            return false;
        }
    }
    return true;
}

/* mkdir -p: build scripts name output folders that may not exist yet. */
static bool make_directories(const char *dir) {
    char *path = arena_strdup(&driver_arena, dir);
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        struct stat st;
        if (stat(path, &st) != 0 && mkdir(path, 0755) != 0 && errno != EEXIST) {
            diag_error_plain("cannot create directory '%s': %s", path, strerror(errno));
            return false;
        }
        if (saved == '\0')
            break;
        *p = saved;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        diag_error_plain("'%s' is not a directory", dir);
        return false;
    }
    return true;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* What the backend made: files named per kernel and arch, and the manifest's
   view of them. */
typedef struct BackendFile {
    const char *name;
    Artifact data;
} BackendFile;

typedef struct Backend {
    BackendFile *files;
    int num_files;
    CodegenKernel *kernels;
    ManifestKernel *manifest;        /* the artifacts written (--emit ptx, cubin) */
    ManifestKernel *embedded;        /* every PTX and cubin, for --emit header, source */
    int num_kernels;
    const SourceFile *source;
    const char *interp;              /* the .tir file the manifest names, or NULL */
    const char **interp_tir;         /* per kernel: its optimized IR, for the manifest */
    char *manifest_text;             /* --emit manifest; malloc'd */
} Backend;

/* One file a run writes, in the order it is written. */
typedef struct OutputFile {
    const char *name;                /* in the output directory */
    const char *data;
    size_t size;
    bool text;                       /* compared by --check-golden */
} OutputFile;

/* Every output of the run in writing order: per-file artifacts, then the
   per-kernel files, then the manifest (which names files that must already
   be in place). Returns the count; `list` has room for EMIT_COUNT + files. */
static int collect_outputs(const Options *opt, const Artifact *artifacts, const Backend *backend, OutputFile *list) {
    const char *stem = path_stem(opt->input);
    int n = 0;
    for (int i = 0; i < EMIT_COUNT; i++)
        if (opt->emit[i] && !emit_kinds[i].per_kernel)
            list[n++] = (OutputFile){arena_printf(&driver_arena, "%s%s", stem, emit_kinds[i].suffix),
                                     artifacts[i].data, artifacts[i].size, true};
    for (int i = 0; backend && i < backend->num_files; i++)
        list[n++] = (OutputFile){backend->files[i].name, backend->files[i].data.data, backend->files[i].data.size,
                                 !has_suffix(backend->files[i].name, ".cubin")};
    if (backend && backend->manifest_text)
        list[n++] = (OutputFile){arena_printf(&driver_arena, "%s%s", stem, emit_kinds[EMIT_MANIFEST].suffix),
                                 backend->manifest_text, strlen(backend->manifest_text), true};
    return n;
}

/* The path a build tool sees for an output: NAME, or DIR/NAME with -o DIR. */
static const char *output_path(const Options *opt, const char *name) {
    return opt->output_dir ? arena_printf(&driver_arena, "%s/%s", opt->output_dir, name) : name;
}

static const char *depfile_path(const Options *opt) {
    if (opt->depfile)
        return opt->depfile;
    return output_path(opt, arena_printf(&driver_arena, "%s.d", path_stem(opt->input)));
}

/* A path in a make rule: spaces, '#' and '$' escaped as make reads them. */
static void depfile_put_path(FILE *out, const char *path) {
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\\')
            fputc('\\', out);
        if (*p == '$')
            fputc('$', out);
        fputc(*p, out);
    }
}

/* -MD: "OUT1 OUT2 ...: INPUT", one rule naming every output and every file
   read (a .tess or .tir file has no includes: the input alone). */
static bool stage_depfile(const Options *opt, const OutputFile *outputs, int num_outputs, StagedFile *staged) {
    Artifact a = {0};
    FILE *out = artifact_open(&a);
    for (int i = 0; i < num_outputs; i++) {
        if (i)
            fputs(" \\\n ", out);
        depfile_put_path(out, output_path(opt, outputs[i].name));
    }
    fputs(":", out);
    fputc(' ', out);
    depfile_put_path(out, opt->input);
    fputc('\n', out);
    fclose(out);
    const char *path = depfile_path(opt);
    const char *slash = strrchr(path, '/');
    const char *dir = slash ? arena_strndup(&driver_arena, path, (size_t)(slash - path)) : ".";
    if (slash == path)
        dir = "/";
    /* a copy in the arena: a depfile written in place is written at commit */
    Artifact kept = {arena_strndup(&driver_arena, a.data, a.size), a.size, NULL};
    free(a.data);
    return make_directories(dir) && stage_artifact(dir, slash ? slash + 1 : path, &kept, staged);
}

static bool write_outputs(const Options *opt, Artifact *artifacts, const Backend *backend) {
    OutputFile *outputs = ARENA_ARRAY(&driver_arena, OutputFile, EMIT_COUNT + (backend ? backend->num_files : 0) + 1);
    int n = collect_outputs(opt, artifacts, backend, outputs);
    if (opt->golden_dir && !opt->update_golden) {
        GoldenFile *files = ARENA_ARRAY(&driver_arena, GoldenFile, n + 1);
        int num_files = 0;
        for (int i = 0; i < n; i++)
            if (outputs[i].text)
                files[num_files++] = (GoldenFile){outputs[i].name, outputs[i].data, outputs[i].size};
        int differences = 0;
        bool ok = golden_check(opt->golden_dir, files, num_files, stdout, &differences);
        fflush(stdout);
        if (ok && differences)
            fprintf(stderr, "tessc: %d of %d artifacts differ from the golden files in '%s' "
                            "(--update-golden %s rewrites them)\n",
                    differences, num_files, opt->golden_dir, opt->golden_dir);
        return ok && differences == 0;
    }
    StagedFile *staged = ARENA_ARRAY(&driver_arena, StagedFile, n + 2);
    int num_staged = 0;
    signal_staged = staged;
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0) {
        for (int i = 0; i < n; i++)
            fwrite(outputs[i].data, 1, outputs[i].size, stdout);
        if (!flush_stdout())
            return false;
        return !opt->depfile_wanted || (stage_depfile(opt, outputs, 0, &staged[0]) && commit_staged(staged, 1));
    }
    const char *dir = opt->golden_dir ? opt->golden_dir : opt->output_dir ? opt->output_dir : ".";
    if (!make_directories(dir))
        return false;
    for (int i = 0; i < n; i++) {
        if (opt->golden_dir && !outputs[i].text)
            continue;   /* --update-golden writes the text artifacts only */
        Artifact a = {(char *)outputs[i].data, outputs[i].size, NULL};
        if (!stage_artifact(dir, outputs[i].name, &a, &staged[num_staged])) {
            unstage(staged, num_staged);
            return false;
        }
        signal_num_staged = ++num_staged;
    }
    if (opt->depfile_wanted) {
        if (!stage_depfile(opt, outputs, n, &staged[num_staged])) {
            unstage(staged, num_staged);
            return false;
        }
        signal_num_staged = ++num_staged;
    }
    bool committed = commit_staged(staged, num_staged);
    signal_num_staged = 0;
    return committed;
}

/* ---- the backend ---------------------------------------------------------------- */

static bool backend_wanted(const Options *opt) {
    return opt->emit[EMIT_LLVM] || opt->emit[EMIT_PTX] || opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST] ||
           opt->emit[EMIT_HEADER] || opt->emit[EMIT_SOURCE];
}

static bool embed_wanted(const Options *opt) { return opt->emit[EMIT_HEADER] || opt->emit[EMIT_SOURCE]; }

static void backend_file(Backend *b, const char *name, const char *data, size_t size) {
    BackendFile *f = &b->files[b->num_files++];
    f->name = name;
    f->data.data = (char *)data;
    f->data.size = size;
}

static char *backend_manifest(const Options *opt, const Backend *b, const ManifestKernel *kernels) {
    ManifestInput input = {
        .source_name = opt->input,
        .source_bytes = b->source->text,
        .source_length = b->source->length,
        .kernels = kernels,
        .num_kernels = b->num_kernels,
    };
    char err[512];
    char *text = manifest_format(&input, err, sizeof err);
    if (!text && strcmp(err, "out of memory") == 0)
        fatal_out_of_memory();
    if (!text)
        fprintf(stderr, "tessc: internal error: the manifest of '%s': %s\n", opt->input, err);
    return text;
}

/* --emit header, source: the C bindings, with every PTX and cubin embedded
   under the names the manifest gives them. */
static bool backend_embed(const Options *opt, Backend *b, Artifact *artifacts) {
    char *manifest = backend_manifest(opt, b, b->embedded);
    if (!manifest)
        return false;
    int num_images = 0;
    for (int k = 0; k < b->num_kernels; k++)
        num_images += b->embedded[k].num_artifacts;
    EmbedImage *images = ARENA_ARRAY(&driver_arena, EmbedImage, num_images + 1);
    num_images = 0;
    for (int k = 0; k < b->num_kernels; k++) {
        const CodegenKernel *c = &b->kernels[k];
        for (int a = 0, i = 0; a < c->num_archs; a++) {
            const ManifestArtifact *ptx = &b->embedded[k].artifacts[i++];
            images[num_images++] = (EmbedImage){ptx->file, c->archs[a].ptx, c->archs[a].ptx_size};
            if (c->archs[a].cubin) {
                const ManifestArtifact *cubin = &b->embedded[k].artifacts[i++];
                images[num_images++] = (EmbedImage){cubin->file, c->archs[a].cubin, c->archs[a].cubin_size};
            }
        }
    }
    const char *base = strrchr(opt->input, '/');
    EmbedInput input = {
        .stem = path_stem(opt->input),
        .source_name = base ? base + 1 : opt->input,
        .kernels = b->kernels,
        .num_kernels = b->num_kernels,
        .manifest = manifest,
        .manifest_size = strlen(manifest),
        .images = images,
        .num_images = num_images,
    };
    if (opt->emit[EMIT_HEADER])
        embed_header(&input, artifact_open(&artifacts[EMIT_HEADER]));
    if (opt->emit[EMIT_SOURCE])
        embed_source(&input, artifact_open(&artifacts[EMIT_SOURCE]));
    free(manifest);
    return true;
}

/* `kernel` as a tile IR module of its own ("module "x.tess"", then the
   kernel), in the driver's arena. */
static const char *backend_kernel_tir(const IrModule *module, IrKernel *kernel) {
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        fatal_out_of_memory();
    IrModule one = {.source_name = module->source_name};
    ptrvec_push(&driver_arena, &one.kernels, kernel);
    ir_print_module(&one, out);
    if (fclose(out) != 0 || !text)
        fatal_out_of_memory();
    const char *copy = arena_strndup(&driver_arena, text, size);
    free(text);
    return copy;
}

/* The manifest record of an arch's TMA entry (CodegenArch.tma_entry), or NULL. */
static const ManifestTma *backend_tma(const IrKernel *kernel, const CodegenArch *arch) {
    if (!arch->tma_entry)
        return NULL;
    ManifestTmaMap *maps = ARENA_ARRAY(&driver_arena, ManifestTmaMap, arch->num_tma_maps + 1);
    for (int i = 0; i < arch->num_tma_maps; i++) {
        const TmaMap *m = &arch->tma_maps[i];
        maps[i] = (ManifestTmaMap){.param = kernel->params[m->param].name, .rank = m->rank,
                                   .swizzle_bytes = m->swizzle_bytes, .dtype = m->dtype,
                                   .row_warps = m->row_warps, .row_slabs = m->row_slabs, .store = m->store};
        memcpy(maps[i].box, m->box, sizeof m->box);
    }
    ManifestTma *t = ARENA_NEW(&driver_arena, ManifestTma);
    *t = (ManifestTma){.entry = arch->tma_entry, .shared_bytes = (long)arch->tma_shared_bytes,
                       .threads = arch->tma_threads != arch->threads ? arch->tma_threads : 0,
                       .min_registers = arch->tma_registers_needed,
                       .registers = arch->cubin ? arch->tma_registers : -1,
                       .spills = arch->cubin ? arch->tma_spills : -1, .maps = maps, .num_maps = arch->num_tma_maps};
    return t;
}

/* The files and manifest records of kernel k after its cubins: the PTX and
   cubin of every arch, each artifact with its own threads, shared bytes and
   (cubins) registers. */
static void backend_records(const Options *opt, Backend *b, IrKernel *kernel, int k) {
    const char *stem = path_stem(opt->input);
    CodegenKernel *c = &b->kernels[k];
    if (opt->emit[EMIT_LLVM])
        backend_file(b, arena_printf(&driver_arena, "%s.%s.ll", stem, kernel->name), c->llvm_ir, c->llvm_ir_size);
    ManifestArtifact *arts = ARENA_ARRAY(&driver_arena, ManifestArtifact, 2 * c->num_archs + 1);
    ManifestArtifact *all = ARENA_ARRAY(&driver_arena, ManifestArtifact, 2 * c->num_archs + 1);
    int num_arts = 0, num_all = 0;
    for (int a = 0; a < c->num_archs; a++) {
        CodegenArch *arch = &c->archs[a];
        const char *version = arena_printf(&driver_arena, "%d.%d", arch->ptx_version / 10, arch->ptx_version % 10);
        const char *ptx_name = arena_printf(&driver_arena, "%s.%s.%s.ptx", stem, kernel->name, arch->arch->name);
        const ManifestTma *tma = backend_tma(kernel, arch);
        ManifestArtifact ptx = {.arch = arch->arch->name, .kind = MANIFEST_PTX, .file = ptx_name,
                                .ptx_version = version, .threads = arch->threads, .registers = -1, .spills = -1,
                                .shared_bytes = (long)arch->shared_bytes, .tma = tma};
        all[num_all++] = ptx;
        if (opt->emit[EMIT_PTX]) {
            backend_file(b, ptx_name, arch->ptx, arch->ptx_size);
            arts[num_arts++] = ptx;
        }
        if (arch->cubin) {
            const char *name = arena_printf(&driver_arena, "%s.%s.%s.cubin", stem, kernel->name, arch->arch->name);
            ManifestArtifact cubin = {
                .arch = arch->arch->name, .kind = MANIFEST_CUBIN, .file = name, .ptx_version = version,
                .threads = arch->threads, .registers = arch->registers,
                .spills = arch->spill_stores + arch->spill_loads, .shared_bytes = (long)arch->shared_bytes,
                .tma = tma};
            all[num_all++] = cubin;
            if (opt->emit[EMIT_CUBIN]) {
                backend_file(b, name, arch->cubin, arch->cubin_size);
                arts[num_arts++] = cubin;
            }
        }
    }
    b->manifest[k] = (ManifestKernel){.kernel = kernel, .entry = c->entry, .artifacts = arts,
                                      .num_artifacts = num_arts, .interp = b->interp,
                                      .interp_tir = b->interp_tir[k]};
    b->embedded[k] = (ManifestKernel){.kernel = kernel, .entry = c->entry, .artifacts = all,
                                      .num_artifacts = num_all, .interp_tir = b->interp_tir[k]};
}

/* What the backend needs before the first kernel: its arrays, the check of
   the names the manifest will give, and each kernel's IR for the manifest.
   Returns an exit status. */
static int backend_start(const Options *opt, const SourceFile *source, IrModule *module, Backend *b) {
    int n = module->kernels.len;
    b->source = source;
    b->num_kernels = n;
    b->kernels = ARENA_ARRAY(&driver_arena, CodegenKernel, n + 1);
    b->manifest = ARENA_ARRAY(&driver_arena, ManifestKernel, n + 1);
    b->embedded = ARENA_ARRAY(&driver_arena, ManifestKernel, n + 1);
    b->files = ARENA_ARRAY(&driver_arena, BackendFile, n * (1 + 2 * opt->arch_count) + 1);
    const char *stem = path_stem(opt->input);
    /* The manifest names the artifacts after the input's stem, and the
       runtime opens them by those names; JSON text is UTF-8 and cannot
       hold other bytes, so such a name is refused rather than altered. */
    if (opt->emit[EMIT_MANIFEST] || embed_wanted(opt)) {
        for (const char *p = stem; *p; p += utf8_length(p)) {
            if (utf8_length(p) == 0) {
                diag_error_plain("the manifest names its files after '%s', which is not valid UTF-8; rename the input",
                                 stem);
                return EXIT_INPUT;
            }
        }
    }
    if ((opt->emit[EMIT_CUBIN] || embed_wanted(opt)) && !ptxas_find())
        diag_warning_plain("no ptxas found ($PTXAS, PATH, /usr/local/cuda/bin); cubins skipped");
    /* The manifest names the tile IR written beside it, so that the
       interpreter (tessrun --device interp, TESSRT_DEVICE=interp) can run
       the kernel: the optimized IR (what the PTX came from), else the
       lowered IR. Every kernel of the file is in that one .tir. */
    b->interp = opt->emit[EMIT_IR_OPT] ? arena_printf(&driver_arena, "%s%s", stem, emit_kinds[EMIT_IR_OPT].suffix)
                : opt->emit[EMIT_IR]   ? arena_printf(&driver_arena, "%s%s", stem, emit_kinds[EMIT_IR].suffix)
                                       : NULL;
    /* Every manifest also holds each kernel's optimized IR itself (as a
       module of that one kernel), so that the interpreter runs any manifest
       tessc writes, .tir files emitted or not. Printed before codegen, which
       must not be able to change what it says. */
    b->interp_tir = ARENA_ARRAY(&driver_arena, const char *, n + 1);
    for (int k = 0; k < n && (opt->emit[EMIT_MANIFEST] || embed_wanted(opt)); k++)
        b->interp_tir[k] = backend_kernel_tir(module, module->kernels.items[k]);
    return 0;
}

/* Every kernel through the backend for every --arch, then every kernel's
   cubins, then the files and the manifest: STEM.KERNEL.ll,
   STEM.KERNEL.ARCH.ptx, STEM.KERNEL.ARCH.cubin. Every kernel's LLVM comes
   first, with ptxas running behind it; then the cubins, in order. Returns
   an exit status. */
static int run_backend(const Options *opt, const SourceFile *source, IrModule *module, Backend *b,
                       Artifact *artifacts) {
    int status = backend_start(opt, source, module, b);
    if (status != 0)
        return status;
    const char *base = strrchr(opt->input, '/');
    CodegenOptions options = {
        .archs = opt->archs,
        .num_archs = opt->arch_count,
        .want_llvm = opt->emit[EMIT_LLVM],
        .want_ptx = true,
        .want_cubin = opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST] || embed_wanted(opt),
        .source_name = base ? base + 1 : opt->input,
        .ptxas_args = (const char *const *)opt->ptxas_args.items,
        .num_ptxas_args = opt->ptxas_args.len,
        .dump_after = opt->dump_after,
        .hopper_schedule = opt->hopper_schedule,
        .grid_heavy_first = opt->grid_order == ORDER_HEAVY_FIRST,
        .tma_store = opt->tma_store,
    };
    int n = module->kernels.len;
    for (int k = 0; k < n; k++)   /* per target: layout to ptxas started (pipeline.c) */
        if (!pipeline_kernel(module->kernels.items[k], &options, &b->kernels[k]))
            return diag_error_count() ? EXIT_INPUT : 3;
    if (opt->debug_error_in_ptxas)
        INTERNAL_ERROR("deliberate internal error while ptxas runs (--debug-internal-error=ptxas)");
    for (int k = 0; k < n; k++)   /* the cubins */
        if (!ptxas_collect(&b->kernels[k]))
            return diag_error_count() ? EXIT_INPUT : 3;
    for (int k = 0; k < n; k++)   /* the files and the manifest's records */
        backend_records(opt, b, module->kernels.items[k], k);
    if (opt->emit[EMIT_MANIFEST] && !(b->manifest_text = backend_manifest(opt, b, b->manifest)))
        return 3;
    if (embed_wanted(opt) && !backend_embed(opt, b, artifacts))
        return 3;
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && b->num_files + embed_wanted(opt) != 1) {
        diag_error_plain("'-o -' writes one artifact to stdout, but this run makes %d (one per kernel%s); use -k "
                         "and --arch to pick one",
                         b->num_files, opt->emit[EMIT_PTX] ? " and arch" : "");
        return EXIT_USAGE;
    }
    return 0;
}

static void backend_free(Backend *b) {
    for (int k = 0; k < b->num_kernels; k++)
        target_free_kernel(&b->kernels[k]);
    free(b->manifest_text);
    b->manifest_text = NULL;
}

/* ---- the pipeline ------------------------------------------------------------ */

/* -k NAME keeps only the named kernels (each name must exist) and frees
   the others. */
static bool select_kernels(const Options *opt, IrModule *module) {
    PtrVec *kernels = &module->kernels;
    bool ok = true;
    for (int i = 0; i < opt->kernels.len; i++) {
        const char *want = opt->kernels.items[i];
        bool found = false;
        for (int j = 0; j < kernels->len; j++)
            found |= ((IrKernel *)kernels->items[j])->name == want;
        if (!found) {
            diag_error_plain("no kernel named '%s' in '%s'", want, opt->input);
            ok = false;
        }
    }
    if (opt->kernels.len == 0)
        return ok;
    int kept = 0;
    for (int j = 0; j < kernels->len; j++) {
        IrKernel *kernel = kernels->items[j];
        bool wanted = false;
        for (int i = 0; i < opt->kernels.len; i++)
            wanted |= kernel->name == opt->kernels.items[i];
        if (wanted && ok)
            kernels->items[kept++] = kernel;
        else
            ir_kernel_free(kernel);
    }
    kernels->len = kept;
    return ok;
}

static int finish(const Options *opt, Artifact *artifacts, IrModule *module, Backend *backend);
static int print_outputs(const Options *opt, IrModule *module);

static bool per_kernel_outputs(const Options *opt) {
    return opt->emit[EMIT_LLVM] || opt->emit[EMIT_PTX] || opt->emit[EMIT_CUBIN];
}

/* --print-outputs: the paths compile() would write, in its order
   (collect_outputs), then the depfile. Per-kernel names need the kernels'
   names, so those runs read the input up to the tile IR; the others read
   nothing. Frees the module. */
static int print_outputs(const Options *opt, IrModule *module) {
    if (opt->golden_dir && !opt->update_golden)
        return 0;   /* a check writes nothing */
    const char *stem = path_stem(opt->input);
    Options where = *opt;
    if (opt->golden_dir)
        where.output_dir = opt->golden_dir;
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0) {
        puts("-");
    } else {
        for (int i = 0; i < EMIT_COUNT; i++)
            if (opt->emit[i] && !emit_kinds[i].per_kernel)
                puts(output_path(&where, arena_printf(&driver_arena, "%s%s", stem, emit_kinds[i].suffix)));
        bool cubins = opt->emit[EMIT_CUBIN] && ptxas_find() && !opt->golden_dir;
        for (int k = 0; module && k < module->kernels.len; k++) {
            const char *name = ((IrKernel *)module->kernels.items[k])->name;
            if (opt->emit[EMIT_LLVM])
                puts(output_path(&where, arena_printf(&driver_arena, "%s.%s.ll", stem, name)));
            for (int a = 0; a < opt->arch_count; a++) {
                if (opt->emit[EMIT_PTX])
                    puts(output_path(&where, arena_printf(&driver_arena, "%s.%s.%s.ptx", stem, name, opt->archs[a]->name)));
                if (cubins)
                    puts(output_path(&where, arena_printf(&driver_arena, "%s.%s.%s.cubin", stem, name, opt->archs[a]->name)));
            }
        }
        if (opt->emit[EMIT_MANIFEST])
            puts(output_path(&where, arena_printf(&driver_arena, "%s%s", stem, emit_kinds[EMIT_MANIFEST].suffix)));
    }
    if (opt->depfile_wanted)
        puts(depfile_path(opt));
    for (int i = 0; module && i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
    return flush_stdout() ? 0 : EXIT_INPUT;
}

/* Drops the in-memory artifacts; idempotent, so every path out of compile()
   can call it. */
static void artifacts_close(Artifact *artifacts) {
    for (int i = 0; i < EMIT_COUNT; i++) {
        if (artifacts[i].stream) {
            fclose(artifacts[i].stream);
            free(artifacts[i].data);
            artifacts[i] = (Artifact){0};
        }
    }
}

static int compile_into(const Options *opt, Artifact *artifacts);

/* Whether every --arch has fp8 tensor cores: then the pipeline pass gives
   fp8 dot operands rings (PassOptions.fp8_rings). */
static bool every_arch_has_fp8_mma(const Options *opt) {
    for (int i = 0; i < opt->arch_count; i++)
        if (!opt->archs[i]->mma_fp8)
            return false;
    return true;
}

/* Whether the pipeline pass stores every loop-invariant tensor-core A in
   shared memory (PassOptions.stationary_shared): at --stationary=shared,
   and at auto when every --arch has wgmma, which then reads it by
   descriptor as FlashAttention-3 reads q (docs/performance.md, session 34:
   1.01-1.03x at D 128 and 1.03-1.04x at D 64 BQ 64 BK 128 over q held in
   registers across the loop, where ptxas schedules the loop with 32 fewer
   free registers). An mma.sync target keeps q in registers up to 32 a
   thread (ldmatrix every trip otherwise, as FlashAttention-2 does past
   head dim 64). */
static bool stationary_in_shared(const Options *opt) {
    if (opt->stationary != STATIONARY_AUTO)
        return opt->stationary == STATIONARY_SHARED;
    for (int i = 0; i < opt->arch_count; i++)
        if (!opt->archs[i]->wgmma)
            return false;
    return opt->arch_count > 0;
}

/* Which kernels the persist pass makes persistent (PassOptions.persistent):
   at --grid=auto, flash attention's (a loop of two dots) when every --arch
   has wgmma (on the H100, session 36: 1.03x at (4,4096,16,128), 1.065x
   at (4,1024,8,64), causal 1.03-1.13x at heavy-first; matmul 0.90x at
   1024^3, 0.98x at 8192^3, so not a one-dot loop; docs/performance.md),
   none otherwise (an mma.sync target's is not measured). */
static PersistMode persist_mode(const Options *opt) {
    switch (opt->grid) {
    case GRID_PER_TILE: return PERSIST_NONE;
    case GRID_PERSISTENT:
    case GRID_PERSISTENT_HANDOFF: return PERSIST_ALL;
    case GRID_AUTO: break;
    }
    for (int i = 0; i < opt->arch_count; i++)
        if (!opt->archs[i]->wgmma)
            return PERSIST_NONE;
    return opt->arch_count > 0 ? PERSIST_TWO_DOT_LOOPS : PERSIST_NONE;
}

/* The shared memory a block may have on every --arch (PassOptions.shared_budget). */
static int64_t smallest_shared(const Options *opt) {
    int64_t bytes = 0;
    for (int i = 0; i < opt->arch_count; i++)
        if (bytes == 0 || opt->archs[i]->shared_bytes_max < bytes)
            bytes = opt->archs[i]->shared_bytes_max;
    return bytes;
}

/* The tile passes (passes.c) at -O, with --dump-after; false after an
   internal error (IR that does not verify). */
static bool run_tile_passes(const Options *opt, IrModule *module) {
    PassOptions passes = {
        .opt_level = opt->opt_level,
        .dump_after = opt->dump_after,
        .dump_out = stderr,
        .fp8_rings = every_arch_has_fp8_mma(opt),
        .stationary_shared = stationary_in_shared(opt),
        .rotate_dots = opt->rotate_dots,
        .persistent = persist_mode(opt),
        .handoff = opt->grid == GRID_PERSISTENT_HANDOFF,
        .heavy_first = opt->grid_order != ORDER_LAUNCH,
        .shared_budget = smallest_shared(opt),
#ifdef NDEBUG
        .verify = false,
#else
        .verify = true,
#endif
    };
    double t = timing_begin();
    if (!passes_run(module, &passes))
        return false;
    timing_end("tile IR passes", t);
    return true;
}

static int compile(const Options *opt) {
    Artifact artifacts[EMIT_COUNT] = {0};
    int status = compile_into(opt, artifacts);
    artifacts_close(artifacts);   /* the early returns of compile_into leave some open */
    return status;
}

/* The pipeline: the input read, the front end (parse, sema, lower to tile
   IR; or a .tir file parsed and verified), -k, the tile passes, then the
   backend (run_backend: per kernel and target, layout assignment,
   conversions, shared allocation, barriers, LLVM lowering, optimization,
   PTX and ptxas, in pipeline.c; the cubins; the manifest), and the outputs
   written (finish). Each --emit artifact is taken where it exists. */
static int compile_into(const Options *opt, Artifact *artifacts) {
    if (opt->print_outputs && !per_kernel_outputs(opt))
        return print_outputs(opt, NULL);
    SourceFile file;
    double t = timing_begin();
    if (!source_read(&driver_arena, opt->input, &file))
        return EXIT_INPUT;
    timing_end("read input", t);
    diag_set_source(&file);
    if (front_is_tile_ir(opt->input) && (opt->emit[EMIT_TOKENS] || opt->emit[EMIT_AST])) {
        diag_error_plain("--emit tokens and ast need a .tess input");
        return EXIT_USAGE;
    }

    /* Tokens and the syntax tree need only the parser: asking for them alone
       stops there, so they can be looked at for programs sema rejects. */
    bool syntax_only = true;
    for (int i = EMIT_AST + 1; i < EMIT_COUNT; i++)
        syntax_only &= !opt->emit[i];
    FrontOptions front = {
        .defines = (Define *)opt->defines,
        .define_count = opt->define_count,
        .archs = (const ArchInfo **)opt->archs,
        .arch_count = opt->arch_count,
        .tokens = opt->emit[EMIT_TOKENS] ? artifact_open(&artifacts[EMIT_TOKENS]) : NULL,
        .ast = opt->emit[EMIT_AST] ? artifact_open(&artifacts[EMIT_AST]) : NULL,
        .syntax_only = syntax_only,
        .debug = opt->debug,
    };
    IrModule *module = NULL;
    if (!front_compile(&driver_arena, &file, &front, &module))
        return EXIT_INPUT;
    if (!module)   /* syntax only */
        return finish(opt, artifacts, NULL, NULL);
    if (!select_kernels(opt, module))
        return EXIT_INPUT;
    if (opt->print_outputs)
        return print_outputs(opt, module);
    if (opt->emit[EMIT_IR])
        ir_print_module(module, artifact_open(&artifacts[EMIT_IR]));

    if (!run_tile_passes(opt, module))
        return 3;
    if (opt->emit[EMIT_IR_OPT])
        ir_print_module(module, artifact_open(&artifacts[EMIT_IR_OPT]));

    if (!backend_wanted(opt))
        return finish(opt, artifacts, module, NULL);
    Backend backend = {0};
    int status = run_backend(opt, &file, module, &backend, artifacts);
    if (status != 0) {
        backend_free(&backend);
        for (int i = 0; i < module->kernels.len; i++)
            ir_kernel_free(module->kernels.items[i]);
        return status;
    }
    return finish(opt, artifacts, module, &backend);
}

/* Writes the buffered artifacts and releases what the run holds. */
static int finish(const Options *opt, Artifact *artifacts, IrModule *module, Backend *backend) {
    for (int i = 0; i < EMIT_COUNT; i++)
        if (artifacts[i].stream && fflush(artifacts[i].stream) != 0)
            fatal_out_of_memory();   /* a memory stream fails only for want of memory */
    double t = timing_begin();
    bool written = write_outputs(opt, artifacts, backend);
    timing_end("write outputs", t);
    if (backend)
        backend_free(backend);
    artifacts_close(artifacts);
    for (int i = 0; module && i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
    return written ? 0 : EXIT_INPUT;
}



/* SIGINT, SIGTERM, SIGHUP: no ptxas left running, no temporary directory
   or file left behind, then death by the same signal, as the parent
   (make, a shell) expects. Async-signal-safe calls only. */
static void on_fatal_signal(int sig) {
    ptxas_stop_all_on_signal();
    for (int i = 0; i < signal_num_staged; i++)
        if (signal_staged[i].tmp)
            unlink(signal_staged[i].tmp);
    signal(sig, SIG_DFL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(sig);
    _exit(128 + sig);   /* not reached */
}

static void catch_fatal_signals(void) {
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {0};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaddset(&sa.sa_mask, signals[i]);   /* one handler at a time */
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        /* one ignored by the parent (nohup, a background job) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

int main(int argc, char **argv) {
    /* A full disk or `ulimit -f` fails a write (EFBIG, temp file removed) instead of killing tessc. */
    signal(SIGXFSZ, SIG_IGN);
    /* An ignored SIGCHLD inherited from the parent would make waitpid lose
       ptxas's exit status (and report good PTX as rejected). */
    signal(SIGCHLD, SIG_DFL);
    for (int i = 1; i < argc; i++)   /* hidden, not in --help: tests the internal-error path */
        if (strcmp(argv[i], "--debug-internal-error") == 0)
            INTERNAL_ERROR("deliberate internal error (--debug-internal-error)");
    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return run_main(argc - 1, argv + 1);
    catch_fatal_signals();
    Options opt = {0};
    parse_args(&opt, argc, argv);
    int status = compile(&opt);
    timing_report(stderr);
    arena_free(&driver_arena);
    return status;
}
