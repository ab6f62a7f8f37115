/*
 * lower.c: the checked AST becomes tile IR.
 *
 * In: a Program that sema accepted (no errors). Out: one IrKernel per kernel.
 *
 * - Block specs become explicit code at the top of the body: the index map
 *   over program ids, then a view of each parameter.
 * - Weak values become constants of the dtype they meet; NumPy broadcasting
 *   becomes explicit reshape and broadcast ops, so every elementwise op in
 *   the IR has operands of one type.
 * - `var`s are SSA values: a loop carries the vars its body assigns (block
 *   arguments and yield), an `if` returns the vars either branch assigns.
 * - f16 and bf16 sums accumulate in f32 (cast, reduce, cast back).
 *
 * Sema has rejected everything that could go wrong, so a failure here is an
 * internal error.
 */
#include "ast.h"
#include "ir.h"
#include "numeric.h"

#include <string.h>

typedef struct Lower {
    Arena *arena;
    IrKernel *kernel;
    IrBlock *block;          /* where ops are appended */
    bool debug;              /* print and assert are kept (tessc -g) */
    /* the exit flags in scope (ast.h): an exit's guard tests these only */
    Symbol *loop_exit, *loop_skip, *return_flag;
    int depth;               /* the tile IR blocks around L->block */
    bool too_deep;           /* LOWER_MAX_DEPTH reported */
} Lower;

/* The tile IR reader's block depth (ir_parse.c), which every emitted
   kernel must keep to read back (--emit ir, the manifest's interp_tir).
   Source blocks are bounded to it by the parser; exits add levels: each
   guards what follows it in its block with an if, and a while's trips are
   an if in a for. */
enum { LOWER_MAX_DEPTH = 64 };

/* Enters a for or if block; false (reported once) past LOWER_MAX_DEPTH. */
static bool enter_block(Lower *L, Span loc) {
    if (++L->depth <= LOWER_MAX_DEPTH)
        return true;
    if (!L->too_deep)
        diag_error(loc, "blocks nest more than %d deep in the tile IR once this kernel's break, continue, return and "
                   "while are lowered (each exit puts what follows it in an if); use fewer exits in a block or fewer "
                   "nested loops", LOWER_MAX_DEPTH);
    L->too_deep = true;
    return false;
}

/* ---- types and emission -------------------------------------------------------- */

static IrType ir_type_of(const Type *t) {
    IrType r = {.kind = t->kind == TY_REF ? IRT_REF : IRT_TILE, .dtype = t->dtype, .rank = t->rank,
                .space = t->space, .access = t->access};
    for (int i = 0; i < t->rank; i++) {
        r.dims[i].size = t->dims[i].size;
        r.dims[i].sym = t->dims[i].sym ? t->dims[i].sym->name : NULL;
    }
    return r;
}

static IrValue *emit(Lower *L, IrOpcode opcode, Span loc, IrType type, int n, IrValue **operands) {
    IrOp *op = ir_op_new(L->kernel, opcode, loc, n, 1);
    for (int i = 0; i < n; i++)
        op->operands[i] = operands[i];
    ir_op_set_result_type(op, 0, type);
    ir_block_append(L->block, op);
    return op->results[0];
}

static IrOp *emit_op(Lower *L, IrOpcode opcode, Span loc, int n, IrValue **operands, int results) {
    IrOp *op = ir_op_new(L->kernel, opcode, loc, n, results);
    for (int i = 0; i < n; i++)
        op->operands[i] = operands[i];
    ir_block_append(L->block, op);
    return op;
}

static IrValue *emit_const(Lower *L, Span loc, IrType type, ConstValue v) {
    IrOp *op = ir_op_new(L->kernel, IR_CONST, loc, 0, 1);
    /* A compile-time value is an i64 or an f64 (docs/language.md 3.4); it
       becomes the dtype as a cast would make it. */
    Scalar weak = v.is_float ? numeric_float(DT_F64, v.f) : numeric_int(DT_I64, v.i);
    Scalar c = numeric_cast(weak, type.dtype);
    op->float_value = c.f;
    op->int_value = c.i;
    ir_op_set_result_type(op, 0, type);
    ir_block_append(L->block, op);
    return op->results[0];
}

static IrValue *emit_int(Lower *L, Span loc, int64_t v) {
    return emit_const(L, loc, ir_scalar_type(DT_I32), (ConstValue){.known = true, .i = v});
}

static IrValue *emit_binary(Lower *L, IrOpcode opcode, Span loc, IrValue *a, IrValue *b) {
    IrType t = a->type;
    if (ir_opcode_is_compare(opcode))
        t.dtype = DT_BOOL;
    return emit(L, opcode, loc, t, 2, (IrValue *[]){a, b});
}

/* Broadcasts `v` to the static shape of `to` (rank and dims): a reshape that
   prepends unit dims, then a broadcast. */
static IrValue *broadcast_to(Lower *L, IrValue *v, const IrType *to, Span loc) {
    IrType t = v->type;
    if (t.rank == to->rank) {
        bool same = true;
        for (int i = 0; i < t.rank; i++)
            same &= t.dims[i].size == to->dims[i].size;
        if (same)
            return v;
    }
    if (t.rank < to->rank) {
        IrType r = t;
        r.rank = to->rank;
        int pad = to->rank - t.rank;
        for (int i = 0; i < to->rank; i++)
            r.dims[i] = i < pad ? (IrDim){.size = 1} : t.dims[i - pad];
        v = emit(L, IR_RESHAPE, loc, r, 1, &v);
        t = r;
    }
    IrType r = t;
    bool same = true;
    for (int i = 0; i < r.rank; i++) {
        same &= r.dims[i].size == to->dims[i].size;
        r.dims[i] = to->dims[i];
    }
    return same ? v : emit(L, IR_BROADCAST, loc, r, 1, &v);
}

/* ---- expressions ------------------------------------------------------------------ */

static IrValue *lower_expr(Lower *L, Node *node);
static IrValue *lower_place(Lower *L, Node *node);

/* Lowers `node` as a value of `dtype`: a weak value becomes a constant of it. */
static IrValue *lower_as(Lower *L, Node *node, DType dtype) {
    if (node->type.weak) {
        if (!node->value.known)
            INTERNAL_ERROR("weak value without a compile-time value at %d:%d", node->span.line, node->span.col);
        IrType t = ir_type_of(&node->type);
        t.dtype = dtype;
        return emit_const(L, node->span, t, node->value);
    }
    IrValue *v = lower_expr(L, node);
    if (v->type.dtype != dtype)
        INTERNAL_ERROR("dtype %s where sema promised %s at %d:%d", dtype_name(v->type.dtype), dtype_name(dtype),
                       node->span.line, node->span.col);
    return v;
}

/* The dtype two operands meet at (sema has checked that they can). */
static DType meet_dtype(const Type *a, const Type *b) {
    if (a->weak && b->weak)
        return a->dtype == DT_F32 || b->dtype == DT_F32 ? DT_F32 : DT_I32;
    return a->weak ? b->dtype : a->dtype;
}

/* Both operands of an elementwise op, as `dtype`, broadcast to `shape`. */
static void lower_operands(Lower *L, Node *a, Node *b, DType dtype, const IrType *shape, IrValue **va,
                           IrValue **vb) {
    IrType t = *shape;
    t.dtype = dtype;
    *va = broadcast_to(L, lower_as(L, a, dtype), &t, a->span);
    *vb = broadcast_to(L, lower_as(L, b, dtype), &t, b->span);
}

static IrValue *lower_binary(Lower *L, Node *node) {
    DType dtype = meet_dtype(&node->lhs->type, &node->rhs->type);
    IrType shape = ir_type_of(&node->type);
    IrValue *a, *b;
    lower_operands(L, node->lhs, node->rhs, dtype, &shape, &a, &b);
    return emit_binary(L, sema_binary_opcode(node->op), node->span, a, b);
}

static IrValue *emit_cast(Lower *L, Span at, IrValue *v, DType to);
static IrValue *emit_reduce(Lower *L, Span loc, IrCombine combine, IrValue *v, int axis);

/* Element `index` (an integer scalar node) of `v` along dim `d`: the dim
   dropped. Indices compare as i64, so no wrap can make an outside index
   alias an inside one. */
