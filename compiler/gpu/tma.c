/*
 * tma.c: the TMA plan (sm_90a; docs/codegen.md "TMA").
 *
 * In: a KernelPlan after layout_assign, for a target with TMA and wgmma.
 * Out: plan->tma when every async copy of the kernel can be a bulk tensor
 * copy (cp.async.bulk.tensor, PTX ISA 9.7.9.25.5), with the tensor maps
 * they read through (plan->tma_maps) and each copy's map (OpPlan.tma_map),
 * and where asked the epilogue stores that go out through TMA too
 * (OpPlan.tma_store, store_map below: "TMA stores"); the plan unchanged
 * otherwise. One kernel parameter per map follows the
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

void tma_array_dims(const KernelPlan *plan, const IrValue *ref, const IrValue **coords, int *tile_dim) {
    SourceDims s;
    if (!source_dims(plan->kernel, ref, &s))
        INTERNAL_ERROR("kernel '%s': a TMA copy's or store's tile is not a view of an array", plan->kernel->name);
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

/* The bytes of a TMA store's scratch: its tile's. */
static int64_t store_scratch_bytes(const SharedSwizzle *sw) { return sw->rows * sw->cols * sw->elem_bytes; }

/* Adds `map` to `maps` when new; its index. */
static int add_map(TmaMap *maps, int *num_maps, const TmaMap *map) {
    for (int i = 0; i < *num_maps; i++) {
        const TmaMap *m = &maps[i];
        bool same = m->param == map->param && m->rank == map->rank && m->swizzle_bytes == map->swizzle_bytes &&
                    m->dtype == map->dtype && m->row_warps == map->row_warps && m->row_slabs == map->row_slabs &&
                    m->store == map->store;
        for (int d = 0; same && d < m->rank; d++)
            same = m->box[d] == map->box[d];
        if (same)
            return i;
    }
    maps[*num_maps] = *map;
    return (*num_maps)++;
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
    return add_map(maps, num_maps, &map);
}

/* Whether an op other than `store` reads or writes `array`: a bulk store's
   global writes are ordered against nothing but the grid's end (its
   thread waits only for its reads of shared memory), so a later load of
   the array (an `inout` one), a later store over it, or the next tile's
   access in a persistent loop could meet them half done. */
static bool param_accessed_elsewhere(const KernelPlan *plan, const IrOp *store, const IrValue *array) {
    for (int i = 0; i < plan->num_ops; i++) {
        const IrOp *op = plan->ops[i].op;
        if (op == store || op->opcode == IR_VIEW)
            continue;
        for (int k = 0; k < op->num_operands; k++)
            if (op->operands[k]->type.kind == IRT_REF && ir_view_root(op->operands[k]) == array)
                return true;
    }
    return false;
}

/* TMA stores (docs/codegen.md "TMA stores"). A store that layout.c sends
   through shared memory (store_through_shared: an epilogue's, at the
   kernel's or a persistent tile loop's top level, unmasked, the tile
   converted to the default layout first) goes out as bulk tensor stores
   instead (cp.async.bulk.tensor s2g, PTX ISA 9.7.9.25.5.2): the tile is
   written in its own layout into scratch laid out as the map's boxes
   (panels of 128 bytes, or the tile's row when shorter, swizzled as a
   wgmma operand's alloc is), and one thread stores the boxes. It
   qualifies when the tile is a 16-bit rank-2 one of 8 to 256 rows whose
   rows are whole panels, written into an array parameter that no other op
   of the kernel accesses, through views
   that touch each array dim at most once, the innermost array dim the
   tile's columns (as a copy's source): then a box's origin is one
   coordinate per array dim and TMA writes only the elements inside the
   array, which is what the views' bounds ask (they are the array's,
   clipped to the tile). Its map (`store`) is the tile's boxes; -1 when it
   does not qualify. */
