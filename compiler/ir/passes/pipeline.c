/*
 * pipeline.c: multi-stage asynchronous copies of the tiles a loop's dots
 * read (the kernel's `stages` clause: the ring depth; 1 means none).
 *
 * Requires: a verified kernel.
 * Preserves: verification and meaning: every copy reads what the original
 *   load of some iteration read (the same view, from an `in` array, which
 *   no op of the kernel writes), zero where the view is out of bounds, as
 *   the load gave; the value the body then reads from shared memory is that
 *   tile. The interpreter checks the protocol below as it runs it (a read
 *   of a stage before its wait, a copy into a stage read since the last
 *   wait: interp.c).
 * Leaves behind: the original loads' address ops, unused (DCE).
 *
 * A load at the top level of a `for` body with a positive constant step,
 * from a global `in` array (not one declared with strides), without an `other`, of a rank-2 f16 or bf16
 * tile that only tensor-core dots read (as either operand, or transposed
 * as the second), or of an fp8 tile that one dot reads as fp8 tensor cores
 * take it (fp8_dot_operand; only when every target has fp8 tensor cores,
 * PassOptions.fp8_rings: elsewhere the dot would stage f16 copies of the
 * slots as well, more shared memory than the register path it replaces),
 * whose operands are computed from the induction variable,
 * loop invariants and pure ops of the body, becomes a ring of `stages`
 * shared buffers:
 *
 *     ring = alloc dtype[S, rows, cols] @shared          before the loop
 *     for s in 0 .. S-2:                                  (unrolled)
 *         if lo + s*step < hi [and no wrap] { async_copy ring[s], addr(lo + s*step) }
 *         async_commit
 *     async_wait S-2                      iteration lo's group has landed
 *     for i = lo to hi step st iter(..., r = 0, w = S-1) {
 *         if i + (S-1)*st < hi [and no wrap] { async_copy ring[w], addr(i + (S-1)*st) }
 *         async_commit
 *         r' = r + 1 mod S; w' = w + 1 mod S
 *         x = load ring[r]                where the load was
 *         ...
 *         async_wait S-2                  iteration i+1's group has landed; the block is in step
 *         yield ..., r', w'
 *     }
 *
 * Group g holds iteration g's tile: the prologue commits groups 0 .. S-2,
 * iteration j commits group j + S-1 (empty when that iteration does not
 * exist), so after iteration i's commit S + i groups are committed, and
 * waiting until at most S-2 are pending retires groups 0 .. i+1: the wait
 * at the end of iteration i is the one iteration i+1 needs (the one in
 * front of the loop iteration lo's). The copy of iteration i goes into
 * slot (i + S-1) mod S = (i - 1) mod S, the one iteration i-1 read: the
 * wait at the end of iteration i-1 is followed by a block barrier on the
 * GPU (barrier.c), after which no thread still reads it. Every group
 * committed after the last iteration's is empty, so nothing is in flight
 * when the loop ends (but see the chain below). Trip counts 0, 1 and fewer
 * than S are the guards' business: a copy is issued only for an iteration
 * that runs.
 *
 * A chain (chains_onto): a loop whose next loop starts at its hi, step 1
 * both, and whose rings' loads are the next loop's at the same iteration,
 * issues copies up to max(hi, next's hi) - 1 from min(lo, hi) on (a loop
 * of no trips then prefetches the next's first tiles), and the next loop
 * takes its allocs and slots, without a prologue or a first wait: the
 * union of the two ranges is one ring, with nothing drained between them.
 * A tail block (tail_onto: an `if` whose then block loads the rings' tiles
 * at j = hi, flash attention's partial last key block) is chained the same
 * way: copies of iterations up to hi - 1, and hi when the `if`'s condition
 * holds, and the block reads the slot after the loop's last.
 *
 * A dot's operand then goes global -> shared by cp.async, S-1 iterations
 * ahead, and shared -> registers by ldmatrix (llvm_dot.c), without the
 * registers and the barriers of staging it.
 *
 * The same loops' stationary operands: a loop-invariant A of such a dot
 * that would take more than STATIONARY_MAX_REGS registers a thread as
 * fragments is stored once into an alloc in front of the loop, and the dot
 * reads a load of it (in place, on the GPU) instead (stationary_operands),
 * as do the tensor-core dots after the loop that read the same A.
 */
#include "ir.h"
#include "loop_edit.h"

#include <string.h>

