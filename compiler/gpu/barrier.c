/*
 * barrier.c: the barrier pass, the one place where `bar.sync 0` is placed.
 *
 * In: a KernelPlan after convert_plan and shared_alloc (conversions, buffer
 * offsets). Out: for every op and conversion the BarrierStep bits at which
 * the lowering emits a barrier (OpPlan.barriers, ConvertRecord.barriers),
 * the slot each cross-warp reduction writes (OpPlan.reduce_slot), and the
 * list of barriers (plan->barrier_list) for the dump.
 *
 * Each shared-memory phase is a sequence of steps: barrier points, writes
 * and reads of byte ranges. Phases whose accesses are not described by
 * ranges (a conversion or shape op through shared memory: barrier, write,
 * barrier, read; a dot's staging: barrier, write A and B, barrier, reads;
 * a load, store or atomic on an `alloc`: barrier, access) barrier at both
 * points, and after them any byte counts as accessed. An async_wait is
 * followed by a barrier (the copies it retired are then visible to every
 * thread); an async copy into a ring needs one before it only when an
 * access other than another async copy may have touched the ring since the
 * last (passes/pipeline.c writes only the slot that the wait's barrier
 * freed); a run of such copies' guards after a pending plain write gets one
 * barrier in front of the first guard instead (barrier_before_guard). In a
 * TMA plan (tma.c) every thread waits on the group's
 * mbarrier, which makes the bulk copies' bytes visible to it: no barrier
 * follows the wait, and the reads of a ring count as plain accesses, so
 * that the ring's next copy barriers first (an async wgmma's own barrier,
 * llvm_dot.c, counts as one). A tensor-core dot that reads both operands in place or from
 * registers has no phase. A reduction across
 * warps describes its ranges: its scratch has two slots of
 * warps x elements partials; it writes the slot that no thread has accessed
 * since the last barrier on every path here, without a barrier before it
 * (so back-to-back reductions, softmax's max then sum, need one barrier
 * each), else barriers first and writes slot 0; barrier; every thread reads
 * the partials (which then count as that slot's accesses).
 *
 * The walk follows the lowering's order (an op's operand conversions before
 * its own phase; a loop's init conversions, then its hoisted ones, then its
 * body) and its rules for regions: a loop body starts with what the entry
 * left merged with what the back edge brings (the end of the body, found
 * by a walk that places nothing: walk_for); a `for` or `if` whose regions
 * contain a phase leaves every byte possibly accessed after it; one
 * without leaves the state as before it.
 * Every thread reaches every barrier: barriers sit only under conditions on
 * scalars, and scalars are uniform across the block.
 */
#include "codegen.h"

#include <string.h>

enum { TRACK_RANGES = 8 };

/* The byte ranges some thread may have accessed since the last barrier on
   the current path; unknown: any byte may have been. */
typedef struct Track {
    bool unknown;
    const char *why;                   /* why unknown, for the dump */
    int num_ranges;
    int64_t lo[TRACK_RANGES], hi[TRACK_RANGES];
    bool async[TRACK_RANGES];          /* written by an async copy */
    bool read[TRACK_RANGES];           /* plain, but only read in place by a dot (a TMA plan's ring) */
    int events;                        /* counts barriers and accesses (for regions) */
} Track;

typedef struct Barriers {
    KernelPlan *plan;
    Track t;
    PtrVec list;
    int dry;                           /* > 0: a walk that only computes the state (walk_for) */
    int placed;                        /* barriers placed, dry walks' included (barrier_before_guard) */
} Barriers;

static void place(Barriers *B, OpPlan *op, ConvertRecord *convert, BarrierStep step, const char *why) {
    B->placed++;
    if (B->dry) {
        B->t.unknown = false;
        B->t.num_ranges = 0;
        B->t.events++;
        return;
    }
    BarrierRecord *r = ARENA_NEW(&B->plan->kernel->arena, BarrierRecord);
    r->op = op;
    r->convert = convert;
    r->step = step;
    r->why = why;
    ptrvec_push(&B->plan->kernel->arena, &B->list, r);
    if (convert)
        convert->barriers |= 1u << step;
    else
        op->barriers |= 1u << step;
    B->t.unknown = false;
    B->t.num_ranges = 0;
    B->t.events++;
}

