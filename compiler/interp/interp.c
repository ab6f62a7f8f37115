/*
 * interp.c: the tile-IR interpreter.
 *
 * In: one IrKernel (as lowered, or after passes) and its launch arguments on
 * host memory. Out: the argument buffers as the GPU would leave them, or an
 * error naming the kernel, the program id and the source line.
 *
 * How it runs (docs/interpreter.md has the user-facing account):
 * - A plan first: every IR value gets a slot; a tile slot owns one host
 *   buffer of 8-byte elements (double for float dtypes, int64 for integers
 *   and bool), allocated once per launch and reused by every program
 *   instance and loop iteration. A value's buffer is rewritten only when its
 *   defining op runs again, which SSA makes safe; loop-carried values live in
 *   the loop's block arguments, which are double-buffered so that a yield
 *   can permute them. Constants and iotas are filled once, in the plan.
 * - Each op is one loop over its typed buffer: no per-element dispatch.
 *   Every float result is rounded to its dtype, every integer result
 *   wrapped; what one element computes is numeric.h's (the one home of the
 *   scalar semantics, shared with fold and sema).
 * - Refs are views: the root memory, per view dim the root dim it walks,
 *   per root dim the coordinate of view element 0, and the box (per root
 *   dim, an interval) of root coordinates that lie inside every enclosing
 *   view and the array. Views only select (full, range, index), so the
 *   intersection of nested views is again a box. Loads, stores and atomics
 *   walk the view in runs along its last dim, clipped to the box.
 * - The grid is three loops, axis 0 fastest; programs run one at a time.
 *
 * Asynchronous copies (async_copy, async_commit, async_wait; docs/ir.md
 * "async"): a copy reads its source when issued (sources are `in` arrays,
 * which nothing writes) and lands in shared memory when an async_wait
 * retires its group. Until then its elements are pending: reading one, or
 * writing one with a store, an atomic or another copy, is an error. An
 * async_wait is the point where the GPU also synchronizes the block, so a
 * copy into an element some op read since the last wait is an error too (on
 * the GPU another warp may still be reading it: the "stage still being
 * read").
 *
 * Checks beyond the GPU: a read of shared memory no op wrote (one written
 * byte per element of each alloc, cleared when the alloc runs), an integer
 * index outside the dim it indexes, integer division by zero, and a
 * non-atomic write of one global element by two program instances (the
 * writer's program id per element). Errors leave through longjmp to
 * interp_run_kernel; all memory comes from one arena.
 */
#include "interp.h"
#include "expr.h"
#include "numeric.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- the interpreter's state --------------------------------------------------- */

/* One element of a tile: floats as double, integers and bool as int64. */
typedef union Elem {
    double f;
    int64_t i;
} Elem;

/* Root memory: an array parameter or a shared buffer. */
typedef struct Memory {
    const char *name;            /* "x", or "shared buffer" */
    char *data;
    DType dtype;
    int elem_bytes;
    int rank;
    int64_t shape[IR_MAX_RANK];
    int64_t stride[IR_MAX_RANK]; /* in elements */
    int64_t count;
    bool shared;
    Span alloc_loc;              /* shared: the alloc */
    uint8_t *written;            /* shared: per element SHARED_WRITTEN | SHARED_PENDING */
    int64_t *read_epoch;         /* shared: the wait epoch of the element's last read */
    int64_t *writer;             /* global: 0 none, -1 atomic, else program + 1 */
    int64_t *scattered;          /* global: the number of the last scatter that wrote the element */
} Memory;

enum { SHARED_WRITTEN = 1, SHARED_PENDING = 2 };

typedef struct Ref {
    Memory *mem;
    int rank;
    int64_t size[IR_MAX_RANK];   /* per view dim */
    int root_dim[IR_MAX_RANK];   /* per view dim */
    int64_t base[IR_MAX_RANK];   /* per root dim: coordinate of view element 0 */
    int64_t lo[IR_MAX_RANK];     /* per root dim: [lo, hi) is inside every view */
    int64_t hi[IR_MAX_RANK];
} Ref;

typedef struct Slot {
    const IrValue *value;
    DType dtype;
    bool is_ref;
    bool is_float;
    int64_t n;                   /* tile elements */
    Elem *e;                     /* current buffer */
    Elem *spare;                 /* loop-carried block arguments: the other buffer */
    Ref ref;
} Slot;

typedef struct Code Code;

typedef struct Instr {
    const IrOp *op;
    int *in;                     /* operand slots */
    int *out;                    /* result slots */
    Code *body, *else_body;
    Memory *shared;              /* ALLOC */
    bool done;                   /* CONST, IOTA: filled by the plan */
} Instr;

struct Code {
    Instr *instrs;
    int n;
    int *args;                   /* block argument slots */
    int num_args;
};

/* An async copy in flight: its source's values, read at issue, land in
   `dst` when a wait retires `group`. */
typedef struct PendingCopy {
    const IrOp *op;
    Ref dst;
    Elem *data;                  /* malloc'd; one per element of dst */
    int64_t group;
} PendingCopy;

typedef struct Interp {
    const IrKernel *kernel;
    Arena arena;
    int64_t scatters;            /* scatters executed: exec_scatter's stamps */
    Slot *slots;
    int num_slots, cap_slots;
    const IrValue **keys;        /* open addressing: value -> slot */
    int *key_slot;
    int key_cap;
    Memory *params;              /* per kernel parameter (arrays) */
    Code *body;
    int64_t grid[3];
    int64_t pid[3];
    int64_t linear_pid;
    int64_t total_elements;      /* tile elements the plan allocated */
    float *scratch_a, *scratch_b, *scratch_acc;
    PendingCopy *pending;        /* malloc'd, freed by interp_close */
    int num_pending, cap_pending;
    int64_t committed_groups;    /* groups committed by this program; the open one is this index */
    int64_t wait_epoch;          /* counts async_waits (and programs) */
    int64_t scratch_cap;
    jmp_buf fail;
    InterpError *error;
    ArenaOutOfMemory previous_oom;   /* the arena's handler before interp_open */
} Interp;

enum { MAX_TILE_ELEMENTS = 1 << 26, MAX_PLAN_ELEMENTS = 1 << 28 };

/* ---- errors ---------------------------------------------------------------------- */

static void format_program(const Interp *I, char *buf, size_t size) {
    if (I->kernel->grid_rank <= 1)
        snprintf(buf, size, "(%lld)", (long long)I->pid[0]);
    else if (I->kernel->grid_rank == 2)
        snprintf(buf, size, "(%lld, %lld)", (long long)I->pid[0], (long long)I->pid[1]);
    else
        snprintf(buf, size, "(%lld, %lld, %lld)", (long long)I->pid[0], (long long)I->pid[1],
                 (long long)I->pid[2]);
}

static void format_linear_program(const Interp *I, int64_t linear, char *buf, size_t size) {
    Interp other = *I;
    other.pid[0] = linear % I->grid[0];
    other.pid[1] = (linear / I->grid[0]) % I->grid[1];
    other.pid[2] = linear / I->grid[0] / I->grid[1];
    format_program(&other, buf, size);
}