enum { PIPELINE_MAX_STAGES = 8, PIPELINE_MAX_LOADS = 8 };

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* Whether `dot` runs on tensor cores by the rules of layout.c's
   mma_layout that the IR alone decides (the warp split is the backend's). */
static bool mma_dot(const IrOp *dot) {
    const IrValue *a = dot->operands[0], *b = dot->operands[1], *r = dot->results[0];
    if ((a->type.dtype != DT_F16 && a->type.dtype != DT_BF16) || b->type.dtype != a->type.dtype ||
        r->type.dtype != DT_F32 || a->type.rank != 2 || b->type.rank != 2)
        return false;
    int64_t m = r->type.dims[0].size, n = r->type.dims[1].size, k = a->type.dims[1].size;
    return is_pow2(m) && is_pow2(n) && m >= 16 && n >= 8 && k % 16 == 0;
}

/* The one use of `v` in `block` (no regions searched: the callers' values
   live in one body), NULL if it has none or several. */
static IrOp *only_use(const IrBlock *block, const IrValue *v, int *operand) {
    IrOp *found = NULL;
    for (IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++) {
            if (op->operands[i] != v)
                continue;
            if (found)
                return NULL;
            found = op;
            *operand = i;
        }
        if (op->body || op->else_body)
            for (const IrBlock *b = op->body; b; b = b == op->body ? op->else_body : NULL)
                for (const IrOp *in = b->first; in; in = in->next)
                    for (int i = 0; i < in->num_operands; i++)
                        if (in->operands[i] == v)
                            return NULL;
    }
    return found;
}

/* An fp8 tile that reaches an mma dot only as the backend's fp8 tensor
   cores take it (gpu/layout.c fp8_mma): `cast(v)` to f16 as operand 0, or
   `cast(transpose(v))` as operand 1, each step the only use, k a multiple
   of 32. Targets without fp8 tensor cores load the ring slot, cast and
   stage it as they would a register tile. */
static bool fp8_dot_operand(const IrBlock *block, const IrValue *v) {
    int i;
    IrOp *use = only_use(block, v, &i);
    bool transposed = use && use->opcode == IR_TRANSPOSE;
    if (transposed)
        use = only_use(block, use->results[0], &i);
    if (!use || use->opcode != IR_CAST || use->results[0]->type.dtype != DT_F16)
        return false;
    IrOp *dot = only_use(block, use->results[0], &i);
    if (!dot || dot->opcode != IR_DOT || !dot->fp8 || i != (transposed ? 1 : 0) || !mma_dot(dot) ||
        dot->operands[0]->type.dims[1].size % 32 != 0)
        return false;
    /* and the other operand is one too (else the dot stays on f16 tensor cores) */
    const IrOp *a = dot->operands[0]->def, *b = dot->operands[1]->def;
    const IrOp *x = b && b->opcode == IR_CAST ? b->operands[0]->def : NULL;
    return a && a->opcode == IR_CAST && dtype_is_fp8(a->operands[0]->type.dtype) && x && x->opcode == IR_TRANSPOSE &&
           dtype_is_fp8(x->operands[0]->type.dtype);
}

/* Every use of `v` anywhere under `block`: counted into *uses; false when
   one is not an mma dot's operand (0 or 1), or a transpose whose only
   uses are an mma dot's operand 1. */
static bool only_dots_read(const IrBlock *block, const IrValue *v, int *uses) {
    for (const IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++) {
            if (op->operands[i] != v)
                continue;
            (*uses)++;
            if (op->opcode == IR_DOT && i < 2 && mma_dot(op))
                continue;
            if (op->opcode != IR_TRANSPOSE || op->parent != v->def->parent)
                return false;
            int t_uses = 0;
            if (!only_dots_read(op->parent, op->results[0], &t_uses) || t_uses == 0)
                return false;
            for (const IrOp *u = op->parent->first; u; u = u->next)
                for (int j = 0; j < u->num_operands; j++)
                    if (u->operands[j] == op->results[0] && (u->opcode != IR_DOT || j != 1))
                        return false;
        }
        if ((op->body && !only_dots_read(op->body, v, uses)) || (op->else_body && !only_dots_read(op->else_body, v, uses)))
            return false;
    }
    return true;
}

static IrValue *int_const(IrKernel *kernel, IrOp *before, Span loc, DType dtype, int64_t value) {
    IrType t = ir_scalar_type(dtype);
    IrOp *c = loop_new_op(kernel, before, loc, IR_CONST, &t, NULL, NULL, NULL);
    c->int_value = value;
    return c->results[0];
}

