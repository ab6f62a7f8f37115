/*
 * ir.c: building and editing the tile IR, and facts about its opcodes.
 *
 * Everything a kernel holds (ops, values, blocks, operand arrays, the
 * kernel struct itself) comes from the kernel's own arena, so that
 * ir_kernel_free drops a kernel in one call. Editing helpers only relink
 * ops; a removed op stays allocated until the kernel goes.
 */
#include "ir.h"

#include <string.h>

/* ---- kernels, blocks, ops ----------------------------------------------- */

/* The kernel struct lives in its own arena: allocate it from a fresh arena,
   then move the arena's handle into it. */
IrKernel *ir_kernel_new(const char *name, Span loc) {
    Arena arena = {0};
    IrKernel *kernel = ARENA_NEW(&arena, IrKernel);
    kernel->arena = arena;
    kernel->name = name ? intern_cstr(name) : NULL;
    kernel->loc = loc;
    kernel->warps = 4;
    kernel->stages = 2;
    kernel->body = ir_block_new(kernel, 0, NULL);
    return kernel;
}

/* The arena handle is copied out first: the chunk that holds `kernel` is
   itself freed by arena_free. */
void ir_kernel_free(IrKernel *kernel) {
    if (!kernel)
        return;
    Arena arena = kernel->arena;
    arena_free(&arena);
}

/* Block arguments record their position in result_index (there is no
   defining op), so that passes can find "argument i" from the value. */
IrBlock *ir_block_new(IrKernel *kernel, int num_args, const IrType *arg_types) {
    IrBlock *block = ARENA_NEW(&kernel->arena, IrBlock);
    block->num_args = num_args;
    if (num_args > 0) {
        block->args = ARENA_ARRAY(&kernel->arena, IrValue *, num_args);
        for (int i = 0; i < num_args; i++) {
            IrValue *value = ARENA_NEW(&kernel->arena, IrValue);
            if (arg_types)
                value->type = arg_types[i];
            value->arg_of = block;
            value->result_index = i;
            block->args[i] = value;
        }
    }
    return block;
}

IrOp *ir_op_new(IrKernel *kernel, IrOpcode opcode, Span loc, int num_operands,
                int num_results) {
    IrOp *op = ARENA_NEW(&kernel->arena, IrOp);
    op->opcode = opcode;
    op->loc = loc;
    op->num_operands = num_operands;
    if (num_operands > 0)
        op->operands = ARENA_ARRAY(&kernel->arena, IrValue *, num_operands);
    op->num_results = num_results;
    if (num_results > 0) {
        op->results = ARENA_ARRAY(&kernel->arena, IrValue *, num_results);
        for (int i = 0; i < num_results; i++) {
            IrValue *value = ARENA_NEW(&kernel->arena, IrValue);
            value->def = op;
            value->result_index = i;
            op->results[i] = value;
        }
    }
    return op;
}

void ir_op_set_result_type(IrOp *op, int i, IrType type) {
    if (i < 0 || i >= op->num_results)
        INTERNAL_ERROR("result %d of a %s op with %d results", i,
                       ir_opcode_name(op->opcode), op->num_results);
    op->results[i]->type = type;
}

void ir_block_append(IrBlock *block, IrOp *op) {
    op->parent = block;
    op->next = NULL;
    op->prev = block->last;
    if (block->last)
        block->last->next = op;
    else
        block->first = op;
    block->last = op;
}

void ir_op_insert_before(IrOp *before, IrOp *op) {
    IrBlock *block = before->parent;
    op->parent = block;
    op->next = before;
    op->prev = before->prev;
    if (before->prev)
        before->prev->next = op;
    else
        block->first = op;
    before->prev = op;
}

void ir_op_remove(IrOp *op) {
    IrBlock *block = op->parent;
    if (!block)
        return;
    if (op->prev)
        op->prev->next = op->next;
    else
        block->first = op->next;
    if (op->next)
        op->next->prev = op->prev;
    else
        block->last = op->prev;
    op->parent = NULL;
    op->prev = op->next = NULL;
}

void ir_replace_uses(IrBlock *block, IrValue *from, IrValue *to) {
    if (!block)
        return;
    for (IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i] == from)
                op->operands[i] = to;
        ir_replace_uses(op->body, from, to);
        ir_replace_uses(op->else_body, from, to);
    }
}

