/*
 * fuzz_frontend.c: libFuzzer target for the whole of tessc short of files.
 *
 * One input is one source file. It goes through both readers of tessc's
 * front end (front_compile, compiler/front/front.c):
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
#include "codegen.h"
#include "front.h"
#include "ir.h"
#include "manifest.h"
#include "pipeline.h"

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
    PassOptions passes = {.opt_level = 2, .dump_out = fuzz_sink, .verify = true, .fp8_rings = true};
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
        if (!pipeline_kernel(kernel, &options, &out[k])) {
            if (diag_error_count() == 0)
                fuzz_bug("the backend failed without a diagnostic (an internal error)");
            ok = false;
            break;
        }
        artifacts[k] = (ManifestArtifact){.arch = arch->name, .kind = MANIFEST_PTX, .file = "fuzz.ptx",
                                          .ptx_version = "8.0", .threads = out[k].archs[0].threads, .registers = -1,
                                          .spills = -1, .shared_bytes = (long)out[k].archs[0].shared_bytes};
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
        target_free_kernel(&out[k]);
    free(out);
    free(manifest);
    free(artifacts);
}

/* Both readers are front_compile, tessc's front end. The tokens are dumped
   first and their errors dropped, so that the parser sees every input. */
static IrModule *fuzz_read(Arena *arena, const SourceFile *file, bool as_tir) {
    if (!as_tir) {
        lex_dump_tokens(file, fuzz_sink);
        diag_reset();
    } else {
        diag_reset();
    }
    FrontOptions front = {.ast = as_tir ? NULL : fuzz_sink};
    IrModule *module = NULL;
    if (!front_compile(arena, file, &front, &module)) {
        if (!as_tir && diag_error_count() == 0)
            fuzz_bug("the front end failed without a diagnostic");
        return NULL;
    }
    /* ir_parse_module verified every kernel; a second verify must agree. */
    for (int i = 0; as_tir && i < module->kernels.len; i++) {
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
        IrModule *module = fuzz_read(&arena, &file, as_tir);
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

/* ---- structure-aware mutation ----------------------------------------------
 *
 * libFuzzer's byte-level mutations mostly break the syntax, so most of its
 * inputs stop in the lexer or the parser. This custom mutator works on
 * tokens instead and makes edits that keep a kernel close to well-formed, so
 * that sema, lowering, the passes and the backend see odd but valid-looking
 * programs: an index after any expression (`[...]`, `[None]`, `[0]`,
 * `[ds(0, 4)]`, `.T`, ...; indexing a constant, `1.0[...]`, was an internal
 * error that byte mutations never reached), the operands of a binary
 * operator swapped, a literal replaced (0, negative, huge, float for int and
 * back), a dtype replaced by another, a statement duplicated, deleted or
 * moved. One call in four, and whenever an edit does not apply, falls back
 * to LLVMFuzzerMutate. */

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

enum { TOK_SPACE, TOK_WORD, TOK_NUMBER, TOK_PUNCT };

typedef struct {
    int kind;
    size_t start, end;
} MutToken;

typedef struct {
    MutToken *tokens;
    int count;
    uint64_t rng;
} Mutation;

static unsigned mut_rand(Mutation *m, unsigned n) {
    m->rng ^= m->rng << 13;
    m->rng ^= m->rng >> 7;
    m->rng ^= m->rng << 17;
    return n ? (unsigned)(m->rng % n) : 0;
}

static bool mut_is_word(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* A rough version of the lexer: words, numbers (with '.', exponents and
   hex digits), one-character punctuation (enough for bracket matching) and
   runs of whitespace and comments. */
static int mut_tokenize(const uint8_t *data, size_t size, MutToken *out, int max) {
    int n = 0;
    size_t i = 0;
    while (i < size && n < max) {
        size_t s = i;
        int c = data[i], kind;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
                i++;
            kind = TOK_SPACE;
        } else if (c == '/' && i + 1 < size && data[i + 1] == '/') {
            while (i < size && data[i] != '\n')
                i++;
            kind = TOK_SPACE;
        } else if (c >= '0' && c <= '9') {
            while (i < size && (mut_is_word(data[i]) ||
                                (data[i] == '.' && i + 1 < size && data[i + 1] >= '0' && data[i + 1] <= '9') ||
                                ((data[i] == '-' || data[i] == '+') && (data[i - 1] == 'e' || data[i - 1] == 'E'))))
                i++;
            kind = TOK_NUMBER;
        } else if (mut_is_word(c)) {
            while (i < size && mut_is_word(data[i]))
                i++;
            kind = TOK_WORD;
        } else {
            i++;
            kind = TOK_PUNCT;
        }
        out[n++] = (MutToken){kind, s, i};
    }
    return n;
}

static bool mut_tok_is(const Mutation *m, const uint8_t *data, int t, const char *text) {
    size_t len = strlen(text);
    return t >= 0 && t < m->count && m->tokens[t].end - m->tokens[t].start == len &&
           memcmp(data + m->tokens[t].start, text, len) == 0;
}

static const char *const mut_dtypes[] = {"bool", "i8", "i16", "i32", "i64", "u8", "u32",
                                         "f16", "bf16", "f32", "f64"};
static const char *const mut_numbers[] = {"0", "1", "-1", "2", "3", "7", "16", "255", "256", "65536",
                                          "2147483647", "2147483648", "-2147483648", "4294967296",
                                          "9223372036854775807", "(-9223372036854775807 - 1)",
                                          "0.0", "-0.0", "0.5", "1.0", "-1.5", "65504.0", "1e-45",
                                          "1e38", "1e308", "inf", "-inf", "nan", "0x7fffffff"};
static const char *const mut_suffixes[] = {"[...]", "[None]", "[0]", "[1]", "[ds(0, 4)]", ".T", "[:, None]",
                                           "[None, :]", "[0:2]", "[..., None]", "[-1]", "[ds(-3, 2)]",
                                           "[0][0]", ".T.T", "[ds(0, 4)][0:2]", "[None][None]"};

/* The token index of the bracket matching the one at t (step +1 or -1), or -1. */
static int mut_match(const Mutation *m, const uint8_t *data, int t, int step) {
    int depth = 0;
    for (int i = t; i >= 0 && i < m->count; i += step) {
        if (m->tokens[i].kind != TOK_PUNCT)
            continue;
        int c = data[m->tokens[i].start];
        if (c == '(' || c == '[' || c == '{')
            depth += step;
        else if (c == ')' || c == ']' || c == '}')
            depth -= step;
        if (depth == 0)
            return i;
    }
    return -1;
}

static int mut_skip_space(const Mutation *m, int t, int step) {
    while (t >= 0 && t < m->count && m->tokens[t].kind == TOK_SPACE)
        t += step;
    return t;
}

/* The operand that ends at token t (a word or number, with any calls and
   indexes after it, or a parenthesized group): its first token, or -1. */
static int mut_operand_start(const Mutation *m, const uint8_t *data, int t) {
    t = mut_skip_space(m, t, -1);
    while (t >= 0 && (mut_tok_is(m, data, t, ")") || mut_tok_is(m, data, t, "]"))) {
        t = mut_match(m, data, t, -1);
        if (t <= 0)
            return t;
        int before = t - 1;
        if (before >= 0 && (m->tokens[before].kind == TOK_WORD || mut_tok_is(m, data, before, ")") ||
                            mut_tok_is(m, data, before, "]")))
            t = before;
        else
            return t;
    }
    return t >= 0 && (m->tokens[t].kind == TOK_WORD || m->tokens[t].kind == TOK_NUMBER) ? t : -1;
}

/* The operand that starts at token t: its last token, or -1. */
static int mut_operand_end(const Mutation *m, const uint8_t *data, int t) {
    t = mut_skip_space(m, t, 1);
    if (t >= m->count)
        return -1;
    if (mut_tok_is(m, data, t, "("))
        t = mut_match(m, data, t, 1);
    else if (m->tokens[t].kind != TOK_WORD && m->tokens[t].kind != TOK_NUMBER)
        return -1;
    while (t >= 0 && t + 1 < m->count && (mut_tok_is(m, data, t + 1, "(") || mut_tok_is(m, data, t + 1, "[")))
        t = mut_match(m, data, t + 1, 1);
    return t;
}

/* Writes data[0..a) + insert + data[b..size) into out; the new size, or 0 when it does not fit. */
static size_t mut_splice(uint8_t *out, size_t max, const uint8_t *data, size_t size, size_t a, size_t b,
                         const uint8_t *insert, size_t len) {
    if (a + len + (size - b) > max)
        return 0;
    memcpy(out, data, a);
    memcpy(out + a, insert, len);
    memcpy(out + a + len, data + b, size - b);
    return a + len + (size - b);
}

/* One structure-aware edit of data into out; 0 when the chosen edit does not apply. */
static size_t mut_edit(Mutation *m, const uint8_t *data, size_t size, uint8_t *out, size_t max) {
    int n = m->count;
    if (n == 0)
        return 0;
    int t = (int)mut_rand(m, (unsigned)n);
    const MutToken *tok = &m->tokens[t];
    switch (mut_rand(m, 6)) {
    case 0: { /* index the expression that ends here */
        if (!(tok->kind == TOK_WORD || tok->kind == TOK_NUMBER || mut_tok_is(m, data, t, ")") ||
              mut_tok_is(m, data, t, "]")))
            return 0;
        const char *s = mut_suffixes[mut_rand(m, sizeof mut_suffixes / sizeof *mut_suffixes)];
        return mut_splice(out, max, data, size, tok->end, tok->end, (const uint8_t *)s, strlen(s));
    }
    case 1: { /* swap the operands of a binary operator */
        static const char ops[] = "+-*/%<>";
        if (tok->kind != TOK_PUNCT || !strchr(ops, data[tok->start]) || data[tok->start] == 0)
            return 0;
        int ls = mut_operand_start(m, data, t - 1), le = mut_skip_space(m, t - 1, -1);
        int rs = mut_skip_space(m, t + 1, 1), re = mut_operand_end(m, data, t + 1);
        if (ls < 0 || re < 0 || le < ls || rs > re)
            return 0;
        size_t a0 = m->tokens[ls].start, a1 = m->tokens[le].end, b0 = m->tokens[rs].start, b1 = m->tokens[re].end;
        size_t total = size;
        if (total > max)
            return 0;
        memcpy(out, data, a0);
        size_t o = a0;
        memcpy(out + o, data + b0, b1 - b0), o += b1 - b0;
        memcpy(out + o, data + a1, b0 - a1), o += b0 - a1;
        memcpy(out + o, data + a0, a1 - a0), o += a1 - a0;
        memcpy(out + o, data + b1, size - b1), o += size - b1;
        return o;
    }
    case 2: { /* another literal */
        if (tok->kind != TOK_NUMBER)
            return 0;
        const char *s = mut_numbers[mut_rand(m, sizeof mut_numbers / sizeof *mut_numbers)];
        return mut_splice(out, max, data, size, tok->start, tok->end, (const uint8_t *)s, strlen(s));
    }
    case 3: { /* another dtype */
        for (int tries = 0; tries < n; tries++, t = (t + 1) % n) {
            for (size_t d = 0; d < sizeof mut_dtypes / sizeof *mut_dtypes; d++) {
                if (mut_tok_is(m, data, t, mut_dtypes[d])) {
                    const char *s = mut_dtypes[mut_rand(m, sizeof mut_dtypes / sizeof *mut_dtypes)];
                    return mut_splice(out, max, data, size, m->tokens[t].start, m->tokens[t].end,
                                      (const uint8_t *)s, strlen(s));
                }
            }
        }
        return 0;
    }
    default: { /* duplicate, delete or move a statement (up to a ';', from after the last ';', '{' or '}') */
        int end = -1;
        for (int i = t; i < n; i++)
            if (mut_tok_is(m, data, i, ";")) {
                end = i;
                break;
            }
        if (end < 0)
            return 0;
        int start = end - 1;
        while (start >= 0 && !mut_tok_is(m, data, start, ";") && !mut_tok_is(m, data, start, "{") &&
               !mut_tok_is(m, data, start, "}"))
            start--;
        size_t a = m->tokens[start + 1].start, b = m->tokens[end].end;
        unsigned how = mut_rand(m, 3);
        if (how == 0) /* duplicate */
            return mut_splice(out, max, data, size, b, b, data + a, b - a);
        if (how == 1) /* delete */
            return mut_splice(out, max, data, size, a, b, (const uint8_t *)"", 0);
        /* move: after another statement's ';' */
        int dest = (int)mut_rand(m, (unsigned)n);
        while (dest < n && !mut_tok_is(m, data, dest, ";"))
            dest++;
        if (dest >= n || (m->tokens[dest].start >= a && m->tokens[dest].end <= b))
            return 0;
        size_t at = m->tokens[dest].end, len = b - a;
        if (size > max || (at > a && at < b))
            return 0;
        if (at <= a) {
            memcpy(out, data, at);
            memcpy(out + at, data + a, len);
            memcpy(out + at + len, data + at, a - at);
            memcpy(out + at + len + (a - at), data + b, size - b);
        } else {
            memcpy(out, data, a);
            memcpy(out + a, data + b, at - b);
            memcpy(out + a + (at - b), data + a, len);
            memcpy(out + at, data + at, size - at);
        }
        return size;
    }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    enum { MAX_TOKENS = 8192 };
    static MutToken tokens[MAX_TOKENS];
    Mutation m = {.tokens = tokens, .rng = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1};
    if (mut_rand(&m, 4) == 0 || size == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    m.count = mut_tokenize(data, size, tokens, MAX_TOKENS);
    uint8_t *out = malloc(max_size ? max_size : 1);
    if (!out)
        return LLVMFuzzerMutate(data, size, max_size);
    size_t n = 0;
    for (int tries = 0; tries < 8 && n == 0; tries++)
        n = mut_edit(&m, data, size, out, max_size);
    if (n == 0) {
        free(out);
        return LLVMFuzzerMutate(data, size, max_size);
    }
    memcpy(data, out, n);
    free(out);
    return n;
}
