/*
 * overlap.c: FlashAttention-3's in-warpgroup order, as a loop rotation.
 *
 * In: a verified kernel. Out: the same kernel where a `for` of exactly two
 * dots, the second feeding only `acc' = x + dot(p, v_j)` into a carried
 * accumulator (flash attention's `q @ k_j.T` and `p @ v_j`), has that second
 * dot moved one trip later: trip j issues `q @ k_j.T` and then
 * `p_{j-1} @ v_{j-1}`, so that the tensor cores run the second while the
 * softmax of the first runs beside it (with the backend's deferred wgmma
 * waits, llvm_dot.c llvm_dot_settle). The first trip's body without its
 * second dot is peeled in front of the loop and the last second dot put
 * after it, each in an `if lo < hi`:
 *
 *   if lo < hi { body(lo) less dot 2 }                 -> carried, x_lo, p_lo
 *   for j = lo + 1 to hi: r = x + dot(p, v_{j-1}) after dot 1, the
 *       accumulator's uses in body(j) read r         -> carried, x_j, p_j
 *   if lo < hi { x + dot(p, v_{hi-1}) } else { x }   -> the accumulator
 *
 * The same additions in the same order as the original (the accumulator a
 * trip hands on is x_j, whose dot adds on the next trip), so every value is
 * the original's, bit for bit: the interpreter's outputs do not change.
 * Runs before `pipeline`, which gives the rotated loop's loads (k_j and
 * v_{j-1}, one group a trip) their rings as any others.
 *
 * What a loop must be: step 1, no region in its body, the two dots the
 * only ones, the second of two operands (p, a load of v without mask, from
 * a global `in` array, which nothing writes, so that reading it a trip
 * later reads the same, at an address that depends only on the induction
 * variable and loop-invariant values),
 * its result read only by one `add` whose result is read only by the yield
 * (the accumulator's slot), the accumulator read only after the first dot.
 */
#include "loop_edit.h"

#include <string.h>

/* A rotation candidate: the loop and its parts. */
typedef struct Rotation {
    IrOp *loop, *dot1, *dot2, *add, *load;
    int acc_slot;                      /* carried slot (yield operand) of the accumulator */
    IrValue *x;                        /* add's other operand */
    IrOp *slice[LOOP_MAX_SLICE];       /* the load's address ops in the body */
    int slice_n;
} Rotation;

static bool match(IrKernel *kernel, IrOp *loop, Rotation *r) {
    memset(r, 0, sizeof *r);
    r->loop = loop;
    IrBlock *body = loop->body;
    int64_t step;
    if (loop->int_value || !loop_int_const(loop->operands[2], &step) || step != 1)
        return false;
    int ops = 0;
    for (IrOp *op = body->first; op; op = op->next) {
        if (op->body || op->else_body)
            return false;
        ops += 1 + op->num_results;
        if (op->opcode == IR_DOT) {
            if (r->dot2)
                return false;
            *(r->dot1 ? &r->dot2 : &r->dot1) = op;
        }
    }
    /* the copies the rotation makes (a body, its block arguments, two address
       slices) fit the value map */
    if (!r->dot2 || r->dot2->num_operands != 2 || body->num_args + 2 * ops + 8 > LOOP_MAX_MAP)
        return false;
    IrValue *res = r->dot2->results[0];
    if (ir_count_uses(kernel->body, res) != 1)
        return false;
    for (IrOp *op = r->dot2->next; op; op = op->next)
        if (op->opcode == IR_ADD && (op->operands[0] == res || op->operands[1] == res))
            r->add = op;
    if (!r->add || r->add->operands[0] == r->add->operands[1])
        return false;
    r->x = r->add->operands[r->add->operands[0] == res ? 1 : 0];
    IrValue *acc = r->add->results[0];
    IrOp *yield = body->last;
    if (ir_count_uses(kernel->body, acc) != 1)
        return false;
    r->acc_slot = -1;
    for (int i = 0; i < yield->num_operands; i++)
        if (yield->operands[i] == acc)
            r->acc_slot = i;
    if (r->acc_slot < 0)
        return false;
    /* the accumulator read only after the first dot */
    IrValue *acc_arg = body->args[r->acc_slot + 1];
    for (IrOp *op = body->first; op != r->dot1->next; op = op->next)
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i] == acc_arg)
                return false;
    IrValue *v = r->dot2->operands[1];
    r->load = v->def;
    if (!r->load || r->load->opcode != IR_LOAD || r->load->parent != body || r->load->has_mask ||
        r->load->num_operands != 1 || ir_count_uses(kernel->body, v) != 1)
        return false;
    /* read a trip later: only memory nothing writes (a global `in` array) */
    const IrValue *ref = r->load->operands[0], *root = ir_view_root(ref);
    if (ref->type.space != SPACE_GLOBAL || root->type.access != ACCESS_IN || root->def)
        return false;
    return loop_collect_slice(body, r->load->operands[0], r->slice, &r->slice_n);
}

