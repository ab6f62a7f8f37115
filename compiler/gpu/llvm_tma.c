/*
 * llvm_tma.c: a TMA plan's async copies, commits and waits in LLVM IR
 * (tma.c decided them; docs/codegen.md "TMA").
 *
 * The pipeline's ops keep their meaning (docs/ir.md: async_copy, commit,
 * wait N = every group but the N newest has landed); only their mechanism
 * changes:
 *   - async_copy: one cp.async.bulk.tensor per box (PTX ISA 9.7.9.25.5.1)
 *     into the slot, box b issued by thread b (mod the block's threads),
 *     completing on the current group's mbarrier; every thread counts the
 *     bytes; a barrier before the copies is preceded by
 *     fence.proxy.async.shared::cta (generic writes of the ring's bytes);
 *   - async_commit: a group with copies (every thread counts the bytes:
 *     the copies' guards are uniform, so all agree) is armed: thread 0 arrives on
 *     its mbarrier expecting the bytes (mbarrier.arrive.expect_tx,
 *     9.7.13.15.11), and the count of armed groups, g, goes up. A group
 *     whose copies were all skipped (a loop's tail) arms nothing, so that
 *     no run of empty groups can move a barrier's phase past a thread that
 *     has yet to wait on it; a history bit per group says which were;
 *   - async_wait N: every thread waits (mbarrier.try_wait.parity,
 *     9.7.13.15.16) for each armed group it has not waited for, up to the
 *     N newest committed groups less those of them that were empty
 *     (popcount of the history's low N bits; tma.c allows N <= 31), on
 *     barrier g mod B with parity (g / B) mod 2. The mbarrier's
 *     phase completion makes the bulk copies' bytes visible to the waiting
 *     thread: no barrier or proxy fence follows (barrier.c).
 * A bulk copy may complete before its expect_tx: the barrier's tx-count
 * goes below zero for a while, which the PTX ISA allows (9.7.13.15.1); the
 * phase cannot complete before thread 0's arrival, its only one.
 *
 * The counters are per-thread i32 allocas (promoted to registers): groups
 * armed, armed groups waited for, the open group's bytes and the history.
 * The mbarriers are initialized by thread 0 at the start of the body, with
 * an arrival count of 1, published by fence.mbarrier_init and a barrier.
 *
 * A release (OpPlan.ring_release, tma.c tma_schedule; docs/codegen.md
 * "Warpgroup schedules") replaces the ring's barrier before a loop's
 * copies: each warp, done with its accesses (bar.warp.sync), counts itself
 * in on the counter of the group about to be armed (lane 0: fence.acq_rel,
 * atom.add, fence.acq_rel: the release of its reads, the acquire of every
 * earlier warp's); the warp whose count completes a multiple of the
 * block's warps is the last, and only its lanes issue the group's boxes
 * (box b by lane b) and its lane 0 arms the group. Which threads issue is
 * a per-thread rank (tma.rank: the thread index outside releases; the lane
 * in the last warp after one, out of range in the others), put back at the
 * commit; a second bar.warp.sync after the count's shfl carries lane 0's
 * acquire to the lanes that issue. No warp waits for another here: a slot is refilled once the
 * slowest warp has left it.
 *
 * Under a producer warpgroup (KernelPlan.producer_threads, tma.c
 * producer_schedule; llvm_kernel.c split_producer lowers the body twice):
 *   - the producer's copy waits for the phase of its group's empty
 *     mbarrier (every consumer warp out of the slot), then its lanes issue
 *     the boxes (box b by lane b mod 32); its commit arms the full
 *     mbarrier from lane 0, as thread 0 does above; it has no waits;
 *   - a consumer's copy only counts its bytes (after fence.proxy.async and
 *     the consumers' barrier where tma.c keeps the ring's barrier); its
 *     commit of a group with bytes is each warp counting itself out of the
 *     slot: bar.warp.sync, then lane 0 arrives on the group's empty
 *     mbarrier (one arrival a consumer warp completes its phase); its waits
 *     are as above.
 * Both sides count armed groups alike (the same scalars decide every guard).
 */
#include "llvm_lower.h"

static LLVMValueRef load_i32(Lowering *L, LLVMValueRef slot) { return LLVMBuildLoad2(L->b, L->i32, slot, ""); }

