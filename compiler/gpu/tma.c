/*
 * tma.c: the TMA plan (sm_90a; docs/codegen.md "TMA").
 *
 * In: a KernelPlan after layout_assign, for a target with TMA and wgmma.
 * Out: plan->tma when every async copy of the kernel can be a bulk tensor
 * copy (cp.async.bulk.tensor, PTX ISA 9.7.9.25.5), with the tensor maps
 * they read through (plan->tma_maps) and each copy's map (OpPlan.tma_map);
 * the plan unchanged otherwise. One kernel parameter per map follows the
 * kernel's own; the runtime encodes the maps at launch (docs/manifest.md).
 *
 * A copy qualifies when it has no mask, writes one slot of an alloc that
 * wgmma reads (its SharedSwizzle: the TMA swizzle modes are the same
 * Swizzle<B,4,3> on byte addresses, PTX ISA 5.5.2.1.2 and 9.7.15.5.1.2.2),
 * and reads a tile of a 16-bit global array through views that touch each
 * array dim at most once (a range or an index): then the tile's origin is
 * one coordinate per array dim, and the views' bounds are the array's
 * bounds clipped to the tile, which is what TMA's zero fill of elements
 * out of the tensor gives. The innermost array dim must be the tile's
 * columns (the box's contiguous dim). Each box is one swizzle panel wide
 * and has the slot's rows. An A operand's alloc holds its rows permuted into
 * wgmma order (SharedSwizzle.permute_rows: row r7 + 8q + 32g + 8Wj +
 * 16W tile, r7 < 8, of warp q of warpgroup g, at panel row
 * 64 (g S + tile) + 16q + 8j + r7); its map has 5 dims, innermost first
 * (columns, r7, j, q, R) with strides (1, 1, 8W, 8, 32) rows, so that one
 * box (P, 8, 2, 4, 1) at R = row0 / 32 + g + (W / 2) tile lands as the 64
 * panel rows of slab g S + tile, in order; that needs the tile's first row
 * to be a multiple of the tile's rows 16 W S (checked here: a box is out of
 * bounds if any of its coordinates is, and mixes rows 32 R.. with 32 R +
 * 8 W..) and, at launch, M a multiple of them too, R's extent then
 * M / 32 - W / 4 (docs/manifest.md).
 *
 * Completion (llvm_tma.c): the g-th commit group that has copies arrives
 * on mbarrier g mod tma_barriers, which is at least twice the deepest ring
 * (a barrier is armed again only after every thread has waited for its
 * previous phase: the ring's barrier, or the async wgmma's, lies between
 * that wait and the slot's next copy); empty groups arm none.
 */
#include "codegen.h"

#include <string.h>

typedef struct SourceDims {
    int param;                         /* kernel->params index; -1: not an array param */
    int rank;
    const IrValue *coord[IR_MAX_RANK]; /* per array dim: the view offset, NULL for 0 */
    int tile_dim[IR_MAX_RANK];         /* per array dim: the tile dim along it, -1: indexed */
} SourceDims;