/* `view ring[slot, :, :]` in front of `before`. */
static IrValue *ring_slot(IrKernel *kernel, IrOp *before, Span loc, IrValue *ring, IrValue *slot) {
    IrOp *v = ir_op_new(kernel, IR_VIEW, loc, 2, 1);
    v->operands[0] = ring;
    v->operands[1] = slot;
    v->view_dims = ARENA_ARRAY(&kernel->arena, IrViewDim, 3);
    v->view_dims[0] = (IrViewDim){.kind = VIEW_INDEX, .offset_operand = 1};
    v->view_dims[1] = (IrViewDim){.kind = VIEW_FULL};
    v->view_dims[2] = (IrViewDim){.kind = VIEW_FULL};
    IrType t = ring->type;
    t.rank = 2;
    t.dims[0] = ring->type.dims[1];
    t.dims[1] = ring->type.dims[2];
    memset(&t.dims[2], 0, sizeof(IrDim));
    v->results[0]->type = t;
    ir_op_insert_before(before, v);
    return v->results[0];
}

/* `load` replaced by a load of `ring[slot]` where it was: its uses (in its
   block) read the slot. */
static void load_from_ring(IrKernel *kernel, IrOp *load, IrValue *ring, IrValue *slot) {
    IrOp *from_ring = ir_op_new(kernel, IR_LOAD, load->loc, 1, 1);
    from_ring->operands[0] = ring_slot(kernel, load, load->loc, ring, slot);
    from_ring->results[0]->type = load->results[0]->type;
    ir_op_insert_before(load, from_ring);
    ir_replace_uses(load->parent, load->results[0], from_ring->results[0]);
    ir_op_remove(load);
}

/* `base + offset < hi` (with a tail block, `|| (base + offset == hi &&
   tail)`: hi + 1 could wrap) and, for offset > 0, `base + offset > base`
   (no wrap past INT32_MAX), in front of `before`; *at gets base + offset. */
static IrValue *iteration_runs(IrKernel *kernel, IrOp *before, Span loc, IrValue *base, int64_t offset,
                               IrValue *hi, IrValue *tail, IrValue **at) {
    IrType boolean = ir_scalar_type(DT_BOOL);
    IrValue *it = base;
    if (offset != 0)
        it = loop_new_op(kernel, before, loc, IR_ADD, &base->type, base, int_const(kernel, before, loc, DT_I32, offset),
                         NULL)->results[0];
    IrValue *valid = loop_new_op(kernel, before, loc, IR_LT, &boolean, it, hi, NULL)->results[0];
    if (tail) {
        IrValue *at_hi = loop_new_op(kernel, before, loc, IR_EQ, &boolean, it, hi, NULL)->results[0];
        at_hi = loop_new_op(kernel, before, loc, IR_AND, &boolean, at_hi, tail, NULL)->results[0];
        valid = loop_new_op(kernel, before, loc, IR_OR, &boolean, valid, at_hi, NULL)->results[0];
    }
    if (offset != 0) {
        IrValue *up = loop_new_op(kernel, before, loc, IR_GT, &boolean, it, base, NULL)->results[0];
        valid = loop_new_op(kernel, before, loc, IR_AND, &boolean, valid, up, NULL)->results[0];
    }
    *at = it;
    return valid;
}

/* The copies of every ring's tile at iteration `it` into slot `slot`,
   under `valid`, in front of `before`, then the commit. */
typedef struct RingLoad {
    IrOp *load;
    IrOp *slice[LOOP_MAX_SLICE];
    int n;
    IrValue *ring;
} RingLoad;

static void issue_copies(IrKernel *kernel, IrOp *loop, IrOp *before, RingLoad *rings, int num_rings, IrValue *valid,
                         IrValue *it, IrValue *slot) {
    Span loc = loop->loc;
    IrOp *guard = loop_new_if(kernel, before, loc, valid);   /* the copies go in front of its yield */
    IrOp *at = guard->body->last;
    ValueMap map = {.n = 1};
    map.from[0] = loop->body->args[0];
    map.to[0] = it;
    for (int k = 0; k < num_rings; k++) {
        RingLoad *rl = &rings[k];
        for (int i = 0; i < rl->n; i++)
            if (!loop_is_mapped(&map, rl->slice[i]->results[0]))
                ir_op_insert_before(at, loop_clone_op(kernel, rl->slice[i], &map));
        IrValue *dst = ring_slot(kernel, at, rl->load->loc, rl->ring, slot);
        IrOp *copy = ir_op_new(kernel, IR_ASYNC_COPY, rl->load->loc, 2 + rl->load->has_mask, 0);
        copy->operands[0] = dst;
        copy->operands[1] = loop_map_value(&map, rl->load->operands[0]);
        if (rl->load->has_mask)
            copy->operands[2] = loop_map_value(&map, rl->load->operands[1]);
        copy->has_mask = rl->load->has_mask;
        ir_op_insert_before(at, copy);
    }
    ir_op_insert_before(before, ir_op_new(kernel, IR_ASYNC_COMMIT, loc, 0, 0));
}