static LLVMValueRef entry_counter(Lowering *L, const char *name) {
    LLVMValueRef slot = LLVMBuildAlloca(L->entry, L->i32, name);
    LLVMBuildStore(L->entry, llvm_kernel_i32(L, 0), slot);
    return slot;
}

/* mbarrier of group `group` (i32) among those at `offset`: group mod B. */
static LLVMValueRef barrier_at(Lowering *L, int64_t offset, LLVMValueRef group) {
    LLVMValueRef index = LLVMBuildAnd(L->b, group, llvm_kernel_i32(L, L->plan->tma_barriers - 1), "");
    LLVMValueRef byte = LLVMBuildAdd(L->b, llvm_kernel_i32(L, offset), LLVMBuildShl(L->b, index, llvm_kernel_i32(L, 3), ""), "");
    return llvm_kernel_smem(L, byte);
}

/* The full mbarrier of group `group`: its bytes have landed. */
static LLVMValueRef group_barrier(Lowering *L, LLVMValueRef group) {
    return barrier_at(L, L->plan->tma_barrier_offset, group);
}

/* Under a producer warpgroup, the empty mbarrier of group `group`: every
   consumer warp is done with the slot its copies fill. */
static LLVMValueRef empty_barrier(Lowering *L, LLVMValueRef group) {
    return barrier_at(L, L->plan->tma_empty_offset, group);
}

/* The parity of `group`'s round on its mbarrier: (group / B) mod 2. */
static LLVMValueRef phase_parity(Lowering *L, LLVMValueRef group) {
    int shift = 0;
    while ((1 << shift) < L->plan->tma_barriers)
        shift++;
    return LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, group, llvm_kernel_i32(L, shift), ""), llvm_kernel_i32(L, 1), "");
}

/* Spins until the phase of `group`'s round on mbarrier `bar` has completed
   (PTX ISA 9.7.13.15.16). */
static void wait_phase(Lowering *L, LLVMValueRef bar, LLVMValueRef group) {
    LLVMValueRef parity = phase_parity(L, group);
    LLVMBasicBlockRef spin = llvm_kernel_block(L, "tma.spin");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "tma.landed");
    LLVMBuildBr(L->b, spin);
    LLVMPositionBuilderAtEnd(L->b, spin);
    LLVMValueRef args[2] = {bar, parity};
    LLVMValueRef landed = llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta", NULL,
                                                0, args, 2);
    LLVMBuildCondBr(L->b, landed, done, spin);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* Code under `if (tid == 0)`: returns the block to continue in after. */
static LLVMBasicBlockRef begin_thread0(Lowering *L, const char *name) {
    LLVMBasicBlockRef then = llvm_kernel_block(L, name);
    LLVMBasicBlockRef done = llvm_kernel_block(L, "tma.done");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->tid, llvm_kernel_i32(L, 0), ""), then, done);
    LLVMPositionBuilderAtEnd(L->b, then);
    return done;
}

