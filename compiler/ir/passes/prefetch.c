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
 * two or three integer ops and no branch. A loop with a loop in its body
 * (a persistent kernel's tile loop) branches instead, which costs nothing
 * at that trip length and skips the last trip's tile, loaded for nothing
 * (every block's last tile, its only one where the grid covers the tiles):
 *
 *         xn = if i + s < hi [and i + s > i] { load(addr(i + s)) } else { x }
 *
 * The prefetched tiles are carried in registers: a loop is left alone when
 * the values it would carry, at 4 bytes a register, pass PREFETCH_MAX_REGS
 * per thread, so that the register rule (layout.c) never rejects a kernel
 * because of this pass.
 */
#include "ir.h"
#include "loop_edit.h"

#include <string.h>

enum { PREFETCH_MAX_REGS = 128 };

/* Clones the slice ops not cloned yet (map: original -> clone, the
   induction variable -> its value there) and the load in front of
   `before`; returns the new load's result. */
static IrValue *emit_load(IrKernel *kernel, IrOp *before, IrOp **slice, int n, IrOp *load, ValueMap *map) {
    for (int i = 0; i < n; i++)
        if (!loop_is_mapped(map, slice[i]->results[0]))
            ir_op_insert_before(before, loop_clone_op(kernel, slice[i], map));
    IrOp *c = loop_clone_op(kernel, load, map);
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

/* In front of `loop`: `if lo < hi [and step > 0] { yield } else { yield }`,
   the guard of the first iteration's loads (none when the loop runs no
   iteration: a scalar index at lo may be outside its dim then, and the
   original program never reads there). The loads go into its then block,
   zeros into its else block; add_guarded adds one. */
static IrOp *new_guard(IrKernel *kernel, IrOp *loop) {
    IrType boolean = ir_scalar_type(DT_BOOL), i32 = ir_scalar_type(DT_I32);
    IrValue *cond = loop_new_op(kernel, loop, loop->loc, IR_LT, &boolean, loop->operands[0], loop->operands[1], NULL)->results[0];
    int64_t step;
    if (!loop_int_const(loop->operands[2], &step) || step <= 0) {
        IrValue *zero = loop_new_op(kernel, loop, loop->loc, IR_CONST, &i32, NULL, NULL, NULL)->results[0];
        IrValue *up = loop_new_op(kernel, loop, loop->loc, IR_GT, &boolean, loop->operands[2], zero, NULL)->results[0];
        cond = loop_new_op(kernel, loop, loop->loc, IR_AND, &boolean, cond, up, NULL)->results[0];
    }
    return loop_new_if(kernel, loop, loop->loc, cond);
}

/* Adds a result to `guard`: `value` (made in its then block) there,
   `otherwise` in the else block (a zero of its type when NULL). Returns the
   result. */
static IrValue *add_guarded(IrKernel *kernel, IrOp *guard, IrValue *value, IrValue *otherwise) {
    IrOp *then_yield = guard->body->last, *else_yield = guard->else_body->last;
    IrValue *zero = otherwise ? otherwise
                              : loop_new_op(kernel, else_yield, guard->loc, IR_CONST, &value->type, NULL, NULL, NULL)->results[0];
    IrValue *result = ARENA_NEW(&kernel->arena, IrValue);
    result->type = value->type;
    result->def = guard;
    result->result_index = guard->num_results;
    then_yield->operands = loop_append_value(kernel, then_yield->operands, &then_yield->num_operands, value);
    else_yield->operands = loop_append_value(kernel, else_yield->operands, &else_yield->num_operands, zero);
    guard->results = loop_append_value(kernel, guard->results, &guard->num_results, result);
    return result;
}

/* At the top of the body: the induction variable of the next iteration,
   or this one's on the last iteration (`select i + s < hi, i + s, i`), so
   that the prefetch reads only what some iteration reads; or, branching,
   `if i + s < hi { yield } else { yield }`, whose then block the loads go
   into (the next iteration's index i + s in *next_index). With a step
   other than the constant 1, i + s may wrap past INT32_MAX: i + s > i too. */
static IrOp *next_iteration(IrKernel *kernel, IrOp *loop, bool branch, IrValue **next_index) {
    IrBlock *body = loop->body;
    IrValue *iv = body->args[0];
    IrType boolean = ir_scalar_type(DT_BOOL);
    IrOp *first = body->first;
    IrValue *next = loop_new_op(kernel, first, loop->loc, IR_ADD, &iv->type, iv, loop->operands[2], NULL)->results[0];
    IrValue *valid = loop_new_op(kernel, first, loop->loc, IR_LT, &boolean, next, loop->operands[1], NULL)->results[0];
    int64_t step;
    if (!loop_int_const(loop->operands[2], &step) || step != 1) {
        IrValue *up = loop_new_op(kernel, first, loop->loc, IR_GT, &boolean, next, iv, NULL)->results[0];
        valid = loop_new_op(kernel, first, loop->loc, IR_AND, &boolean, valid, up, NULL)->results[0];
    }
    if (branch) {
        *next_index = next;
        return loop_new_if(kernel, first, loop->loc, valid);
    }
    IrOp *select = loop_new_op(kernel, first, loop->loc, IR_SELECT, &iv->type, valid, next, iv);
    *next_index = select->results[0];
    return select;
}

/* Whether `body` holds a loop: then its trip is long enough that a branch
   around the prefetch costs nothing, and the tile a clamp would load again
   on the last trip (a persistent kernel's q, every block's last tile) is
   worth skipping. */
static bool has_inner_loop(const IrBlock *body) {
    for (const IrOp *op = body->first; op; op = op->next)
        if (op->opcode == IR_FOR)
            return true;
    return false;
}

/* Whether every use of `alloc` under `block` (any depth) but `store` is a
   load of it. */
static bool only_loaded(const IrBlock *block, const IrValue *alloc, const IrOp *store) {
    for (const IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i] == alloc && op->opcode != IR_LOAD && op != store)
                return false;
        if ((op->body && !only_loaded(op->body, alloc, store)) ||
            (op->else_body && !only_loaded(op->else_body, alloc, store)))
            return false;
    }
    return true;
}

static bool op_uses(const IrOp *op, const IrValue *v) {
    for (int i = 0; i < op->num_operands; i++)
        if (op->operands[i] == v)
            return true;
    return ir_count_uses(op->body, v) + ir_count_uses(op->else_body, v) > 0;
}

/* A tile loop's stationary operand (pipeline.c stationary_operands: flash
   attention's q, stored into shared memory in front of the key loop and
   read there by every dot), prefetched by the branch form above: the body
   is `xn = if next { load } else { x }; A = alloc; store A, x; ...reads
   of A...; yield ..., xn`. The store is rotated to the end of the trip:
   `store A, x0` in front of the loop, A hoisted out of it, and `store A,
   xn` right before the yield. The next tile's operand then goes to shared
   memory behind this tile's epilogue instead of in front of the next key
   loop: the barrier in front of the store is the one the epilogue's
   conversion leaves anyway (one block barrier a tile less; docs/ir.md
   "prefetch", measured in docs/performance.md "Session 38"). Same meaning: every
   trip's reads of A come after a store of that trip's x (the first trip's
   in front of the loop, each later one's at the end of the trip before),
   and after the loop nothing reads A. On the last trip xn is x and the
   store writes what A holds. */
static void rotate_stationary_store(IrKernel *kernel, IrOp *loop, IrValue *x, IrValue *x0, IrValue *xn) {
    IrBlock *body = loop->body;
    IrOp *store = NULL;
    for (IrOp *op = body->first; op; op = op->next)
        if (op->opcode == IR_STORE && op->operands[1] == x)
            store = op;
    /* x's uses: the store and the else branch of xn's if */
    if (!store || ir_count_uses(body, x) != 2)
        return;
    IrValue *alloc = store->operands[0];
    IrOp *alloc_op = alloc->def;
    if (!alloc_op || alloc_op->opcode != IR_ALLOC || alloc_op->parent != body || alloc_op->num_operands != 0)
        return;
    /* in body order: xn's if, then the store, then every read of A */
    bool stored = false, xn_made = false, read = false;
    for (IrOp *op = body->first; op; op = op->next) {
        if (op == store) {
            stored = true;
            continue;
        }
        xn_made |= op == xn->def;
        if (op != alloc_op && op_uses(op, alloc)) {
            if (!stored)
                return;
            read = true;
        }
    }
    if (!xn_made || !read || !only_loaded(body, alloc, store))
        return;
    ir_op_remove(alloc_op);
    ir_op_insert_before(loop, alloc_op);
    IrOp *first = ir_op_new(kernel, IR_STORE, store->loc, 2, 0);
    first->operands[0] = alloc;
    first->operands[1] = x0;
    ir_op_insert_before(loop, first);
    ir_op_remove(store);
    store->operands[1] = xn;
    ir_op_insert_before(body->last, store);
}

static void prefetch_loop(IrKernel *kernel, IrOp *loop, int threads) {
    IrBlock *body = loop->body;
    if (!body || !body->first || body->last->opcode != IR_YIELD)
        return;
    int64_t registers = 0;
    for (int i = 1; i < body->num_args; i++)
        registers += tile_registers(&body->args[i]->type, threads);
    IrOp *guard = NULL;              /* the if around the first iteration's loads */
    IrOp *top = NULL;                /* the last op of the prefetches at the top (branching: their if) */
    bool branch = has_inner_loop(body);
    ValueMap before = {.n = 1}, inside = {.n = 1};
    before.from[0] = inside.from[0] = body->args[0];
    before.to[0] = loop->operands[0];
    IrOp *next_op;
    for (IrOp *op = body->first; op; op = next_op) {
        next_op = op->next;
        if (op->opcode != IR_LOAD)
            continue;
        IrValue *ref = op->operands[0];
        const IrValue *root = ir_view_root(ref);
        if (ref->type.space != SPACE_GLOBAL || root->type.access != ACCESS_IN || root->def ||
            only_yielded(body, op->results[0]))
            continue;
        int64_t need = tile_registers(&op->results[0]->type, threads);
        if (registers + need > PREFETCH_MAX_REGS)
            continue;
        IrOp *slice[LOOP_MAX_SLICE];
        int n = 0;
        bool ok = true;
        for (int i = 0; i < op->num_operands && ok; i++)
            ok = loop_collect_slice(body, op->operands[i], slice, &n);
        /* Room for the copies (each slice op and the load has one result). */
        if (!ok || before.n + n + 1 > LOOP_MAX_MAP || inside.n + n + 1 > LOOP_MAX_MAP)
            continue;
        if (!guard) {
            guard = new_guard(kernel, loop);
            top = next_iteration(kernel, loop, branch, &inside.to[0]);
        }
        /* Body order: collect_slice appends dependencies first. */
        IrValue *x0 = add_guarded(kernel, guard, emit_load(kernel, guard->body->last, slice, n, op, &before), NULL);
        IrValue *x;
        if (branch) {   /* if next < hi { load(addr(next)) } else { x }: x carried on */
            x = loop_add_carried(kernel, loop, x0, x0);
            IrValue *xn = add_guarded(kernel, top, emit_load(kernel, top->body->last, slice, n, op, &inside), x);
            body->last->operands[body->last->num_operands - 1] = xn;
        } else {
            IrValue *xn = emit_load(kernel, top->next, slice, n, op, &inside);
            top = xn->def;
            x = loop_add_carried(kernel, loop, x0, xn);
        }
        ir_replace_uses(body, op->results[0], x);
        ir_op_remove(op);
        /* only with two warpgroups or more (on sm_90a the producer
           schedule's form): there the rotation measured 1.005-1.014x on
           D 128 attention, at 4 warps 0.97-0.98x on D 64 (docs/performance.md,
           "Session 39") */
        if (branch && kernel->warps >= 8)
            rotate_stationary_store(kernel, loop, x, x0, body->last->operands[body->last->num_operands - 1]);
        registers += need;
    }
}

static void prefetch_block(IrKernel *kernel, IrBlock *block, int threads) {
    for (IrOp *op = block->first; op; op = op->next) {
        if (op->body)
            prefetch_block(kernel, op->body, threads);
        if (op->else_body)
            prefetch_block(kernel, op->else_body, threads);
        if (op->opcode == IR_FOR && op->int_value == 0)   /* not a loop that may end early */
            prefetch_loop(kernel, op, threads);
    }
}

void pass_prefetch(IrKernel *kernel) {
    if (kernel->stages < 2)
        return;
    prefetch_block(kernel, kernel->body, (kernel->warps > 0 ? kernel->warps : 4) * 32);
}
