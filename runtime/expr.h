/*
 * expr.h: the tree of a manifest expression (a grid dimension, a side of a
 * contract) and its evaluator (expr_eval.c).
 *
 * Split from internal.h so that the interpreter (compiler/interp/interp.c, linked
 * into tessc and libtessinterp) evaluates grids with the runtime's code
 * without seeing the rest of libtessrt. Arithmetic is on int64; overflow and
 * division by zero are errors, never wrapped or trapped.
 */
#ifndef TESSRT_EXPR_H
#define TESSRT_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum TessrtExprKind {
    TX_CONST, TX_SIZE, TX_NEG,
    TX_ADD, TX_SUB, TX_MUL, TX_DIV, TX_REM, TX_CDIV, TX_MIN, TX_MAX,
} TessrtExprKind;

typedef struct TessrtExpr {
    TessrtExprKind kind;
    int64_t value;               /* TX_CONST */
    int size;                    /* TX_SIZE: index of the size among the kernel's params */
    struct TessrtExpr *lhs, *rhs;
} TessrtExpr;

typedef enum TessrtCompare { TC_EQ, TC_NE, TC_LT, TC_LE, TC_GT, TC_GE } TessrtCompare;

/* `sizes` is indexed by parameter index (TX_SIZE's `size`). False with a
   message ("integer overflow", "division by zero") in err. */
bool tessrt_expr_eval(const TessrtExpr *expr, const int64_t *sizes, int64_t *out, char *err,
                      size_t errsize);
bool tessrt_expr_compare(TessrtCompare op, int64_t lhs, int64_t rhs);

#endif