static IrValue *pick_element(Lower *L, Span at, IrValue *v, int d, Node *index_node) {
    DType dtype = v->type.dtype;
    if (dtype == DT_BOOL)   /* picked as an i32, exactly */
        v = emit_cast(L, at, v, DT_I32);
    if (dtype_is_fp8(dtype)) {   /* picked as its bits: an infinity or a NaN stays what it is */
        IrType bits = v->type;
        bits.dtype = DT_U8;
        v = emit(L, IR_BITCAST, at, bits, 1, &v);
    }
    IrType full = v->type, wide = v->type;
    wide.dtype = DT_I64;
    int64_t n = full.dims[d].size;
    IrType line = ir_scalar_type(DT_I32);
    line.rank = 1;
    line.dims[0] = full.dims[d];
    IrValue *iota = emit_cast(L, at, emit(L, IR_IOTA, at, line, 0, NULL), DT_I64);
    IrType unit = wide;
    for (int k = 0; k < unit.rank; k++)
        if (k != d)
            unit.dims[k].size = 1;
    iota = broadcast_to(L, emit(L, IR_RESHAPE, at, unit, 1, &iota), &wide, at);
    IrValue *index = lower_expr(L, index_node);
    if (index->type.dtype != DT_I64)
        index = emit_cast(L, at, index, DT_I64);
    if (L->debug) {
        IrValue *lo = emit_binary(L, IR_GE, at, index, emit_const(L, at, ir_scalar_type(DT_I64), (ConstValue){.known = true}));
        IrValue *hi = emit_binary(L, IR_LT, at, index,
                                  emit_const(L, at, ir_scalar_type(DT_I64), (ConstValue){.known = true, .i = n}));
        IrOp *check = emit_op(L, IR_ASSERT, at, 1, (IrValue *[]){emit_binary(L, IR_AND, at, lo, hi)}, 0);
        check->text = arena_strdup(&L->kernel->arena, "tile index out of range");
    }
    IrValue *match = emit_binary(L, IR_EQ, at, iota, broadcast_to(L, index, &wide, at));
    ConstValue zero = dtype_is_float(full.dtype) ? (ConstValue){.known = true, .is_float = true, .f = -0.0}
                                                 : (ConstValue){.known = true};
    IrValue *rest = emit_const(L, at, full, zero);
    IrValue *picked = emit_reduce(L, at, COMBINE_ADD, emit(L, IR_SELECT, at, full, 3, (IrValue *[]){match, v, rest}), d);
    if (dtype_is_fp8(dtype)) {
        IrType t = picked->type;
        t.dtype = dtype;
        return emit(L, IR_BITCAST, at, t, 1, &picked);
    }
    if (picked->type.dtype != dtype)
        picked = emit_cast(L, at, picked, dtype);
    return picked;
}

/* t[items] on a tile: an extract of the selected ranges, then a reshape that
   adds None dims and drops indexed ones (a run-time index: pick_element). */
static IrValue *lower_tile_index(Lower *L, Node *node) {
    IrValue *v = lower_expr(L, node->lhs);
    const IrType src = v->type;
    int64_t starts[IR_MAX_RANK];
    IrType extracted = src;
    bool narrows = false;
    int used = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind != N_ELLIPSIS && item->kind != N_NONE)
            used++;
    }
    int dim = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_NONE)
            continue;
        if (item->kind == N_ELLIPSIS) {
            for (int k = 0; k < src.rank - used; k++, dim++)
                starts[dim] = 0;
            continue;
        }
        starts[dim] = item->slice_start;
        extracted.dims[dim].size = item->slice_stop - item->slice_start;
        narrows |= extracted.dims[dim].size != src.dims[dim].size;
        dim++;
    }
    for (; dim < src.rank; dim++)
        starts[dim] = 0;
    if (narrows) {
        IrOp *op = emit_op(L, IR_EXTRACT, node->span, 1, &v, 1);
        op->starts = ARENA_ARRAY(&L->kernel->arena, int64_t, src.rank);
        memcpy(op->starts, starts, sizeof(int64_t) * (size_t)src.rank);
        ir_op_set_result_type(op, 0, extracted);
        v = op->results[0];
    }
    /* Run-time indices, last dim first (so that the others keep their
       place): the element at i along the dim, as a sum of the dim with
       every other element replaced by the sum's identity (-0.0, which
       leaves any value as it is; 0 for integers). An index outside the dim
       reads that identity; with -g an assert says so. */
    int dims_of[IR_MAX_RANK], num_runtime = 0;
    Node *runtime[IR_MAX_RANK];
    dim = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_NONE)
            continue;
        if (item->kind == N_ELLIPSIS) {
            dim += src.rank - used;
            continue;
        }
        if (item->runtime_index) {
            dims_of[num_runtime] = dim;
            runtime[num_runtime++] = item;
        }
        dim++;
    }
    for (int k = num_runtime - 1; k >= 0; k--)
        v = pick_element(L, node->span, v, dims_of[k], runtime[k]);
    IrType result = ir_type_of(&node->type);
    if (result.rank != v->type.rank)
        v = emit(L, IR_RESHAPE, node->span, result, 1, &v);
    return v;
}

/* A reduction over one axis; f16 and bf16 sums accumulate in f32. */
static IrValue *emit_reduce(Lower *L, Span loc, IrCombine combine, IrValue *v, int axis) {
    IrType r = v->type;
    for (int i = axis; i + 1 < r.rank; i++)
        r.dims[i] = r.dims[i + 1];
    r.rank--;
    IrOp *op = emit_op(L, IR_REDUCE, loc, 1, &v, 1);
    op->combine = combine;
    op->axis = axis;
    ir_op_set_result_type(op, 0, r);
    return op->results[0];
}

static IrValue *lower_reduction(Lower *L, Node *node, IrCombine combine) {
    Node *arg = node->items.items[0];
    IrValue *v = lower_expr(L, arg);
    DType dtype = v->type.dtype;
    bool widen = combine == COMBINE_ADD && (dtype == DT_F16 || dtype == DT_BF16);
    if (widen) {
        IrType wide = v->type;
        wide.dtype = DT_F32;
        v = emit(L, IR_CAST, node->span, wide, 1, &v);
    }
    if (node->axis >= 0) {
        v = emit_reduce(L, node->span, combine, v, node->axis);
    } else {
        while (v->type.rank > 0)
            v = emit_reduce(L, node->span, combine, v, 0);
    }
    if (widen) {
        IrType narrow = v->type;
        narrow.dtype = dtype;
        v = emit(L, IR_CAST, node->span, narrow, 1, &v);
    }
    return v;
}

/* cumsum and the other scans: one scan op along the axis; f16 and bf16
   sums and products run in f32 and round once an element, as sum does. */
static IrValue *emit_flip(Lower *L, Span loc, IrValue *v, int axis) {
    IrOp *op = emit_op(L, IR_FLIP, loc, 1, &v, 1);
    op->axis = axis;
    ir_op_set_result_type(op, 0, v->type);
    return op->results[0];
}

/* A scan; reverse = true is the scan of the flipped tile, flipped back. */
static IrValue *lower_scan(Lower *L, Node *node, IrCombine combine) {
    IrValue *v = lower_expr(L, node->items.items[0]);
    if (node->reverse)
        v = emit_flip(L, node->span, v, node->axis);
    DType dtype = v->type.dtype;
    bool widen = (combine == COMBINE_ADD || combine == COMBINE_MUL) && (dtype == DT_F16 || dtype == DT_BF16);
    if (widen) {
        IrType wide = v->type;
        wide.dtype = DT_F32;
        v = emit(L, IR_CAST, node->span, wide, 1, &v);
    }
    IrOp *op = emit_op(L, IR_SCAN, node->span, 1, &v, 1);
    op->combine = combine;
    op->axis = node->axis;
    ir_op_set_result_type(op, 0, v->type);
    v = op->results[0];
    if (widen) {
        IrType narrow = v->type;
        narrow.dtype = dtype;
        v = emit(L, IR_CAST, node->span, narrow, 1, &v);
    }
    return node->reverse ? emit_flip(L, node->span, v, node->axis) : v;
}

/* `v` (a reduction's result) with a unit dim put back at `axis`, then
   broadcast to `full`: the value of each row (or column) at every element. */
static IrValue *expand_along(Lower *L, Span loc, IrValue *v, int axis, const IrType *full) {
    IrType t = *full;
    t.dtype = v->type.dtype;
    t.dims[axis].size = 1;
    IrValue *unit = emit(L, IR_RESHAPE, loc, t, 1, &v);
    t.dims[axis] = full->dims[axis];
    return emit(L, IR_BROADCAST, loc, t, 1, &unit);
}

/* argmax(x, axis = k) = min over k of where(x == max(x, axis = k), index, n)
   (argmin with min): the first index holding the extreme, with ops the
   backends already have. For floats a NaN is the extreme (max and min
   propagate it), so its element matches where the extreme is NaN. */
