/*
 * front.c: the front end in one call (front.h): lex, parse, sema, lower to
 * tile IR for a .tess file; parse and verify for a .tir file.
 *
 * The one place that strings the front-end phases together, for tessc
 * (driver/main.c), `tessc run` (driver/run.c) and the fuzz target
 * (fuzz/fuzz_frontend.c). Each phase reports its own errors through diag;
 * this file stops between phases once there is one, and never leaves a
 * half-built module behind: after an error every kernel is freed.
 */
#include "front.h"

#include <string.h>

bool front_is_tile_ir(const char *path) {
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".tir") == 0;
}

static void free_module(IrModule *module) {
    for (int i = 0; module && i < module->kernels.len; i++)
        ir_kernel_free(module->kernels.items[i]);
}

/* Lexes and parses a .tess file; NULL after errors. */
static Program *front_parse(Arena *arena, const SourceFile *file, const FrontOptions *options) {
    if (options->tokens && !lex_dump_tokens(file, options->tokens))
        return NULL;
    Program *program = parse_program(arena, file);
    if (!program || diag_error_count())
        return NULL;
    if (options->ast)
        ast_print(program, options->ast);
    return program;
}

/* Checks a parsed program and lowers it to tile IR; NULL after errors. */
static IrModule *front_check_and_lower(Arena *arena, Program *program, const FrontOptions *options) {
    SemaOptions sema = {
        .defines = options->defines,
        .define_count = options->define_count,
        .archs = options->archs,
        .arch_count = options->arch_count,
    };
    if (sema_check(arena, program, &sema) > 0)
        return NULL;
    IrModule *module = lower_program(arena, program, options->debug);
    if (module && diag_error_count()) {
        free_module(module);
        return NULL;
    }
    return module;
}

bool front_compile(Arena *arena, const SourceFile *file, const FrontOptions *options, IrModule **out) {
    *out = NULL;
    double t = timing_begin();
    if (front_is_tile_ir(file->name)) {
        /* ir_parse_module verifies every kernel and reports what does not
           verify at its op in the file: user IR is an input like any other. */
        IrModule *module = ir_parse_module(arena, file);
        timing_end("parse tile IR", t);
        if (!module || diag_error_count()) {
            free_module(module);
            return false;
        }
        *out = module;
        return true;
    }
    Program *program = front_parse(arena, file, options);
    timing_end("parse", t);
    if (!program)
        return false;
    if (options->syntax_only)
        return true;
    t = timing_begin();
    IrModule *module = front_check_and_lower(arena, program, options);
    timing_end("check and lower to tile IR", t);
    *out = module;
    return module != NULL;
}
