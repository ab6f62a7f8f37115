/*
 * convert.c: the conversion pass, the one place where layout conversions
 * are decided.
 *
 * In: a KernelPlan from layout_assign (a layout per value, a wanted layout
 * per operand). Out: a ConvertRecord for every operand whose wanted layout
 * differs from its value's (OpPlan.operand_converts), the list of
 * conversions each `for` does once before its body (OpPlan.hoisted), and
 * which shape ops recompute their result instead of going through shared
 * memory (OpPlan.remat). The lowering executes the records; it decides
 * nothing.
 *
 * Methods, tried in this order:
 * - splat: a splat (constants and what is computed from them) or a single
 *   element is one scalar in every layout: it is re-spread, no code.
 * - remat: an index expression (iota, splats, elementwise ops, selects,
 *   casts, same-rank broadcasts and unit-dim insertions over them, like a
 *   causal mask) costs a few integer instructions per register in any
 *   layout, where shared memory costs a barrier pair and a round trip: it is
 *   recomputed in the wanted layout.
 * - rebroadcast: a broadcast's result is redone from its (smaller) source,
 *   through shared memory, without moving the big tile.
 * - shared: write, barrier, read, through the user's scratch buffer.
 * - shuffle (within a warp) is reserved for when a layout pair is known to
 *   differ only in lanes; nothing chooses it yet.
 *
 * Every shared conversion is also classified from the two layouts' linear
 * maps (layout_map_linear, linear_convert_kind): noop, registers (each
 * thread already holds what it needs), shuffle (within each warp) or shared
 * (across warps). The record keeps the kind (ConvertRecord.kind, shown by
 * --dump-after=convert); the method stays shared, so the PTX does not
 * change until the cheaper paths are lowered.
 *
 * Placement: a conversion that an op inside a `for` wants of a value
 * defined outside it (a dot's loop-invariant A operand, q in flash
 * attention) is hoisted: done once before the outermost such loop, and
 * every operand in the loop that wants the same value in the same layout
 * reads that one conversion, and so does every operand after the loop in
 * its block (or in blocks nested there): a tail block's dot, a second
 * loop's (the lowering keeps it until the block ends, and the value it
 * converts need not live across the loop for them). It uses the first such user's scratch: nothing
 * live at the loop and still live in it overlaps it (shared_alloc gives
 * whatever a loop uses an interval over the whole loop). Every other
 * conversion is done at its user, once per operand. The visit order (a
 * loop's nested blocks before an op's own operands) is the lowering's.
 */
#include "codegen.h"
#include "linear_layout.h"

#include <string.h>

const char *convert_method_name(ConvertMethod method) {
    switch (method) {
    case CONVERT_SPLAT: return "splat";
    case CONVERT_REMAT: return "remat";
    case CONVERT_REBROADCAST: return "rebroadcast";
    case CONVERT_SHARED: return "shared";
    case CONVERT_SHUFFLE: return "shuffle";
    }
    return "?";
}

static bool is_tile(const IrValue *v) { return v->type.kind == IRT_TILE; }

/* The lowering holds a value as one scalar iff it is flexible (a splat) or
   has a single element (llvm_kernel_splat's callers). */
bool convert_is_scalar(const KernelPlan *plan, const IrValue *v) {
    return is_tile(v) && (ir_type_elements(&v->type) == 1 || plan->values[v->id].flexible);
}

/* ---- rematerialization --------------------------------------------------------- */

/* Bounds on the expression looked at: its depth, and the nodes visited (a
   DAG that reuses values would otherwise be walked once per path). */
enum { REMAT_MAX_DEPTH = 12, REMAT_MAX_NODES = 64 };

/* `self`: the result of the op being decided, which is not a scalar to
   its own op (it is not lowered yet when its op runs). */
static bool remat_ok(const KernelPlan *plan, const IrValue *v, const IrValue *self, int depth, int *nodes) {
    if (!is_tile(v) || depth > REMAT_MAX_DEPTH || ++*nodes > REMAT_MAX_NODES)
        return false;
    if (v != self && convert_is_scalar(plan, v))
        return true;
    const IrOp *op = v->def;
    if (!op)
        return false;
    switch (op->opcode) {
    case IR_IOTA: return true;
    case IR_BROADCAST:
        return op->operands[0]->type.rank == v->type.rank && remat_ok(plan, op->operands[0], self, depth + 1, nodes);
    case IR_RESHAPE:
        return ir_type_inserted_unit_dim(&op->operands[0]->type, &v->type) >= 0 &&
               remat_ok(plan, op->operands[0], self, depth + 1, nodes);
    case IR_SELECT:
    case IR_CAST:
    case IR_BITCAST:
        break;
    default:
        if (!ir_opcode_is_elementwise_binary(op->opcode))
            return false;
    }
    for (int i = 0; i < op->num_operands; i++)
        if (!remat_ok(plan, op->operands[i], self, depth + 1, nodes))
            return false;
    return true;
}