/* Ends the run: "kernel 'k', program (i, j), line L: message". */
static _Noreturn void interp_fail(Interp *I, const IrOp *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void interp_fail(Interp *I, const IrOp *op, const char *fmt, ...) {
    InterpError *e = I->error;
    char program[96], text[768];
    format_program(I, program, sizeof program);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    e->loc = op ? op->loc : I->kernel->loc;
    e->has_program = true;
    memcpy(e->program, I->pid, sizeof e->program);
    snprintf(e->message, sizeof e->message, "kernel '%s', program %s, line %d: %s", I->kernel->name,
             program, e->loc.line, text);
    longjmp(I->fail, 1);
}

/* An error about the launch, before any program runs. */
static _Noreturn void launch_fail(Interp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void launch_fail(Interp *I, const char *fmt, ...) {
    InterpError *e = I->error;
    char text[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    e->loc = (Span){0, 0, 0};
    e->has_program = false;
    snprintf(e->message, sizeof e->message, "kernel '%s': %s", I->kernel->name, text);
    longjmp(I->fail, 1);
}

/* "[3, 7] of 'x'" for the element at `offset` of `mem`. */
static void format_element(const Memory *mem, int64_t offset, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "[");
    for (int d = 0; d < mem->rank && n < size; d++) {
        int64_t c = mem->stride[d] ? (offset / mem->stride[d]) % mem->shape[d] : 0;
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? ", " : "", (long long)c);
    }
    if (n >= size)
        return;
    if (mem->shared)
        snprintf(buf + n, size - n, "] of the shared buffer allocated at line %d", mem->alloc_loc.line);
    else
        snprintf(buf + n, size - n, "] of '%s'", mem->name);
}

/* Ends the run with "WHAT: element [i, j] of ...". */
static _Noreturn void element_fail(Interp *I, const IrOp *op, const Memory *mem, int64_t offset, const char *what) {
    char where[256];
    format_element(mem, offset, where, sizeof where);
    interp_fail(I, op, "%s: element %s", what, where);
}

/* A read (a load, an atomic's old value) of a shared element: it must have
   landed (`pending`: the error while an async copy into it is in flight)
   and been written (`unwritten`). */
static void shared_readable(Interp *I, const IrOp *op, const Memory *mem, int64_t offset, const char *pending,
                            const char *unwritten) {
    if (mem->written[offset] & SHARED_PENDING)
        element_fail(I, op, mem, offset, pending);
    if (!mem->written[offset])
        element_fail(I, op, mem, offset, unwritten);
}

/* ---- the plan: slots for values -------------------------------------------------- */

static void map_grow(Interp *I) {
    int old_cap = I->key_cap;
    const IrValue **old_keys = I->keys;
    int *old_slots = I->key_slot;
    I->key_cap = old_cap ? old_cap * 2 : 256;
    I->keys = ARENA_ARRAY(&I->arena, const IrValue *, I->key_cap);
    I->key_slot = ARENA_ARRAY(&I->arena, int, I->key_cap);
    for (int i = 0; i < old_cap; i++) {
        if (!old_keys[i])
            continue;
        uint32_t h = (uint32_t)ir_hash_pointer(old_keys[i]) & (uint32_t)(I->key_cap - 1);
        while (I->keys[h])
            h = (h + 1) & (uint32_t)(I->key_cap - 1);
        I->keys[h] = old_keys[i];
        I->key_slot[h] = old_slots[i];
    }
}

static int slot_of(Interp *I, const IrValue *v) {
    if (I->key_cap) {
        uint32_t h = (uint32_t)ir_hash_pointer(v) & (uint32_t)(I->key_cap - 1);
        while (I->keys[h]) {
            if (I->keys[h] == v)
                return I->key_slot[h];
            h = (h + 1) & (uint32_t)(I->key_cap - 1);
        }
    }
    launch_fail(I, "internal error: an operand is not defined before its use");
}

static Elem *tile_buffer(Interp *I, int64_t n) {
    return ARENA_ARRAY(&I->arena, Elem, n > 0 ? n : 1);
}

/* A new slot for `v`; tiles get their buffer (and a spare for loop args). */
static int slot_new(Interp *I, const IrValue *v, bool carried) {
    if (I->num_slots == I->cap_slots) {
        int cap = I->cap_slots ? I->cap_slots * 2 : 64;
        Slot *grown = ARENA_ARRAY(&I->arena, Slot, cap);
        if (I->num_slots)
            memcpy(grown, I->slots, sizeof(Slot) * (size_t)I->num_slots);
        I->slots = grown;
        I->cap_slots = cap;
    }
    if (2 * (I->num_slots + 1) > I->key_cap)
        map_grow(I);
    int index = I->num_slots++;
    Slot *s = &I->slots[index];
    s->value = v;
    s->dtype = v->type.dtype;
    s->is_ref = v->type.kind == IRT_REF;
    s->is_float = dtype_is_float(s->dtype);
    if (!s->is_ref) {
        int64_t n = 1;
        for (int d = 0; d < v->type.rank; d++) {
            if (v->type.dims[d].sym || v->type.dims[d].size < 0)
                launch_fail(I, "a tile has a dimension that is not static");
            n *= v->type.dims[d].size;
            if (n > MAX_TILE_ELEMENTS)
                launch_fail(I, "a tile of more than %d elements is too large to interpret",
                            MAX_TILE_ELEMENTS);
        }
        s->n = n;
        I->total_elements += carried ? 2 * n : n;
        if (I->total_elements > MAX_PLAN_ELEMENTS)
            launch_fail(I, "the kernel's tiles hold more than %d elements in all; too large to interpret",
                        MAX_PLAN_ELEMENTS);
        s->e = tile_buffer(I, n);
        if (carried)
            s->spare = tile_buffer(I, n);
    }
    uint32_t h = (uint32_t)ir_hash_pointer(v) & (uint32_t)(I->key_cap - 1);
    while (I->keys[h])
        h = (h + 1) & (uint32_t)(I->key_cap - 1);
    I->keys[h] = v;
    I->key_slot[h] = index;
    return index;
}

static Code *plan_block(Interp *I, const IrBlock *block, bool carried_args);

static void plan_constant(Interp *I, Instr *in) {
    const IrOp *op = in->op;
    Slot *r = &I->slots[in->out[0]];
    if (op->opcode == IR_IOTA) {
        for (int64_t i = 0; i < r->n; i++) {
            if (r->is_float)
                r->e[i].f = (double)i;
            else
                r->e[i].i = numeric_wrap(r->dtype, i);
        }
    } else if (r->is_float) {
        double v = numeric_round(r->dtype, op->float_value);
        for (int64_t i = 0; i < r->n; i++)
            r->e[i].f = v;
    } else {
        int64_t v = numeric_wrap(r->dtype, op->int_value);
        for (int64_t i = 0; i < r->n; i++)
            r->e[i].i = v;
    }
    in->done = true;
}

static void plan_op(Interp *I, const IrOp *op, Instr *in) {
    in->op = op;
    in->in = ARENA_ARRAY(&I->arena, int, op->num_operands + 1);
    for (int i = 0; i < op->num_operands; i++) {
        if (!op->operands[i])
            launch_fail(I, "internal error: op '%s' has a missing operand", ir_opcode_name(op->opcode));
        in->in[i] = slot_of(I, op->operands[i]);
    }
    if (op->body)
        in->body = plan_block(I, op->body, op->opcode == IR_FOR);
    if (op->else_body)
        in->else_body = plan_block(I, op->else_body, false);
    in->out = ARENA_ARRAY(&I->arena, int, op->num_results + 1);
    for (int i = 0; i < op->num_results; i++)
        in->out[i] = slot_new(I, op->results[i], false);
    if (op->opcode == IR_CONST || op->opcode == IR_IOTA)
        plan_constant(I, in);
    if (op->opcode == IR_ALLOC) {
        const IrType *t = &op->results[0]->type;
        Memory *m = ARENA_NEW(&I->arena, Memory);
        m->name = "shared buffer";
        m->dtype = t->dtype;
        m->elem_bytes = dtype_bytes(t->dtype);
        m->rank = t->rank;
        m->shared = true;
        m->alloc_loc = op->loc;
        m->count = 1;
        for (int d = t->rank - 1; d >= 0; d--) {
            if (t->dims[d].sym)
                launch_fail(I, "an alloc has a dimension that is not static");
            m->shape[d] = t->dims[d].size;
            m->stride[d] = m->count;
            m->count *= t->dims[d].size;
            if (m->count > MAX_TILE_ELEMENTS)
                launch_fail(I, "a shared buffer of more than %d elements is too large", MAX_TILE_ELEMENTS);
        }
        m->data = arena_alloc(&I->arena, (size_t)(m->count * m->elem_bytes) + 1);
        m->written = arena_alloc(&I->arena, (size_t)m->count + 1);
        m->read_epoch = ARENA_ARRAY(&I->arena, int64_t, m->count + 1);
        in->shared = m;
    }
}

static Code *plan_block(Interp *I, const IrBlock *block, bool carried_args) {
    Code *code = ARENA_NEW(&I->arena, Code);
    code->num_args = block->num_args;
    code->args = ARENA_ARRAY(&I->arena, int, block->num_args + 1);
    for (int i = 0; i < block->num_args; i++)
        code->args[i] = slot_new(I, block->args[i], carried_args && i > 0);
    for (const IrOp *op = block->first; op; op = op->next)
        code->n++;
    code->instrs = ARENA_ARRAY(&I->arena, Instr, code->n + 1);
    int k = 0;
    for (const IrOp *op = block->first; op; op = op->next)
        plan_op(I, op, &code->instrs[k++]);
    return code;
}

#define EACH(body)                          \
    for (int64_t i = 0; i < n; i++) {       \
        body;                               \
    }

/* ---- rounding and wrapping of whole buffers -------------------------------------------- */

/* The loops name the dtype, so numeric_round and numeric_wrap collapse to
   the one conversion each (no per-element switch). */
static void round_buffer(DType dtype, Elem *z, int64_t n) {
    switch (dtype) {
    case DT_F32: EACH(z[i].f = numeric_round(DT_F32, z[i].f)) break;
    case DT_F16: EACH(z[i].f = numeric_round(DT_F16, z[i].f)) break;
    case DT_BF16: EACH(z[i].f = numeric_round(DT_BF16, z[i].f)) break;
    case DT_F8E4M3: EACH(z[i].f = numeric_round(DT_F8E4M3, z[i].f)) break;
    case DT_F8E5M2: EACH(z[i].f = numeric_round(DT_F8E5M2, z[i].f)) break;
    default: break;
    }
}

static void wrap_buffer(DType dtype, Elem *z, int64_t n) {
    switch (dtype) {
    case DT_BOOL: EACH(z[i].i = numeric_wrap(DT_BOOL, z[i].i)) break;
    case DT_I8: EACH(z[i].i = numeric_wrap(DT_I8, z[i].i)) break;
    case DT_I16: EACH(z[i].i = numeric_wrap(DT_I16, z[i].i)) break;
    case DT_I32: EACH(z[i].i = numeric_wrap(DT_I32, z[i].i)) break;
    case DT_U8: EACH(z[i].i = numeric_wrap(DT_U8, z[i].i)) break;
    case DT_U16: EACH(z[i].i = numeric_wrap(DT_U16, z[i].i)) break;
    case DT_U32: EACH(z[i].i = numeric_wrap(DT_U32, z[i].i)) break;
    default: break;
    }
}

/* ---- elementwise ops --------------------------------------------------------------- */

/* One loop per op, each element through numeric.h (docs/language.md 7.2). */
static void exec_float_binary(IrOpcode opcode, const Elem *x, const Elem *y, Elem *z, int64_t n) {
#define FLOAT_OP(o) case o: EACH(z[i].f = numeric_float_op(o, x[i].f, y[i].f)) break;
#define FLOAT_COMPARE(o) case o: EACH(z[i].i = numeric_float_compare(o, x[i].f, y[i].f)) break;
    switch (opcode) {
    FLOAT_OP(IR_ADD) FLOAT_OP(IR_SUB) FLOAT_OP(IR_MUL) FLOAT_OP(IR_DIV) FLOAT_OP(IR_REM)
    FLOAT_OP(IR_MIN) FLOAT_OP(IR_MAX) FLOAT_OP(IR_POW)
    FLOAT_COMPARE(IR_EQ) FLOAT_COMPARE(IR_NE) FLOAT_COMPARE(IR_LT) FLOAT_COMPARE(IR_LE)
    FLOAT_COMPARE(IR_GT) FLOAT_COMPARE(IR_GE)
    default: break;
    }
#undef FLOAT_OP
#undef FLOAT_COMPARE
}

static void exec_int_binary(Interp *I, const IrOp *op, const Elem *x, const Elem *y, Elem *z, int64_t n) {
    DType dtype = op->operands[0]->type.dtype;
#define INT_OP(o) case o: EACH(z[i].i = numeric_int_op(o, dtype, x[i].i, y[i].i)) break;
    switch (op->opcode) {
    INT_OP(IR_ADD) INT_OP(IR_SUB) INT_OP(IR_MUL)
    case IR_DIV:
    case IR_REM:
        for (int64_t i = 0; i < n; i++) {
            int64_t a = x[i].i, b = y[i].i;
            if (b == 0)
                interp_fail(I, op,
                            "integer %s by zero (%lld %s 0, element %lld of the tile); if that "
                            "element was read outside an array, load the divisor with other = 1",
                            op->opcode == IR_DIV ? "division" : "remainder", (long long)a,
                            op->opcode == IR_DIV ? "/" : "%", (long long)i);
            z[i].i = numeric_int_op(op->opcode, dtype, a, b);
        }
        break;
    INT_OP(IR_MIN) INT_OP(IR_MAX) INT_OP(IR_AND) INT_OP(IR_OR) INT_OP(IR_XOR)
    case IR_SHL:
    case IR_SHR: EACH(z[i].i = numeric_int_shift(op->opcode, dtype, x[i].i, y[i].i)) break;
    INT_OP(IR_EQ) INT_OP(IR_NE) INT_OP(IR_LT) INT_OP(IR_LE) INT_OP(IR_GT) INT_OP(IR_GE)
    default: break;
    }
#undef INT_OP
}

static void exec_binary(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]], *b = &I->slots[in->in[1]];
    Slot *r = &I->slots[in->out[0]];
    int64_t n = r->n;
    if (a->is_float) {
        exec_float_binary(in->op->opcode, a->e, b->e, r->e, n);
        if (r->is_float)
            round_buffer(r->dtype, r->e, n);
    } else {
        exec_int_binary(I, in->op, a->e, b->e, r->e, n);
        wrap_buffer(r->dtype, r->e, n);
    }
}

