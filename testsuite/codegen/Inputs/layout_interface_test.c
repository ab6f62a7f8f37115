/*
 * layout_test.c: checks the layout interface (codegen.h) by enumeration.
 *
 * For blocked layouts (the defaults layout_blocked_default picks, the
 * mma.sync accumulator layout, layouts applied to shapes smaller or larger
 * than their reach or of a size that is not a power of two) and their
 * slices, it evaluates the interface's answers for every thread of the block
 * (thread positions, coordinates, unique conditions as integers, the way
 * the lowering turns them into i32 arithmetic) and checks, against the
 * register offsets:
 *   - every element of the tile is held by some thread, and exactly one
 *     holder meets the unique conditions, holding it in one register;
 *   - each coordinate is the one the lowering computed before the interface
 *     existed ((warp_d * tpw + lane_d) * spt mod size, read from the fields);
 *   - layout_contiguous_run: runs of registers along a dim hold consecutive,
 *     aligned elements;
 *   - a reduction along each dim: the lane butterfly joins exactly the
 *     lanes of a warp that hold distinct partials (disjoint, covering the
 *     warp's elements), and the warp index puts warps with equal partials
 *     in one slot and the slots together cover the dim.
 * The maps carry their linear layouts (layout_linear_new, as
 * layout_map_new builds them), so the checks above are of the answers
 * derived from the linear map; each answer is also compared with the one
 * the blocked fields give (the same map without its linear layout: the
 * computation before the linear map, kept as the fallback), which it must
 * equal exactly: conditions, masks, terms, runs.
 * Prints one line per case and "N cases (L with linear maps), M failures";
 * exit 1 on a failure.
 */
#include "layout_internal.h"
#include "linear_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                                           \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            if (failures++ < 20) {                                                                                 \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                        \
                printf(__VA_ARGS__);                                                                               \
                printf("\n");                                                                                      \
            }                                                                                                      \
        }                                                                                                          \
    } while (0)

static int64_t eval_term(const LayoutTerm *t, int lane, int warp) {
    int64_t v = t->index == LAYOUT_LANE ? lane : warp;
    v /= t->divisor;
    if (t->count)
        v %= t->count;
    return v * t->scale;
}

static int64_t eval_expr(const LayoutExpr *e, int lane, int warp) {
    int64_t sum = 0;
    for (int i = 0; i < e->num_terms; i++)
        sum += eval_term(&e->terms[i], lane, warp);
    return sum;
}

/* One thread's view: its coordinate bases and unique predicate. */
typedef struct Thread {
    int64_t base[IR_MAX_RANK];
    bool unique;
} Thread;

static void thread_view(const LayoutMap *map, int threads, int tid, Thread *t) {
    int lane = tid % 32, warp = tid / 32;
    LayoutExpr pos[IR_MAX_RANK];
    int64_t pv[IR_MAX_RANK];
    int np = layout_thread_positions(map, pos);
    for (int i = 0; i < np; i++)
        pv[i] = eval_expr(&pos[i], lane, warp);
    for (int d = 0; d < map->rank; d++) {
        LayoutCoord c;
        layout_thread_coord(map, d, &c);
        t->base[d] = c.position < 0 ? 0 : pv[c.position] * c.scale;
        if (c.position >= 0 && c.modulus)
            t->base[d] %= c.modulus;
    }
    LayoutCondition conds[LAYOUT_MAX_CONDITIONS];
    int n = layout_unique_conditions(map, threads, conds);
    t->unique = true;
    for (int i = 0; i < n; i++) {
        int64_t v = conds[i].position >= 0 ? pv[conds[i].position] : eval_expr(&conds[i].expr, lane, warp);
        t->unique &= v < conds[i].bound;
        CHECK(i == 0 || conds[i - 1].dim <= conds[i].dim, "conditions out of dim order");
    }
}

/* The coordinate the lowering computed from the fields before the interface. */
static int64_t old_base(const LayoutMap *map, int d, int tid) {
    const LayoutDim *dim = &map->dims[d];
    if (dim->in_registers)
        return 0;
    int rd = dim->root_dim, lane = tid % 32, warp = tid / 32;
    int64_t lane_d = lane / map->lane_stride[rd] % dim->tpw, warp_d = warp / map->warp_stride[rd] % dim->wpc;
    return ((warp_d * dim->tpw + lane_d) * dim->spt) & (dim->size - 1);
}