/* Clones the address slice and the load of v at iteration `iv` in front
   of `before`; returns the loaded tile. */
static IrValue *load_v_at(IrKernel *kernel, const Rotation *r, IrValue *iv, IrOp *before) {
    ValueMap map = {.n = 0};
    map.from[map.n] = r->loop->body->args[0];
    map.to[map.n++] = iv;
    for (int i = 0; i < r->slice_n; i++)
        ir_op_insert_before(before, loop_clone_op(kernel, r->slice[i], &map));
    IrOp *load = loop_clone_op(kernel, r->load, &map);
    ir_op_insert_before(before, load);
    return load->results[0];
}

/* `x + dot(p, v)` in front of `before`, in the original add's operand order. */
static IrValue *second_dot(IrKernel *kernel, const Rotation *r, IrValue *p, IrValue *v, IrValue *x, IrOp *before) {
    IrOp *dot = loop_new_op(kernel, before, r->dot2->loc, IR_DOT, &r->dot2->results[0]->type, p, v, NULL);
    dot->fp8 = r->dot2->fp8;
    IrValue *d = dot->results[0];
    bool x_first = r->add->operands[0] == r->x;
    IrOp *add = loop_new_op(kernel, before, r->add->loc, IR_ADD, &r->add->results[0]->type, x_first ? x : d,
                            x_first ? d : x, NULL);
    return add->results[0];
}

/* A new `if cond` with `n` results of `types` and empty then/else blocks
   (each closed by a yield of no operands yet), in front of `before`. */
static IrOp *new_if(IrKernel *kernel, IrOp *before, Span loc, IrValue *cond, IrValue *const *types_of, int n) {
    IrOp *op = ir_op_new(kernel, IR_IF, loc, 1, n);
    op->operands[0] = cond;
    for (int i = 0; i < n; i++)
        op->results[i]->type = types_of[i]->type;
    IrBlock *blocks[2];
    for (int k = 0; k < 2; k++) {
        blocks[k] = ir_block_new(kernel, 0, NULL);
        blocks[k]->parent_op = op;
        IrOp *yield = ir_op_new(kernel, IR_YIELD, loc, n, 0);
        ir_block_append(blocks[k], yield);
    }
    op->body = blocks[0];
    op->else_body = blocks[1];
    ir_op_insert_before(before, op);
    return op;
}

