/*
 * main.c: the tessc driver.
 *
 * Reads the command line, then runs the pipeline in compile(): one call a
 * phase. Every artifact is produced in memory first and written only when the
 * whole run had no error, each to a temporary name in its directory that is
 * renamed into place, so a failed or killed compile never leaves a file that
 * a build could mistake for output.
 *
 * Exit codes: 0 success, 1 errors in the input, 2 bad usage, 3 internal error.
 */
#include "ast.h"
#include "codegen.h"
#include "ir.h"
#include "manifest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* What --emit can ask for; the order is the order outputs are written. */
typedef enum EmitKind {
    EMIT_TOKENS, EMIT_AST, EMIT_IR, EMIT_IR_OPT,
    EMIT_LLVM, EMIT_PTX, EMIT_CUBIN, EMIT_MANIFEST,   /* the backend's (emit.c) */
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
};

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
            "  --arch LIST       target architectures, comma-separated (default: sm_90):\n"
            "                    %s; the shared-memory limit checked is\n"
            "                    the smallest of them\n"
            "  -O0 .. -O3        optimization level (default -O2; -O0 runs no IR pass)\n"
            "  --dump-after=PASS print the tile IR to stderr after PASS (%s)\n"
            "  --version         print the version and exit\n"
            "  --help            print this help and exit\n"
            "\n"
            "exit status: 0 success, 1 errors in the input, 2 bad usage, 3 internal error\n",
            arch_names_joined(), passes_names());
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tessc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'tessc --help'\n", stderr);
    va_end(ap);
    exit(EXIT_USAGE);
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
            usage_error("unknown --emit kind '%.*s' (known: tokens, ast, ir, ir-opt, llvm, ptx, cubin, manifest)",
                        (int)n, p);
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
    Define *d = &opt->defines[opt->define_count++];
    d->name = intern(text, (size_t)(eq - text));
    d->value_text = eq + 1;
    d->used = false;
}

/* Takes the value of an option given as "-x VALUE", "-xVALUE", "--opt VALUE"
   or "--opt=VALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *arg, size_t prefix) {
    if (arg[prefix] == '=')
        return arg + prefix + 1;
    if (arg[prefix] != '\0' && arg[1] != '-')
        return arg + prefix;
    if (*i + 1 >= argc)
        usage_error("option '%s' needs a value", arg);
    return argv[++*i];
}

static void parse_args(Options *opt, int argc, char **argv) {
    parse_emit_list(opt, "ptx,cubin,manifest");
    opt->opt_level = 2;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--version") == 0) {
            printf("tessc %s\n", TESSC_VERSION);
            exit(0);
        } else if (strncmp(arg, "-o", 2) == 0 && (arg[2] == '\0' || arg[1] != '-')) {
            opt->output_dir = option_value(argc, argv, &i, arg, 2);
        } else if (strncmp(arg, "--emit", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            parse_emit_list(opt, option_value(argc, argv, &i, arg, 6));
        } else if (strcmp(arg, "-k") == 0 || strncmp(arg, "--kernel", 8) == 0) {
            size_t prefix = arg[1] == 'k' ? 2 : 8;
            if (prefix == 8 && arg[8] != '\0' && arg[8] != '=')
                usage_error("unknown option '%s'", arg);
            ptrvec_push(&driver_arena, &opt->kernels,
                        (void *)intern_cstr(option_value(argc, argv, &i, arg, prefix)));
        } else if (strncmp(arg, "-D", 2) == 0) {
            add_define(opt, option_value(argc, argv, &i, arg, 2));
        } else if (strncmp(arg, "--arch", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            parse_arch_list(opt, option_value(argc, argv, &i, arg, 6));
        } else if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) {
            opt->opt_level = arg[2] - '0';
        } else if (strncmp(arg, "--dump-after", 12) == 0 && (arg[12] == '\0' || arg[12] == '=')) {
            opt->dump_after = option_value(argc, argv, &i, arg, 12);
            if (!passes_known(opt->dump_after))
                usage_error("unknown pass '%s' for --dump-after (known: %s)", opt->dump_after,
                            passes_names());
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
    if (opt->arch_count == 0)
        parse_arch_list(opt, "sm_90");
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && opt->emit_count != 1)
        usage_error("'-o -' writes one artifact to stdout, but --emit asks for %d", opt->emit_count);
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && (opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST]))
        usage_error("'-o -' writes one text artifact; --emit %s needs a directory",
                    opt->emit[EMIT_CUBIN] ? "cubin" : "manifest");
}

/* ---- input ---------------------------------------------------------------- */

enum { MAX_SOURCE_BYTES = 64 << 20 };