static int64_t linear(const IrType *shape, const int64_t *c) {
    int64_t l = 0;
    for (int d = 0; d < shape->rank; d++)
        l = l * shape->dims[d].size + c[d];
    return l;
}

static void dim_indices(const LayoutMap *map, int64_t reg, int64_t *idx) {
    for (int d = map->rank - 1; d >= 0; d--) {
        idx[d] = reg % layout_dim_regs(map, d);
        reg /= layout_dim_regs(map, d);
    }
}

/* coords[tid][reg][d] */
static int64_t *all_coords(const LayoutMap *map, int threads, Thread *views) {
    int rank = map->rank;
    int64_t regs = layout_num_regs(map);
    int64_t *c = calloc((size_t)(threads * regs * (rank ? rank : 1)), sizeof *c);
    for (int tid = 0; tid < threads; tid++) {
        thread_view(map, threads, tid, &views[tid]);
        for (int64_t r = 0; r < regs; r++) {
            int64_t off[IR_MAX_RANK];
            layout_reg_offsets(map, r, off);
            for (int d = 0; d < rank; d++)
                c[(tid * regs + r) * rank + d] = views[tid].base[d] + off[d];
        }
    }
    return c;
}

static void check_reduce(const LayoutMap *map, const IrType *shape, int threads, int axis, const int64_t *coords) {
    int rank = map->rank;
    int64_t regs = layout_num_regs(map), size = shape->dims[axis].size;
    int masks[LAYOUT_MAX_LANE_MASKS];
    int nm = layout_reduce_lane_masks(map, axis, masks);
    LayoutTerm windex;
    int warps = layout_reduce_warps(map, axis, &windex);
    /* per result register o (the source registers with axis index 0): the
       set of axis coordinates each lane group, warp and slot combines */
    char *seen = malloc((size_t)size), *slot_set = malloc((size_t)warps * (size_t)size), *filled = malloc((size_t)warps);
    for (int64_t r0 = 0; r0 < regs; r0++) {
        int64_t idx[IR_MAX_RANK];
        dim_indices(map, r0, idx);
        if (idx[axis] != 0)
            continue;
        memset(filled, 0, (size_t)warps);
        for (int tid = 0; tid < threads; tid++) {
            int lane = tid % 32, warp = tid / 32;
            /* the other dims' coordinates of this result register */
            const int64_t *mine = &coords[(tid * regs + r0) * rank];
            memset(seen, 0, (size_t)size);
            for (int s = 0; s < (1 << nm); s++) {
                int other = lane;
                for (int k = 0; k < nm; k++)
                    if (s >> k & 1)
                        other ^= masks[k];
                int t2 = warp * 32 + other;
                if (t2 >= threads)
                    continue;
                for (int64_t k = 0; k < layout_dim_regs(map, axis); k++) {
                    idx[axis] = k;
                    const int64_t *c = &coords[(t2 * regs + layout_reg_index(map, idx)) * rank];
                    if (c[axis] < 0 || c[axis] >= size)
                        continue;   /* reported by check_map */
                    for (int d = 0; d < rank; d++)
                        if (d != axis)
                            CHECK(c[d] == mine[d], "reduce axis %d: lane %d and %d combine different elements", axis,
                                  lane, other);
                    CHECK(!seen[c[axis]], "reduce axis %d: coordinate %lld combined twice at lane %d", axis,
                          (long long)c[axis], lane);
                    seen[c[axis]] = 1;
                }
                idx[axis] = 0;
            }
            /* every axis coordinate this warp holds for these elements */
            for (int l2 = 0; l2 < 32 && warp * 32 + l2 < threads; l2++) {
                int t2 = warp * 32 + l2;
                for (int64_t k = 0; k < layout_dim_regs(map, axis); k++) {
                    idx[axis] = k;
                    const int64_t *c = &coords[(t2 * regs + layout_reg_index(map, idx)) * rank];
                    bool same = c[axis] >= 0 && c[axis] < size;
                    for (int d = 0; d < rank; d++)
                        same &= d == axis || c[d] == mine[d];
                    if (same)
                        CHECK(seen[c[axis]], "reduce axis %d: lane %d misses coordinate %lld of its warp", axis, lane,
                              (long long)c[axis]);
                }
                idx[axis] = 0;
            }
            /* the warp's slot: warps sharing one hold the same partial
               (they write equal values), different slots disjoint ones */
            int64_t w = warps > 1 ? eval_term(&windex, lane, warp) : 0;
            CHECK(w >= 0 && w < warps, "reduce axis %d: warp index %lld of %d", axis, (long long)w, warps);
            if (w < 0 || w >= warps)
                continue;
            if (!filled[w]) {
                filled[w] = 1;
                memcpy(slot_set + w * size, seen, (size_t)size);
                for (int64_t w2 = 0; w2 < warps; w2++)
                    for (int64_t a = 0; a < size && w2 != w && filled[w2]; a++)
                        CHECK(!(seen[a] && slot_set[w2 * size + a]), "reduce axis %d: coordinate %lld in slots %lld and %lld",
                              axis, (long long)a, (long long)w, (long long)w2);
            } else {
                CHECK(memcmp(slot_set + w * size, seen, (size_t)size) == 0,
                      "reduce axis %d: warp %d writes a different partial to slot %lld", axis, warp, (long long)w);
            }
        }
        /* the slots together cover the dim */
        for (int64_t a = 0; a < size; a++) {
            bool any = false;
            for (int w2 = 0; w2 < warps; w2++)
                any |= filled[w2] && slot_set[w2 * size + a];
            CHECK(any, "reduce axis %d: coordinate %lld in no slot", axis, (long long)a);
        }
    }
    free(seen);
    free(slot_set);
    free(filled);
}

