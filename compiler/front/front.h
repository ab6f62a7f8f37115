/*
 * front.h: the front end as one call, for tessc, `tessc run` and the fuzz
 * target: a source file in, its tile IR out, diagnostics on the way.
 */
#ifndef TESSERA_FRONT_H
#define TESSERA_FRONT_H

#include "ast.h"

#include <stdio.h>

typedef struct FrontOptions {
    Define *defines;         /* -D NAME=VALUE; sema marks the used ones */
    int define_count;
    const ArchInfo **archs;  /* sema's shared-memory limit: the smallest of these */
    int arch_count;
    FILE *tokens;            /* a .tess input's --emit tokens, or NULL */
    FILE *ast;               /* a .tess input's --emit ast, or NULL */
    bool syntax_only;        /* a .tess input stops after the parse */
    bool debug;              /* -g: print and assert kept (else checked and dropped) */
} FrontOptions;

/* Is `path` tile IR (.tir) rather than source (.tess)? */
bool front_is_tile_ir(const char *path);

/* Reads `file` (.tir by its name, else .tess) into tile IR allocated from
   `arena` (kernels from their own arenas). A .tess input is lexed (to
   options->tokens), parsed (to options->ast), checked with the -D defines
   and archs, and lowered; a .tir input is parsed and every kernel verified,
   reporting at the op. Returns false after errors (reported through diag,
   no module kept); true with *out the module, or with *out NULL when
   syntax_only stopped after a successful parse. Times "parse",
   "check and lower to tile IR" and "parse tile IR" for --time. */
bool front_compile(Arena *arena, const SourceFile *file, const FrontOptions *options, IrModule **out);

#endif