static bool read_source(const char *path, SourceFile *file) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tessc: error: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tessc: error: '%s' is a directory\n", path);
        fclose(f);
        return false;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text)
            INTERNAL_ERROR("out of memory reading '%s'", path);
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (len > MAX_SOURCE_BYTES) {
            fprintf(stderr, "tessc: error: '%s' is larger than %d MiB\n", path, MAX_SOURCE_BYTES >> 20);
            free(text);
            fclose(f);
            return false;
        }
        if (n == 0)
            break;
        if (len + 1 == cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "tessc: error: cannot read '%s'\n", path);
        free(text);
        return false;
    }
    text[len] = '\0';
    file->name = path;
    file->text = arena_strndup(&driver_arena, text, len);
    file->length = len;
    free(text);
    return true;
}

/* ---- output --------------------------------------------------------------- */

typedef struct Artifact {
    char *data;
    size_t size;
    FILE *stream;
} Artifact;

static FILE *artifact_open(Artifact *a) {
    a->stream = open_memstream(&a->data, &a->size);
    if (!a->stream)
        INTERNAL_ERROR("open_memstream failed");
    return a->stream;
}

static const char *path_stem(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return arena_strndup(&driver_arena, base, n);
}

/* Writes `a` to dir/name through a temporary file in the same directory. */
static bool write_artifact(const char *dir, const char *name, const Artifact *a) {
    const char *path = arena_printf(&driver_arena, "%s/%s", dir, name);
    char *tmp = arena_printf(&driver_arena, "%s/.%s.tmp.XXXXXX", dir, name);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "tessc: error: cannot create a file in '%s': %s\n", dir, strerror(errno));
        return false;
    }
    size_t done = 0;
    while (done < a->size) {
        ssize_t n = write(fd, a->data + done, a->size - done);
        if (n <= 0) {
            fprintf(stderr, "tessc: error: cannot write '%s': %s\n", path, strerror(errno));
            close(fd);
            unlink(tmp);
            return false;
        }
        done += (size_t)n;
    }
    if (fchmod(fd, 0644) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "tessc: error: cannot write '%s': %s\n", path, strerror(errno));
        unlink(tmp);
        return false;
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
            fprintf(stderr, "tessc: error: cannot create directory '%s': %s\n", path, strerror(errno));
            return false;
        }
        if (saved == '\0')
            break;
        *p = saved;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tessc: error: '%s' is not a directory\n", dir);
        return false;
    }
    return true;
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
    ManifestKernel *manifest;
    int num_kernels;
    const SourceFile *source;
} Backend;

static bool write_outputs(const Options *opt, Artifact *artifacts, const Backend *backend) {
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0) {
        for (int i = 0; i < EMIT_COUNT; i++)
            if (opt->emit[i] && !emit_kinds[i].per_kernel)
                fwrite(artifacts[i].data, 1, artifacts[i].size, stdout);
        for (int i = 0; backend && i < backend->num_files; i++)
            fwrite(backend->files[i].data.data, 1, backend->files[i].data.size, stdout);
        return fflush(stdout) == 0;
    }
    const char *dir = opt->output_dir ? opt->output_dir : ".";
    if (!make_directories(dir))
        return false;
    const char *stem = path_stem(opt->input);
    for (int i = 0; i < EMIT_COUNT; i++) {
        if (!opt->emit[i] || emit_kinds[i].per_kernel)
            continue;
        const char *name = arena_printf(&driver_arena, "%s%s", stem, emit_kinds[i].suffix);
        if (!write_artifact(dir, name, &artifacts[i]))
            return false;
    }
    for (int i = 0; backend && i < backend->num_files; i++)
        if (!write_artifact(dir, backend->files[i].name, &backend->files[i].data))
            return false;
    if (backend && opt->emit[EMIT_MANIFEST]) {
        /* Last: a manifest names files that must already be in place. */
        ManifestInput input = {
            .source_name = opt->input,
            .source_bytes = backend->source->text,
            .source_length = backend->source->length,
            .kernels = backend->manifest,
            .num_kernels = backend->num_kernels,
        };
        char err[512];
        const char *path = arena_printf(&driver_arena, "%s/%s%s", dir, stem, emit_kinds[EMIT_MANIFEST].suffix);
        if (!manifest_write(path, &input, err, sizeof err)) {
            fprintf(stderr, "tessc: error: cannot write '%s': %s\n", path, err);
            return false;
        }
    }
    return true;
}

/* ---- the backend ---------------------------------------------------------------- */

static bool backend_wanted(const Options *opt) {
    return opt->emit[EMIT_LLVM] || opt->emit[EMIT_PTX] || opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST];
}

static void backend_file(Backend *b, const char *name, const char *data, size_t size) {
    BackendFile *f = &b->files[b->num_files++];
    f->name = name;
    f->data.data = (char *)data;
    f->data.size = size;
}