/* An access the ranges do not describe: after it, any byte counts. */
static void access_any(Barriers *B, const char *why) {
    B->t.unknown = true;
    B->t.why = why;
}

static bool range_free(const Track *t, int64_t lo, int64_t hi) {
    if (t->unknown)
        return false;
    for (int i = 0; i < t->num_ranges; i++)
        if (lo < t->hi[i] && t->lo[i] < hi)
            return false;
    return true;
}

/* How much a range constrains what follows: an async copy's bytes least,
   a plain write's most (each check that a kind fails, the next fails too). */
static int kind_strength(bool async, bool read) { return async ? 0 : read ? 1 : 2; }

static void access_range_kind(Barriers *B, int64_t lo, int64_t hi, bool async, bool read) {
    Track *t = &B->t;
    t->events++;
    /* The same bytes as a recorded range (a TMA ring slot, copied into and
       read): one range of the stronger kind, so that a read kind of its
       own does not crowd out the ranges the plain plans keep. */
    for (int i = 0; read && i < t->num_ranges; i++)
        if (t->lo[i] == lo && t->hi[i] == hi && t->async[i]) {
            t->async[i] = false;
            t->read[i] = true;
            return;
        }
    for (int i = 0; i < t->num_ranges; i++)   /* a ring's next copy: already recorded */
        if (t->lo[i] == lo && t->hi[i] == hi && t->async[i] == async && t->read[i] == read)
            return;
    if (t->num_ranges == TRACK_RANGES) {
        t->unknown = true;
        t->why = "too many ranges";
        return;
    }
    t->async[t->num_ranges] = async;
    t->read[t->num_ranges] = read;
    t->lo[t->num_ranges] = lo;
    t->hi[t->num_ranges++] = hi;
}

static void access_range_as(Barriers *B, int64_t lo, int64_t hi, bool async) {
    access_range_kind(B, lo, hi, async, false);
}

static void access_range(Barriers *B, int64_t lo, int64_t hi) { access_range_as(B, lo, hi, false); }

/* Whether no access but async copies and in-place reads may have touched
   [lo, hi) since the last barrier. */
static bool free_of_plain_accesses(const Track *t, int64_t lo, int64_t hi) {
    if (t->unknown)
        return false;
    for (int i = 0; i < t->num_ranges; i++)
        if (!t->async[i] && lo < t->hi[i] && t->lo[i] < hi)
            return false;
    return true;
}

/* Whether nothing but async copies and reads may have written [lo, hi)
   since the last barrier: what a read needs (reads after reads need no
   barrier between them). */
static bool free_of_plain_writes(const Track *t, int64_t lo, int64_t hi) {
    if (t->unknown)
        return false;
    for (int i = 0; i < t->num_ranges; i++)
        if (!t->async[i] && !t->read[i] && lo < t->hi[i] && t->lo[i] < hi)
            return false;
    return true;
}

/* async_copy into a ring slot: a barrier first only when some other
   access since the last one may be to its bytes. */
static void async_copy(Barriers *B, OpPlan *p) {
    const IrOp *alloc = layout_alloc_of(p->op->operands[0]);
    if (!alloc) {
        place(B, p, NULL, BARRIER_BEFORE_WRITE, "before an async copy into shared memory");
        access_any(B, "after an async copy");
        return;
    }
    const OpPlan *ring = layout_op_plan(B->plan, alloc);
    int64_t lo = ring->scratch_offset, hi = lo + ring->scratch_bytes;
    if (!free_of_plain_accesses(&B->t, lo, hi))
        place(B, p, NULL, BARRIER_BEFORE_WRITE, B->t.unknown ? B->t.why : "an access of the ring since the last barrier");
    access_range_as(B, lo, hi, true);
}