static int store_map(KernelPlan *plan, OpPlan *p, TmaStoreMode mode, TmaMap *maps, int *num_maps) {
    const IrOp *op = p->op;
    bool in_tile_loop = op->parent == layout_tile_loop_body(plan->kernel);
    if (op->opcode != IR_STORE || mode == TMA_STORE_OFF || (in_tile_loop && mode != TMA_STORE_ON))
        return -1;
    const IrValue *ref = op->operands[0], *v = op->operands[1];
    if (op->has_mask || !p->operand_layouts || !p->operand_layouts[1] || ref->type.space != SPACE_GLOBAL ||
        v->type.rank != 2 || (v->type.dtype != DT_F16 && v->type.dtype != DT_BF16))
        return -1;
    /* layout.c asked for the default layout through shared memory */
    if (layout_equal(plan->values[v->id].layout, p->operand_layouts[1]))
        return -1;
    int64_t rows = v->type.dims[0].size, cols = v->type.dims[1].size;
    int panel = cols >= 64 ? 64 : (int)cols;
    /* The swizzle's address arithmetic (llvm_memory.c) takes powers of two,
       and the hardware's pattern repeats every 8 rows of a panel from a
       1024-byte boundary: boxes of fewer rows would start inside a pattern
       (box 1 of a 4-row tile at +512) that the writes count from 0. */
    if (rows > 256 || rows < 8 || (rows & (rows - 1)) || (cols & (cols - 1)) ||
        (panel != 16 && panel != 32 && panel != 64))
        return -1;
    SourceDims s;
    if (!source_dims(plan->kernel, ref, &s) || s.rank > 5 || s.tile_dim[s.rank - 1] != 1 ||
        param_accessed_elsewhere(plan, op, plan->kernel->params[s.param].value))
        return -1;
    TmaMap map = {.param = s.param, .rank = s.rank, .swizzle_bytes = panel * 2, .dtype = v->type.dtype, .store = true};
    for (int d = 0; d < s.rank; d++)
        map.box[d] = s.tile_dim[d] < 0 ? 1 : s.tile_dim[d] == 1 ? panel : rows;
    p->tma_store_swizzle = (SharedSwizzle){.rows = rows, .cols = cols, .panel = panel, .elem_bytes = 2};
    p->tma_store_deferred = in_tile_loop;
    return add_map(maps, num_maps, &map);
}

bool tma_plan(KernelPlan *plan, TmaStoreMode stores) {
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
    for (int i = 0; stores != TMA_STORE_OFF && i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        int map = store_map(plan, p, stores, maps, &num_maps);
        if (map < 0)
            continue;
        /* the tile goes into the scratch as it is: no conversion */
        p->operand_layouts[1] = NULL;
        p->scratch_bytes = store_scratch_bytes(&p->tma_store_swizzle);
        p->tma_store = 1 + map;
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

/* ---- The producer warpgroup (--hopper-schedule producer) ------------------------------------ */

/* Whether the producer can run `op` on its own: scalars (rank-0 tiles),
   refs, and the structure around them. No load: what the copies depend on
   must be computable without the consumers' data. */
static bool producer_can_run(const IrOp *op) {
    for (int i = 0; i < op->num_results; i++) {
        const IrType *t = &op->results[i]->type;
        if (t->kind == IRT_TILE && t->rank != 0 && op->opcode != IR_FOR && op->opcode != IR_IF)
            return false;
    }
    switch (op->opcode) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_VIEW: case IR_ALLOC:
    case IR_FOR: case IR_IF: case IR_YIELD: case IR_ASYNC_COPY: case IR_ASYNC_COMMIT: case IR_SELECT:
    case IR_CAST:
        return true;
    default:
        return ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode);
    }
}

typedef struct Slice {
    KernelPlan *plan;
    bool *needed;                      /* by IrValue.id */
    bool changed;
} Slice;

static void need_value(Slice *s, const IrValue *v) {
    if (v && !s->needed[v->id]) {
        s->needed[v->id] = true;
        s->changed = true;
    }
}

static void need_op(Slice *s, const IrOp *op) {
    OpPlan *p = layout_op_plan(s->plan, op);
    if (!p->producer) {
        p->producer = true;
        s->changed = true;
    }
}

/* The yield that ends `block`, if it has one: the lowering reads the
   values it hands back. */
static void need_yield(Slice *s, const IrBlock *block) {
    if (block && block->last && block->last->opcode == IR_YIELD)
        need_op(s, block->last);
}

static const IrValue *yield_operand(const IrBlock *block, int i) {
    const IrOp *y = block ? block->last : NULL;
    return y && y->opcode == IR_YIELD && i < y->num_operands ? y->operands[i] : NULL;
}

/* What the producer needs of `op`, once it runs it. */
static void slice_op(Slice *s, const IrOp *op) {
    for (const IrBlock *b = op->parent; b && b->parent_op; b = b->parent_op->parent)
        need_op(s, b->parent_op);   /* the loops and ifs around it */
    switch (op->opcode) {
    case IR_FOR:   /* its bounds and step; `until`'s flag; carried values only when needed */
        for (int i = 0; i < 3; i++)
            need_value(s, op->operands[i]);
        if (op->int_value > 0)
            need_value(s, op->body->args[op->int_value]);
        need_yield(s, op->body);
        break;
    case IR_IF:
        need_value(s, op->operands[0]);
        need_yield(s, op->body);
        need_yield(s, op->else_body);
        break;
    case IR_YIELD: break;   /* its operands one by one, as their results are needed */
    default:
        for (int i = 0; i < op->num_operands; i++)
            need_value(s, op->operands[i]);
    }
}

