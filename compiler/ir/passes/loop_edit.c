/*
 * loop_edit.c: the IR surgery the loop passes share (loop_edit.h).
 */
#include "loop_edit.h"

#include <string.h>

IrValue *loop_map_value(const ValueMap *map, IrValue *v) {
    for (int i = 0; i < map->n; i++)
        if (map->from[i] == v)
            return map->to[i];
    return v;
}

bool loop_is_pure_address_op(IrOpcode opcode) {
    switch (opcode) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_IOTA:
    case IR_SELECT: case IR_CAST: case IR_BITCAST: case IR_BROADCAST: case IR_RESHAPE: case IR_VIEW:
        return true;
    default:
        return ir_opcode_is_elementwise_binary(opcode) || ir_opcode_is_elementwise_unary(opcode);
    }
}

/* Collects, in body order, the body ops `v` depends on; false when one of
   them is not a pure address op or `v` depends on a carried value. */
bool loop_collect_slice(IrBlock *body, IrValue *v, IrOp **slice, int *n) {
    if (v->arg_of == body)
        return v == body->args[0];   /* the induction variable only */
    IrOp *op = v->def;
    if (!op || op->parent != body)
        return true;                 /* defined outside: invariant */
    for (int i = 0; i < *n; i++)
        if (slice[i] == op)
            return true;
    if (!loop_is_pure_address_op(op->opcode) || *n == LOOP_MAX_SLICE)
        return false;
    for (int i = 0; i < op->num_operands; i++)
        if (!loop_collect_slice(body, op->operands[i], slice, n))
            return false;
    slice[(*n)++] = op;
    return true;
}

IrOp *loop_clone_op(IrKernel *kernel, const IrOp *op, ValueMap *map) {
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
        c->operands[i] = loop_map_value(map, op->operands[i]);
    for (int i = 0; i < op->num_results; i++) {
        c->results[i]->type = op->results[i]->type;
        if (map->n == LOOP_MAX_MAP)
            INTERNAL_ERROR("loop_clone_op: value map full");   /* the passes check the room first */
        map->from[map->n] = op->results[i];
        map->to[map->n++] = c->results[i];
    }
    return c;
}

bool loop_is_mapped(const ValueMap *map, const IrValue *v) {
    for (int i = 0; i < map->n; i++)
        if (map->from[i] == v)
            return true;
    return false;
}

/* `array` of n values with `v` appended, in a new arena array (n may be 0
   and array NULL). */
IrValue **loop_append_value(IrKernel *kernel, IrValue **array, int *n, IrValue *v) {
    IrValue **grown = ARENA_ARRAY(&kernel->arena, IrValue *, *n + 1);
    if (*n > 0)
        memcpy(grown, array, sizeof(IrValue *) * (size_t)*n);
    grown[(*n)++] = v;
    return grown;
}

/* Appends one carried value to `loop`: init, block argument, result, and
   the yield's operand. Returns the block argument. */
IrValue *loop_add_carried(IrKernel *kernel, IrOp *loop, IrValue *init, IrValue *next) {
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
    loop->operands = loop_append_value(kernel, loop->operands, &loop->num_operands, init);
    body->args = loop_append_value(kernel, body->args, &body->num_args, arg);
    loop->results = loop_append_value(kernel, loop->results, &loop->num_results, result);
    yield->operands = loop_append_value(kernel, yield->operands, &yield->num_operands, next);
    return arg;
}

/* A new op of one result of `type` in front of `before`, at the loop's
   location (an op of the loop's bookkeeping, not of any expression). */
IrOp *loop_new_op(IrKernel *kernel, IrOp *before, Span loc, IrOpcode opcode, const IrType *type, IrValue *a,
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

IrOp *loop_new_if(IrKernel *kernel, IrOp *before, Span loc, IrValue *cond) {
    IrOp *guard = ir_op_new(kernel, IR_IF, loc, 1, 0);
    guard->operands[0] = cond;
    IrBlock *blocks[2];
    for (int k = 0; k < 2; k++) {
        blocks[k] = ir_block_new(kernel, 0, NULL);
        blocks[k]->parent_op = guard;
        ir_block_append(blocks[k], ir_op_new(kernel, IR_YIELD, loc, 0, 0));
    }
    guard->body = blocks[0];
    guard->else_body = blocks[1];
    ir_op_insert_before(before, guard);
    return guard;
}

bool loop_int_const(const IrValue *v, int64_t *value) {
    if (!v->def || v->def->opcode != IR_CONST)
        return false;
    *value = v->def->int_value;
    return true;
}