/* The array dims under the copy source `src` (a rank-2 view chain). */
static bool source_dims(const IrKernel *kernel, const IrValue *src, SourceDims *out) {
    const IrValue *coord[IR_MAX_RANK] = {0};
    int tile_dim[IR_MAX_RANK];
    bool touched[IR_MAX_RANK] = {0};
    int rank = src->type.rank;
    for (int d = 0; d < rank; d++)
        tile_dim[d] = d;
    const IrValue *cur = src;
    while (cur->def && cur->def->opcode == IR_VIEW) {
        const IrOp *op = cur->def;
        const IrValue *parent = op->operands[0];
        const IrValue *pcoord[IR_MAX_RANK] = {0};
        int ptile[IR_MAX_RANK];
        bool ptouched[IR_MAX_RANK] = {0};
        int kept = 0;
        for (int d = 0; d < parent->type.rank; d++) {
            const IrViewDim *vd = &op->view_dims[d];
            if (vd->kind == VIEW_INDEX) {
                ptile[d] = -1;
                pcoord[d] = op->operands[vd->offset_operand];
                ptouched[d] = true;
                continue;
            }
            if (kept >= rank)
                return false;
            ptile[d] = tile_dim[kept];
            pcoord[d] = coord[kept];
            ptouched[d] = touched[kept];
            if (vd->kind == VIEW_RANGE) {
                if (ptouched[d])
                    return false;   /* two offsets along one dim: bounds TMA does not have */
                pcoord[d] = op->operands[vd->offset_operand];
                ptouched[d] = true;
            }
            kept++;
        }
        if (kept != rank)
            return false;
        rank = parent->type.rank;
        memcpy(coord, pcoord, sizeof coord);
        memcpy(tile_dim, ptile, sizeof tile_dim);
        memcpy(touched, ptouched, sizeof touched);
        cur = parent;
    }
    out->param = -1;
    for (int i = 0; i < kernel->num_params; i++)
        if (kernel->params[i].kind == PARAM_ARRAY && kernel->params[i].value == cur)
            out->param = i;
    if (out->param < 0 || cur->type.space != SPACE_GLOBAL || kernel->params[out->param].strides)
        return false;   /* a declared stride need not meet TMA's 16-byte rule: no TMA copy of it */
    out->rank = rank;
    memcpy(out->coord, coord, sizeof coord);
    memcpy(out->tile_dim, tile_dim, sizeof tile_dim);
    return true;
}

void tma_source_dims(const KernelPlan *plan, const IrOp *op, const IrValue **coords, int *tile_dim) {
    SourceDims s;
    if (!source_dims(plan->kernel, op->operands[1], &s))
        INTERNAL_ERROR("kernel '%s': a TMA copy's source is not a view of an array", plan->kernel->name);
    for (int d = 0; d < s.rank; d++) {
        coords[d] = s.coord[d];
        tile_dim[d] = s.tile_dim[d];
    }
}

/* The alloc a copy writes one slot of (the alloc itself, or alloc[s, ...]
   down to its last two dims), or NULL. */
static const IrOp *slot_alloc(const IrValue *dst) {
    const IrOp *alloc = layout_alloc_of(dst);
    if (!alloc || dst->type.rank != 2)
        return NULL;
    if (dst == alloc->results[0])
        return alloc;
    const IrOp *view = dst->def;
    if (!view || view->opcode != IR_VIEW || view->operands[0] != alloc->results[0])
        return NULL;
    const IrType *t = &alloc->results[0]->type;
    for (int d = 0; d < t->rank; d++) {
        IrViewKind want = d < t->rank - 2 ? VIEW_INDEX : VIEW_FULL;
        if (view->view_dims[d].kind != want)
            return NULL;
    }
    return alloc;
}

static int64_t alloc_slots(const IrOp *alloc) {
    const IrType *t = &alloc->results[0]->type;
    int64_t slots = 1;
    for (int d = 0; d + 2 < t->rank; d++)
        slots *= t->dims[d].size;
    return slots;
}

/* Is the i32 scalar `v` a multiple of m by construction (constants, and
   products, sums and differences of such)? */
static bool multiple_of(const IrValue *v, int64_t m, int depth) {
    const IrOp *op = v->def;
    if (!op || depth > 16)
        return false;
    switch (op->opcode) {
    case IR_CONST: return !dtype_is_float(v->type.dtype) && op->int_value % m == 0;
    case IR_MUL: return multiple_of(op->operands[0], m, depth + 1) || multiple_of(op->operands[1], m, depth + 1);
    case IR_ADD:
    case IR_SUB: return multiple_of(op->operands[0], m, depth + 1) && multiple_of(op->operands[1], m, depth + 1);
    default: return false;
    }
}