static IrValue *lower_arg_reduction(Lower *L, Node *node) {
    Span at = node->span;
    IrValue *x = lower_expr(L, node->items.items[0]);
    int axis = node->axis;
    IrType full = x->type;
    IrValue *extreme = emit_reduce(L, at, node->builtin == BI_ARGMAX ? COMBINE_MAX : COMBINE_MIN, x, axis);
    IrValue *spread = expand_along(L, at, extreme, axis, &full);
    IrValue *match = emit_binary(L, IR_EQ, at, x, spread);
    if (dtype_is_float(full.dtype)) {
        IrValue *nan_x = emit_binary(L, IR_NE, at, x, x), *nan_extreme = emit_binary(L, IR_NE, at, spread, spread);
        match = emit_binary(L, IR_OR, at, match, emit_binary(L, IR_AND, at, nan_x, nan_extreme));
    }
    int64_t n = full.dims[axis].size;
    IrType index_type = ir_scalar_type(DT_I32);
    index_type.rank = 1;
    index_type.dims[0] = full.dims[axis];
    IrValue *iota = emit(L, IR_IOTA, at, index_type, 0, NULL);
    IrType idx_full = full;
    idx_full.dtype = DT_I32;
    IrType unit = idx_full;
    for (int d = 0; d < unit.rank; d++)
        if (d != axis)
            unit.dims[d].size = 1;
    IrValue *index = emit(L, IR_BROADCAST, at, idx_full, 1, (IrValue *[]){emit(L, IR_RESHAPE, at, unit, 1, &iota)});
    IrValue *none = emit_const(L, at, idx_full, (ConstValue){.known = true, .i = n});
    IrValue *candidates = emit(L, IR_SELECT, at, idx_full, 3, (IrValue *[]){match, index, none});
    return emit_reduce(L, at, COMBINE_MIN, candidates, axis);
}

static Node *call_arg(Node *call, int index);

/* join(a, b) = where(k == 0, a[..., None], b[..., None]) over a new last
   dim k of 2 (broadcasts and a select, no data movement of its own);
   interleave(a, b) is join's [..., n, 2] read as [..., 2n] (a reshape). */
static IrValue *lower_join(Lower *L, Node *node, const IrType *type) {
    Span at = node->span;
    IrType part = *type;   /* a's (and b's) shape */
    if (node->builtin == BI_INTERLEAVE)
        part.dims[part.rank - 1].size /= 2;
    else
        part.rank--;
    IrType unit = part, pair = part;
    unit.dims[unit.rank++] = (IrDim){.size = 1};
    pair.dims[pair.rank++] = (IrDim){.size = 2};
    IrValue *halves[2];
    for (int k = 0; k < 2; k++) {
        IrValue *v = broadcast_to(L, lower_as(L, call_arg(node, k), type->dtype), &part, at);
        v = emit(L, IR_RESHAPE, at, unit, 1, &v);
        halves[k] = emit(L, IR_BROADCAST, at, pair, 1, &v);
    }
    IrType k_type = ir_scalar_type(DT_I32);
    k_type.rank = 1;
    k_type.dims[0] = (IrDim){.size = 2};
    IrValue *k = emit(L, IR_IOTA, at, k_type, 0, NULL);
    IrType k_full = pair;
    k_full.dtype = DT_I32;
    k = broadcast_to(L, k, &k_full, at);
    IrValue *zero = emit_const(L, at, k_full, (ConstValue){.known = true, .i = 0});
    IrValue *first = emit_binary(L, IR_EQ, at, k, zero);
    IrValue *joined = emit(L, IR_SELECT, at, pair, 3, (IrValue *[]){first, halves[0], halves[1]});
    return node->builtin == BI_JOIN ? joined : emit(L, IR_RESHAPE, at, *type, 1, &joined);
}

static Node *call_kwarg(Node *call, const char *name) {
    for (int i = 0; i < call->items.len; i++) {
        Node *arg = call->items.items[i];
        if (arg->kind == N_KWARG && strcmp(arg->name, name) == 0)
            return arg->lhs;
    }
    return NULL;
}

static Node *call_arg(Node *call, int index) {
    int n = 0;
    for (int i = 0; i < call->items.len; i++) {
        Node *arg = call->items.items[i];
        if (arg->kind != N_KWARG && n++ == index)
            return arg;
    }
    INTERNAL_ERROR("call %s lacks argument %d", call->name, index);
}

/* A bool mask broadcast to the shape of `like`. */
static IrValue *lower_mask(Lower *L, Node *mask, const IrType *like) {
    IrType t = *like;
    t.kind = IRT_TILE;
    t.dtype = DT_BOOL;
    return broadcast_to(L, lower_expr(L, mask), &t, mask->span);
}

static IrValue *emit_cast(Lower *L, Span at, IrValue *v, DType to);

/* A load or gather: `ops[0..n)` (the ref, a gather's indices), then the mask
   and `other` where given, broadcast to `tile`. */
static IrValue *emit_read(Lower *L, IrOpcode opcode, IrValue **ops, int n, const IrType *tile, Node *other,
                          Node *mask, Span loc) {
    if (mask)
        ops[n++] = lower_mask(L, mask, tile);
    if (other)
        ops[n++] = broadcast_to(L, lower_as(L, other, tile->dtype), tile, other->span);
    IrOp *op = emit_op(L, opcode, loc, n, ops, 1);
    op->has_mask = mask != NULL;
    op->has_other = other != NULL;
    ir_op_set_result_type(op, 0, *tile);
    return op->results[0];
}

/* ---- gathered places: r[index tiles] ----------------------------------------- */

/* The tile type of a gathered place (its shape: the indices broadcast). */
static IrType gather_tile_type(const Node *place) {
    IrType t = ir_type_of(place->loaded ? &place->place_type : &place->type);
    t.kind = IRT_TILE;
    return t;
}

/* The ref a gathered place indexes, and its index tiles as i32 of the
   place's shape, one per dim of the ref (operands 1.. of gather/scatter). */
static IrValue *lower_gather_operands(Lower *L, Node *place, IrValue **operands) {
    IrType shape = gather_tile_type(place);
    shape.dtype = DT_I32;
    operands[0] = lower_place(L, place->lhs);
    for (int d = 0; d < place->items.len; d++) {
        Node *item = place->items.items[d];
        IrValue *ix = lower_as(L, item, item->type.weak ? DT_I32 : item->type.dtype);
        if (ix->type.dtype != DT_I32)
            ix = emit_cast(L, item->span, ix, DT_I32);   /* i8, i16, u8, u16: exact */
        operands[1 + d] = broadcast_to(L, ix, &shape, item->span);
    }
    return operands[0];
}

static IrValue *lower_gather(Lower *L, Node *place, Node *other, Node *mask, Span loc) {
    IrType tile = gather_tile_type(place);
    IrValue *ops[IR_MAX_RANK + 3];
    lower_gather_operands(L, place, ops);
    return emit_read(L, IR_GATHER, ops, 1 + place->items.len, &tile, other, mask, loc);
}

/* store (or atomic) into a gathered place: scatter (scatter_atomic). */
static void lower_scatter(Lower *L, Node *place, IrValue *value_or_null, Node *value, Node *mask, IrOpcode opcode,
                          IrCombine combine, Span loc) {
    IrType tile = gather_tile_type(place);
    IrValue *ops[IR_MAX_RANK + 3];
    lower_gather_operands(L, place, ops);
    int n = 1 + place->items.len;
    ops[n++] = value_or_null ? value_or_null : broadcast_to(L, lower_as(L, value, tile.dtype), &tile, value->span);
    if (mask)
        ops[n++] = lower_mask(L, mask, &tile);
    IrOp *op = emit_op(L, opcode, loc, n, ops, 0);
    op->has_mask = mask != NULL;
    op->combine = combine;
}

static void lower_store(Lower *L, Node *call, IrOpcode opcode, IrCombine combine) {
    Node *place = call_arg(call, 0), *value = call_arg(call, 1), *mask = call_kwarg(call, "mask");
    if (place->gather) {
        lower_scatter(L, place, NULL, value, mask, opcode == IR_STORE ? IR_SCATTER : IR_SCATTER_ATOMIC, combine,
                      call->span);
        return;
    }
    IrValue *ref = lower_place(L, place);
    IrType tile = ref->type;
    tile.kind = IRT_TILE;
    IrValue *v = broadcast_to(L, lower_as(L, value, tile.dtype), &tile, value->span);
    IrValue *ops[3] = {ref, v, mask ? lower_mask(L, mask, &tile) : NULL};
    IrOp *op = emit_op(L, opcode, call->span, mask ? 3 : 2, ops, 0);
    op->has_mask = mask != NULL;
    op->combine = combine;
}

static IrValue *lower_load(Lower *L, IrValue *ref, Node *other, Node *mask, Span loc) {
    IrType tile = ref->type;
    tile.kind = IRT_TILE;
    IrValue *ops[3] = {ref};
    return emit_read(L, IR_LOAD, ops, 1, &tile, other, mask, loc);
}

/* A scalar constant of `like`'s type (dtype and shape), for the math
   functions written with other ops. */
static IrValue *const_like(Lower *L, Span loc, const IrType *like, double f, int64_t i) {
    bool is_float = dtype_is_float(like->dtype);
    return emit_const(L, loc, *like, (ConstValue){.known = true, .is_float = is_float, .i = i, .f = f});
}

/* isnan(x) = x != x; isinf(x) = abs(x) == inf; isfinite(x) = abs(x) < inf
   (false for NaN): exact on every target, no op of their own. */