/* Barrier, write, barrier, read, with undescribed accesses. */
static void phase_any(Barriers *B, OpPlan *op, ConvertRecord *convert, const char *what) {
    place(B, op, convert, BARRIER_BEFORE_WRITE, "before the write: earlier phases' accesses");
    access_any(B, what);
    place(B, op, convert, BARRIER_BEFORE_READ, "between the write and other threads' reads");
    access_any(B, what);
}

/* A conversion through shared memory: barrier, write, barrier, read, of
   its own bytes (shared_alloc), which is all it leaves accessed. */
static void conversion(Barriers *B, OpPlan *at, ConvertRecord *c) {
    if (c->method != CONVERT_SHARED && c->method != CONVERT_REBROADCAST)
        return;
    phase_any(B, at, c, "after a conversion through shared memory");
    if (c->smem_hi > c->smem_lo) {
        B->t.unknown = false;
        B->t.num_ranges = 0;
        access_range(B, c->smem_lo, c->smem_hi);
    }
}

/* The operand conversions an op does itself (hoisted ones were done before
   their loop). */
static void operand_conversions(Barriers *B, OpPlan *p) {
    for (int i = 0; p->operand_converts && i < p->op->num_operands; i++) {
        ConvertRecord *c = p->operand_converts[i];
        if (c && !c->loop)
            conversion(B, p, c);
    }
}

/* A scan across warps (llvm_reduce.c): the warps' totals written to the
   scratch, a barrier, every thread reads the totals of its rows. */
static void scan_totals(Barriers *B, OpPlan *p) {
    if (p->scan_warps <= 1)
        return;
    const IrType *t = &p->op->results[0]->type;
    int64_t bytes = ir_type_elements(t) / t->dims[p->op->axis].size * p->scan_reps * p->scan_warps *
                    dtype_bytes(t->dtype);
    int64_t offset = p->scratch_offset;
    if (!range_free(&B->t, offset, offset + bytes))
        place(B, p, NULL, BARRIER_BEFORE_WRITE, B->t.unknown ? B->t.why : "the scratch accessed since the last barrier");
    access_range(B, offset, offset + bytes);
    place(B, p, NULL, BARRIER_BEFORE_READ, "between the warp totals' writes and every thread's reads");
    access_range(B, offset, offset + bytes);
}

static void reduction(Barriers *B, OpPlan *p) {
    const IrOp *op = p->op;
    const IrValue *src = op->operands[0], *r = op->results[0];
    const LayoutMap *map = layout_map_new(B->plan->kernel, B->plan->values[src->id].layout, &src->type);
    LayoutTerm warp_index;
    int warps = layout_reduce_warps(map, op->axis, &warp_index);
    if (warps <= 1)
        return;
    int64_t slot = (int64_t)warps * ir_type_elements(&r->type) *
                   (r->type.dtype == DT_BOOL ? 1 : dtype_bytes(r->type.dtype));
    int64_t offset = p->scratch_offset;
    p->reduce_slot = 0;
    p->reduce_slot_bytes = slot;
    if (range_free(&B->t, offset, offset + slot)) {
        /* slot 0 */
    } else if (p->scratch_bytes >= 2 * slot && range_free(&B->t, offset + slot, offset + 2 * slot)) {
        p->reduce_slot = 1;
        offset += slot;
    } else {
        place(B, p, NULL, BARRIER_BEFORE_WRITE, B->t.unknown ? B->t.why : "both slots accessed since the last barrier");
        /* (t.why: any byte may be in use, for that reason) */
    }
    access_range(B, offset, offset + slot);
    place(B, p, NULL, BARRIER_BEFORE_READ, "between the partials' writes and every thread's reads");
    access_range(B, offset, offset + slot);
}

/* A tensor-core dot's operands read in place (ldmatrix from an alloc):
   a barrier first when an access other than a ring's async copies may
   have written their alloc since the last one (a stationary operand's
   store before its loop); the reads then count as accesses of it. */
