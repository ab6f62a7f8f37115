/*
 * prefetch.c: software pipelining of a loop's global loads (the kernel's
 * `stages` clause; stages >= 2 prefetches one iteration ahead).
 *
 * Requires: a verified kernel.
 * Preserves: verification and meaning: every prefetched tile is the one the
 *   original iteration would have loaded, read from an `in` array, which no
 *   op of the kernel writes (the same assumption as ld.global.nc: an `in`
 *   array does not overlap an `out` one), so stores in the loop do not
 *   stop it.
 * Leaves behind: the original load's address ops, unused when nothing else
 *   needs them (DCE removes them).
 *
 * A load at the top level of a `for` body, from a global `in` array (no
 * kernel op writes those), whose operands are computed only from the
 * induction variable, loop invariants and pure ops of the body (views,
 * arithmetic, casts, shape ops, iota), is rewritten as
 *
 *     x0 = if lo < hi [and s > 0] { load(addr(lo)) } else { 0 }   before the loop
 *     for i = lo to hi step s iter(..., x = x0) {
 *         p = select(i + s < hi [and i + s > i], i + s, i)          first in the body
 *         xn = load(addr(p))
 *         ... x where the load's result was ...
 *         yield ..., xn
 *     }
 *
 * so that iteration i + 1's loads are in flight while iteration i computes
 * (the lowering keeps their order: the loads come before the body's
 * barriers and tensor-core work). Every copy reads what some iteration of
 * the original loop reads, so the pass adds no access the program did not
 * make: a scalar index (`w[k]`, `table[b, j]`) at hi, or at lo when the
 * loop runs no iteration, would be outside its dim (an error in the
 * interpreter, a stray read on the GPU), and an address op at lo might
 * divide by zero. Hence the guard in front (the loop runs iff lo < hi and
 * s > 0, docs/language.md 6.6; `s > 0` is left out for a positive constant
 * step), and the clamp inside: on the last iteration p = i, whose tile is
 * loaded again (from the cache) and never used. i + s can wrap past
 * INT32_MAX only for a step other than the constant 1, which adds the
 * i + s > i test. The clamp is a select, not a branch: the hot loop gains
 * two or three integer ops and no branch.
 *
 * The prefetched tiles are carried in registers: a loop is left alone when
 * the values it would carry, at 4 bytes a register, pass PREFETCH_MAX_REGS
 * per thread, so that the register rule (layout.c) never rejects a kernel
 * because of this pass.
 */
#include "ir.h"

#include <string.h>

enum { PREFETCH_MAX_REGS = 128, PREFETCH_MAX_SLICE = 64, PREFETCH_MAX_MAP = 4 * PREFETCH_MAX_SLICE };

/* Original value -> its copy, for the copies made in front of one loop or
   at the top of its body (shared by the loop's loads, so that an address op
   two loads use is copied once). */
typedef struct ValueMap {
    IrValue *from[PREFETCH_MAX_MAP];
    IrValue *to[PREFETCH_MAX_MAP];
    int n;
} ValueMap;

static IrValue *map_value(const ValueMap *map, IrValue *v) {
    for (int i = 0; i < map->n; i++)
        if (map->from[i] == v)
            return map->to[i];
    return v;
}

static bool is_pure_address_op(IrOpcode opcode) {
    switch (opcode) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_IOTA:
    case IR_SELECT: case IR_CAST: case IR_BROADCAST: case IR_RESHAPE: case IR_VIEW:
        return true;
    default:
        return ir_opcode_is_elementwise_binary(opcode) || ir_opcode_is_elementwise_unary(opcode);
    }
}

/* Collects, in body order, the body ops `v` depends on; false when one of
   them is not a pure address op or `v` depends on a carried value. */
static bool collect_slice(IrBlock *body, IrValue *v, IrOp **slice, int *n) {
    if (v->arg_of == body)
        return v == body->args[0];   /* the induction variable only */
    IrOp *op = v->def;
    if (!op || op->parent != body)
        return true;                 /* defined outside: invariant */
    for (int i = 0; i < *n; i++)
        if (slice[i] == op)
            return true;
    if (!is_pure_address_op(op->opcode) || *n == PREFETCH_MAX_SLICE)
        return false;
    for (int i = 0; i < op->num_operands; i++)
        if (!collect_slice(body, op->operands[i], slice, n))
            return false;
    slice[(*n)++] = op;
    return true;
}