/* What the producer needs for value `v`. */
static void slice_value(Slice *s, const IrValue *v) {
    if (v->def) {
        need_op(s, v->def);
        if (v->def->opcode == IR_FOR)
            need_value(s, v->def->body->args[v->result_index + 1]);
        if (v->def->opcode == IR_IF) {
            need_value(s, yield_operand(v->def->body, v->result_index));
            need_value(s, yield_operand(v->def->else_body, v->result_index));
        }
    } else if (v->arg_of && v->arg_of->parent_op) {
        const IrOp *loop = v->arg_of->parent_op;
        need_op(s, loop);
        for (int a = 1; a < v->arg_of->num_args; a++)
            if (v->arg_of->args[a] == v) {   /* a carried value: where it starts, what comes back */
                need_value(s, loop->operands[3 + a - 1]);
                need_value(s, yield_operand(loop->body, a - 1));
            }
    }
}

/* Marks OpPlan.producer on every async copy and commit and on what they
   depend on; false (marks cleared) when the producer could not run some
   of that on its own (producer_can_run), or a needed result of a for or
   an if is not a scalar. */
static bool producer_slice(KernelPlan *plan) {
    Slice s = {.plan = plan, .needed = ARENA_ARRAY(&plan->kernel->arena, bool, plan->num_values + 1)};
    for (int i = 0; i < plan->num_ops; i++)
        if (plan->ops[i].op->opcode == IR_ASYNC_COPY || plan->ops[i].op->opcode == IR_ASYNC_COMMIT)
            plan->ops[i].producer = true;
    do {
        s.changed = false;
        for (int i = 0; i < plan->num_ops; i++) {
            const IrOp *op = plan->ops[i].op;
            if (plan->ops[i].producer)
                slice_op(&s, op);
            for (int r = 0; r < op->num_results; r++)
                if (s.needed[op->results[r]->id])
                    slice_value(&s, op->results[r]);
            const IrBlock *blocks[2] = {op->body, op->else_body};
            for (int k = 0; k < 2; k++)
                for (int a = 0; blocks[k] && a < blocks[k]->num_args; a++)
                    if (s.needed[blocks[k]->args[a]->id])
                        slice_value(&s, blocks[k]->args[a]);
        }
    } while (s.changed);
    bool ok = true;
    for (int i = 0; i < plan->num_ops && ok; i++) {
        const OpPlan *p = &plan->ops[i];
        if (!p->producer)
            continue;
        ok = producer_can_run(p->op);
        for (int r = 0; ok && r < p->op->num_results; r++) {
            const IrType *t = &p->op->results[r]->type;
            ok = !s.needed[p->op->results[r]->id] || t->kind == IRT_REF || t->rank == 0;
        }
    }
    if (!ok)
        for (int i = 0; i < plan->num_ops; i++)
            plan->ops[i].producer = false;
    plan->producer_values = ok ? s.needed : NULL;
    return ok;
}

/* Whether loop `loop`'s warps share nothing but its ring: every barrier
   barrier.c placed in its body is a ring's, before an async copy, and no
   op in it reads or writes shared memory otherwise (a load of a ring slot
   that a wgmma reads in place is elided; any other access of an alloc, a
   conversion or reduction through scratch, a shape op via shared memory
   is not). Then the consumers' arrivals at the commits are all the order
   the ring needs. */
static bool loop_shares_only_ring(const KernelPlan *plan, const OpPlan *loop) {
    for (int i = 0; i < plan->num_barriers; i++) {
        const BarrierRecord *r = &plan->barrier_list[i];
        const OpPlan *site = r->op;
        if (site->index > loop->index && site->index <= loop->end_index &&
            (r->convert || site->op->opcode != IR_ASYNC_COPY || r->step != BARRIER_BEFORE_WRITE))
            return false;
    }
    for (int i = loop->index + 1; i <= loop->end_index; i++) {
        const OpPlan *p = &plan->ops[i];
        IrOpcode o = p->op->opcode;
        bool access = o == IR_LOAD || o == IR_STORE || o == IR_ATOMIC || o == IR_GATHER || o == IR_SCATTER ||
                      o == IR_SCATTER_ATOMIC;
        if (access && p->op->operands[0]->type.space == SPACE_SHARED && !p->elided)
            return false;
        /* scratch of its own; a wgmma dot's is its operands' conversions',
           checked below (a hoisted one, q's in attention, runs before the loop) */
        if ((p->via_shared && !p->remat) || (o != IR_ALLOC && p->scratch_bytes > 0 && !p->wgmma))
            return false;
        for (int k = 0; p->operand_converts && k < p->op->num_operands; k++) {
            const ConvertRecord *c = p->operand_converts[k];
            if (c && c->method == CONVERT_SHARED && !c->loop)   /* a hoisted one runs before the loop */
                return false;
        }
    }
    return true;
}