static void in_place_reads(Barriers *B, OpPlan *p, bool may_place) {
    for (int k = 0; k < 2; k++) {
        const IrValue *ref = layout_in_place_ref(p, k);
        if (!ref)
            continue;
        const OpPlan *alloc = layout_op_plan(B->plan, layout_alloc_of(ref));
        int64_t lo = alloc->scratch_offset, hi = lo + alloc->scratch_bytes;
        if (!free_of_plain_writes(&B->t, lo, hi) && may_place)
            place(B, p, NULL, BARRIER_BEFORE_WRITE,
                  B->t.unknown ? B->t.why : "between a write of the alloc and the dot's in-place reads");
        /* With TMA no barrier follows the wait, so these reads are what the
           ring's next copy must wait for (a plain access, but a read: the
           next dot's reads of the same bytes need no barrier). */
        access_range_kind(B, lo, hi, !B->plan->tma, B->plan->tma);
    }
    /* An async wgmma waits for its previous group and then barriers itself
       (llvm_dot.c), before the copies deferred past it. */
    if (B->plan->tma && p->wgmma_async) {
        B->t.unknown = false;
        B->t.num_ranges = 0;
        B->t.events++;
    }
}

/* A carrying dot's reads of its rings' next slot (layout.c plan_carry):
   after the barrier of the wait it lowers, and in front of its loop after
   the first wait's. In-place reads, like the dot's own. */
static void carry_reads(Barriers *B, OpPlan *dot) { in_place_reads(B, dot, false); }

static void walk_block(Barriers *B, IrBlock *block);

/* After a region: as before it when it had no phase, else unknown. */
static void after_region(Barriers *B, const Track *before, bool touched) {
    int events = B->t.events;
    B->t = *before;
    B->t.events = events;
    if (touched) {
        B->t.unknown = true;
        B->t.why = "after a loop with shared-memory phases";
        B->t.events++;
    }
}

/* The state where two paths meet: every range of either; unknown if
   either is. */
static void merge_tracks(Track *t, const Track *other) {
    if (other->unknown) {
        if (!t->unknown)
            t->why = other->why;
        t->unknown = true;
    }
    if (t->unknown)
        return;
    for (int i = 0; i < other->num_ranges; i++) {
        bool seen = false;
        for (int j = 0; j < t->num_ranges && !seen; j++)
            seen = t->lo[j] == other->lo[i] && t->hi[j] == other->hi[i] && t->async[j] == other->async[i] &&
                   t->read[j] == other->read[i];
        if (seen)
            continue;
        if (t->num_ranges == TRACK_RANGES) {
            t->unknown = true;
            t->why = "too many ranges";
            return;
        }
        t->async[t->num_ranges] = other->async[i];
        t->read[t->num_ranges] = other->read[i];
        t->lo[t->num_ranges] = other->lo[i];
        t->hi[t->num_ranges++] = other->hi[i];
    }
}

static int range_strength(const Track *t, int i) { return kind_strength(t->async[i], t->read[i]); }

/* Whether every access `small` records is one `big` records too (a range
   is covered only by one at least as strong). */
static bool track_covers(const Track *big, const Track *small) {
    if (big->unknown)
        return true;
    if (small->unknown)
        return false;
    for (int i = 0; i < small->num_ranges; i++) {
        bool covered = false;
        for (int j = 0; j < big->num_ranges && !covered; j++)
            covered = big->lo[j] <= small->lo[i] && small->hi[i] <= big->hi[j] &&
                      range_strength(big, j) >= range_strength(small, i);
        if (!covered)
            return false;
    }
    return true;
}

/* The body, walked from `start` without placing anything: its end state. */
static Track dry_walk(Barriers *B, IrBlock *body, const Track *start) {
    Track saved = B->t;
    B->t = *start;
    B->dry++;
    walk_block(B, body);
    B->dry--;
    Track end = B->t;
    B->t = saved;
    return end;
}