const IrValue *ir_view_root(const IrValue *ref) {
    while (ref->def && ref->def->opcode == IR_VIEW)
        ref = ref->def->operands[0];
    return ref;
}

int ir_count_uses(const IrBlock *block, const IrValue *v) {
    int n = 0;
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++)
            n += op->operands[i] == v;
        n += ir_count_uses(op->body, v) + ir_count_uses(op->else_body, v);
    }
    return n;
}

/* What a use of `v` reads now: the end of its forwarding chain. The chain
   is shortened on the way (every value on it points to the end), so a long
   run of replacements costs about one step per use. */
static IrValue *ir_resolve(IrValue *v) {
    IrValue *end = v;
    while (end->forward)
        end = end->forward;
    while (v != end) {
        IrValue *next = v->forward;
        v->forward = end;
        v = next;
    }
    return end;
}

void ir_forward(IrValue *from, IrValue *to) {
    to = ir_resolve(to);
    if (to != from)     /* never a cycle: x replaced by what reads x */
        from->forward = to;
}

void ir_resolve_operands(IrOp *op) {
    for (int i = 0; i < op->num_operands; i++)
        if (op->operands[i]->forward)
            op->operands[i] = ir_resolve(op->operands[i]);
}

void ir_apply_forwards(IrBlock *block) {
    if (!block)
        return;
    for (IrOp *op = block->first; op; op = op->next) {
        ir_resolve_operands(op);
        ir_apply_forwards(op->body);
        ir_apply_forwards(op->else_body);
    }
}

/* ---- types --------------------------------------------------------------- */

IrType ir_tile_type(DType dtype, int rank, const int64_t *dims) {
    IrType type;
    memset(&type, 0, sizeof type);
    type.kind = IRT_TILE;
    type.dtype = dtype;
    if (rank < 0 || rank > IR_MAX_RANK)
        INTERNAL_ERROR("tile rank %d", rank);
    type.rank = rank;
    for (int i = 0; i < rank; i++)
        type.dims[i].size = dims[i];
    return type;
}

IrType ir_scalar_type(DType dtype) { return ir_tile_type(dtype, 0, NULL); }

/* Symbolic names are interned, so pointer equality is name equality. The
   space and access only matter for refs. */
bool ir_type_equal(const IrType *a, const IrType *b) {
    if (a->kind != b->kind || a->dtype != b->dtype || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++) {
        if (a->dims[i].sym != b->dims[i].sym)
            return false;
        if (!a->dims[i].sym && a->dims[i].size != b->dims[i].size)
            return false;
    }
    if (a->kind == IRT_REF && (a->space != b->space || a->access != b->access))
        return false;
    return true;
}

/* -1 when a dim is symbolic (refs only). */
int64_t ir_type_elements(const IrType *type) {
    int64_t n = 1;
    for (int i = 0; i < type->rank; i++) {
        if (type->dims[i].sym)
            return -1;
        n *= type->dims[i].size;
    }
    return n;
}

int ir_type_inserted_unit_dim(const IrType *src, const IrType *dst) {
    if (dst->rank != src->rank + 1)
        return -1;
    for (int p = 0; p < dst->rank; p++) {
        if (dst->dims[p].size != 1)
            continue;
        bool same = true;
        for (int d = 0, s = 0; d < dst->rank && same; d++)
            if (d != p)
                same = dst->dims[d].size == src->dims[s++].size;
        if (same)
            return p;
    }
    return -1;
}

void ir_type_format(const IrType *type, char *buf, size_t size) {
    if (size == 0)
        return;
    buf[0] = '\0';
    if (type->kind == IRT_TILE && type->rank == 0) {
        snprintf(buf, size, "%s", dtype_name(type->dtype));
        return;
    }
    size_t n = 0;
#define APPEND(...)                                                            \
    do {                                                                       \
        if (n < size) {                                                        \
            int k = snprintf(buf + n, size - n, __VA_ARGS__);                  \
            n += k > 0 ? (size_t)k : 0;                                        \
        }                                                                      \
    } while (0)
    APPEND("%s<%s[", type->kind == IRT_REF ? "ref" : "tile", dtype_name(type->dtype));
    for (int i = 0; i < type->rank && i < IR_MAX_RANK; i++) {
        if (i > 0)
            APPEND(",");
        if (type->dims[i].sym)
            APPEND("%s", type->dims[i].sym);
        else
            APPEND("%lld", (long long)type->dims[i].size);
    }
    APPEND("]");
    if (type->kind == IRT_REF)
        APPEND(" @%s %s", space_name(type->space), access_name(type->access));
    APPEND(">");
#undef APPEND
}