/* The end of a guarded block (begin_thread0, a box's issuing thread): on to `done`. */
static void end_guarded(Lowering *L, LLVMBasicBlockRef done) {
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* The release counter of group `group` (i32): word group mod B. */
static LLVMValueRef group_counter(Lowering *L, LLVMValueRef group) {
    LLVMValueRef index = LLVMBuildAnd(L->b, group, llvm_kernel_i32(L, L->plan->tma_barriers - 1), "");
    LLVMValueRef byte = LLVMBuildAdd(L->b, llvm_kernel_i32(L, L->plan->tma_release_offset),
                                     LLVMBuildShl(L->b, index, llvm_kernel_i32(L, 2), ""), "");
    return llvm_kernel_smem(L, byte);
}

/* This thread's rank among the threads that issue the open group: the
   thread index, after a release (below) the lane in its last warp, in
   the producer warpgroup's issuing warp the lane. */
static LLVMValueRef issue_rank(Lowering *L) {
    if (L->producer_mode)
        return L->lane;
    return L->tma_rank ? load_i32(L, L->tma_rank) : L->tid;
}

/* A consumer under a producer warpgroup (llvm_kernel.c split_producer). */
static bool consumer(const Lowering *L) { return L->plan->producer_threads && !L->producer_mode; }

void llvm_tma_begin(Lowering *L) {
    L->tma_armed = entry_counter(L, "tma.armed");
    L->tma_waited = entry_counter(L, "tma.waited");
    L->tma_bytes = entry_counter(L, "tma.bytes");
    L->tma_history = entry_counter(L, "tma.history");
    L->tma_rank = NULL;
    if (L->plan->tma_release_offset) {
        L->tma_rank = LLVMBuildAlloca(L->entry, L->i32, "tma.rank");
        LLVMBuildStore(L->b, L->tid, L->tma_rank);
    }
    LLVMBasicBlockRef done = begin_thread0(L, "tma.init");
    for (int i = 0; i < L->plan->tma_barriers; i++) {
        LLVMValueRef args[2] = {group_barrier(L, llvm_kernel_i32(L, i)), llvm_kernel_i32(L, 1)};
        llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.init.shared", NULL, 0, args, 2);
        if (L->plan->producer_threads) {   /* one arrival a consumer warp */
            LLVMValueRef empty[2] = {empty_barrier(L, llvm_kernel_i32(L, i)), llvm_kernel_i32(L, L->plan->threads / 32)};
            llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.init.shared", NULL, 0, empty, 2);
        }
        if (L->plan->tma_release_offset)
            LLVMBuildStore(L->b, llvm_kernel_i32(L, 0), group_counter(L, llvm_kernel_i32(L, i)));
    }
    llvm_kernel_intrinsic(L, "llvm.nvvm.fence.mbarrier_init.release.cluster", NULL, 0, NULL, 0);
    for (int i = 0; i < L->plan->num_tma_maps; i++) {   /* the descriptors on their way to the TMA unit */
        LLVMValueRef map = LLVMGetParam(L->fn, (unsigned)(L->kernel->num_params + i));
        LLVMTypeRef type = LLVMTypeOf(map);
        llvm_kernel_intrinsic(L, "llvm.nvvm.prefetch.tensormap", &type, 1, &map, 1);
    }
    end_guarded(L, done);
    llvm_kernel_block_barrier(L);
}

/* The ring's barrier as a release (above): this warp counts itself in on
   the open group's counter, and the issuing rank becomes the lane in the
   last warp to do so, out of range in every other. */
void llvm_tma_release(Lowering *L) {
    LLVMValueRef all = llvm_kernel_i32(L, -1);
    llvm_kernel_intrinsic(L, "llvm.nvvm.bar.warp.sync", NULL, 0, &all, 1);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef count = llvm_kernel_block(L, "tma.release");
    LLVMBasicBlockRef counted = llvm_kernel_block(L, "tma.counted");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, llvm_kernel_i32(L, 0), ""), count, counted);
    LLVMPositionBuilderAtEnd(L->b, count);
    unsigned block = LLVMGetSyncScopeID(L->ctx, "block", 5);
    LLVMBuildFenceSyncScope(L->b, LLVMAtomicOrderingAcquireRelease, block, "");
    LLVMValueRef old = LLVMBuildAtomicRMWSyncScope(L->b, LLVMAtomicRMWBinOpAdd, group_counter(L, load_i32(L, L->tma_armed)),
                                                   llvm_kernel_i32(L, 1), LLVMAtomicOrderingMonotonic, block);
    LLVMBuildFenceSyncScope(L->b, LLVMAtomicOrderingAcquireRelease, block, "");
    LLVMBuildBr(L->b, counted);
    LLVMPositionBuilderAtEnd(L->b, counted);
    LLVMValueRef phi = LLVMBuildPhi(L->b, L->i32, "");
    LLVMValueRef values[2] = {old, llvm_kernel_i32(L, 0)};
    LLVMBasicBlockRef blocks[2] = {count, from};
    LLVMAddIncoming(phi, values, blocks, 2);
    LLVMValueRef arrivals = llvm_kernel_lane0(L, phi);
    /* lane 0's acquire to every lane that issues (shfl orders no memory;
       bar.warp.sync does, among the warp's threads) */
    llvm_kernel_intrinsic(L, "llvm.nvvm.bar.warp.sync", NULL, 0, &all, 1);
    int warps = L->plan->threads / 32;   /* a power of two (tma.c) */
    LLVMValueRef mine = LLVMBuildAdd(L->b, arrivals, llvm_kernel_i32(L, 1), "");
    LLVMValueRef last = LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildAnd(L->b, mine, llvm_kernel_i32(L, warps - 1), ""),
                                      llvm_kernel_i32(L, 0), "last");
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, last, L->lane, llvm_kernel_i32(L, 1 << 30), ""), L->tma_rank);
}