static bool can_remat(const KernelPlan *plan, const IrValue *v, const IrValue *self) {
    int nodes = 0;
    return v->def && (v == self || !convert_is_scalar(plan, v)) && remat_ok(plan, v, self, 0, &nodes);
}

bool convert_can_remat(const KernelPlan *plan, const IrValue *v) { return can_remat(plan, v, NULL); }

/* ---- the shared buffer's rows -------------------------------------------------- */

static int elem_bytes(const IrType *t) { return t->dtype == DT_BOOL ? 1 : dtype_bytes(t->dtype); }

void convert_shared_strides(const ConvertRecord *c, int64_t *stride) {
    const IrType *t = &c->value->type;
    int64_t step = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
        stride[d] = step;
        step *= d == t->rank - 1 ? c->pitch : t->dims[d].size;
    }
}

int64_t convert_shared_bytes(const ConvertRecord *c) {
    const IrType *t = &c->value->type;
    int64_t n = elem_bytes(t);
    for (int d = 0; d < t->rank; d++)
        n *= d == t->rank - 1 ? c->pitch : t->dims[d].size;
    return n;
}

/* One side of a conversion through a buffer at some pitch: its vector (the
   longest run of registers at consecutive offsets, at most 16 bytes), the
   accesses a thread makes, and the wavefronts of its worst warp. */
typedef struct Side {
    int vec;
    int64_t accesses, wavefronts, ideal;
} Side;

static bool side_cost(const LinearLayout *dist, const LinearShared *shared, int bytes, Side *s) {
    s->vec = linear_shared_vector_width(dist, shared);
    while (s->vec > 1 && s->vec * bytes > 16)
        s->vec /= 2;
    s->accesses = linear_in_size(dist, 0) / s->vec;
    s->wavefronts = linear_shared_wavefronts_of_runs(dist, shared, bytes, s->vec, &s->ideal);
    return s->wavefronts >= 0;
}

/* Row pads tried, in bytes: a pad of p moves each row's banks by p / 4, so
   that the rows one write or read instruction touches (8 rows of 16 bytes
   for an mma fragment's column pairs, 4 of 32 bytes for f32 pairs) fall
   in different banks. */
static const int row_pads[] = {0, 4, 8, 16, 32, 64};

/* The pitch of a shared conversion's buffer: of the row pads up to 16
   bytes or an eighth of a row (and, where `room` >= 0, fit in `room` bytes),
   the one with the fewest modelled wavefronts of the writes (from `from`)
   and the reads (into `to`) together, then the fewest accesses, then the
   smallest; unpadded where nothing beats it. Memory-bound kernels'
   conversions keep their plain rows when those are already conflict-free. */
static void choose_pitch(ConvertRecord *r, const LinearLayout *from, const LinearLayout *to, int64_t room) {
    const IrType *t = &r->value->type;
    int bytes = elem_bytes(t);
    int64_t cols = t->rank > 0 ? t->dims[t->rank - 1].size : 1;
    bool found = false;
    Side best_w = {0}, best_r = {0};
    for (size_t k = 0; k < sizeof row_pads / sizeof row_pads[0]; k++) {
        int pad = row_pads[k];
        if (pad % bytes || (pad > 0 && (t->rank < 2 || (pad > 16 && pad * 8 > cols * bytes))))
            continue;
        ConvertRecord trial = *r;
        trial.pitch = cols + pad / bytes;
        if (pad > 0 && room >= 0 && convert_shared_bytes(&trial) > room)
            continue;
        int64_t stride[IR_MAX_RANK];
        convert_shared_strides(&trial, stride);
        LinearShared shared;
        linear_shared_strided(&shared, t->rank, stride);
        Side w, rd;
        if (!side_cost(from, &shared, bytes, &w) || !side_cost(to, &shared, bytes, &rd))
            continue;
        int64_t cost = w.wavefronts + rd.wavefronts, best = best_w.wavefronts + best_r.wavefronts;
        if (found && (cost > best || (cost == best && w.accesses + rd.accesses >= best_w.accesses + best_r.accesses)))
            continue;
        found = true;
        best_w = w;
        best_r = rd;
        r->pitch = trial.pitch;
        if (w.wavefronts == w.ideal && rd.wavefronts == rd.ideal)
            break;   /* no pad can do better; larger ones only cost bytes */
    }
    if (!found)
        return;
    r->write_vec = best_w.vec;
    r->read_vec = best_r.vec;
    r->write_wavefronts = best_w.wavefronts;
    r->write_ideal = best_w.ideal;
    r->read_wavefronts = best_r.wavefronts;
    r->read_ideal = best_r.ideal;
}