/* slot + 1, back to 0 at `stages`, in front of `before`. */
static IrValue *next_slot(IrKernel *kernel, IrOp *before, Span loc, IrValue *slot, int stages) {
    IrType i32 = ir_scalar_type(DT_I32), boolean = ir_scalar_type(DT_BOOL);
    IrValue *one = int_const(kernel, before, loc, DT_I32, 1);
    IrValue *up = loop_new_op(kernel, before, loc, IR_ADD, &i32, slot, one, NULL)->results[0];
    IrValue *end = int_const(kernel, before, loc, DT_I32, stages);
    IrValue *wrap = loop_new_op(kernel, before, loc, IR_EQ, &boolean, up, end, NULL)->results[0];
    IrValue *zero = int_const(kernel, before, loc, DT_I32, 0);
    return loop_new_op(kernel, before, loc, IR_SELECT, &i32, wrap, zero, up)->results[0];
}

/* Whether `root` is an array parameter declared with strides: its rows need
   not be 16-byte aligned, which the ring's 16-byte copies require. */
static bool strided_param(const IrKernel *kernel, const IrValue *root) {
    for (int i = 0; i < kernel->num_params; i++)
        if (kernel->params[i].value == root)
            return kernel->params[i].strides != NULL;
    return false;
}

/* The loads of `loop`'s body that become rings (at most
   PIPELINE_MAX_LOADS), 0 when the loop cannot be pipelined. */
static int collect_rings(IrKernel *kernel, IrOp *loop, int stages, bool fp8_rings, RingLoad *rings) {
    IrBlock *body = loop->body;
    int64_t step;
    /* (S-1) step must be an i32 offset: a copy's iteration i + (S-1) step
       is tested against hi and against wrapping past INT32_MAX, which one
       i32 add detects only for an offset below 2^31. */
    if (!body || !body->first || body->last->opcode != IR_YIELD || !loop_int_const(loop->operands[2], &step) ||
        step <= 0 || step > INT32_MAX / (stages - 1))
        return 0;
    int num_rings = 0, mapped = 1;
    for (IrOp *op = body->first; op && num_rings < PIPELINE_MAX_LOADS; op = op->next) {
        if (op->opcode != IR_LOAD || op->has_other)
            continue;
        IrValue *ref = op->operands[0];
        const IrValue *root = ir_view_root(ref);
        const IrType *t = &op->results[0]->type;
        bool fp8 = dtype_is_fp8(t->dtype);
        if (fp8 && !fp8_rings)
            continue;
        if (ref->type.space != SPACE_GLOBAL || root->type.access != ACCESS_IN || root->def || t->rank != 2 ||
            (t->dtype != DT_F16 && t->dtype != DT_BF16 && !fp8) || (t->dims[1].size * dtype_bytes(t->dtype)) % 16 != 0 ||
            strided_param(kernel, root))
            continue;
        int uses = 0;
        if (fp8 ? !fp8_dot_operand(body, op->results[0]) : !only_dots_read(body, op->results[0], &uses) || uses == 0)
            continue;
        RingLoad *rl = &rings[num_rings];
        rl->load = op;
        rl->n = 0;
        rl->ring = NULL;
        bool ok = true;
        for (int i = 0; i < op->num_operands && ok; i++)
            ok = loop_collect_slice(body, op->operands[i], rl->slice, &rl->n);
        /* Room in one map for every ring's clones (each op has one result). */
        if (!ok || mapped + rl->n + 1 > LOOP_MAX_MAP)
            continue;
        mapped += rl->n + 1;
        num_rings++;
    }
    return num_rings;
}

/* Whether ops `a` (of one loop body) and `b` (of another) compute the same
   thing once `map` takes a's operands to b's: opcode, attributes, types. */
static bool same_mapped_op(const IrOp *a, const IrOp *b, const ValueMap *map) {
    if (a->opcode != b->opcode || a->num_operands != b->num_operands || a->num_results != b->num_results ||
        a->int_value != b->int_value || memcmp(&a->float_value, &b->float_value, sizeof a->float_value) != 0 ||
        a->axis != b->axis || a->combine != b->combine || a->has_mask != b->has_mask ||
        a->has_other != b->has_other || a->fp8 != b->fp8 || a->body || b->body)
        return false;
    for (int i = 0; i < a->num_operands; i++)
        if (loop_map_value(map, a->operands[i]) != b->operands[i])
            return false;
    for (int i = 0; i < a->num_results; i++)
        if (!ir_type_equal(&a->results[i]->type, &b->results[i]->type))
            return false;
    if (a->opcode == IR_VIEW)
        for (int i = 0; i < a->operands[0]->type.rank; i++) {
            const IrViewDim *x = &a->view_dims[i], *y = &b->view_dims[i];
            if (x->kind != y->kind || x->size != y->size || x->offset_operand != y->offset_operand)
                return false;
        }
    return a->opcode != IR_EXTRACT && a->opcode != IR_PERMUTE;   /* not address ops: never compared */
}