static IrValue *lower_float_class(Lower *L, Node *node) {
    Node *arg = call_arg(node, 0);
    IrValue *x = lower_as(L, arg, arg->type.weak ? DT_F32 : arg->type.dtype);
    if (node->builtin == BI_ISNAN)
        return emit_binary(L, IR_NE, node->span, x, x);
    IrValue *a = emit(L, IR_ABS, node->span, x->type, 1, &x);
    IrValue *inf = const_like(L, node->span, &x->type, INFINITY, 0);
    return emit_binary(L, node->builtin == BI_ISINF ? IR_EQ : IR_LT, node->span, a, inf);
}

/* sign(x) = select(x > 0, 1, select(x < 0, -1, z)) with z = +0, or x for a
   NaN (select(x != x, x, 0)): numpy's sign. Unsigned: select(x > 0, 1, 0). */
static IrValue *lower_sign(Lower *L, Node *node, IrType type) {
    IrValue *x = lower_as(L, call_arg(node, 0), type.dtype);
    Span at = node->span;
    IrValue *zero = const_like(L, at, &type, 0.0, 0), *one = const_like(L, at, &type, 1.0, 1);
    IrValue *rest = zero;
    if (dtype_is_float(type.dtype))
        rest = emit(L, IR_SELECT, at, type, 3, (IrValue *[]){emit_binary(L, IR_NE, at, x, x), x, zero});
    if (dtype_is_float(type.dtype) || dtype_is_signed(type.dtype)) {
        IrValue *minus_one = const_like(L, at, &type, -1.0, -1);
        rest = emit(L, IR_SELECT, at, type, 3, (IrValue *[]){emit_binary(L, IR_LT, at, x, zero), minus_one, rest});
    }
    return emit(L, IR_SELECT, at, type, 3, (IrValue *[]){emit_binary(L, IR_GT, at, x, zero), one, rest});
}

/* ---- random numbers: Philox 4x32-10 ------------------------------------------ */

/* Written with the tile IR's integer ops, so that the interpreter and every
   target compute the same bits by construction (docs/language.md 9.13).
   The generator is Triton's (python/triton/language/random.py): the counter
   (offset, 0, 0, 0) as u32, the key (seed's low and high 32 bits, the seed
   sign-extended to 64 bits as Triton's seed.to(tl.uint64) does), ten rounds
   of Salmon et al.'s Philox-4x32 with its constants. */
enum {
    PHILOX_ROUNDS = 10,
};
static const int64_t PHILOX_KEY_A = 0x9E3779B9, PHILOX_KEY_B = 0xBB67AE85;
static const int64_t PHILOX_ROUND_A = 0xD2511F53, PHILOX_ROUND_B = 0xCD9E8D57;

static IrValue *emit_typed_const(Lower *L, Span at, IrType type, int64_t i, double f) {
    return emit_const(L, at, type, (ConstValue){.known = true, .is_float = dtype_is_float(type.dtype), .i = i, .f = f});
}

static IrValue *emit_cast(Lower *L, Span at, IrValue *v, DType to) {
    IrType t = v->type;
    t.dtype = to;
    return emit(L, IR_CAST, at, t, 1, &v);
}

/* The high 32 bits of the 64-bit product of u32 constant `a` and u32 `x`:
   both widened to i64 (exactly: u32 zero-extends), multiplied (the product
   is below 2^64, wrapped into i64's bits), shifted right by 32, narrowed. */
static IrValue *umulhi_const(Lower *L, Span at, int64_t a, IrValue *x) {
    IrValue *wide = emit_cast(L, at, x, DT_I64);
    IrValue *product = emit_binary(L, IR_MUL, at, emit_typed_const(L, at, wide->type, a, 0), wide);
    IrValue *high = emit_binary(L, IR_SHR, at, product, emit_typed_const(L, at, wide->type, 32, 0));
    return emit_cast(L, at, high, DT_U32);
}

/* A random u32 in [0, 2^32) to an f32 in [0, 1), as Triton's
   uint32_to_uniform_float: read as i32, negatives folded onto -x - 1,
   times 1/(2^31 - 1) rounded to f32 (4.6566127342e-10). */
static IrValue *uniform_of_bits(Lower *L, Span at, IrValue *bits) {
    IrValue *x = emit_cast(L, at, bits, DT_I32);
    IrValue *zero = emit_typed_const(L, at, x->type, 0, 0), *one = emit_typed_const(L, at, x->type, 1, 0);
    IrValue *folded = emit_binary(L, IR_SUB, at, emit_binary(L, IR_SUB, at, zero, x), one);
    IrValue *nonneg = emit(L, IR_SELECT, at, x->type, 3, (IrValue *[]){emit_binary(L, IR_LT, at, x, zero), folded, x});
    IrValue *f = emit_cast(L, at, nonneg, DT_F32);
    return emit_binary(L, IR_MUL, at, f, emit_typed_const(L, at, f->type, 0, 4.6566127342e-10));
}

static IrValue *lower_random(Lower *L, Node *node, IrType type) {
    Span at = node->span;
    Node *seed_node = call_arg(node, 0), *offsets_node = call_arg(node, 1);
    IrValue *seed = lower_as(L, seed_node, seed_node->type.weak ? DT_I64 : seed_node->type.dtype);
    IrValue *offsets = lower_expr(L, offsets_node);
    IrType u = offsets->type;
    u.dtype = DT_U32;
    /* the key: the seed's low 32 bits and, of the seed as an i64 (signed
       seeds sign-extend), the high 32 */
    IrValue *k0 = emit_cast(L, at, seed, DT_U32);
    IrValue *seed64 = emit_cast(L, at, seed, DT_I64);
    IrValue *k1 = emit_cast(L, at, emit_binary(L, IR_SHR, at, seed64, emit_typed_const(L, at, seed64->type, 32, 0)),
                            DT_U32);
    IrValue *c[4];
    c[0] = offsets->type.dtype == DT_U32 ? offsets : emit_cast(L, at, offsets, DT_U32);
    c[1] = c[2] = c[3] = emit_typed_const(L, at, u, 0, 0);
    for (int round = 0; round < PHILOX_ROUNDS; round++) {
        IrValue *key0 = broadcast_to(L, k0, &u, at), *key1 = broadcast_to(L, k1, &u, at);
        IrValue *n0 = emit_binary(L, IR_XOR, at, emit_binary(L, IR_XOR, at, umulhi_const(L, at, PHILOX_ROUND_B, c[2]), c[1]),
                                  key0);
        IrValue *n2 = emit_binary(L, IR_XOR, at, emit_binary(L, IR_XOR, at, umulhi_const(L, at, PHILOX_ROUND_A, c[0]), c[3]),
                                  key1);
        IrValue *n1 = emit_binary(L, IR_MUL, at, emit_typed_const(L, at, u, PHILOX_ROUND_B, 0), c[2]);
        IrValue *n3 = emit_binary(L, IR_MUL, at, emit_typed_const(L, at, u, PHILOX_ROUND_A, 0), c[0]);
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
        if (round + 1 < PHILOX_ROUNDS) {
            k0 = emit_binary(L, IR_ADD, at, k0, emit_typed_const(L, at, k0->type, PHILOX_KEY_A, 0));
            k1 = emit_binary(L, IR_ADD, at, k1, emit_typed_const(L, at, k1->type, PHILOX_KEY_B, 0));
        }
    }
    if (node->builtin == BI_RANDINT)
        return c[0];
    if (node->builtin == BI_RAND)
        return uniform_of_bits(L, at, c[0]);
    /* randn: Box-Muller on the first two outputs, as Triton's randn:
       sqrt(-2 log max(1e-7, u1)) cos(2 pi u2) */
    IrValue *u1 = uniform_of_bits(L, at, c[0]), *u2 = uniform_of_bits(L, at, c[1]);
    u1 = emit_binary(L, IR_MAX, at, emit_typed_const(L, at, u1->type, 0, 1.0e-7), u1);
    IrValue *theta = emit_binary(L, IR_MUL, at, emit_typed_const(L, at, u2->type, 0, 6.283185307179586), u2);
    IrValue *log_u1 = emit(L, IR_LOG, at, u1->type, 1, &u1);
    IrValue *r2 = emit_binary(L, IR_MUL, at, emit_typed_const(L, at, u1->type, 0, -2.0), log_u1);
    IrValue *r = emit(L, IR_SQRT, at, r2->type, 1, &r2);
    IrValue *cos_theta = emit(L, IR_COS, at, theta->type, 1, &theta);
    (void)type;
    return emit_binary(L, IR_MUL, at, r, cos_theta);
}

