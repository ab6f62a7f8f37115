/*
 * ir_verify.c: checks that a kernel is well-formed tile IR.
 *
 * In: any kernel, however it was built. Out: true, or false and one message
 * about the first problem found. Nothing is changed (IrValue.id included).
 *
 * What is checked, in one walk of the blocks in order:
 *   - links: op->parent, prev/next, block->last, results' def and index,
 *     block arguments' arg_of, a for/if block's parent_op;
 *   - types: every tile has a static shape with dims >= 1; each opcode's
 *     operand count, operand and result types and attributes (the rules
 *     are written next to each case below and listed in docs/ir.md);
 *   - dominance: an operand is a parameter, or a value defined earlier in
 *     the same block or an enclosing one (block arguments included);
 *   - terminators: each for/if block ends with a yield whose operands match
 *     the op's results; a yield appears nowhere else.
 */
#include "ir.h"

#include <string.h>

typedef struct Verifier {
    const IrKernel *kernel;
    char *message;
    size_t size;
    const IrOp *failed;
    bool failed_set;
    /* defined values: an open-addressing set and a stack of scopes */
    Arena scratch;
    const IrValue **keys;
    bool *visible;
    int capacity, count;
    int *stack;             /* slots in definition order */
    int stack_len, stack_cap;
    char type_buf[4][256];  /* for messages naming up to four types */
    int type_next;
} Verifier;

/* Records the first failure; always returns false so that checks read
   `return fail(...)`. */
static bool fail(Verifier *V, const IrOp *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(Verifier *V, const IrOp *op, const char *fmt, ...) {
    if (V->failed_set)
        return false;
    V->failed_set = true;
    V->failed = op;
    va_list ap;
    va_start(ap, fmt);
    if (V->size > 0)
        vsnprintf(V->message, V->size, fmt, ap);
    va_end(ap);
    return false;
}

static const char *type_text(Verifier *V, const IrType *type) {
    char *buf = V->type_buf[V->type_next++ & 3];
    ir_type_format(type, buf, sizeof V->type_buf[0]);
    return buf;
}

/* ---- the set of defined values --------------------------------------------- */

static int set_slot(const Verifier *V, const IrValue *value) {
    int mask = V->capacity - 1;
    int i = (int)(ir_hash_pointer(value) & (uint64_t)mask);
    while (V->keys[i] && V->keys[i] != value)
        i = (i + 1) & mask;
    return i;
}

static void set_grow(Verifier *V) {
    const IrValue **old_keys = V->keys;
    bool *old_visible = V->visible;
    int old_capacity = V->capacity;
    V->capacity = old_capacity ? old_capacity * 2 : 256;
    V->keys = ARENA_ARRAY(&V->scratch, const IrValue *, V->capacity);
    V->visible = ARENA_ARRAY(&V->scratch, bool, V->capacity);
    int *slot_map = old_capacity ? ARENA_ARRAY(&V->scratch, int, old_capacity) : NULL;
    for (int i = 0; i < old_capacity; i++) {
        if (!old_keys[i])
            continue;
        int j = set_slot(V, old_keys[i]);
        V->keys[j] = old_keys[i];
        V->visible[j] = old_visible[i];
        slot_map[i] = j;
    }
    for (int i = 0; i < V->stack_len; i++)
        V->stack[i] = slot_map[V->stack[i]];
}

/* A value is defined once: a second definition is an error. */
static bool define(Verifier *V, const IrOp *op, const IrValue *value, const char *what) {
    if ((V->count + 1) * 2 > V->capacity)
        set_grow(V);
    int slot = set_slot(V, value);
    if (V->keys[slot])
        return fail(V, op, "%s is defined twice", what);
    V->keys[slot] = value;
    V->visible[slot] = true;
    V->count++;
    if (V->stack_len == V->stack_cap) {
        int cap = V->stack_cap ? V->stack_cap * 2 : 256;
        int *stack = ARENA_ARRAY(&V->scratch, int, cap);
        if (V->stack_len)
            memcpy(stack, V->stack, sizeof(int) * (size_t)V->stack_len);
        V->stack = stack;
        V->stack_cap = cap;
    }
    V->stack[V->stack_len++] = slot;
    return true;
}

static void scope_close(Verifier *V, int mark) {
    for (int i = mark; i < V->stack_len; i++)
        V->visible[V->stack[i]] = false;
    V->stack_len = mark;
}

static bool is_visible(Verifier *V, const IrValue *value) {
    if (V->capacity == 0)
        return false;
    int slot = set_slot(V, value);
    return V->keys[slot] && V->visible[slot];
}

/* ---- types ----------------------------------------------------------------- */

static bool type_valid(Verifier *V, const IrOp *op, const IrType *type, const char *what) {
    if ((type->kind != IRT_TILE && type->kind != IRT_REF) || (unsigned)type->dtype >= DT_COUNT ||
        type->rank < 0 || type->rank > IR_MAX_RANK)
        return fail(V, op, "%s has a malformed type", what);
    for (int i = 0; i < type->rank; i++) {
        const IrDim *d = &type->dims[i];
        if (type->kind == IRT_TILE && d->sym)
            return fail(V, op, "%s has type %s: a tile's shape must be static", what, type_text(V, type));
        if (!d->sym && d->size < 1)
            return fail(V, op, "%s has type %s: dims must be at least 1", what, type_text(V, type));
    }
    if (type->kind == IRT_REF && ((unsigned)type->space > SPACE_SHARED || (unsigned)type->access > ACCESS_INOUT))
        return fail(V, op, "%s has a malformed ref type", what);
    return true;
}

static bool is_tile(const IrValue *v) { return v->type.kind == IRT_TILE; }
static bool is_ref(const IrValue *v) { return v->type.kind == IRT_REF; }
static bool is_scalar_of(const IrValue *v, DType dtype) {
    return v->type.kind == IRT_TILE && v->type.rank == 0 && v->type.dtype == dtype;
}

/* Same static shape (both tiles, or a ref with static dims). */
static bool same_shape(const IrType *a, const IrType *b) {
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i].sym || b->dims[i].sym || a->dims[i].size != b->dims[i].size)
            return false;
    return true;
}

