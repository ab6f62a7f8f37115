/*
 * expr.c: the manifest's expression grammar (grid dimensions, contracts).
 *
 * In: a string such as "cdiv(N, 128)" or "N % 16 == 0" and a resolver that
 * maps names to size parameters. Out: a tree of TessrtExpr from the
 * manifest's pool, evaluated on int64 at each launch. Every error (syntax,
 * an unknown name, overflow, division by zero) is a message, never a crash.
 * The grammar is in internal.h and docs/manifest.md; it matches GridExpr in
 * compiler/ir/ir.h, which manifest.c prints.
 */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct ExprParser {
    TessrtPool *pool;
    const char *text;
    const char *p;
    TessrtExprResolve resolve;
    void *context;
    char *err;
    size_t errsize;
    bool failed;
    int depth;
} ExprParser;

static void expr_error(ExprParser *ps, const char *fmt, const char *arg) {
    if (ps->failed)
        return;
    ps->failed = true;
    char what[160];
    snprintf(what, sizeof what, fmt, arg);
    snprintf(ps->err, ps->errsize, "%s at column %d of '%s'", what, (int)(ps->p - ps->text) + 1,
             ps->text);
}

static void expr_skip_space(ExprParser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t')
        ps->p++;
}

static bool expr_accept(ExprParser *ps, const char *token) {
    expr_skip_space(ps);
    size_t n = strlen(token);
    if (strncmp(ps->p, token, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static TessrtExpr *expr_node(ExprParser *ps, TessrtExprKind kind, TessrtExpr *lhs, TessrtExpr *rhs) {
    TessrtExpr *e = tessrt_pool_alloc(ps->pool, sizeof *e);
    if (!e) {
        expr_error(ps, "%sout of memory", "");
        return NULL;
    }
    e->kind = kind;
    e->lhs = lhs;
    e->rhs = rhs;
    e->size = -1;
    return e;
}

static TessrtExpr *expr_parse_sum(ExprParser *ps);

/* primary := INT | NAME | ('cdiv' | 'min' | 'max') '(' expr ',' expr ')' | 'resident_blocks' '(' ')'
            | '(' expr ')' */
static TessrtExpr *expr_parse_primary(ExprParser *ps) {
    expr_skip_space(ps);
    if (isdigit((unsigned char)*ps->p)) {
        int64_t v = 0;
        while (isdigit((unsigned char)*ps->p)) {
            int d = *ps->p - '0';
            if (v > (INT64_MAX - d) / 10) {
                expr_error(ps, "%sinteger too large", "");
                return NULL;
            }
            v = v * 10 + d;
            ps->p++;
        }
        TessrtExpr *e = expr_node(ps, TX_CONST, NULL, NULL);
        if (e)
            e->value = v;
        return e;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        size_t n = (size_t)(ps->p - start);
        char *name = tessrt_pool_alloc(ps->pool, n + 1);   /* names have no length limit */
        if (!name) {
            expr_error(ps, "%sout of memory", "");
            return NULL;
        }
        memcpy(name, start, n);
        name[n] = '\0';
        TessrtExprKind kind = TX_SIZE;
        if (strcmp(name, "resident_blocks") == 0 && expr_accept(ps, "(")) {
            /* a persistent grid's block count (docs/manifest.md): a slot the
               resolver names, filled by the launch */
            if (!expr_accept(ps, ")")) {
                expr_error(ps, "%sexpected ')' after 'resident_blocks('", "");
                return NULL;
            }
            int index = ps->resolve ? ps->resolve(ps->context, "resident_blocks()") : -1;
            if (index < 0) {
                ps->p = start;
                expr_error(ps, "%s'resident_blocks()' is allowed only in a grid", "");
                return NULL;
            }
            TessrtExpr *e = expr_node(ps, TX_SIZE, NULL, NULL);
            if (e)
                e->size = index;
            return e;
        }
        if (strcmp(name, "cdiv") == 0)
            kind = TX_CDIV;
        else if (strcmp(name, "min") == 0)
            kind = TX_MIN;
        else if (strcmp(name, "max") == 0)
            kind = TX_MAX;
        if (kind != TX_SIZE) {
            if (!expr_accept(ps, "(")) {
                expr_error(ps, "expected '(' after '%s'", name);
                return NULL;
            }
            TessrtExpr *a = expr_parse_sum(ps);
            if (!a)
                return NULL;
            if (!expr_accept(ps, ",")) {
                expr_error(ps, "expected ',' in '%s(...)'", name);
                return NULL;
            }
            TessrtExpr *b = expr_parse_sum(ps);
            if (!b)
                return NULL;
            if (!expr_accept(ps, ")")) {
                expr_error(ps, "expected ')' to close '%s('", name);
                return NULL;
            }
            return expr_node(ps, kind, a, b);
        }
        int index = ps->resolve ? ps->resolve(ps->context, name) : -1;
        if (index < 0) {
            ps->p = start;
            expr_error(ps, "'%s' is not a size parameter", name);
            return NULL;
        }
        TessrtExpr *e = expr_node(ps, TX_SIZE, NULL, NULL);
        if (e)
            e->size = index;
        return e;
    }
    if (expr_accept(ps, "(")) {
        TessrtExpr *e = expr_parse_sum(ps);
        if (!e)
            return NULL;
        if (!expr_accept(ps, ")")) {
            expr_error(ps, "%sexpected ')'", "");
            return NULL;
        }
        return e;
    }
    if (*ps->p == '\0')
        expr_error(ps, "%sunexpected end of expression", "");
    else
        expr_error(ps, "%sexpected a number, a size name or '('", "");
    return NULL;
}

/* unary := '-' unary | primary */
static TessrtExpr *expr_parse_unary(ExprParser *ps) {
    if (++ps->depth > 200) {
        expr_error(ps, "%sexpression nested too deeply", "");
        return NULL;
    }
    TessrtExpr *e;
    if (expr_accept(ps, "-")) {
        TessrtExpr *operand = expr_parse_unary(ps);
        e = operand ? expr_node(ps, TX_NEG, operand, NULL) : NULL;
    } else {
        e = expr_parse_primary(ps);
    }
    ps->depth--;
    return e;
}

/* term := unary (('*' | '/' | '%') unary)* */
static TessrtExpr *expr_parse_term(ExprParser *ps) {
    TessrtExpr *e = expr_parse_unary(ps);
    while (e) {
        TessrtExprKind kind;
        if (expr_accept(ps, "*"))
            kind = TX_MUL;
        else if (expr_accept(ps, "/"))
            kind = TX_DIV;
        else if (expr_accept(ps, "%"))
            kind = TX_REM;
        else
            break;
        TessrtExpr *rhs = expr_parse_unary(ps);
        e = rhs ? expr_node(ps, kind, e, rhs) : NULL;
    }
    return e;
}

/* expr := term (('+' | '-') term)* */
static TessrtExpr *expr_parse_sum(ExprParser *ps) {
    if (++ps->depth > 200) {
        expr_error(ps, "%sexpression nested too deeply", "");
        return NULL;
    }
    TessrtExpr *e = expr_parse_term(ps);
    while (e) {
        TessrtExprKind kind;
        if (expr_accept(ps, "+"))
            kind = TX_ADD;
        else if (expr_accept(ps, "-"))
            kind = TX_SUB;
        else
            break;
        TessrtExpr *rhs = expr_parse_term(ps);
        e = rhs ? expr_node(ps, kind, e, rhs) : NULL;
    }
    ps->depth--;
    return e;
}

static void expr_parser_init(ExprParser *ps, TessrtPool *pool, const char *text,
                             TessrtExprResolve resolve, void *context, char *err, size_t errsize) {
    memset(ps, 0, sizeof *ps);
    ps->pool = pool;
    ps->text = text;
    ps->p = text;
    ps->resolve = resolve;
    ps->context = context;
    ps->err = err;
    ps->errsize = errsize;
}

bool tessrt_expr_parse(TessrtPool *pool, const char *text, TessrtExprResolve resolve,
                       void *context, TessrtExpr **out, char *err, size_t errsize) {
    ExprParser ps;
    expr_parser_init(&ps, pool, text, resolve, context, err, errsize);
    TessrtExpr *e = expr_parse_sum(&ps);
    expr_skip_space(&ps);
    if (e && *ps.p != '\0')
        expr_error(&ps, "unexpected '%.1s'", ps.p);
    if (ps.failed)
        return false;
    *out = e;
    return true;
}

bool tessrt_expr_parse_contract(TessrtPool *pool, const char *text, TessrtExprResolve resolve,
                                void *context, TessrtExpr **lhs, TessrtCompare *op,
                                TessrtExpr **rhs, char *err, size_t errsize) {
    ExprParser ps;
    expr_parser_init(&ps, pool, text, resolve, context, err, errsize);
    TessrtExpr *a = expr_parse_sum(&ps);
    if (!a)
        return false;
    static const struct {
        const char *token;
        TessrtCompare op;
    } ops[] = {{"==", TC_EQ}, {"!=", TC_NE}, {"<=", TC_LE}, {">=", TC_GE}, {"<", TC_LT}, {">", TC_GT}};
    bool found = false;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0] && !found; i++) {
        if (expr_accept(&ps, ops[i].token)) {
            *op = ops[i].op;
            found = true;
        }
    }
    if (!found) {
        expr_error(&ps, "%sexpected a comparison (==, !=, <, <=, >, >=)", "");
        return false;
    }
    TessrtExpr *b = expr_parse_sum(&ps);
    expr_skip_space(&ps);
    if (b && *ps.p != '\0')
        expr_error(&ps, "unexpected '%.1s'", ps.p);
    if (ps.failed)
        return false;
    *lhs = a;
    *rhs = b;
    return true;
}