static void exec_unary(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const Elem *x = a->e;
    Elem *z = r->e;
    int64_t n = r->n;
    IrOpcode opcode = in->op->opcode;
#define INT_UNARY(o) case o: EACH(z[i].i = numeric_int_unary(o, a->dtype, x[i].i)) break;
#define FLOAT_UNARY(o) case o: EACH(z[i].f = numeric_float_unary(o, x[i].f)) break;
    if (!a->is_float) {
        switch (opcode) {
        INT_UNARY(IR_NEG) INT_UNARY(IR_NOT) INT_UNARY(IR_ABS)
        default:
            interp_fail(I, in->op, "'%s' on the integer dtype %s", ir_opcode_name(opcode), dtype_name(a->dtype));
        }
        wrap_buffer(r->dtype, z, n);
        return;
    }
    switch (opcode) {
    FLOAT_UNARY(IR_NEG) FLOAT_UNARY(IR_EXP) FLOAT_UNARY(IR_EXP2) FLOAT_UNARY(IR_EXP2_FTZ)
    FLOAT_UNARY(IR_LOG) FLOAT_UNARY(IR_LOG2)
    FLOAT_UNARY(IR_SQRT) FLOAT_UNARY(IR_RSQRT) FLOAT_UNARY(IR_ABS) FLOAT_UNARY(IR_TANH)
    FLOAT_UNARY(IR_SIGMOID) FLOAT_UNARY(IR_SIN) FLOAT_UNARY(IR_COS) FLOAT_UNARY(IR_ERF)
    FLOAT_UNARY(IR_FLOOR) FLOAT_UNARY(IR_CEIL) FLOAT_UNARY(IR_TRUNC) FLOAT_UNARY(IR_ROUND)
    default:
        interp_fail(I, in->op, "'%s' on the float dtype %s", ir_opcode_name(opcode), dtype_name(a->dtype));
    }
#undef INT_UNARY
#undef FLOAT_UNARY
    round_buffer(r->dtype, z, n);
}

static void exec_select(Interp *I, const Instr *in) {
    const Elem *c = I->slots[in->in[0]].e, *x = I->slots[in->in[1]].e, *y = I->slots[in->in[2]].e;
    Slot *r = &I->slots[in->out[0]];
    Elem *z = r->e;
    int64_t n = r->n;
    EACH(z[i] = c[i].i ? x[i] : y[i])
}

static void exec_cast(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const Elem *x = a->e;
    Elem *z = r->e;
    int64_t n = r->n;
    DType to = r->dtype;
    /* numeric_float_to_int and numeric_int_to_float, split so that the
       per-dtype rounding runs as round_buffer's loop. */
    if (a->is_float && r->is_float) {
        EACH(z[i].f = x[i].f)
        round_buffer(to, z, n);
    } else if (a->is_float) {
        EACH(z[i].i = numeric_float_to_int(to, x[i].f))
    } else if (to == DT_F64 || (r->is_float && a->dtype == DT_U64)) {
        DType from = a->dtype;
        EACH(z[i].f = numeric_int_to_float(to, from, x[i].i))
    } else if (r->is_float) {
        EACH(z[i].f = numeric_int_to_double_odd(x[i].i))
        round_buffer(to, z, n);
    } else {
        EACH(z[i].i = x[i].i)
        wrap_buffer(to, z, n);
    }
}

/* The bits of an element of `dtype` (canonical integer or float value). A
   NaN's payload is the host's (f16 and bf16 NaNs become the quiet NaN
   numeric_double_to_f16 gives): docs/language.md 7.5. */
static uint64_t elem_bits(DType dtype, Elem e) {
    switch (dtype) {
    case DT_F16: return numeric_double_to_f16(e.f);
    case DT_BF16: return numeric_double_to_bf16(e.f);
    case DT_F8E4M3:
    case DT_F8E5M2: return numeric_double_to_fp8(dtype, e.f);
    case DT_F32: {
        float f = (float)e.f;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    case DT_F64: {
        uint64_t b;
        memcpy(&b, &e.f, sizeof b);
        return b;
    }
    default: return (uint64_t)e.i & (dtype_bytes(dtype) == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * dtype_bytes(dtype))) - 1);
    }
}

static Elem elem_of_bits(DType dtype, uint64_t bits) {
    Elem e = {0};
    switch (dtype) {
    case DT_F16: e.f = numeric_f16_to_double((uint16_t)bits); break;
    case DT_BF16: e.f = numeric_bf16_to_double((uint16_t)bits); break;
    case DT_F8E4M3:
    case DT_F8E5M2: e.f = numeric_fp8_to_double(dtype, (uint8_t)bits); break;
    case DT_F32: {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        e.f = f;
        break;
    }
    case DT_F64: memcpy(&e.f, &bits, sizeof e.f); break;
    default: e.i = numeric_wrap(dtype, (int64_t)bits); break;
    }
    return e;
}

static void exec_bitcast(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const Elem *x = a->e;
    Elem *z = r->e;
    int64_t n = r->n;
    EACH(z[i] = elem_of_bits(r->dtype, elem_bits(a->dtype, x[i])))
}

/* ---- shape ops ------------------------------------------------------------------- */

static void exec_broadcast(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const IrType *st = &a->value->type, *rt = &r->value->type;
    int rank = rt->rank, pad = rank - st->rank;
    if (a->n == 1) {
        for (int64_t i = 0; i < r->n; i++)
            r->e[i] = a->e[0];
        return;
    }
    int64_t stride[IR_MAX_RANK], size[IR_MAX_RANK], coord[IR_MAX_RANK] = {0};
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        size[d] = rt->dims[d].size;
        int sd = d - pad;
        if (sd >= 0 && st->dims[sd].size != 1) {
            stride[d] = s;
            s *= st->dims[sd].size;
        } else {
            stride[d] = 0;
            if (sd >= 0)
                s *= 1;
        }
    }
    int64_t inner = rank ? size[rank - 1] : 1, inner_stride = rank ? stride[rank - 1] : 0;
    int64_t rows = inner ? r->n / inner : 0;
    int64_t src = 0;
    Elem *z = r->e;
    for (int64_t row = 0; row < rows; row++) {
        if (inner_stride)
            memcpy(z, a->e + src, sizeof(Elem) * (size_t)inner);
        else
            for (int64_t j = 0; j < inner; j++)
                z[j] = a->e[src];
        z += inner;
        for (int d = rank - 2; d >= 0; d--) {
            src += stride[d];
            if (++coord[d] < size[d])
                break;
            src -= stride[d] * size[d];
            coord[d] = 0;
        }
    }
}

static void exec_transpose(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const IrType *st = &a->value->type;
    if (st->rank < 2) {
        memcpy(r->e, a->e, sizeof(Elem) * (size_t)r->n);
        return;
    }
    int64_t rows = st->dims[st->rank - 2].size, cols = st->dims[st->rank - 1].size;
    int64_t plane = rows * cols, batches = plane ? a->n / plane : 0;
    for (int64_t b = 0; b < batches; b++) {
        const Elem *x = a->e + b * plane;
        Elem *z = r->e + b * plane;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                z[j * rows + i] = x[i * cols + j];
    }
}

/* permute: result element at coordinate c is the operand's at c' with
   c'[starts[d]] = c[d]. */
static void exec_permute(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const IrType *st = &a->value->type, *rt = &r->value->type;
    int rank = rt->rank;
    int64_t sstride[IR_MAX_RANK], coord[IR_MAX_RANK] = {0};
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        sstride[d] = s;
        s *= st->dims[d].size;
    }
    for (int64_t i = 0; i < r->n; i++) {
        int64_t src = 0;
        for (int d = 0; d < rank; d++)
            src += coord[d] * sstride[in->op->starts[d]];
        r->e[i] = a->e[src];
        for (int d = rank - 1; d >= 0; d--) {
            if (++coord[d] < rt->dims[d].size)
                break;
            coord[d] = 0;
        }
    }
}

/* flip: along dim `axis` element c is the operand's n - 1 - c. */
static void exec_flip(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const IrType *t = &r->value->type;
    int axis = in->op->axis;
    int64_t n = t->dims[axis].size, inner = 1;
    for (int d = axis + 1; d < t->rank; d++)
        inner *= t->dims[d].size;
    int64_t outer = n > 0 && inner > 0 ? r->n / (n * inner) : 0;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < n; i++)
            memcpy(r->e + (o * n + i) * inner, a->e + (o * n + (n - 1 - i)) * inner, sizeof(Elem) * (size_t)inner);
}

static void exec_extract(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    const IrType *st = &a->value->type, *rt = &r->value->type;
    int rank = rt->rank;
    if (rank == 0 || r->n == 0) {
        if (r->n)
            r->e[0] = a->e[0];
        return;
    }
    int64_t sstride[IR_MAX_RANK], coord[IR_MAX_RANK] = {0}, s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        sstride[d] = s;
        s *= st->dims[d].size;
    }
    const int64_t *starts = in->op->starts;
    int64_t inner = rt->dims[rank - 1].size, rows = r->n / inner;
    Elem *z = r->e;
    for (int64_t row = 0; row < rows; row++) {
        int64_t src = 0;
        for (int d = 0; d < rank; d++)
            src += (coord[d] + (starts ? starts[d] : 0)) * sstride[d];
        memcpy(z, a->e + src, sizeof(Elem) * (size_t)inner);
        z += inner;
        for (int d = rank - 2; d >= 0; d--) {
            if (++coord[d] < rt->dims[d].size)
                break;
            coord[d] = 0;
        }
    }
}

/* z[i] = z[i] (combine) y[i] for n elements of `dtype`: float sums and
   products round to the dtype after each step; integers are left for
   wrap_buffer. */
