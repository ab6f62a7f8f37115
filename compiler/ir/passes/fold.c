/*
 * fold.c: canonicalization and constant folding.
 *
 * Requires: a verified kernel.
 * Preserves: verification, and the meaning of the kernel bit for bit except
 *   for the reciprocal rewrite below (documented, within 1 ulp). A
 *   value is only ever replaced by one of the same type, and an op folded
 *   to a constant keeps its result value (it becomes an IR_CONST in place),
 *   so uses need no rewriting.
 * Leaves behind: unused ops (DCE removes them).
 *
 * What it does, to a fixpoint:
 *   - elementwise ops and casts whose operands are all constants (splats)
 *     become constants, computed as the interpreter computes them: through
 *     numeric.h, the one home of the scalar semantics (integers wrap,
 *     integer / and % truncate toward zero, floats round to nearest even in
 *     their dtype, max/min propagate NaN, float -> int casts saturate and
 *     take NaN to 0);
 *   - it does NOT fold: division or remainder by zero (int: an error the
 *     interpreter reports at run time; float: the op stays, whatever the
 *     target does), and the transcendental ops (exp, log, sqrt, tanh, ...),
 *     whose results on the GPU are not correctly rounded and so differ from
 *     libm's;
 *   - cast, broadcast, reshape, transpose and extract of a constant give a
 *     constant; cast to the same dtype, broadcast/reshape to the same type
 *     and transpose of a transpose give their operand (a transpose to its
 *     own type does not: a square tile keeps its type but not its value);
 *     a reshape of a reshape is one reshape;
 *   - identities, only where IEEE makes them exact: x+0, x-0 (ints), x+(-0.0)
 *     and x-(+0.0) (floats: x+(+0.0) is not x when x is -0.0), x*1, x/1,
 *     int x*0 -> 0, int x-x -> 0, min/max/and/or of x with itself, x&&true,
 *     x&&false, x||false, x||true, not not x, neg neg x; constants move to
 *     the right of commutative ops so that CSE sees one form;
 *   - division by a broadcast value: div(x, broadcast(s)) becomes
 *     mul(x, broadcast(div(1, s))) for f32, f64 and bf16 (one division per
 *     element of s). This is the one rewrite that is NOT bit-exact: the
 *     result is within 1 ulp of the divided one while 2^-126 <= |s| <= 2^126
 *     (f32; docs/language.md). The interpreter runs the optimized IR, so it
 *     and the GPU compute the same thing;
 *   - select with a constant condition or two equal arms picks its arm; an
 *     `if` with a constant condition is replaced by the ops of the block it
 *     takes; a `for` that never iterates (a constant step <= 0, or constant
 *     bounds with lo >= hi) is replaced by its initial values.
 */
#include "ir.h"
#include "numeric.h"

#include <math.h>
#include <string.h>

/* ---- constants ----------------------------------------------------------- */

/* A constant operand, as the interpreter reads it (numeric.h). */
static bool get_lit(const IrValue *v, Scalar *out) {
    if (!v->def || v->def->opcode != IR_CONST || v->type.kind != IRT_TILE)
        return false;
    DType dtype = v->type.dtype;
    *out = dtype_is_float(dtype) ? numeric_float(dtype, v->def->float_value) : numeric_int(dtype, v->def->int_value);
    return true;
}

static bool lit_is(const Scalar *l, double value) {
    if (dtype_is_float(l->dtype))
        return l->f == value;
    return l->i == (int64_t)value;
}

/* ---- rewriting ----------------------------------------------------------- */

typedef struct Folder {
    IrKernel *kernel;
    bool changed;
} Folder;

/* Turns `op` into a constant in place: its result value stays, so its uses
   need no rewriting. */
static void make_const(Folder *F, IrOp *op, int64_t i, double f) {
    DType dtype = op->results[0]->type.dtype;
    op->opcode = IR_CONST;
    op->num_operands = 0;
    op->operands = NULL;
    op->int_value = dtype_is_float(dtype) ? 0 : numeric_wrap(dtype, i);
    op->float_value = dtype_is_float(dtype) ? numeric_round(dtype, f) : 0;
    op->axis = 0;
    op->combine = COMBINE_ADD;
    op->starts = NULL;
    op->view_dims = NULL;
    op->has_mask = op->has_other = false;
    F->changed = true;
}

/* Replaces every use of op's results by `values` and removes op. The uses
   are rewritten as the walk reaches them (fold_op), not here: one walk of
   the kernel per replacement made large kernels quadratic. */
static void replace_op(Folder *F, IrOp *op, IrValue **values) {
    for (int i = 0; i < op->num_results; i++)
        ir_forward(op->results[i], values[i]);
    ir_op_remove(op);
    F->changed = true;
}