static bool dims_equal(const IrDim *a, const IrDim *b) {
    return a->sym == b->sym && (a->sym || a->size == b->size);
}

/* ---- ops ------------------------------------------------------------------- */

static bool want_operands(Verifier *V, const IrOp *op, int min, int max) {
    if (op->num_operands < min || op->num_operands > max) {
        const char *name = ir_opcode_name(op->opcode);
        if (min == max)
            return fail(V, op, "'%s' takes %d operand%s, found %d", name, min, min == 1 ? "" : "s",
                        op->num_operands);
        return fail(V, op, "'%s' takes %d to %d operands, found %d", name, min, max, op->num_operands);
    }
    return true;
}

static bool want_results(Verifier *V, const IrOp *op, int min, int max) {
    if (op->num_results < min || op->num_results > max) {
        const char *name = ir_opcode_name(op->opcode);
        if (min == max)
            return fail(V, op, "'%s' has %d result%s, found %d", name, min, min == 1 ? "" : "s",
                        op->num_results);
        return fail(V, op, "'%s' has %d to %d results, found %d", name, min, max, op->num_results);
    }
    return true;
}

/* Operands and result are tiles; `what` is the operand position in messages. */
static bool want_tile(Verifier *V, const IrOp *op, const IrValue *v, const char *what) {
    if (!is_tile(v))
        return fail(V, op, "'%s' %s must be a tile, found %s", ir_opcode_name(op->opcode), what,
                    type_text(V, &v->type));
    return true;
}

static bool want_i32_scalar(Verifier *V, const IrOp *op, const IrValue *v, const char *what) {
    if (!is_scalar_of(v, DT_I32))
        return fail(V, op, "'%s' %s must be an i32 scalar, found %s", ir_opcode_name(op->opcode), what,
                    type_text(V, &v->type));
    return true;
}

static bool want_same_type(Verifier *V, const IrOp *op, const IrType *a, const IrType *b, const char *what) {
    if (!ir_type_equal(a, b))
        return fail(V, op, "'%s' %s: %s and %s differ", ir_opcode_name(op->opcode), what,
                    type_text(V, a), type_text(V, b));
    return true;
}

static bool int_fits(DType dtype, int64_t v) {
    switch (dtype) {
    case DT_BOOL: return v == 0 || v == 1;
    case DT_I8: return v >= INT8_MIN && v <= INT8_MAX;
    case DT_I16: return v >= INT16_MIN && v <= INT16_MAX;
    case DT_I32: return v >= INT32_MIN && v <= INT32_MAX;
    case DT_U8: return v >= 0 && v <= UINT8_MAX;
    case DT_U16: return v >= 0 && v <= UINT16_MAX;
    case DT_U32: return v >= 0 && v <= (int64_t)UINT32_MAX;
    default: return true;
    }
}

static bool verify_elementwise(Verifier *V, const IrOp *op) {
    const char *name = ir_opcode_name(op->opcode);
    bool binary = ir_opcode_is_elementwise_binary(op->opcode);
    if (!want_operands(V, op, binary ? 2 : 1, binary ? 2 : 1) || !want_results(V, op, 1, 1))
        return false;
    const IrValue *a = op->operands[0];
    const IrType *result = &op->results[0]->type;
    if (!want_tile(V, op, a, "operand"))
        return false;
    if (binary && !want_same_type(V, op, &a->type, &op->operands[1]->type, "operand types"))
        return false;
    DType dtype = a->type.dtype;
    if (ir_opcode_is_compare(op->opcode)) {
        if (result->kind != IRT_TILE || result->dtype != DT_BOOL || !same_shape(result, &a->type))
            return fail(V, op, "'%s' of %s gives a bool tile of the same shape, not %s", name,
                        type_text(V, &a->type), type_text(V, result));
        return true;
    }
    if (!want_same_type(V, op, &a->type, result, "operand and result types"))
        return false;
    switch (op->opcode) {
    case IR_AND: case IR_OR: case IR_XOR: case IR_NOT:
        if (dtype_is_float(dtype))
            return fail(V, op, "'%s' needs bool or integer operands, found %s", name, dtype_name(dtype));
        return true;
    case IR_SHL: case IR_SHR:
        if (!dtype_is_int(dtype))
            return fail(V, op, "'%s' needs integer operands, found %s", name, dtype_name(dtype));
        return true;
    case IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SQRT: case IR_RSQRT:
    case IR_TANH: case IR_SIGMOID: case IR_SIN: case IR_COS: case IR_ERF: case IR_FLOOR: case IR_CEIL:
    case IR_TRUNC: case IR_ROUND: case IR_POW:
        if (!dtype_is_float(dtype))
            return fail(V, op, "'%s' needs a float operand, found %s", name, dtype_name(dtype));
        return true;
    case IR_EXP2_FTZ:
        /* Flushes below f32's smallest normal (docs/ir.md): defined for the
           dtypes computed in f32 only. */
        if (dtype != DT_F16 && dtype != DT_BF16 && dtype != DT_F32)
            return fail(V, op, "'exp2_ftz' needs an f16, bf16 or f32 operand, found %s", dtype_name(dtype));
        return true;
    default:
        if (dtype == DT_BOOL)
            return fail(V, op, "'%s' does not take bool operands", name);
        return true;
    }
}