/* The innermost loop around the op at index `at`, or NULL. */
static const OpPlan *enclosing_loop(const KernelPlan *plan, int at) {
    const OpPlan *best = NULL;
    for (int i = 0; i < at; i++) {
        const OpPlan *p = &plan->ops[i];
        if (p->op->opcode == IR_FOR && p->end_index >= at)
            best = p;   /* the innermost: the last one opened before `at` */
    }
    return best;
}

/* --hopper-schedule producer: a warpgroup of its own (warp
   specialization) issues every copy, the consumers' ring barriers become
   arrivals on per-slot empty mbarriers, and setmaxnreg moves registers
   from the producer to the consumers. One or two consumer warpgroups
   (warps are a power of two: four would leave the producer no threads
   under 1024, nor registers); else the plan stays as it is (lockstep). */
static void producer_schedule(KernelPlan *plan, bool pingpong) {
    int consumers = plan->threads / 128;
    if (plan->threads % 128 != 0 || consumers < 1 || consumers > 2 || !producer_slice(plan))
        return;
    int64_t offset = (plan->shared_bytes + 7) / 8 * 8, end = offset + 8 * (int64_t)plan->tma_barriers;
    if (end > plan->target->shared_bytes_max) {
        for (int i = 0; i < plan->num_ops; i++)
            plan->ops[i].producer = false;
        plan->producer_values = NULL;
        return;
    }
    plan->producer_threads = 128;
    plan->tma_empty_offset = offset;
    plan->shared_bytes = end;
    /* FlashAttention-3's split (flash_fwd_kernel_sm90.h): 24 / 240 with two
       consumer warpgroups (64512 of the 65536 registers: 168 a thread at
       launch); one consumer warpgroup has 255 already (256 threads). */
    plan->producer_registers = consumers == 2 ? 24 : 0;
    plan->consumer_registers = consumers == 2 ? 240 : 0;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        bool ring_barrier = p->op->opcode == IR_ASYNC_COPY && (p->barriers & (1u << BARRIER_BEFORE_WRITE));
        if (!ring_barrier && !p->wgmma_async)
            continue;
        /* The arrivals replace the barrier only in a loop whose warps
           share nothing but the ring: elsewhere (a prologue after another
           loop's conversion scratch, a loop with a reduction or a shared
           alloc of the user's) barrier.c may count on it for other bytes,
           and generic writes of the ring's bytes may precede it. */
        const OpPlan *loop = enclosing_loop(plan, p->index);
        p->consumer_barrier = !loop || !loop_shares_only_ring(plan, loop);
    }
    /* producer-pingpong: two consumer warpgroups take turns at a two-dot
       loop's wgmmas (pingpong's, below), with no copies in the turn: the
       producer issues them. Only where the consumers meet at no barrier in
       the loop: one warpgroup waiting for its turn while the other waits
       for it at a barrier of both would never end. */
    for (int i = 0; pingpong && consumers == 2 && i < plan->num_ops; i++) {
        OpPlan *loop = &plan->ops[i], *dots[2];
        if (loop->op->opcode != IR_FOR || !pingpong_dots(plan, loop, dots) || !loop_shares_only_ring(plan, loop))
            continue;
        loop->pingpong |= 1u << PINGPONG_LOOP;
        dots[0]->pingpong |= 1u << PINGPONG_PASS_AFTER;
        dots[1]->pingpong |= 1u << PINGPONG_TAKE_BEFORE;
    }
}

/* --hopper-schedule=auto: the producer where run s30-1 measured it paying,
   flash attention's loop (two wgmma dots) with two consumer warpgroups
   (1.09-1.17x lockstep at D 128 and D 64, 8 warps); lockstep for a matmul
   (0.86x under the producer at 8192^3) and for one consumer warpgroup
   (0.77x at D 64, 4 warps). */
static HopperSchedule auto_schedule(KernelPlan *plan) {
    if (plan->threads != 256)
        return SCHEDULE_LOCKSTEP;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *loop = &plan->ops[i], *dots[2];
        if (loop->op->opcode == IR_FOR && pingpong_dots(plan, loop, dots))
            return SCHEDULE_PRODUCER;
    }
    return SCHEDULE_LOCKSTEP;
}

void tma_schedule(KernelPlan *plan, HopperSchedule schedule) {
    if (plan->tma && schedule == SCHEDULE_AUTO)
        schedule = auto_schedule(plan);
    if (plan->tma && (schedule == SCHEDULE_PRODUCER || schedule == SCHEDULE_PRODUCER_PINGPONG)) {
        producer_schedule(plan, schedule == SCHEDULE_PRODUCER_PINGPONG);
        return;
    }
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