static void replace_with(Folder *F, IrOp *op, IrValue *value) { replace_op(F, op, &value); }

/* ---- folding elementwise ops ----------------------------------------------- */

static bool is_const_value(const IrValue *v) { return v->def && v->def->opcode == IR_CONST; }

static bool is_commutative(IrOpcode opcode) {
    switch (opcode) {
    case IR_ADD: case IR_MUL: case IR_MIN: case IR_MAX: case IR_AND: case IR_OR: case IR_XOR:
    case IR_EQ: case IR_NE:
        return true;
    default:
        return false;
    }
}

static void make_scalar(Folder *F, IrOp *op, Scalar v) { make_const(F, op, v.i, v.f); }

/* Both operands constant: false when the result is not folded. The value
   is numeric.h's, the interpreter's; what is left alone is fold's choice:
   division and remainder by zero (an integer one is an error the
   interpreter reports at run time; a float one stays for the target), and
   pow, which is approximate on the GPU (as eval_unary's functions). */
static bool eval_binary(IrOpcode opcode, const Scalar *a, const Scalar *b, Scalar *out) {
    if ((opcode == IR_DIV || opcode == IR_REM) && dtype_is_float(a->dtype) && b->f == 0)
        return false;
    if (opcode == IR_POW)
        return false;
    return numeric_binary(opcode, *a, *b, out);
}

/* The math functions are not folded: the GPU's are approximate, libm's
   are not, so folding would change what a kernel computes on the GPU.
   Rounding to an integer (floor, ceil, trunc, round) is exact everywhere. */
static bool eval_unary(IrOpcode opcode, const Scalar *a, Scalar *out) {
    bool exact = opcode == IR_NEG || opcode == IR_ABS || opcode == IR_FLOOR || opcode == IR_CEIL ||
                 opcode == IR_TRUNC || opcode == IR_ROUND;
    if (dtype_is_float(a->dtype) && !exact)
        return false;
    return numeric_unary(opcode, *a, out);
}

/* div(x, broadcast(s)) -> mul(x, broadcast(div(1, s))) for f32, f64 and
   bf16: one division per element of s (a row value in softmax, layer norm)
   instead of one per element of x. The one rewrite here that is not exact:
   x * RN(1/s) is within 1 ulp of RN(x / s) while 1/s is a normal number
   (docs/language.md, "Division"). Not for f16, whose narrow range makes 1/s
   overflow for |s| < 2^-16 and lose bits for |s| > 2^14. A broadcast of a
   constant is a constant by now (fold_shape), so division by a constant
   stays a correctly rounded division. */
static bool reciprocal_of_broadcast(Folder *F, IrOp *op) {
    IrValue *x = op->operands[0], *y = op->operands[1];
    DType dtype = y->type.dtype;
    if (y->type.kind != IRT_TILE || !(dtype == DT_F32 || dtype == DT_F64 || dtype == DT_BF16))
        return false;
    IrOp *bcast = y->def;
    if (!bcast || bcast->opcode != IR_BROADCAST)
        return false;
    IrValue *s = bcast->operands[0];
    if (s->type.kind != IRT_TILE || is_const_value(s) || ir_type_elements(&s->type) >= ir_type_elements(&y->type))
        return false;
    IrOp *one = ir_op_new(F->kernel, IR_CONST, op->loc, 0, 1);
    one->float_value = 1.0;
    ir_op_set_result_type(one, 0, s->type);
    IrOp *recip = ir_op_new(F->kernel, IR_DIV, op->loc, 2, 1);
    recip->operands[0] = one->results[0];
    recip->operands[1] = s;
    ir_op_set_result_type(recip, 0, s->type);
    IrOp *nb = ir_op_new(F->kernel, IR_BROADCAST, op->loc, 1, 1);
    nb->operands[0] = recip->results[0];
    ir_op_set_result_type(nb, 0, y->type);
    ir_op_insert_before(op, one);
    ir_op_insert_before(op, recip);
    ir_op_insert_before(op, nb);
    op->opcode = IR_MUL;
    op->operands[0] = x;
    op->operands[1] = nb->results[0];
    F->changed = true;
    return true;
}

/* Rewrites of a binary op with at most one constant operand (on the right
   after canonicalization). */