static bool verify_dot(Verifier *V, const IrOp *op) {
    if (!want_operands(V, op, 2, 3) || !want_results(V, op, 1, 1))
        return false;
    const IrType *a = &op->operands[0]->type, *b = &op->operands[1]->type;
    const IrType *r = &op->results[0]->type;
    if (a->kind != IRT_TILE || b->kind != IRT_TILE || a->rank != 2 || b->rank != 2)
        return fail(V, op, "'dot' takes two rank-2 tiles, found %s and %s", type_text(V, a), type_text(V, b));
    if (a->dtype != b->dtype)
        return fail(V, op, "'dot' operand dtypes differ: %s and %s", dtype_name(a->dtype), dtype_name(b->dtype));
    DType out;
    if (a->dtype == DT_F16 || a->dtype == DT_BF16 || a->dtype == DT_F32)
        out = DT_F32;
    else if (a->dtype == DT_I8)
        out = DT_I32;
    else
        return fail(V, op, "'dot' takes f16, bf16, f32 or i8 operands, found %s", dtype_name(a->dtype));
    if (a->dims[1].size != b->dims[0].size)
        return fail(V, op, "'dot' inner sizes differ: %s and %s", type_text(V, a), type_text(V, b));
    int64_t dims[2] = {a->dims[0].size, b->dims[1].size};
    IrType want = ir_tile_type(out, 2, dims);
    if (!ir_type_equal(r, &want))
        return fail(V, op, "'dot' of %s and %s gives %s, not %s", type_text(V, a), type_text(V, b),
                    type_text(V, &want), type_text(V, r));
    if (op->num_operands == 3)
        return want_same_type(V, op, &op->operands[2]->type, r, "accumulator and result types");
    return true;
}

/* view: one view_dims entry per source dim; offsets are operands 1.. in dim
   order (one per RANGE or INDEX dim), each an i32 scalar. */
static bool verify_view(Verifier *V, const IrOp *op) {
    if (!want_operands(V, op, 1, 1 + IR_MAX_RANK) || !want_results(V, op, 1, 1))
        return false;
    const IrValue *src = op->operands[0];
    const IrType *r = &op->results[0]->type;
    if (!is_ref(src))
        return fail(V, op, "'view' of a tile (%s): only refs are viewed", type_text(V, &src->type));
    if (r->kind != IRT_REF || r->dtype != src->type.dtype || r->space != src->type.space ||
        r->access != src->type.access)
        return fail(V, op, "'view' of %s cannot give %s", type_text(V, &src->type), type_text(V, r));
    if (src->type.rank > 0 && !op->view_dims)
        return fail(V, op, "'view' has no view dims");
    int next_operand = 1, out = 0;
    for (int i = 0; i < src->type.rank; i++) {
        const IrViewDim *d = &op->view_dims[i];
        if (d->kind == VIEW_FULL) {
            if (out >= r->rank || !dims_equal(&r->dims[out], &src->type.dims[i]))
                return fail(V, op, "'view' of %s cannot give %s (dim %d is kept whole)",
                            type_text(V, &src->type), type_text(V, r), i);
            out++;
            continue;
        }
        if (d->kind != VIEW_RANGE && d->kind != VIEW_INDEX)
            return fail(V, op, "'view' dim %d has a malformed kind", i);
        if (d->offset_operand != next_operand || next_operand >= op->num_operands)
            return fail(V, op, "'view' dim %d must take operand %d as its offset", i, next_operand);
        if (!want_i32_scalar(V, op, op->operands[next_operand], "offset"))
            return false;
        next_operand++;
        if (d->kind == VIEW_RANGE) {
            if (d->size < 1)
                return fail(V, op, "'view' dim %d has size %lld", i, (long long)d->size);
            if (out >= r->rank || r->dims[out].sym || r->dims[out].size != d->size)
                return fail(V, op, "'view' of %s cannot give %s (dim %d takes %lld)",
                            type_text(V, &src->type), type_text(V, r), i, (long long)d->size);
            out++;
        }
    }
    if (out != r->rank)
        return fail(V, op, "'view' of %s cannot give %s (rank)", type_text(V, &src->type), type_text(V, r));
    if (next_operand != op->num_operands)
        return fail(V, op, "'view' has %d operands, its dims use %d", op->num_operands, next_operand);
    return true;
}

/* load (ref [, mask] [, other]) ; store and atomic (ref, value [, mask]) */
static bool verify_memory(Verifier *V, const IrOp *op) {
    const char *name = ir_opcode_name(op->opcode);
    bool is_load = op->opcode == IR_LOAD;
    int want = (is_load ? 1 : 2) + op->has_mask + (is_load && op->has_other);
    if (!is_load && op->has_other)
        return fail(V, op, "'%s' has no 'other' operand", name);
    if (!want_operands(V, op, want, want))
        return false;
    if (!want_results(V, op, is_load ? 1 : 0, op->opcode == IR_STORE ? 0 : 1))
        return false;
    const IrValue *ref = op->operands[0];
    if (!is_ref(ref))
        return fail(V, op, "'%s' needs a ref, found %s", name, type_text(V, &ref->type));
    for (int i = 0; i < ref->type.rank; i++)
        if (ref->type.dims[i].sym)
            return fail(V, op, "'%s' of %s: the ref's shape must be static (view it first)", name,
                        type_text(V, &ref->type));
    const IrType *tile = is_load ? &op->results[0]->type : &op->operands[1]->type;
    if (tile->kind != IRT_TILE || tile->dtype != ref->type.dtype || !same_shape(tile, &ref->type))
        return fail(V, op, "'%s' of %s needs a %s tile of the same shape, found %s", name,
                    type_text(V, &ref->type), dtype_name(ref->type.dtype), type_text(V, tile));
    int k = is_load ? 1 : 2;
    if (op->has_mask) {
        const IrType *mask = &op->operands[k++]->type;
        if (mask->kind != IRT_TILE || mask->dtype != DT_BOOL || !same_shape(mask, tile))
            return fail(V, op, "'%s' mask must be a bool tile of shape %s, found %s", name,
                        type_text(V, tile), type_text(V, mask));
    }
    if (is_load && op->has_other && !want_same_type(V, op, &op->operands[k]->type, tile, "'other' and result types"))
        return false;
    if (!is_load && ref->type.access == ACCESS_IN)
        return fail(V, op, "'%s' into an 'in' ref", name);
    if (op->opcode == IR_ATOMIC) {
        if ((unsigned)op->combine > COMBINE_MIN)
            return fail(V, op, "'atomic' has a malformed combine");
        if (tile->dtype == DT_BOOL)
            return fail(V, op, "'atomic' does not take bool values");
        if (op->num_results == 1)
            return want_same_type(V, op, &op->results[0]->type, tile, "result and value types");
    }
    return true;
}

