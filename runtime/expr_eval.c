/*
 * expr_eval.c: evaluation of the manifest's expressions (grid dimensions,
 * contracts), on int64 with every overflow and division by zero an error.
 *
 * The one evaluator of grid arithmetic: libtessrt runs it on the trees
 * expr.c parses from a manifest, and the interpreter (compiler/interp/interp.c,
 * in tessc and libtessinterp) on the trees it builds from the IR's
 * GridExpr, so a grid means the same on every path. It depends on nothing
 * but expr.h, so it links into tessc and libtessinterp without libtessrt
 * (no cJSON, no CUDA, no pool).
 */
#include "expr.h"

#include <stdio.h>

bool tessrt_expr_eval(const TessrtExpr *e, const int64_t *sizes, int64_t *out, char *err,
                      size_t errsize) {
    int64_t a = 0, b = 0, r = 0;
    switch (e->kind) {
    case TX_CONST:
        *out = e->value;
        return true;
    case TX_SIZE:
        *out = sizes[e->size];
        return true;
    default:
        break;
    }
    if (!tessrt_expr_eval(e->lhs, sizes, &a, err, errsize))
        return false;
    if (e->rhs && !tessrt_expr_eval(e->rhs, sizes, &b, err, errsize))
        return false;
    bool overflow = false;
    switch (e->kind) {
    case TX_NEG:
        overflow = __builtin_sub_overflow((int64_t)0, a, &r);
        break;
    case TX_ADD:
        overflow = __builtin_add_overflow(a, b, &r);
        break;
    case TX_SUB:
        overflow = __builtin_sub_overflow(a, b, &r);
        break;
    case TX_MUL:
        overflow = __builtin_mul_overflow(a, b, &r);
        break;
    case TX_DIV:
    case TX_REM:
    case TX_CDIV:
        if (b == 0) {
            snprintf(err, errsize, "division by zero");
            return false;
        }
        if (a == INT64_MIN && b == -1) {
            overflow = true;
            break;
        }
        if (e->kind == TX_DIV)
            r = a / b;
        else if (e->kind == TX_REM)
            r = a % b;
        else {
            /* the exact ceiling of a / b; C division truncates toward zero */
            r = a / b;
            if (a % b != 0 && ((a < 0) == (b < 0)))
                r++;
        }
        break;
    case TX_MIN:
        r = a < b ? a : b;
        break;
    case TX_MAX:
        r = a > b ? a : b;
        break;
    default:
        snprintf(err, errsize, "bad expression node");
        return false;
    }
    if (overflow) {
        snprintf(err, errsize, "integer overflow");
        return false;
    }
    *out = r;
    return true;
}

bool tessrt_expr_compare(TessrtCompare op, int64_t lhs, int64_t rhs) {
    switch (op) {
    case TC_EQ: return lhs == rhs;
    case TC_NE: return lhs != rhs;
    case TC_LT: return lhs < rhs;
    case TC_LE: return lhs <= rhs;
    case TC_GT: return lhs > rhs;
    case TC_GE: return lhs >= rhs;
    }
    return false;
}