/* A body starts with what the loop's entry left merged with what its back
   edge brings. The guess for the back edge is the end of a walk from "any
   byte" (exact when the body barriers on every path, as a pipelined loop's
   wait does); it is taken only when a walk from the merged state, which
   makes the decisions the real walk will, ends inside it: then, since with
   the decisions fixed the end grows with the start, every iteration starts
   inside it (the first from the entry's state). Otherwise the body starts
   from "any byte". */
static void walk_for(Barriers *B, OpPlan *p) {
    operand_conversions(B, p);
    for (int k = 0; k < p->num_hoisted; k++)
        conversion(B, p, p->hoisted[k]);
    for (IrOp *op = p->op->body->first; op; op = op->next)
        if (op->opcode == IR_DOT && layout_op_plan(B->plan, op)->mma_carry_wait)
            carry_reads(B, layout_op_plan(B->plan, op));
    Track before = B->t;
    Track any = before;
    any.unknown = true;    /* the back edge: the previous iteration's phases */
    any.why = "the loop's back edge (the previous iteration's phases)";
    Track back = dry_walk(B, p->op->body, &any);
    /* Entered with any byte pending (after a loop whose ring runs on into
       this one, with no conversion of its own in front), a loop that would
       settle from a clean start gets one barrier in front of it rather than
       one in every trip (lowered by llvm_kernel.c lower_for). */
    if (before.unknown && !back.unknown) {
        Track clean = before;
        clean.unknown = false;
        clean.num_ranges = 0;
        merge_tracks(&clean, &back);
        Track end = dry_walk(B, p->op->body, &clean);
        if (!clean.unknown && track_covers(&clean, &end)) {
            place(B, p, NULL, BARRIER_BEFORE_WRITE, "before the loop: every earlier access, for a clean start");
            before = B->t;
        }
    }
    Track start = before;
    merge_tracks(&start, &back);
    if (!start.unknown) {
        Track end = dry_walk(B, p->op->body, &start);
        if (!track_covers(&start, &end))
            start.unknown = true;
    }
    if (start.unknown)
        start = any;
    start.events = before.events;
    B->t = start;
    walk_block(B, p->op->body);
    after_region(B, &before, B->t.events != before.events);
}

/* Barriers a walk of `block` from `start` would place. */
static int placements(Barriers *B, IrBlock *block, const Track *start) {
    int placed = B->placed;
    dry_walk(B, block, start);
    int n = B->placed - placed;
    B->placed = placed;
    return n;
}

/* Whether a plain write (not an async copy's, not a dot's in-place read)
   may be pending: a conversion's or reduction's scratch, a store. */
static bool plain_write_pending(const Track *t) {
    if (t->unknown)
        return true;
    for (int i = 0; i < t->num_ranges; i++)
        if (range_strength(t, i) == 2)
            return true;
    return false;
}

/* `if c { ... async_copy ... } else {}`: a pipeline's guard of a group. */
static bool copy_guard(const IrOp *op) {
    if (op->opcode != IR_IF || op->num_results > 0 || !op->body ||
        (op->else_body && op->else_body->first != op->else_body->last))
        return false;
    for (const IrOp *o = op->body->first; o; o = o->next)
        if (o->opcode == IR_ASYNC_COPY)
            return true;
    return false;
}

/* The next op after `op` that may touch shared memory or hold a region:
   what follows a prologue's guard, past its commit and the next guard's
   scalars and views. */
static const IrOp *next_shared_op(const IrOp *op) {
    for (op = op->next; op; op = op->next) {
        const IrType *t = op->num_results == 1 ? &op->results[0]->type : NULL;
        bool scalar_or_view = t && !op->body && (t->kind == IRT_REF ? op->opcode == IR_VIEW : t->rank == 0);
        if (!scalar_or_view && op->opcode != IR_ASYNC_COMMIT)
            return op;
    }
    return NULL;
}