static int cases, linear_cases;

static bool same_term(const LayoutTerm *a, const LayoutTerm *b) {
    return a->index == b->index && a->divisor == b->divisor && a->count == b->count && a->scale == b->scale;
}

/* Every answer of `map` (from its linear layout) equals `ref`'s (the
   blocked fields). */
static void check_same_answers(const LayoutMap *map, const LayoutMap *ref, int threads) {
    LayoutCondition a[LAYOUT_MAX_CONDITIONS], b[LAYOUT_MAX_CONDITIONS];
    int na = layout_unique_conditions(map, threads, a), nb = layout_unique_conditions(ref, threads, b);
    CHECK(na == nb, "unique conditions: %d from the linear map, %d before", na, nb);
    for (int i = 0; i < na && i < nb; i++) {
        bool same = a[i].position == b[i].position && a[i].bound == b[i].bound && a[i].dim == b[i].dim &&
                    a[i].expr.num_terms == b[i].expr.num_terms;
        for (int t = 0; same && t < a[i].expr.num_terms; t++)
            same = same_term(&a[i].expr.terms[t], &b[i].expr.terms[t]);
        CHECK(same, "unique condition %d: position %d bound %lld dim %d from the linear map, position %d bound %lld "
              "dim %d before", i, a[i].position, (long long)a[i].bound, a[i].dim, b[i].position,
              (long long)b[i].bound, b[i].dim);
    }
    for (int d = 0; d < map->rank; d++) {
        int64_t ra = layout_contiguous_run(map, d), rb = layout_contiguous_run(ref, d);
        CHECK(ra == rb, "dim %d: contiguous run %lld from the linear map, %lld before", d, (long long)ra, (long long)rb);
        int ma[LAYOUT_MAX_LANE_MASKS], mb[LAYOUT_MAX_LANE_MASKS];
        int nma = layout_reduce_lane_masks(map, d, ma), nmb = layout_reduce_lane_masks(ref, d, mb);
        CHECK(nma == nmb && memcmp(ma, mb, sizeof(int) * (size_t)(nma < nmb ? nma : nmb)) == 0,
              "dim %d: %d lane masks from the linear map (first %d), %d before (first %d)", d, nma, nma ? ma[0] : 0,
              nmb, nmb ? mb[0] : 0);
        LayoutTerm ta = {0}, tb = {0};
        int wa = layout_reduce_warps(map, d, &ta), wb = layout_reduce_warps(ref, d, &tb);
        CHECK(wa == wb && (wa <= 1 || same_term(&ta, &tb)), "dim %d: reduce warps %d (divisor %d) from the linear "
              "map, %d (divisor %d) before", d, wa, ta.divisor, wb, tb.divisor);
        wa = layout_warps_along(map, d, &ta);
        wb = layout_warps_along(ref, d, &tb);
        CHECK(wa == wb && same_term(&ta, &tb), "dim %d: warps along %d (divisor %d) from the linear map, %d "
              "(divisor %d) before", d, wa, ta.divisor, wb, tb.divisor);
    }
}