/* gather (ref, indices... [, mask] [, other]) -> tile; scatter and
   scatter_atomic (ref, indices..., value [, mask]): an i32 index tile per
   dim of a @global ref, all of the result's (value's) shape. */
static bool verify_indexed(Verifier *V, const IrOp *op) {
    const char *name = ir_opcode_name(op->opcode);
    bool gather = op->opcode == IR_GATHER;
    if (op->num_operands < 1 || !is_ref(op->operands[0]))
        return fail(V, op, "'%s' needs a ref first", name);
    const IrValue *ref = op->operands[0];
    int rank = ref->type.rank;
    if (!gather && op->has_other)
        return fail(V, op, "'%s' has no 'other' operand", name);
    int want = 1 + rank + !gather + op->has_mask + (gather && op->has_other);
    if (!want_operands(V, op, want, want) || !want_results(V, op, gather ? 1 : 0, gather ? 1 : 0))
        return false;
    const IrType *tile = gather ? &op->results[0]->type : &op->operands[1 + rank]->type;
    if (tile->kind != IRT_TILE || tile->dtype != ref->type.dtype)
        return fail(V, op, "'%s' of %s needs a %s tile, found %s", name, type_text(V, &ref->type),
                    dtype_name(ref->type.dtype), type_text(V, tile));
    for (int d = 0; d < rank; d++) {
        const IrType *ix = &op->operands[1 + d]->type;
        if (ix->kind != IRT_TILE || ix->dtype != DT_I32 || !same_shape(ix, tile))
            return fail(V, op, "'%s' index %d must be an i32 tile of shape %s, found %s", name, d,
                        type_text(V, tile), type_text(V, ix));
    }
    int k = 1 + rank + !gather;
    if (op->has_mask) {
        const IrType *mask = &op->operands[k++]->type;
        if (mask->kind != IRT_TILE || mask->dtype != DT_BOOL || !same_shape(mask, tile))
            return fail(V, op, "'%s' mask must be a bool tile of shape %s, found %s", name, type_text(V, tile),
                        type_text(V, mask));
    }
    if (gather && op->has_other && !want_same_type(V, op, &op->operands[k]->type, tile, "'other' and result types"))
        return false;
    if (!gather && ref->type.access == ACCESS_IN)
        return fail(V, op, "'%s' into an 'in' ref", name);
    if (op->opcode == IR_SCATTER_ATOMIC && ((unsigned)op->combine > COMBINE_MIN || tile->dtype == DT_BOOL))
        return fail(V, op, "'scatter_atomic' needs add, max or min of a numeric dtype");
    return true;
}

/* async_copy (dst @shared, src @global [, mask]): one dtype, one static shape. */
static bool verify_async_copy(Verifier *V, const IrOp *op) {
    if (!want_operands(V, op, 2 + op->has_mask, 2 + op->has_mask) || !want_results(V, op, 0, 0))
        return false;
    const IrValue *dst = op->operands[0], *src = op->operands[1];
    if (!is_ref(dst) || dst->type.space != SPACE_SHARED || dst->type.access == ACCESS_IN)
        return fail(V, op, "'async_copy' copies into a writable @shared ref, not %s", type_text(V, &dst->type));
    if (!is_ref(src) || src->type.space != SPACE_GLOBAL)
        return fail(V, op, "'async_copy' copies from a @global ref, not %s", type_text(V, &src->type));
    /* The copy reads its source some time before the wait (the
       interpreter: when issued); only an `in` array is unchanged meanwhile. */
    if (src->type.access != ACCESS_IN)
        return fail(V, op, "'async_copy' copies from an 'in' ref (nothing writes it while the copy is in flight), "
                    "not %s", type_text(V, &src->type));
    for (int i = 0; i < src->type.rank; i++)
        if (src->type.dims[i].sym || (i < dst->type.rank && dst->type.dims[i].sym))
            return fail(V, op, "'async_copy' refs must have static shapes (view them first)");
    if (dst->type.dtype != src->type.dtype || !same_shape(&dst->type, &src->type))
        return fail(V, op, "'async_copy' from %s into %s: dtype and shape must agree", type_text(V, &src->type),
                    type_text(V, &dst->type));
    if (op->has_mask) {
        const IrType *mask = &op->operands[2]->type;
        if (mask->kind != IRT_TILE || mask->dtype != DT_BOOL || !same_shape(mask, &src->type))
            return fail(V, op, "'async_copy' mask must be a bool tile of the refs' shape, found %s",
                        type_text(V, mask));
    }
    return true;
}

static bool verify_block(Verifier *V, const IrBlock *block, const IrOp *parent);