static IrValue *lower_call(Lower *L, Node *node) {
    IrType type = ir_type_of(&node->type);
    switch ((Builtin)node->builtin) {
    case BI_PROGRAM_ID:
    case BI_NUM_PROGRAMS: {
        IrOp *op = emit_op(L, node->builtin == BI_PROGRAM_ID ? IR_PROGRAM_ID : IR_NUM_PROGRAMS, node->span, 0,
                           NULL, 1);
        op->axis = node->axis;
        ir_op_set_result_type(op, 0, ir_scalar_type(DT_I32));
        return op->results[0];
    }
    case BI_IOTA: return emit(L, IR_IOTA, node->span, type, 0, NULL);
    case BI_ZEROS: return emit_const(L, node->span, type, (ConstValue){.known = true});
    case BI_FULL: {
        Node *value = call_arg(node, 1);
        if (value->value.known)
            return emit_const(L, node->span, type, value->value);
        return broadcast_to(L, lower_as(L, value, type.dtype), &type, node->span);
    }
    case BI_CDIV: {
        /* cdiv(a, b) = (a + b - 1) / b for the positive sizes it is meant for */
        IrValue *a, *b;
        lower_operands(L, call_arg(node, 0), call_arg(node, 1), type.dtype, &type, &a, &b);
        IrValue *one = broadcast_to(L, emit_const(L, node->span, ir_scalar_type(type.dtype),
                                                  (ConstValue){.known = true, .i = 1}), &type, node->span);
        IrValue *bm1 = emit_binary(L, IR_SUB, node->span, b, one);
        return emit_binary(L, IR_DIV, node->span, emit_binary(L, IR_ADD, node->span, a, bm1), b);
    }
    case BI_MIN:
    case BI_MAX: {
        Node *x = call_arg(node, 0), *y = call_arg(node, 1);
        IrValue *a, *b;
        lower_operands(L, x, y, meet_dtype(&x->type, &y->type), &type, &a, &b);
        return emit_binary(L, node->builtin == BI_MIN ? IR_MIN : IR_MAX, node->span, a, b);
    }
    case BI_SUM: return lower_reduction(L, node, COMBINE_ADD);
    case BI_ARGMAX: case BI_ARGMIN: return lower_arg_reduction(L, node);
    case BI_CUMSUM: return lower_scan(L, node, COMBINE_ADD);
    case BI_CUMPROD: return lower_scan(L, node, COMBINE_MUL);
    case BI_CUMMAX: return lower_scan(L, node, COMBINE_MAX);
    case BI_CUMMIN: return lower_scan(L, node, COMBINE_MIN);
    case BI_BROADCAST_TO: {
        IrValue *a = lower_as(L, call_arg(node, 0), type.dtype);
        return broadcast_to(L, a, &type, node->span);
    }
    case BI_EXPAND_DIMS:
    case BI_RESHAPE: {
        IrValue *a = lower_as(L, call_arg(node, 0), type.dtype);
        return emit(L, IR_RESHAPE, node->span, type, 1, &a);
    }
    case BI_PERMUTE: {
        IrValue *a = lower_as(L, call_arg(node, 0), type.dtype);
        Node *list = call_arg(node, 1);
        IrOp *op = emit_op(L, IR_PERMUTE, node->span, 1, &a, 1);
        ir_op_set_result_type(op, 0, type);
        op->starts = ARENA_ARRAY(&L->kernel->arena, int64_t, (size_t)list->items.len + 1);
        for (int i = 0; i < list->items.len; i++) {
            int64_t v = ((Node *)list->items.items[i])->value.i;
            op->starts[i] = v < 0 ? v + a->type.rank : v;
        }
        return op->results[0];
    }
    case BI_JOIN:
    case BI_INTERLEAVE: return lower_join(L, node, &type);
    case BI_FLIP: return emit_flip(L, node->span, lower_expr(L, call_arg(node, 0)), node->axis);
    case BI_REDUCE_MAX: return lower_reduction(L, node, COMBINE_MAX);
    case BI_REDUCE_MIN: return lower_reduction(L, node, COMBINE_MIN);
    case BI_WHERE: {
        Node *c = call_arg(node, 0), *x = call_arg(node, 1), *y = call_arg(node, 2);
        IrValue *a, *b;
        lower_operands(L, x, y, meet_dtype(&x->type, &y->type), &type, &a, &b);
        IrType bool_type = type;
        bool_type.dtype = DT_BOOL;
        IrValue *cond = broadcast_to(L, lower_expr(L, c), &bool_type, c->span);
        return emit(L, IR_SELECT, node->span, a->type, 3, (IrValue *[]){cond, a, b});
    }
    case BI_EXP: case BI_EXP2: case BI_EXP2_FTZ: case BI_LOG: case BI_LOG2: case BI_SQRT: case BI_RSQRT:
    case BI_ABS: case BI_TANH: case BI_SIGMOID: case BI_SIN: case BI_COS: case BI_ERF: case BI_FLOOR:
    case BI_CEIL: case BI_TRUNC: case BI_ROUND: {
        IrValue *a = lower_as(L, call_arg(node, 0), type.dtype);
        return emit(L, sema_math_opcode((Builtin)node->builtin), node->span, type, 1, &a);
    }
    case BI_POW: {
        IrValue *a, *b;
        lower_operands(L, call_arg(node, 0), call_arg(node, 1), type.dtype, &type, &a, &b);
        return emit_binary(L, IR_POW, node->span, a, b);
    }
    case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: return lower_float_class(L, node);
    case BI_CLAMP: {
        /* min(max(x, lo), hi), as docs/language.md 9.6 defines it */
        Node *x = call_arg(node, 0), *lo = call_arg(node, 1), *hi = call_arg(node, 2);
        IrType t = type;
        IrValue *vx = broadcast_to(L, lower_as(L, x, type.dtype), &t, x->span);
        IrValue *vl = broadcast_to(L, lower_as(L, lo, type.dtype), &t, lo->span);
        IrValue *vh = broadcast_to(L, lower_as(L, hi, type.dtype), &t, hi->span);
        return emit_binary(L, IR_MIN, node->span, emit_binary(L, IR_MAX, node->span, vx, vl), vh);
    }
    case BI_SIGN: return lower_sign(L, node, type);
    case BI_RAND: case BI_RANDINT: case BI_RANDN: return lower_random(L, node, type);
    case BI_BITCAST: {
        IrValue *a = lower_expr(L, call_arg(node, 0));
        return emit(L, IR_BITCAST, node->span, type, 1, &a);
    }
    case BI_DOT: {
        IrValue *a = lower_expr(L, call_arg(node, 0)), *b = lower_expr(L, call_arg(node, 1));
        /* fp8 through f16, which holds every e4m3 and e5m2 value exactly;
           the backend runs the dot on fp8 tensor cores where it can
           (docs/codegen.md, "fp8 tensor cores") */
        bool fp8 = dtype_is_fp8(a->type.dtype);
        if (fp8) {
            a = emit_cast(L, node->span, a, DT_F16);
            b = emit_cast(L, node->span, b, DT_F16);
        }
        IrValue *r = emit(L, IR_DOT, node->span, type, 2, (IrValue *[]){a, b});
        r->def->fp8 = fp8;   /* `dot fp8`: fp8 tensor cores may take it (a user's f16 casts may not) */
        return r;
    }
    case BI_ALLOC: return emit(L, IR_ALLOC, node->span, type, 0, NULL);
    case BI_LOAD:
        if (call_arg(node, 0)->gather)
            return lower_gather(L, call_arg(node, 0), call_kwarg(node, "other"), call_kwarg(node, "mask"),
                                node->span);
        return lower_load(L, lower_place(L, call_arg(node, 0)), call_kwarg(node, "other"),
                          call_kwarg(node, "mask"), node->span);
    case BI_STORE: lower_store(L, node, IR_STORE, COMBINE_ADD); return NULL;
    case BI_PRINT:
    case BI_ASSERT: {
        /* print("label" [, v]); assert(cond [, "message"]) */
        if (!L->debug)
            return NULL;
        bool is_print = node->builtin == BI_PRINT;
        Node *text = is_print ? call_arg(node, 0) : node->items.len > 1 ? call_arg(node, 1) : NULL;
        Node *arg = is_print ? (node->items.len > 1 ? call_arg(node, 1) : NULL) : call_arg(node, 0);
        IrValue *v = arg ? lower_as(L, arg, arg->type.dtype) : NULL;
        IrOp *op = emit_op(L, is_print ? IR_PRINT : IR_ASSERT, node->span, v ? 1 : 0, &v, 0);
        op->text = text ? text->name : "";
        return NULL;
    }
    case BI_ATOMIC_ADD: lower_store(L, node, IR_ATOMIC, COMBINE_ADD); return NULL;
    case BI_ATOMIC_MAX: lower_store(L, node, IR_ATOMIC, COMBINE_MAX); return NULL;
    case BI_ATOMIC_MIN: lower_store(L, node, IR_ATOMIC, COMBINE_MIN); return NULL;
    case BI_NONE:
    case BI_DS: break;
    }
    INTERNAL_ERROR("call %s in lowering", node->name);
}