/* The array coordinates (i32, one per dim of its map's `rank`) where the
   tile that `ref` views starts, and which tile dim runs along each array
   dim (tma_array_dims): a copy's source, a store's destination. */
static void tile_origin(Lowering *L, const IrValue *ref, int rank, LLVMValueRef *origin, int *tile_dim) {
    const IrValue *coords[IR_MAX_RANK];
    tma_array_dims(L->plan, ref, coords, tile_dim);
    for (int d = 0; d < rank; d++)
        origin[d] = coords[d] ? llvm_kernel_scalar(L, coords[d]) : llvm_kernel_i32(L, 0);
}

void llvm_tma_copy(Lowering *L, IrOp *op) {
    const OpPlan *p = layout_op_plan(L->plan, op);
    const TmaMap *map = &L->plan->tma_maps[p->tma_map - 1];
    const SharedSwizzle *sw = &layout_op_plan(L->plan, layout_alloc_of(op->operands[0]))->alloc_swizzle;
    LLVMValueRef slot_bytes = llvm_kernel_i32(L, sw->rows * sw->cols * 2);
    if (consumer(L)) {   /* the producer issues it: count its bytes for the commit */
        if (p->consumer_barrier && (p->barriers & (1u << BARRIER_BEFORE_WRITE))) {
            /* generic accesses of the ring's bytes before the arrival, and
               whatever else barrier.c ordered here (tma.c) */
            llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
            llvm_kernel_block_barrier(L);
        }
        LLVMBuildStore(L->b, LLVMBuildAdd(L->b, load_i32(L, L->tma_bytes), slot_bytes, ""), L->tma_bytes);
        return;
    }
    /* Bytes that threads wrote through the generic proxy (a conversion's or
       an epilogue's scratch sharing the ring's bytes) are made visible to
       the async proxy before the barrier that orders them before the bulk
       copies (PTX ISA 9.7.13.4.18, proxy fences). The producer instead
       waits until every consumer warp has counted itself out of the slot
       (at its commit of this group; a second copy of the group finds the
       phase complete). */
    if (L->producer_mode) {
        LLVMValueRef group = load_i32(L, L->tma_armed);
        wait_phase(L, empty_barrier(L, group), group);
    } else if (p->ring_release) {   /* no generic write in its loop (tma.c): no proxy fence */
        llvm_tma_release(L);
    } else {
        if (p->barriers & (1u << BARRIER_BEFORE_WRITE))
            llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
        llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
    }
    int tile_dim[IR_MAX_RANK];
    LLVMValueRef origin[IR_MAX_RANK];
    tile_origin(L, op->operands[1], map->rank, origin, tile_dim);
    int64_t pitch;
    LLVMValueRef slot = llvm_memory_shared_rows(L, op->operands[0], &pitch);
    LLVMValueRef bar = group_barrier(L, load_i32(L, L->tma_armed));
    LLVMValueRef tensor_map = LLVMGetParam(L->fn, (unsigned)(L->kernel->num_params + p->tma_map - 1));
    /* boxes of a panel: the slot's rows, or (wgmma order) one per 64-row slab */
    int64_t box_rows = map->row_warps ? 64 : sw->rows, panel_bytes = sw->rows * sw->panel * sw->elem_bytes;
    int64_t chunks = sw->rows / box_rows, boxes = sw->cols / sw->panel * chunks;
    int chunk_bits = 0;
    while (((int64_t)1 << chunk_bits) < chunks)
        chunk_bits++;

    /* Box b (its panel b / chunks, its rows (b % chunks) * box_rows) is
       issued by the thread of rank b mod threads: the boxes of a slot go
       out in one pass of the threads' instructions, not one after another
       (after a release, rank = lane: tma.c keeps such copies to 32 boxes). */
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.%dd", map->row_warps ? 5 : map->rank);
    LLVMTypeRef ptr_cluster = LLVMPointerTypeInContext(L->ctx, 7);
    int threads = L->producer_mode ? 32 : L->plan->threads;   /* the producer: one warp issues */
    LLVMValueRef rank = issue_rank(L);
    for (int64_t first = 0; first < boxes; first += threads) {
        LLVMValueRef box = LLVMBuildAdd(L->b, rank, llvm_kernel_i32(L, first), "");
        LLVMBasicBlockRef issue = llvm_kernel_block(L, "tma.copy");
        LLVMBasicBlockRef done = llvm_kernel_block(L, "tma.done");
        LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, box, llvm_kernel_i32(L, boxes), ""), issue, done);
        LLVMPositionBuilderAtEnd(L->b, issue);
        LLVMValueRef panel = LLVMBuildLShr(L->b, box, llvm_kernel_i32(L, chunk_bits), "");
        LLVMValueRef row = LLVMBuildMul(L->b, LLVMBuildAnd(L->b, box, llvm_kernel_i32(L, chunks - 1), ""),
                                        llvm_kernel_i32(L, box_rows), "");
        /* wgmma order: box `chunk` is slab g S + tile, panel rows 64 chunk.. */
        LLVMValueRef panel_row = map->row_warps ? LLVMBuildZExt(L->b, row, L->i64, "")
                                                : llvm_memory_wgmma_row(L, sw, LLVMBuildZExt(L->b, row, L->i64, ""));
        LLVMValueRef byte = LLVMBuildAdd(
            L->b, LLVMBuildMul(L->b, LLVMBuildZExt(L->b, panel, L->i64, ""), llvm_kernel_i64(L, panel_bytes), ""),
            LLVMBuildMul(L->b, panel_row, llvm_kernel_i64(L, sw->panel * sw->elem_bytes), ""), "");
        LLVMValueRef dst = LLVMBuildGEP2(L->b, L->i8, slot, &byte, 1, "");
        LLVMValueRef col = LLVMBuildMul(L->b, panel, llvm_kernel_i32(L, sw->panel), "");
        LLVMValueRef args[16];
        int n = 0;
        args[n++] = LLVMBuildAddrSpaceCast(L->b, dst, ptr_cluster, "");
        args[n++] = bar;
        args[n++] = tensor_map;
        if (map->row_warps) {   /* (columns, r7, j, q, R): R = row0 / 32 + g + (W / 2) tile */
            LLVMValueRef slab = LLVMBuildAnd(L->b, box, llvm_kernel_i32(L, chunks - 1), "");
            LLVMValueRef g = LLVMBuildUDiv(L->b, slab, llvm_kernel_i32(L, sw->slabs), "");
            LLVMValueRef tile = LLVMBuildURem(L->b, slab, llvm_kernel_i32(L, sw->slabs), "");
            LLVMValueRef r = LLVMBuildAShr(L->b, origin[0], llvm_kernel_i32(L, 5), "");
            r = LLVMBuildAdd(L->b, r, g, "");
            r = LLVMBuildAdd(L->b, r, LLVMBuildMul(L->b, tile, llvm_kernel_i32(L, sw->warps / 2), ""), "");
            args[n++] = LLVMBuildAdd(L->b, origin[1], col, "");
            for (int i = 0; i < 3; i++)
                args[n++] = llvm_kernel_i32(L, 0);
            args[n++] = r;
        } else {
            for (int d = map->rank - 1; d >= 0; d--)   /* innermost first */
                args[n++] = tile_dim[d] == 1   ? LLVMBuildAdd(L->b, origin[d], col, "")
                            : tile_dim[d] == 0 ? LLVMBuildAdd(L->b, origin[d], row, "")
                                               : origin[d];
        }
        args[n++] = LLVMConstInt(L->i16, 0, 0);   /* cta mask (unused) */
        args[n++] = llvm_kernel_i64(L, 0);        /* cache hint (unused) */
        args[n++] = LLVMConstInt(L->i1, 0, 0);
        args[n++] = LLVMConstInt(L->i1, 0, 0);
        args[n++] = llvm_kernel_i32(L, 0);        /* cta group: none */
        llvm_kernel_intrinsic(L, name, NULL, 0, args, n);
        end_guarded(L, done);
    }
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, load_i32(L, L->tma_bytes), slot_bytes, ""), L->tma_bytes);
}