static bool verify_for(Verifier *V, const IrOp *op) {
    if (op->num_operands < 3)
        return fail(V, op, "'for' takes lo, hi and step, found %d operands", op->num_operands);
    int carried = op->num_operands - 3;
    if (!want_i32_scalar(V, op, op->operands[0], "lower bound") ||
        !want_i32_scalar(V, op, op->operands[1], "upper bound") ||
        !want_i32_scalar(V, op, op->operands[2], "step"))
        return false;
    if (op->num_results != carried)
        return fail(V, op, "'for' carries %d values but has %d results", carried, op->num_results);
    const IrBlock *body = op->body;
    if (!body || op->else_body)
        return fail(V, op, "'for' needs exactly one block");
    if (body->num_args != 1 + carried)
        return fail(V, op, "'for' body has %d arguments, needs %d (the index and %d carried)",
                    body->num_args, 1 + carried, carried);
    if (!body->args[0] || !is_scalar_of(body->args[0], DT_I32))
        return fail(V, op, "'for' index must be an i32 scalar");
    for (int i = 0; i < carried; i++) {
        const IrValue *arg = body->args[1 + i];
        if (!arg)
            return fail(V, op, "'for' body argument %d is missing", 1 + i);
        if (!want_same_type(V, op, &op->operands[3 + i]->type, &arg->type, "initial value and carried types") ||
            !want_same_type(V, op, &arg->type, &op->results[i]->type, "carried and result types"))
            return false;
    }
    if (op->int_value < 0 || op->int_value > carried)
        return fail(V, op, "'for' ends on carried value %lld, but it carries %d", (long long)op->int_value, carried);
    if (op->int_value > 0 && !is_scalar_of(body->args[op->int_value], DT_BOOL))
        return fail(V, op, "'for' ends on a carried value that is not a bool scalar");
    return verify_block(V, body, op);
}

static bool verify_if(Verifier *V, const IrOp *op) {
    if (!want_operands(V, op, 1, 1))
        return false;
    if (!is_scalar_of(op->operands[0], DT_BOOL))
        return fail(V, op, "'if' condition must be a bool scalar, found %s", type_text(V, &op->operands[0]->type));
    if (!op->body)
        return fail(V, op, "'if' has no then block");
    if (!op->else_body && op->num_results > 0)
        return fail(V, op, "'if' with results needs an else block");
    if (op->body->num_args != 0 || (op->else_body && op->else_body->num_args != 0))
        return fail(V, op, "'if' blocks take no arguments");
    if (!verify_block(V, op->body, op))
        return false;
    return !op->else_body || verify_block(V, op->else_body, op);
}

static bool verify_yield(Verifier *V, const IrOp *op) {
    const IrBlock *block = op->parent;
    const IrOp *parent = block->parent_op;
    if (!parent || op->next)
        return fail(V, op, "'yield' must be the last op of a for or if block");
    if (op->num_results != 0)
        return fail(V, op, "'yield' has no results");
    if (op->num_operands != parent->num_results)
        return fail(V, op, "'yield' gives %d values, its '%s' has %d results", op->num_operands,
                    ir_opcode_name(parent->opcode), parent->num_results);
    for (int i = 0; i < op->num_operands; i++)
        if (!want_same_type(V, op, &op->operands[i]->type, &parent->results[i]->type, "value and result types"))
            return false;
    return true;
}