static void check_map(IrKernel *k, const Layout *layout, const IrType *shape, int threads) {
    LayoutMap map, ref;
    layout_map(layout, shape, &map);
    ref = map;
    map.linear = layout_linear_new(&k->arena, layout, shape, threads / 32);
    if (map.linear) {
        linear_cases++;
        check_same_answers(&map, &ref, threads);
    }
    int rank = shape->rank;
    int64_t regs = layout_num_regs(&map), elements = ir_type_elements(shape);
    Thread *views = calloc((size_t)threads, sizeof *views);
    int64_t *coords = all_coords(&map, threads, views);
    int *holders = calloc((size_t)elements, sizeof *holders), *unique = calloc((size_t)elements, sizeof *unique);
    for (int tid = 0; tid < threads; tid++) {
        for (int d = 0; d < rank; d++)
            CHECK(views[tid].base[d] == old_base(&map, d, tid), "thread %d dim %d: base %lld, before %lld", tid, d,
                  (long long)views[tid].base[d], (long long)old_base(&map, d, tid));
        for (int64_t r = 0; r < regs; r++) {
            const int64_t *c = &coords[(tid * regs + r) * rank];
            bool in = true;
            for (int d = 0; d < rank; d++)
                in &= c[d] >= 0 && c[d] < shape->dims[d].size;
            CHECK(in, "thread %d register %lld out of the tile", tid, (long long)r);
            if (!in)
                continue;
            int64_t e = linear(shape, c);
            holders[e]++;
            unique[e] += views[tid].unique;
        }
    }
    for (int64_t e = 0; e < elements; e++) {
        CHECK(holders[e] > 0, "element %lld held by no thread", (long long)e);
        CHECK(unique[e] == 1, "element %lld: %d unique holders", (long long)e, unique[e]);
    }
    /* contiguous runs along each dim */
    for (int d = 0; d < rank; d++) {
        int64_t run = layout_contiguous_run(&map, d);
        CHECK(run >= 1 && layout_dim_regs(&map, d) % run == 0, "dim %d: run %lld", d, (long long)run);
        for (int tid = 0; tid < threads && run > 1; tid++) {
            for (int64_t r = 0; r < regs; r++) {
                int64_t idx[IR_MAX_RANK];
                dim_indices(&map, r, idx);
                int64_t step = idx[d] % run;
                idx[d] -= step;
                const int64_t *first = &coords[(tid * regs + layout_reg_index(&map, idx)) * rank];
                const int64_t *c = &coords[(tid * regs + r) * rank];
                CHECK(first[d] % run == 0 && c[d] == first[d] + step, "dim %d: register %lld breaks its run", d,
                      (long long)r);
            }
        }
    }
    for (int d = 0; d < rank; d++)
        check_reduce(&map, shape, threads, d, coords);
    for (int d = 0; d < rank; d++) {
        LayoutTerm t;
        int n = layout_warps_along(&map, d, &t);
        for (int tid = 0; tid < threads; tid += 32)
            CHECK(eval_term(&t, 0, tid / 32) < n, "dim %d: warp index past %d", d, n);
    }
    char text[512], type[128];
    layout_format(layout, text, sizeof text);
    ir_type_format(shape, type, sizeof type);
    printf("%s %s threads=%d regs=%lld\n", type, text, threads, (long long)regs);
    cases++;
    free(views);
    free(coords);
    free(holders);
    free(unique);
}

static IrType shape_of(DType dtype, int rank, const int64_t *dims) { return ir_tile_type(dtype, rank, dims); }

/* The layout, its slices (all of them, down to rank 1) on the shapes they
   distribute, and the layout on `other` shapes of its rank. */