/* A place: the ref that `node` designates, with a view op per indexing. */
static IrValue *lower_place(Lower *L, Node *node) {
    if (node->kind == N_NAME) {
        if (!node->sym || !node->sym->lowering)
            INTERNAL_ERROR("place '%s' has no value", node->name);
        return node->sym->lowering;
    }
    if (node->kind != N_INDEX)
        INTERNAL_ERROR("place of kind %s", ast_kind_name(node->kind));
    IrValue *base = lower_place(L, node->lhs);
    const IrType src = base->type;
    IrViewDim dims[IR_MAX_RANK];
    IrValue *offsets[IR_MAX_RANK + 1] = {base};
    int n = 1, dim = 0;
    bool all_full = true;
    int used = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind != N_ELLIPSIS && item->kind != N_NONE)
            used++;
    }
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_ELLIPSIS) {
            for (int k = 0; k < src.rank - used; k++)
                dims[dim++] = (IrViewDim){.kind = VIEW_FULL};
            continue;
        }
        if (item->kind == N_SLICE && !item->lhs && !item->rhs) {
            dims[dim++] = (IrViewDim){.kind = VIEW_FULL};
            continue;
        }
        all_full = false;
        if (item->kind == N_SLICE) {
            offsets[n] = emit_int(L, item->span, item->slice_start);
            dims[dim++] = (IrViewDim){.kind = VIEW_RANGE, .size = item->slice_stop - item->slice_start,
                                      .offset_operand = n};
            n++;
        } else if (item->kind == N_CALL && item->builtin == BI_DS) {
            offsets[n] = lower_as(L, item->items.items[0], DT_I32);
            dims[dim++] = (IrViewDim){.kind = VIEW_RANGE, .size = item->slice_stop, .offset_operand = n};
            n++;
        } else {
            offsets[n] = lower_as(L, item, DT_I32);
            dims[dim++] = (IrViewDim){.kind = VIEW_INDEX, .offset_operand = n};
            n++;
        }
    }
    for (; dim < src.rank; dim++)
        dims[dim] = (IrViewDim){.kind = VIEW_FULL};
    if (all_full)
        return base;
    IrOp *op = emit_op(L, IR_VIEW, node->span, n, offsets, 1);
    op->view_dims = ARENA_ARRAY(&L->kernel->arena, IrViewDim, src.rank);
    memcpy(op->view_dims, dims, sizeof(IrViewDim) * (size_t)src.rank);
    ir_op_set_result_type(op, 0, ir_type_of(node->loaded ? &node->place_type : &node->type));
    return op->results[0];
}

static IrValue *lower_expr(Lower *L, Node *node) {
    if (node->type.kind == TY_TILE && node->value.known)
        return emit_const(L, node->span, ir_type_of(&node->type), node->value);
    if (node->loaded && node->gather)
        return lower_gather(L, node, NULL, NULL, node->span);
    if (node->loaded)
        return lower_load(L, lower_place(L, node), NULL, NULL, node->span);
    switch (node->kind) {
    case N_NAME: {
        Symbol *sym = node->sym;
        if (!sym || !sym->lowering)
            INTERNAL_ERROR("name '%s' has no value", node->name);
        return sym->lowering;
    }
    case N_UNARY: {
        IrValue *a = lower_as(L, node->lhs, node->type.dtype);
        return emit(L, node->op == OP_NOT || node->op == OP_BNOT ? IR_NOT : IR_NEG, node->span, a->type, 1, &a);
    }
    case N_BINARY: return lower_binary(L, node);
    case N_CAST: {
        if (node->lhs->type.weak)
            return lower_as(L, node->lhs, node->dtype);
        IrValue *a = lower_expr(L, node->lhs);
        if (a->type.dtype == node->dtype)
            return a;
        IrType t = a->type;
        t.dtype = node->dtype;
        return emit(L, IR_CAST, node->span, t, 1, &a);
    }
    case N_CALL: return lower_call(L, node);
    case N_INDEX: return lower_tile_index(L, node);
    case N_TRANSPOSE: {
        IrValue *a = lower_expr(L, node->lhs);
        return emit(L, IR_TRANSPOSE, node->span, ir_type_of(&node->type), 1, &a);
    }
    default: break;
    }
    INTERNAL_ERROR("expression %s in lowering", ast_kind_name(node->kind));
}

/* ---- statements ------------------------------------------------------------------- */

static bool ptrvec_has(const PtrVec *v, const void *item) {
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == item)
            return true;
    return false;
}

static void note_assigned(Arena *arena, Symbol *sym, PtrVec *declared, PtrVec *assigned) {
    if (!ptrvec_has(declared, sym) && !ptrvec_has(assigned, sym))
        ptrvec_push(arena, assigned, sym);
}

/* The vars declared outside `body` that it assigns, in first-assignment
   order; an early exit assigns its flags, and a loop declares its own. */
static void collect_assigned(Arena *arena, Node *node, PtrVec *declared, PtrVec *assigned) {
    if (!node)
        return;
    switch (node->kind) {
    case N_VAR:
        ptrvec_push(arena, declared, node->sym);
        return;
    case N_ASSIGN:
        if (node->lhs->kind == N_NAME && node->lhs->sym && node->lhs->sym->kind == SYM_VAR)
            note_assigned(arena, node->lhs->sym, declared, assigned);
        return;
    case N_BREAK:
    case N_CONTINUE:
    case N_RETURN:
        for (int i = 0; i < node->flags.len; i++)
            note_assigned(arena, node->flags.items[i], declared, assigned);
        return;
    case N_FOR:
    case N_WHILE:
        if (node->exit_flag)
            ptrvec_push(arena, declared, node->exit_flag);
        if (node->skip_flag)
            ptrvec_push(arena, declared, node->skip_flag);
        collect_assigned(arena, node->body, declared, assigned);
        return;
    case N_IF:
        collect_assigned(arena, node->then_body, declared, assigned);
        collect_assigned(arena, node->else_body, declared, assigned);
        return;
    case N_BLOCK:
        for (int i = 0; i < node->items.len; i++)
            collect_assigned(arena, node->items.items[i], declared, assigned);
        return;
    default: return;
    }
}

static void lower_stmt(Lower *L, Node *node);
static void lower_if_value(Lower *L, Span loc, IrValue *cond, Node *then_body, Node *else_body);

static IrValue *emit_bool(Lower *L, Span loc, bool v) {
    return emit_const(L, loc, ir_scalar_type(DT_BOOL), (ConstValue){.known = true, .i = v});
}

/* Whether `node` holds an exit that sets `flag`. */
static bool sets_flag(const Node *node, const Symbol *flag) {
    if (!node || !flag)
        return false;
    switch (node->kind) {
    case N_BREAK: case N_CONTINUE: case N_RETURN: return ptrvec_has(&node->flags, flag);
    case N_FOR: case N_WHILE: return sets_flag(node->body, flag);
    case N_IF: return sets_flag(node->then_body, flag) || sets_flag(node->else_body, flag);
    case N_BLOCK:
        for (int i = 0; i < node->items.len; i++)
            if (sets_flag(node->items.items[i], flag))
                return true;
        return false;
    default: return false;
    }
}

/* After a statement that may exit: the OR of the flags in scope that it
   may have set, as they are now; NULL when it sets none. */
static IrValue *exit_taken(Lower *L, const Node *stmt) {
    Symbol *flags[3] = {L->return_flag, L->loop_exit, L->loop_skip};
    IrValue *taken = NULL;
    for (int i = 0; i < 3; i++) {
        if (!sets_flag(stmt, flags[i]))
            continue;
        IrValue *v = flags[i]->lowering;
        taken = taken ? emit_binary(L, IR_OR, stmt->span, taken, v) : v;
    }
    return taken;
}

/* A block's statements in order; those after a statement that may exit
   (break, continue, return, or an if or loop holding one) run under an
   `if` on the negation of its flags, so an exit skips the rest of every
   block around it up to its loop (or, for return, the kernel). */
static void lower_block(Lower *L, Node *block) {
    for (int i = 0; i < block->items.len; i++) {
        Node *stmt = block->items.items[i];
        lower_stmt(L, stmt);
        IrValue *taken = i + 1 < block->items.len ? exit_taken(L, stmt) : NULL;
        if (!taken)
            continue;
        Node *rest = ARENA_NEW(L->arena, Node);
        rest->kind = N_BLOCK;
        rest->span = ((Node *)block->items.items[i + 1])->span;
        for (int j = i + 1; j < block->items.len; j++)
            ptrvec_push(L->arena, &rest->items, block->items.items[j]);
        IrValue *go_on = emit(L, IR_NOT, rest->span, taken->type, 1, &taken);
        lower_if_value(L, rest->span, go_on, rest, NULL);
        return;
    }
}

static void emit_yield(Lower *L, Span loc, PtrVec *vars) {
    IrOp *op = ir_op_new(L->kernel, IR_YIELD, loc, vars->len, 0);
    for (int i = 0; i < vars->len; i++)
        op->operands[i] = ((Symbol *)vars->items[i])->lowering;
    ir_block_append(L->block, op);
}