/* The opcode rules. Operands are already known to be non-NULL and visible. */
static bool verify_op(Verifier *V, const IrOp *op) {
    const char *name = ir_opcode_name(op->opcode);
    if ((op->body || op->else_body) && op->opcode != IR_FOR && op->opcode != IR_IF)
        return fail(V, op, "'%s' cannot own blocks", name);
    const IrType *r = op->num_results > 0 ? &op->results[0]->type : NULL;
    switch (op->opcode) {
    case IR_CONST:
        /* A splat of int_value (ints and bool, in the dtype's range) or
           float_value (floats). */
        if (!want_operands(V, op, 0, 0) || !want_results(V, op, 1, 1))
            return false;
        if (r->kind != IRT_TILE)
            return fail(V, op, "'const' gives a tile, not %s", type_text(V, r));
        if (!dtype_is_float(r->dtype) && !int_fits(r->dtype, op->int_value))
            return fail(V, op, "'const' value %lld does not fit %s", (long long)op->int_value,
                        dtype_name(r->dtype));
        return true;
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS:
        if (!want_operands(V, op, 0, 0) || !want_results(V, op, 1, 1))
            return false;
        if (!is_scalar_of(op->results[0], DT_I32))
            return fail(V, op, "'%s' gives an i32 scalar, not %s", name, type_text(V, r));
        if (op->axis < 0 || op->axis > 2)
            return fail(V, op, "'%s' axis %d is not 0, 1 or 2", name, op->axis);
        return true;
    case IR_IOTA:
        if (!want_operands(V, op, 0, 0) || !want_results(V, op, 1, 1))
            return false;
        if (r->kind != IRT_TILE || r->dtype != DT_I32 || r->rank != 1)
            return fail(V, op, "'iota' gives a rank-1 i32 tile, not %s", type_text(V, r));
        return true;
    case IR_SELECT: {
        if (!want_operands(V, op, 3, 3) || !want_results(V, op, 1, 1))
            return false;
        const IrType *c = &op->operands[0]->type;
        if (!want_tile(V, op, op->operands[1], "operand") ||
            !want_same_type(V, op, &op->operands[1]->type, &op->operands[2]->type, "operand types") ||
            !want_same_type(V, op, &op->operands[1]->type, r, "operand and result types"))
            return false;
        if (c->kind != IRT_TILE || c->dtype != DT_BOOL || !same_shape(c, r))
            return fail(V, op, "'select' condition must be a bool tile of the result's shape, found %s",
                        type_text(V, c));
        return true;
    }
    case IR_CAST:
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        if (r->kind != IRT_TILE || !same_shape(r, &op->operands[0]->type))
            return fail(V, op, "'cast' keeps the shape: %s cannot become %s",
                        type_text(V, &op->operands[0]->type), type_text(V, r));
        return true;
    case IR_BITCAST: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        DType from = op->operands[0]->type.dtype;
        if (r->kind != IRT_TILE || !same_shape(r, &op->operands[0]->type) || from == DT_BOOL ||
            r->dtype == DT_BOOL || dtype_bytes(from) != dtype_bytes(r->dtype))
            return fail(V, op, "'bitcast' keeps the shape and the width: %s cannot become %s",
                        type_text(V, &op->operands[0]->type), type_text(V, r));
        return true;
    }
    case IR_BROADCAST: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        bool ok = r->kind == IRT_TILE && r->dtype == a->dtype && a->rank <= r->rank;
        for (int i = 0; ok && i < a->rank; i++) {
            int64_t from = a->dims[a->rank - 1 - i].size, to = r->dims[r->rank - 1 - i].size;
            ok = from == 1 || from == to;
        }
        if (!ok)
            return fail(V, op, "'broadcast' cannot expand %s to %s", type_text(V, a), type_text(V, r));
        return true;
    }
    case IR_RESHAPE: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (r->kind != IRT_TILE || r->dtype != a->dtype || ir_type_elements(r) != ir_type_elements(a))
            return fail(V, op, "'reshape' keeps dtype and element count: %s cannot become %s",
                        type_text(V, a), type_text(V, r));
        return true;
    }
    case IR_TRANSPOSE: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (a->rank < 2)
            return fail(V, op, "'transpose' needs rank 2 or more, found %s", type_text(V, a));
        IrType want = *a;
        want.dims[a->rank - 2] = a->dims[a->rank - 1];
        want.dims[a->rank - 1] = a->dims[a->rank - 2];
        if (!ir_type_equal(&want, r))
            return fail(V, op, "'transpose' of %s gives %s, not %s", type_text(V, a), type_text(V, &want),
                        type_text(V, r));
        return true;
    }
    case IR_EXTRACT: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (r->kind != IRT_TILE || r->dtype != a->dtype || r->rank != a->rank)
            return fail(V, op, "'extract' from %s cannot give %s", type_text(V, a), type_text(V, r));
        if (a->rank > 0 && !op->starts)
            return fail(V, op, "'extract' has no starts");
        for (int i = 0; i < a->rank; i++) {
            int64_t start = op->starts[i], size = r->dims[i].size;
            if (start < 0 || start > a->dims[i].size - size)
                return fail(V, op, "'extract' of [%lld, %lld) in dim %d is outside %s", (long long)start,
                            (long long)(start + size), i, type_text(V, a));
        }
        return true;
    }
    case IR_FLIP: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (op->axis < 0 || op->axis >= a->rank)
            return fail(V, op, "'flip' along axis %d of %s, which has no such axis", op->axis, type_text(V, a));
        if (!ir_type_equal(a, r))
            return fail(V, op, "'flip' of %s gives %s, not %s", type_text(V, a), type_text(V, a), type_text(V, r));
        return true;
    }
    case IR_PERMUTE: {
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (a->rank > 0 && !op->starts)
            return fail(V, op, "'permute' has no dims");
        IrType want = *a;
        bool seen[IR_MAX_RANK] = {false};
        for (int i = 0; i < a->rank; i++) {
            int64_t d = op->starts[i];
            if (d < 0 || d >= a->rank || seen[d])
                return fail(V, op, "'permute' dims of %s must name each dim once", type_text(V, a));
            seen[d] = true;
            want.dims[i] = a->dims[d];
        }
        if (!ir_type_equal(&want, r))
            return fail(V, op, "'permute' of %s gives %s, not %s", type_text(V, a), type_text(V, &want),
                        type_text(V, r));
        return true;
    }
    case IR_SCAN:
    case IR_REDUCE: {
        bool scan = op->opcode == IR_SCAN;
        const char *opname = ir_opcode_name(op->opcode);
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 1, 1) ||
            !want_tile(V, op, op->operands[0], "operand"))
            return false;
        const IrType *a = &op->operands[0]->type;
        if (op->axis < 0 || op->axis >= a->rank)
            return fail(V, op, "'%s' axis %d is outside %s", opname, op->axis, type_text(V, a));
        if ((unsigned)op->combine > (scan ? COMBINE_MUL : COMBINE_MIN))
            return fail(V, op, "'%s' has a malformed combine", opname);
        if (a->dtype == DT_BOOL)
            return fail(V, op, "'%s' does not take bool tiles", opname);
        if (scan)
            return ir_type_equal(a, r) ||
                   fail(V, op, "'scan' of %s gives %s, not %s", type_text(V, a), type_text(V, a), type_text(V, r));
        IrType want = *a;
        want.rank = a->rank - 1;
        for (int i = op->axis; i < want.rank; i++)
            want.dims[i] = a->dims[i + 1];
        memset(&want.dims[want.rank], 0, sizeof(IrDim));
        if (!ir_type_equal(&want, r))
            return fail(V, op, "'reduce' of %s over axis %d gives %s, not %s", type_text(V, a), op->axis,
                        type_text(V, &want), type_text(V, r));
        return true;
    }
    case IR_DOT:
        return verify_dot(V, op);
    case IR_VIEW:
        return verify_view(V, op);
    case IR_LOAD:
    case IR_STORE:
    case IR_ATOMIC:
        return verify_memory(V, op);
    case IR_GATHER:
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC:
        return verify_indexed(V, op);
    case IR_ALLOC:
        if (!want_operands(V, op, 0, 0) || !want_results(V, op, 1, 1))
            return false;
        if (r->kind != IRT_REF || r->space != SPACE_SHARED || r->access != ACCESS_INOUT)
            return fail(V, op, "'alloc' gives a ref @shared inout, not %s", type_text(V, r));
        for (int i = 0; i < r->rank; i++)
            if (r->dims[i].sym)
                return fail(V, op, "'alloc' needs a static shape, found %s", type_text(V, r));
        return true;
    case IR_PRINT:
        if (!want_operands(V, op, 0, 1) || !want_results(V, op, 0, 0) ||
            (op->num_operands && !want_tile(V, op, op->operands[0], "value")))
            return false;
        return op->text || fail(V, op, "'print' has no label");
    case IR_ASSERT:
        if (!want_operands(V, op, 1, 1) || !want_results(V, op, 0, 0))
            return false;
        if (!is_tile(op->operands[0]) || op->operands[0]->type.dtype != DT_BOOL)
            return fail(V, op, "'assert' condition must be a bool tile, found %s", type_text(V, &op->operands[0]->type));
        return op->text || fail(V, op, "'assert' has no message");
    case IR_ASYNC_COPY:
        return verify_async_copy(V, op);
    case IR_ASYNC_COMMIT:
        return want_operands(V, op, 0, 0) && want_results(V, op, 0, 0);
    case IR_ASYNC_WAIT:
        if (!want_operands(V, op, 0, 0) || !want_results(V, op, 0, 0))
            return false;
        if (op->int_value < 0 || op->int_value > 64)
            return fail(V, op, "'async_wait' of %lld pending groups (0..64)", (long long)op->int_value);
        return true;
    case IR_FOR:
        return verify_for(V, op);
    case IR_IF:
        return verify_if(V, op);
    case IR_YIELD:
        return verify_yield(V, op);
    default:
        if (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode))
            return verify_elementwise(V, op);
        return fail(V, op, "unknown opcode %d", (int)op->opcode);
    }
}