static void check_all(IrKernel *k, const Layout *layout, const IrType *shape, int threads) {
    check_map(k, layout, shape, threads);
    if (shape->rank < 2)
        return;
    for (int d = 0; d < shape->rank; d++) {
        IrType s = *shape;
        for (int i = d; i + 1 < s.rank; i++)
            s.dims[i] = s.dims[i + 1];
        s.rank--;
        check_all(k, layout_slice(k, layout, d), &s, threads);
    }
}

static Layout *blocked(IrKernel *k, int rank, const int *spt, const int *tpw, const int *wpc, const int *order) {
    Layout *l = ARENA_NEW(&k->arena, Layout);
    memset(l, 0, sizeof *l);
    l->kind = LAYOUT_BLOCKED;
    l->rank = rank;
    for (int d = 0; d < rank; d++) {
        l->size_per_thread[d] = spt[d];
        l->threads_per_warp[d] = tpw[d];
        l->warps_per_cta[d] = wpc[d];
        l->order[d] = order[d];
    }
    return l;
}

int main(void) {
    IrKernel *k = ir_kernel_new("layout_test", (Span){0});
    static const struct {
        DType dtype;
        int rank;
        int64_t dims[3];
        int threads;
    } defaults[] = {
        {DT_F32, 1, {128}, 128},       {DT_F32, 1, {1024}, 256},   {DT_F32, 1, {7}, 64},
        {DT_F16, 1, {16}, 128},        {DT_F32, 2, {64, 64}, 128}, {DT_F16, 2, {2, 1024}, 256},
        {DT_F32, 2, {16, 8}, 128},     {DT_F32, 2, {128, 64}, 256}, {DT_F32, 2, {5, 32}, 128},
        {DT_F32, 2, {32, 6}, 64},      {DT_F16, 2, {1, 64}, 128},  {DT_F32, 3, {4, 8, 16}, 128},
        {DT_F32, 3, {2, 32, 64}, 256}, {DT_I8, 2, {8, 128}, 64},
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        IrType s = shape_of(defaults[i].dtype, defaults[i].rank, defaults[i].dims);
        const Layout *l = layout_blocked_default(k, &s, defaults[i].threads);
        check_all(k, l, &s, defaults[i].threads);
        /* the same layout on smaller, larger and ragged shapes */
        static const int64_t factor[5][2] = {{1, 4}, {4, 1}, {3, 1}, {1, 1}, {1, 16}};
        for (int f = 0; f < 5; f++) {
            IrType t = s;
            for (int d = 0; d < t.rank; d++) {
                int64_t v = t.dims[d].size * factor[f][0] / factor[f][1];
                t.dims[d].size = (f == 2 && d == 0) || (f == 3 && d == t.rank - 1) ? v + 2 : v > 0 ? v : 1;
            }
            if (ir_type_elements(&t) <= 4096)   /* enumeration time */
                check_map(k, l, &t, defaults[i].threads);
        }
    }
    /* mma.sync m16n8 accumulators (layout.c's mma_layout): spt [1,2],
       tpw [8,4], warps [wm,wn], order [1,0]. */
    static const int warps[][2] = {{4, 1}, {2, 2}, {8, 1}, {1, 4}};
    for (size_t i = 0; i < sizeof warps / sizeof warps[0]; i++) {
        int spt[2] = {1, 2}, tpw[2] = {8, 4}, wpc[2] = {warps[i][0], warps[i][1]}, order[2] = {1, 0};
        int64_t dims[2] = {16 * warps[i][0] * 2, 8 * warps[i][1] * 2};
        IrType s = shape_of(DT_F32, 2, dims);
        check_all(k, blocked(k, 2, spt, tpw, wpc, order), &s, 32 * wpc[0] * wpc[1]);
    }
    /* dim 0 fastest */
    {
        int spt[2] = {4, 1}, tpw[2] = {16, 2}, wpc[2] = {1, 4}, order[2] = {0, 1};
        int64_t dims[2] = {64, 16};
        IrType s = shape_of(DT_F32, 2, dims);
        check_all(k, blocked(k, 2, spt, tpw, wpc, order), &s, 128);
    }
    printf("%d cases (%d with linear maps), %d failures\n", cases, linear_cases, failures);
    ir_kernel_free(k);
    return failures ? 1 : 0;
}