static void simplify_binary(Folder *F, IrOp *op) {
    IrValue *x = op->operands[0], *y = op->operands[1];
    DType dtype = x->type.dtype;
    bool is_float = dtype_is_float(dtype);
    if (x == y) {
        switch (op->opcode) {
        case IR_MIN: case IR_MAX: case IR_AND: case IR_OR:
            replace_with(F, op, x);
            return;
        case IR_SUB:
        case IR_XOR:
            if (!is_float)
                make_const(F, op, 0, 0);
            return;
        default:
            break;
        }
    }
    if (op->opcode == IR_DIV && reciprocal_of_broadcast(F, op))
        return;
    Scalar c = {0};
    if (!get_lit(y, &c))
        return;
    switch (op->opcode) {
    case IR_ADD:
        if (is_float ? (c.f == 0 && signbit(c.f)) : c.i == 0)
            replace_with(F, op, x);
        break;
    case IR_SUB:
        if (is_float ? (c.f == 0 && !signbit(c.f)) : c.i == 0)
            replace_with(F, op, x);
        break;
    case IR_MUL:
        if (lit_is(&c, 1))
            replace_with(F, op, x);
        else if (!is_float && c.i == 0)
            make_const(F, op, 0, 0);
        break;
    case IR_DIV:
        if (lit_is(&c, 1))
            replace_with(F, op, x);
        break;
    case IR_AND:   /* x & 0 = 0; a bool x & true = x (an integer's all-ones is -1 or the max) */
        if (c.i == 0)
            make_const(F, op, 0, 0);
        else if (dtype == DT_BOOL)
            replace_with(F, op, x);
        break;
    case IR_OR:    /* x | 0 = x; a bool x | true = true */
        if (c.i == 0)
            replace_with(F, op, x);
        else if (dtype == DT_BOOL)
            make_const(F, op, 1, 0);
        break;
    case IR_XOR:
    case IR_SHL:
    case IR_SHR:
        if (c.i == 0)
            replace_with(F, op, x);
        break;
    default:
        break;
    }
}

/* ---- dot accumulation ------------------------------------------------------ */

/* add(x, dot(a, b)) -> dot(a, b, x) when the dot has no other use: the
   product accumulates into x's registers instead of a second set that is
   added at the end (half the accumulator registers in a k loop, and the
   form a tensor-core mma takes). The op becomes the dot in place, so its
   result value and uses stay. For floats the sum is rounded in another
   order (x joins at the start, not the end), as in Triton and cuBLAS. */
static void fuse_dot_accumulator(Folder *F, IrOp *op) {
    for (int side = 0; side < 2; side++) {
        IrValue *d = op->operands[side], *x = op->operands[1 - side];
        IrOp *dot = d->def;
        if (!dot || dot->opcode != IR_DOT || dot->num_operands != 2 || dot->parent != op->parent ||
            !ir_type_equal(&d->type, &op->results[0]->type) || !ir_type_equal(&x->type, &d->type) ||
            ir_count_uses(F->kernel->body, d) != 1)
            continue;
        IrValue **operands = ARENA_ARRAY(&F->kernel->arena, IrValue *, 3);
        operands[0] = dot->operands[0];
        operands[1] = dot->operands[1];
        operands[2] = x;
        op->opcode = IR_DOT;
        op->fp8 = dot->fp8;
        op->operands = operands;
        op->num_operands = 3;
        op->loc = dot->loc;
        F->changed = true;
        return;
    }
}

static void fold_elementwise(Folder *F, IrOp *op) {
    Scalar a = {0}, b = {0}, r = {0};
    if (ir_opcode_is_elementwise_unary(op->opcode)) {
        IrValue *x = op->operands[0];
        if (get_lit(x, &a)) {
            if (eval_unary(op->opcode, &a, &r))
                make_scalar(F, op, r);
            return;
        }
        /* not not x, neg neg x */
        if ((op->opcode == IR_NOT || op->opcode == IR_NEG) && x->def && x->def->opcode == op->opcode)
            replace_with(F, op, x->def->operands[0]);
        return;
    }
    bool lhs_const = get_lit(op->operands[0], &a), rhs_const = get_lit(op->operands[1], &b);
    if (lhs_const && rhs_const) {
        if (eval_binary(op->opcode, &a, &b, &r))
            make_scalar(F, op, r);
        return;
    }
    if (lhs_const && is_commutative(op->opcode)) {
        IrValue *t = op->operands[0];
        op->operands[0] = op->operands[1];
        op->operands[1] = t;
        F->changed = true;
    }
    simplify_binary(F, op);
    if (op->opcode == IR_ADD)
        fuse_dot_accumulator(F, op);
}

/* ---- other ops ------------------------------------------------------------ */

static bool is_const(const IrValue *v) { return v->def && v->def->opcode == IR_CONST; }