/* Every kernel through codegen_kernel (emit.c) for every --arch; files are
   STEM.KERNEL.ll, STEM.KERNEL.ARCH.ptx and STEM.KERNEL.ARCH.cubin. Returns an
   exit status. */
static int run_backend(const Options *opt, const SourceFile *source, IrModule *module, Backend *b) {
    int n = module->kernels.len;
    b->source = source;
    b->num_kernels = n;
    b->kernels = ARENA_ARRAY(&driver_arena, CodegenKernel, n + 1);
    b->manifest = ARENA_ARRAY(&driver_arena, ManifestKernel, n + 1);
    b->files = ARENA_ARRAY(&driver_arena, BackendFile, n * (1 + 2 * opt->arch_count) + 1);
    bool want_cubin = opt->emit[EMIT_CUBIN] || opt->emit[EMIT_MANIFEST];
    if (opt->emit[EMIT_CUBIN] && !codegen_find_ptxas())
        fprintf(stderr, "tessc: warning: no ptxas found ($PTXAS, PATH, /usr/local/cuda/bin); cubins skipped\n");
    const char *stem = path_stem(opt->input);
    const char *base = strrchr(opt->input, '/');
    CodegenOptions options = {
        .archs = opt->archs,
        .num_archs = opt->arch_count,
        .want_llvm = opt->emit[EMIT_LLVM],
        .want_ptx = true,
        .want_cubin = want_cubin,
        .source_name = base ? base + 1 : opt->input,
    };
    for (int k = 0; k < n; k++) {
        IrKernel *kernel = module->kernels.items[k];
        CodegenKernel *c = &b->kernels[k];
        if (!codegen_kernel(kernel, &options, c))
            return diag_error_count() ? EXIT_INPUT : 3;
        if (opt->emit[EMIT_LLVM])
            backend_file(b, arena_printf(&driver_arena, "%s.%s.ll", stem, kernel->name), c->llvm_ir, c->llvm_ir_size);
        ManifestArtifact *arts = ARENA_ARRAY(&driver_arena, ManifestArtifact, 2 * c->num_archs + 1);
        int num_arts = 0;
        for (int a = 0; a < c->num_archs; a++) {
            CodegenArch *arch = &c->archs[a];
            const char *version = arena_printf(&driver_arena, "%d.%d", arch->ptx_version / 10, arch->ptx_version % 10);
            if (opt->emit[EMIT_PTX]) {
                const char *name = arena_printf(&driver_arena, "%s.%s.%s.ptx", stem, kernel->name, arch->arch->name);
                backend_file(b, name, arch->ptx, arch->ptx_size);
                arts[num_arts++] = (ManifestArtifact){.arch = arch->arch->name, .kind = MANIFEST_PTX, .file = name,
                                                      .ptx_version = version, .registers = -1, .spills = -1,
                                                      .shared_bytes = (long)c->shared_bytes};
            }
            if (opt->emit[EMIT_CUBIN] && arch->cubin) {
                const char *name = arena_printf(&driver_arena, "%s.%s.%s.cubin", stem, kernel->name, arch->arch->name);
                backend_file(b, name, arch->cubin, arch->cubin_size);
                arts[num_arts++] = (ManifestArtifact){
                    .arch = arch->arch->name, .kind = MANIFEST_CUBIN, .file = name, .ptx_version = version,
                    .registers = arch->registers, .spills = arch->spill_stores + arch->spill_loads,
                    .shared_bytes = (long)c->shared_bytes};
            }
        }
        b->manifest[k] = (ManifestKernel){.kernel = kernel, .entry = c->entry, .artifacts = arts,
                                          .num_artifacts = num_arts};
    }
    if (opt->output_dir && strcmp(opt->output_dir, "-") == 0 && b->num_files != 1) {
        fprintf(stderr, "tessc: error: '-o -' writes one artifact to stdout, but this run makes %d "
                        "(one per kernel%s); use -k and --arch to pick one\n",
                b->num_files, opt->emit[EMIT_PTX] ? " and arch" : "");
        return EXIT_USAGE;
    }
    return 0;
}

static void backend_free(Backend *b) {
    for (int k = 0; k < b->num_kernels; k++)
        codegen_kernel_free(&b->kernels[k]);
}

/* ---- the pipeline ------------------------------------------------------------ */

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

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

/* Reads a .tess file up to the syntax tree (the tokens and ast artifacts);
   NULL after errors. */