/* Whether `op` runs in a loop, a persistent kernel's tile loop aside
   (its trips are tiles: between them every ring is refilled from the start). */
static bool in_loop(const IrKernel *kernel, const IrOp *op) {
    const IrBlock *tiles = layout_tile_loop_body(kernel);
    for (const IrBlock *b = op->parent; b && b->parent_op; b = b->parent_op->parent)
        if (b->parent_op->opcode == IR_FOR && b != tiles)
            return true;
    return false;
}

/* ---- records ---------------------------------------------------------------------- */

typedef struct Convert {
    KernelPlan *plan;
    PtrVec records;
    /* the loops being walked, innermost last: their hoisted conversions are
       what an operand inside them reads */
    OpPlan *loops[64];
    int depth;
    /* the loops before the op being walked in its block or an enclosing
       one: their hoisted conversions were done in front of them, which
       dominates what follows them there (a tail block after the loop, a
       second loop) */
    OpPlan *before[64];
    int num_before;
} Convert;

/* The conversion operand i of `user` needs, or NULL: wanted layout as it
   is, or none wanted. */
static const Layout *wanted(const KernelPlan *plan, const OpPlan *user, int i) {
    const IrValue *v = user->op->operands[i];
    const Layout *want = user->operand_layouts ? user->operand_layouts[i] : NULL;
    if (!is_tile(v) || !want || layout_equal(want, plan->values[v->id].layout))
        return NULL;
    return want;
}

static ConvertRecord *record_new(Convert *C, OpPlan *user, int i, const Layout *to, OpPlan *loop) {
    KernelPlan *plan = C->plan;
    IrValue *v = user->op->operands[i];
    ConvertRecord *r = ARENA_NEW(&plan->kernel->arena, ConvertRecord);
    r->id = C->records.len;
    r->value = v;
    r->from = plan->values[v->id].layout;
    r->to = to;
    r->user = user;
    r->operand = i;
    r->loop = loop;
    if (convert_is_scalar(plan, v))
        r->method = CONVERT_SPLAT;
    else if (can_remat(plan, v, NULL))
        r->method = CONVERT_REMAT;
    else if (v->def && v->def->opcode == IR_BROADCAST)
        r->method = CONVERT_REBROADCAST;
    else
        r->method = CONVERT_SHARED;
    r->kind = -1;
    r->pitch = v->type.rank > 0 ? v->type.dims[v->type.rank - 1].size : 1;
    r->write_vec = r->read_vec = 1;
    r->write_wavefronts = r->write_ideal = r->read_wavefronts = r->read_ideal = -1;
    if (r->method == CONVERT_SHARED) {
        const LinearLayout *from = layout_map_linear(layout_map_new(plan->kernel, r->from, &v->type));
        const LinearLayout *want = layout_map_linear(layout_map_new(plan->kernel, to, &v->type));
        /* A conversion in a loop (or hoisted before one) has its bytes
           while the loop's rings and scratch are live: its pad must fit in
           what its user's scratch already holds. Outside every loop (an
           epilogue store) the buffer takes the bytes the loops freed. */
        int64_t room = loop || in_loop(plan->kernel, user->op) ? user->scratch_bytes : -1;
        if (from && want) {
            r->kind = (int)linear_convert_kind(from, want);
            choose_pitch(r, from, want, room);
        }
        /* the user's scratch holds the padded rows */
        if (convert_shared_bytes(r) > user->scratch_bytes)
            user->scratch_bytes = convert_shared_bytes(r);
    } else if (r->method == CONVERT_REBROADCAST) {
        /* the broadcast's source goes through the user's scratch; layout.c
           scratch_op reserved it unless it took the operand for a remat,
           which the same predicate (convert_can_remat) rules out here */
        const IrType *src = &v->def->operands[0]->type;
        int64_t bytes = elem_bytes(src) * ir_type_elements(src);
        if (bytes > user->scratch_bytes)
            user->scratch_bytes = bytes;
    }
    ptrvec_push(&plan->kernel->arena, &C->records, r);
    return r;
}

static ConvertRecord *hoisted_of(const OpPlan *loop, const IrValue *v, const Layout *to) {
    for (int k = loop->num_hoisted - 1; k >= 0; k--)
        if (loop->hoisted[k]->value == v && layout_equal(loop->hoisted[k]->to, to))
            return loop->hoisted[k];
    return NULL;
}

/* The hoisted conversion of (v, to) that an enclosing loop does, or one
   before the op in its block or an enclosing one did, or NULL. */
