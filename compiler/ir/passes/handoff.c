/*
 * handoff.c: a persistent kernel's rings handed on from one tile to the
 * next (--grid=persistent-handoff; docs/ir.md "handoff").
 *
 * In: a verified kernel after the persist and pipeline passes. Out: the
 * same kernel, its tile loop's ring prologue (the async copies of a tile's
 * first S - 1 iterations, which the pipeline pass put in front of the
 * tile's key loop) issued one tile early, in the previous tile's trip
 * right after its last read of the rings:
 *
 *   for %t = ... {                          <prologue of t issued in front>
 *     A(t)   (q's load, ...)                for %t = ... {
 *     P(t)   (the ring's first copies)  =>    A(t)
 *     wait N                                  wait N
 *     L(t)   (the key loop, its tail)         L(t)
 *     E(t)   (the epilogue)                   wait 0; P(next t) if there is one
 *   }                                         E(t)
 *                                           }
 *
 * Why: with the prologue at the top of a tile, the ring drains at every
 * tile's end and fills again at the next one's start, after the epilogue
 * and the next tile's stationary loads: that latency is exposed once a
 * tile. Handed on, the next tile's first blocks are in flight while this
 * tile's epilogue runs (under a producer warpgroup the consumers' commits
 * of those groups, the producer's go-ahead, now come before the epilogue).
 *
 * Preserves: meaning. The copies read `in` arrays (the pipeline pass's
 * rule), so reading them a little earlier reads the same values; the
 * slots they fill were last read by L(t), which the `async_wait 0` in front
 * of them (a no-op for the data: every group the tile committed has been
 * waited for) separates from them as the pipeline separates a slot's reads
 * from its refill. No commit comes between P's new place and the wait that
 * followed it, so every `async_wait N` sees the same groups pending. The
 * rings' allocs move in front of the tile loop: one buffer for every tile
 * (an alloc run again while a copy fills it would be an error), which also
 * keeps shared_alloc from giving their bytes to the epilogue's scratch.
 * The next tile is t + step when that is below the bound (and does not
 * wrap), else t itself with every copy skipped (its address ops then see
 * a valid tile, as prefetch.c's clamp does); the first tile's prologue is
 * issued in front of the loop under `lo < hi`.
 *
 * Left alone: a kernel that is not persistent; a tile loop that carries
 * values; a body whose async ops before its first `async_wait` are not the
 * pipeline's prologue (guarded copies into top-level allocs, commits), or
 * with an async op after its last read of those allocs; copies whose
 * addresses need more than pure address ops of the tile index; and a
 * kernel whose shared memory would pass `shared_budget` bytes with the
 * rings kept apart from the epilogue's store (estimated: every alloc, and
 * the largest top-level store of a 2-d tile with its row pad).
 */
#include "loop_edit.h"

enum { HANDOFF_MAX_OPS = 16, HANDOFF_MAX_RINGS = 8 };

typedef struct Handoff {
    IrKernel *kernel;
    IrOp *loop;                        /* the tile loop */
    IrOp *prologue[HANDOFF_MAX_OPS];   /* its guarded copies and commits, in order */
    int num_prologue;
    IrOp *rings[HANDOFF_MAX_RINGS];    /* the allocs they fill */
    int num_rings;
    IrOp *slice[LOOP_MAX_SLICE];       /* the body's ops their operands need */
    int num_slice;
} Handoff;

static bool is_async(IrOpcode opcode) {
    return opcode == IR_ASYNC_COPY || opcode == IR_ASYNC_COMMIT || opcode == IR_ASYNC_WAIT;
}

static bool has_async(const IrOp *op) {
    if (is_async(op->opcode))
        return true;
    for (const IrBlock *b = op->body; b; b = b == op->body ? op->else_body : NULL)
        for (const IrOp *o = b->first; o; o = o->next)
            if (has_async(o))
                return true;
    return false;
}

static bool is_ring(const Handoff *H, const IrValue *v) {
    const IrValue *root = ir_view_root(v);
    for (int i = 0; i < H->num_rings; i++)
        if (H->rings[i]->results[0] == root)
            return true;
    return false;
}

/* Whether `op` (or an op in its regions) reads or writes a ring. */
static bool touches_rings(const Handoff *H, const IrOp *op) {
    for (int i = 0; i < op->num_operands; i++)
        if (op->operands[i]->type.kind == IRT_REF && is_ring(H, op->operands[i]))
            return true;
    for (const IrBlock *b = op->body; b; b = b == op->body ? op->else_body : NULL)
        for (const IrOp *o = b->first; o; o = o->next)
            if (touches_rings(H, o))
                return true;
    return false;
}

/* Adds the body ops `v` needs to the slice (v from a guarded copy's
   region: defined there, it is cloned with the region). */
static bool need(Handoff *H, IrValue *v) {
    return loop_collect_slice(H->loop->body, v, H->slice, &H->num_slice);
}

/* A prologue `if`: no results, an else of only its yield, a then of pure
   address ops and async copies into top-level allocs of the body. */