/* The ref a view chain starts from. */
static const IrValue *root_ref(const IrValue *ref) {
    while (ref->def && ref->def->opcode == IR_VIEW)
        ref = ref->def->operands[0];
    return ref;
}

static IrOp *clone_op(IrKernel *kernel, const IrOp *op, ValueMap *map) {
    IrOp *c = ir_op_new(kernel, op->opcode, op->loc, op->num_operands, op->num_results);
    IrValue **operands = c->operands, **results = c->results;
    int num_operands = c->num_operands, num_results = c->num_results;
    *c = *op;
    c->operands = operands;
    c->results = results;
    c->num_operands = num_operands;
    c->num_results = num_results;
    c->parent = NULL;
    c->prev = c->next = NULL;
    for (int i = 0; i < op->num_operands; i++)
        c->operands[i] = map_value(map, op->operands[i]);
    for (int i = 0; i < op->num_results; i++) {
        c->results[i]->type = op->results[i]->type;
        if (map->n == PREFETCH_MAX_MAP)
            INTERNAL_ERROR("prefetch: value map full");   /* prefetch_loop checks the room first */
        map->from[map->n] = op->results[i];
        map->to[map->n++] = c->results[i];
    }
    return c;
}

static bool is_mapped(const ValueMap *map, const IrValue *v) {
    for (int i = 0; i < map->n; i++)
        if (map->from[i] == v)
            return true;
    return false;
}

/* Clones the slice ops not cloned yet (map: original -> clone, the
   induction variable -> its value there) and the load in front of
   `before`; returns the new load's result. */
static IrValue *emit_load(IrKernel *kernel, IrOp *before, IrOp **slice, int n, IrOp *load, ValueMap *map) {
    for (int i = 0; i < n; i++)
        if (!is_mapped(map, slice[i]->results[0]))
            ir_op_insert_before(before, clone_op(kernel, slice[i], map));
    IrOp *c = clone_op(kernel, load, map);
    ir_op_insert_before(before, c);
    return c->results[0];
}

/* Whether the load's only use is the yield: a prefetch already (so that
   running the pass again changes nothing). */
static bool only_yielded(const IrBlock *body, const IrValue *v) {
    int uses = 0, yields = 0;
    for (const IrOp *op = body->first; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i] == v) {
                uses++;
                yields += op->opcode == IR_YIELD;
            }
        if (op->body || op->else_body)
            return false;
    }
    return uses > 0 && uses == yields;
}

static int64_t tile_registers(const IrType *type, int threads) {
    if (type->kind != IRT_TILE)
        return 0;
    int bytes = type->dtype == DT_BOOL ? 1 : dtype_bytes(type->dtype);
    int64_t words = (ir_type_elements(type) * bytes + 3) / 4;
    return (words + threads - 1) / threads;
}

/* `array` of n values with `v` appended, in a new arena array (n may be 0
   and array NULL). */
static IrValue **append_value(IrKernel *kernel, IrValue **array, int *n, IrValue *v) {
    IrValue **grown = ARENA_ARRAY(&kernel->arena, IrValue *, *n + 1);
    if (*n > 0)
        memcpy(grown, array, sizeof(IrValue *) * (size_t)*n);
    grown[(*n)++] = v;
    return grown;
}

/* Appends one carried value to `loop`: init, block argument, result, and
   the yield's operand. Returns the block argument. */
