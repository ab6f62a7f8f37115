/*
 * ir_parse.c: reads the textual tile IR (docs/ir.md) back into kernels.
 *
 * In: the text of a .tir file. Out: an IrModule whose kernels each own
 * their arena, built so that printing them gives back the printed form of
 * the input (print(parse(print(x))) == print(x)). Every kernel is verified
 * before it is returned, so a caller gets well-formed IR or NULL.
 *
 * A hand-written lexer and a recursive-descent parser, one function per
 * grammar rule with the rule above it. Errors (bad syntax, unknown opcode,
 * undefined or redefined %value, type mismatch, and whatever the verifier
 * finds) go through diag_error at the line and column in the .tir file; the
 * first error stops the parse (longjmp back to ir_parse_module, which frees
 * what was built). Nesting depth is bounded so that no input can exhaust
 * the stack.
 */
#include "ir.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* Each nesting level costs a few kilobytes of stack (the op being parsed
   keeps its result names and types in locals). */
enum { PARSE_MAX_DEPTH = 64 };

/* ---- tokens -------------------------------------------------------------- */

typedef enum TokenKind {
    TOK_EOF,
    TOK_IDENT,      /* [A-Za-z_][A-Za-z0-9_]* */
    TOK_VALUE,      /* %[A-Za-z0-9_]+ ; text is the name without '%' */
    TOK_INT,        /* decimal digits */
    TOK_FLOAT,      /* digits with '.' or an exponent */
    TOK_STRING,     /* "..." with C escapes */
    TOK_PUNCT,      /* one of ( ) { } [ ] < > , : = @ - + * / % */
} TokenKind;

typedef struct Token {
    TokenKind kind;
    Span span;
    const char *text;       /* interned: IDENT, VALUE; decoded: STRING */
    char punct;
    uint64_t int_value;     /* INT */
    bool int_overflow;      /* INT: more than 64 bits */
    double float_value;     /* FLOAT */
} Token;

/* ---- parser state -------------------------------------------------------- */

typedef struct NameEntry {
    const char *name;       /* interned, without '%' */
    IrValue *value;
    Span span;              /* where it was defined */
    bool visible;           /* false once its block has closed */
} NameEntry;

typedef struct OpSpan {
    const IrOp *op;
    Span span;
} OpSpan;

typedef struct Parser {
    const SourceFile *file;
    const char *cur;        /* next byte to lex */
    const char *line_start;
    int line;
    Token tok;              /* the current token */
    Arena *scratch;         /* names, op spans: gone when the parse ends */
    jmp_buf fail;
    IrKernel *kernel;       /* the kernel being built */
    PtrVec kernels;         /* finished kernels, freed on failure */
    /* names of the current kernel: a hash table and the stack of scopes */
    NameEntry **names;
    int names_capacity, names_count;
    PtrVec scope_stack;     /* NameEntry*, in definition order */
    PtrVec op_spans;        /* OpSpan* of the current kernel */
    int depth;
    bool number_past_int64; /* parse_number's last integer was above INT64_MAX (its bits kept) */
} Parser;

static _Noreturn void parse_fail(Parser *P) { longjmp(P->fail, 1); }

static void parse_error(Parser *P, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
static void parse_error(Parser *P, Span at, const char *fmt, ...) {
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_error(at, "%s", message);
    parse_fail(P);
}

/* ---- lexer --------------------------------------------------------------- */

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }

static Span span_at(Parser *P, const char *start, const char *end) {
    Span span;
    span.line = P->line;
    span.col = (int)(start - P->line_start) + 1;
    span.end_col = span.col + (int)(end - start);
    return span;
}