static Program *parse_source(const Options *opt, const SourceFile *file, Artifact *artifacts) {
    if (opt->emit[EMIT_TOKENS] && !lex_dump_tokens(file, artifact_open(&artifacts[EMIT_TOKENS])))
        return NULL;
    Program *program = parse_program(&driver_arena, file);
    if (!program || diag_error_count())
        return NULL;
    if (opt->emit[EMIT_AST])
        ast_print(program, artifact_open(&artifacts[EMIT_AST]));
    return program;
}

/* Checks a parsed program and lowers it to tile IR; NULL after errors. */
static IrModule *check_and_lower(const Options *opt, Program *program) {
    SemaOptions sema = {
        .defines = (Define *)opt->defines,
        .define_count = opt->define_count,
        .archs = (const ArchInfo **)opt->archs,
        .arch_count = opt->arch_count,
    };
    if (sema_check(&driver_arena, program, &sema) > 0)
        return NULL;
    IrModule *module = lower_program(&driver_arena, program);
    if (!module || diag_error_count())
        return NULL;
    return module;
}

/* Reads a .tir file; user IR that does not verify is an error in the input. */
static IrModule *read_tile_ir(const SourceFile *file) {
    IrModule *module = ir_parse_module(&driver_arena, file);
    if (!module || diag_error_count())
        return NULL;
    for (int i = 0; i < module->kernels.len; i++) {
        IrKernel *kernel = module->kernels.items[i];
        char message[512];
        if (!ir_verify_kernel(kernel, message, sizeof message))
            diag_error(kernel->loc, "kernel '%s' is not valid tile IR: %s", kernel->name, message);
    }
    if (!diag_error_count())
        return module;
    for (int i = 0; i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
    return NULL;
}

static int finish(const Options *opt, Artifact *artifacts, IrModule *module, Backend *backend);

static int compile(const Options *opt) {
    SourceFile file;
    if (!read_source(opt->input, &file))
        return EXIT_INPUT;
    diag_set_source(&file);
    Artifact artifacts[EMIT_COUNT] = {0};
    bool from_ir = has_suffix(opt->input, ".tir");
    if (from_ir && (opt->emit[EMIT_TOKENS] || opt->emit[EMIT_AST])) {
        fprintf(stderr, "tessc: error: --emit tokens and ast need a .tess input\n");
        return EXIT_USAGE;
    }

    /* Tokens and the syntax tree need only the parser: asking for them alone
       stops there, so they can be looked at for programs sema rejects. */
    bool syntax_only = true;
    for (int i = EMIT_AST + 1; i < EMIT_COUNT; i++)
        syntax_only &= !opt->emit[i];
    IrModule *module = NULL;
    if (from_ir) {
        module = read_tile_ir(&file);
    } else {
        Program *program = parse_source(opt, &file, artifacts);
        if (program && syntax_only)
            return finish(opt, artifacts, NULL, NULL);
        if (program)
            module = check_and_lower(opt, program);
    }
    if (!module)
        return EXIT_INPUT;
    if (!select_kernels(opt, module))
        return EXIT_INPUT;
    if (opt->emit[EMIT_IR])
        ir_print_module(module, artifact_open(&artifacts[EMIT_IR]));

    PassOptions passes = {
        .opt_level = opt->opt_level,
        .dump_after = opt->dump_after,
        .dump_out = stderr,
#ifdef NDEBUG
        .verify = false,
#else
        .verify = true,
#endif
    };
    if (!passes_run(module, &passes))
        return 3;
    if (opt->emit[EMIT_IR_OPT])
        ir_print_module(module, artifact_open(&artifacts[EMIT_IR_OPT]));

    if (!backend_wanted(opt))
        return finish(opt, artifacts, module, NULL);
    Backend backend = {0};
    int status = run_backend(opt, &file, module, &backend);
    if (status != 0) {
        backend_free(&backend);
        return status;
    }
    return finish(opt, artifacts, module, &backend);
}

/* Writes the buffered artifacts and releases what the run holds. */
static int finish(const Options *opt, Artifact *artifacts, IrModule *module, Backend *backend) {
    for (int i = 0; i < EMIT_COUNT; i++)
        if (artifacts[i].stream && fflush(artifacts[i].stream) != 0)
            INTERNAL_ERROR("cannot buffer output");
    bool written = write_outputs(opt, artifacts, backend);
    if (backend)
        backend_free(backend);
    for (int i = 0; i < EMIT_COUNT; i++) {
        if (artifacts[i].stream) {
            fclose(artifacts[i].stream);
            free(artifacts[i].data);
        }
    }
    for (int i = 0; module && i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
    return written ? 0 : EXIT_INPUT;
}

int run_main(int argc, char **argv);   /* `tessc run` (run.c) */

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return run_main(argc - 1, argv + 1);
    Options opt = {0};
    parse_args(&opt, argc, argv);
    int status = compile(&opt);
    arena_free(&driver_arena);
    return status;
}