static void combine_into(Elem *z, const Elem *y, int64_t n, IrCombine combine, DType dtype, bool is_float) {
    if (is_float) {
        switch (combine) {
        case COMBINE_ADD:
            if (dtype == DT_F32) {
                EACH(z[i].f = numeric_round(DT_F32, z[i].f + y[i].f))
            } else {
                EACH(z[i].f = z[i].f + y[i].f)
                round_buffer(dtype, z, n);
            }
            break;
        case COMBINE_MUL:
            EACH(z[i].f = z[i].f * y[i].f)
            round_buffer(dtype, z, n);
            break;
        case COMBINE_MAX: EACH(z[i].f = numeric_maximum(z[i].f, y[i].f)) break;
        case COMBINE_MIN: EACH(z[i].f = numeric_minimum(z[i].f, y[i].f)) break;
        }
    } else {
        switch (combine) {
        case COMBINE_ADD: EACH(z[i].i = numeric_int_op(IR_ADD, dtype, z[i].i, y[i].i)) break;
        case COMBINE_MUL: EACH(z[i].i = numeric_int_op(IR_MUL, dtype, z[i].i, y[i].i)) break;
        case COMBINE_MAX: EACH(z[i].i = numeric_int_op(IR_MAX, dtype, z[i].i, y[i].i)) break;
        case COMBINE_MIN: EACH(z[i].i = numeric_int_op(IR_MIN, dtype, z[i].i, y[i].i)) break;
        }
    }
}

/* A reduce's or scan's operand as outer x len x inner around its axis. */
static void split_at_axis(Interp *I, const Instr *in, int64_t *outer, int64_t *len, int64_t *inner) {
    const IrType *st = &I->slots[in->in[0]].value->type;
    int axis = in->op->axis;
    if (axis < 0 || axis >= st->rank)
        interp_fail(I, in->op, "%s along axis %d of a rank-%d tile", ir_opcode_name(in->op->opcode), axis, st->rank);
    *outer = *inner = 1;
    *len = st->dims[axis].size;
    for (int d = 0; d < axis; d++)
        *outer *= st->dims[d].size;
    for (int d = axis + 1; d < st->rank; d++)
        *inner *= st->dims[d].size;
}

/* Combines along `axis` in order 0, 1, 2, ...; sums round to the dtype after
   every addition (the GPU's tree order may round differently). */
static void exec_reduce(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    int64_t outer, len, inner;
    split_at_axis(I, in, &outer, &len, &inner);
    IrCombine combine = in->op->combine;
    DType dtype = r->dtype;
    for (int64_t o = 0; o < outer; o++) {
        Elem *z = r->e + o * inner;
        const Elem *x = a->e + o * len * inner;
        int64_t n = inner;
        if (len == 0) {
            EACH(z[i].i = 0)
            continue;
        }
        memcpy(z, x, sizeof(Elem) * (size_t)inner);
        for (int64_t k = 1; k < len; k++)
            combine_into(z, x + k * inner, inner, combine, dtype, a->is_float);
        if (!a->is_float)
            wrap_buffer(dtype, z, inner);
    }
}

/* Inclusive prefix along `axis`, in order 0, 1, 2, ...: element k is
   element k - 1's result combined with input k (rounded as exec_reduce's
   sums; every combine is commutative, so combining in place is the same;
   the GPU's scan combines in another order). */
static void exec_scan(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]];
    Slot *r = &I->slots[in->out[0]];
    int64_t outer, len, inner;
    split_at_axis(I, in, &outer, &len, &inner);
    memcpy(r->e, a->e, sizeof(Elem) * (size_t)r->n);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 1; k < len; k++) {
            Elem *z = r->e + (o * len + k) * inner;
            combine_into(z, z - inner, inner, in->op->combine, r->dtype, a->is_float);
            if (!a->is_float)
                wrap_buffer(r->dtype, z, inner);
        }
}

static float *scratch(Interp *I, int which, int64_t n) {
    if (n > I->scratch_cap) {
        int64_t cap = n < 4096 ? 4096 : n;
        I->scratch_a = ARENA_ARRAY(&I->arena, float, cap);
        I->scratch_b = ARENA_ARRAY(&I->arena, float, cap);
        I->scratch_acc = ARENA_ARRAY(&I->arena, float, cap);
        I->scratch_cap = cap;
    }
    return which == 0 ? I->scratch_a : which == 1 ? I->scratch_b : I->scratch_acc;
}

/* dot(a[m,k], b[k,n] [, acc]) in f32: each product rounded to f32, added to
   the f32 sum in order k = 0, 1, ..., no fused multiply-add (f16 and bf16
   products are exact in f32). Integers accumulate exactly and wrap to the
   result dtype; an f64 result accumulates in f64. */
static void exec_dot(Interp *I, const Instr *in) {
    const Slot *a = &I->slots[in->in[0]], *b = &I->slots[in->in[1]];
    const Slot *acc = in->op->num_operands > 2 ? &I->slots[in->in[2]] : NULL;
    Slot *r = &I->slots[in->out[0]];
    const IrType *at = &a->value->type, *bt = &b->value->type;
    if (at->rank != 2 || bt->rank != 2 || at->dims[1].size != bt->dims[0].size)
        interp_fail(I, in->op, "dot of tiles whose shapes do not chain");
    int64_t M = at->dims[0].size, K = at->dims[1].size, N = bt->dims[1].size;
    Elem *z = r->e;
    if (r->dtype == DT_F32 && a->is_float) {
        int64_t need = M * K > K * N ? M * K : K * N;
        float *fa = scratch(I, 0, need > N ? need : N);
        float *fb = scratch(I, 1, 0), *row = scratch(I, 2, 0);
        for (int64_t i = 0; i < M * K; i++)
            fa[i] = (float)a->e[i].f;
        for (int64_t i = 0; i < K * N; i++)
            fb[i] = (float)b->e[i].f;
        for (int64_t i = 0; i < M; i++) {
            for (int64_t j = 0; j < N; j++)
                row[j] = acc ? (float)acc->e[i * N + j].f : 0.0f;
            for (int64_t k = 0; k < K; k++) {
                float aik = fa[i * K + k];
                const float *brow = fb + k * N;
                for (int64_t j = 0; j < N; j++) {
                    float p = aik * brow[j];
                    row[j] = row[j] + p;
                }
            }
            for (int64_t j = 0; j < N; j++)
                z[i * N + j].f = row[j];
        }
    } else if (r->is_float) {
        for (int64_t i = 0; i < M * N; i++)
            z[i].f = acc ? acc->e[i].f : 0.0;
        for (int64_t i = 0; i < M; i++)
            for (int64_t k = 0; k < K; k++) {
                double aik = a->is_float ? a->e[i * K + k].f : (double)a->e[i * K + k].i;
                for (int64_t j = 0; j < N; j++) {
                    double bkj = b->is_float ? b->e[k * N + j].f : (double)b->e[k * N + j].i;
                    z[i * N + j].f = numeric_round(r->dtype, z[i * N + j].f + numeric_round(r->dtype, aik * bkj));
                }
            }
    } else {
        for (int64_t i = 0; i < M * N; i++)
            z[i].i = acc ? acc->e[i].i : 0;
        for (int64_t i = 0; i < M; i++)
            for (int64_t k = 0; k < K; k++) {
                uint64_t aik = (uint64_t)a->e[i * K + k].i;
                for (int64_t j = 0; j < N; j++)
                    z[i * N + j].i = (int64_t)((uint64_t)z[i * N + j].i + aik * (uint64_t)b->e[k * N + j].i);
            }
        wrap_buffer(r->dtype, z, M * N);
    }
}

/* ---- memory: views, loads, stores, atomics ---------------------------------------------- */

static int64_t scalar_int(const Interp *I, int slot) { return I->slots[slot].e[0].i; }

static void exec_view(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *src = &I->slots[in->in[0]].ref;
    Ref *v = &I->slots[in->out[0]].ref;
    Ref out = *src;
    out.rank = 0;
    for (int d = 0; d < src->rank; d++) {
        const IrViewDim *vd = &op->view_dims[d];
        int k = src->root_dim[d];
        switch (vd->kind) {
        case VIEW_FULL:
            out.size[out.rank] = src->size[d];
            out.root_dim[out.rank++] = k;
            break;
        case VIEW_RANGE: {
            int64_t offset = scalar_int(I, in->in[vd->offset_operand]);
            out.base[k] = src->base[k] + offset;
            if (out.lo[k] < out.base[k])
                out.lo[k] = out.base[k];
            if (out.hi[k] > out.base[k] + vd->size)
                out.hi[k] = out.base[k] + vd->size;
            out.size[out.rank] = vd->size;
            out.root_dim[out.rank++] = k;
            break;
        }
        case VIEW_INDEX: {
            int64_t index = scalar_int(I, in->in[vd->offset_operand]);
            if (index < 0 || index >= src->size[d])
                interp_fail(I, op, "index %lld is outside dim %d (size %lld) of the %s it indexes",
                            (long long)index, d, (long long)src->size[d],
                            src->mem->shared ? "shared buffer" : "ref");
            out.base[k] = src->base[k] + index;
            if (out.lo[k] < out.base[k])
                out.lo[k] = out.base[k];
            if (out.hi[k] > out.base[k] + 1)
                out.hi[k] = out.base[k] + 1;
            break;
        }
        }
    }
    *v = out;
}

/* Runs of in-bounds elements of a view: the view is walked row by row (all
   dims but the last), and each row clipped to the box. */
typedef struct Runs {
    const Ref *ref;
    int64_t vlo[IR_MAX_RANK], vhi[IR_MAX_RANK], stride[IR_MAX_RANK];
    int64_t coord[IR_MAX_RANK];
    int64_t origin;              /* memory offset of view element 0 */
    int64_t row, rows, inner;
    bool empty;
    /* the current run: tile elements [tile, tile + count), memory offset
       `offset` with step `step` */
    int64_t tile, offset, step, count;
} Runs;

static void runs_init(Runs *it, const Ref *ref) {
    memset(it, 0, sizeof *it);
    it->ref = ref;
    const Memory *mem = ref->mem;
    bool mapped[IR_MAX_RANK] = {false};
    int64_t n = 1;
    for (int d = 0; d < ref->rank; d++) {
        int k = ref->root_dim[d];
        mapped[k] = true;
        int64_t lo = ref->lo[k] - ref->base[k], hi = ref->hi[k] - ref->base[k];
        it->vlo[d] = lo < 0 ? 0 : lo > ref->size[d] ? ref->size[d] : lo;
        it->vhi[d] = hi < it->vlo[d] ? it->vlo[d] : hi > ref->size[d] ? ref->size[d] : hi;
        it->stride[d] = mem->stride[k];
        n *= ref->size[d];
    }
    for (int k = 0; k < mem->rank; k++) {
        it->origin += ref->base[k] * mem->stride[k];
        if (!mapped[k] && (ref->base[k] < ref->lo[k] || ref->base[k] >= ref->hi[k]))
            it->empty = true;
        if (ref->lo[k] >= ref->hi[k])
            it->empty = true;
    }
    it->inner = ref->rank ? ref->size[ref->rank - 1] : 1;
    it->rows = it->inner ? n / it->inner : 0;
    if (n == 0)
        it->empty = true;
}