static int hex_digit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* string := '"' (char | '\' ('"' | '\' | 'n' | 't' | 'x' HEX HEX))* '"' */
static void lex_string(Parser *P, const char *start) {
    const char *end = P->file->text + P->file->length;
    const char *p = start + 1;
    size_t cap = 64, len = 0;
    char *buf = arena_alloc(P->scratch, cap);
    for (;;) {
        if (p >= end || *p == '\n')
            parse_error(P, span_at(P, start, start + 1), "unterminated string");
        int c = (unsigned char)*p;
        if (c == '"') {
            p++;
            break;
        }
        if (c == '\\') {
            int e = p + 1 < end ? (unsigned char)p[1] : 0;
            if (e == '"' || e == '\\') {
                c = e;
                p += 2;
            } else if (e == 'n') {
                c = '\n';
                p += 2;
            } else if (e == 't') {
                c = '\t';
                p += 2;
            } else if (e == 'x' && p + 3 < end && hex_digit(p[2]) >= 0 && hex_digit(p[3]) >= 0) {
                c = hex_digit(p[2]) * 16 + hex_digit(p[3]);
                p += 4;
            } else {
                parse_error(P, span_at(P, p, p + 2), "unknown escape in string");
            }
            if (c == 0)
                parse_error(P, span_at(P, p - 4, p), "NUL byte in string");
        } else {
            p++;
        }
        if (len + 1 >= cap) {
            char *grown = arena_alloc(P->scratch, cap * 2);
            memcpy(grown, buf, len);
            buf = grown;
            cap *= 2;
        }
        buf[len++] = (char)c;
    }
    buf[len] = '\0';
    P->tok.kind = TOK_STRING;
    P->tok.text = buf;
    P->tok.span = span_at(P, start, p);
    P->cur = p;
}

/* number := DIGITS ('.' DIGITS?)? (('e'|'E') ('+'|'-')? DIGITS)? */
static void lex_number(Parser *P, const char *start) {
    const char *p = start;
    bool is_float = false;
    while (is_digit(*p))
        p++;
    if (*p == '.') {
        is_float = true;
        p++;
        while (is_digit(*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (is_digit(*q)) {
            is_float = true;
            p = q;
            while (is_digit(*p))
                p++;
        }
    }
    if (is_ident_char(*p))
        parse_error(P, span_at(P, start, p + 1), "malformed number");
    P->tok.span = span_at(P, start, p);
    if (is_float) {
        char buf[128];
        size_t n = (size_t)(p - start);
        if (n >= sizeof buf)
            parse_error(P, P->tok.span, "number too long");
        memcpy(buf, start, n);
        buf[n] = '\0';
        P->tok.kind = TOK_FLOAT;
        P->tok.float_value = strtod(buf, NULL);
    } else {
        uint64_t v = 0;
        bool overflow = false;
        for (const char *q = start; q < p; q++) {
            unsigned d = (unsigned)(*q - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = true;
            v = v * 10 + d;
        }
        P->tok.kind = TOK_INT;
        P->tok.int_value = v;
        P->tok.int_overflow = overflow;
    }
    P->cur = p;
}

/* Reads the next token into P->tok; skips blanks and // comments. */
static void advance(Parser *P) {
    const char *end = P->file->text + P->file->length;
    const char *p = P->cur;
    for (;;) {
        if (p < end && *p == '\n') {
            p++;
            P->line++;
            P->line_start = p;
        } else if (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) {
            p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else {
            break;
        }
    }
    P->cur = p;
    memset(&P->tok, 0, sizeof P->tok);
    if (p >= end) {
        P->tok.kind = TOK_EOF;
        P->tok.span = span_at(P, p, p + 1);
        return;
    }
    int c = (unsigned char)*p;
    if (is_ident_start(c)) {
        const char *q = p;
        while (q < end && is_ident_char(*q))
            q++;
        P->tok.kind = TOK_IDENT;
        P->tok.text = intern(p, (size_t)(q - p));
        P->tok.span = span_at(P, p, q);
        P->cur = q;
    } else if (c == '%' && p + 1 < end && is_ident_char(p[1])) {
        const char *q = p + 1;
        while (q < end && is_ident_char(*q))
            q++;
        P->tok.kind = TOK_VALUE;
        P->tok.text = intern(p + 1, (size_t)(q - p - 1));
        P->tok.span = span_at(P, p, q);
        P->cur = q;
    } else if (is_digit(c)) {
        lex_number(P, p);
    } else if (c == '"') {
        lex_string(P, p);
    } else if (c != 0 && strchr("(){}[]<>,:=@-+*/%", c)) {
        P->tok.kind = TOK_PUNCT;
        P->tok.punct = (char)c;
        P->tok.span = span_at(P, p, p + 1);
        P->cur = p + 1;
    } else {
        Span at = span_at(P, p, p + 1);
        if (c >= 0x20 && c < 0x7f)
            parse_error(P, at, "unexpected character '%c'", c);
        parse_error(P, at, "unexpected byte 0x%02x", c);
    }
}

/* ---- token helpers ------------------------------------------------------- */

static void describe_token(const Token *t, char *buf, size_t size) {
    switch (t->kind) {
    case TOK_EOF: snprintf(buf, size, "end of file"); break;
    case TOK_IDENT: snprintf(buf, size, "'%s'", t->text); break;
    case TOK_VALUE: snprintf(buf, size, "'%%%s'", t->text); break;
    case TOK_INT: snprintf(buf, size, "a number"); break;
    case TOK_FLOAT: snprintf(buf, size, "a number"); break;
    case TOK_STRING: snprintf(buf, size, "a string"); break;
    case TOK_PUNCT: snprintf(buf, size, "'%c'", t->punct); break;
    }
}

static _Noreturn void expected(Parser *P, const char *what) {
    char got[128];
    describe_token(&P->tok, got, sizeof got);
    parse_error(P, P->tok.span, "expected %s, found %s", what, got);
}

static bool is_punct(Parser *P, char c) { return P->tok.kind == TOK_PUNCT && P->tok.punct == c; }

static bool accept_punct(Parser *P, char c) {
    if (!is_punct(P, c))
        return false;
    advance(P);
    return true;
}

static void expect_punct(Parser *P, char c) {
    if (!accept_punct(P, c)) {
        char what[8] = {'\'', c, '\'', 0};
        expected(P, what);
    }
}

static bool is_keyword(Parser *P, const char *word) {
    return P->tok.kind == TOK_IDENT && strcmp(P->tok.text, word) == 0;
}

static bool accept_keyword(Parser *P, const char *word) {
    if (!is_keyword(P, word))
        return false;
    advance(P);
    return true;
}

static void expect_keyword(Parser *P, const char *word) {
    if (!accept_keyword(P, word)) {
        char what[64];
        snprintf(what, sizeof what, "'%s'", word);
        expected(P, what);
    }
}

static const char *expect_ident(Parser *P, const char *what) {
    if (P->tok.kind != TOK_IDENT)
        expected(P, what);
    const char *text = P->tok.text;
    advance(P);
    return text;
}

/* int := '-'? INT, within [min, max] */
static int64_t parse_int(Parser *P, int64_t min, int64_t max, const char *what) {
    Span start = P->tok.span;
    bool negative = accept_punct(P, '-');
    if (P->tok.kind != TOK_INT)
        expected(P, what);
    uint64_t magnitude = P->tok.int_value;
    Span at = start;
    at.end_col = P->tok.span.end_col;
    bool ok = !P->tok.int_overflow;
    int64_t value = 0;
    if (ok && negative) {
        if (magnitude <= (uint64_t)INT64_MAX)
            value = -(int64_t)magnitude;
        else if (magnitude == (uint64_t)INT64_MAX + 1)
            value = INT64_MIN;
        else
            ok = false;
    } else if (ok) {
        if (magnitude <= (uint64_t)INT64_MAX)
            value = (int64_t)magnitude;
        else
            ok = false;
    }
    if (!ok || value < min || value > max)
        parse_error(P, at, "%s out of range [%lld, %lld]", what, (long long)min, (long long)max);
    advance(P);
    return value;
}

/* float := '-'? (FLOAT | INT | 'inf' | 'nan') ; sets *is_float when written
   as a float (with '.', an exponent, inf or nan). */
static double parse_number(Parser *P, bool *is_float, int64_t *int_out, const char *what) {
    P->number_past_int64 = false;
    Span start = P->tok.span;
    bool negative = accept_punct(P, '-');
    double v;
    *is_float = true;
    if (P->tok.kind == TOK_FLOAT) {
        v = P->tok.float_value;
        advance(P);
    } else if (is_keyword(P, "inf")) {
        v = INFINITY;
        advance(P);
    } else if (is_keyword(P, "nan")) {
        v = NAN;
        advance(P);
    } else if (P->tok.kind == TOK_INT) {
        /* The magnitude is checked with its sign, so that INT64_MIN fits. */
        *is_float = false;
        if (negative) {
            uint64_t m = P->tok.int_value;
            if (P->tok.int_overflow || m > (uint64_t)INT64_MAX + 1)
                parse_error(P, start, "%s out of range", what);
            *int_out = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
        } else {
            /* up to 2^64 - 1 for a u64 constant, which the caller checks */
            if (P->tok.int_overflow)
                parse_error(P, start, "%s out of range", what);
            P->number_past_int64 = P->tok.int_value > (uint64_t)INT64_MAX;
            *int_out = (int64_t)P->tok.int_value;
        }
        advance(P);
        return (double)*int_out;
    } else {
        expected(P, what);
    }
    return negative ? -v : v;
}

/* ---- names --------------------------------------------------------------- */

static void names_reset(Parser *P) {
    P->names_capacity = 256;
    P->names_count = 0;
    P->names = ARENA_ARRAY(P->scratch, NameEntry *, P->names_capacity);
    P->scope_stack = (PtrVec){0};
}

static NameEntry *names_find(Parser *P, const char *name) {
    int mask = P->names_capacity - 1;
    for (int i = (int)(ir_hash_pointer(name) & (uint64_t)mask);; i = (i + 1) & mask) {
        NameEntry *e = P->names[i];
        if (!e || e->name == name)
            return e;
    }
}

static void names_insert(Parser *P, NameEntry *entry) {
    if ((P->names_count + 1) * 2 > P->names_capacity) {
        NameEntry **old = P->names;
        int old_capacity = P->names_capacity;
        P->names_capacity *= 2;
        P->names = ARENA_ARRAY(P->scratch, NameEntry *, P->names_capacity);
        for (int i = 0; i < old_capacity; i++)
            if (old[i]) {
                int mask = P->names_capacity - 1;
                int j = (int)(ir_hash_pointer(old[i]->name) & (uint64_t)mask);
                while (P->names[j])
                    j = (j + 1) & mask;
                P->names[j] = old[i];
            }
    }
    int mask = P->names_capacity - 1;
    int j = (int)(ir_hash_pointer(entry->name) & (uint64_t)mask);
    while (P->names[j])
        j = (j + 1) & mask;
    P->names[j] = entry;
    P->names_count++;
}

/* Names are unique in a kernel; a name goes out of sight when the block
   that defined it closes. */
static void define_value(Parser *P, const Token *name_tok, IrValue *value) {
    NameEntry *old = names_find(P, name_tok->text);
    if (old) {
        diag_error(name_tok->span, "redefinition of '%%%s'", name_tok->text);
        diag_note(old->span, "previous definition of '%%%s' is here", old->name);
        parse_fail(P);
    }
    NameEntry *entry = ARENA_NEW(P->scratch, NameEntry);
    entry->name = name_tok->text;
    entry->value = value;
    entry->span = name_tok->span;
    entry->visible = true;
    names_insert(P, entry);
    ptrvec_push(P->scratch, &P->scope_stack, entry);
}

static int scope_open(Parser *P) { return P->scope_stack.len; }

static void scope_close(Parser *P, int mark) {
    for (int i = mark; i < P->scope_stack.len; i++)
        ((NameEntry *)P->scope_stack.items[i])->visible = false;
    P->scope_stack.len = mark;
}

/* operand := VALUE, defined earlier in this block or an enclosing one */
static IrValue *parse_operand(Parser *P) {
    if (P->tok.kind != TOK_VALUE)
        expected(P, "a %value");
    NameEntry *e = names_find(P, P->tok.text);
    if (!e)
        parse_error(P, P->tok.span, "use of undefined value '%%%s'", P->tok.text);
    if (!e->visible) {
        diag_error(P->tok.span, "'%%%s' is not visible here: it is defined in a block that has closed",
                   P->tok.text);
        diag_note(e->span, "'%%%s' is defined here", e->name);
        parse_fail(P);
    }
    advance(P);
    return e->value;
}

/* ---- types ---------------------------------------------------------------- */

static DType parse_dtype(Parser *P) {
    if (P->tok.kind != TOK_IDENT)
        expected(P, "a dtype");
    DType dtype;
    if (!dtype_from_name(P->tok.text, &dtype))
        parse_error(P, P->tok.span, "unknown dtype '%s'", P->tok.text);
    advance(P);
    return dtype;
}

/* dims := '[' (dim (',' dim)*)? ']' ; dim := INT | IDENT */
static void parse_dims(Parser *P, IrType *type) {
    expect_punct(P, '[');
    if (accept_punct(P, ']'))
        return;
    do {
        if (type->rank == IR_MAX_RANK)
            parse_error(P, P->tok.span, "rank exceeds %d", IR_MAX_RANK);
        IrDim *dim = &type->dims[type->rank++];
        if (P->tok.kind == TOK_IDENT) {
            dim->sym = P->tok.text;
            advance(P);
        } else {
            dim->size = parse_int(P, 0, INT64_MAX, "a dimension");
        }
    } while (accept_punct(P, ','));
    expect_punct(P, ']');
}

/* type := DTYPE
         | 'tile' '<' DTYPE dims '>'
         | 'ref' '<' DTYPE dims '@' ('global' | 'shared') ('in' | 'out' | 'inout') '>' */
static IrType parse_type(Parser *P) {
    IrType type;
    memset(&type, 0, sizeof type);
    if (accept_keyword(P, "tile")) {
        type.kind = IRT_TILE;
        expect_punct(P, '<');
        type.dtype = parse_dtype(P);
        parse_dims(P, &type);
        expect_punct(P, '>');
    } else if (accept_keyword(P, "ref")) {
        type.kind = IRT_REF;
        expect_punct(P, '<');
        type.dtype = parse_dtype(P);
        parse_dims(P, &type);
        expect_punct(P, '@');
        if (accept_keyword(P, "global"))
            type.space = SPACE_GLOBAL;
        else if (accept_keyword(P, "shared"))
            type.space = SPACE_SHARED;
        else
            expected(P, "'global' or 'shared'");
        if (accept_keyword(P, "in"))
            type.access = ACCESS_IN;
        else if (accept_keyword(P, "out"))
            type.access = ACCESS_OUT;
        else if (accept_keyword(P, "inout"))
            type.access = ACCESS_INOUT;
        else
            expected(P, "'in', 'out' or 'inout'");
        expect_punct(P, '>');
    } else if (P->tok.kind == TOK_IDENT) {
        type.kind = IRT_TILE;
        type.dtype = parse_dtype(P);
    } else {
        expected(P, "a type");
    }
    return type;
}

static void format_type(const IrType *type, char *buf, size_t size) { ir_type_format(type, buf, size); }

/* ---- grid expressions ---------------------------------------------------- */

static GridExpr *grid_new(Parser *P, GridExprKind kind, GridExpr *lhs, GridExpr *rhs) {
    GridExpr *e = ARENA_NEW(&P->kernel->arena, GridExpr);
    e->kind = kind;
    e->lhs = lhs;
    e->rhs = rhs;
    return e;
}

static GridExpr *parse_grid_expr(Parser *P);

/* grid_atom := '-'? INT | IDENT | ('cdiv' | 'min' | 'max') '(' grid_expr ',' grid_expr ')'
              | 'resident_blocks' '(' ')' | '(' grid_expr ')' */
static GridExpr *parse_grid_atom(Parser *P) {
    if (P->tok.kind == TOK_INT || is_punct(P, '-')) {
        GridExpr *e = grid_new(P, GRID_CONST, NULL, NULL);
        e->value = parse_int(P, INT64_MIN, INT64_MAX, "a grid constant");
        return e;
    }
    if (accept_punct(P, '(')) {
        GridExpr *e = parse_grid_expr(P);
        expect_punct(P, ')');
        return e;
    }
    if (P->tok.kind != TOK_IDENT)
        expected(P, "a grid expression");
    const char *name = P->tok.text;
    advance(P);
    GridExprKind call = GRID_CONST;
    if (strcmp(name, "resident_blocks") == 0 && accept_punct(P, '(')) {
        expect_punct(P, ')');
        return grid_new(P, GRID_RESIDENT, NULL, NULL);
    }
    if (strcmp(name, "cdiv") == 0)
        call = GRID_CDIV;
    else if (strcmp(name, "min") == 0)
        call = GRID_MIN;
    else if (strcmp(name, "max") == 0)
        call = GRID_MAX;
    if (call != GRID_CONST && is_punct(P, '(')) {
        advance(P);
        GridExpr *lhs = parse_grid_expr(P);
        expect_punct(P, ',');
        GridExpr *rhs = parse_grid_expr(P);
        expect_punct(P, ')');
        return grid_new(P, call, lhs, rhs);
    }
    GridExpr *e = grid_new(P, GRID_SIZE, NULL, NULL);
    e->size = name;
    return e;
}

/* grid_term := grid_atom (('*' | '/' | '%') grid_atom)* */
static GridExpr *parse_grid_term(Parser *P) {
    GridExpr *e = parse_grid_atom(P);
    for (;;) {
        GridExprKind kind;
        if (accept_punct(P, '*'))
            kind = GRID_MUL;
        else if (accept_punct(P, '/'))
            kind = GRID_DIV;
        else if (accept_punct(P, '%'))
            kind = GRID_REM;
        else
            return e;
        e = grid_new(P, kind, e, parse_grid_atom(P));
    }
}

/* grid_expr := grid_term (('+' | '-') grid_term)* */
static GridExpr *parse_grid_expr(Parser *P) {
    if (++P->depth > PARSE_MAX_DEPTH)
        parse_error(P, P->tok.span, "grid expression nested too deeply");
    GridExpr *e = parse_grid_term(P);
    for (;;) {
        GridExprKind kind;
        if (accept_punct(P, '+'))
            kind = GRID_ADD;
        else if (accept_punct(P, '-'))
            kind = GRID_SUB;
        else
            break;
        e = grid_new(P, kind, e, parse_grid_term(P));
    }
    P->depth--;
    return e;
}

/* ---- ops ------------------------------------------------------------------ */

/* loc := 'loc' '(' INT ':' INT ':' INT ')' ; optional, 0:0:0 when left out */
static Span parse_loc(Parser *P) {
    Span loc = {0, 0, 0};
    if (!accept_keyword(P, "loc"))
        return loc;
    expect_punct(P, '(');
    loc.line = (int)parse_int(P, 0, INT32_MAX, "a line number");
    expect_punct(P, ':');
    loc.col = (int)parse_int(P, 0, INT32_MAX, "a column");
    expect_punct(P, ':');
    loc.end_col = (int)parse_int(P, 0, INT32_MAX, "a column");
    expect_punct(P, ')');
    return loc;
}

/* What the text in front of an opcode gave: the result names. */
typedef struct OpHead {
    Token results[64];
    int num_results;
    Token opcode_tok;
    IrOpcode opcode;
    Span span;              /* from the first result to the opcode */
} OpHead;

static void check_result_count(Parser *P, const OpHead *head, int want_min, int want_max) {
    if (head->num_results >= want_min && head->num_results <= want_max)
        return;
    const char *name = ir_opcode_name(head->opcode);
    if (want_min == want_max)
        parse_error(P, head->span, "'%s' defines %d value%s, but %d name%s given", name, want_min,
                    want_min == 1 ? "" : "s", head->num_results,
                    head->num_results == 1 ? " is" : "s are");
    parse_error(P, head->span, "'%s' defines %d to %d values, but %d names are given", name,
                want_min, want_max, head->num_results);
}

/* operands := operand (',' operand)* ; may be empty when no %value follows
   on the line `line` (that of the opcode): a %value on a later line starts
   the next op, as in `yield` followed by `%3 = ...`. */
static int parse_operand_list(Parser *P, IrValue **out, int max, int line) {
    int n = 0;
    if (P->tok.kind != TOK_VALUE || P->tok.span.line != line)
        return 0;
    do {
        if (n == max)
            parse_error(P, P->tok.span, "too many operands");
        out[n++] = parse_operand(P);
    } while (accept_punct(P, ','));
    return n;
}

/* types := ':' type (',' type)* ; exactly `count` of them (none: no ':') */
static void parse_result_types(Parser *P, IrType *types, int count) {
    if (count == 0)
        return;
    expect_punct(P, ':');
    for (int i = 0; i < count; i++) {
        if (i > 0 && !accept_punct(P, ','))
            parse_error(P, P->tok.span, "expected %d result types, found %d", count, i);
        types[i] = parse_type(P);
    }
    if (is_punct(P, ','))
        parse_error(P, P->tok.span, "expected %d result type%s, found more", count, count == 1 ? "" : "s");
}

static IrOp *make_op(Parser *P, const OpHead *head, int num_operands, IrValue **operands,
                     const IrType *types) {
    IrOp *op = ir_op_new(P->kernel, head->opcode, (Span){0, 0, 0}, num_operands, head->num_results);
    for (int i = 0; i < num_operands; i++)
        op->operands[i] = operands[i];
    for (int i = 0; i < head->num_results; i++)
        ir_op_set_result_type(op, i, types[i]);
    return op;
}

static void define_results(Parser *P, const OpHead *head, IrOp *op) {
    for (int i = 0; i < head->num_results; i++)
        define_value(P, &head->results[i], op->results[i]);
}

static void parse_block_ops(Parser *P, IrBlock *block);

/* '{' op* '}' with the block's own scope (its args are defined by the caller
   after scope_open). */
static void parse_region(Parser *P, IrBlock *block) {
    if (++P->depth > PARSE_MAX_DEPTH)
        parse_error(P, P->tok.span, "blocks nested too deeply");
    expect_punct(P, '{');
    parse_block_ops(P, block);
    expect_punct(P, '}');
    P->depth--;
}

/* for := VALUES '=' 'for' VALUE '=' operand 'to' operand 'step' operand
          ('iter' '(' VALUE '=' operand (',' VALUE '=' operand)* ')')?
          (':' type (',' type)*)? '{' op* '}' loc */
static IrOp *parse_for(Parser *P, OpHead *head) {
    if (P->tok.kind != TOK_VALUE)
        expected(P, "the induction variable");
    Token iv_tok = P->tok;
    advance(P);
    expect_punct(P, '=');
    IrValue *operands[3 + 64];
    Token arg_toks[64];
    operands[0] = parse_operand(P);
    expect_keyword(P, "to");
    operands[1] = parse_operand(P);
    expect_keyword(P, "step");
    operands[2] = parse_operand(P);
    int carried = 0;
    Span init_spans[64];
    if (accept_keyword(P, "iter")) {
        expect_punct(P, '(');
        do {
            if (carried == 64)
                parse_error(P, P->tok.span, "too many loop-carried values");
            if (P->tok.kind != TOK_VALUE)
                expected(P, "a loop-carried %value");
            arg_toks[carried] = P->tok;
            advance(P);
            expect_punct(P, '=');
            init_spans[carried] = P->tok.span;
            operands[3 + carried] = parse_operand(P);
            carried++;
        } while (accept_punct(P, ','));
        expect_punct(P, ')');
    }
    /* until %arg: the carried bool that ends the loop before a trip */
    int until = 0;
    if (accept_keyword(P, "until")) {
        if (P->tok.kind != TOK_VALUE)
            expected(P, "a loop-carried %value");
        for (int i = 0; i < carried && !until; i++)
            if (arg_toks[i].text == P->tok.text)
                until = i + 1;
        if (!until)
            parse_error(P, P->tok.span, "'until' names one of the loop's iter values, not '%%%s'", P->tok.text);
        advance(P);
    }
    if (head->num_results != carried)
        parse_error(P, head->span, "'for' carries %d value%s, but %d result name%s given", carried,
                    carried == 1 ? "" : "s", head->num_results,
                    head->num_results == 1 ? " is" : "s are");
    IrType types[64 + 1];
    types[0] = ir_scalar_type(DT_I32);
    parse_result_types(P, types + 1, carried);
    for (int i = 0; i < carried; i++) {
        if (!ir_type_equal(&operands[3 + i]->type, &types[1 + i])) {
            char a[256], b[256];
            format_type(&operands[3 + i]->type, a, sizeof a);
            format_type(&types[1 + i], b, sizeof b);
            parse_error(P, init_spans[i], "type mismatch: initial value has type %s, but the loop carries %s", a, b);
        }
    }
    IrOp *op = make_op(P, head, 3 + carried, operands, types + 1);
    op->int_value = until;
    op->body = ir_block_new(P->kernel, 1 + carried, types);
    op->body->parent_op = op;
    int mark = scope_open(P);
    define_value(P, &iv_tok, op->body->args[0]);
    for (int i = 0; i < carried; i++)
        define_value(P, &arg_toks[i], op->body->args[1 + i]);
    parse_region(P, op->body);
    scope_close(P, mark);
    return op;
}

/* if := VALUES '=' 'if' operand (':' type (',' type)*)? '{' op* '}'
         ('else' '{' op* '}')? loc */
static IrOp *parse_if(Parser *P, OpHead *head) {
    IrValue *cond = parse_operand(P);
    IrType types[64];
    parse_result_types(P, types, head->num_results);
    IrOp *op = make_op(P, head, 1, &cond, types);
    op->body = ir_block_new(P->kernel, 0, NULL);
    op->body->parent_op = op;
    int mark = scope_open(P);
    parse_region(P, op->body);
    scope_close(P, mark);
    if (accept_keyword(P, "else")) {
        op->else_body = ir_block_new(P->kernel, 0, NULL);
        op->else_body->parent_op = op;
        mark = scope_open(P);
        parse_region(P, op->else_body);
        scope_close(P, mark);
    }
    return op;
}

/* const := VALUE '=' 'const' literal ':' type
   literal := '-'? (INT | FLOAT | 'inf' | 'nan') | 'true' | 'false'
   The literal is read as the result dtype says: a float dtype takes any
   number, an integer dtype an integer, bool true/false (or 0/1). */
static IrOp *parse_const(Parser *P, OpHead *head) {
    check_result_count(P, head, 1, 1);
    Token lit = P->tok;
    bool is_bool_word = is_keyword(P, "true") || is_keyword(P, "false");
    bool is_float = false;
    int64_t int_value = 0;
    double float_value = 0;
    if (is_bool_word) {
        int_value = is_keyword(P, "true");
        advance(P);
    } else {
        float_value = parse_number(P, &is_float, &int_value, "a constant");
    }
    bool past_int64 = P->number_past_int64;
    Span lit_span = lit.span;
    IrType type;
    parse_result_types(P, &type, 1);
    IrOp *op = make_op(P, head, 0, NULL, &type);
    if (dtype_is_float(type.dtype)) {
        if (is_bool_word)
            parse_error(P, lit_span, "a %s constant needs a number", dtype_name(type.dtype));
        op->float_value = float_value;
    } else if (type.dtype == DT_BOOL) {
        if (is_float)
            parse_error(P, lit_span, "a bool constant is true or false");
        op->int_value = int_value;
    } else {
        if (is_float || is_bool_word)
            parse_error(P, lit_span, "a %s constant needs an integer", dtype_name(type.dtype));
        if (past_int64 && type.dtype != DT_U64)
            parse_error(P, lit_span, "%s out of range", "a constant");
        op->int_value = int_value;
    }
    return op;
}

static IrCombine parse_combine(Parser *P) {
    if (accept_keyword(P, "add"))
        return COMBINE_ADD;
    if (accept_keyword(P, "max"))
        return COMBINE_MAX;
    if (accept_keyword(P, "min"))
        return COMBINE_MIN;
    if (accept_keyword(P, "mul"))
        return COMBINE_MUL;
    expected(P, "'add', 'max', 'min' or 'mul'");
}

/* view := VALUE '=' 'view' operand '[' vdim (',' vdim)* ']' ':' type
   vdim := ':' | operand | operand ':' '+' INT
   One vdim per dim of the source ref: ':' keeps the dim, `%o:+N` takes N
   elements from %o, `%i` takes one position and drops the dim. */
static IrOp *parse_view(Parser *P, OpHead *head) {
    check_result_count(P, head, 1, 1);
    Span ref_span = P->tok.span;
    IrValue *operands[1 + IR_MAX_RANK];
    operands[0] = parse_operand(P);
    int rank = operands[0]->type.rank;
    IrViewDim dims[IR_MAX_RANK];
    int n = 0, num_operands = 1;
    expect_punct(P, '[');
    if (!is_punct(P, ']')) {
        do {
            if (n == IR_MAX_RANK)
                parse_error(P, P->tok.span, "rank exceeds %d", IR_MAX_RANK);
            IrViewDim *d = &dims[n++];
            memset(d, 0, sizeof *d);
            if (accept_punct(P, ':')) {
                d->kind = VIEW_FULL;
                d->offset_operand = -1;
                continue;
            }
            d->offset_operand = num_operands;
            operands[num_operands++] = parse_operand(P);
            if (accept_punct(P, ':')) {
                expect_punct(P, '+');
                d->kind = VIEW_RANGE;
                d->size = parse_int(P, 0, INT64_MAX, "a view size");
            } else {
                d->kind = VIEW_INDEX;
            }
        } while (accept_punct(P, ','));
    }
    expect_punct(P, ']');
    if (n != rank)
        parse_error(P, ref_span, "view of a rank-%d value needs %d dims, found %d", rank, rank, n);
    IrType type;
    parse_result_types(P, &type, 1);
    IrOp *op = make_op(P, head, num_operands, operands, &type);
    if (n > 0) {
        op->view_dims = ARENA_ARRAY(&P->kernel->arena, IrViewDim, n);
        memcpy(op->view_dims, dims, sizeof(IrViewDim) * (size_t)n);
    }
    return op;
}

/* extract := VALUE '=' 'extract' operand '[' INT (',' INT)* ']' ':' type
   One start per dim of the operand; permute has the same form, one
   operand dim per result dim. */
static IrOp *parse_extract(Parser *P, OpHead *head) {
    check_result_count(P, head, 1, 1);
    Span src_span = P->tok.span;
    IrValue *src = parse_operand(P);
    int64_t starts[IR_MAX_RANK];
    int n = 0;
    expect_punct(P, '[');
    if (!is_punct(P, ']')) {
        do {
            if (n == IR_MAX_RANK)
                parse_error(P, P->tok.span, "rank exceeds %d", IR_MAX_RANK);
            starts[n++] = parse_int(P, INT64_MIN, INT64_MAX, "a start");
        } while (accept_punct(P, ','));
    }
    expect_punct(P, ']');
    if (n != src->type.rank && head->opcode == IR_PERMUTE)
        parse_error(P, src_span, "permute of a rank-%d value needs %d dims, found %d", src->type.rank,
                    src->type.rank, n);
    if (n != src->type.rank)
        parse_error(P, src_span, "extract from a rank-%d value needs %d starts, found %d",
                    src->type.rank, src->type.rank, n);
    IrType type;
    parse_result_types(P, &type, 1);
    IrOp *op = make_op(P, head, 1, &src, &type);
    if (n > 0) {
        op->starts = ARENA_ARRAY(&P->kernel->arena, int64_t, n);
        memcpy(op->starts, starts, sizeof(int64_t) * (size_t)n);
    }
    return op;
}

/* The optional ('mask' operand)? ('other' operand)? of a memory op (other
   only where `other_allowed`), then its result types: the op. */
static IrOp *finish_memory(Parser *P, OpHead *head, IrValue **operands, int n, bool other_allowed,
                           IrCombine combine) {
    bool has_mask = accept_keyword(P, "mask"), has_other = false;
    if (has_mask)
        operands[n++] = parse_operand(P);
    if (other_allowed && accept_keyword(P, "other")) {
        operands[n++] = parse_operand(P);
        has_other = true;
    }
    IrType type;
    parse_result_types(P, &type, head->num_results);
    IrOp *op = make_op(P, head, n, operands, &type);
    op->combine = combine;
    op->has_mask = has_mask;
    op->has_other = has_other;
    return op;
}

/* memory := VALUE '=' 'load' operand ('mask' operand)? ('other' operand)? ':' type
           | 'store' operand ',' operand ('mask' operand)?
           | (VALUE '=')? 'atomic' combine operand ',' operand ('mask' operand)? (':' type)? */
static IrOp *parse_memory(Parser *P, OpHead *head) {
    IrValue *operands[8];
    IrCombine combine = COMBINE_ADD;
    if (head->opcode == IR_LOAD) {
        check_result_count(P, head, 1, 1);
        operands[0] = parse_operand(P);
        return finish_memory(P, head, operands, 1, true, combine);
    }
    check_result_count(P, head, 0, head->opcode == IR_ATOMIC ? 1 : 0);
    if (head->opcode == IR_ATOMIC)
        combine = parse_combine(P);
    int n = parse_operand_list(P, operands, 2, head->opcode_tok.span.line);
    if (n != 2)
        expected(P, n == 0 ? "a ref operand" : "',' and the value to store");
    return finish_memory(P, head, operands, n, false, combine);
}

/* indexed := VALUE '=' 'gather' operand '[' operand (',' operand)* ']' ('mask' operand)? ('other' operand)? ':' type
            | 'scatter' operand '[' ... ']' ',' operand ('mask' operand)?
            | 'scatter_atomic' combine operand '[' ... ']' ',' operand ('mask' operand)?
   one index operand per dim of the ref */
static IrOp *parse_indexed(Parser *P, OpHead *head) {
    IrValue *operands[IR_MAX_RANK + 4];
    IrCombine combine = COMBINE_ADD;
    bool gather = head->opcode == IR_GATHER;
    check_result_count(P, head, gather ? 1 : 0, gather ? 1 : 0);
    if (head->opcode == IR_SCATTER_ATOMIC)
        combine = parse_combine(P);
    Span ref_span = P->tok.span;
    operands[0] = parse_operand(P);
    int rank = operands[0]->type.rank, n = 1;
    expect_punct(P, '[');
    do {
        if (n > IR_MAX_RANK)
            parse_error(P, P->tok.span, "more index operands than a ref has dims");
        operands[n++] = parse_operand(P);
    } while (accept_punct(P, ','));
    expect_punct(P, ']');
    if (n - 1 != rank)
        parse_error(P, ref_span, "%s of a rank-%d ref needs %d index operands, found %d", ir_opcode_name(head->opcode),
                    rank, rank, n - 1);
    if (!gather) {
        expect_punct(P, ',');
        operands[n++] = parse_operand(P);
    }
    return finish_memory(P, head, operands, n, gather, combine);
}

/* op := (VALUE (',' VALUE)* '=')? OPCODE body loc
   The generic body, for every opcode without a form of its own above:
       operands? (':' type)?     with one type per result */
static void parse_op(Parser *P, IrBlock *block) {
    OpHead head;
    head.num_results = 0;
    head.span = P->tok.span;
    if (P->tok.kind == TOK_VALUE) {
        do {
            if (P->tok.kind != TOK_VALUE)
                expected(P, "a result %value");
            if (head.num_results == 64)
                parse_error(P, P->tok.span, "too many results");
            head.results[head.num_results++] = P->tok;
            advance(P);
        } while (accept_punct(P, ','));
        expect_punct(P, '=');
    }
    if (P->tok.kind != TOK_IDENT)
        expected(P, "an opcode");
    head.opcode_tok = P->tok;
    if (!ir_opcode_from_name(P->tok.text, &head.opcode))
        parse_error(P, P->tok.span, "unknown opcode '%s'", P->tok.text);
    if (head.span.line == P->tok.span.line)
        head.span.end_col = P->tok.span.end_col;
    advance(P);

    IrOp *op;
    switch (head.opcode) {
    case IR_CONST:
        op = parse_const(P, &head);
        break;
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS: {
        check_result_count(P, &head, 1, 1);
        int axis = (int)parse_int(P, INT32_MIN, INT32_MAX, "an axis");
        IrType type;
        parse_result_types(P, &type, 1);
        op = make_op(P, &head, 0, NULL, &type);
        op->axis = axis;
        break;
    }
    case IR_REDUCE:
    case IR_SCAN:
    case IR_FLIP: {   /* [combine] operand 'axis' INT ':' type; flip has no combine */
        check_result_count(P, &head, 1, 1);
        IrCombine combine = head.opcode == IR_FLIP ? COMBINE_ADD : parse_combine(P);
        IrValue *src = parse_operand(P);
        expect_keyword(P, "axis");
        int axis = (int)parse_int(P, INT32_MIN, INT32_MAX, "an axis");
        IrType type;
        parse_result_types(P, &type, 1);
        op = make_op(P, &head, 1, &src, &type);
        op->combine = combine;
        op->axis = axis;
        break;
    }
    case IR_EXTRACT:
    case IR_PERMUTE:
        op = parse_extract(P, &head);
        break;
    case IR_VIEW:
        op = parse_view(P, &head);
        break;
    case IR_LOAD:
    case IR_STORE:
    case IR_ATOMIC:
        op = parse_memory(P, &head);
        break;
    case IR_GATHER:
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC:
        op = parse_indexed(P, &head);
        break;
    case IR_ASYNC_COPY: {
        check_result_count(P, &head, 0, 0);
        IrValue *operands[3];
        int n = parse_operand_list(P, operands, 2, head.opcode_tok.span.line);
        if (n != 2)
            expected(P, n == 0 ? "the shared ref to copy into" : "',' and the global ref to copy from");
        bool has_mask = accept_keyword(P, "mask");
        if (has_mask)
            operands[n++] = parse_operand(P);
        op = make_op(P, &head, n, operands, NULL);
        op->has_mask = has_mask;
        break;
    }
    case IR_PRINT:
    case IR_ASSERT: {
        /* print := 'print' STRING [operand] ; assert := 'assert' operand STRING */
        check_result_count(P, &head, 0, 0);
        IrValue *value = NULL;
        if (head.opcode == IR_ASSERT)
            value = parse_operand(P);
        if (P->tok.kind != TOK_STRING)
            expected(P, head.opcode == IR_PRINT ? "the label, a string" : "the message, a string");
        const char *text = arena_strdup(&P->kernel->arena, P->tok.text);
        advance(P);
        if (head.opcode == IR_PRINT && P->tok.kind == TOK_VALUE)
            value = parse_operand(P);
        op = make_op(P, &head, value ? 1 : 0, &value, NULL);
        op->text = text;
        break;
    }
    case IR_ASYNC_WAIT: {
        check_result_count(P, &head, 0, 0);
        int64_t pending = parse_int(P, 0, 64, "the number of groups that may stay pending (0..64)");
        op = make_op(P, &head, 0, NULL, NULL);
        op->int_value = pending;
        break;
    }
    case IR_FOR:
        op = parse_for(P, &head);
        break;
    case IR_IF:
        op = parse_if(P, &head);
        break;
    default: {
        bool has_result = head.opcode != IR_YIELD && head.opcode != IR_ASYNC_COMMIT;
        check_result_count(P, &head, has_result ? 1 : 0, has_result ? 1 : 0);
        bool fp8 = head.opcode == IR_DOT && accept_keyword(P, "fp8");   /* dot fp8 %a, %b */
        IrValue *operands[64];
        int n = parse_operand_list(P, operands, 64, head.opcode_tok.span.line);
        IrType type;
        parse_result_types(P, &type, head.num_results);
        op = make_op(P, &head, n, operands, &type);
        op->fp8 = fp8;
        break;
    }
    }
    op->loc = parse_loc(P);
    ir_block_append(block, op);
    define_results(P, &head, op);
    OpSpan *os = ARENA_NEW(P->scratch, OpSpan);
    os->op = op;
    os->span = head.span;
    ptrvec_push(P->scratch, &P->op_spans, os);
}

static void parse_block_ops(Parser *P, IrBlock *block) {
    while (!is_punct(P, '}')) {
        if (P->tok.kind == TOK_EOF)
            expected(P, "'}'");
        parse_op(P, block);
    }
}

/* ---- kernels ---------------------------------------------------------------- */

/* cparams := '<' IDENT '=' number (',' IDENT '=' number)* '>' */
static void parse_cparams(Parser *P) {
    IrCParam items[64];
    int n = 0;
    do {
        if (n == 64)
            parse_error(P, P->tok.span, "too many compile-time parameters");
        IrCParam *c = &items[n++];
        memset(c, 0, sizeof *c);
        c->name = expect_ident(P, "a compile-time parameter name");
        expect_punct(P, '=');
        Span value_span = P->tok.span;
        double v = parse_number(P, &c->is_float, &c->int_value, "a compile-time value");
        if (P->number_past_int64)
            parse_error(P, value_span, "%s out of range", "a compile-time value");
        if (c->is_float && !isfinite(v))
            parse_error(P, value_span, "a compile-time value must be a finite number");
        if (c->is_float)
            c->float_value = v;
    } while (accept_punct(P, ','));
    expect_punct(P, '>');
    P->kernel->num_cparams = n;
    P->kernel->cparams = ARENA_ARRAY(&P->kernel->arena, IrCParam, n);
    memcpy(P->kernel->cparams, items, sizeof(IrCParam) * (size_t)n);
}

/* param := VALUE ':' ('array' | 'scalar' | 'size') type
   A parameter keeps its name; it must not look like a number, which the
   printer gives to the other values. */
static void parse_params(Parser *P) {
    PtrVec params = {0};
    if (!is_punct(P, ')')) {
        do {
            if (P->tok.kind != TOK_VALUE)
                expected(P, "a parameter %name");
            Token name_tok = P->tok;
            if (!is_ident_start(name_tok.text[0]))
                parse_error(P, name_tok.span, "a parameter name must start with a letter or '_'");
            advance(P);
            expect_punct(P, ':');
            IrParam *param = ARENA_NEW(P->scratch, IrParam);
            param->name = name_tok.text;
            if (accept_keyword(P, "array"))
                param->kind = PARAM_ARRAY;
            else if (accept_keyword(P, "scalar"))
                param->kind = PARAM_SCALAR;
            else if (accept_keyword(P, "size"))
                param->kind = PARAM_SIZE;
            else
                expected(P, "'array', 'scalar' or 'size'");
            IrValue *value = ARENA_NEW(&P->kernel->arena, IrValue);
            value->type = parse_type(P);
            value->name = name_tok.text;
            param->value = value;
            if (param->kind == PARAM_ARRAY && accept_keyword(P, "strides")) {
                /* strides := 'strides' '[' (IDENT | INT) (',' (IDENT | INT))* ']', one per dim */
                Span at = P->tok.span;
                int rank = value->type.rank, n = 0;
                param->strides = ARENA_ARRAY(&P->kernel->arena, IrDim, rank + 1);
                expect_punct(P, '[');
                do {
                    if (n == rank)
                        parse_error(P, P->tok.span, "%s out of range", "a stride count");
                    if (P->tok.kind == TOK_IDENT) {
                        param->strides[n++] = (IrDim){.sym = P->tok.text};
                        advance(P);
                    } else {
                        param->strides[n++] = (IrDim){.size = parse_int(P, 0, INT64_MAX, "a stride")};
                    }
                } while (accept_punct(P, ','));
                expect_punct(P, ']');
                if (n != rank)
                    parse_error(P, at, "%s out of range", "a stride count");
            }
            define_value(P, &name_tok, value);
            ptrvec_push(P->scratch, &params, param);
        } while (accept_punct(P, ','));
    }
    P->kernel->num_params = params.len;
    P->kernel->params = ARENA_ARRAY(&P->kernel->arena, IrParam, params.len > 0 ? params.len : 1);
    for (int i = 0; i < params.len; i++)
        P->kernel->params[i] = *(IrParam *)params.items[i];
}

/* kernel := 'kernel' IDENT cparams? '(' (param (',' param)*)? ')'
             'grid' '(' (grid_expr (',' grid_expr)*)? ')'
             ('warps' INT)? ('stages' INT)? cover* loc '{' op* '}'
   cover := 'cover' '(' VALUE ',' INT ',' INT ')' */
static IrKernel *parse_kernel(Parser *P) {
    expect_keyword(P, "kernel");
    if (P->tok.kind != TOK_IDENT)
        expected(P, "a kernel name");
    Token name_tok = P->tok;
    advance(P);
    P->kernel = ir_kernel_new(name_tok.text, (Span){0, 0, 0});
    names_reset(P);
    P->op_spans = (PtrVec){0};
    if (accept_punct(P, '<'))
        parse_cparams(P);
    expect_punct(P, '(');
    parse_params(P);
    expect_punct(P, ')');
    expect_keyword(P, "grid");
    expect_punct(P, '(');
    if (!is_punct(P, ')')) {
        do {
            if (P->kernel->grid_rank == 3)
                parse_error(P, P->tok.span, "a grid has at most 3 dimensions");
            P->kernel->grid[P->kernel->grid_rank++] = parse_grid_expr(P);
        } while (accept_punct(P, ','));
    }
    expect_punct(P, ')');
    if (accept_keyword(P, "warps"))
        P->kernel->warps = (int)parse_int(P, 0, INT32_MAX, "a warp count");
    if (accept_keyword(P, "stages"))
        P->kernel->stages = (int)parse_int(P, 0, INT32_MAX, "a stage count");
    PtrVec covers = {0};
    while (accept_keyword(P, "cover")) {
        expect_punct(P, '(');
        if (P->tok.kind != TOK_VALUE)
            expected(P, "an array parameter %name");
        IrCover *c = ARENA_NEW(P->scratch, IrCover);
        c->param = -1;
        for (int i = 0; i < P->kernel->num_params; i++)
            if (strcmp(P->kernel->params[i].name, P->tok.text) == 0)
                c->param = i;
        if (c->param < 0)
            parse_error(P, P->tok.span, "'%%%s' is not a parameter of the kernel", P->tok.text);
        advance(P);
        expect_punct(P, ',');
        c->dim = (int)parse_int(P, 0, IR_MAX_RANK - 1, "a dim");
        expect_punct(P, ',');
        c->block = parse_int(P, 1, INT32_MAX, "a block size");
        expect_punct(P, ')');
        ptrvec_push(P->scratch, &covers, c);
    }
    P->kernel->num_covers = covers.len;
    P->kernel->covers = ARENA_ARRAY(&P->kernel->arena, IrCover, covers.len + 1);
    for (int i = 0; i < covers.len; i++)
        P->kernel->covers[i] = *(IrCover *)covers.items[i];
    P->kernel->loc = parse_loc(P);
    parse_region(P, P->kernel->body);

    char message[512];
    const IrOp *failed = NULL;
    if (!ir_verify_kernel_op(P->kernel, message, sizeof message, &failed)) {
        Span at = name_tok.span;
        for (int i = 0; failed && i < P->op_spans.len; i++) {
            const OpSpan *os = P->op_spans.items[i];
            if (os->op == failed)
                at = os->span;
        }
        parse_error(P, at, "%s", message);
    }
    IrKernel *kernel = P->kernel;
    P->kernel = NULL;
    return kernel;
}

/* module := 'module' STRING kernel* */
IrModule *ir_parse_module(Arena *arena, const SourceFile *file) {
    Arena scratch = {0};
    Parser parser;
    memset(&parser, 0, sizeof parser);
    Parser *P = &parser;
    P->file = file;
    P->cur = file->text;
    P->line_start = file->text;
    P->line = 1;
    P->scratch = &scratch;

    if (setjmp(P->fail)) {
        ir_kernel_free(P->kernel);
        for (int i = 0; i < P->kernels.len; i++)
            ir_kernel_free(P->kernels.items[i]);
        arena_free(&scratch);
        return NULL;
    }
    advance(P);
    expect_keyword(P, "module");
    if (P->tok.kind != TOK_STRING)
        expected(P, "the source file name as a string");
    IrModule *module = ARENA_NEW(arena, IrModule);
    module->source_name = arena_strdup(arena, P->tok.text);
    advance(P);
    while (P->tok.kind != TOK_EOF) {
        if (!is_keyword(P, "kernel"))
            expected(P, "'kernel' or end of file");
        IrKernel *kernel = parse_kernel(P);
        ptrvec_push(&scratch, &P->kernels, kernel);
    }
    for (int i = 0; i < P->kernels.len; i++)
        ptrvec_push(arena, &module->kernels, P->kernels.items[i]);
    arena_free(&scratch);
    return module;
}