static IrValue *add_carried(IrKernel *kernel, IrOp *loop, IrValue *init, IrValue *next) {
    IrBlock *body = loop->body;
    IrValue *arg = ARENA_NEW(&kernel->arena, IrValue);
    arg->type = init->type;
    arg->arg_of = body;
    arg->result_index = body->num_args;
    IrValue *result = ARENA_NEW(&kernel->arena, IrValue);
    result->type = init->type;
    result->def = loop;
    result->result_index = loop->num_results;
    IrOp *yield = body->last;
    loop->operands = append_value(kernel, loop->operands, &loop->num_operands, init);
    body->args = append_value(kernel, body->args, &body->num_args, arg);
    loop->results = append_value(kernel, loop->results, &loop->num_results, result);
    yield->operands = append_value(kernel, yield->operands, &yield->num_operands, next);
    return arg;
}

/* A new op of one result of `type` in front of `before`, at the loop's
   location (an op of the loop's bookkeeping, not of any expression). */
static IrOp *new_op(IrKernel *kernel, IrOp *before, Span loc, IrOpcode opcode, const IrType *type, IrValue *a,
                    IrValue *b, IrValue *c) {
    IrValue *operands[3] = {a, b, c};
    int n = c ? 3 : b ? 2 : a ? 1 : 0;
    IrOp *op = ir_op_new(kernel, opcode, loc, n, 1);
    for (int i = 0; i < n; i++)
        op->operands[i] = operands[i];
    op->results[0]->type = *type;
    ir_op_insert_before(before, op);
    return op;
}

static bool is_int_const(const IrValue *v, int64_t *value) {
    if (!v->def || v->def->opcode != IR_CONST)
        return false;
    *value = v->def->int_value;
    return true;
}

/* In front of `loop`: `if lo < hi [and step > 0] { yield } else { yield }`,
   the guard of the first iteration's loads (none when the loop runs no
   iteration: a scalar index at lo may be outside its dim then, and the
   original program never reads there). The loads go into its then block,
   zeros into its else block; add_guarded adds one. */
static IrOp *new_guard(IrKernel *kernel, IrOp *loop) {
    IrType boolean = ir_scalar_type(DT_BOOL), i32 = ir_scalar_type(DT_I32);
    IrValue *cond = new_op(kernel, loop, loop->loc, IR_LT, &boolean, loop->operands[0], loop->operands[1], NULL)->results[0];
    int64_t step;
    if (!is_int_const(loop->operands[2], &step) || step <= 0) {
        IrValue *zero = new_op(kernel, loop, loop->loc, IR_CONST, &i32, NULL, NULL, NULL)->results[0];
        IrValue *up = new_op(kernel, loop, loop->loc, IR_GT, &boolean, loop->operands[2], zero, NULL)->results[0];
        cond = new_op(kernel, loop, loop->loc, IR_AND, &boolean, cond, up, NULL)->results[0];
    }
    IrOp *guard = ir_op_new(kernel, IR_IF, loop->loc, 1, 0);
    guard->operands[0] = cond;
    IrBlock *blocks[2];
    for (int k = 0; k < 2; k++) {
        blocks[k] = ir_block_new(kernel, 0, NULL);
        blocks[k]->parent_op = guard;
        ir_block_append(blocks[k], ir_op_new(kernel, IR_YIELD, loop->loc, 0, 0));
    }
    guard->body = blocks[0];
    guard->else_body = blocks[1];
    ir_op_insert_before(loop, guard);
    return guard;
}

/* Adds a result to `guard`: `value` (made in its then block) there, a zero
   of its type in the else block. Returns the result. */
static IrValue *add_guarded(IrKernel *kernel, IrOp *guard, IrValue *value) {
    IrOp *then_yield = guard->body->last, *else_yield = guard->else_body->last;
    IrValue *zero = new_op(kernel, else_yield, guard->loc, IR_CONST, &value->type, NULL, NULL, NULL)->results[0];
    IrValue *result = ARENA_NEW(&kernel->arena, IrValue);
    result->type = value->type;
    result->def = guard;
    result->result_index = guard->num_results;
    then_yield->operands = append_value(kernel, then_yield->operands, &then_yield->num_operands, value);
    else_yield->operands = append_value(kernel, else_yield->operands, &else_yield->num_operands, zero);
    guard->results = append_value(kernel, guard->results, &guard->num_results, result);
    return result;
}