static bool guarded_copies(Handoff *H, IrOp *guard) {
    if (guard->num_results != 0 || !guard->else_body || guard->else_body->first != guard->else_body->last)
        return false;
    if (!need(H, guard->operands[0]))
        return false;
    for (IrOp *op = guard->body->first; op; op = op->next) {
        if (op->opcode == IR_YIELD)
            continue;
        if (op->body || (op->opcode != IR_ASYNC_COPY && !loop_is_pure_address_op(op->opcode)))
            return false;
        for (int i = 0; i < op->num_operands; i++) {
            IrValue *v = op->operands[i];
            if (v->def && v->def->parent == guard->body)
                continue;
            if (v->def && v->def->opcode == IR_ALLOC && v->def->parent == H->loop->body)
                continue;   /* a ring, moving out of the loop (rings_only checks) */
            if (!need(H, v))
                return false;
        }
        if (op->opcode == IR_ASYNC_COPY) {
            const IrValue *root = ir_view_root(op->operands[0]);
            if (!root->def || root->def->opcode != IR_ALLOC || root->def->parent != H->loop->body)
                return false;
            if (!is_ring(H, root)) {
                if (H->num_rings == HANDOFF_MAX_RINGS)
                    return false;
                H->rings[H->num_rings++] = root->def;
            }
        }
    }
    return true;
}

/* Whether every alloc of the body that the prologue's regions name is a
   ring (only those move out of the loop; another's view cloned in front
   of it would read an alloc not made yet). */
static bool rings_only(const Handoff *H) {
    for (int i = 0; i < H->num_prologue; i++)
        for (const IrOp *op = H->prologue[i]->body ? H->prologue[i]->body->first : NULL; op; op = op->next)
            for (int k = 0; k < op->num_operands; k++) {
                const IrValue *v = op->operands[k];
                if (v->def && v->def->opcode == IR_ALLOC && v->def->parent == H->loop->body && !is_ring(H, v))
                    return false;
            }
    return true;
}

/* The prologue: every op with an async op in front of the body's first
   `async_wait`, each a guarded copy or a commit. Returns that wait. */
static IrOp *find_prologue(Handoff *H) {
    for (IrOp *op = H->loop->body->first; op; op = op->next) {
        if (op->opcode == IR_ASYNC_WAIT)
            return H->num_prologue > 0 ? op : NULL;
        if (!has_async(op))
            continue;
        if (H->num_prologue == HANDOFF_MAX_OPS)
            return NULL;
        if (op->opcode != IR_ASYNC_COMMIT && !(op->opcode == IR_IF && guarded_copies(H, op)))
            return NULL;
        H->prologue[H->num_prologue++] = op;
    }
    return NULL;
}

/* An alloc's bytes as the backend may lay it out: its rows padded by 16
   bytes (layout.c pad_alloc_rows, the mma.sync targets' rings), rounded to
   the 1024 bytes a swizzled one is aligned to. */
static int64_t alloc_bytes(const IrType *t) {
    int64_t rows = t->rank >= 2 ? ir_type_elements(t) / t->dims[t->rank - 1].size : 1;
    return (ir_type_elements(t) * dtype_bytes(t->dtype) + rows * 16 + 1023) & ~(int64_t)1023;
}

/* Bytes of shared memory the kernel would need with its rings live across
   the tile loop: every alloc (alloc_bytes) and the largest 2-d tile stored
   to global memory at the tile loop's top level, with layout.c's row pad,
   for the epilogue's conversion, and room for the mbarriers and a
   reduction's partials. An estimate: where it is short, the kernel fails
   to compile for that arch ("needs N bytes of shared memory") where the
   plain persistent one would not, which the margin keeps away from the
   bench's and the tests' tiles. */
static int64_t shared_estimate(const IrKernel *kernel, const IrBlock *tiles) {
    int64_t bytes = 0, store = 0;
    for (const IrOp *op = kernel->body->first; op; op = op->next)
        if (op->opcode == IR_ALLOC)
            bytes += alloc_bytes(&op->results[0]->type);
    for (const IrOp *op = tiles->first; op; op = op->next) {
        if (op->opcode == IR_ALLOC)
            bytes += alloc_bytes(&op->results[0]->type);
        const IrType *t = op->opcode == IR_STORE ? &op->operands[1]->type : NULL;
        if (t && op->operands[0]->type.space == SPACE_GLOBAL && t->rank == 2 && t->dtype != DT_BOOL) {
            int64_t b = ir_type_elements(t) * dtype_bytes(t->dtype) + t->dims[0].size * 16;
            store = b > store ? b : store;
        }
    }
    return bytes + store + 8192;
}

/* A copy of the guarded copies `guard` in front of `before`, its condition
   `and(valid, cond)` with the slice's values mapped. */
static void clone_guarded(IrKernel *kernel, IrOp *guard, IrOp *before, IrValue *valid, ValueMap *map) {
    IrType boolean = ir_scalar_type(DT_BOOL);
    IrValue *cond = loop_new_op(kernel, before, guard->loc, IR_AND, &boolean, valid,
                                loop_map_value(map, guard->operands[0]), NULL)->results[0];
    IrOp *c = loop_new_if(kernel, before, guard->loc, cond);
    for (IrOp *op = guard->body->first; op; op = op->next)
        if (op->opcode != IR_YIELD)
            ir_op_insert_before(c->body->last, loop_clone_op(kernel, op, map));
}