/* A for or a while (node) from lo to hi by step. A loop with an exit
   flag carries it and ends before a trip where it is true (the IR for's
   `until`, docs/ir.md). A while is `for _ in 0 .. 2^31-1` whose trips
   each test the condition: `if cond { body } else { break; }`. */
static void lower_loop(Lower *L, Node *node, IrValue *lo, IrValue *hi, IrValue *step) {
    PtrVec declared = {0}, carried = {0};
    if (node->skip_flag)
        ptrvec_push(L->arena, &declared, node->skip_flag);
    if (node->exit_flag)
        node->exit_flag->lowering = emit_bool(L, node->span, false);
    collect_assigned(L->arena, node->body, &declared, &carried);
    if (node->exit_flag && !ptrvec_has(&carried, node->exit_flag))
        ptrvec_push(L->arena, &carried, node->exit_flag);   /* a while's condition sets it */
    int n = carried.len;
    IrOp *op = ir_op_new(L->kernel, IR_FOR, node->span, 3 + n, n);
    op->operands[0] = lo;
    op->operands[1] = hi;
    op->operands[2] = step;
    IrType *arg_types = ARENA_ARRAY(L->arena, IrType, n + 1);
    arg_types[0] = ir_scalar_type(DT_I32);
    for (int i = 0; i < n; i++) {
        Symbol *sym = carried.items[i];
        op->operands[3 + i] = sym->lowering;
        arg_types[i + 1] = ((IrValue *)sym->lowering)->type;
        ir_op_set_result_type(op, i, ((IrValue *)sym->lowering)->type);
    }
    op->body = ir_block_new(L->kernel, n + 1, arg_types);
    op->body->parent_op = op;
    ir_block_append(L->block, op);

    for (int i = 0; node->exit_flag && i < n; i++)
        if (carried.items[i] == node->exit_flag)
            op->int_value = i + 1;

    IrBlock *outer = L->block;
    Symbol *outer_exit = L->loop_exit, *outer_skip = L->loop_skip;
    bool deep_enough = enter_block(L, node->span);
    L->block = op->body;
    L->loop_exit = node->exit_flag;
    L->loop_skip = node->skip_flag;
    if (node->sym)
        node->sym->lowering = op->body->args[0];
    for (int i = 0; i < n; i++)
        ((Symbol *)carried.items[i])->lowering = op->body->args[i + 1];
    if (node->skip_flag)
        node->skip_flag->lowering = emit_bool(L, node->span, false);
    if (!deep_enough) {
        /* reported: no body (the kernel is not lowered further) */
    } else if (node->kind == N_WHILE) {
        Node *stop = ARENA_NEW(L->arena, Node), *otherwise = ARENA_NEW(L->arena, Node);
        stop->kind = N_BREAK;
        stop->span = node->cond->span;
        ptrvec_push(L->arena, &stop->flags, node->exit_flag);
        otherwise->kind = N_BLOCK;
        otherwise->span = node->cond->span;
        ptrvec_push(L->arena, &otherwise->items, stop);
        lower_if_value(L, node->cond->span, lower_expr(L, node->cond), node->body, otherwise);
    } else {
        lower_block(L, node->body);
    }
    emit_yield(L, node->span, &carried);
    L->depth--;
    L->block = outer;
    L->loop_exit = outer_exit;
    L->loop_skip = outer_skip;
    for (int i = 0; i < n; i++)
        ((Symbol *)carried.items[i])->lowering = op->results[i];
}

static void lower_for(Lower *L, Node *node) {
    IrValue *lo = lower_as(L, node->lhs, DT_I32);
    IrValue *hi = lower_as(L, node->rhs, DT_I32);
    IrValue *step = node->step ? lower_as(L, node->step, DT_I32) : emit_int(L, node->span, 1);
    lower_loop(L, node, lo, hi, step);
}

static void lower_while(Lower *L, Node *node) {
    lower_loop(L, node, emit_int(L, node->span, 0), emit_int(L, node->span, INT32_MAX), emit_int(L, node->span, 1));
}

/* if cond then_body else else_body (a block, an N_IF or NULL), at loc. */
static void lower_if_value(Lower *L, Span loc, IrValue *cond, Node *then_body, Node *else_body) {
    PtrVec declared = {0}, assigned = {0};
    collect_assigned(L->arena, then_body, &declared, &assigned);
    collect_assigned(L->arena, else_body, &declared, &assigned);
    int n = assigned.len;
    IrOp *op = ir_op_new(L->kernel, IR_IF, loc, 1, n);
    op->operands[0] = cond;
    IrValue **entry = ARENA_ARRAY(L->arena, IrValue *, n + 1);
    for (int i = 0; i < n; i++) {
        Symbol *sym = assigned.items[i];
        entry[i] = sym->lowering;
        ir_op_set_result_type(op, i, ((IrValue *)sym->lowering)->type);
    }
    op->body = ir_block_new(L->kernel, 0, NULL);
    op->body->parent_op = op;
    op->else_body = ir_block_new(L->kernel, 0, NULL);
    op->else_body->parent_op = op;
    ir_block_append(L->block, op);

    IrBlock *outer = L->block;
    bool deep_enough = enter_block(L, loc);
    L->block = op->body;
    if (deep_enough)
        lower_block(L, then_body);
    emit_yield(L, loc, &assigned);
    for (int i = 0; i < n; i++)
        ((Symbol *)assigned.items[i])->lowering = entry[i];
    L->block = op->else_body;
    if (else_body && deep_enough) {
        if (else_body->kind == N_IF)
            lower_stmt(L, else_body);
        else
            lower_block(L, else_body);
    }
    emit_yield(L, loc, &assigned);
    L->depth--;
    L->block = outer;
    for (int i = 0; i < n; i++)
        ((Symbol *)assigned.items[i])->lowering = op->results[i];
}

static void lower_if(Lower *L, Node *node) {
    lower_if_value(L, node->span, lower_expr(L, node->cond), node->then_body, node->else_body);
}

static void lower_assign(Lower *L, Node *node) {
    Node *target = node->lhs;
    if (target->kind == N_NAME) {
        Symbol *sym = target->sym;
        IrType type = ((IrValue *)sym->lowering)->type;
        IrValue *v;
        if (node->op == OP_ASSIGN) {
            v = lower_as(L, node->rhs, type.dtype);
        } else {
            IrValue *rhs = broadcast_to(L, lower_as(L, node->rhs, type.dtype), &type, node->rhs->span);
            v = emit_binary(L, sema_binary_opcode(node->op), node->span, sym->lowering, rhs);
        }
        sym->lowering = broadcast_to(L, v, &type, node->span);
        return;
    }
    /* a store into a place; `p op= v` loads p first (sema refuses it on a
       gathered place, whose elements may share an index) */
    if (target->gather) {
        lower_scatter(L, target, NULL, node->rhs, NULL, IR_SCATTER, COMBINE_ADD, node->span);
        return;
    }
    IrValue *ref = lower_place(L, target);
    IrType tile = ref->type;
    tile.kind = IRT_TILE;
    IrValue *v = broadcast_to(L, lower_as(L, node->rhs, tile.dtype), &tile, node->rhs->span);
    if (node->op != OP_ASSIGN) {
        IrValue *old = lower_load(L, ref, NULL, NULL, target->span);
        v = emit_binary(L, sema_binary_opcode(node->op), node->span, old, v);
    }
    emit_op(L, IR_STORE, node->span, 2, (IrValue *[]){ref, v}, 0);
}

static void lower_stmt(Lower *L, Node *node) {
    switch (node->kind) {
    case N_LET:
        if (node->rhs->type.kind == TY_REF && !node->rhs->loaded)
            node->sym->lowering = node->rhs->kind == N_CALL ? lower_call(L, node->rhs) : lower_place(L, node->rhs);
        else if (node->rhs->type.weak)
            node->sym->lowering = NULL;   /* a weak let is a constant: uses fold it in */
        else
            node->sym->lowering = lower_expr(L, node->rhs);
        break;
    case N_VAR: {
        Type t = node->sym->type;
        IrValue *v = lower_as(L, node->rhs, t.dtype);
        node->sym->lowering = v;
        break;
    }
    case N_ASSIGN: lower_assign(L, node); break;
    case N_EXPR_STMT:
        if (node->lhs->type.kind == TY_VOID)
            lower_expr(L, node->lhs);
        break;
    case N_FOR: lower_for(L, node); break;
    case N_WHILE: lower_while(L, node); break;
    case N_IF: lower_if(L, node); break;
    case N_BREAK:
    case N_CONTINUE:
    case N_RETURN:
        for (int i = 0; i < node->flags.len; i++)
            ((Symbol *)node->flags.items[i])->lowering = emit_bool(L, node->span, true);
        break;
    case N_BLOCK: lower_block(L, node); break;
    default: INTERNAL_ERROR("statement %s in lowering", ast_kind_name(node->kind));
    }
}

/* ---- kernels ------------------------------------------------------------------------ */