/* ---- opcodes --------------------------------------------------------------- */

static const char *const opcode_names[IR_OPCODE_COUNT] = {
    [IR_CONST] = "const",       [IR_PROGRAM_ID] = "program_id",
    [IR_NUM_PROGRAMS] = "num_programs", [IR_IOTA] = "iota",
    [IR_ADD] = "add",           [IR_SUB] = "sub",
    [IR_MUL] = "mul",           [IR_DIV] = "div",
    [IR_REM] = "rem",           [IR_MIN] = "min",
    [IR_MAX] = "max",           [IR_POW] = "pow",
    [IR_AND] = "and",
    [IR_OR] = "or",             [IR_XOR] = "xor",
    [IR_SHL] = "shl",           [IR_SHR] = "shr",
    [IR_EQ] = "eq",
    [IR_NE] = "ne",             [IR_LT] = "lt",
    [IR_LE] = "le",             [IR_GT] = "gt",
    [IR_GE] = "ge",             [IR_NEG] = "neg",
    [IR_NOT] = "not",           [IR_EXP] = "exp",
    [IR_EXP2] = "exp2",         [IR_EXP2_FTZ] = "exp2_ftz",
    [IR_LOG] = "log",
    [IR_LOG2] = "log2",         [IR_SQRT] = "sqrt",
    [IR_RSQRT] = "rsqrt",       [IR_ABS] = "abs",
    [IR_TANH] = "tanh",         [IR_SIGMOID] = "sigmoid",
    [IR_SIN] = "sin",           [IR_COS] = "cos",
    [IR_ERF] = "erf",           [IR_FLOOR] = "floor",
    [IR_CEIL] = "ceil",         [IR_TRUNC] = "trunc",
    [IR_ROUND] = "round",
    [IR_SELECT] = "select",     [IR_CAST] = "cast",
    [IR_BITCAST] = "bitcast",
    [IR_BROADCAST] = "broadcast", [IR_RESHAPE] = "reshape",
    [IR_TRANSPOSE] = "transpose", [IR_EXTRACT] = "extract", [IR_PERMUTE] = "permute", [IR_FLIP] = "flip",
    [IR_REDUCE] = "reduce",     [IR_SCAN] = "scan",     [IR_DOT] = "dot",
    [IR_VIEW] = "view",         [IR_LOAD] = "load",
    [IR_STORE] = "store",       [IR_ATOMIC] = "atomic",
    [IR_GATHER] = "gather",     [IR_SCATTER] = "scatter",
    [IR_SCATTER_ATOMIC] = "scatter_atomic",
    [IR_ALLOC] = "alloc",       [IR_PRINT] = "print",       [IR_ASSERT] = "assert",       [IR_FOR] = "for",
    [IR_IF] = "if",             [IR_YIELD] = "yield",
    [IR_ASYNC_COPY] = "async_copy", [IR_ASYNC_COMMIT] = "async_commit",
    [IR_ASYNC_WAIT] = "async_wait",
};

const char *ir_opcode_name(IrOpcode opcode) {
    if ((unsigned)opcode >= IR_OPCODE_COUNT || !opcode_names[opcode])
        return "?";
    return opcode_names[opcode];
}

bool ir_opcode_from_name(const char *name, IrOpcode *out) {
    for (int i = 0; i < IR_OPCODE_COUNT; i++) {
        if (opcode_names[i] && strcmp(opcode_names[i], name) == 0) {
            *out = (IrOpcode)i;
            return true;
        }
    }
    return false;
}

/* Pure: the result depends only on the operands and attributes, and
   computing it touches no memory. A view only computes an address, so it is
   pure; a load reads memory and an alloc gives a fresh buffer each time. */
bool ir_opcode_is_pure(IrOpcode opcode) {
    return (opcode >= IR_CONST && opcode <= IR_DOT) || opcode == IR_VIEW;
}

bool ir_opcode_has_effect(IrOpcode opcode) {
    switch (opcode) {
    case IR_STORE: case IR_ATOMIC: case IR_SCATTER: case IR_SCATTER_ATOMIC:
    case IR_ASYNC_COPY: case IR_ASYNC_COMMIT: case IR_ASYNC_WAIT:
    case IR_PRINT: case IR_ASSERT: return true;
    default: return false;
    }
}