/* The prologue at tile `tile` (the slice cloned first) in front of
   `before`, every copy under `valid`. */
static void issue_prologue(Handoff *H, IrOp *before, IrValue *tile, IrValue *valid) {
    ValueMap map = {.n = 1};
    map.from[0] = H->loop->body->args[0];
    map.to[0] = tile;
    for (int i = 0; i < H->num_slice; i++)
        ir_op_insert_before(before, loop_clone_op(H->kernel, H->slice[i], &map));
    for (int i = 0; i < H->num_prologue; i++) {
        IrOp *op = H->prologue[i];
        if (op->opcode == IR_ASYNC_COMMIT)
            ir_op_insert_before(before, ir_op_new(H->kernel, IR_ASYNC_COMMIT, op->loc, 0, 0));
        else
            clone_guarded(H->kernel, op, before, valid, &map);
    }
}

static IrOp *tile_loop(IrKernel *kernel) {
    if (!ir_grid_persistent(kernel))
        return NULL;
    for (IrOp *op = kernel->body->first; op; op = op->next)
        if (op->opcode == IR_FOR && op->operands[0]->def && op->operands[0]->def->opcode == IR_PROGRAM_ID)
            return op;
    return NULL;
}

/* Room in a ValueMap for the slice and the prologue's regions. */
static bool map_fits(const Handoff *H) {
    int n = 1 + H->num_slice;
    for (int i = 0; i < H->num_prologue; i++)
        for (const IrOp *op = H->prologue[i]->body ? H->prologue[i]->body->first : NULL; op; op = op->next)
            n += op->num_results;
    return n <= LOOP_MAX_MAP;
}

void pass_handoff(IrKernel *kernel, int64_t shared_budget) {
    Handoff H = {.kernel = kernel, .loop = tile_loop(kernel)};
    if (!H.loop || H.loop->num_results != 0)
        return;
    IrBlock *body = H.loop->body;
    IrOp *first_wait = find_prologue(&H);
    if (!first_wait || H.num_rings == 0 || !map_fits(&H) || !rings_only(&H))
        return;
    /* Nothing in front of the first wait but the prologue touches a ring:
       handed on, the next tile's copies are in flight there. */
    for (IrOp *op = body->first; op != first_wait; op = op->next) {
        bool in_prologue = false;
        for (int i = 0; i < H.num_prologue; i++)
            in_prologue |= H.prologue[i] == op;
        if (!in_prologue && touches_rings(&H, op))
            return;
    }
    /* The last top-level op that touches a ring: after the first wait, and
       no async op after it. */
    IrOp *last_read = NULL;
    for (IrOp *op = first_wait; op; op = op->next)
        if (touches_rings(&H, op))
            last_read = op;
    if (!last_read)
        return;
    for (IrOp *op = last_read->next; op; op = op->next)
        if (has_async(op))
            return;
    if (shared_budget > 0 && shared_estimate(kernel, body) > shared_budget)
        return;

    /* The rings, one buffer for every tile. */
    for (int i = 0; i < H.num_rings; i++) {
        ir_op_remove(H.rings[i]);
        ir_op_insert_before(H.loop, H.rings[i]);
    }
    Span loc = H.loop->loc;
    IrType boolean = ir_scalar_type(DT_BOOL), i32 = ir_scalar_type(DT_I32);
    IrValue *lo = H.loop->operands[0], *hi = H.loop->operands[1], *step = H.loop->operands[2];

    /* The first tile's prologue, in front of the loop. */
    IrValue *runs = loop_new_op(kernel, H.loop, loc, IR_LT, &boolean, lo, hi, NULL)->results[0];
    issue_prologue(&H, H.loop, lo, runs);

    /* The next tile's, after this tile's last ring read. */
    IrOp *at = last_read->next;
    IrOp *wait = ir_op_new(kernel, IR_ASYNC_WAIT, loc, 0, 0);
    wait->int_value = 0;
    ir_op_insert_before(at, wait);
    IrValue *t = body->args[0];
    IrValue *next = loop_new_op(kernel, at, loc, IR_ADD, &i32, t, step, NULL)->results[0];
    IrValue *below = loop_new_op(kernel, at, loc, IR_LT, &boolean, next, hi, NULL)->results[0];
    IrValue *up = loop_new_op(kernel, at, loc, IR_GT, &boolean, next, t, NULL)->results[0];
    IrValue *valid = loop_new_op(kernel, at, loc, IR_AND, &boolean, below, up, NULL)->results[0];
    IrValue *tile = loop_new_op(kernel, at, loc, IR_SELECT, &i32, valid, next, t)->results[0];
    issue_prologue(&H, at, tile, valid);

    for (int i = 0; i < H.num_prologue; i++)
        ir_op_remove(H.prologue[i]);
}