/* At the top of the body: the induction variable of the next iteration,
   or this one's on the last iteration (`select i + s < hi, i + s, i`), so
   that the prefetch reads only what some iteration reads. With a step
   other than the constant 1, i + s may wrap past INT32_MAX: i + s > i too. */
static IrOp *next_iteration(IrKernel *kernel, IrOp *loop) {
    IrBlock *body = loop->body;
    IrValue *iv = body->args[0];
    IrType boolean = ir_scalar_type(DT_BOOL);
    IrOp *first = body->first;
    IrValue *next = new_op(kernel, first, loop->loc, IR_ADD, &iv->type, iv, loop->operands[2], NULL)->results[0];
    IrValue *valid = new_op(kernel, first, loop->loc, IR_LT, &boolean, next, loop->operands[1], NULL)->results[0];
    int64_t step;
    if (!is_int_const(loop->operands[2], &step) || step != 1) {
        IrValue *up = new_op(kernel, first, loop->loc, IR_GT, &boolean, next, iv, NULL)->results[0];
        valid = new_op(kernel, first, loop->loc, IR_AND, &boolean, valid, up, NULL)->results[0];
    }
    return new_op(kernel, first, loop->loc, IR_SELECT, &iv->type, valid, next, iv);
}

static void prefetch_loop(IrKernel *kernel, IrOp *loop, int threads) {
    IrBlock *body = loop->body;
    if (!body || !body->first || body->last->opcode != IR_YIELD)
        return;
    int64_t registers = 0;
    for (int i = 1; i < body->num_args; i++)
        registers += tile_registers(&body->args[i]->type, threads);
    IrOp *guard = NULL;              /* the if around the first iteration's loads */
    IrOp *top = NULL;                /* the last op of the prefetches at the top */
    ValueMap before = {.n = 1}, inside = {.n = 1};
    before.from[0] = inside.from[0] = body->args[0];
    before.to[0] = loop->operands[0];
    IrOp *next_op;
    for (IrOp *op = body->first; op; op = next_op) {
        next_op = op->next;
        if (op->opcode != IR_LOAD)
            continue;
        IrValue *ref = op->operands[0];
        const IrValue *root = root_ref(ref);
        if (ref->type.space != SPACE_GLOBAL || root->type.access != ACCESS_IN || root->def ||
            only_yielded(body, op->results[0]))
            continue;
        int64_t need = tile_registers(&op->results[0]->type, threads);
        if (registers + need > PREFETCH_MAX_REGS)
            continue;
        IrOp *slice[PREFETCH_MAX_SLICE];
        int n = 0;
        bool ok = true;
        for (int i = 0; i < op->num_operands && ok; i++)
            ok = collect_slice(body, op->operands[i], slice, &n);
        /* Room for the copies (each slice op and the load has one result). */
        if (!ok || before.n + n + 1 > PREFETCH_MAX_MAP || inside.n + n + 1 > PREFETCH_MAX_MAP)
            continue;
        if (!guard) {
            guard = new_guard(kernel, loop);
            top = next_iteration(kernel, loop);
            inside.to[0] = top->results[0];
        }
        /* Body order: collect_slice appends dependencies first. */
        IrValue *x0 = add_guarded(kernel, guard, emit_load(kernel, guard->body->last, slice, n, op, &before));
        IrValue *xn = emit_load(kernel, top->next, slice, n, op, &inside);
        top = xn->def;
        IrValue *x = add_carried(kernel, loop, x0, xn);
        ir_replace_uses(body, op->results[0], x);
        ir_op_remove(op);
        registers += need;
    }
}

static void prefetch_block(IrKernel *kernel, IrBlock *block, int threads) {
    for (IrOp *op = block->first; op; op = op->next) {
        if (op->body)
            prefetch_block(kernel, op->body, threads);
        if (op->else_body)
            prefetch_block(kernel, op->else_body, threads);
        if (op->opcode == IR_FOR)
            prefetch_loop(kernel, op, threads);
    }
}

void pass_prefetch(IrKernel *kernel) {
    if (kernel->stages < 2)
        return;
    prefetch_block(kernel, kernel->body, (kernel->warps > 0 ? kernel->warps : 4) * 32);
}