/* Whether loop `b`'s rings read what loop `a`'s would at the same
   iteration: the same loads, one for one, of addresses computed alike
   from the induction variable and the same values from outside. */
static bool same_rings(IrOp *a, const RingLoad *ra, int na, IrOp *b, const RingLoad *rb, int nb) {
    if (na != nb)
        return false;
    ValueMap map = {.n = 1};
    map.from[0] = a->body->args[0];
    map.to[0] = b->body->args[0];
    for (int k = 0; k < na; k++) {
        if (ra[k].n != rb[k].n)
            return false;
        for (int i = 0; i < ra[k].n; i++) {
            const IrOp *x = ra[k].slice[i], *y = rb[k].slice[i];
            if (loop_is_mapped(&map, x->results[0]))
                continue;   /* shared with an earlier ring's slice: compared there */
            if (!same_mapped_op(x, y, &map) || map.n == LOOP_MAX_MAP)
                return false;
            map.from[map.n] = x->results[0];
            map.to[map.n++] = y->results[0];
        }
        if (!same_mapped_op(ra[k].load, rb[k].load, &map))
            return false;
    }
    return true;
}

/* A ring that runs on into the next loop (pipeline_block): loop `next`
   starts where `loop` ends (its lo is loop's hi, both step 1), reads the
   same tiles of its iterations as loop does of its own, and only pure
   scalars lie between the two (the second loop's bounds), none of loop's
   results among their operands. Those scalars move in front of `loop`, and
   the ring's copies, S-1 iterations ahead, go on past loop's last
   iteration into next's first: next's first tiles land while loop's last
   run, and next needs no prologue (causal attention's two key loops: the
   blocks before the diagonal, then the ones across it). */
/* Whether the ops between `loop` and `next` are pure scalars that read no
   result of loop, so that they may move in front of it. */
static bool movable_between(const IrOp *loop, const IrOp *next) {
    for (const IrOp *op = loop->next; op != next; op = op->next) {
        if (!ir_opcode_is_pure(op->opcode) || op->opcode == IR_DOT || op->num_results != 1 ||
            op->results[0]->type.kind != IRT_TILE || op->results[0]->type.rank != 0)
            return false;
        for (int i = 0; i < op->num_operands; i++)
            if (op->operands[i]->def == loop)
                return false;
    }
    return true;
}

static bool chains_onto(IrKernel *kernel, IrOp *loop, const RingLoad *rings, int num_rings, IrOp *next, int stages,
                        bool fp8_rings, RingLoad *next_rings) {
    int64_t step;
    if (!next || next->opcode != IR_FOR || next->int_value != 0 || next->operands[0] != loop->operands[1] ||
        next->operands[1]->def == loop || !loop_int_const(loop->operands[2], &step) || step != 1 ||
        !loop_int_const(next->operands[2], &step) || step != 1 || !movable_between(loop, next))
        return false;
    int n = collect_rings(kernel, next, stages, fp8_rings, next_rings);
    return n > 0 && same_rings(loop, rings, num_rings, next, next_rings, n);
}

/* ---- a tail block: `if c { let j = hi; ... loads at j ... }` after the loop ---- */

/* Whether ops a and b have the same opcode, attributes and result types
   (same_mapped_op, their operands compared by the caller). */
static bool same_attributes(const IrOp *a, const IrOp *b) {
    IrOp probe = *b;
    probe.operands = a->operands;
    ValueMap none = {.n = 0};
    return same_mapped_op(a, &probe, &none);
}

/* Whether scalars x and y are the same expression: the same value, or pure
   ops alike of operands that are. */
static bool same_expr(const IrValue *x, const IrValue *y, int depth) {
    if (x == y)
        return true;
    const IrOp *a = x->def, *b = y->def;
    if (depth == 0 || !a || !b || a->body || b->body || !loop_is_pure_address_op(a->opcode) ||
        a->num_operands != b->num_operands || x->result_index != y->result_index)
        return false;
    for (int i = 0; i < a->num_operands; i++)
        if (!same_expr(a->operands[i], b->operands[i], depth - 1))
            return false;
    return same_attributes(a, b);
}

/* Whether value y (of the tail block `tail`) computes what x (of loop
   `loop`'s body) does with loop's induction variable bound to one value,
   *bound (set by the first use): the same pure address ops of the same
   outside values. */