/* The first of two or more guards around async copies in a row (the
   pipeline's prologue: `if j < n { copy; copy } else {}`, one a group)
   whose copies need a barrier only because of a plain write pending from
   before it (a persistent tile loop's epilogue scratch, sharing a ring's
   bytes): the barrier goes in front of the `if`, so that both paths leave
   nothing but the copies pending and the next guards' copies need none.
   Inside the `if`, the untaken path would bring the write back after each
   guard: a barrier a guard. A decision from the op and the state alone,
   the same in dry walks as in the real one (walk_for). */
static bool barrier_before_guard(Barriers *B, const OpPlan *p) {
    const IrOp *op = p->op, *next = next_shared_op(op);
    Track clean = {0};
    return copy_guard(op) && next && copy_guard(next) && plain_write_pending(&B->t) &&
           placements(B, op->body, &B->t) > 0 && placements(B, op->body, &clean) == 0;
}

static void walk_if(Barriers *B, OpPlan *p) {
    if (barrier_before_guard(B, p))
        place(B, p, NULL, BARRIER_BEFORE_WRITE, "before a guard of async copies: a write pending from before it");
    Track before = B->t;
    bool touched = false;
    Track after[2];
    IrBlock *blocks[2] = {p->op->body, p->op->else_body};
    for (int k = 0; k < 2; k++) {
        B->t = before;
        if (blocks[k])
            walk_block(B, blocks[k]);
        touched |= B->t.events != before.events;
        after[k] = B->t;
    }
    /* Both paths' accesses described (a pipeline's guarded copies): the
       ranges of either, so that the next copies need no barrier (either
       path may have placed a barrier and dropped the ranges from before
       it). */
    if (touched && !after[0].unknown && !after[1].unknown) {
        int events = after[0].events > after[1].events ? after[0].events : after[1].events;
        B->t = after[0];
        merge_tracks(&B->t, &after[1]);
        B->t.events = events + 1;
        return;
    }
    B->t = before;
    B->t.events = before.events + (touched ? 1 : 0);
    if (touched) {
        B->t.unknown = true;
        B->t.why = "after an if with shared-memory phases";
    }
}

/* A TMA store (tma.c): its tile written into its scratch, a barrier,
   then one thread's bulk stores read the scratch and that thread waits
   until they have (cp.async.bulk.wait_group.read, llvm_tma.c) before it
   goes on: the reads count as a plain read of the scratch, so the next
   write of its bytes barriers first. A deferred one's thread waits only
   before the next tile's writes, behind the barrier placed there. */
static void tma_store(Barriers *B, OpPlan *p) {
    int64_t lo = p->scratch_offset, hi = lo + p->scratch_bytes;
    /* Deferred (a persistent tile loop's; its bytes its own, shared_alloc):
       thread 0 waits for the last tile's boxes here, and this barrier
       carries its wait to every thread, so it is always placed. */
    if (p->tma_store_deferred)
        place(B, p, NULL, BARRIER_BEFORE_WRITE, "thread 0's wait for the last tile's bulk stores' reads");
    else if (!range_free(&B->t, lo, hi))
        place(B, p, NULL, BARRIER_BEFORE_WRITE, B->t.unknown ? B->t.why : "the scratch accessed since the last barrier");
    access_range(B, lo, hi);
    place(B, p, NULL, BARRIER_BEFORE_READ, "between the scratch's writes and the bulk stores' reads");
    access_range_kind(B, lo, hi, false, true);
}

static bool shared_ref(const IrValue *v) { return v->type.kind == IRT_REF && v->type.space == SPACE_SHARED; }

/* A whole, unmasked store into an alloc in wgmma's swizzled layout (a
   stationary operand at --stationary=shared, layout.c): written once in
   front of the loops whose wgmma dots read it by descriptor. A barrier
   right after it (and fence.proxy.async, llvm_memory.c) publishes it, so
   that the loops start with nothing pending instead of "any byte", which
   would put a barrier in every trip. */