/* The tensor map copy `p` reads through (added to `maps` when new), or -1. */
static int copy_map(KernelPlan *plan, const OpPlan *p, TmaMap *maps, int *num_maps) {
    const IrOp *op = p->op;
    if (op->num_operands != 2)
        return -1;   /* a masked copy */
    const IrOp *alloc = slot_alloc(op->operands[0]);
    if (!alloc)
        return -1;
    const SharedSwizzle *sw = &layout_op_plan(plan, alloc)->alloc_swizzle;
    const IrValue *src = op->operands[1];
    DType dtype = src->type.dtype;
    if (!sw->rows || (dtype != DT_F16 && dtype != DT_BF16) || src->type.rank != 2 ||
        src->type.dims[0].size != sw->rows || src->type.dims[1].size != sw->cols)
        return -1;
    SourceDims s;
    if (!source_dims(plan->kernel, src, &s) || s.rank > 5 || s.tile_dim[s.rank - 1] != 1)
        return -1;
    TmaMap map = {.param = s.param, .rank = s.rank, .swizzle_bytes = sw->panel * sw->elem_bytes, .dtype = dtype};
    if (sw->permute_rows) {
        /* rows in wgmma order: a 2-dim array whose tile starts at a multiple
           of its rows (16 W S): with M one too, a box (rows from 32 R on
           and from 32 R + 8 W on) is wholly in bounds or wholly out, so
           TMA's all-or-nothing bounds of a box are the rows' own */
        if (s.rank != 2 || s.tile_dim[0] != 0 || (s.coord[0] && !multiple_of(s.coord[0], sw->rows, 0)))
            return -1;
        map.row_warps = sw->warps;
        map.row_slabs = sw->slabs;
        map.box[0] = 64;
        map.box[1] = sw->panel;
    } else {
        if (sw->rows > 256)
            return -1;
        for (int d = 0; d < s.rank; d++)
            map.box[d] = s.tile_dim[d] < 0 ? 1 : s.tile_dim[d] == 1 ? sw->panel : sw->rows;
    }
    for (int i = 0; i < *num_maps; i++)
        if (memcmp(&maps[i], &map, sizeof map) == 0)
            return i;
    maps[*num_maps] = map;
    return (*num_maps)++;
}

bool tma_plan(KernelPlan *plan) {
    if (!plan->target->tma || !plan->target->mbarrier_tx || !plan->wgmma)
        return false;
    TmaMap *maps = ARENA_ARRAY(&plan->kernel->arena, TmaMap, plan->num_ops + 1);
    int num_maps = 0, copies = 0;
    int64_t deepest = 1;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        if (p->op->opcode == IR_ASYNC_WAIT && p->op->int_value > 31)
            return false;   /* llvm_tma.c keeps 32 groups' history */
        if (p->op->opcode != IR_ASYNC_COPY)
            continue;
        int map = copy_map(plan, p, maps, &num_maps);
        if (map < 0)
            return false;
        int64_t slots = alloc_slots(slot_alloc(p->op->operands[0]));
        if (slots > deepest)
            deepest = slots;
        copies++;
    }
    if (copies == 0)
        return false;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        if (p->op->opcode == IR_ASYNC_COPY)
            p->tma_map = 1 + copy_map(plan, p, maps, &num_maps);
    }
    int barriers = 1;
    while (barriers < 2 * deepest)
        barriers *= 2;
    plan->tma = true;
    plan->tma_maps = maps;
    plan->num_tma_maps = num_maps;
    plan->tma_barriers = barriers;
    return true;
}

/* ---- Warpgroup schedules (--hopper-schedule) ------------------------------------------------ */

/* Whether loop `loop`'s ring barriers can be releases: every barrier
   barrier.c placed in its body is a ring's before an async copy (no
   conversion, reduction or staging through shared memory: nothing else
   that warps share) or an async wgmma's own (after its wait for the
   previous group, before the copies deferred past it), no nested loop, and
   every copy at most 32 boxes. Then the warps meet only over the ring's
   slots.

   Why a counter per group number g (mod B, the mbarriers' count) is never
   shared by two releases at once: a warp counts itself in on g + B only
   after waiting for a group armed after g's release completed (the
   pipeline's wait in each trip leaves at most the ring's depth - 1 groups
   in flight, and B is at least twice the depth), so every warp has counted
   itself in on g by then; the same argument as an mbarrier's reuse. */
/* The boxes of copy `p` (llvm_tma.c issues box b from the thread of rank b). */
static int64_t copy_boxes(const KernelPlan *plan, const OpPlan *p) {
    const TmaMap *map = &plan->tma_maps[p->tma_map - 1];
    const SharedSwizzle *sw = &layout_op_plan(plan, layout_alloc_of(p->op->operands[0]))->alloc_swizzle;
    int64_t box_rows = map->row_warps ? 64 : sw->rows;
    return sw->cols / sw->panel * (sw->rows / box_rows);
}