static bool same_at(const IrOp *loop, const IrBlock *tail, IrValue *x, IrValue *y, IrValue **bound, int depth) {
    if (x == loop->body->args[0]) {
        if (!*bound)
            *bound = y;
        return y == *bound;
    }
    const IrOp *a = x->def, *b = y->def;
    if (!a || a->parent != loop->body)
        return x == y && !(b && b->parent == tail);   /* from outside the loop: the same value */
    if (depth == 0 || !b || b->parent != tail || a->body || b->body || a->num_operands != b->num_operands ||
        x->result_index != y->result_index)
        return false;
    for (int i = 0; i < a->num_operands; i++)
        if (!same_at(loop, tail, a->operands[i], b->operands[i], bound, depth - 1))
            return false;
    return same_attributes(a, b);
}

/* A tail block of the ring (pipeline_block): `tail`, an `if` right after
   `loop` (past pure scalars, which move in front of loop, its condition
   among them), whose then block loads, at its top level, the tiles of
   loop's rings, one for one, at one iteration j, where j is computed as
   loop's hi is (flash attention's partial last key block, `if T % BK !=
   0 { let j = T / BK; ... }`). Its loads go into tail_loads. Then loop's
   copies run on to iteration hi when the condition holds (each guard
   `it < hi || (it == hi && c)`), and the tail block reads the ring's next
   slot, with no load of its own. Neither the condition nor (a chain) the
   next loop's hi may be loop's own result: they move in front of it. Loop steps
   of 1 only (j = hi is the iteration after loop's last). */
static bool tail_onto(IrOp *loop, const RingLoad *rings, int num_rings, IrOp *tail, IrOp **tail_loads) {
    int64_t step;
    if (!tail || tail->opcode != IR_IF || tail->operands[0]->def == loop || !loop_int_const(loop->operands[2], &step) ||
        step != 1 || !movable_between(loop, tail))
        return false;
    IrBlock *then = tail->body;
    IrValue *j = NULL;
    int k = 0;
    for (IrOp *op = then->first; op && k < num_rings; op = op->next) {
        int uses = 0;
        const IrOp *want = rings[k].load;
        if (op->opcode != IR_LOAD || op->num_operands != want->num_operands ||
            !ir_type_equal(&op->results[0]->type, &want->results[0]->type) ||
            !only_dots_read(then, op->results[0], &uses) || uses == 0)
            continue;
        IrValue *bound = j;
        bool same = op->has_mask == want->has_mask && op->has_other == want->has_other;
        for (int i = 0; i < op->num_operands && same; i++)
            same = same_at(loop, then, want->operands[i], op->operands[i], &bound, 64);
        if (!same || !bound)
            continue;
        j = bound;
        tail_loads[k++] = op;
    }
    return k == num_rings && same_expr(j, loop->operands[1], 16);
}


/* Rings for `loop`'s loads (collect_rings), copies of iterations
   copies_start .. copies_end - 1 (NULL: the loop's lo and hi; a chain's
   range, pipeline_block). With `from`, loop is the second of a chain: it
   takes the first loop's rings and slots and has no prologue. `to` gets
   loop's rings and its slots after it. */
typedef struct RingChain {
    RingLoad *rings;
    int num_rings;
    IrValue *read_slot, *write_slot;    /* the previous loop's results */
} RingChain;