static void rotate(IrKernel *kernel, Rotation *r) {
    IrOp *loop = r->loop;
    IrBlock *body = loop->body;
    IrOp *yield = body->last;
    int slots = yield->num_operands, k = r->acc_slot;
    IrValue *lo = loop->operands[0], *hi = loop->operands[1];
    IrValue *p = r->dot2->operands[0], *acc_arg = body->args[k + 1];
    IrType i32 = lo->type, boolean = ir_scalar_type(DT_BOOL);
    IrValue *has = loop_new_op(kernel, loop, loop->loc, IR_LT, &boolean, lo, hi, NULL)->results[0];

    /* the prologue: trip lo less the second dot; carried values, x, p */
    IrValue **types = ARENA_ARRAY(&kernel->arena, IrValue *, slots + 1);
    for (int i = 0; i < slots; i++)
        types[i] = yield->operands[i];
    types[slots] = p;
    IrOp *pro = new_if(kernel, loop, loop->loc, has, types, slots + 1);
    ValueMap map = {.n = 0};
    map.from[map.n] = body->args[0];
    map.to[map.n++] = lo;
    for (int i = 0; i < slots; i++) {
        map.from[map.n] = body->args[i + 1];
        map.to[map.n++] = loop->operands[3 + i];
    }
    IrOp *pro_yield = pro->body->last, *none_yield = pro->else_body->last;
    for (IrOp *op = body->first; op != yield; op = op->next)
        if (op != r->dot2 && op != r->add && op != r->load)
            ir_op_insert_before(pro_yield, loop_clone_op(kernel, op, &map));
    for (int i = 0; i < slots; i++) {
        pro_yield->operands[i] = loop_map_value(&map, i == k ? r->x : yield->operands[i]);
        none_yield->operands[i] = loop->operands[3 + i];
    }
    pro_yield->operands[slots] = loop_map_value(&map, p);
    IrOp *zero = ir_op_new(kernel, IR_CONST, loop->loc, 0, 1);
    zero->results[0]->type = p->type;
    ir_op_insert_before(none_yield, zero);
    none_yield->operands[slots] = zero->results[0];

    /* the loop: from lo + 1, carrying x in the accumulator's slot and p */
    IrValue *one = loop_new_op(kernel, loop, loop->loc, IR_CONST, &i32, NULL, NULL, NULL)->results[0];
    one->def->int_value = 1;
    loop->operands[0] = loop_new_op(kernel, loop, loop->loc, IR_ADD, &i32, lo, one, NULL)->results[0];
    for (int i = 0; i < slots; i++)
        loop->operands[3 + i] = pro->results[i];
    IrValue *p_arg = loop_add_carried(kernel, loop, pro->results[slots], p);
    yield->operands[k] = r->x;
    /* in the body: after the first dot, r = x_{j-1} + dot(p_{j-1}, v_{j-1}) */
    IrOp *after = r->dot1->next;
    ir_replace_uses(body, acc_arg, NULL);   /* marks the accumulator's readers, rewired below */
    IrValue *jm1 = loop_new_op(kernel, after, r->dot1->loc, IR_SUB, &i32, body->args[0], one, NULL)->results[0];
    IrValue *v = load_v_at(kernel, r, jm1, after);
    IrValue *rotated = second_dot(kernel, r, p_arg, v, acc_arg, after);
    for (IrOp *op = after; op; op = op->next)
        for (int i = 0; i < op->num_operands; i++)
            if (!op->operands[i])
                op->operands[i] = rotated;
    ir_op_remove(r->add);
    ir_op_remove(r->dot2);
    /* v_j's load and the address ops only it read: no ring or prefetch for them */
    ir_op_remove(r->load);
    for (int i = r->slice_n - 1; i >= 0; i--)
        if (ir_count_uses(body, r->slice[i]->results[0]) == 0)
            ir_op_remove(r->slice[i]);

    /* the epilogue: the last trip's second dot */
    IrValue *acc_final = loop->results[k], *p_final = loop->results[loop->num_results - 1];
    IrValue *epi_type[1] = {acc_final};
    IrOp *epi = new_if(kernel, loop, loop->loc, has, epi_type, 1);
    ir_op_remove(loop);   /* the epilogue after the loop */
    ir_op_insert_before(epi, loop);
    IrOp *epi_yield = epi->body->last;
    IrValue *hm1 = loop_new_op(kernel, epi_yield, loop->loc, IR_SUB, &i32, hi, one, NULL)->results[0];
    IrValue *v_last = load_v_at(kernel, r, hm1, epi_yield);
    epi_yield->operands[0] = second_dot(kernel, r, p_final, v_last, acc_final, epi_yield);
    epi->else_body->last->operands[0] = acc_final;
    for (IrOp *op = epi->next; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i] == acc_final)
                op->operands[i] = epi->results[0];
        ir_replace_uses(op->body, acc_final, epi->results[0]);
        ir_replace_uses(op->else_body, acc_final, epi->results[0]);
    }
}

static void overlap_block(IrKernel *kernel, IrBlock *block) {
    for (IrOp *op = block ? block->first : NULL; op; op = op->next) {
        if (op->opcode == IR_FOR) {
            Rotation r;
            if (match(kernel, op, &r)) {
                rotate(kernel, &r);
                kernel->rotated_dots = true;
                continue;   /* its body is done; the epilogue `if` holds no loop */
            }
        }
        overlap_block(kernel, op->body);
        overlap_block(kernel, op->else_body);
    }
}

void pass_overlap(IrKernel *kernel) { overlap_block(kernel, kernel->body); }
