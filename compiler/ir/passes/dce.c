/*
 * dce.c: dead-code elimination.
 *
 * Requires: a verified kernel.
 * Preserves: verification and meaning (every store, atomic, print and assert stays, with
 *   everything it depends on).
 * Uses: IrValue.id as the live mark (1 live, 0 dead) while it runs.
 *
 * Liveness is marked from the ops with effects (store, atomic) backwards,
 * to a fixpoint, then everything unmarked is swept:
 *   - pure ops, loads, views and allocs whose results are unused go;
 *   - a for or if whose results are all unused and whose blocks hold no
 *     store or atomic goes (a loop is assumed to terminate);
 *   - a loop-carried value of a kept for goes when its result is unused and
 *     its block argument is only used to compute its own next value (the
 *     init operand, the result, the block argument and the yield operand are
 *     dropped together); likewise an unused result of a kept if.
 * Atomics keep their result even when it is unused: the op has to stay.
 */
#include "ir.h"

typedef struct Dce {
    IrKernel *kernel;
    bool changed;
} Dce;

static void clear_block(IrBlock *block) {
    for (int i = 0; i < block->num_args; i++)
        block->args[i]->id = 0;
    for (IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_results; i++)
            op->results[i]->id = 0;
        if (op->body)
            clear_block(op->body);
        if (op->else_body)
            clear_block(op->else_body);
    }
}

static bool block_has_effects(const IrBlock *block) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        if (ir_opcode_has_effect(op->opcode))
            return true;
        if (block_has_effects(op->body) || block_has_effects(op->else_body))
            return true;
    }
    return false;
}

static bool any_result_live(const IrOp *op) {
    for (int i = 0; i < op->num_results; i++)
        if (op->results[i]->id)
            return true;
    return false;
}

static bool op_live(const IrOp *op) {
    if (ir_opcode_has_effect(op->opcode))
        return true;
    switch (op->opcode) {
    case IR_YIELD: return false;   /* its operands are marked by its parent */
    case IR_FOR: case IR_IF: return any_result_live(op) || block_has_effects(op->body) ||
                                    block_has_effects(op->else_body);
    default: return any_result_live(op);
    }
}

/* Carried value j of a for is needed when its result is used after the
   loop or its block argument by a live op inside. */
static bool carried_live(const IrOp *op, int j) {
    return op->results[j]->id || op->body->args[1 + j]->id;
}

static void mark(Dce *D, IrValue *value) {
    if (!value->id) {
        value->id = 1;
        D->changed = true;
    }
}

static void mark_block(Dce *D, IrBlock *block) {
    for (IrOp *op = block->last; op; op = op->prev) {
        if (!op_live(op))
            continue;
        if (op->opcode == IR_FOR) {
            for (int i = 0; i < 3; i++)
                mark(D, op->operands[i]);
            if (op->int_value > 0)   /* `until` decides the trips */
                mark(D, op->body->args[op->int_value]);
            IrOp *yield = op->body->last;
            for (int j = 0; j < op->num_results; j++) {
                if (!carried_live(op, j))
                    continue;
                mark(D, op->operands[3 + j]);
                mark(D, yield->operands[j]);
            }
            mark_block(D, op->body);
        } else if (op->opcode == IR_IF) {
            mark(D, op->operands[0]);
            for (int j = 0; j < op->num_results; j++) {
                if (!op->results[j]->id)
                    continue;
                mark(D, op->body->last->operands[j]);
                if (op->else_body)
                    mark(D, op->else_body->last->operands[j]);
            }
            mark_block(D, op->body);
            if (op->else_body)
                mark_block(D, op->else_body);
        } else {
            for (int i = 0; i < op->num_operands; i++)
                mark(D, op->operands[i]);
        }
    }
}

/* Removes element `k` of an array of `n` pointers, in place. */
static void drop_at(IrValue **items, int n, int k) {
    for (int i = k; i + 1 < n; i++)
        items[i] = items[i + 1];
}

static void drop_yield_operand(IrBlock *block, int j) {
    IrOp *yield = block->last;
    drop_at(yield->operands, yield->num_operands, j);
    yield->num_operands--;
}

static void drop_result(IrOp *op, int j) {
    drop_at(op->results, op->num_results, j);
    op->num_results--;
    for (int i = j; i < op->num_results; i++)
        op->results[i]->result_index = i;
}

static void drop_dead_carried(Dce *D, IrOp *op) {
    for (int j = op->num_results - 1; j >= 0; j--) {
        if (carried_live(op, j))
            continue;
        IrBlock *body = op->body;
        drop_at(op->operands, op->num_operands, 3 + j);
        op->num_operands--;
        drop_result(op, j);
        drop_at(body->args, body->num_args, 1 + j);
        body->num_args--;
        for (int i = 1 + j; i < body->num_args; i++)
            body->args[i]->result_index = i;
        drop_yield_operand(body, j);
        if (op->int_value > 1 + j)
            op->int_value--;
        D->changed = true;
    }
}

static void drop_dead_if_results(Dce *D, IrOp *op) {
    for (int j = op->num_results - 1; j >= 0; j--) {
        if (op->results[j]->id)
            continue;
        drop_result(op, j);
        drop_yield_operand(op->body, j);
        if (op->else_body)
            drop_yield_operand(op->else_body, j);
        D->changed = true;
    }
}

static void sweep_block(Dce *D, IrBlock *block) {
    IrOp *prev;
    for (IrOp *op = block->last; op; op = prev) {
        prev = op->prev;
        if (op->opcode == IR_YIELD)
            continue;
        if (!op_live(op)) {
            ir_op_remove(op);
            D->changed = true;
            continue;
        }
        if (op->body)
            sweep_block(D, op->body);
        if (op->else_body)
            sweep_block(D, op->else_body);
        if (op->opcode == IR_FOR)
            drop_dead_carried(D, op);
        else if (op->opcode == IR_IF)
            drop_dead_if_results(D, op);
    }
}

void pass_dce(IrKernel *kernel) {
    Dce dce = {kernel, true};
    clear_block(kernel->body);
    while (dce.changed) {
        dce.changed = false;
        mark_block(&dce, kernel->body);
    }
    sweep_block(&dce, kernel->body);
}