static ConvertRecord *find_hoisted(Convert *C, const IrValue *v, const Layout *to) {
    ConvertRecord *r;
    for (int d = C->depth - 1; d >= 0; d--)
        if ((r = hoisted_of(C->loops[d], v, to)))
            return r;
    for (int d = C->num_before - 1; d >= 0; d--)
        if ((r = hoisted_of(C->before[d], v, to)))
            return r;
    return NULL;
}

/* Whether v is defined inside `loop` (an op of its body or of a block
   nested in it, or one of those blocks' arguments). */
static bool defined_in(const IrValue *v, const IrOp *loop) {
    const IrBlock *block = v->def ? v->def->parent : v->arg_of;
    while (block) {
        if (block == loop->body)
            return true;
        block = block->parent_op ? block->parent_op->parent : NULL;
    }
    return false;
}

/* The loop-invariant operands of ops in `block` (in `loop`) that need a
   conversion other than a re-spread: one record each (value, layout). */
static void hoist_block(Convert *C, OpPlan *loop, IrBlock *block, PtrVec *out) {
    KernelPlan *plan = C->plan;
    for (IrOp *op = block->first; op; op = op->next) {
        if (op->body)
            hoist_block(C, loop, op->body, out);
        if (op->else_body)
            hoist_block(C, loop, op->else_body, out);
        OpPlan *p = layout_op_plan(plan, op);
        if (p->elided)
            continue;
        for (int i = 0; i < op->num_operands; i++) {
            IrValue *v = op->operands[i];
            const Layout *to = wanted(plan, p, i);
            /* an elided op's result is never lowered: nothing to convert */
            if (!to || defined_in(v, loop->op) || convert_is_scalar(plan, v) ||
                (v->def && layout_op_plan(plan, v->def)->elided))
                continue;
            bool known = find_hoisted(C, v, to) != NULL;
            for (int k = 0; k < out->len && !known; k++) {
                ConvertRecord *h = out->items[k];
                known = h->value == v && layout_equal(h->to, to);
            }
            if (!known)
                ptrvec_push(&plan->kernel->arena, out, record_new(C, p, i, to, loop));
        }
    }
}

static void convert_block(Convert *C, IrBlock *block);

static void convert_op(Convert *C, IrOp *op) {
    KernelPlan *plan = C->plan;
    OpPlan *p = layout_op_plan(plan, op);
    if (p->elided)
        return;
    if (p->via_shared)
        p->remat = can_remat(plan, op->results[0], op->results[0]);
    if (op->num_operands > 0) {
        p->operand_converts = ARENA_ARRAY(&plan->kernel->arena, ConvertRecord *, op->num_operands + 1);
        for (int i = 0; i < op->num_operands; i++) {
            const Layout *to = wanted(plan, p, i);
            if (!to)
                continue;
            ConvertRecord *r = find_hoisted(C, op->operands[i], to);
            if (!r)
                r = record_new(C, p, i, to, NULL);
            r->num_users++;
            p->operand_converts[i] = r;
        }
    }
    if (op->opcode == IR_FOR && op->body) {
        if (C->depth == (int)(sizeof C->loops / sizeof C->loops[0]))
            INTERNAL_ERROR("kernel '%s': loops nested more than %d deep", plan->kernel->name, C->depth);
        PtrVec hoisted = {0};
        hoist_block(C, p, op->body, &hoisted);
        p->hoisted = (ConvertRecord **)hoisted.items;
        p->num_hoisted = hoisted.len;
        C->loops[C->depth++] = p;
        convert_block(C, op->body);
        C->depth--;
    } else {
        if (op->body)
            convert_block(C, op->body);
        if (op->else_body)
            convert_block(C, op->else_body);
    }
}

static void convert_block(Convert *C, IrBlock *block) {
    int mark = C->num_before;
    for (IrOp *op = block->first; op; op = op->next) {
        /* the block's own yield is lowered by its for or if after the
           block's end, where the block's loops' conversions are gone */
        if (op->opcode == IR_YIELD)
            C->num_before = mark;
        convert_op(C, op);
        OpPlan *p = layout_op_plan(C->plan, op);
        if (op->opcode == IR_FOR && !p->elided && p->num_hoisted > 0 &&
            C->num_before < (int)(sizeof C->before / sizeof C->before[0]))
            C->before[C->num_before++] = p;
    }
    C->num_before = mark;
}

void convert_plan(KernelPlan *plan) {
    Convert C = {.plan = plan};
    convert_block(&C, plan->kernel->body);
    plan->converts = (ConvertRecord **)C.records.items;
    plan->num_converts = C.records.len;
}