/* A TMA store (tma.c, "TMA stores"), after llvm_memory.c wrote the tile
   into its scratch: the writes to the async proxy (fence.proxy.async,
   PTX ISA 9.7.13.4.18) and every storing thread's barrier, then thread 0
   stores the boxes (box b: panel b, b * panel columns on), commits them as
   one bulk group and waits until they have read the scratch
   (cp.async.bulk.wait_group.read 0, 9.7.9.25.5.4) before it goes on:
   barrier.c counts that read, so the scratch's bytes are written again
   only after a barrier that thread 0 reaches after its wait. A deferred
   store (a persistent tile loop's, its scratch its own) waits instead
   before the next tile's store writes the scratch (llvm_memory.c, in
   front of the barrier barrier.c always places there) and at the end of
   the kernel (llvm_tma_end), so the next tile's loop starts while the
   boxes are read. The global writes drain on their own; the grid's end
   makes them visible (CUTLASS's epilogues end with the same wait). */
/* This thread's bulk store groups have read their shared memory. */
static void wait_store_reads(Lowering *L) {
    LLVMValueRef none = llvm_kernel_i32(L, 0);
    llvm_kernel_intrinsic(L, "llvm.nvvm.cp.async.bulk.wait.group.read", NULL, 0, &none, 1);
}