static void pipeline_loop(IrKernel *kernel, IrOp *loop, int stages, RingLoad *rings, int num_rings,
                          IrValue *copies_start, IrValue *copies_end, IrValue *tail, const RingChain *from,
                          RingChain *to) {
    IrBlock *body = loop->body;
    Span loc = loop->loc;
    if (!copies_start)
        copies_start = loop->operands[0];
    if (!copies_end)
        copies_end = loop->operands[1];
    int64_t step;
    loop_int_const(loop->operands[2], &step);
    IrValue *r, *w;
    if (from) {
        for (int k = 0; k < num_rings; k++)
            rings[k].ring = from->rings[k].ring;
        r = loop_add_carried(kernel, loop, from->read_slot, NULL);
        w = loop_add_carried(kernel, loop, from->write_slot, NULL);
    } else {
        for (int k = 0; k < num_rings; k++) {
            const IrType *t = &rings[k].load->results[0]->type;
            IrOp *alloc = ir_op_new(kernel, IR_ALLOC, rings[k].load->loc, 0, 1);
            IrType rt = *t;
            rt.kind = IRT_REF;
            rt.rank = 3;
            rt.dims[0] = (IrDim){.size = stages};
            rt.dims[1] = t->dims[0];
            rt.dims[2] = t->dims[1];
            rt.space = SPACE_SHARED;
            rt.access = ACCESS_INOUT;
            alloc->results[0]->type = rt;
            ir_op_insert_before(loop, alloc);
            rings[k].ring = alloc->results[0];
        }
        /* The prologue: iterations lo .. lo + (S-2) step. */
        for (int s = 0; s + 1 < stages; s++) {
            IrValue *it;
            IrValue *valid = iteration_runs(kernel, loop, loc, copies_start, s * step, copies_end, tail, &it);
            issue_copies(kernel, loop, loop, rings, num_rings, valid, it, int_const(kernel, loop, loc, DT_I32, s));
        }
        /* The slots: read r, written w, carried. */
        r = loop_add_carried(kernel, loop, int_const(kernel, loop, loc, DT_I32, 0), NULL);
        w = loop_add_carried(kernel, loop, int_const(kernel, loop, loc, DT_I32, stages - 1), NULL);
    }
    IrOp *first = body->first;
    IrOp *yield = body->last;
    /* The wait of iteration i + 1 at the end of iteration i (and the first
       one in front of the loop, unless the previous loop's last did it):
       the same order, with the block's barrier after the dots, so that the
       backend may read the next slot's first fragments across it
       (llvm_dot.c, "carry"). */
    for (int k = from ? 1 : 0; k < 2; k++) {
        IrOp *wait = ir_op_new(kernel, IR_ASYNC_WAIT, loc, 0, 0);
        wait->int_value = stages - 2;
        ir_op_insert_before(k == 0 ? loop : yield, wait);
    }
    IrValue *it;
    IrValue *valid = iteration_runs(kernel, first, loc, body->args[0], (stages - 1) * step, copies_end, tail, &it);
    issue_copies(kernel, loop, first, rings, num_rings, valid, it, w);
    /* The next slots before the body's own ops: a dot may read from the
       next slot (llvm_dot.c) before the yield. */
    IrValue *r_next = next_slot(kernel, first, loc, r, stages);
    IrValue *w_next = next_slot(kernel, first, loc, w, stages);
    for (int k = 0; k < num_rings; k++)
        load_from_ring(kernel, rings[k].load, rings[k].ring, r);
    yield->operands[yield->num_operands - 2] = r_next;
    yield->operands[yield->num_operands - 1] = w_next;
    if (to) {
        to->rings = rings;
        to->num_rings = num_rings;
        to->read_slot = loop->results[loop->num_results - 2];
        to->write_slot = loop->results[loop->num_results - 1];
    }
}

/* A stationary A operand: `dot(a, ...)` in the body with `a` computed
   before the loop (flash attention's q). Held as fragments in registers,
   it costs m * k * 2 / (4 * threads) registers a thread for the whole loop;
   past STATIONARY_MAX_REGS it is stored once into shared memory in front
   of the loop and read in place by ldmatrix every iteration (as
   FlashAttention-2 keeps q for head dim 128), which frees the registers
   for more rows per warp. --stationary=shared stores every one (`always`):
   on sm_90a wgmma then reads it by descriptor, as FlashAttention-3 reads q
   (layout.c wgmma_swizzle). */
enum { STATIONARY_MAX_REGS = 32 };

static bool stationary_candidate(const IrOp *loop, const IrOp *dot, int threads, bool always) {
    if (dot->opcode != IR_DOT || !mma_dot(dot))
        return false;
    const IrValue *a = dot->operands[0];
    if (!a->def || a->def->opcode == IR_CONST)
        return false;
    for (const IrBlock *b = a->def->parent; b; b = b->parent_op ? b->parent_op->parent : NULL)
        if (b == loop->body)
            return false;   /* computed inside the loop */
    int64_t words = a->type.dims[0].size * a->type.dims[1].size * 2 / 4;
    return always || words > (int64_t)STATIONARY_MAX_REGS * threads;
}

/* The tensor-core dots under `block` (any depth) that read `a` as their A
   operand read a load of `alloc` instead, in front of each: a later loop
   or a tail block after the loop (flash attention's partial last block)
   then does not keep `a` in registers across the loop. */
static void stationary_later_uses(IrKernel *kernel, IrOp *from, IrValue *a, IrValue *alloc) {
    for (IrOp *op = from; op; op = op->next) {
        IrBlock *blocks[2] = {op->body, op->else_body};
        for (int k = 0; k < 2; k++)
            if (blocks[k])
                stationary_later_uses(kernel, blocks[k]->first, a, alloc);
        if (op->opcode != IR_DOT || op->operands[0] != a || !mma_dot(op))
            continue;
        IrOp *load = ir_op_new(kernel, IR_LOAD, a->def->loc, 1, 1);
        load->operands[0] = alloc;
        load->results[0]->type = a->type;
        ir_op_insert_before(op, load);
        op->operands[0] = load->results[0];
    }
}