static int collect_asserts(const IrBlock *block, const IrOp **out, int cap, int n, const IrOp *stop, bool *found) {
    for (const IrOp *op = block ? block->first : NULL; op && !*found; op = op->next) {
        if (op->opcode == IR_ASSERT) {
            if (op == stop) {
                *found = true;
                return n;
            }
            if (out && n < cap)
                out[n] = op;
            n++;
        }
        n = collect_asserts(op->body, out, cap, n, stop, found);
        n = collect_asserts(op->else_body, out, cap, n, stop, found);
    }
    return n;
}

int ir_kernel_asserts(const IrKernel *kernel, const IrOp **out, int cap) {
    bool found = false;
    return collect_asserts(kernel->body, out, cap, 0, NULL, &found);
}

int ir_assert_index(const IrKernel *kernel, const IrOp *op) {
    bool found = false;
    int n = collect_asserts(kernel->body, NULL, 0, 0, op, &found);
    return found ? n : -1;
}

bool ir_opcode_is_elementwise_binary(IrOpcode opcode) {
    return opcode >= IR_ADD && opcode <= IR_GE;
}

bool ir_opcode_is_elementwise_unary(IrOpcode opcode) {
    return opcode >= IR_NEG && opcode <= IR_ROUND;
}

bool ir_opcode_is_compare(IrOpcode opcode) { return opcode >= IR_EQ && opcode <= IR_GE; }

const char *ir_combine_name(IrCombine combine) {
    switch (combine) {
    case COMBINE_ADD: return "add";
    case COMBINE_MAX: return "max";
    case COMBINE_MIN: return "min";
    case COMBINE_MUL: return "mul";
    }
    return "?";
}

uint64_t ir_hash_pointer(const void *p) {
    uint64_t h = (uint64_t)(uintptr_t)p;   /* the murmur3 finalizer */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    /* The second round matters: arena pointers differ in a few middle bits,
       and one round leaves the low bits a table indexes by clustered. */
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

/* ---- how a scalar moves with program id 0 (ir_rises_with_program_id0) ---- */

static bool positive_const(const IrValue *v) {
    const IrOp *op = v->def;
    return op && op->opcode == IR_CONST && !dtype_is_float(v->type.dtype) && op->int_value > 0;
}

static int rises_with_pid0(const IrKernel *kernel, const IrValue *v, int depth) {
    const IrOp *op = v->def;
    if (depth > 32 || v->type.kind != IRT_TILE || v->type.rank != 0)
        return -1;
    if (!op) {   /* a parameter is fixed; a loop's argument is not known */
        for (int i = 0; i < kernel->num_params; i++)
            if (kernel->params[i].value == v)
                return 0;
        return -1;
    }
    if (op->opcode == IR_PROGRAM_ID)
        return op->axis == 0 ? 1 : 0;
    int a = op->num_operands > 0 ? rises_with_pid0(kernel, op->operands[0], depth + 1) : 0;
    int b = op->num_operands > 1 ? rises_with_pid0(kernel, op->operands[1], depth + 1) : 0;
    if (a < 0 || b < 0)
        return -1;
    switch (op->opcode) {
    case IR_ADD:
    case IR_MIN:
    case IR_MAX: return a > b ? a : b;
    case IR_SUB: return b == 0 ? a : -1;
    case IR_MUL:   /* by a positive constant, either side */
        if (a + b == 0)
            return 0;
        return positive_const(a ? op->operands[1] : op->operands[0]) ? 1 : -1;
    case IR_DIV: return a + b == 0 ? 0 : b == 0 && positive_const(op->operands[1]) ? a : -1;
    default:
        for (int i = 0; i < op->num_operands; i++)
            if (rises_with_pid0(kernel, op->operands[i], depth + 1) != 0)
                return -1;
        return op->opcode == IR_NUM_PROGRAMS || op->opcode == IR_CONST || op->num_operands > 0 ? 0 : -1;
    }
}

int ir_rises_with_program_id0(const IrKernel *kernel, const IrValue *v) { return rises_with_pid0(kernel, v, 0); }

bool ir_grid_persistent(const IrKernel *kernel) {
    const GridExpr *g = kernel->grid_rank == 1 ? kernel->grid[0] : NULL;
    return g && g->kind == GRID_MIN && g->lhs && g->rhs && g->rhs->kind == GRID_RESIDENT;
}