/* The scratch's shared address (i32) as lane 0 has it (llvm_kernel_lane0),
   as the wgmma descriptors' are (llvm_dot.c wgmma_desc_address). Given the
   symbol's address itself, ptxas kept the shared window's base in a vector
   register for the whole kernel once a bulk store read shared memory inside
   a persistent tile loop, and the key loop's wgmma descriptors followed it
   off the uniform datapath (D 128 attention: 540 instructions a trip
   against 462; docs/performance.md "Session 43"). Every thread of the warp
   is here. */
static LLVMValueRef uniform_scratch(Lowering *L, int64_t offset) {
    return llvm_kernel_lane0(L, LLVMBuildPtrToInt(L->b, llvm_kernel_smem(L, llvm_kernel_i32(L, offset)), L->i32, ""));
}

void llvm_tma_store(Lowering *L, IrOp *op) {
    const OpPlan *p = layout_op_plan(L->plan, op);
    const TmaMap *map = &L->plan->tma_maps[p->tma_store - 1];
    const SharedSwizzle *sw = &p->tma_store_swizzle;
    llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
    if (!(p->barriers & (1u << BARRIER_BEFORE_READ)))   /* barrier.c tma_store always places it */
        INTERNAL_ERROR("kernel '%s': a TMA store without its barrier (its shfl.sync needs the whole warp)",
                       L->kernel->name);
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_READ);
    LLVMValueRef scratch = uniform_scratch(L, p->scratch_offset);
    int tile_dim[IR_MAX_RANK];
    LLVMValueRef origin[IR_MAX_RANK];
    tile_origin(L, op->operands[0], map->rank, origin, tile_dim);
    LLVMValueRef tensor_map = LLVMGetParam(L->fn, (unsigned)(L->kernel->num_params + p->tma_store - 1));
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.%dd", map->rank);
    LLVMBasicBlockRef done = begin_thread0(L, "tma.store");
    int64_t box_bytes = sw->rows * sw->panel * sw->elem_bytes;
    for (int64_t b = 0; b < sw->cols / sw->panel; b++) {
        LLVMValueRef args[16];
        int n = 0;
        LLVMValueRef box = LLVMBuildAdd(L->b, scratch, llvm_kernel_i32(L, (int)(b * box_bytes)), "");
        args[n++] = LLVMBuildIntToPtr(L->b, LLVMBuildZExt(L->b, box, L->i64, ""), L->ptr_shared, "");
        args[n++] = tensor_map;
        for (int d = map->rank - 1; d >= 0; d--)   /* innermost first */
            args[n++] = tile_dim[d] == 1 ? LLVMBuildAdd(L->b, origin[d], llvm_kernel_i32(L, (int)(b * sw->panel)), "")
                                         : origin[d];
        args[n++] = llvm_kernel_i64(L, 0);        /* cache hint (unused) */
        args[n++] = LLVMConstInt(L->i1, 0, 0);
        llvm_kernel_intrinsic(L, name, NULL, 0, args, n);
    }
    llvm_kernel_intrinsic(L, "llvm.nvvm.cp.async.bulk.commit.group", NULL, 0, NULL, 0);
    if (!p->tma_store_deferred)
        wait_store_reads(L);
    end_guarded(L, done);
}

void llvm_tma_store_wait(Lowering *L) {
    LLVMBasicBlockRef done = begin_thread0(L, "tma.store.wait");
    wait_store_reads(L);
    end_guarded(L, done);
}

void llvm_tma_end(Lowering *L) {
    for (int i = 0; i < L->plan->num_ops; i++)
        if (L->plan->ops[i].tma_store_deferred) {
            llvm_tma_store_wait(L);
            return;
        }
}

