/*
 * fuzz_frontend.c: libFuzzer target for the whole of tessc short of files.
 *
 * One input is one source file. It goes through both readers:
 *
 *   as .tess: tokens, parse, --emit ast, sema, lowering to tile IR,
 *   as .tir:  the tile-IR reader and verifier,
 *
 * and every module that comes out runs the pass pipeline (verifying between
 * passes) and the backend: layouts, shared memory, the LLVM lowering, O3 and
 * PTX in memory for one arch (sm_80 or sm_90, picked by the input's length),
 * and the manifest's text. No file is written and ptxas never runs.
 *
 * What counts as a bug: a sanitizer report, a leak, a hang (-timeout), an
 * internal error (tessc's INTERNAL_ERROR exits, which libFuzzer reports as
 * "fuzz target exited"), and a phase that fails without a diagnostic; the
 * last two are turned into abort() here so that libFuzzer keeps the input.
 * Diagnostics themselves are the expected outcome and go to /dev/null.
 *
 * Global state is reset between inputs: the diagnostic count, interned
 * strings (intern_reset) and the arenas; kernels are freed one by one.
 * Built by `make fuzz` (docs/reliability.md).
 */
#include "ast.h"
#include "codegen.h"
#include "ir.h"
#include "manifest.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *fuzz_sink;

static void fuzz_bug(const char *what) {
    fprintf(stderr, "fuzz_frontend: %s\n", what);
    abort();
}

static void fuzz_free_module(IrModule *module) {
    for (int i = 0; module && i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
}

/* Passes, then the backend for every kernel, as the driver runs them. */
static void fuzz_compile_module(const SourceFile *file, IrModule *module, const ArchInfo *arch) {
    ir_print_module(module, fuzz_sink);
    PassOptions passes = {.opt_level = 2, .dump_out = fuzz_sink, .verify = true};
    if (!passes_run(module, &passes))
        fuzz_bug("the IR did not verify after a pass");
    ir_print_module(module, fuzz_sink);

    const ArchInfo *archs[1] = {arch};
    CodegenOptions options = {.archs = archs, .num_archs = 1, .want_ptx = true, .source_name = "fuzz.tess"};
    int n = module->kernels.len;
    CodegenKernel *out = calloc((size_t)n + 1, sizeof *out);
    ManifestKernel *manifest = calloc((size_t)n + 1, sizeof *manifest);
    ManifestArtifact *artifacts = calloc((size_t)n + 1, sizeof *artifacts);
    if (!out || !manifest || !artifacts)
        fuzz_bug("out of memory");
    bool ok = true;
    for (int k = 0; ok && k < n; k++) {
        IrKernel *kernel = module->kernels.items[k];
        if (!codegen_kernel(kernel, &options, &out[k])) {
            if (diag_error_count() == 0)
                fuzz_bug("the backend failed without a diagnostic (an internal error)");
            ok = false;
            break;
        }
        artifacts[k] = (ManifestArtifact){.arch = arch->name, .kind = MANIFEST_PTX, .file = "fuzz.ptx",
                                          .ptx_version = "8.0", .registers = -1, .spills = -1,
                                          .shared_bytes = (long)out[k].shared_bytes};
        manifest[k] = (ManifestKernel){.kernel = kernel, .entry = out[k].entry, .artifacts = &artifacts[k],
                                       .num_artifacts = 1};
    }
    if (ok) {
        ManifestInput input = {.source_name = file->name, .source_bytes = file->text,
                               .source_length = file->length, .kernels = manifest, .num_kernels = n};
        char err[256];
        char *text = manifest_format(&input, err, sizeof err);
        if (!text)
            fuzz_bug("manifest_format failed");
        free(text);
    }
    for (int k = 0; k < n; k++)
        codegen_kernel_free(&out[k]);
    free(out);
    free(manifest);
    free(artifacts);
}

/* The .tess path of main.c's compile(). */
static IrModule *fuzz_read_tess(Arena *arena, const SourceFile *file) {
    lex_dump_tokens(file, fuzz_sink);
    diag_reset();
    Program *program = parse_program(arena, file);
    if (!program || diag_error_count())
        return NULL;
    ast_print(program, fuzz_sink);
    SemaOptions sema = {0};
    if (sema_check(arena, program, &sema) > 0)
        return NULL;
    IrModule *module = lower_program(arena, program);
    if (module && diag_error_count()) {
        fuzz_free_module(module);
        return NULL;
    }
    if (!module && diag_error_count() == 0)
        fuzz_bug("lowering failed without a diagnostic");
    return module;
}

/* The .tir path: read, then verify every kernel. */
static IrModule *fuzz_read_tir(Arena *arena, const SourceFile *file) {
    diag_reset();
    IrModule *module = ir_parse_module(arena, file);
    if (!module || diag_error_count()) {
        fuzz_free_module(module);
        return NULL;
    }
    for (int i = 0; i < module->kernels.len; i++) {
        char message[512];
        if (!ir_verify_kernel(module->kernels.items[i], message, sizeof message)) {
            fuzz_free_module(module);
            return NULL;
        }
    }
    return module;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!fuzz_sink) {
        fuzz_sink = fopen("/dev/null", "w");
        if (!fuzz_sink)
            fuzz_bug("cannot open /dev/null");
        diag_set_output(fuzz_sink);
    }
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const ArchInfo *arch = arch_lookup(size % 2 ? "sm_80" : "sm_90");

    for (int as_tir = 0; as_tir < 2; as_tir++) {
        SourceFile file = {.name = as_tir ? "fuzz.tir" : "fuzz.tess", .text = text, .length = size};
        Arena arena = {0};
        diag_set_source(&file);
        IrModule *module = as_tir ? fuzz_read_tir(&arena, &file) : fuzz_read_tess(&arena, &file);
        if (module) {
            diag_reset();
            fuzz_compile_module(&file, module, arch);
            fuzz_free_module(module);
        }
        arena_free(&arena);
        diag_reset();
        intern_reset();
    }
    free(text);
    return 0;
}