static void stationary_operands(IrKernel *kernel, IrOp *loop, int threads, bool always) {
    IrBlock *body = loop->body;
    if (!body)
        return;
    for (IrOp *dot = body->first; dot; dot = dot->next) {
        if (!stationary_candidate(loop, dot, threads, always))
            continue;
        IrValue *a = dot->operands[0];
        IrOp *alloc = ir_op_new(kernel, IR_ALLOC, a->def->loc, 0, 1);
        IrType rt = a->type;
        rt.kind = IRT_REF;
        rt.space = SPACE_SHARED;
        rt.access = ACCESS_INOUT;
        alloc->results[0]->type = rt;
        ir_op_insert_before(loop, alloc);
        IrOp *store = ir_op_new(kernel, IR_STORE, a->def->loc, 2, 0);
        store->operands[0] = alloc->results[0];
        store->operands[1] = a;
        ir_op_insert_before(loop, store);
        IrOp *load = ir_op_new(kernel, IR_LOAD, a->def->loc, 1, 1);
        load->operands[0] = alloc->results[0];
        load->results[0]->type = a->type;
        ir_op_insert_before(dot, load);
        dot->operands[0] = load->results[0];
        stationary_later_uses(kernel, loop->next, a, alloc->results[0]);
    }
}

static void pipeline_block(IrKernel *kernel, IrBlock *block, int stages, int threads, bool fp8_rings,
                           bool stationary_shared) {
    RingLoad rings[2][PIPELINE_MAX_LOADS];
    RingChain chain;
    bool chained = false;   /* op is the next loop of the previous one's chain */
    int num_rings = 0, which = 0;
    for (IrOp *op = block->first; op; op = op->next) {
        if (op->body)
            pipeline_block(kernel, op->body, stages, threads, fp8_rings, stationary_shared);
        if (op->else_body)
            pipeline_block(kernel, op->else_body, stages, threads, fp8_rings, stationary_shared);
        if (op->opcode != IR_FOR || op->int_value != 0) {   /* not a loop that may end early */
            chained = false;
            continue;
        }
        stationary_operands(kernel, op, threads, stationary_shared);
        if (!chained)
            num_rings = collect_rings(kernel, op, stages, fp8_rings, rings[which]);
        if (num_rings == 0) {
            chained = false;
            continue;
        }
        /* the next loop's bounds may lie between: look past pure scalars */
        IrOp *next = op->next;
        while (next && next->opcode != IR_FOR && ir_opcode_is_pure(next->opcode) && next->opcode != IR_DOT)
            next = next->next;
        /* a chain is two loops (a third's iterations would follow the
           second's only when that one has some) */
        bool chains = !chained && chains_onto(kernel, op, rings[which], num_rings, next, stages, fp8_rings,
                                              rings[1 - which]);
        IrOp *tail_loads[PIPELINE_MAX_LOADS];
        bool tail = !chained && !chains && tail_onto(op, rings[which], num_rings, next, tail_loads);
        IrValue *start = NULL, *end = NULL;
        if (chains || tail) {
            Span loc = op->loc;
            IrType i32 = ir_scalar_type(DT_I32);
            while (op->next != next) {   /* next's bounds or condition, in front of the loop */
                IrOp *between = op->next;
                ir_op_remove(between);
                ir_op_insert_before(op, between);
            }
            start = loop_new_op(kernel, op, loc, IR_MIN, &i32, op->operands[0], op->operands[1], NULL)->results[0];
            if (chains)
                end = loop_new_op(kernel, op, loc, IR_MAX, &i32, op->operands[1], next->operands[1], NULL)->results[0];
        }
        RingChain after;
        pipeline_loop(kernel, op, stages, rings[which], num_rings, start, end, tail ? next->operands[0] : NULL,
                      chained ? &chain : NULL, &after);
        if (chains)
            chain = after;
        for (int k = 0; tail && k < num_rings; k++)   /* the tail block reads the slot after loop's last */
            load_from_ring(kernel, tail_loads[k], rings[which][k].ring, after.read_slot);
        chained = chains;
        if (chains)
            which = 1 - which;
        else
            num_rings = 0;
    }
}

void pass_pipeline(IrKernel *kernel, bool fp8_rings, bool stationary_shared) {
    if (kernel->stages < 2)
        return;
    int stages = kernel->stages > PIPELINE_MAX_STAGES ? PIPELINE_MAX_STAGES : kernel->stages;
    kernel->stationary_shared = stationary_shared;
    pipeline_block(kernel, kernel->body, stages, (kernel->warps > 0 ? kernel->warps : 4) * 32, fp8_rings,
                   stationary_shared);
}