static bool runs_next(Runs *it) {
    if (it->empty)
        return false;
    const Ref *ref = it->ref;
    int r = ref->rank;
    while (it->row < it->rows) {
        bool valid = true;
        int64_t offset = it->origin;
        for (int d = 0; d + 1 < r; d++) {
            valid &= it->coord[d] >= it->vlo[d] && it->coord[d] < it->vhi[d];
            offset += it->coord[d] * it->stride[d];
        }
        int64_t row = it->row++;
        for (int d = r - 2; d >= 0; d--) {
            if (++it->coord[d] < ref->size[d])
                break;
            it->coord[d] = 0;
        }
        int64_t lo = r ? it->vlo[r - 1] : 0, hi = r ? it->vhi[r - 1] : 1;
        if (!valid || lo >= hi)
            continue;
        it->step = r ? it->stride[r - 1] : 0;
        it->tile = row * it->inner + lo;
        it->offset = offset + lo * it->step;
        it->count = hi - lo;
        return true;
    }
    return false;
}

static void read_run(DType dtype, const char *base, int64_t offset, int64_t step, int64_t n, Elem *z) {
    switch (dtype) {
    case DT_BOOL:
    case DT_U8: { const uint8_t *p = (const uint8_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_I8: { const int8_t *p = (const int8_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_I16: { const int16_t *p = (const int16_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_I32: { const int32_t *p = (const int32_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_I64: { const int64_t *p = (const int64_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_U16: { const uint16_t *p = (const uint16_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_U32: { const uint32_t *p = (const uint32_t *)base + offset; EACH(z[i].i = p[i * step]) break; }
    case DT_U64: { const uint64_t *p = (const uint64_t *)base + offset; EACH(z[i].i = (int64_t)p[i * step]) break; }
    case DT_F16: {
        const uint16_t *p = (const uint16_t *)base + offset;
        const double *f16 = numeric_f16_values();
        EACH(z[i].f = f16[p[i * step]])
        break;
    }
    case DT_BF16: { const uint16_t *p = (const uint16_t *)base + offset; EACH(z[i].f = numeric_bf16_to_double(p[i * step])) break; }
    case DT_F32: { const float *p = (const float *)base + offset; EACH(z[i].f = p[i * step]) break; }
    case DT_F64: { const double *p = (const double *)base + offset; EACH(z[i].f = p[i * step]) break; }
    case DT_F8E4M3:
    case DT_F8E5M2: {
        const uint8_t *p = (const uint8_t *)base + offset;
        EACH(z[i].f = numeric_fp8_to_double(dtype, p[i * step]))
        break;
    }
    default: break;
    }
}

static void write_run(DType dtype, char *base, int64_t offset, int64_t step, int64_t n, const Elem *x) {
    switch (dtype) {
    case DT_BOOL: { uint8_t *p = (uint8_t *)base + offset; EACH(p[i * step] = x[i].i != 0) break; }
    case DT_U8: { uint8_t *p = (uint8_t *)base + offset; EACH(p[i * step] = (uint8_t)x[i].i) break; }
    case DT_I8: { int8_t *p = (int8_t *)base + offset; EACH(p[i * step] = (int8_t)x[i].i) break; }
    case DT_I16: { int16_t *p = (int16_t *)base + offset; EACH(p[i * step] = (int16_t)x[i].i) break; }
    case DT_I32: { int32_t *p = (int32_t *)base + offset; EACH(p[i * step] = (int32_t)x[i].i) break; }
    case DT_I64: { int64_t *p = (int64_t *)base + offset; EACH(p[i * step] = x[i].i) break; }
    case DT_U16: { uint16_t *p = (uint16_t *)base + offset; EACH(p[i * step] = (uint16_t)x[i].i) break; }
    case DT_U32: { uint32_t *p = (uint32_t *)base + offset; EACH(p[i * step] = (uint32_t)x[i].i) break; }
    case DT_U64: { uint64_t *p = (uint64_t *)base + offset; EACH(p[i * step] = (uint64_t)x[i].i) break; }
    case DT_F16: { uint16_t *p = (uint16_t *)base + offset; EACH(p[i * step] = numeric_double_to_f16(x[i].f)) break; }
    case DT_BF16: { uint16_t *p = (uint16_t *)base + offset; EACH(p[i * step] = numeric_double_to_bf16(x[i].f)) break; }
    case DT_F32: { float *p = (float *)base + offset; EACH(p[i * step] = (float)x[i].f) break; }
    case DT_F64: { double *p = (double *)base + offset; EACH(p[i * step] = x[i].f) break; }
    case DT_F8E4M3:
    case DT_F8E5M2: { uint8_t *p = (uint8_t *)base + offset; EACH(p[i * step] = numeric_double_to_fp8(dtype, x[i].f)) break; }
    default: break;
    }
}

static void exec_load(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *ref = &I->slots[in->in[0]].ref;
    Slot *r = &I->slots[in->out[0]];
    int next = 1;
    const Elem *mask = op->has_mask ? I->slots[in->in[next++]].e : NULL;
    const Elem *other = op->has_other ? I->slots[in->in[next++]].e : NULL;
    if (other)
        memcpy(r->e, other, sizeof(Elem) * (size_t)r->n);
    else
        memset(r->e, 0, sizeof(Elem) * (size_t)r->n);
    const Memory *mem = ref->mem;
    Runs it;
    runs_init(&it, ref);
    while (runs_next(&it)) {
        Elem *z = r->e + it.tile;
        if (mem->written) {
            for (int64_t i = 0; i < it.count; i++) {
                int64_t offset = it.offset + i * it.step;
                if (mask && !mask[it.tile + i].i)
                    continue;
                shared_readable(I, op, mem, offset,
                                "read of shared memory before the async copy into it was waited for",
                                "read of shared memory that nothing wrote");
                mem->read_epoch[offset] = I->wait_epoch;
            }
        }
        read_run(mem->dtype, mem->data, it.offset, it.step, it.count, z);
        if (mask) {
            for (int64_t i = 0; i < it.count; i++)
                if (!mask[it.tile + i].i)
                    z[i] = other ? other[it.tile + i] : (Elem){0};
        }
    }
}

static int64_t *writers(Interp *I, Memory *mem) {
    if (!mem->writer)
        mem->writer = ARENA_ARRAY(&I->arena, int64_t, mem->count + 1);
    return mem->writer;
}

/* Records program I->linear_pid as a writer of element `offset` (atomic or
   not); two different programs of which one is not atomic are an error. */
static void note_write(Interp *I, const IrOp *op, Memory *mem, int64_t offset, bool atomic) {
    int64_t *w = writers(I, mem) + offset;
    int64_t me = I->linear_pid + 1;
    if (*w == 0 || *w == me) {
        *w = atomic && *w == 0 ? -1 : *w == 0 ? me : *w;
        return;
    }
    if (*w == -1) {
        if (atomic)
            return;
        char where[256];
        format_element(mem, offset, where, sizeof where);
        interp_fail(I, op, "non-atomic write of element %s, which another program updated atomically",
                    where);
    }
    char where[256], first[96];
    format_element(mem, offset, where, sizeof where);
    format_linear_program(I, *w - 1, first, sizeof first);
    interp_fail(I, op, "%s write of element %s, which program %s also wrote without an atomic",
                atomic ? "atomic" : "non-atomic", where, first);
}

static void exec_store(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *ref = &I->slots[in->in[0]].ref;
    const Elem *value = I->slots[in->in[1]].e;
    const Elem *mask = op->has_mask ? I->slots[in->in[2]].e : NULL;
    Memory *mem = ref->mem;
    Runs it;
    runs_init(&it, ref);
    while (runs_next(&it)) {
        int64_t i = 0;
        while (i < it.count) {
            /* the next stretch of elements the mask keeps */
            while (i < it.count && mask && !mask[it.tile + i].i)
                i++;
            int64_t start = i;
            while (i < it.count && (!mask || mask[it.tile + i].i))
                i++;
            if (i == start)
                continue;
            for (int64_t j = start; j < i; j++) {
                int64_t offset = it.offset + j * it.step;
                if (mem->shared && (mem->written[offset] & SHARED_PENDING))
                    element_fail(I, op, mem, offset,
                                 "write of shared memory while an async copy into it is in "
                                 "flight");
                if (mem->shared)
                    mem->written[offset] = SHARED_WRITTEN;
                else
                    note_write(I, op, mem, offset, false);
            }
            write_run(mem->dtype, mem->data, it.offset + start * it.step, it.step, i - start,
                      value + it.tile + start);
        }
    }
}

/* Element `offset` of `mem` combined with v (add, max, min) in place, as an
   atomic does: float add rounds to the dtype, float max/min are maxNum/minNum
   (a NaN operand loses, as atom.max), integers wrap. */
static void atomic_combine(Memory *mem, IrCombine combine, int64_t offset, Elem v) {
    Elem old;
    read_run(mem->dtype, mem->data, offset, 1, 1, &old);
    if (dtype_is_float(mem->dtype)) {
        switch (combine) {
        case COMBINE_ADD: old.f = numeric_round(mem->dtype, old.f + v.f); break;
        case COMBINE_MAX: old.f = numeric_maxnum(old.f, v.f); break;
        case COMBINE_MIN: old.f = numeric_minnum(old.f, v.f); break;
        case COMBINE_MUL: break;   /* no atomic (ir_verify) */
        }
    } else {
        switch (combine) {
        case COMBINE_ADD: old.i = numeric_int_op(IR_ADD, mem->dtype, old.i, v.i); break;
        case COMBINE_MAX: old.i = numeric_int_op(IR_MAX, mem->dtype, old.i, v.i); break;
        case COMBINE_MIN: old.i = numeric_int_op(IR_MIN, mem->dtype, old.i, v.i); break;
        case COMBINE_MUL: break;   /* no atomic (ir_verify) */
        }
        wrap_buffer(mem->dtype, &old, 1);
    }
    write_run(mem->dtype, mem->data, offset, 1, 1, &old);
}

/* ---- print and assert (tessc -g) ------------------------------------------------------- */

/* Element i of a row-major tile as "(i0, i1, ...)". */
static void format_index(const IrType *t, int64_t i, char *buf, size_t size) {
    int64_t idx[IR_MAX_RANK];
    for (int d = t->rank - 1; d >= 0; d--) {
        idx[d] = i % t->dims[d].size;
        i /= t->dims[d].size;
    }
    size_t used = (size_t)snprintf(buf, size, "(");
    for (int d = 0; d < t->rank && used < size; d++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (used < size)
        snprintf(buf + used, size - used, ")");
}

/* One line per element, as the GPU prints it (llvm_debug.c):
   "pid (x, y, z) idx (i, j) label: value", floats as %.9g (f64 %.17g),
   integers and bools as integers. */
static void exec_print(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    char pid[96];
    snprintf(pid, sizeof pid, "pid (%lld, %lld, %lld)", (long long)I->pid[0], (long long)I->pid[1],
             (long long)I->pid[2]);
    if (!op->num_operands) {
        printf("%s %s\n", pid, op->text);
        return;
    }
    const Slot *v = &I->slots[in->in[0]];
    const IrType *t = &v->value->type;
    for (int64_t i = 0; i < v->n; i++) {
        char idx[128] = "";
        if (t->rank) {
            idx[0] = ' ';
            memcpy(idx + 1, "idx ", 4);
            format_index(t, i, idx + 5, sizeof idx - 5);
        }
        if (v->is_float)
            printf(v->dtype == DT_F64 ? "%s%s %s: %.17g\n" : "%s%s %s: %.9g\n", pid, idx, op->text, v->e[i].f);
        else
            printf(v->dtype == DT_U64 ? "%s%s %s: %llu\n" : "%s%s %s: %lld\n", pid, idx, op->text, (long long)v->e[i].i);
    }
}

/* Every element must hold; the first that does not fails the run. */
static void exec_assert(Interp *I, const Instr *in) {
    const Slot *c = &I->slots[in->in[0]];
    for (int64_t i = 0; i < c->n; i++) {
        if (c->e[i].i)
            continue;
        char idx[128] = "";
        if (c->value->type.rank) {
            memcpy(idx, " at idx ", 8);
            format_index(&c->value->type, i, idx + 8, sizeof idx - 8);
        }
        I->error->assertion = true;
        interp_fail(I, in->op, "assertion failed%s%s%s", idx, *in->op->text ? ": " : "", in->op->text);
    }
}

static void exec_atomic(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *ref = &I->slots[in->in[0]].ref;
    const Elem *value = I->slots[in->in[1]].e;
    const Elem *mask = op->has_mask ? I->slots[in->in[2]].e : NULL;
    Memory *mem = ref->mem;
    Runs it;
    runs_init(&it, ref);
    while (runs_next(&it)) {
        for (int64_t i = 0; i < it.count; i++) {
            if (mask && !mask[it.tile + i].i)
                continue;
            int64_t offset = it.offset + i * it.step;
            if (mem->shared) {
                shared_readable(I, op, mem, offset,
                                "atomic update of shared memory while an async copy into it is in flight",
                                "atomic update of shared memory that nothing wrote");
            } else {
                note_write(I, op, mem, offset, true);
            }
            atomic_combine(mem, op->combine, offset, value[it.tile + i]);
        }
    }
}

/* Element `e` of a gather or scatter: its offset in the memory, or false
   when an index is outside the ref (its view size, any enclosing view or
   the array: docs/language.md 5, reads give 0 or other, writes drop). */
static bool indexed_offset(const Ref *ref, const Slot *indices, int64_t e, int64_t *offset) {
    const Memory *mem = ref->mem;
    bool mapped[IR_MAX_RANK] = {false};
    int64_t at = 0;
    for (int d = 0; d < ref->rank; d++) {
        int64_t c = indices[d].e[e].i;
        int k = ref->root_dim[d];
        mapped[k] = true;
        int64_t x = ref->base[k] + c;
        if (c < 0 || c >= ref->size[d] || x < ref->lo[k] || x >= ref->hi[k])
            return false;
        at += x * mem->stride[k];
    }
    for (int k = 0; k < mem->rank; k++) {
        if (mapped[k])
            continue;
        if (ref->base[k] < ref->lo[k] || ref->base[k] >= ref->hi[k])
            return false;
        at += ref->base[k] * mem->stride[k];
    }
    *offset = at;
    return true;
}

static void exec_gather(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *ref = &I->slots[in->in[0]].ref;
    Slot *r = &I->slots[in->out[0]];
    Slot indices[IR_MAX_RANK];
    for (int d = 0; d < ref->rank; d++)
        indices[d] = I->slots[in->in[1 + d]];
    int next = 1 + ref->rank;
    const Elem *mask = op->has_mask ? I->slots[in->in[next++]].e : NULL;
    const Elem *other = op->has_other ? I->slots[in->in[next++]].e : NULL;
    for (int64_t e = 0; e < r->n; e++) {
        int64_t offset;
        if ((mask && !mask[e].i) || !indexed_offset(ref, indices, e, &offset)) {
            r->e[e] = other ? other[e] : (Elem){0};
            continue;
        }
        if (ref->mem->shared) {   /* as a load of it: landed and written (docs/interpreter.md) */
            shared_readable(I, op, ref->mem, offset,
                            "read of shared memory before the async copy into it was waited for",
                            "read of shared memory that nothing wrote");
            ref->mem->read_epoch[offset] = I->wait_epoch;
        }
        read_run(ref->mem->dtype, ref->mem->data, offset, 1, 1, &r->e[e]);
    }
}

/* scatter: elements in order, each element at most once per program (two
   elements of one scatter with one index are the double write note_write
   reports: on the GPU one of them would win, unspecified which); atomic:
   combined in element order, which for float add fixes a rounding order
   the GPU's atomics need not follow (docs/language.md 8.4). */
static void exec_scatter(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *ref = &I->slots[in->in[0]].ref;
    Slot indices[IR_MAX_RANK];
    for (int d = 0; d < ref->rank; d++)
        indices[d] = I->slots[in->in[1 + d]];
    const Slot *value = &I->slots[in->in[1 + ref->rank]];
    const Elem *mask = op->has_mask ? I->slots[in->in[2 + ref->rank]].e : NULL;
    Memory *mem = ref->mem;
    bool atomic = op->opcode == IR_SCATTER_ATOMIC;
    if (!atomic && !mem->scattered)
        mem->scattered = ARENA_ARRAY(&I->arena, int64_t, mem->count + 1);
    int64_t stamp = ++I->scatters;
    for (int64_t e = 0; e < value->n; e++) {
        int64_t offset;
        if ((mask && !mask[e].i) || !indexed_offset(ref, indices, e, &offset))
            continue;
        Elem v = value->e[e];
        if (mem->shared) {
            /* the block's own buffer: its element is this program's (no
               writer across programs), written once the scatter is; an
               atomic reads the old value first */
            if (atomic)
                shared_readable(I, op, mem, offset, "read of shared memory before the async copy into it was waited for",
                                "read of shared memory that nothing wrote");
            else if (mem->written[offset] & SHARED_PENDING)
                element_fail(I, op, mem, offset, "write of shared memory while an async copy into it is in flight");
        }
        if (!atomic) {
            if (mem->scattered[offset] == stamp) {
                char where[256];
                format_element(mem, offset, where, sizeof where);
                interp_fail(I, op, "two elements of one scatter (the second is element %lld of the tile) write "
                            "element %s: which one the GPU keeps is unspecified; use atomic_add, "
                            "atomic_max or atomic_min to combine them", (long long)e, where);
            }
            mem->scattered[offset] = stamp;
            if (mem->shared)
                mem->written[offset] = SHARED_WRITTEN;
            else
                note_write(I, op, mem, offset, false);
            write_run(mem->dtype, mem->data, offset, 1, 1, &v);
            continue;
        }
        if (!mem->shared)
            note_write(I, op, mem, offset, true);
        atomic_combine(mem, op->combine, offset, v);
    }
}

static void ref_of_memory(Ref *ref, Memory *mem) {
    memset(ref, 0, sizeof *ref);
    ref->mem = mem;
    ref->rank = mem->rank;
    for (int d = 0; d < mem->rank; d++) {
        ref->size[d] = mem->shape[d];
        ref->root_dim[d] = d;
        ref->lo[d] = 0;
        ref->hi[d] = mem->shape[d];
    }
}

static void check_no_pending(Interp *I, const IrOp *op, const Memory *m);

static void exec_alloc(Interp *I, const Instr *in) {
    Memory *m = in->shared;
    check_no_pending(I, in->op, m);
    memset(m->written, 0, (size_t)m->count);
    memset(m->read_epoch, 0, sizeof(int64_t) * (size_t)m->count);
    memset(m->data, 0, (size_t)(m->count * m->elem_bytes));
    ref_of_memory(&I->slots[in->out[0]].ref, m);
}

/* ---- asynchronous copies ---------------------------------------------------------------- */

/* An alloc that runs again while a copy into its buffer is in flight: on
   the GPU the copy would still land, in bytes that now belong to the new
   buffer. */
static void check_no_pending(Interp *I, const IrOp *op, const Memory *m) {
    for (int i = 0; i < I->num_pending; i++)
        if (I->pending[i].dst.mem == m)
            interp_fail(I, op, "alloc runs again while an async copy into its buffer (line %d) is in flight",
                        I->pending[i].op->loc.line);
}

/* async_copy dst, src [mask]: the source's tile (0 where masked off or out
   of bounds) is read now; dst's in-bounds elements become pending. */
static void exec_async_copy(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    const Ref *dst = &I->slots[in->in[0]].ref;
    const Ref *src = &I->slots[in->in[1]].ref;
    const Elem *mask = op->has_mask ? I->slots[in->in[2]].e : NULL;
    int64_t n = 1;
    for (int d = 0; d < dst->rank; d++)
        n *= dst->size[d];
    if (I->num_pending == I->cap_pending) {
        int cap = I->cap_pending ? 2 * I->cap_pending : 16;
        PendingCopy *grown = realloc(I->pending, sizeof(PendingCopy) * (size_t)cap);
        if (!grown)
            interp_fail(I, op, "out of memory");
        I->pending = grown;
        I->cap_pending = cap;
    }
    Elem *data = calloc((size_t)(n > 0 ? n : 1), sizeof(Elem));
    if (!data)
        interp_fail(I, op, "out of memory");
    I->pending[I->num_pending++] = (PendingCopy){op, *dst, data, I->committed_groups};
    Runs it;
    runs_init(&it, src);
    while (runs_next(&it)) {
        read_run(src->mem->dtype, src->mem->data, it.offset, it.step, it.count, data + it.tile);
        for (int64_t i = 0; mask && i < it.count; i++)
            if (!mask[it.tile + i].i)
                data[it.tile + i] = (Elem){0};
    }
    Memory *mem = dst->mem;
    runs_init(&it, dst);
    while (runs_next(&it)) {
        for (int64_t i = 0; i < it.count; i++) {
            int64_t offset = it.offset + i * it.step;
            const char *what = (mem->written[offset] & SHARED_PENDING)
                                   ? "async copy into shared memory that another async copy is still filling"
                               : mem->read_epoch[offset] == I->wait_epoch
                                   ? "async copy into shared memory read since the last async_wait (a stage "
                                     "still being read)"
                                   : NULL;
            if (what)
                element_fail(I, op, mem, offset, what);
            mem->written[offset] |= SHARED_PENDING;
        }
    }
}

static void land_copy(PendingCopy *c) {
    Memory *mem = c->dst.mem;
    Runs it;
    runs_init(&it, &c->dst);
    while (runs_next(&it)) {
        write_run(mem->dtype, mem->data, it.offset, it.step, it.count, c->data + it.tile);
        for (int64_t i = 0; i < it.count; i++)
            mem->written[it.offset + i * it.step] = SHARED_WRITTEN;
    }
    free(c->data);
}

/* async_wait N: the groups older than the newest N committed land; a new
   wait epoch starts (the block's barrier on the GPU). */
static void exec_async_wait(Interp *I, const Instr *in) {
    int64_t retire_below = I->committed_groups - in->op->int_value;
    int kept = 0;
    for (int i = 0; i < I->num_pending; i++) {
        if (I->pending[i].group < retire_below)
            land_copy(&I->pending[i]);
        else
            I->pending[kept++] = I->pending[i];
    }
    I->num_pending = kept;
    I->wait_epoch++;
}

/* ---- control flow ---------------------------------------------------------------------- */

static void exec_code(Interp *I, const Code *code);

static void copy_value(Slot *to, const Slot *from) {
    if (to->is_ref)
        to->ref = from->ref;
    else if (to->e != from->e)
        memcpy(to->e, from->e, sizeof(Elem) * (size_t)to->n);
}

static const Instr *yield_of(const Code *code) {
    return code->n && code->instrs[code->n - 1].op->opcode == IR_YIELD ? &code->instrs[code->n - 1] : NULL;
}

static void exec_for(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    int64_t lo = scalar_int(I, in->in[0]), hi = scalar_int(I, in->in[1]), step = scalar_int(I, in->in[2]);
    const Code *body = in->body;
    int carried = op->num_operands - 3;
    for (int j = 0; j < carried; j++)
        copy_value(&I->slots[body->args[j + 1]], &I->slots[in->in[3 + j]]);
    /* The trip count, once, before the first iteration (docs/language.md
       6.6): lo, lo + step, ... while < hi; a step <= 0 runs nothing, as on
       the GPU, which has no way to report it. In 64 bits, so that neither
       it nor the last lo + k * step (<= INT32_MAX + step) wraps. */
    int64_t trips = step > 0 && lo < hi ? (hi - lo - 1) / step + 1 : 0;
    const Instr *yield = yield_of(body);
    int until = (int)op->int_value;   /* a carried bool that ends the loop before a trip: break, while */
    for (int64_t k = 0; k < trips; k++) {
        if (until > 0 && I->slots[body->args[until]].e[0].i)
            break;
        I->slots[body->args[0]].e[0].i = lo + k * step;
        exec_code(I, body);
        if (!yield)
            continue;
        /* new values into the spare buffers first: a yield may permute args */
        for (int j = 0; j < carried; j++) {
            Slot *arg = &I->slots[body->args[j + 1]];
            const Slot *from = &I->slots[yield->in[j]];
            if (arg->is_ref)
                continue;
            memcpy(arg->spare, from->e, sizeof(Elem) * (size_t)arg->n);
        }
        for (int j = 0; j < carried; j++) {
            Slot *arg = &I->slots[body->args[j + 1]];
            if (arg->is_ref) {
                arg->ref = I->slots[yield->in[j]].ref;
                continue;
            }
            Elem *t = arg->e;
            arg->e = arg->spare;
            arg->spare = t;
        }
    }
    for (int j = 0; j < op->num_results; j++)
        copy_value(&I->slots[in->out[j]], &I->slots[body->args[j + 1]]);
}

static void exec_if(Interp *I, const Instr *in) {
    bool taken = scalar_int(I, in->in[0]) != 0;
    const Code *code = taken ? in->body : in->else_body;
    if (!code)
        return;
    exec_code(I, code);
    const Instr *yield = yield_of(code);
    for (int j = 0; yield && j < in->op->num_results; j++)
        copy_value(&I->slots[in->out[j]], &I->slots[yield->in[j]]);
}

static void exec_instr(Interp *I, const Instr *in) {
    const IrOp *op = in->op;
    if (in->done)
        return;
    if (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_compare(op->opcode) ||
        op->opcode == IR_AND || op->opcode == IR_OR) {
        exec_binary(I, in);
        return;
    }
    if (ir_opcode_is_elementwise_unary(op->opcode) || op->opcode == IR_NEG || op->opcode == IR_NOT) {
        exec_unary(I, in);
        return;
    }
    Slot *r = op->num_results ? &I->slots[in->out[0]] : NULL;
    switch (op->opcode) {
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS: {
        int axis = op->axis;
        int64_t v = axis < 0 || axis > 2 ? 0 : op->opcode == IR_PROGRAM_ID ? I->pid[axis] : I->grid[axis];
        if (axis < 0 || axis > 2)
            interp_fail(I, op, "program axis %d", axis);
        r->e[0].i = v;
        break;
    }
    case IR_SELECT: exec_select(I, in); break;
    case IR_CAST: exec_cast(I, in); break;
    case IR_BITCAST: exec_bitcast(I, in); break;
    case IR_BROADCAST: exec_broadcast(I, in); break;
    case IR_RESHAPE: memcpy(r->e, I->slots[in->in[0]].e, sizeof(Elem) * (size_t)r->n); break;
    case IR_TRANSPOSE: exec_transpose(I, in); break;
    case IR_EXTRACT: exec_extract(I, in); break;
    case IR_PERMUTE: exec_permute(I, in); break;
    case IR_FLIP: exec_flip(I, in); break;
    case IR_REDUCE: exec_reduce(I, in); break;
    case IR_SCAN: exec_scan(I, in); break;
    case IR_DOT: exec_dot(I, in); break;
    case IR_VIEW: exec_view(I, in); break;
    case IR_LOAD: exec_load(I, in); break;
    case IR_STORE: exec_store(I, in); break;
    case IR_ATOMIC: exec_atomic(I, in); break;
    case IR_GATHER: exec_gather(I, in); break;
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC: exec_scatter(I, in); break;
    case IR_ALLOC: exec_alloc(I, in); break;
    case IR_PRINT: exec_print(I, in); break;
    case IR_ASSERT: exec_assert(I, in); break;
    case IR_ASYNC_COPY: exec_async_copy(I, in); break;
    case IR_ASYNC_COMMIT: I->committed_groups++; break;
    case IR_ASYNC_WAIT: exec_async_wait(I, in); break;
    case IR_FOR: exec_for(I, in); break;
    case IR_IF: exec_if(I, in); break;
    case IR_YIELD: break;
    default: interp_fail(I, op, "the interpreter does not know op '%s'", ir_opcode_name(op->opcode));
    }
}

static void exec_code(Interp *I, const Code *code) {
    for (int i = 0; i < code->n; i++)
        exec_instr(I, &code->instrs[i]);
}

/* ---- the launch ------------------------------------------------------------------------ */

static int64_t size_arg(Interp *I, const InterpArg *args, const char *name) {
    for (int i = 0; i < I->kernel->num_params; i++) {
        const IrParam *p = &I->kernel->params[i];
        if (p->kind == PARAM_SIZE && strcmp(p->name, name) == 0)
            return args[i].int_value;
    }
    launch_fail(I, "no size named '%s'", name);
}

/* Whether a grid may name the parameter: a size, or an i32 scalar. */
static bool grid_param(const IrParam *p) {
    return p->kind == PARAM_SIZE || (p->kind == PARAM_SCALAR && p->value && p->value->type.dtype == DT_I32);
}

/* The grid expression as the runtime's expression tree (runtime/expr.h),
   so that the interpreter and libtessrt share one evaluator: overflow and
   division by zero are errors on both, never a trap or a wrap. */
static TessrtExpr *grid_tree(Interp *I, const GridExpr *g) {
    if (!g)
        launch_fail(I, "internal error: a missing grid expression");
    static const TessrtExprKind kinds[] = {
        [GRID_CONST] = TX_CONST, [GRID_SIZE] = TX_SIZE, [GRID_ADD] = TX_ADD, [GRID_SUB] = TX_SUB,
        [GRID_MUL] = TX_MUL,     [GRID_DIV] = TX_DIV,   [GRID_REM] = TX_REM, [GRID_CDIV] = TX_CDIV,
        [GRID_MIN] = TX_MIN,     [GRID_MAX] = TX_MAX,
    };
    TessrtExpr *e = ARENA_NEW(&I->arena, TessrtExpr);
    if (g->kind == GRID_RESIDENT) {   /* compute_grid's slot after the parameters */
        e->kind = TX_SIZE;
        e->size = I->kernel->num_params;
        return e;
    }
    if ((unsigned)g->kind >= sizeof kinds / sizeof kinds[0])
        launch_fail(I, "internal error: grid expression kind %d", (int)g->kind);
    e->kind = kinds[g->kind];
    e->value = g->value;
    e->size = -1;
    if (g->kind == GRID_SIZE) {
        for (int i = 0; i < I->kernel->num_params && e->size < 0; i++)
            if (grid_param(&I->kernel->params[i]) && strcmp(I->kernel->params[i].name, g->size) == 0)
                e->size = i;
        if (e->size < 0)
            launch_fail(I, "no size or i32 scalar named '%s'", g->size);
    } else if (g->kind != GRID_CONST) {
        e->lhs = grid_tree(I, g->lhs);
        e->rhs = grid_tree(I, g->rhs);
    }
    return e;
}

/* The programs one run may execute when nothing raised the limit
   (interp_set_max_programs; docs/interpreter.md). */
static int64_t interp_max_programs = INTERP_DEFAULT_MAX_PROGRAMS;

void interp_set_max_programs(int64_t limit) {
    interp_max_programs = limit > 0 ? limit : INTERP_DEFAULT_MAX_PROGRAMS;
}

int64_t interp_get_max_programs(void) { return interp_max_programs; }

/* The grid as libtessrt computes it (the same evaluator and the same
   per-dimension limits as a CUDA launch), then the interpreter's own limit on
   the number of programs. A persistent grid's resident_blocks() is
   unbounded for the limits, as libtessrt's check has it (so that they hold
   its tile count), then INTERP_RESIDENT_BLOCKS. */
static void compute_grid(Interp *I, const InterpArg *args, bool limit) {
    int64_t *sizes = ARENA_ARRAY(&I->arena, int64_t, I->kernel->num_params + 1);
    for (int i = 0; i < I->kernel->num_params; i++)
        sizes[i] = grid_param(&I->kernel->params[i]) ? args[i].int_value : 0;
    sizes[I->kernel->num_params] = INT64_MAX;   /* resident_blocks() */
    static const int64_t limits[3] = {INT32_MAX, 65535, 65535};
    int64_t work[3] = {1, 1, 1};   /* programs, or a persistent grid's tiles: what the limit bounds */
    for (int a = 0; a < 3; a++) {
        I->grid[a] = 1;
        if (a >= I->kernel->grid_rank)
            continue;
        char err[256], text[512];
        grid_expr_format(I->kernel->grid[a], text, sizeof text);
        if (!tessrt_expr_eval(grid_tree(I, I->kernel->grid[a]), sizes, &I->grid[a], err, sizeof err))
            launch_fail(I, "grid[%d] '%s': %s", a, text, err);
        if (I->grid[a] < 0 || I->grid[a] > limits[a])
            launch_fail(I, "grid[%d] '%s' is %lld; expected 0 to %lld", a, text, (long long)I->grid[a],
                        (long long)limits[a]);
        work[a] = I->grid[a];
        if (!ir_grid_persistent(I->kernel))
            continue;
        sizes[I->kernel->num_params] = INTERP_RESIDENT_BLOCKS;
        if (!tessrt_expr_eval(grid_tree(I, I->kernel->grid[a]), sizes, &I->grid[a], err, sizeof err))
            launch_fail(I, "grid[%d] '%s': %s", a, text, err);
    }
    int64_t programs;
    bool overflow = __builtin_mul_overflow(work[0], work[1], &programs) ||
                    __builtin_mul_overflow(programs, work[2], &programs);
    if (limit && (overflow || programs > interp_max_programs))
        launch_fail(I, "grid (%lld, %lld, %lld) is %s programs, more than the interpreter's limit of %lld "
                    "(raise it with --max-programs N, or TESSRT_INTERP_MAX_PROGRAMS=N for libtessrt)",
                    (long long)work[0], (long long)work[1], (long long)work[2],
                    overflow ? "over 2^63" : arena_printf(&I->arena, "%lld", (long long)programs),
                    (long long)interp_max_programs);
}

/* Binds the parameters: array memories (shapes checked against the
   parameter types and sizes) and scalar values. */
static void bind_params(Interp *I, const InterpArg *args, int num_args) {
    const IrKernel *k = I->kernel;
    if (num_args != k->num_params)
        launch_fail(I, "%d arguments for %d parameters", num_args, k->num_params);
    I->params = ARENA_ARRAY(&I->arena, Memory, k->num_params + 1);
    for (int i = 0; i < k->num_params; i++) {
        const IrParam *p = &k->params[i];
        if (p->kind == PARAM_SIZE && args[i].int_value < 0)
            launch_fail(I, "size '%s' is negative (%lld)", p->name, (long long)args[i].int_value);
    }
    /* the block specs' launch contracts (IrCover), with libtessrt's message
       (runtime/tessrt.c), so that every way of running a kernel agrees */
    for (int i = 0; i < k->num_covers; i++) {
        const IrCover *c = &k->covers[i];
        const char *size = k->params[c->param].value->type.dims[c->dim].sym;
        int64_t n = size_arg(I, args, size);
        if (n > c->block)
            launch_fail(I, "array '%s' has %s = %lld along dim %d, more than its block's %lld: the block spec "
                           "reaches only elements 0 to %lld there (contract '%s <= %lld')",
                        k->params[c->param].name, size, (long long)n, c->dim, (long long)c->block,
                        (long long)c->block - 1, size, (long long)c->block);
    }
    for (int i = 0; i < k->num_params; i++) {
        const IrParam *p = &k->params[i];
        const IrType *t = &p->value->type;
        int s = slot_new(I, p->value, false);
        Slot *slot = &I->slots[s];
        if (p->kind != PARAM_ARRAY) {
            if (t->kind != IRT_TILE || t->rank != 0)
                launch_fail(I, "scalar parameter '%s' is not a scalar", p->name);
            if (slot->is_float)
                slot->e[0].f = numeric_round(t->dtype, args[i].float_value);
            else
                slot->e[0].i = numeric_wrap(t->dtype, args[i].int_value);
            continue;
        }
        if (t->kind != IRT_REF)
            launch_fail(I, "array parameter '%s' is not a ref", p->name);
        Memory *m = &I->params[i];
        m->name = p->name;
        m->dtype = t->dtype;
        m->elem_bytes = dtype_bytes(t->dtype);
        m->rank = t->rank;
        m->count = 1;
        if (p->strides) {
            /* element (i_0, ...) at sum i_d stride_d: the buffer holds the
               reach, 1 + sum (dim_d - 1) stride_d (0 when a dim is empty) */
            int64_t reach = 1;
            for (int d = 0; d < t->rank; d++) {
                int64_t n = t->dims[d].sym ? size_arg(I, args, t->dims[d].sym) : t->dims[d].size;
                int64_t st = p->strides[d].sym ? size_arg(I, args, p->strides[d].sym) : p->strides[d].size;
                m->shape[d] = n;
                m->stride[d] = st;
                if (n == 0)
                    reach = 0;
                else if (reach > 0 && (__builtin_mul_overflow(n - 1, st, &st) || __builtin_add_overflow(reach, st, &reach)))
                    launch_fail(I, "strided array '%s' reaches past 2^63 elements", p->name);
            }
            if (args[i].count >= 0 && reach > args[i].count)
                launch_fail(I, "strided array '%s' reaches element %lld of its buffer, which has %lld", p->name,
                            (long long)reach - 1, (long long)args[i].count);
            m->count = reach;
            m->data = args[i].data;
            if (!m->data && m->count > 0)
                launch_fail(I, "array '%s' has no memory", p->name);
            ref_of_memory(&slot->ref, m);
            continue;
        }
        for (int d = t->rank - 1; d >= 0; d--) {
            int64_t want = t->dims[d].sym ? size_arg(I, args, t->dims[d].sym) : t->dims[d].size;
            if (args[i].shape[d] != want)
                launch_fail(I, "array '%s' has %lld elements in dim %d where its type says %lld%s%s",
                            p->name, (long long)args[i].shape[d], d, (long long)want,
                            t->dims[d].sym ? " = " : "", t->dims[d].sym ? t->dims[d].sym : "");
            m->shape[d] = want;
            m->stride[d] = m->count;
            m->count *= want;
        }
        m->data = args[i].data;
        if (!m->data && m->count > 0)
            launch_fail(I, "array '%s' has no memory", p->name);
        ref_of_memory(&slot->ref, m);
    }
}

static void run_grid(Interp *I) {
    for (int64_t z = 0; z < I->grid[2]; z++)
        for (int64_t y = 0; y < I->grid[1]; y++)
            for (int64_t x = 0; x < I->grid[0]; x++) {
                I->pid[0] = x;
                I->pid[1] = y;
                I->pid[2] = z;
                I->linear_pid = x + I->grid[0] * (y + I->grid[1] * z);
                I->committed_groups = 0;
                I->wait_epoch++;
                exec_code(I, I->body);
                for (int i = 0; i < I->num_pending; i++)   /* never waited for: they land unseen */
                    free(I->pending[i].data);
                I->num_pending = 0;
            }
}

/* The arena's out-of-memory handler while a launch runs: the launch fails
   with a message and its memory is freed, and the calling program (a host
   program through libtessinterp) goes on. */
static void interp_out_of_memory(void *context) {
    Interp *I = context;
    snprintf(I->error->message, sizeof I->error->message, "kernel '%s': out of memory", I->kernel->name);
    I->error->loc = (Span){0, 0, 0};
    I->error->has_program = false;
    I->error->out_of_memory = true;
    longjmp(I->fail, 1);
}

/* A launch's state, with the arena's out-of-memory handler pointed at it
   (the caller then sets its jmp_buf before allocating); NULL, with `error`
   said, when even that cannot be allocated. interp_close undoes it. */
static Interp *interp_open(const IrKernel *kernel, InterpError *error) {
    memset(error, 0, sizeof *error);
    Interp *I = calloc(1, sizeof *I);
    if (!I) {
        snprintf(error->message, sizeof error->message, "out of memory");
        error->out_of_memory = true;
        return NULL;
    }
    I->kernel = kernel;
    I->error = error;
    I->previous_oom = arena_on_out_of_memory((ArenaOutOfMemory){interp_out_of_memory, I});
    return I;
}

static void interp_close(Interp *I) {
    for (int i = 0; i < I->num_pending; i++)
        free(I->pending[i].data);
    free(I->pending);
    arena_on_out_of_memory(I->previous_oom);
    arena_free(&I->arena);
    free(I);
}

bool interp_grid(const IrKernel *kernel, const InterpArg *args, int num_args, int64_t grid[3],
                 InterpError *error) {
    Interp *I = interp_open(kernel, error);
    if (!I)
        return false;
    bool ok = false;
    if (setjmp(I->fail) == 0) {
        if (num_args != kernel->num_params)
            launch_fail(I, "%d arguments for %d parameters", num_args, kernel->num_params);
        compute_grid(I, args, false);
        memcpy(grid, I->grid, sizeof I->grid);
        ok = true;
    }
    interp_close(I);
    return ok;
}

bool interp_run_kernel(const IrKernel *kernel, const InterpArg *args, int num_args, InterpError *error) {
    Interp *I = interp_open(kernel, error);
    if (!I)
        return false;
    bool ok = false;
    if (setjmp(I->fail) == 0) {
        bind_params(I, args, num_args);
        compute_grid(I, args, true);
        I->body = plan_block(I, kernel->body, false);
        run_grid(I);
        ok = true;
    }
    interp_close(I);
    return ok;
}
