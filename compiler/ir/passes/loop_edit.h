/*
 * loop_edit.h: the IR surgery the loop passes share (prefetch.c,
 * pipeline.c, persist.c, handoff.c): the address slice of a load, cloning
 * it at another iteration, new ops and guards in front of an op, carried
 * values added to a loop.
 */
#ifndef TESSERA_LOOP_EDIT_H
#define TESSERA_LOOP_EDIT_H

#include "ir.h"

enum { LOOP_MAX_SLICE = 64, LOOP_MAX_MAP = 4 * LOOP_MAX_SLICE };

/* Original value -> its copy, for the copies made in front of one loop or
   at the top of its body (shared by the loop's loads, so that an address op
   two loads use is copied once). */
typedef struct ValueMap {
    IrValue *from[LOOP_MAX_MAP];
    IrValue *to[LOOP_MAX_MAP];
    int n;
} ValueMap;

IrValue *loop_map_value(const ValueMap *map, IrValue *v);
bool loop_is_mapped(const ValueMap *map, const IrValue *v);
/* Views, arithmetic, casts, shape ops, iota, constants, program ids: what
   an address or a mask may be computed with. */
bool loop_is_pure_address_op(IrOpcode opcode);
/* Collects, in body order, the body ops `v` depends on; false when one of
   them is not a pure address op or `v` depends on a carried value. */
bool loop_collect_slice(IrBlock *body, IrValue *v, IrOp **slice, int *n);
/* A copy of `op` (not inserted) reading map's values; its results are
   added to the map. */
IrOp *loop_clone_op(IrKernel *kernel, const IrOp *op, ValueMap *map);
/* `array` of n values with `v` appended, in a new arena array. */
IrValue **loop_append_value(IrKernel *kernel, IrValue **array, int *n, IrValue *v);
/* Appends one carried value to `loop`: init, block argument, result, and
   the yield's operand. Returns the block argument. */
IrValue *loop_add_carried(IrKernel *kernel, IrOp *loop, IrValue *init, IrValue *next);
/* A new op of one result of `type` in front of `before`. */
IrOp *loop_new_op(IrKernel *kernel, IrOp *before, Span loc, IrOpcode opcode, const IrType *type, IrValue *a,
                  IrValue *b, IrValue *c);
bool loop_int_const(const IrValue *v, int64_t *value);
/* `if cond { yield } else { yield }` (no results) in front of `before`:
   new ops go in front of a block's yield. */
IrOp *loop_new_if(IrKernel *kernel, IrOp *before, Span loc, IrValue *cond);

#endif
