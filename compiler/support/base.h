/*
 * base.h: what every phase of tessc shares.
 *
 * Arenas (all compiler memory comes from one; nothing is freed node by node),
 * interned strings, source files and spans, diagnostics, and the element
 * dtypes. Nothing here knows about the AST, the IR, LLVM or CUDA.
 */
#ifndef TESSERA_BASE_H
#define TESSERA_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TESSC_VERSION "0.1.0"

/* ---- arenas (arena.c) ---------------------------------------------------- */

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *chunks;
} Arena;

void *arena_alloc(Arena *arena, size_t size);          /* zeroed, 16-aligned */
char *arena_strndup(Arena *arena, const char *s, size_t n);
char *arena_strdup(Arena *arena, const char *s);
char *arena_printf(Arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void arena_free(Arena *arena);                         /* drops every chunk */

#define ARENA_NEW(arena, T) ((T *)arena_alloc((arena), sizeof(T)))
#define ARENA_ARRAY(arena, T, n) ((T *)arena_alloc((arena), sizeof(T) * (size_t)(n)))

/* A growable array of pointers whose storage lives in an arena; growing
   abandons the old storage to the arena, which is fine for compiler sizes. */
typedef struct PtrVec {
    void **items;
    int len, cap;
} PtrVec;
void ptrvec_push(Arena *arena, PtrVec *vec, void *item);

/* Interned strings: equal names are equal pointers. */
const char *intern(const char *s, size_t n);
const char *intern_cstr(const char *s);
/* Frees every interned string (for the fuzz targets, between inputs). */
void intern_reset(void);

/* Out-of-memory or an impossible state: prints "internal error" and exits 3. */
_Noreturn void fatal_internal(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define INTERNAL_ERROR(...) fatal_internal(__FILE__, __LINE__, __VA_ARGS__)
/* Out of memory is the machine's limit (ulimit -v, a container), not a bug:
   "tessc: error: out of memory", exit 1 (arena.c). The exit handlers run
   (ptxas jobs stopped, their directories removed). */
_Noreturn void fatal_out_of_memory(void);
/* A library that runs compiler code inside another program (libtessinterp)
   must not exit it: it sets a handler, which fatal_out_of_memory calls
   instead of exiting and which must not return (it longjmps back to the
   library's entry point). Process-wide: the caller serializes the code that
   runs under it. Returns the handler it replaces, to be put back. */
typedef struct ArenaOutOfMemory {
    void (*handler)(void *context);   /* never returns */
    void *context;
} ArenaOutOfMemory;
ArenaOutOfMemory arena_on_out_of_memory(ArenaOutOfMemory handler);
/* Test knob: after `chunks` more chunk allocations, the next one fails as if
   malloc had (then the knob is off again); -1 turns it off.
   $TESSRT_INTERP_DEBUG_FAIL_ALLOC sets it for one interpreter load or
   launch (runtime/interp_device.c). */
void arena_debug_fail_after(long chunks);

/* ---- phase timing (timing.c) --------------------------------------------- */

/* --time-report: phases are timed as
 *     double t = timing_begin(); ...; timing_end("phase name", t);
 * (free when off) and timing_report prints them, with the total, at exit.
 * Phase names must be string literals or otherwise outlive the run. */
void timing_enable(void);
double timing_begin(void);
void timing_end(const char *phase, double begin);
void timing_report(FILE *out);

/* ---- source files and spans (diag.c) ------------------------------------- */

typedef struct SourceFile {
    const char *name;       /* as given on the command line */
    const char *text;       /* NUL-terminated copy of the contents */
    size_t length;          /* bytes, not counting the added NUL */
} SourceFile;

/* A span in a source file: 1-based line and column of its first byte, and
   the column after its last byte on the first line (for the caret run). */
typedef struct Span {
    int line, col;
    int end_col;
} Span;

/* ---- diagnostics (diag.c) ------------------------------------------------ */

/* Diagnostics go to stderr as
 *     file:line:col: error: message
 *         the source line
 *         ^~~~~
 * Notes follow the error they belong to. After DIAG_MAX_ERRORS errors the
 * run stops reporting (and says so). */
enum { DIAG_MAX_ERRORS = 20, DIAG_MAX_WARNINGS = 100 };

void diag_set_source(const SourceFile *file);
/* Where diagnostics go: stderr when NULL (the default). The interpreter's
   runtime device (runtime/interp_device.c) points it at a memory stream to
   hand a .tir file's errors back as a message. */
void diag_set_output(FILE *out);
void diag_error(Span span, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(Span span, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warning(Span span, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error with no source position (command-line values such as -D). */
void diag_error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_error_plain_v(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void diag_warning_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int diag_error_count(void);
/* Reads `path` into `arena`; on failure reports through diag_error_plain
   (cannot open, a directory, too large, cannot read) and returns false. */
bool source_read(Arena *arena, const char *path, SourceFile *file);
FILE *source_open(const char *path, const char **refused);
void diag_reset(void);

/* Machine-readable diagnostics (tessc --diagnostics-format). In JSON and
   SARIF modes nothing is printed as it happens: every diagnostic is recorded
   with its stable code (diag_code_of) and one document goes to the output at
   process exit (or at diag_finish). The text format is the default and is
   unchanged by codes. */
typedef enum DiagFormat { DIAG_TEXT, DIAG_JSON, DIAG_SARIF } DiagFormat;
void diag_set_format(DiagFormat format);
DiagFormat diag_format(void);
/* Prints the document of the recorded diagnostics (JSON, SARIF) once. */
void diag_finish(void);
/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte
   at s does not start one: JSON output (diagnostics, the manifest) replaces
   each such byte by U+FFFD. Inline here because the manifest writer is also
   linked without diag.c (the runtime's manifest tests). */
static inline int utf8_length(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    if (p[0] < 0x80)
        return 1;
    /* the second byte's range per lead byte (RFC 3629): no overlong forms,
       no surrogates, nothing over U+10FFFF */
    unsigned char lo = 0x80, hi = 0xbf;
    int n;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}
/* The stable code of a message ("E0301"), found by matching the formatted
   message against the table of message formats; "E0000" if none matches. */
const char *diag_code_of(const char *message);

/* ---- element dtypes (dtype.c) -------------------------------------------- */

typedef enum DType {
    DT_BOOL,
    DT_I8,
    DT_I16,
    DT_I32,
    DT_I64,
    DT_U8,
    DT_U16,
    DT_U32,
    DT_U64,
    DT_F16,
    DT_BF16,
    DT_F32,
    DT_F64,
    DT_F8E4M3,                 /* fp8: 1-4-3 (no inf, max 448) and 1-5-2 (IEEE-like), storage and */
    DT_F8E5M2,                 /* casts and dot only (docs/language.md 3.1) */
    DT_COUNT
} DType;

const char *dtype_name(DType dtype);
bool dtype_from_name(const char *name, DType *out);
int dtype_bytes(DType dtype);
bool dtype_is_float(DType dtype);
bool dtype_is_int(DType dtype);    /* signed or unsigned, not bool */
bool dtype_is_signed(DType dtype);
bool dtype_is_fp8(DType dtype);
/* Rounding and wrapping a value to a dtype, and every scalar operation:
   compiler/ir/numeric.h. */

/* ---- memory spaces and access -------------------------------------------- */

typedef enum MemSpace { SPACE_GLOBAL, SPACE_SHARED } MemSpace;
typedef enum Access { ACCESS_IN, ACCESS_OUT, ACCESS_INOUT } Access;

const char *space_name(MemSpace space);
const char *access_name(Access access);

/* ---- target architectures (dtype.c) -------------------------------------- */

/* A family: archs that share one backend plan and one LLVM module (one plan
   per target, docs/codegen.md). The archs of a family differ only in what
   ptxas and the PTX version make of the same code. */
typedef enum ArchFamily {
    ARCH_FAMILY_SM80,        /* sm_80, sm_86: mma.sync, cp.async, ldmatrix */
    ARCH_FAMILY_SM89,        /* sm_89: adds fp8 mma.sync (m16n8k32 e4m3/e5m2) */
    ARCH_FAMILY_SM90,        /* sm_90: adds stmatrix, TMA, mbarrier tx-counts */
    ARCH_FAMILY_SM90A,       /* sm_90a: adds wgmma and setmaxnreg */
    ARCH_FAMILY_COUNT
} ArchFamily;

/* What an arch can run: the feature flags the backend's per-target
   decisions read (dtype.c says where each one comes from). */
typedef struct ArchInfo {
    const char *name;        /* "sm_90a" */
    int major, minor;        /* compute capability */
    ArchFamily family;
    long shared_bytes_max;   /* per block, with the opt-in */
    bool mma_sync;           /* mma.sync.aligned.m16n8k16 (f16/bf16) */
    bool mma_fp8;            /* mma.sync.aligned.m16n8k32 .e4m3/.e5m2 (PTX ISA 8.4) */
    bool cp_async;           /* cp.async.{ca,cg}.shared.global, commit/wait_group */
    bool ldmatrix;           /* ldmatrix.sync.aligned.m8n8 */
    bool stmatrix;           /* stmatrix.sync.aligned.m8n8 */
    bool tma;                /* cp.async.bulk.tensor (tensor maps) */
    bool mbarrier_tx;        /* mbarrier expect_tx / complete_tx::bytes, try_wait.parity */
    bool wgmma;              /* wgmma.mma_async (arch-specific: sm_90a only) */
    bool setmaxnreg;         /* setmaxnreg.{inc,dec} (arch-specific: sm_90a only) */
} ArchInfo;

const ArchInfo *arch_lookup(const char *name);
const char *arch_names_joined(void);  /* "sm_80, sm_86, ..." for messages */
const char *arch_family_name(ArchFamily family);   /* "sm_80", "sm_90", "sm_90a" */

#endif