static bool loop_releases(const KernelPlan *plan, const OpPlan *loop) {
    int ring = 0, commits = 0;
    for (int i = 0; i < plan->num_barriers; i++) {
        const BarrierRecord *r = &plan->barrier_list[i];
        const OpPlan *site = r->op;   /* a hoisted conversion's: its loop, outside the body */
        if (site->index <= loop->index || site->index > loop->end_index)
            continue;
        if (r->convert || site->op->opcode != IR_ASYNC_COPY || r->step != BARRIER_BEFORE_WRITE)
            return false;
        ring++;
    }
    for (int i = loop->index + 1; i <= loop->end_index; i++) {
        const OpPlan *p = &plan->ops[i];
        if (p->op->opcode == IR_FOR || p->mma_carry_wait)
            return false;
        if (p->wgmma_async)   /* its own barrier (llvm_dot.c), before the copies deferred past it */
            ring++;
        commits += p->op->opcode == IR_ASYNC_COMMIT;
        if (p->op->opcode == IR_ASYNC_COPY && copy_boxes(plan, p) > 32)
            return false;   /* a release's boxes go out from one warp's lanes */
    }
    /* One release a trip, for the trip's one group: a counter then takes
       one round of arrivals a group (two releases of one group would count
       twice on it, and could elect a warp while another still reads). */
    return ring == 1 && commits == 1;
}

/* The loop's wgmma dots, directly in its body, when there are exactly two
   and no other tensor-core dot: attention's q @ k.T and p @ v. */
static bool pingpong_dots(KernelPlan *plan, const OpPlan *loop, OpPlan **dots) {
    int n = 0;
    for (int i = loop->index + 1; i <= loop->end_index; i++) {
        OpPlan *p = &plan->ops[i];
        if (p->op->opcode != IR_DOT || !p->mma)
            continue;
        if (!p->wgmma || p->op->parent != loop->op->body || n == 2)
            return false;
        dots[n++] = p;
    }
    return n == 2;
}

void tma_schedule(KernelPlan *plan, HopperSchedule schedule) {
    int warps = plan->threads / 32;
    /* Two warpgroups at least (one is in step by its wgmmas anyway), and a
       power of two of warps, so that a counter's arrivals wrap cleanly. */
    if (!plan->tma || schedule == SCHEDULE_LOCKSTEP || warps < 8 || (warps & (warps - 1)))
        return;
    /* one counter per mbarrier, after them (a release is numbered by the
       group its copies fill); where they do not fit, lockstep */
    int64_t offset = (plan->shared_bytes + 3) / 4 * 4, end = offset + 4 * (int64_t)plan->tma_barriers;
    if (end > plan->target->shared_bytes_max)
        return;
    bool any = false;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *loop = &plan->ops[i];
        if (loop->op->opcode != IR_FOR || !loop_releases(plan, loop))
            continue;
        for (int k = loop->index + 1; k <= loop->end_index; k++) {
            OpPlan *p = &plan->ops[k];
            if ((p->op->opcode == IR_ASYNC_COPY && (p->barriers & (1u << BARRIER_BEFORE_WRITE))) || p->wgmma_async)
                p->ring_release = any = true;
        }
        OpPlan *dots[2];
        if (schedule == SCHEDULE_PINGPONG && warps == 8 && pingpong_dots(plan, loop, dots)) {
            loop->pingpong |= 1u << PINGPONG_LOOP;
            dots[0]->pingpong |= 1u << PINGPONG_PASS_AFTER;
            dots[1]->pingpong |= 1u << PINGPONG_TAKE_BEFORE;
            /* The ring's copies stay where the body has them, in front of
               q @ k.T, inside the turn. Lowered after the pass instead (out
               of the turn, OpPlan.deferred_to) they made ptxas 13.0 put p's
               A fragments in q's registers: from the second trip on q @ k.T
               read p (docs/performance.md, run s27-1). */
        }
    }
    if (any) {
        plan->tma_release_offset = offset;
        plan->shared_bytes = end;
    }
}