static void fold_select(Folder *F, IrOp *op) {
    Scalar c = {0};
    if (op->operands[1] == op->operands[2])
        replace_with(F, op, op->operands[1]);
    else if (get_lit(op->operands[0], &c))
        replace_with(F, op, c.i ? op->operands[1] : op->operands[2]);
}

static void fold_cast(Folder *F, IrOp *op) {
    IrValue *x = op->operands[0];
    Scalar a = {0};
    if (ir_type_equal(&x->type, &op->results[0]->type))
        replace_with(F, op, x);
    else if (get_lit(x, &a))
        make_scalar(F, op, numeric_cast(a, op->results[0]->type.dtype));
}

/* broadcast, reshape, transpose, extract: a splat stays a splat. */
static void fold_shape(Folder *F, IrOp *op) {
    IrValue *x = op->operands[0];
    if (is_const(x)) {
        make_const(F, op, x->def->int_value, x->def->float_value);
        return;
    }
    /* A transpose of a square tile keeps the type but not the value. */
    if (op->opcode != IR_EXTRACT && op->opcode != IR_TRANSPOSE && op->opcode != IR_PERMUTE && op->opcode != IR_FLIP &&
        ir_type_equal(&x->type, &op->results[0]->type)) {
        replace_with(F, op, x);
        return;
    }
    /* Reshapes keep the element order, so a chain of them is one. */
    if (op->opcode == IR_RESHAPE && x->def && x->def->opcode == IR_RESHAPE) {
        op->operands[0] = x->def->operands[0];
        F->changed = true;
        return;
    }
    if (op->opcode == IR_TRANSPOSE && x->def && x->def->opcode == IR_TRANSPOSE)
        replace_with(F, op, x->def->operands[0]);
    else if (op->opcode == IR_FLIP && x->def && x->def->opcode == IR_FLIP && x->def->axis == op->axis)
        replace_with(F, op, x->def->operands[0]);
    else if (op->opcode == IR_FLIP && x->type.dims[op->axis].size == 1)
        replace_with(F, op, x);
}

/* Moves the ops of `block` (all but its yield) in front of `op`, and
   replaces op's results with what the yield gave. */
static void inline_block(Folder *F, IrOp *op, IrBlock *block) {
    IrOp *yield = block ? block->last : NULL;
    while (block && block->first != yield) {
        IrOp *moved = block->first;
        ir_op_remove(moved);
        ir_op_insert_before(op, moved);
    }
    replace_op(F, op, yield ? yield->operands : NULL);
}

static void fold_if(Folder *F, IrOp *op) {
    Scalar c = {0};
    if (!get_lit(op->operands[0], &c))
        return;
    IrBlock *taken = c.i ? op->body : op->else_body;
    if (!taken && op->num_results > 0)
        return;
    inline_block(F, op, taken);
}

static void fold_for(Folder *F, IrOp *op) {
    Scalar lo = {0}, hi = {0}, step = {0};
    if (!get_lit(op->operands[2], &step))
        return;
    /* A step <= 0 runs nothing whatever the bounds (docs/language.md 6.6). */
    if (step.i <= 0 || (get_lit(op->operands[0], &lo) && get_lit(op->operands[1], &hi) && lo.i >= hi.i))
        replace_op(F, op, op->operands + 3);
}

static void fold_block(Folder *F, IrBlock *block);

static void fold_op(Folder *F, IrOp *op) {
    ir_resolve_operands(op);
    if (op->body)
        fold_block(F, op->body);
    if (op->else_body)
        fold_block(F, op->else_body);
    if (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode)) {
        fold_elementwise(F, op);
        return;
    }
    switch (op->opcode) {
    case IR_SELECT: fold_select(F, op); break;
    case IR_CAST: fold_cast(F, op); break;
    case IR_BROADCAST: case IR_RESHAPE: case IR_TRANSPOSE: case IR_EXTRACT: case IR_PERMUTE: case IR_FLIP: fold_shape(F, op); break;
    case IR_IF: fold_if(F, op); break;
    case IR_FOR: fold_for(F, op); break;
    default: break;
    }
}

static void fold_block(Folder *F, IrBlock *block) {
    IrOp *next;
    for (IrOp *op = block->first; op; op = next) {
        next = op->next;
        fold_op(F, op);
    }
}

/* Each round sees the constants the previous one made; the bound only
   guards against a rewrite cycle (there is none: every rewrite removes an
   op, makes a constant, or moves a constant to the right). */
void pass_fold(IrKernel *kernel) {
    Folder folder = {kernel, true};
    for (int round = 0; folder.changed && round < 64; round++) {
        folder.changed = false;
        fold_block(&folder, kernel->body);
    }
    ir_apply_forwards(kernel->body);
}