static bool stationary_store(const KernelPlan *plan, const IrOp *op) {
    const IrOp *alloc = layout_alloc_of(op->operands[0]);
    return op->opcode == IR_STORE && op->num_operands == 2 && alloc && op->operands[0] == alloc->results[0] &&
           layout_op_plan(plan, alloc)->alloc_swizzle.rows;
}

static void walk_op(Barriers *B, IrOp *op) {
    KernelPlan *plan = B->plan;
    OpPlan *p = layout_op_plan(plan, op);
    if (p->elided)
        return;
    switch (op->opcode) {
    case IR_FOR: walk_for(B, p); return;
    case IR_IF: walk_if(B, p); return;
    default: break;
    }
    operand_conversions(B, p);
    switch (op->opcode) {
    case IR_BROADCAST:
    case IR_RESHAPE:
    case IR_TRANSPOSE:
    case IR_PERMUTE:
    case IR_FLIP:
    case IR_EXTRACT:
        if (p->via_shared && !p->remat && !convert_is_scalar(plan, op->operands[0]))
            phase_any(B, p, NULL, "after a shape op through shared memory");
        return;
    case IR_REDUCE: reduction(B, p); return;
    case IR_SCAN: scan_totals(B, p); return;
    case IR_DOT: {
        /* A staging dot's barriers come before all of its reads. */
        bool stages = layout_dot_stages(plan, p);
        if (stages)
            phase_any(B, p, NULL, "after a dot's staging");
        in_place_reads(B, p, !stages);
        return;
    }
    case IR_ASYNC_COPY: async_copy(B, p); return;
    case IR_ASYNC_WAIT:
        if (plan->tma)
            return;   /* each thread waits on the group's mbarrier itself: nothing to publish */
        place(B, p, NULL, BARRIER_BEFORE_READ,
              "after the wait: the landed copies to every thread, and the stage read before to the next copies");
        if (p->carry_dot)
            carry_reads(B, p->carry_dot);
        return;
    case IR_STORE:
        if (p->tma_store) {
            tma_store(B, p);
            return;
        }
        /* fall through */
    case IR_LOAD:
    case IR_ATOMIC:
    case IR_GATHER:
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC:   /* indexed: any element, any thread's */
        if (shared_ref(op->operands[0])) {
            /* A stationary operand's store needs no barrier in front when
               nothing has touched its alloc since the last one (prefetch.c
               rotates a tile loop's to the end of the trip, after the
               epilogue's conversion and its barriers). */
            bool stationary = stationary_store(plan, op);
            const OpPlan *alloc = stationary ? layout_op_plan(plan, layout_alloc_of(op->operands[0])) : NULL;
            if (!alloc || !range_free(&B->t, alloc->scratch_offset, alloc->scratch_offset + alloc->scratch_bytes))
                place(B, p, NULL, BARRIER_BEFORE_WRITE, "before an access of an alloc: earlier phases' accesses");
            access_any(B, "after an access of an alloc");
            if (stationary)
                place(B, p, NULL, BARRIER_BEFORE_READ,
                      "after a stationary operand's store: its bytes to every thread, before wgmma reads them");
        }
        return;
    default: return;
    }
}

static void walk_block(Barriers *B, IrBlock *block) {
    for (IrOp *op = block->first; op; op = op->next)
        walk_op(B, op);
}

void barrier_plan(KernelPlan *plan) {
    Barriers B = {.plan = plan};
    for (int i = 0; i < plan->num_ops; i++) {
        plan->ops[i].barriers = 0;
        plan->ops[i].reduce_slot = 0;
    }
    for (int i = 0; i < plan->num_converts; i++)
        plan->converts[i]->barriers = 0;
    walk_block(&B, plan->kernel->body);
    plan->barrier_list = ARENA_ARRAY(&plan->kernel->arena, BarrierRecord, B.list.len + 1);
    for (int i = 0; i < B.list.len; i++)
        plan->barrier_list[i] = *(BarrierRecord *)B.list.items[i];
    plan->num_barriers = B.list.len;
}