static GridExpr *lower_grid_expr(Lower *L, Node *e) {
    GridExpr *g = ARENA_NEW(&L->kernel->arena, GridExpr);
    if (e->value.known) {
        g->kind = GRID_CONST;
        g->value = e->value.i;
        return g;
    }
    switch (e->kind) {
    case N_NAME:
        g->kind = GRID_SIZE;
        g->size = e->name;
        return g;
    case N_UNARY:
        g->kind = GRID_SUB;
        g->lhs = ARENA_NEW(&L->kernel->arena, GridExpr);
        g->lhs->kind = GRID_CONST;
        g->rhs = lower_grid_expr(L, e->lhs);
        return g;
    case N_BINARY:
        switch (e->op) {
        case OP_ADD: g->kind = GRID_ADD; break;
        case OP_SUB: g->kind = GRID_SUB; break;
        case OP_MUL: g->kind = GRID_MUL; break;
        case OP_DIV: g->kind = GRID_DIV; break;
        default: g->kind = GRID_REM; break;
        }
        g->lhs = lower_grid_expr(L, e->lhs);
        g->rhs = lower_grid_expr(L, e->rhs);
        return g;
    case N_CALL:
        g->kind = e->builtin == BI_CDIV ? GRID_CDIV : e->builtin == BI_MIN ? GRID_MIN : GRID_MAX;
        g->lhs = lower_grid_expr(L, e->items.items[0]);
        g->rhs = lower_grid_expr(L, e->items.items[1]);
        return g;
    default: break;
    }
    INTERNAL_ERROR("grid expression %s", ast_kind_name(e->kind));
}

/* The block spec of a parameter: the index map over program ids, then the
   view of the array that this program instance sees. */
static IrValue *lower_block_spec(Lower *L, BlockSpec *b, IrValue *array) {
    for (int i = 0; i < b->map_syms.len; i++) {
        Symbol *sym = b->map_syms.items[i];
        IrOp *op = emit_op(L, IR_PROGRAM_ID, b->map_span, 0, NULL, 1);
        op->axis = i;
        ir_op_set_result_type(op, 0, ir_scalar_type(DT_I32));
        sym->lowering = op->results[0];
    }
    const IrType src = array->type;
    IrViewDim dims[IR_MAX_RANK];
    IrValue *operands[IR_MAX_RANK + 1] = {array};
    int n = 1;
    for (int d = 0; d < src.rank; d++) {
        Node *bdim = b->dims.items[d];
        Node *index = b->map_results.items[d];
        if (bdim->kind == N_UNDERSCORE) {
            operands[n] = lower_as(L, index, DT_I32);
            dims[d] = (IrViewDim){.kind = VIEW_INDEX, .offset_operand = n++};
        } else if (bdim->sym && bdim->sym->kind == SYM_SIZE) {
            dims[d] = (IrViewDim){.kind = VIEW_FULL};
        } else {
            int64_t size = bdim->value.i;
            /* A block index that is always 0 (the map ignores the program
               ids on this axis) reaches only the first `size` elements:
               wider arrays would be left partly unread and unwritten,
               silently. A static dim says so now; a symbolic one becomes a
               launch contract (IrCover, "N <= size" in the manifest). */
            if (index->value.known && !index->value.is_float && index->value.i == 0) {
                const IrDim *ad = &src.dims[d];
                if (ad->sym) {
                    IrKernel *k = L->kernel;
                    IrCover *covers = ARENA_ARRAY(&k->arena, IrCover, k->num_covers + 1);
                    if (k->num_covers)
                        memcpy(covers, k->covers, sizeof *covers * (size_t)k->num_covers);
                    int param = 0;
                    while (param < k->num_params && k->params[param].value != array)
                        param++;
                    covers[k->num_covers++] = (IrCover){.param = param, .dim = d, .block = size};
                    k->covers = covers;
                } else if (ad->size > size) {
                    diag_error(bdim->span,
                               "the block of '%s' is %lld wide along dim %d, where '%s' has %lld elements, and its "
                               "block index there is always 0: elements %lld to %lld would never be read or "
                               "written; make the block %lld wide, or index the dim by a program id",
                               b->param->name, (long long)size, d, b->param->name, (long long)ad->size,
                               (long long)size, (long long)ad->size - 1, (long long)ad->size);
                }
            }
            IrValue *block_index = lower_as(L, index, DT_I32);
            operands[n] = emit_binary(L, IR_MUL, index->span, block_index, emit_int(L, bdim->span, size));
            dims[d] = (IrViewDim){.kind = VIEW_RANGE, .size = size, .offset_operand = n++};
        }
    }
    IrOp *op = emit_op(L, IR_VIEW, b->span, n, operands, 1);
    op->view_dims = ARENA_ARRAY(&L->kernel->arena, IrViewDim, src.rank);
    memcpy(op->view_dims, dims, sizeof(IrViewDim) * (size_t)src.rank);
    ir_op_set_result_type(op, 0, ir_type_of(&b->param->type));
    return op->results[0];
}

static IrKernel *lower_kernel(Arena *arena, Kernel *k, bool debug) {
    IrKernel *kernel = ir_kernel_new(k->name, k->span);
    Lower L = {.arena = arena, .kernel = kernel, .debug = debug, .depth = 1};   /* the body is a block */

    kernel->num_cparams = k->cparams.len;
    kernel->cparams = ARENA_ARRAY(&kernel->arena, IrCParam, k->cparams.len + 1);
    for (int i = 0; i < k->cparams.len; i++) {
        CParamDecl *c = k->cparams.items[i];
        IrCParam *p = &kernel->cparams[i];
        p->name = c->name;
        p->is_float = c->sym->value.is_float;
        p->int_value = c->sym->value.i;
        p->float_value = c->sym->value.f;
    }

    kernel->num_params = k->params.len + k->sizes.len;
    kernel->params = ARENA_ARRAY(&kernel->arena, IrParam, kernel->num_params + 1);
    for (int i = 0; i < k->params.len; i++) {
        ParamDecl *decl = k->params.items[i];
        Symbol *sym = decl->sym;
        IrParam *p = &kernel->params[i];
        p->name = decl->name;
        p->kind = decl->is_array ? PARAM_ARRAY : PARAM_SCALAR;
        IrType t = ir_type_of(decl->is_array ? &sym->array_type : &sym->type);
        IrBlock *holder = ir_block_new(kernel, 1, &t);   /* parameters are values without a def */
        p->value = holder->args[0];
        p->value->arg_of = NULL;
        p->value->name = decl->name;
        if (decl->has_strides) {
            p->strides = ARENA_ARRAY(&kernel->arena, IrDim, decl->dims.len + 1);
            for (int d = 0; d < decl->dims.len; d++) {
                const Dim *st = &decl->stride_dims[d];
                p->strides[d] = st->sym ? (IrDim){.sym = st->sym->name} : (IrDim){.size = st->size};
            }
        }
    }
    for (int i = 0; i < k->sizes.len; i++) {
        Symbol *sym = k->sizes.items[i];
        IrParam *p = &kernel->params[k->params.len + i];
        p->name = sym->name;
        p->kind = PARAM_SIZE;
        IrType t = ir_scalar_type(DT_I32);
        IrBlock *holder = ir_block_new(kernel, 1, &t);
        p->value = holder->args[0];
        p->value->arg_of = NULL;
        p->value->name = sym->name;
        sym->lowering = p->value;
    }

    kernel->grid_rank = k->has_grid ? k->grid.len : 1;
    for (int i = 0; i < kernel->grid_rank; i++) {
        if (k->has_grid) {
            kernel->grid[i] = lower_grid_expr(&L, k->grid.items[i]);
        } else {
            kernel->grid[i] = ARENA_NEW(&kernel->arena, GridExpr);
            kernel->grid[i]->kind = GRID_CONST;
            kernel->grid[i]->value = 1;
        }
    }
    kernel->warps = k->warps_value;
    kernel->stages = k->stages_value;

    kernel->body = ir_block_new(kernel, 0, NULL);
    L.block = kernel->body;
    for (int i = 0; i < k->params.len; i++) {
        ParamDecl *decl = k->params.items[i];
        Symbol *sym = decl->sym;
        IrValue *v = kernel->params[i].value;
        sym->lowering = sym->block ? lower_block_spec(&L, sym->block, v) : v;
    }
    L.return_flag = k->return_flag;
    if (k->return_flag)
        k->return_flag->lowering = emit_bool(&L, k->body->span, false);
    lower_block(&L, k->body);
    return kernel;
}

IrModule *lower_program(Arena *arena, struct Program *program, bool debug) {
    IrModule *module = ARENA_NEW(arena, IrModule);
    const char *name = program->file->name;
    const char *base = strrchr(name, '/');
    module->source_name = base ? base + 1 : name;
    for (int i = 0; i < program->kernels.len; i++)
        ptrvec_push(arena, &module->kernels, lower_kernel(arena, program->kernels.items[i], debug));
    return module;
}