void llvm_tma_commit(Lowering *L) {
    LLVMValueRef bytes = load_i32(L, L->tma_bytes);
    LLVMValueRef filled = LLVMBuildICmp(L->b, LLVMIntNE, bytes, llvm_kernel_i32(L, 0), "");
    LLVMValueRef history = LLVMBuildShl(L->b, load_i32(L, L->tma_history), llvm_kernel_i32(L, 1), "");
    LLVMBuildStore(L->b, LLVMBuildOr(L->b, history, LLVMBuildZExt(L->b, filled, L->i32, ""), ""), L->tma_history);
    LLVMBuildStore(L->b, llvm_kernel_i32(L, 0), L->tma_bytes);
    LLVMBasicBlockRef arm = llvm_kernel_block(L, "tma.arm");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "tma.armed");
    LLVMBuildCondBr(L->b, filled, arm, done);
    LLVMPositionBuilderAtEnd(L->b, arm);
    LLVMValueRef armed = load_i32(L, L->tma_armed);
    LLVMBasicBlockRef arrive = llvm_kernel_block(L, "tma.arrive");
    LLVMBasicBlockRef after = llvm_kernel_block(L, "tma.done");
    if (consumer(L)) {
        /* This warp is done with the slot the group fills (its reads, and
           its wgmma groups that read it, come before this in program
           order): lane 0 counts the warp out on the group's empty
           mbarrier, a release of the warp's accesses (bar.warp.sync
           orders them before lane 0's). */
        LLVMValueRef all = llvm_kernel_i32(L, -1);
        llvm_kernel_intrinsic(L, "llvm.nvvm.bar.warp.sync", NULL, 0, &all, 1);
        LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->lane, llvm_kernel_i32(L, 0), ""), arrive, after);
        LLVMPositionBuilderAtEnd(L->b, arrive);
        LLVMValueRef args[2] = {empty_barrier(L, armed), llvm_kernel_i32(L, 1)};
        llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.arrive.scope.cta.space.cta", NULL, 0, args, 2);
    } else {
        LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, issue_rank(L), llvm_kernel_i32(L, 0), ""), arrive, after);
        LLVMPositionBuilderAtEnd(L->b, arrive);
        LLVMValueRef args[2] = {group_barrier(L, armed), bytes};
        llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", NULL, 0, args, 2);
    }
    end_guarded(L, after);
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, armed, llvm_kernel_i32(L, 1), ""), L->tma_armed);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    if (L->tma_rank)   /* the next group's copies: by thread index unless a release says otherwise */
        LLVMBuildStore(L->b, L->tid, L->tma_rank);
}

void llvm_tma_wait(Lowering *L, const IrOp *op) {
    /* the armed groups up to the N-th newest committed one: the N newest
       less those of them that were empty (their bits in the history) */
    LLVMValueRef target = load_i32(L, L->tma_armed);
    if (op->int_value > 0) {
        LLVMValueRef recent = LLVMBuildAnd(L->b, load_i32(L, L->tma_history),
                                           llvm_kernel_i32(L, ((int64_t)1 << op->int_value) - 1), "");
        LLVMTypeRef i32 = L->i32;
        target = LLVMBuildSub(L->b, target, llvm_kernel_intrinsic(L, "llvm.ctpop", &i32, 1, &recent, 1), "");
    }
    LLVMBasicBlockRef check = llvm_kernel_block(L, "tma.wait");
    LLVMBasicBlockRef spin = llvm_kernel_block(L, "tma.spin");
    LLVMBasicBlockRef next = llvm_kernel_block(L, "tma.next");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "tma.waited");
    LLVMBuildBr(L->b, check);
    LLVMPositionBuilderAtEnd(L->b, check);
    LLVMValueRef group = load_i32(L, L->tma_waited);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, group, target, ""), spin, done);
    LLVMPositionBuilderAtEnd(L->b, spin);
    LLVMValueRef parity = phase_parity(L, group);
    LLVMValueRef args[2] = {group_barrier(L, group), parity};
    LLVMValueRef landed = llvm_kernel_intrinsic(L, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta", NULL,
                                                0, args, 2);
    LLVMBuildCondBr(L->b, landed, next, spin);
    LLVMPositionBuilderAtEnd(L->b, next);
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, group, llvm_kernel_i32(L, 1), ""), L->tma_waited);
    LLVMBuildBr(L->b, check);
    LLVMPositionBuilderAtEnd(L->b, done);
}