/* A block: its arguments, then each op (operands in sight, then the op's
   own rules and blocks, then its results come into sight). */
static bool verify_block(Verifier *V, const IrBlock *block, const IrOp *parent) {
    if (block->parent_op != parent)
        return fail(V, parent, "a block's parent_op is not the op that owns it");
    int mark = V->stack_len;
    for (int i = 0; i < block->num_args; i++) {
        const IrValue *arg = block->args[i];
        if (!arg || arg->arg_of != block || arg->def)
            return fail(V, parent, "block argument %d is malformed", i);
        if (!type_valid(V, parent, &arg->type, "a block argument") ||
            !define(V, parent, arg, "a block argument"))
            return false;
    }
    const IrOp *prev = NULL;
    for (const IrOp *op = block->first; op; prev = op, op = op->next) {
        const char *name = ir_opcode_name(op->opcode);
        if (op->parent != block || op->prev != prev)
            return fail(V, op, "'%s' is not linked into its block properly", name);
        if ((unsigned)op->opcode >= IR_OPCODE_COUNT)
            return fail(V, op, "unknown opcode %d", (int)op->opcode);
        if (op->num_operands < 0 || op->num_results < 0 || (op->num_operands > 0 && !op->operands) ||
            (op->num_results > 0 && !op->results))
            return fail(V, op, "'%s' has malformed operand or result lists", name);
        for (int i = 0; i < op->num_operands; i++) {
            if (!op->operands[i])
                return fail(V, op, "'%s' operand %d is missing", name, i);
            if (!is_visible(V, op->operands[i]))
                return fail(V, op, "'%s' operand %d is not defined before its use (dominance)", name, i);
        }
        for (int i = 0; i < op->num_results; i++) {
            const IrValue *res = op->results[i];
            if (!res || res->def != op || res->result_index != i || res->arg_of)
                return fail(V, op, "'%s' result %d is malformed", name, i);
            if (!type_valid(V, op, &res->type, "the result"))
                return false;
        }
        if (op->opcode == IR_YIELD && !parent)
            return fail(V, op, "'yield' outside a for or if block");
        if (!verify_op(V, op))
            return false;
        for (int i = 0; i < op->num_results; i++)
            if (!define(V, op, op->results[i], "a result"))
                return false;
    }
    if (block->last != prev)
        return fail(V, prev ? prev : parent, "a block's last op is not linked properly");
    if (parent && (!prev || prev->opcode != IR_YIELD))
        return fail(V, prev ? prev : parent, "a '%s' block must end with 'yield'",
                    ir_opcode_name(parent->opcode));
    scope_close(V, mark);
    return true;
}

/* ---- kernels ---------------------------------------------------------------- */

static bool is_size_name(const IrKernel *kernel, const char *name) {
    for (int i = 0; i < kernel->num_params; i++)
        if (kernel->params[i].kind == PARAM_SIZE && kernel->params[i].name &&
            strcmp(kernel->params[i].name, name) == 0)
            return true;
    return false;
}

/* A name a grid may use: a size or an i32 scalar parameter. */
static bool is_grid_name(const IrKernel *kernel, const char *name) {
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        bool scalar_i32 = p->kind == PARAM_SCALAR && p->value && p->value->type.dtype == DT_I32;
        if ((p->kind == PARAM_SIZE || scalar_i32) && p->name && strcmp(p->name, name) == 0)
            return true;
    }
    return false;
}

static bool verify_grid_expr(Verifier *V, const GridExpr *e, int depth) {
    if (!e || depth > 200)
        return fail(V, NULL, "a grid expression is malformed");
    switch (e->kind) {
    case GRID_CONST: return true;
    case GRID_RESIDENT: return fail(V, NULL, "resident_blocks() may only be the second operand of grid (min(TILES, resident_blocks()))");
    case GRID_SIZE:
        if (!e->size || !is_grid_name(V->kernel, e->size))
            return fail(V, NULL, "grid names '%s', which is not a size or i32 scalar parameter", e->size ? e->size : "?");
        return true;
    case GRID_ADD: case GRID_SUB: case GRID_MUL: case GRID_DIV: case GRID_REM:
    case GRID_CDIV: case GRID_MIN: case GRID_MAX:
        return verify_grid_expr(V, e->lhs, depth + 1) && verify_grid_expr(V, e->rhs, depth + 1);
    }
    return fail(V, NULL, "a grid expression is malformed");
}

static bool verify_params(Verifier *V) {
    const IrKernel *kernel = V->kernel;
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        const IrValue *v = p->value;
        if (!p->name || !v || v->def || v->arg_of)
            return fail(V, NULL, "parameter %d is malformed", i);
        if (!v->name || strcmp(v->name, p->name) != 0)
            return fail(V, NULL, "parameter '%s': its value must carry the parameter's name", p->name);
        for (int j = 0; j < i; j++)
            if (strcmp(kernel->params[j].name, p->name) == 0)
                return fail(V, NULL, "parameter '%s' is declared twice", p->name);
        if (!type_valid(V, NULL, &v->type, "a parameter"))
            return false;
        switch (p->kind) {
        case PARAM_ARRAY:
            if (v->type.kind != IRT_REF || v->type.space != SPACE_GLOBAL)
                return fail(V, NULL, "array parameter '%s' must be a ref @global, found %s", p->name,
                            type_text(V, &v->type));
            for (int d = 0; p->strides && d < v->type.rank; d++) {
                const char *sym = p->strides[d].sym;
                bool found = false;
                for (int j = 0; sym && j < kernel->num_params; j++)
                    found |= kernel->params[j].kind == PARAM_SIZE && strcmp(kernel->params[j].name, sym) == 0;
                if (sym ? !found : p->strides[d].size < 0)
                    return fail(V, NULL, "array parameter '%s': stride %d must be a size parameter or a constant >= 0",
                                p->name, d);
            }
            break;
        case PARAM_SCALAR:
            if (v->type.kind != IRT_TILE || v->type.rank != 0)
                return fail(V, NULL, "scalar parameter '%s' must be a rank-0 tile, found %s", p->name,
                            type_text(V, &v->type));
            break;
        case PARAM_SIZE:
            if (!is_scalar_of(v, DT_I32))
                return fail(V, NULL, "size parameter '%s' must be i32, found %s", p->name,
                            type_text(V, &v->type));
            break;
        default:
            return fail(V, NULL, "parameter '%s' has a malformed kind", p->name);
        }
        for (int d = 0; d < v->type.rank; d++)
            if (v->type.dims[d].sym && !is_size_name(kernel, v->type.dims[d].sym))
                return fail(V, NULL, "parameter '%s' has dim '%s', which is not a size parameter", p->name,
                            v->type.dims[d].sym);
        if (!define(V, NULL, v, "a parameter"))
            return false;
    }
    return true;
}

static bool verify_kernel(Verifier *V) {
    const IrKernel *kernel = V->kernel;
    if (!kernel->name || !kernel->body)
        return fail(V, NULL, "the kernel has no name or no body");
    if (kernel->grid_rank < 1 || kernel->grid_rank > 3)
        return fail(V, NULL, "the grid has %d dimensions, not 1 to 3", kernel->grid_rank);
    if (kernel->warps < 1 || kernel->stages < 1)
        return fail(V, NULL, "warps and stages must be at least 1");
    /* as sema's rule: a block of at most 1024 threads, warps split in halves */
    if (kernel->warps > 32 || (kernel->warps & (kernel->warps - 1)))
        return fail(V, NULL, "warps must be a power of two from 1 to 32, got %lld", (long long)kernel->warps);
    if (kernel->stages > 8)
        return fail(V, NULL, "stages must be from 1 to 8, got %lld", (long long)kernel->stages);
    for (int i = 0; i < kernel->num_cparams; i++)
        if (!kernel->cparams[i].name)
            return fail(V, NULL, "compile-time parameter %d has no name", i);
    if (!verify_params(V))
        return false;
    /* A persistent grid (the persist pass): one dimension, min(TILES,
       resident_blocks()), so that the runtime's check with resident_blocks()
       unbounded checks the tile count itself (runtime/tessrt.c). */
    bool persistent = ir_grid_persistent(kernel);
    for (int i = 0; i < kernel->grid_rank; i++)
        if (!verify_grid_expr(V, persistent ? kernel->grid[0]->lhs : kernel->grid[i], 0))
            return false;
    for (int i = 0; i < kernel->num_covers; i++) {
        const IrCover *c = &kernel->covers[i];
        const IrParam *p = c->param >= 0 && c->param < kernel->num_params ? &kernel->params[c->param] : NULL;
        if (!p || p->kind != PARAM_ARRAY || !p->value || c->dim < 0 || c->dim >= p->value->type.rank ||
            !p->value->type.dims[c->dim].sym || c->block < 1)
            return fail(V, NULL, "cover %d is not a dim of symbolic size of an array parameter, with a positive block", i);
    }
    if (kernel->body->num_args != 0)
        return fail(V, NULL, "the kernel body takes no arguments");
    return verify_block(V, kernel->body, NULL);
}

bool ir_verify_kernel_op(const IrKernel *kernel, char *message, size_t size, const IrOp **failed) {
    Verifier verifier;
    memset(&verifier, 0, sizeof verifier);
    verifier.kernel = kernel;
    verifier.message = message;
    verifier.size = size;
    if (size > 0)
        message[0] = '\0';
    bool ok = verify_kernel(&verifier);
    arena_free(&verifier.scratch);
    if (failed)
        *failed = ok ? NULL : verifier.failed;
    return ok;
}

bool ir_verify_kernel(const IrKernel *kernel, char *message, size_t size) {
    char detail[512];
    const IrOp *failed = NULL;
    if (ir_verify_kernel_op(kernel, detail, sizeof detail, &failed))
        return true;
    const char *name = kernel->name ? kernel->name : "?";
    if (failed)
        snprintf(message, size, "kernel '%s', op at loc(%d:%d:%d): %s", name, failed->loc.line,
                 failed->loc.col, failed->loc.end_col, detail);
    else
        snprintf(message, size, "kernel '%s': %s", name, detail);
    return false;
}
