/*
 * layout.c: layout assignment, the one place where layouts are decided.
 *
 * In: a kernel's tile IR after the tile passes, its target (an arch of the
 * family the plan is for) and its thread count. Out: a
 * KernelPlan (codegen.h): a layout for every tile value, for every op the
 * layout each operand must arrive in, whether the op itself rearranges
 * elements through shared memory, and the scratch bytes it needs. The
 * lowering reads the plan and never re-decides.
 *
 * The rules, in one forward walk over the ops (then one backward walk):
 * - Anchors. load and iota get the default blocked layout of their shape
 *   (16-byte vectors along the last dim, lanes then warps from the fastest
 *   dim: coalesced global accesses). dot results get it too (an mma layout
 *   later). A reduction's result is the slice of its operand's layout.
 * - Elementwise ops take the operand layout that spreads the result over the
 *   most threads (fewest registers per thread); other operands convert.
 * - Flexible values: a constant, a shape op or elementwise op over constants
 *   and single elements is a splat (every element equal). It has no layout
 *   of its own: the backward walk gives it its first user's, and the lowering
 *   rematerializes it in whatever layout a user wants, for free.
 * - Shape ops: a broadcast keeps its source's layout (register i of the
 *   result reads the source register with the broadcast dims at 0) unless
 *   that would put more registers in a thread than the default; a reshape
 *   that only adds or drops unit dims maps the layout (adding a unit dim to a
 *   slice at its sliced dim gives the parent back, as Triton's expand_dims).
 *   Everything else (transpose, extract, general reshape) goes through
 *   shared memory into the default layout of the result.
 * - Loops: a carried value takes its init's layout; when the init is
 *   flexible (zeros), the body is walked once with the argument flexible and
 *   the argument then takes the layout the yield produced; a second walk
 *   fixes the body. Inits and yields convert to the argument's layout.
 * - if: results take the then-yield's layout (else the else-yield's).
 */
#include "layout_internal.h"
#include "linear_layout.h"

#include <string.h>

/* ---- layouts ------------------------------------------------------------------ */

static bool layout_is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

bool layout_equal(const Layout *a, const Layout *b) {
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->rank != b->rank)
        return false;
    if (a->kind == LAYOUT_SLICE)
        return a->slice_dim == b->slice_dim && layout_equal(a->parent, b->parent);
    for (int d = 0; d < a->rank; d++) {
        if (a->size_per_thread[d] != b->size_per_thread[d] || a->threads_per_warp[d] != b->threads_per_warp[d] ||
            a->warps_per_cta[d] != b->warps_per_cta[d] || a->order[d] != b->order[d])
            return false;
    }
    return true;
}

static void format_list(char *buf, size_t size, const char *name, const int *v, int n) {
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s=[", name);
    for (int i = 0; i < n; i++) {
        len = strlen(buf);
        snprintf(buf + len, size - len, "%s%d", i ? "," : "", v[i]);
    }
    len = strlen(buf);
    snprintf(buf + len, size - len, "]");
}

void layout_format(const Layout *layout, char *buf, size_t size) {
    if (!layout) {
        snprintf(buf, size, "none");
        return;
    }
    if (layout->kind == LAYOUT_SLICE) {
        char inner[256];
        layout_format(layout->parent, inner, sizeof inner);
        snprintf(buf, size, "slice<dim=%d, %s>", layout->slice_dim, inner);
        return;
    }
    snprintf(buf, size, "blocked<");
    format_list(buf, size, "spt", layout->size_per_thread, layout->rank);
    strncat(buf, " ", size - strlen(buf) - 1);
    format_list(buf, size, "tpw", layout->threads_per_warp, layout->rank);
    strncat(buf, " ", size - strlen(buf) - 1);
    format_list(buf, size, "wpc", layout->warps_per_cta, layout->rank);
    strncat(buf, " ", size - strlen(buf) - 1);
    format_list(buf, size, "order", layout->order, layout->rank);
    strncat(buf, ">", size - strlen(buf) - 1);
}

/* The root dims of a layout's tile dims, and the root dims sliced away. */
static const Layout *layout_resolve(const Layout *layout, int *dim_to_root, int *num_sliced, int *sliced) {
    if (layout->kind == LAYOUT_BLOCKED) {
        for (int d = 0; d < layout->rank; d++)
            dim_to_root[d] = d;
        return layout;
    }
    int parent[IR_MAX_RANK + 1];
    const Layout *root = layout_resolve(layout->parent, parent, num_sliced, sliced);
    sliced[(*num_sliced)++] = parent[layout->slice_dim];
    for (int d = 0, k = 0; d < layout->parent->rank; d++)
        if (d != layout->slice_dim)
            dim_to_root[k++] = parent[d];
    return root;
}

void layout_map(const Layout *layout, const IrType *shape, LayoutMap *map) {
    memset(map, 0, sizeof *map);
    int dim_to_root[IR_MAX_RANK + 1];
    const Layout *root = layout_resolve(layout, dim_to_root, &map->num_sliced, map->sliced_dims);
    map->root = root;
    map->rank = shape->rank;
    int lane = 1, warp = 1;
    for (int i = 0; i < root->rank; i++) {
        int d = root->order[i];
        map->lane_stride[d] = lane;
        map->warp_stride[d] = warp;
        lane *= root->threads_per_warp[d];
        warp *= root->warps_per_cta[d];
    }
    map->num_regs = 1;
    for (int i = 0; i < shape->rank; i++) {
        LayoutDim *dim = &map->dims[i];
        int rd = i < layout->rank ? dim_to_root[i] : 0;
        dim->size = shape->dims[i].size;
        dim->root_dim = rd;
        dim->spt = root->size_per_thread[rd];
        dim->tpw = root->threads_per_warp[rd];
        dim->wpc = root->warps_per_cta[rd];
        dim->reach = (int64_t)dim->spt * dim->tpw * dim->wpc;
        if (!layout_is_pow2(dim->size) || i >= layout->rank) {
            /* The whole dim in every thread's registers; threads along it replicate. */
            dim->in_registers = true;
            dim->regs = dim->size > 0 ? dim->size : 1;
            dim->unique_threads = 1;
        } else if (dim->size >= dim->reach) {
            dim->regs = dim->spt * (dim->size / dim->reach);
            dim->unique_threads = dim->tpw * dim->wpc;
        } else {
            dim->regs = dim->size < dim->spt ? dim->size : dim->spt;
            int64_t threads = dim->size / dim->spt;
            if (threads < 1)
                threads = 1;
            dim->unique_threads = (int)threads;
        }
        map->num_regs *= dim->regs;
    }
}

void layout_reg_offsets(const LayoutMap *map, int64_t reg, int64_t *offsets) {
    for (int d = map->rank - 1; d >= 0; d--) {
        const LayoutDim *dim = &map->dims[d];
        int64_t r = reg % dim->regs;
        reg /= dim->regs;
        if (dim->in_registers || dim->size < dim->reach)
            offsets[d] = r;
        else
            offsets[d] = (r / dim->spt) * dim->reach + r % dim->spt;
    }
}

int64_t layout_reg_index(const LayoutMap *map, const int64_t *dim_regs) {
    int64_t reg = 0;
    for (int d = 0; d < map->rank; d++)
        reg = reg * map->dims[d].regs + dim_regs[d];
    return reg;
}

int64_t layout_regs_per_thread(const Layout *layout, const IrType *type) {
    LayoutMap map;
    layout_map(layout, type, &map);
    return map.num_regs;
}

/* ---- the layout interface (codegen.h): questions the lowering asks ---------------- */

/* The interface answers from the map's linear layout where it has one
   (linear_*), and from the blocked fields otherwise (old_*: maps made by
   layout_map alone, and the cases the comments name). The two agree on
   every map that has both; layout_interface_test asserts it. */

static int log2_of(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v)
        k++;
    return k;
}

const LinearLayout *layout_linear_new(Arena *arena, const Layout *layout, const IrType *shape, int warps) {
    /* A tile of another rank than its layout's is not a map the layout
       defines (layout_map puts the extra dims wholly in registers). */
    if (shape->rank != layout->rank || !layout_is_pow2(warps))
        return NULL;
    int dim_to_root[IR_MAX_RANK + 1], num_sliced = 0, sliced[IR_MAX_RANK + 1];
    const Layout *root = layout_resolve(layout, dim_to_root, &num_sliced, sliced);
    int64_t lanes = 1, layout_warps = 1;
    for (int d = 0; d < root->rank; d++) {
        lanes *= root->threads_per_warp[d];
        layout_warps *= root->warps_per_cta[d];
    }
    if (lanes > 32 || layout_warps > warps)
        return NULL;
    LinearLayout l;
    if (!linear_from_layout(layout, shape, warps, &l))
        return NULL;
    LinearLayout *out = ARENA_NEW(arena, LinearLayout);
    *out = l;
    return out;
}

const LayoutMap *layout_map_new(IrKernel *kernel, const Layout *layout, const IrType *shape) {
    LayoutMap *map = ARENA_NEW(&kernel->arena, LayoutMap);
    layout_map(layout, shape, map);
    map->linear = layout_linear_new(&kernel->arena, layout, shape, kernel->warps);
    return map;
}

const LinearLayout *layout_map_linear(const LayoutMap *map) { return map->linear; }

int64_t layout_num_regs(const LayoutMap *map) { return map->num_regs; }

int64_t layout_dim_regs(const LayoutMap *map, int d) { return map->dims[d].regs; }

static void expr_add(LayoutExpr *e, LayoutIndex index, int divisor, int count, int64_t scale) {
    if (count == 1)
        return;                        /* always 0 */
    if (e->num_terms >= LAYOUT_MAX_TERMS)
        INTERNAL_ERROR("layout expression with more than %d terms", LAYOUT_MAX_TERMS);
    e->terms[e->num_terms++] = (LayoutTerm){.index = index, .divisor = divisor, .count = count, .scale = scale};
}

/* Blocked: position k is the thread's index along root dim k, lanes first:
   (lane / lane_stride % tpw) + (warp / warp_stride % wpc) * tpw. */
int layout_thread_positions(const LayoutMap *map, LayoutExpr *positions) {
    const Layout *root = map->root;
    for (int d = 0; d < root->rank; d++) {
        int tpw = root->threads_per_warp[d], wpc = root->warps_per_cta[d];
        LayoutExpr *e = &positions[d];
        e->num_terms = 0;
        expr_add(e, LAYOUT_LANE, map->lane_stride[d], tpw, 1);
        expr_add(e, LAYOUT_WARP, map->warp_stride[d], wpc, tpw);
    }
    return root->rank;
}

/* Blocked: a thread's first element along d is its position times
   size_per_thread, wrapped at the dim's size (the threads past it hold
   copies); a dim held whole in registers starts at 0. */
void layout_thread_coord(const LayoutMap *map, int d, LayoutCoord *out) {
    const LayoutDim *dim = &map->dims[d];
    *out = (LayoutCoord){.position = -1, .scale = 1, .modulus = 0};
    if (dim->in_registers)
        return;
    *out = (LayoutCoord){.position = dim->root_dim, .scale = dim->spt, .modulus = dim->size};
}

static void add_condition(LayoutCondition *out, int *n, int position, const LayoutExpr *e, int64_t bound, int dim) {
    if (*n >= LAYOUT_MAX_CONDITIONS)
        INTERNAL_ERROR("layout with more than %d unique conditions", LAYOUT_MAX_CONDITIONS);
    LayoutCondition *c = &out[(*n)++];
    memset(c, 0, sizeof *c);
    c->position = position;
    if (e)
        c->expr = *e;
    c->bound = bound;
    c->dim = dim;
}

/* Blocked: lanes and warps past the layout's own hold copies; along a dim
   held in registers, or sliced away, only position 0 holds the first copy;
   along a dim shorter than the layout's reach, the first unique_threads
   positions. */
static int old_unique_conditions(const LayoutMap *map, int threads, LayoutCondition *out) {
    const Layout *root = map->root;
    int n = 0, lanes = 1, warps = 1;
    for (int d = 0; d < root->rank; d++) {
        lanes *= root->threads_per_warp[d];
        warps *= root->warps_per_cta[d];
    }
    LayoutExpr e = {0};
    if (lanes < 32) {
        e.num_terms = 0;
        expr_add(&e, LAYOUT_LANE, 1, 0, 1);
        add_condition(out, &n, -1, &e, lanes, -1);
    }
    int total_warps = threads / 32 > 0 ? threads / 32 : 1;
    if (warps < total_warps) {
        e.num_terms = 0;
        expr_add(&e, LAYOUT_WARP, 1, 0, 1);
        add_condition(out, &n, -1, &e, warps, -1);
    }
    for (int d = 0; d < map->rank; d++) {
        const LayoutDim *dim = &map->dims[d];
        int64_t bound = dim->in_registers ? 1 : dim->unique_threads;
        if (bound < dim->tpw * dim->wpc)
            add_condition(out, &n, dim->root_dim, NULL, bound, d);
    }
    for (int i = 0; i < map->num_sliced; i++) {
        int rd = map->sliced_dims[i];
        if (root->threads_per_warp[rd] * root->warps_per_cta[rd] > 1)
            add_condition(out, &n, rd, NULL, 1, map->rank);
    }
    return n;
}

/* From the map's free bits (linear_free_bits: flipping them reaches no new
   element, so exactly the threads with all of them 0 are the unique
   holders). The positions group the bits: position r (root dim r) is
   lane bits [log2 lane_stride, + log2 tpw) then warp bits
   [log2 warp_stride, + log2 wpc), low to high; its condition is
   position < 2^(its bits below the first free one), which needs every
   bit above that free too (false otherwise: no such condition). The bits
   in no position (lanes and warps past the layout's) must all be free. */
static bool position_bound(const LayoutMap *map, int r, uint32_t lane_free, uint32_t warp_free, int64_t *bound) {
    const Layout *root = map->root;
    int bits[2] = {log2_of(root->threads_per_warp[r]), log2_of(root->warps_per_cta[r])};
    int first[2] = {log2_of(map->lane_stride[r]), log2_of(map->warp_stride[r])};
    uint32_t free[2] = {lane_free, warp_free};
    int unique = 0;
    bool seen_free = false;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < bits[k]; j++) {
            bool f = free[k] >> (first[k] + j) & 1;
            if (!f && seen_free)
                return false;
            seen_free |= f;
            unique += !f;
        }
    *bound = (int64_t)1 << unique;
    return true;
}

int layout_unique_conditions(const LayoutMap *map, int threads, LayoutCondition *out) {
    const LinearLayout *l = map->linear;
    /* The map's warps are the kernel's; a block of another size is asked
       about only by the unit test's reference (the old path). */
    if (!l || threads != 32 * (int)linear_in_size(l, 2))
        return old_unique_conditions(map, threads, out);
    const Layout *root = map->root;
    uint32_t lane_free = linear_free_bits(l, 1), warp_free = linear_free_bits(l, 2);
    int lane_bits = 0, warp_bits = 0;
    for (int r = 0; r < root->rank; r++) {
        lane_bits += log2_of(root->threads_per_warp[r]);
        warp_bits += log2_of(root->warps_per_cta[r]);
    }
    uint32_t lane_past = (uint32_t)((1u << l->in_bits[1]) - 1) & ~((1u << lane_bits) - 1);
    uint32_t warp_past = (uint32_t)((1u << l->in_bits[2]) - 1) & ~((1u << warp_bits) - 1);
    if ((lane_free & lane_past) != lane_past || (warp_free & warp_past) != warp_past)
        return old_unique_conditions(map, threads, out);
    int64_t bounds[IR_MAX_RANK + 1];
    for (int r = 0; r < root->rank; r++)
        if (!position_bound(map, r, lane_free, warp_free, &bounds[r]))
            return old_unique_conditions(map, threads, out);
    int n = 0;
    LayoutExpr e = {0};
    if (lane_past) {
        e.num_terms = 0;
        expr_add(&e, LAYOUT_LANE, 1, 0, 1);
        add_condition(out, &n, -1, &e, (int64_t)1 << lane_bits, -1);
    }
    if (warp_past) {
        e.num_terms = 0;
        expr_add(&e, LAYOUT_WARP, 1, 0, 1);
        add_condition(out, &n, -1, &e, (int64_t)1 << warp_bits, -1);
    }
    for (int d = 0; d < map->rank; d++) {
        int r = map->dims[d].root_dim;
        if (bounds[r] < (int64_t)root->threads_per_warp[r] * root->warps_per_cta[r])
            add_condition(out, &n, r, NULL, bounds[r], d);
    }
    for (int i = 0; i < map->num_sliced; i++) {
        int r = map->sliced_dims[i];
        if (bounds[r] < (int64_t)root->threads_per_warp[r] * root->warps_per_cta[r])
            add_condition(out, &n, r, NULL, bounds[r], map->rank);
    }
    return n;
}

static int64_t old_contiguous_run(const LayoutMap *map, int d) {
    const LayoutDim *dim = &map->dims[d];
    if (dim->in_registers)
        return 1;
    return dim->spt < dim->size ? dim->spt : dim->size;
}

/* Whether the map has an affine register part along d (a dim whose size is
   not a power of two, held whole in every thread's registers). */
static bool linear_affine_along(const LinearLayout *l, int d) {
    for (int p = 0; p < l->num_parts; p++)
        if (l->parts[p].affine && l->parts[p].dim == d)
            return true;
    return false;
}

/* Map: linear_dim_run. Two cases keep the blocked answer, because the
   map's is longer (and true) and the lowering's vector widths follow this
   answer, so it would change PTX:
   - a ragged dim (an affine register part): its registers are consecutive
     elements, but the blocked answer promises nothing (1);
   - a dim that no thread spans (one lane and one warp along it) with more
     elements than size_per_thread: its register repeats are consecutive
     too (spt = 1 with 8 repeats and spt = 8 are the same map), the blocked
     answer promises size_per_thread (a broadcast along the last dim of a
     [N, 1] source's layout: the map would give 8-wide stores). */
int64_t layout_contiguous_run(const LayoutMap *map, int d) {
    const LayoutDim *dim = &map->dims[d];
    if (!map->linear || linear_affine_along(map->linear, d) || (dim->tpw * dim->wpc == 1 && dim->size > dim->spt))
        return old_contiguous_run(map, d);
    return linear_dim_run(map->linear, d);
}

/* Blocked: the lanes along d that hold distinct elements are numbered by
   the lane-index bits from lane_stride up. */
static int old_reduce_lane_masks(const LayoutMap *map, int d, int *masks) {
    const LayoutDim *dim = &map->dims[d];
    if (dim->in_registers)
        return 0;
    int lanes = dim->unique_threads < dim->tpw ? dim->unique_threads : dim->tpw;
    int n = 0;
    for (int m = 1; m < lanes; m *= 2)
        masks[n++] = m * map->lane_stride[dim->root_dim];
    return n;
}

/* The bits of input `in` whose basis moves along tile dim d. */
static uint32_t linear_bits_along(const LinearLayout *l, int in, int d) {
    uint32_t bits = 0;
    for (int j = 0; j < l->in_bits[in]; j++)
        if (l->bases[in][j][d])
            bits |= 1u << j;
    return bits;
}

/* Map: the lane bits whose basis moves along d, each one butterfly step
   (a lane bit with a zero basis along d holds a copy of the same partial,
   so it takes no step). */
int layout_reduce_lane_masks(const LayoutMap *map, int d, int *masks) {
    if (!map->linear)
        return old_reduce_lane_masks(map, d, masks);
    uint32_t bits = linear_bits_along(map->linear, 1, d);
    int n = 0;
    for (int j = 0; j < 32 && n < LAYOUT_MAX_LANE_MASKS; j++)
        if (bits >> j & 1)
            masks[n++] = 1 << j;
    return n;
}

/* `bits` as one field [first, first + count) of the warp index: the term
   (warp >> first) % 2^count. False when they are not contiguous. */
static bool warp_field(uint32_t bits, LayoutTerm *index, int *count) {
    int first = 0;
    while (first < 32 && !(bits >> first & 1))
        first++;
    uint32_t field = bits >> first;
    if (field & (field + 1))
        return false;                  /* holes */
    *count = (int)field + 1;
    *index = (LayoutTerm){.index = LAYOUT_WARP, .divisor = 1 << first, .count = *count, .scale = 1};
    return true;
}

static int old_reduce_warps(const LayoutMap *map, int d, LayoutTerm *index) {
    const LayoutDim *dim = &map->dims[d];
    if (dim->in_registers || dim->unique_threads <= dim->tpw)
        return 1;
    int warps = dim->unique_threads / dim->tpw;
    *index = (LayoutTerm){.index = LAYOUT_WARP, .divisor = map->warp_stride[dim->root_dim], .count = warps, .scale = 1};
    return warps;
}

/* Map: the warp bits whose basis moves along d number the warps holding
   distinct partials (zero-basis warp bits hold copies). */
int layout_reduce_warps(const LayoutMap *map, int d, LayoutTerm *index) {
    if (!map->linear)
        return old_reduce_warps(map, d, index);
    uint32_t bits = linear_bits_along(map->linear, 2, d);
    int count;
    if (!bits)
        return 1;
    if (!warp_field(bits, index, &count))
        return old_reduce_warps(map, d, index);
    return count;
}

static int old_warps_along(const LayoutMap *map, int d, LayoutTerm *index) {
    const LayoutDim *dim = &map->dims[d];
    *index = (LayoutTerm){.index = LAYOUT_WARP, .divisor = map->warp_stride[dim->root_dim], .count = dim->wpc, .scale = 1};
    return dim->wpc;
}

/* Map: the warp bits that move along d. A warp bit with a zero basis
   (warps holding copies: a tile shorter than the layout's warps, or fewer
   layout warps than the kernel's) names no dim, while the blocked answer
   counts it along the dim whose warps_per_cta it is part of; and a dim
   with no warps has no field to name its divisor. Those keep the old path. */
int layout_warps_along(const LayoutMap *map, int d, LayoutTerm *index) {
    const LinearLayout *l = map->linear;
    if (!l || linear_free_bits(l, 2))
        return old_warps_along(map, d, index);
    uint32_t bits = linear_bits_along(l, 2, d);
    int count;
    if (!bits || !warp_field(bits, index, &count))
        return old_warps_along(map, d, index);
    return count;
}

/* ---- constructing layouts ------------------------------------------------------ */

static Layout *layout_new(IrKernel *kernel, LayoutKind kind, int rank) {
    Layout *l = ARENA_NEW(&kernel->arena, Layout);
    l->kind = kind;
    l->rank = rank;
    return l;
}

const Layout *layout_blocked_default(IrKernel *kernel, const IrType *shape, int threads) {
    int rank = shape->rank;
    Layout *l = layout_new(kernel, LAYOUT_BLOCKED, rank);
    for (int d = 0; d < rank; d++) {
        l->size_per_thread[d] = 1;
        l->threads_per_warp[d] = 1;
        l->warps_per_cta[d] = 1;
        l->order[d] = rank - 1 - d;
    }
    if (rank == 0)
        return l;
    int bytes = dtype_bytes(shape->dtype);
    int64_t last = shape->dims[rank - 1].size;
    int64_t vec = layout_is_pow2(last) ? 16 / (bytes > 0 ? bytes : 1) : 1;
    if (vec > last)
        vec = last;
    /* Fewer elements per thread when the tile would leave threads idle. */
    int64_t elements = ir_type_elements(shape);
    while (vec > 1 && elements / vec < threads)
        vec /= 2;
    l->size_per_thread[rank - 1] = (int)vec;

    int lanes = 32;
    for (int d = rank - 1; d >= 0 && lanes > 1; d--) {
        int64_t size = shape->dims[d].size;
        int64_t avail = layout_is_pow2(size) ? size / l->size_per_thread[d] : 1;
        int t = 1;
        while (t * 2 <= lanes && t * 2 <= avail)
            t *= 2;
        l->threads_per_warp[d] = t;
        lanes /= t;
    }
    int warps = threads / 32 > 0 ? threads / 32 : 1;
    for (int d = 0; d < rank && warps > 1; d++) {
        int64_t size = shape->dims[d].size;
        int64_t avail = layout_is_pow2(size) ? size / ((int64_t)l->size_per_thread[d] * l->threads_per_warp[d]) : 1;
        int w = 1;
        while (w * 2 <= warps && w * 2 <= avail && warps % (w * 2) == 0)
            w *= 2;
        l->warps_per_cta[d] = w;
        warps /= w;
    }
    /* Threads left over (a tile smaller than the block) hold copies. */
    return l;
}

const Layout *layout_slice(IrKernel *kernel, const Layout *parent, int dim) {
    Layout *l = layout_new(kernel, LAYOUT_SLICE, parent->rank - 1);
    l->parent = parent;
    l->slice_dim = dim;
    return l;
}

/* The layout of a value with a unit dim inserted at `pos`, holding the same
   registers in the same order. */
static const Layout *layout_insert_unit(IrKernel *kernel, const Layout *from, int pos) {
    if (from->kind == LAYOUT_SLICE) {
        if (pos == from->slice_dim)
            return from->parent;
        if (pos < from->slice_dim)
            return layout_slice(kernel, layout_insert_unit(kernel, from->parent, pos), from->slice_dim + 1);
        return layout_slice(kernel, layout_insert_unit(kernel, from->parent, pos + 1), from->slice_dim);
    }
    Layout *l = layout_new(kernel, LAYOUT_BLOCKED, from->rank + 1);
    for (int d = 0, s = 0; d < l->rank; d++) {
        if (d == pos) {
            l->size_per_thread[d] = l->threads_per_warp[d] = l->warps_per_cta[d] = 1;
            continue;
        }
        l->size_per_thread[d] = from->size_per_thread[s];
        l->threads_per_warp[d] = from->threads_per_warp[s];
        l->warps_per_cta[d] = from->warps_per_cta[s];
        s++;
    }
    for (int i = 0; i < from->rank; i++)
        l->order[i] = from->order[i] >= pos ? from->order[i] + 1 : from->order[i];
    l->order[from->rank] = pos;   /* slowest: it has one lane and one warp */
    return l;
}

/* ---- the plan ------------------------------------------------------------------- */

typedef struct Assign {
    KernelPlan *plan;
    IrKernel *kernel;
    int next_op;
    bool mma_rows;                     /* tensor-core dots put all warps along M (mma_layout) */
    int *uses;                         /* by value id: how many operands name it */
} Assign;

static ValuePlan *vplan(Assign *A, const IrValue *v) { return &A->plan->values[v->id]; }

static bool is_tile(const IrValue *v) { return v->type.kind == IRT_TILE; }

static bool single_element(const IrValue *v) { return is_tile(v) && ir_type_elements(&v->type) == 1; }

/* Flexible for the purposes of a user: a splat it can rematerialize. */
static bool splat_source(Assign *A, const IrValue *v) {
    return is_tile(v) && (single_element(v) || vplan(A, v)->flexible);
}

static const Layout *default_for(Assign *A, const IrType *type) {
    return layout_blocked_default(A->kernel, type, A->plan->threads);
}

/* A broadcast of a non-splat source: its layout is open until a user
   decides it, since the lowering can broadcast its (smaller) source into
   any layout, through shared memory, without ever moving the big tile. */
static bool is_broadcast(const IrValue *v) {
    return v->def && v->def->opcode == IR_BROADCAST;
}

/* An open broadcast's own choice: its source's layout when that spreads
   the result no thinner than the default, else the default. */
static const Layout *broadcast_natural(Assign *A, IrValue *v) {
    IrValue *src = v->def->operands[0];
    const Layout *from = A->plan->values[src->id].layout;
    const Layout *dflt = default_for(A, &v->type);
    if (from && src->type.rank == v->type.rank &&
        layout_regs_per_thread(from, &v->type) <= layout_regs_per_thread(dflt, &v->type))
        return from;
    return dflt;
}

static const Layout *scalar_layout(Assign *A) {
    IrType t = ir_scalar_type(DT_I32);
    return default_for(A, &t);
}

/* A concrete layout for `v` now (flexible values get the default). */
static const Layout *concrete(Assign *A, IrValue *v) {
    ValuePlan *p = vplan(A, v);
    if (!p->layout)
        p->layout = v->type.rank == 0 ? scalar_layout(A) :
                    !p->flexible && is_broadcast(v) ? broadcast_natural(A, v) : default_for(A, &v->type);
    return p->layout;
}

static bool is_open(Assign *A, const IrValue *v) {
    return is_tile(v) && v->type.rank > 0 && !vplan(A, v)->flexible && !vplan(A, v)->layout;
}

static void set_result(Assign *A, IrValue *v, const Layout *layout, bool flexible) {
    ValuePlan *p = vplan(A, v);
    if (v->type.kind != IRT_TILE) {
        p->layout = NULL;
        p->flexible = false;
        return;
    }
    if (v->type.rank == 0) {
        p->layout = scalar_layout(A);
        p->flexible = false;
        return;
    }
    p->layout = layout;
    p->flexible = flexible;
}

static const Layout **operand_array(Assign *A, IrOp *op) {
    OpPlan *p = layout_op_plan(A->plan, op);
    if (!p->operand_layouts)
        p->operand_layouts = ARENA_ARRAY(&A->kernel->arena, const Layout *, op->num_operands + 1);
    return p->operand_layouts;
}

/* Does the reshape only add or drop unit dims? */
static bool unit_dims_only(const IrType *from, const IrType *to) {
    int64_t a[IR_MAX_RANK], b[IR_MAX_RANK];
    int na = 0, nb = 0;
    for (int d = 0; d < from->rank; d++)
        if (from->dims[d].size != 1)
            a[na++] = from->dims[d].size;
    for (int d = 0; d < to->rank; d++)
        if (to->dims[d].size != 1)
            b[nb++] = to->dims[d].size;
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static const Layout *reshape_layout(Assign *A, const Layout *layout, const IrType *from, const IrType *to) {
    bool same = from->rank == to->rank;
    for (int d = 0; same && d < from->rank; d++)
        same = from->dims[d].size == to->dims[d].size;
    if (same)
        return layout;
    for (int d = from->rank - 1; d >= 0; d--)
        if (from->dims[d].size == 1)
            layout = layout_slice(A->kernel, layout, d);
    for (int d = 0; d < to->rank; d++)
        if (to->dims[d].size == 1)
            layout = layout_insert_unit(A->kernel, layout, d);
    return layout;
}

static void assign_block(Assign *A, IrBlock *block);

static void assign_elementwise(Assign *A, IrOp *op) {
    IrValue *r = op->results[0];
    bool flexible = true;
    for (int i = 0; i < op->num_operands; i++)
        flexible &= splat_source(A, op->operands[i]);
    const Layout **want = operand_array(A, op);
    if (r->type.rank == 0 || flexible) {
        set_result(A, r, NULL, true);
        for (int i = 0; i < op->num_operands; i++)
            want[i] = NULL;
        return;
    }
    /* An index expression (a mask from iotas) is recomputed in any layout
       for free (convert.c's remat): the data operands decide, so that a
       dot's result is not moved to the mask's layout. */
    bool data_operand = false;
    for (int i = 0; i < op->num_operands; i++) {
        IrValue *v = op->operands[i];
        data_operand |= !splat_source(A, v) && !is_open(A, v) && !convert_can_remat(A->plan, v);
    }
    const Layout *best = NULL;
    int64_t best_regs = 0;
    for (int i = 0; i < op->num_operands; i++) {
        IrValue *v = op->operands[i];
        if (splat_source(A, v) || is_open(A, v) || (data_operand && convert_can_remat(A->plan, v)))
            continue;
        int64_t regs = layout_regs_per_thread(vplan(A, v)->layout, &r->type);
        if (!best || regs < best_regs) {
            best = vplan(A, v)->layout;
            best_regs = regs;
        }
    }
    for (int i = 0; !best && i < op->num_operands; i++)
        if (is_open(A, op->operands[i]))
            best = concrete(A, op->operands[i]);
    for (int i = 0; i < op->num_operands; i++)
        if (is_open(A, op->operands[i]))
            vplan(A, op->operands[i])->layout = best;
    set_result(A, r, best, false);
    for (int i = 0; i < op->num_operands; i++)
        want[i] = best;
}

static void assign_shape_op(Assign *A, IrOp *op) {
    IrValue *src = op->operands[0], *r = op->results[0];
    OpPlan *p = layout_op_plan(A->plan, op);
    const Layout **want = operand_array(A, op);
    want[0] = NULL;
    p->via_shared = false;
    if (splat_source(A, src)) {
        set_result(A, r, NULL, true);
        return;
    }
    const Layout *from = concrete(A, src);
    const Layout *dflt = default_for(A, &r->type);
    if (op->opcode == IR_BROADCAST) {
        set_result(A, r, NULL, false);   /* open: see is_broadcast */
        return;
    }
    if (op->opcode == IR_RESHAPE && unit_dims_only(&src->type, &r->type)) {
        set_result(A, r, reshape_layout(A, from, &src->type, &r->type), false);
        return;
    }
    p->via_shared = true;
    set_result(A, r, dflt, false);
}

static void assign_for(Assign *A, IrOp *op) {
    IrBlock *body = op->body;
    int n = op->num_results;
    const Layout **want = operand_array(A, op);
    set_result(A, body->args[0], NULL, false);
    /* Round 1: arguments with flexible inits stay open. */
    for (int i = 0; i < n; i++) {
        IrValue *init = op->operands[3 + i], *arg = body->args[i + 1];
        if (splat_source(A, init) && arg->type.rank > 0)
            set_result(A, arg, NULL, true);
        else
            set_result(A, arg, concrete(A, init), false);
    }
    int saved = A->next_op;
    assign_block(A, body);
    IrOp *yield = body->last;
    /* Round 2: every argument has a layout. */
    for (int i = 0; i < n; i++) {
        IrValue *init = op->operands[3 + i], *arg = body->args[i + 1];
        const Layout *l = NULL;
        if (yield && yield->opcode == IR_YIELD && i < yield->num_operands && !splat_source(A, yield->operands[i]))
            l = concrete(A, yield->operands[i]);
        if (!l && !splat_source(A, init))
            l = vplan(A, init)->layout;
        if (!l)
            l = arg->type.rank == 0 ? scalar_layout(A) : default_for(A, &arg->type);
        set_result(A, arg, l, false);
        set_result(A, op->results[i], vplan(A, arg)->layout, false);
        want[3 + i] = vplan(A, arg)->layout;
    }
    A->next_op = saved;
    assign_block(A, body);
    if (yield && yield->opcode == IR_YIELD) {
        const Layout **ywant = operand_array(A, yield);
        for (int i = 0; i < yield->num_operands && i < n; i++)
            ywant[i] = vplan(A, body->args[i + 1])->layout;
    }
}

static void assign_if(Assign *A, IrOp *op) {
    assign_block(A, op->body);
    if (op->else_body)   /* tile IR text may leave out an else without results */
        assign_block(A, op->else_body);
    IrOp *ty = op->body->last, *ey = op->else_body ? op->else_body->last : NULL;
    for (int i = 0; i < op->num_results; i++) {
        const Layout *l = NULL;
        if (ty && ty->opcode == IR_YIELD && i < ty->num_operands && !splat_source(A, ty->operands[i]))
            l = concrete(A, ty->operands[i]);
        if (!l && ey && ey->opcode == IR_YIELD && i < ey->num_operands && !splat_source(A, ey->operands[i]))
            l = concrete(A, ey->operands[i]);
        IrValue *r = op->results[i];
        if (!l && is_tile(r))
            l = r->type.rank == 0 ? scalar_layout(A) : default_for(A, &r->type);
        set_result(A, r, l, false);
    }
    IrOp *yields[2] = {ty, ey};
    for (int k = 0; k < 2; k++) {
        if (!yields[k] || yields[k]->opcode != IR_YIELD)
            continue;
        const Layout **want = operand_array(A, yields[k]);
        for (int i = 0; i < yields[k]->num_operands && i < op->num_results; i++)
            want[i] = vplan(A, op->results[i])->layout;
    }
}

/* ---- tensor cores ---------------------------------------------------------------- */

/* The accumulator layout of mma.sync.m16n8k16 is a blocked layout: lanes
   as 8 rows x 4 column pairs (lane = 4 * row + pair, the PTX fragment's
   groupID and threadID_in_group), size_per_thread [1, 2], warps [wm, wn].
   A thread holds rows r0 + 8 * wm * i and columns c0 + 8 * wn * j + {0, 1}.
   Two of its row registers make the two 8-row halves of one m16 tile and
   each column pair one n8 tile: the mma does not care which rows of the
   tile these are, as long as the A fragment is loaded from the same rows
   and B from the same columns (llvm_dot.c). So the accumulator is an
   ordinary blocked layout that every other op already handles.

   Warps: when a dot's result is reduced or feeds another dot (flash
   attention: row max, then p @ v), all warps go along M so that each row
   stays in one warp (no cross-warp reduction, and both dots agree). Else
   the warp tile is kept square, which minimises the shared-memory bytes
   each warp reads per k step. */
static const Layout *mma_layout(Assign *A, IrOp *op, bool wgmma) {
    IrValue *av = op->operands[0], *bv = op->operands[1], *r = op->results[0];
    DType in = av->type.dtype;
    if ((in != DT_F16 && in != DT_BF16) || bv->type.dtype != in || r->type.dtype != DT_F32 ||
        av->type.rank != 2 || bv->type.rank != 2)
        return NULL;
    int64_t m = r->type.dims[0].size, n = r->type.dims[1].size, k = av->type.dims[1].size;
    if (!layout_is_pow2(m) || !layout_is_pow2(n) || m < 16 || n < 8 || k % 16 != 0)
        return NULL;
    int warps = A->plan->threads / 32, wm = 1, wn = 1;
    if (wgmma)   /* plan_wgmma: warpgroups' m64 tiles, every warp along M */
        wm = warps;
    if (A->mma_rows)
        while (wm * wn < warps && m % (32 * wm) == 0)
            wm *= 2;
    while (wm * wn < warps) {
        bool more_m = m % (32 * wm) == 0, more_n = n % (16 * wn) == 0;
        if (more_m && (!more_n || m / wm >= n / wn))
            wm *= 2;
        else if (more_n)
            wn *= 2;
        else
            return NULL;   /* too small a tile for the warps: FMAs */
    }
    Layout *l = layout_new(A->kernel, LAYOUT_BLOCKED, 2);
    l->size_per_thread[0] = 1;
    l->size_per_thread[1] = 2;
    l->threads_per_warp[0] = 8;
    l->threads_per_warp[1] = 4;
    l->warps_per_cta[0] = wm;
    l->warps_per_cta[1] = wn;
    l->order[0] = 1;
    l->order[1] = 0;
    return l;
}

/* Whether some reduce or dot consumes a value computed from a dot's result
   (through elementwise and shape ops): the mma_rows rule above. */
static bool dot_feeds_rows(IrBlock *block, bool *from_dot) {
    bool found = false;
    for (IrOp *op = block->first; op; op = op->next) {
        bool in = false;
        for (int i = 0; i < op->num_operands; i++)
            in |= from_dot[op->operands[i]->id];
        if (op->opcode == IR_REDUCE && in)
            found = true;
        if (op->opcode == IR_DOT && (from_dot[op->operands[0]->id] || from_dot[op->operands[1]->id]))
            found = true;
        bool passes = op->opcode == IR_DOT ||
                      (in && (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode) ||
                              op->opcode == IR_SELECT || op->opcode == IR_CAST || op->opcode == IR_BITCAST || op->opcode == IR_BROADCAST ||
                              op->opcode == IR_RESHAPE || op->opcode == IR_TRANSPOSE || op->opcode == IR_EXTRACT ||
                              op->opcode == IR_PERMUTE || op->opcode == IR_FLIP));
        for (int i = 0; i < op->num_results; i++)
            from_dot[op->results[i]->id] = passes;
        if (op->body)
            found |= dot_feeds_rows(op->body, from_dot);
        if (op->else_body)
            found |= dot_feeds_rows(op->else_body, from_dot);
    }
    return found;
}

const IrOp *layout_alloc_of(const IrValue *ref) {
    ref = ir_view_root(ref);
    return ref->def && ref->def->opcode == IR_ALLOC ? ref->def : NULL;
}

/* The block a persistent kernel's tile loop runs (passes/persist.c: the
   kernel body's one `for` from program_id 0), or NULL. */
const IrBlock *layout_tile_loop_body(const IrKernel *kernel) {
    if (!ir_grid_persistent(kernel))
        return NULL;
    for (const IrOp *op = kernel->body->first; op; op = op->next)
        if (op->opcode == IR_FOR && op->operands[0]->def && op->operands[0]->def->opcode == IR_PROGRAM_ID)
            return op->body;
    return NULL;
}

DType layout_fp8_dtype(const OpPlan *dot, int operand) {
    return dot->op->operands[operand]->def->operands[0]->type.dtype;   /* x8.T has x8's dtype */
}

const IrValue *layout_in_place_ref(const OpPlan *dot, int operand) {
    const IrOp *op = dot->op;
    if (dot->mma_fp8) {   /* through the elided cast (and B's transpose) to the load */
        const IrValue *v = op->operands[operand]->def->operands[0];
        if (operand == 1)
            v = v->def->operands[0];
        return (operand == 0 ? dot->mma_a_shared : dot->mma_b_shared) ? v->def->operands[0] : NULL;
    }
    if (operand == 0)
        return dot->mma_a_shared ? op->operands[0]->def->operands[0] : NULL;
    if (!dot->mma_b_shared)
        return NULL;
    const IrValue *x = dot->mma_b_transposed ? op->operands[1]->def->operands[0] : op->operands[1];
    return x->def->operands[0];
}

/* Whether `op`, or an op in its regions, may write `alloc`. */
static bool writes_alloc(const IrOp *op, const IrOp *alloc) {
    if ((op->opcode == IR_STORE || op->opcode == IR_ATOMIC || op->opcode == IR_ASYNC_COPY) &&
        layout_alloc_of(op->operands[0]) == alloc)
        return true;
    const IrBlock *blocks[2] = {op->body, op->else_body};
    for (int k = 0; k < 2; k++)
        for (const IrOp *o = blocks[k] ? blocks[k]->first : NULL; o; o = o->next)
            if (writes_alloc(o, alloc))
                return true;
    return false;
}

/* Whether `ref` is an alloc seen through views that only index its leading
   dims: its last two dims whole, from a slot's start. */
static bool views_keep_rows(const IrValue *ref) {
    while (ref->def && ref->def->opcode == IR_VIEW) {
        const IrOp *view = ref->def;
        const IrValue *src = view->operands[0];
        for (int d = 0; d < src->type.rank; d++)
            if (view->view_dims[d].kind == VIEW_RANGE ||
                (view->view_dims[d].kind == VIEW_INDEX && d >= src->type.rank - 2))
                return false;
        ref = src;
    }
    return true;
}

/* Whether a tensor-core dot reads operand `v` in place with ldmatrix: `v`
   is an unmasked load, used once, of an alloc seen through views that only
   index leading dims (the rows stay whole, 16-byte aligned, at the alloc's
   pitch): a ring slot of passes/pipeline.c or a stationary buffer. The dot
   reads the bytes when it runs, not when the load would have: same block,
   and no write of the alloc in between (shared_alloc.c keeps the alloc
   live until the dot). */
static bool in_place_operand(Assign *A, const IrOp *dot, const IrValue *v) {
    const IrOp *load = v->def;
    if (!load || load->opcode != IR_LOAD || load->num_operands != 1 || A->uses[v->id] != 1 || v->type.rank != 2 ||
        load->parent != dot->parent)
        return false;
    const IrOp *alloc = layout_alloc_of(load->operands[0]);
    if (!alloc || alloc->results[0]->type.space != SPACE_SHARED)
        return false;
    for (const IrOp *op = load->next; op && op != dot; op = op->next)
        if (writes_alloc(op, alloc))
            return false;
    return views_keep_rows(load->operands[0]);
}

/* The global sectors (32 bytes) a store of `type` in `layout` writes, at
   the vector width the store lowering uses (layout_contiguous_run, at most
   16 bytes), and the fewest its bytes need; false where the map is
   missing. */
static bool store_sectors(Assign *A, const Layout *layout, const IrType *type, int64_t *sectors, int64_t *ideal) {
    const LayoutMap *map = layout_map_new(A->kernel, layout, type);
    const LinearLayout *l = layout_map_linear(map);
    if (!l)
        return false;
    int bytes = dtype_bytes(type->dtype);
    int64_t vec = layout_contiguous_run(map, type->rank - 1);
    while (vec > 1 && vec * bytes > 16)
        vec /= 2;
    *sectors = linear_global_sectors(l, bytes, (int)vec, ideal);
    return *sectors >= 0;
}

/* Whether an op from `op` on (and in the blocks nested in them) uses an
   alloc: one live across the ops before it. A persistent tile loop's
   stationary operand, allocated in front of the loop (prefetch.c stores
   the next tile's at the end of the trip), does not count where its bytes
   and the conversion's (`need`) fit in the target's shared memory together:
   they are live together then, and nothing else is. */
static bool uses_alloc_from(const Assign *A, const IrOp *op, int64_t need) {
    for (; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++) {
            const IrOp *alloc = op->operands[i]->type.kind == IRT_REF ? layout_alloc_of(op->operands[i]) : NULL;
            if (!alloc)
                continue;
            const IrType *t = &alloc->results[0]->type;
            bool stationary = op->opcode == IR_STORE && i == 0 && alloc->parent == A->kernel->body &&
                              op->parent == layout_tile_loop_body(A->kernel);
            if (!stationary || ir_type_elements(t) * dtype_bytes(t->dtype) + need > A->plan->target->shared_bytes_max)
                return true;
        }
        if ((op->body && uses_alloc_from(A, op->body->first, need)) ||
            (op->else_body && uses_alloc_from(A, op->else_body->first, need)))
            return true;
    }
    return false;
}

/* Epilogue stores (docs/codegen.md, "Epilogue stores"). A store whose
   value's layout writes partly filled 32-byte sectors (a dot's accumulator
   cast to f16: each thread a pair of columns, a warp 8 rows of 16 bytes
   each) where the default layout (16-byte vectors, whole rows to a warp)
   writes fewer: the tile goes through shared memory into the default
   layout first (convert.c pads the buffer's rows against bank conflicts),
   as Triton converts an mma result before its store. It pays once per
   kernel, where the tile is written back: only for a store at the kernel's
   top level (its two barriers are outside every loop, and an `if` never
   holds them), with no alloc live from it on (the buffer then reuses the
   rings' and the dots' bytes), of a tile of at most 64 KB (with its row
   pad, inside every target's shared memory). */
static bool store_through_shared(Assign *A, const IrOp *store, const Layout *l) {
    const IrValue *ref = store->operands[0], *v = store->operands[1];
    /* at the top level of a persistent kernel's tile loop too: once a tile,
       and barrier.c orders its scratch against the next tile's ring copies
       across the back edge as it orders any two phases */
    bool top = store->parent == A->kernel->body || store->parent == layout_tile_loop_body(A->kernel);
    if (ref->type.space != SPACE_GLOBAL || v->type.rank < 2 || v->type.dtype == DT_BOOL || store->has_mask ||
        !top || ir_type_elements(&v->type) * dtype_bytes(v->type.dtype) > 65536)
        return false;
    const Layout *dflt = default_for(A, &v->type);
    int64_t sectors, ideal, dflt_sectors, dflt_ideal;
    if (layout_equal(l, dflt) || !store_sectors(A, l, &v->type, &sectors, &ideal) ||
        !store_sectors(A, dflt, &v->type, &dflt_sectors, &dflt_ideal))
        return false;
    /* the conversion's buffer, its rows padded by up to 16 bytes (convert.c) */
    int64_t rows = ir_type_elements(&v->type) / v->type.dims[v->type.rank - 1].size;
    int64_t need = ir_type_elements(&v->type) * dtype_bytes(v->type.dtype) + 16 * rows;
    return dflt_sectors < sectors && !uses_alloc_from(A, store->next, need);
}

/* The alloc `ref` views, its rows padded to layout_mma_pitch (16 bytes
   more than a row: the 8 rows of an ldmatrix matrix start in 8 different
   bank quads): the allocs dots read in place, and the rings async copies
   fill. */
/* Whether `v` is a load of an alloc in wgmma's swizzled layout, which
   ldmatrix cannot read in place (a stationary A that a wgmma dot reads
   and a later mma.sync dot loads: plan_wgmma). */
static bool swizzled_source(Assign *A, const IrValue *v) {
    const IrOp *alloc = v->def && v->def->opcode == IR_LOAD ? layout_alloc_of(v->def->operands[0]) : NULL;
    return alloc && layout_op_plan(A->plan, alloc)->alloc_swizzle.rows;
}

static void pad_alloc_rows(Assign *A, const IrValue *ref) {
    const IrOp *alloc = layout_alloc_of(ref);
    const IrType *t = alloc ? &alloc->results[0]->type : NULL;
    /* 16 bytes of padding a row: layout_mma_pitch's 8 elements of f16, 16 fp8 bytes */
    if (t && t->rank >= 2 && (dtype_bytes(t->dtype) == 2 || dtype_is_fp8(t->dtype)) &&
        !layout_op_plan(A->plan, alloc)->alloc_swizzle.rows)
        layout_op_plan(A->plan, alloc)->alloc_pitch = t->dims[t->rank - 1].size + 16 / dtype_bytes(t->dtype);
}

/* The fp8 tile that dot operand `v` is a cast of, when the cast is the
   dot's alone (lower.c writes dot(cast a8, cast b8) for an fp8 dot, f16
   holding every fp8 value exactly); NULL otherwise. */
static IrValue *fp8_cast_source(Assign *A, const IrValue *v) {
    const IrOp *c = v->def;
    if (!c || c->opcode != IR_CAST || A->uses[v->id] != 1 || v->type.dtype != DT_F16 ||
        !dtype_is_fp8(c->operands[0]->type.dtype) || splat_source(A, c->operands[0]))
        return NULL;
    return c->operands[0];
}

/* The fp8 dot of fp8 tensor cores: dot(cast a8, cast x8.T) (lower.c's
   form), each cast and the transpose used once: its a8 and x8 (NULL when
   `dot` is not one). */
static bool fp8_dot_sources(Assign *A, const IrOp *dot, IrValue **a8, IrValue **x8) {
    if (!dot->fp8)   /* lower.c's fp8 dot only: a dot the user wrote of f16 casts keeps f16's sum */
        return false;
    IrValue *a = fp8_cast_source(A, dot->operands[0]), *b = fp8_cast_source(A, dot->operands[1]);
    IrOp *t = b ? b->def : NULL;
    if (!a || !t || t->opcode != IR_TRANSPOSE || t->operands[0]->type.rank != 2 || A->uses[b->id] != 1 ||
        splat_source(A, t->operands[0]))
        return false;
    *a8 = a;
    *x8 = t->operands[0];
    return true;
}

/* fp8 tensor cores (docs/codegen.md, "fp8"): where the target has
   mma.sync.m16n8k32 for e4m3/e5m2 (sm_89 and up), dot(cast a8, cast b8)
   with k a multiple of 32 runs on it. The m16n8k32 fragments of 8-bit
   types are exactly m16n8k16's of byte pairs (PTX ISA 9.7.14.5.8), so the
   mma.sync machinery serves with k halved, provided B is k-major in
   shared memory ([n][k], ldmatrix without .trans: there is no 8-bit
   .trans before sm_100). So B must be x.T, x staged as it is (the "TN"
   layout that cuBLASLt's fp8 GEMMs require too). A [k, n] B stays on the
   f16 path: transposing its bytes into shared memory one st.shared.b8 at
   a time made the fp8 matmul slower than f16 tensor cores
   (docs/performance.md, "fp8 tensor cores"). The casts and the transpose
   are elided; each operand is read in place from a ring slot
   (passes/pipeline.c) or staged. On sm_90a, where plan_wgmma took the dot
   (both operands in place), it runs on wgmma's k32 form instead. Returns
   false (the f16 path) where the dot does not qualify. */
static bool fp8_mma(Assign *A, IrOp *op, const Layout **want) {
    IrValue *a8, *x8;
    if (!A->plan->target->mma_fp8 || op->operands[0]->type.rank != 2 || op->operands[0]->type.dims[1].size % 32 != 0 ||
        !fp8_dot_sources(A, op, &a8, &x8))
        return false;
    OpPlan *p = layout_op_plan(A->plan, op);
    const Layout *l = mma_layout(A, op, p->wgmma);   /* p->wgmma: plan_wgmma, the k32 form */
    if (!l) {
        p->wgmma = false;
        return false;
    }
    p->mma = p->mma_fp8 = true;
    set_result(A, op->results[0], l, false);
    layout_op_plan(A->plan, op->operands[0]->def)->elided = true;
    layout_op_plan(A->plan, op->operands[1]->def)->elided = true;
    p->mma_b_transposed = true;
    OpPlan *tp = layout_op_plan(A->plan, op->operands[1]->def->operands[0]->def);
    tp->elided = true;
    tp->via_shared = false;
    /* ring slots (passes/pipeline.c) read in place, as f16 ones */
    p->mma_a_shared = in_place_operand(A, op, a8);
    p->mma_b_shared = in_place_operand(A, op, x8);
    IrValue *sources[2] = {a8, x8};
    bool shared[2] = {p->mma_a_shared, p->mma_b_shared};
    for (int i = 0; i < 2; i++) {
        if (shared[i]) {
            layout_op_plan(A->plan, sources[i]->def)->elided = true;
            pad_alloc_rows(A, sources[i]->def->operands[0]);
        } else {
            concrete(A, sources[i]);
        }
    }
    if (op->num_operands > 2)
        want[2] = l;
    return true;
}

/* A's tile as wgmma would read it: a8 of an fp8 dot, else a. */
static IrValue *dot_a_source(Assign *A, const IrOp *dot) {
    IrValue *a8, *x8;
    return fp8_dot_sources(A, dot, &a8, &x8) ? a8 : dot->operands[0];
}

/* The x of dot(a, x.T) (its transpose used by the dot alone; x8 of an fp8
   dot), else b. */
static IrValue *dot_b_source(Assign *A, const IrOp *dot) {
    IrValue *a8, *x8;
    if (fp8_dot_sources(A, dot, &a8, &x8))
        return x8;
    IrValue *bv = dot->operands[1];
    IrOp *t = bv->def;
    bool b_t = t && t->opcode == IR_TRANSPOSE && t->operands[0]->type.rank == 2 && A->uses[bv->id] == 1;
    return b_t ? t->operands[0] : bv;
}

/* The dot (a wgmma candidate) that reads load `load` in place, and as
   which operand (0: A, 1: B); NULL when none does. */
static const OpPlan *wgmma_reader(Assign *A, const IrOp *load, int *role) {
    for (int i = 0; i < A->plan->num_ops; i++) {
        const OpPlan *p = &A->plan->ops[i];
        if (!p->wgmma)
            continue;
        if (dot_a_source(A, p->op) == load->results[0]) {
            *role = 0;
            return p;
        }
        if (dot_b_source(A, p->op) == load->results[0]) {
            *role = 1;
            return p;
        }
    }
    return NULL;
}

/* Whether an async copy writes `alloc` anywhere under `block`. */
static bool alloc_copied(const IrBlock *block, const IrOp *alloc) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next)
        if ((op->opcode == IR_ASYNC_COPY && layout_alloc_of(op->operands[0]) == alloc) ||
            alloc_copied(op->body, alloc) || alloc_copied(op->else_body, alloc))
            return true;
    return false;
}

/* Whether every use of `alloc` (through views) in `block` is an
   async_copy into it, whole rows of a slot, or a load that a wgmma
   candidate reads in place as operand `role` with `rows` x `cols`
   elements: what lets the alloc take that operand's swizzled layout. A
   stationary A (passes/pipeline.c: no copy fills it) may also be stored
   whole, and loaded whole by what does not read it in place (a later
   mma.sync dot's A, through its swizzled addresses: llvm_memory.c). */
static bool alloc_wgmma_uses(Assign *A, const IrBlock *block, const IrOp *alloc, int role, int64_t rows, int64_t cols,
                             bool stationary) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        for (int i = 0; i < op->num_operands; i++) {
            const IrValue *v = op->operands[i];
            if (v->type.kind != IRT_REF || layout_alloc_of(v) != alloc || op->opcode == IR_VIEW)
                continue;
            if (op->opcode == IR_ASYNC_COPY && i == 0 && views_keep_rows(v))
                continue;
            bool whole = stationary && v == alloc->results[0];
            if (whole && op->opcode == IR_STORE && i == 0 && op->num_operands == 2)
                continue;   /* the same shape as the alloc's: a store checks it */
            int r = -1;
            const IrType *t = op->num_results ? &op->results[0]->type : NULL;
            if (whole && op->opcode == IR_LOAD && op->num_operands == 1 && !wgmma_reader(A, op, &r))
                continue;
            if (op->opcode != IR_LOAD || !wgmma_reader(A, op, &r) || r != role || t->dims[0].size != rows ||
                t->dims[1].size != cols)
                return false;
        }
        if (!alloc_wgmma_uses(A, op->body, alloc, role, rows, cols, stationary) ||
            !alloc_wgmma_uses(A, op->else_body, alloc, role, rows, cols, stationary))
            return false;
    }
    return true;
}

/* The swizzle an operand's alloc gets for wgmma (codegen.h SharedSwizzle),
   its rows and cols those of the tile the dot reads (rows x contiguous);
   false when the alloc cannot have it: another use (alloc_wgmma_uses), a
   slot whose bytes are not a whole number of the 1024-byte swizzle
   pattern. */
static bool wgmma_swizzle(Assign *A, const IrValue *load_value, int role, SharedSwizzle *out) {
    const IrOp *alloc = layout_alloc_of(load_value->def->operands[0]);
    int64_t rows = load_value->type.dims[0].size, cols = load_value->type.dims[1].size;
    int eb = dtype_bytes(load_value->type.dtype), widest = 128 / eb;   /* 128-byte panels at most */
    /* a stationary buffer only at --stationary=shared: the default keeps
       mma.sync's in-place ldmatrix of it (not measured against wgmma's) */
    bool stationary = role == 0 && A->kernel->stationary_shared && alloc->results[0]->type.rank == 2 &&
                      !alloc_copied(A->kernel->body, alloc);
    if (!layout_is_pow2(rows) || !layout_is_pow2(cols) || rows < 8 || cols * eb < 32 || rows * cols * eb % 1024 != 0 ||
        !alloc_wgmma_uses(A, A->kernel->body, alloc, role, rows, cols, stationary))
        return false;
    *out = (SharedSwizzle){.rows = rows, .cols = cols, .panel = cols < widest ? (int)cols : widest, .elem_bytes = eb,
                           .permute_rows = role == 0};
    if (role == 0) {
        out->warps = A->plan->threads / 32;
        out->slabs = (int)(rows / (16 * out->warps));
    }
    return true;
}

/* Whether `op` may run as wgmma by itself: shapes, dtypes, warps, B read
   in place (A in place or from registers). */
static bool wgmma_dot_fits(Assign *A, const IrOp *op) {
    IrValue *av = op->operands[0], *bv = op->operands[1], *r = op->results[0];
    DType in = av->type.dtype;
    int warps = A->plan->threads / 32;
    /* fp8 (m64nNk32, docs/codegen.md "fp8 tensor cores"): both operands
       k-major and in place (no register A for 8-bit types here) */
    IrValue *a8, *x8;
    bool fp8 = fp8_dot_sources(A, op, &a8, &x8);
    if (fp8 && (!A->plan->target->mma_fp8 || av->type.dims[1].size % 32 != 0 || !in_place_operand(A, op, a8)))
        return false;
    if (fp8)
        av = a8;
    if ((in != DT_F16 && in != DT_BF16) || bv->type.dtype != in || r->type.dtype != DT_F32 || av->type.rank != 2 ||
        bv->type.rank != 2 || warps % 4 != 0)
        return false;
    int64_t m = r->type.dims[0].size, n = r->type.dims[1].size, k = av->type.dims[1].size;
    if (!layout_is_pow2(m) || !layout_is_pow2(n) || !layout_is_pow2(k) || m % (16 * warps) != 0 || n < 16 ||
        n > 256 || k < 16)
        return false;
    /* One m64nNk16 holds N / 2 accumulator registers a thread, and ptxas
       needs about 26 more around it (its C7602 asks for 154 at N = 256);
       a thread has 65536 / threads of them (at most 255). Beyond: mma.sync. */
    int64_t registers = 65536 / A->plan->threads;
    if (n / 2 + 32 > (registers < 255 ? registers : 255))
        return false;
    IrValue *b_source = dot_b_source(A, op);
    return in_place_operand(A, op, b_source) &&
           !(in_place_operand(A, op, av) &&
             layout_alloc_of(av->def->operands[0]) == layout_alloc_of(b_source->def->operands[0]));
}

/* wgmma (sm_90a; docs/codegen.md "wgmma"), decided for every dot before
   layouts are assigned. A dot of f16 or bf16 into f32 whose B (or x of
   B = x.T) is a load of an alloc that only async copies fill (a ring of
   passes/pipeline.c), A the same or a tile in registers, runs as
   wgmma.mma_async.m64nNk16: B, and A when in place, read through matrix
   descriptors from their allocs, which get the swizzled layouts wgmma
   reads (A K-major, B N-major or, for B = x.T, K-major: SharedSwizzle); A
   from registers in the accumulator's layout (its fragments are mma.sync's).
   The accumulator stays in the mma layout with every warp along M
   (mma_layout), whose row registers i of warp w hold rows 8 W i + 8 w +
   lane / 4 (W warps): warpgroup g's m64 tile s is the alloc's rows
   64 (g S + s) .. + 63, and A's rows are stored permuted
   (SharedSwizzle.permute_rows) so that those are the rows the mma layout
   gives its threads (a product's rows are its A's, so p @ v with p from
   q @ k.T keeps the order). Needs whole warpgroups, m a multiple of 64 per
   warpgroup, n <= 256. Every dot that reads an alloc must agree on it
   (the same operand, shape): candidates are dropped until they do. */
static void plan_wgmma(Assign *A) {
    KernelPlan *plan = A->plan;
    if (!plan->target->wgmma)
        return;
    for (int i = 0; i < plan->num_ops; i++)
        plan->ops[i].wgmma = plan->ops[i].op->opcode == IR_DOT && wgmma_dot_fits(A, plan->ops[i].op);
    SharedSwizzle swizzle;
    for (bool dropped = true; dropped;) {
        dropped = false;
        for (int i = 0; i < plan->num_ops; i++) {
            OpPlan *p = &plan->ops[i];
            if (!p->wgmma)
                continue;
            const IrValue *av = dot_a_source(A, p->op);
            bool ok = wgmma_swizzle(A, dot_b_source(A, p->op), 1, &swizzle) &&
                      (!in_place_operand(A, p->op, av) || wgmma_swizzle(A, av, 0, &swizzle));
            if (!ok) {
                p->wgmma = false;
                dropped = true;
            }
        }
    }
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        if (!p->wgmma)
            continue;
        IrValue *av = dot_a_source(A, p->op);
        const IrValue *operands[2] = {in_place_operand(A, p->op, av) ? av : NULL, dot_b_source(A, p->op)};
        for (int role = 0; role < 2; role++) {
            if (!operands[role])
                continue;
            OpPlan *alloc = layout_op_plan(plan, layout_alloc_of(operands[role]->def->operands[0]));
            wgmma_swizzle(A, operands[role], role, &alloc->alloc_swizzle);
            alloc->alloc_pitch = 0;
        }
        plan->wgmma = true;
    }
}

/* How a scan along `axis` runs on `layout` (OpPlan.scan_*): false where
   threads along the axis hold copies (a dim shorter than the layout's
   reach), which the scan's lane and warp steps would count twice. A dim
   that is not a power of two lives in every thread's registers: one run. */
static bool scan_shape(const Layout *layout, const IrType *shape, int axis, OpPlan *p) {
    LayoutMap map;
    layout_map(layout, shape, &map);
    const LayoutDim *d = &map.dims[axis];
    if (d->in_registers) {
        p->scan_chunk = (int)d->size;
        p->scan_lanes = p->scan_warps = p->scan_reps = 1;
        return true;
    }
    if (d->reach > d->size || d->size % d->reach != 0 || (int64_t)d->spt * d->tpw * d->wpc != d->reach)
        return false;
    p->scan_chunk = d->spt;
    p->scan_lanes = d->tpw;
    p->scan_warps = d->wpc;
    p->scan_reps = (int)(d->size / d->reach);
    return true;
}

static void assign_op(Assign *A, IrOp *op) {
    A->next_op++;
    const Layout **want = operand_array(A, op);
    for (int i = 0; i < op->num_operands; i++)
        want[i] = NULL;
    layout_op_plan(A->plan, op)->via_shared = false;
    IrValue *r = op->num_results > 0 ? op->results[0] : NULL;
    switch (op->opcode) {
    case IR_CONST: set_result(A, r, NULL, true); return;
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS: set_result(A, r, NULL, false); return;
    case IR_IOTA: set_result(A, r, default_for(A, &r->type), false); return;
    case IR_BROADCAST:
    case IR_RESHAPE:
    case IR_TRANSPOSE:
    case IR_PERMUTE:
    case IR_FLIP:
    case IR_EXTRACT: assign_shape_op(A, op); return;
    case IR_REDUCE: {
        const Layout *from = concrete(A, op->operands[0]);
        set_result(A, r, layout_slice(A->kernel, from, op->axis), false);
        return;
    }
    case IR_SCAN: {
        /* in the operand's layout where the scan can run there, else the
           default's (whose dims are never shorter than its reach) */
        OpPlan *p = layout_op_plan(A->plan, op);
        const Layout *from = splat_source(A, op->operands[0]) ? default_for(A, &r->type) : concrete(A, op->operands[0]);
        if (!scan_shape(from, &r->type, op->axis, p)) {
            from = default_for(A, &r->type);
            if (!scan_shape(from, &r->type, op->axis, p))
                INTERNAL_ERROR("kernel '%s': no layout for a scan along axis %d", A->kernel->name, op->axis);
        }
        want[0] = from;
        set_result(A, r, from, false);
        return;
    }
    case IR_DOT: {
        OpPlan *p = layout_op_plan(A->plan, op);
        if (fp8_mma(A, op, want))
            return;
        const Layout *l = mma_layout(A, op, p->wgmma);   /* p->wgmma: plan_wgmma */
        p->mma = l != NULL;
        p->wgmma = p->wgmma && l;
        if (!l)
            l = default_for(A, &r->type);
        set_result(A, r, l, false);
        /* With one warp across N, A in the accumulator's own layout holds in
           each thread exactly its A fragments (rows as the accumulator's,
           k pairs as its column pairs): the dot takes them from registers
           (llvm_dot.c). That is free for a tile computed in that layout (p in
           flash attention) and, for a loop-invariant A (q), a conversion
           the lowering does once before the loop. */
        int64_t k = op->operands[0]->type.dims[op->operands[0]->type.rank - 1].size;
        p->mma_a_shared = p->mma && in_place_operand(A, op, op->operands[0]) &&
                          (p->wgmma || !swizzled_source(A, op->operands[0]));
        if (p->mma_a_shared) {
            layout_op_plan(A->plan, op->operands[0]->def)->elided = true;
            pad_alloc_rows(A, op->operands[0]->def->operands[0]);
        }
        else if (p->mma && l->warps_per_cta[1] == 1 && layout_is_pow2(k) &&
                 (p->wgmma || !splat_source(A, op->operands[0])))
            want[0] = l;   /* wgmma: even a splat (re-spread, no code), since it stages nothing */
        else
            concrete(A, op->operands[0]);
        /* dot(a, x.T) on tensor cores reads B's fragments from x staged as
           it is (ldmatrix without .trans), so the transpose, whose only user
           this is, never goes through shared memory itself. */
        IrOp *t = op->operands[1]->def;
        p->mma_b_transposed = p->mma && t && t->opcode == IR_TRANSPOSE && t->operands[0]->type.rank == 2 &&
                              A->uses[op->operands[1]->id] == 1 && !splat_source(A, t->operands[0]);
        IrValue *b_source = p->mma_b_transposed ? t->operands[0] : op->operands[1];
        p->mma_b_shared = p->mma && in_place_operand(A, op, b_source) && (p->wgmma || !swizzled_source(A, b_source));
        if (p->mma_b_shared) {
            layout_op_plan(A->plan, b_source->def)->elided = true;
            pad_alloc_rows(A, b_source->def->operands[0]);
        }
        if (p->mma_b_transposed) {
            OpPlan *tp = layout_op_plan(A->plan, t);
            tp->elided = true;
            tp->via_shared = false;
        }
        if (!p->mma_b_shared)
            concrete(A, b_source);
        if (op->num_operands > 2)
            want[2] = l;
        return;
    }
    case IR_VIEW:
    case IR_ALLOC: set_result(A, r, NULL, false); return;
    case IR_LOAD:
    case IR_GATHER: {   /* the indices, mask and other in the result's layout */
        const Layout *l = default_for(A, &r->type);
        set_result(A, r, l, false);
        for (int i = 1; i < op->num_operands; i++)
            want[i] = l;
        return;
    }
    case IR_STORE:
    case IR_ATOMIC: {
        IrValue *v = op->operands[1];
        const Layout *l = splat_source(A, v) ? default_for(A, &v->type) : concrete(A, v);
        if (op->opcode == IR_STORE && !splat_source(A, v) && store_through_shared(A, op, l))
            l = default_for(A, &v->type);
        for (int i = 1; i < op->num_operands; i++)
            want[i] = l;
        return;
    }
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC: {   /* the indices and mask in the value's layout */
        IrValue *v = op->operands[1 + op->operands[0]->type.rank];
        const Layout *l = splat_source(A, v) ? default_for(A, &v->type) : concrete(A, v);
        for (int i = 1; i < op->num_operands; i++)
            want[i] = l;
        return;
    }
    case IR_ASYNC_COPY:
        pad_alloc_rows(A, op->operands[0]);
        if (op->has_mask)
            want[2] = default_for(A, &op->operands[1]->type);
        return;
    case IR_ASYNC_COMMIT:
    case IR_ASYNC_WAIT: return;
    case IR_FOR: assign_for(A, op); return;
    case IR_IF: assign_if(A, op); return;
    case IR_YIELD: return;
    default: break;
    }
    if (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode) ||
        op->opcode == IR_SELECT || op->opcode == IR_CAST || op->opcode == IR_BITCAST) {
        assign_elementwise(A, op);
        return;
    }
    for (int i = 0; i < op->num_results; i++)
        set_result(A, op->results[i], default_for(A, &op->results[i]->type), false);
}

static void assign_block(Assign *A, IrBlock *block) {
    for (IrOp *op = block->first; op; op = op->next)
        assign_op(A, op);
}

/* Backward: a flexible value takes the layout its last user wants. */
static void resolve_block(Assign *A, IrBlock *block) {
    for (IrOp *op = block->last; op; op = op->prev) {
        if (op->body)
            resolve_block(A, op->body);
        if (op->else_body)
            resolve_block(A, op->else_body);
        OpPlan *p = layout_op_plan(A->plan, op);
        for (int i = 0; i < op->num_operands; i++) {
            IrValue *v = op->operands[i];
            if (!is_tile(v) || v->type.rank == 0)
                continue;
            ValuePlan *vp = vplan(A, v);
            if (!vp->layout && p->operand_layouts && p->operand_layouts[i])
                vp->layout = p->operand_layouts[i];
        }
        for (int i = 0; i < op->num_results; i++) {
            IrValue *r = op->results[i];
            if (is_tile(r) && !vplan(A, r)->layout)
                concrete(A, r);
        }
    }
}

/* ---- scratch ----------------------------------------------------------------------- */

static int64_t tile_bytes(const IrType *type) {
    int b = type->dtype == DT_BOOL ? 1 : dtype_bytes(type->dtype);
    return ir_type_elements(type) * b;
}

static int64_t align16(int64_t v) { return (v + 15) & ~(int64_t)15; }

static void scratch_op(Assign *A, OpPlan *p) {
    IrOp *op = p->op;
    int64_t need = 0;
    if (p->elided) {
        p->scratch_bytes = 0;
        return;
    }
    if (op->opcode == IR_BROADCAST && !splat_source(A, op->operands[0]) && !vplan(A, op->results[0])->flexible) {
        IrValue *src = op->operands[0], *r = op->results[0];
        p->via_shared = src->type.rank != r->type.rank || !layout_equal(vplan(A, src)->layout, vplan(A, r)->layout);
    }
    for (int i = 0; i < op->num_operands; i++) {
        IrValue *v = op->operands[i];
        /* a splat is re-spread and an index expression recomputed in the
           wanted layout (convert.c's splat and remat): no bytes */
        if (!is_tile(v) || !p->operand_layouts || !p->operand_layouts[i] || splat_source(A, v) ||
            convert_can_remat(A->plan, v))
            continue;
        if (layout_equal(vplan(A, v)->layout, p->operand_layouts[i]))
            continue;
        /* A broadcast is redone from its source in the wanted layout. */
        int64_t bytes = is_broadcast(v) ? tile_bytes(&v->def->operands[0]->type) : tile_bytes(&v->type);
        if (bytes > need)
            need = bytes;
    }
    if (p->via_shared && tile_bytes(&op->operands[0]->type) > need)
        need = tile_bytes(&op->operands[0]->type);
    if (op->opcode == IR_REDUCE) {
        IrValue *src = op->operands[0];
        LayoutTerm warp_index;
        int warps = layout_reduce_warps(layout_map_new(A->kernel, vplan(A, src)->layout, &src->type), op->axis,
                                        &warp_index);
        if (warps > 1) {
            /* Two slots: llvm_reduce.c alternates them to save a barrier. */
            int64_t bytes = 2 * warps * tile_bytes(&op->results[0]->type);
            if (bytes > need)
                need = bytes;
        }
    }
    if (op->opcode == IR_SCAN && p->scan_warps > 1) {
        /* each warp's total of each run and row (llvm_reduce.c) */
        int64_t bytes = tile_bytes(&op->results[0]->type) / op->results[0]->type.dims[op->axis].size *
                        p->scan_reps * p->scan_warps;
        if (bytes > need)
            need = bytes;
    }
    if (op->opcode == IR_DOT) {
        const IrType *at = &op->operands[0]->type, *bt = &op->operands[1]->type;
        int64_t bytes = align16(tile_bytes(at)) + align16(tile_bytes(bt));
        if (p->mma_fp8) {   /* the staged operands only: A's rows and x's (B's columns) of k + 16 bytes */
            int64_t k = at->dims[1].size, rows = layout_mma_pitch(k / 2) * 2;
            bytes = (p->mma_a_shared ? 0 : align16(at->dims[0].size * rows)) +
                    (p->mma_b_shared ? 0 : align16(op->results[0]->type.dims[1].size * rows));
        } else if (p->mma) {   /* the staged operands only: A's rows of k + 8; B's of n + 8, or (transposed) k + 8 */
            bool a_staged = !p->mma_a_shared && !layout_mma_a_in_registers(A->plan, p);
            int64_t b_rows = p->mma_b_transposed ? bt->dims[1].size : bt->dims[0].size;
            int64_t b_cols = p->mma_b_transposed ? bt->dims[0].size : bt->dims[1].size;
            bytes = (a_staged ? align16(at->dims[0].size * layout_mma_pitch(at->dims[1].size) * 2) : 0) +
                    (p->mma_b_shared ? 0 : align16(b_rows * layout_mma_pitch(b_cols) * 2));
        }
        if (bytes > need)
            need = bytes;
    }
    if (op->opcode == IR_ALLOC) {
        const IrType *t = &op->results[0]->type;
        need = t->dtype == DT_BOOL ? 1 : dtype_bytes(t->dtype);
        for (int d = 0; d < t->rank; d++)
            need *= d == t->rank - 1 && p->alloc_pitch ? p->alloc_pitch : t->dims[d].size;
    }
    p->scratch_bytes = need;
}

/* ---- numbering and the op table ------------------------------------------------------ */

static void number_block(Assign *A, IrBlock *block, int *values, PtrVec *ops) {
    for (int i = 0; i < block->num_args; i++)
        block->args[i]->id = (*values)++;
    for (IrOp *op = block->first; op; op = op->next) {
        ptrvec_push(&A->kernel->arena, ops, op);
        for (int i = 0; i < op->num_results; i++)
            op->results[i]->id = (*values)++;
        if (op->body)
            number_block(A, op->body, values, ops);
        if (op->else_body)
            number_block(A, op->else_body, values, ops);
    }
}

static unsigned op_hash(const IrOp *op, int size) {
    uintptr_t h = (uintptr_t)op;
    h ^= h >> 17;
    h *= 0x9E3779B1u;
    return (unsigned)(h % (uintptr_t)size);
}

OpPlan *layout_op_plan(const KernelPlan *plan, const IrOp *op) {
    unsigned i = op_hash(op, plan->table_size);
    while (plan->table[i]) {
        if (plan->table[i]->op == op)
            return plan->table[i];
        i = (i + 1) % (unsigned)plan->table_size;
    }
    INTERNAL_ERROR("op without a plan in kernel '%s'", plan->kernel->name);
}

const Layout *layout_of(const KernelPlan *plan, const IrValue *value) {
    return plan->values[value->id].layout;
}

/* The index of the last op nested in `op`'s regions. */
static int region_end(KernelPlan *plan, IrOp *op) {
    int end = layout_op_plan(plan, op)->index;
    IrBlock *blocks[2] = {op->body, op->else_body};
    for (int k = 0; k < 2; k++)
        if (blocks[k] && blocks[k]->last) {
            int e = region_end(plan, blocks[k]->last);
            if (e > end)
                end = e;
        }
    return end;
}

/* A scalar op without effects: what may sit between a dot and the wait
   it lowers, and between a ring's first wait and its loop. */
static bool pure_scalar(const IrOp *op) {
    return ir_opcode_is_pure(op->opcode) && op->num_results == 1 && op->results[0]->type.kind == IRT_TILE &&
           op->results[0]->type.rank == 0;
}

/* Whether `op` is an `if` that only issues async copies (a ring's fill,
   passes/pipeline.c): views, async_copy and an empty yield in its blocks. */
bool layout_copies_only(const IrOp *op) {
    if (op->opcode != IR_IF || op->num_results != 0)
        return false;
    const IrBlock *blocks[2] = {op->body, op->else_body};
    for (int k = 0; k < 2; k++)
        for (const IrOp *o = blocks[k] ? blocks[k]->first : NULL; o; o = o->next)
            if (o->opcode != IR_VIEW && o->opcode != IR_ASYNC_COPY && o->opcode != IR_YIELD &&
                !(o->num_results == 1 && ir_opcode_is_pure(o->opcode) && o->results[0]->type.rank == 0))
                return false;
    return true;
}

/* Async wgmma (docs/codegen.md, "wgmma"): a wgmma dot in a `for` body
   whose accumulator is a loop argument and whose result only goes back
   into it through the yield (a matmul's k loop) need not wait for its own
   group: it waits for the previous iteration's (wgmma.wait_group 1), a
   barrier tells every warpgroup that the slot the previous iteration read
   is free, and only then the ring's copies into that slot, which the body
   has before the dot (the `if`s of async copies and their commit), are
   issued: they are deferred past the dot (OpPlan.deferred_to). Everything
   else before the dot must be pure scalars (the slot indices), views or
   ops the dot elides (its loads, a transpose), and after it only the
   ring's async_wait before the yield.
   The loop's exit waits for the last group (llvm_kernel.c). */
static void plan_wgmma_async(KernelPlan *plan, OpPlan *p) {
    IrOp *dot = p->op;
    IrBlock *body = dot->parent;
    IrOp *loop = body ? body->parent_op : NULL;
    if (!p->wgmma || !loop || loop->opcode != IR_FOR || loop->int_value || loop->body != body || dot->num_operands < 3)
        return;
    const IrValue *acc = dot->operands[2], *r = dot->results[0];
    IrOp *yield = body->last;
    int arg = 1;
    while (arg < body->num_args && body->args[arg] != acc)
        arg++;
    if (arg == body->num_args || !yield || yield->opcode != IR_YIELD || yield->operands[arg - 1] != r)
        return;
    for (int i = 0; i < yield->num_operands; i++)
        if (i != arg - 1 && yield->operands[i] == r)
            return;
    int copies = 0;
    for (IrOp *o = body->first; o != dot; o = o->next) {
        bool elided = layout_op_plan(plan, o)->elided;
        if (layout_copies_only(o) || o->opcode == IR_ASYNC_COMMIT)
            copies++;
        else if (!(pure_scalar(o) || o->opcode == IR_VIEW || elided))   /* elided: the dot's loads, x.T */
            return;
        for (int i = 0; i < o->num_operands; i++)   /* the accumulator's only reader is the dot */
            if (o->operands[i] == acc)
                return;
    }
    for (IrOp *o = dot->next; o != yield; o = o->next)
        if (o->opcode != IR_ASYNC_WAIT && !pure_scalar(o))
            return;
    for (int i = 0; i < yield->num_operands; i++)   /* `prev = acc`: read while its group runs (review) */
        if (yield->operands[i] == acc)
            return;
    if (!copies)
        return;
    p->wgmma_async = true;
    for (IrOp *o = body->first; o != dot; o = o->next)
        if (layout_copies_only(o) || o->opcode == IR_ASYNC_COMMIT)
            layout_op_plan(plan, o)->deferred_to = p;
}

/* Whether `op` comes before `dot` in their block. */
static bool comes_before(const IrOp *op, const IrOp *dot) {
    for (const IrOp *o = op; o; o = o->next)
        if (o == dot)
            return true;
    return false;
}

/* A dot that reads both operands in place from rings (passes/pipeline.c)
   indexed by the same carried slot, in the body of a `for` whose only
   other ops after it are pure scalars and one async_wait, the ring's first
   wait in front of the loop, the next slot (the yield's) computed before
   the dot, and its k steps unrolled: the dot lowers that wait itself and
   loads the next slot's first k step after its barrier, before the mmas of
   its last k step (llvm_dot.c, "carry"), so the first mmas after the
   barrier never wait for an ldmatrix, as CUTLASS's multistage mainloop
   orders them. The next slot is not written before the next iteration's
   copies, which write the slot this iteration read (S >= 2). */
static void plan_carry(KernelPlan *plan, OpPlan *p) {
    IrOp *dot = p->op;
    IrBlock *body = dot->parent;
    IrOp *loop = body ? body->parent_op : NULL;
    if (!p->mma || p->wgmma || p->mma_fp8 || !p->mma_a_shared || !p->mma_b_shared || !loop || loop->opcode != IR_FOR ||
        loop->int_value || loop->body != body ||
        dot->operands[0]->type.dims[1].size / 16 > LAYOUT_MMA_UNROLLED_STEPS)
        return;
    const IrValue *slot = NULL;
    for (int k = 0; k < 2; k++) {
        const IrValue *ref = layout_in_place_ref(p, k);
        const IrOp *view = ref ? ref->def : NULL;
        if (!view || view->opcode != IR_VIEW)
            return;
        const IrValue *ring = view->operands[0];
        if (!ring->def || ring->def->opcode != IR_ALLOC || ring->def->parent == body || ring->type.rank != 3 ||
            view->view_dims[0].kind != VIEW_INDEX || view->view_dims[1].kind != VIEW_FULL ||
            view->view_dims[2].kind != VIEW_FULL)
            return;
        const IrValue *s = view->operands[view->view_dims[0].offset_operand];
        if (s->arg_of != body || s == body->args[0] || (slot && s != slot))
            return;
        slot = s;
    }
    IrOp *yield = body->last;
    int arg = 1;
    while (arg < body->num_args && body->args[arg] != slot)
        arg++;
    if (!yield || yield->opcode != IR_YIELD || arg == body->num_args || arg - 1 >= yield->num_operands)
        return;
    const IrValue *next = yield->operands[arg - 1];
    if (next->def && next->def->parent == body && !comes_before(next->def, dot))
        return;
    IrOp *wait = NULL;
    for (IrOp *o = dot->next; o != yield; o = o->next) {
        if (o->opcode == IR_ASYNC_WAIT && !wait)
            wait = o;
        else if (!pure_scalar(o))
            return;
    }
    const IrOp *before = loop->prev;
    while (before && pure_scalar(before))
        before = before->prev;
    if (!wait || !before || before->opcode != IR_ASYNC_WAIT)
        return;
    p->mma_carry_wait = wait;
    layout_op_plan(plan, wait)->carry_dot = p;
}

KernelPlan *layout_assign(IrKernel *kernel, const ArchInfo *target, int threads) {
    Assign A = {.kernel = kernel};
    KernelPlan *plan = ARENA_NEW(&kernel->arena, KernelPlan);
    plan->kernel = kernel;
    plan->target = target;
    plan->threads = threads;
    A.plan = plan;

    int values = 0;
    for (int i = 0; i < kernel->num_params; i++)
        kernel->params[i].value->id = values++;
    PtrVec ops = {0};
    number_block(&A, kernel->body, &values, &ops);
    plan->num_values = values;
    plan->values = ARENA_ARRAY(&kernel->arena, ValuePlan, values + 1);
    plan->num_ops = ops.len;
    plan->ops = ARENA_ARRAY(&kernel->arena, OpPlan, ops.len + 1);
    plan->table_size = ops.len * 2 + 1;
    plan->table = ARENA_ARRAY(&kernel->arena, OpPlan *, plan->table_size);
    for (int i = 0; i < ops.len; i++) {
        OpPlan *p = &plan->ops[i];
        p->op = ops.items[i];
        p->index = i;
        unsigned h = op_hash(p->op, plan->table_size);
        while (plan->table[h])
            h = (h + 1) % (unsigned)plan->table_size;
        plan->table[h] = p;
    }
    for (int i = 0; i < ops.len; i++)
        plan->ops[i].end_index = region_end(plan, plan->ops[i].op);

    A.uses = ARENA_ARRAY(&kernel->arena, int, values + 1);
    memset(A.uses, 0, sizeof(int) * (size_t)(values + 1));
    for (int i = 0; i < ops.len; i++) {
        IrOp *op = ops.items[i];
        for (int k = 0; k < op->num_operands; k++)
            A.uses[op->operands[k]->id]++;
    }
    bool *from_dot = ARENA_ARRAY(&kernel->arena, bool, values + 1);
    memset(from_dot, 0, sizeof(bool) * (size_t)(values + 1));
    A.mma_rows = dot_feeds_rows(kernel->body, from_dot);
    plan_wgmma(&A);
    for (int i = 0; i < kernel->num_params; i++)
        set_result(&A, kernel->params[i].value, NULL, false);
    assign_block(&A, kernel->body);
    resolve_block(&A, kernel->body);
    for (int i = 0; i < plan->num_ops; i++)
        scratch_op(&A, &plan->ops[i]);
    for (int i = 0; i < plan->num_ops; i++)
        if (plan->ops[i].op->opcode == IR_DOT) {
            plan_carry(plan, &plan->ops[i]);
            plan_wgmma_async(plan, &plan->ops[i]);
        }
    return plan;
}

bool layout_mma_a_in_registers(const KernelPlan *plan, const OpPlan *dot) {
    const IrOp *op = dot->op;
    if (!dot->mma || dot->mma_a_shared || dot->mma_fp8)
        return false;
    const IrValue *av = op->operands[0], *r = op->results[0];
    const Layout *out = plan->values[r->id].layout;
    const Layout *a = dot->operand_layouts && dot->operand_layouts[0] ? dot->operand_layouts[0]
                                                                      : plan->values[av->id].layout;
    LayoutTerm term;
    return layout_warps_along(layout_map_new(plan->kernel, out, &r->type), 1, &term) == 1 && layout_equal(a, out);
}

bool layout_dot_stages(const KernelPlan *plan, const OpPlan *dot) {
    if (!dot->mma)
        return true;
    return !dot->mma_b_shared || (!dot->mma_a_shared && !layout_mma_a_in_registers(plan, dot));
}

/* ---- the register limit ---------------------------------------------------------------- */

/* A thread has 255 32-bit registers (PTX ISA: maxnreg). A tile value has
   layout_regs_per_thread elements in each thread, which take at least
   ceil(elements * bytes / 4) registers (f16 pairs and i8 quads packed).
   Most values need not be held whole: LLVM streams an elementwise chain
   into a reduction or a store element by element. The rule counts only
   what must be held at once, so it never rejects a kernel that could run:
   - the values a `for` carries (all of them are live at its back edge),
   - a dot's result (the lowering's k loop carries every accumulator);
   over 255 registers is an error at that op. Kernels that pass may still
   spill (ptxas reports it, the manifest records it). Separately, any value
   with more than LAYOUT_MAX_THREAD_ELEMENTS elements in a thread is too
   large to compile: the lowering unrolls a tile's elements, and LLVM's
   time grows with them (a 2^20-element tile in one warp would take
   minutes). A gather's or a scatter's elements are each a predicated
   access at its own address, which NVPTX's straight-line strength
   reduction and GVN compare with one another: their limit is lower,
   LAYOUT_MAX_INDEXED_ELEMENTS (at 512 a thread one scatter took 5 s of
   NVPTX codegen, at 256 0.5 s, at 128 0.25 s). */
enum { LAYOUT_MAX_REGISTERS = 255, LAYOUT_MAX_THREAD_ELEMENTS = 1024, LAYOUT_MAX_INDEXED_ELEMENTS = 256 };

/* Registers (32-bit words) of one value in each thread; 0 for refs. */
static int64_t layout_value_registers(const KernelPlan *plan, const IrValue *v, int64_t *elements) {
    const Layout *layout = v->type.kind == IRT_TILE ? plan->values[v->id].layout : NULL;
    *elements = layout ? layout_regs_per_thread(layout, &v->type) : 0;
    int bytes = v->type.dtype == DT_BOOL ? 1 : dtype_bytes(v->type.dtype);
    return (*elements * bytes + 3) / 4;
}

static void layout_register_error(const KernelPlan *plan, Span loc, const char *what, int64_t registers) {
    diag_error(loc, "%s %lld registers in each of the kernel's %d threads, more than the %d a thread has; "
               "use smaller blocks or more warps",
               what, (long long)registers, plan->threads, LAYOUT_MAX_REGISTERS);
}

bool layout_check_registers(const KernelPlan *plan) {
    for (int i = 0; i < plan->num_ops; i++) {
        const IrOp *op = plan->ops[i].op;
        char type[160], what[200];
        int64_t elements;
        /* Tile IR text may carry a ref through a loop or an if (the front
           end never does: a ref is an alias); the lowering carries
           registers, not a ref's pointer and strides. */
        for (int r = 0; (op->opcode == IR_FOR || op->opcode == IR_IF) && r < op->num_results; r++)
            if (op->results[r]->type.kind == IRT_REF) {
                ir_type_format(&op->results[r]->type, type, sizeof type);
                diag_error(op->loc, "this %s carries a ref (%s); the GPU backend's loops and ifs carry tiles and "
                           "scalars only", op->opcode == IR_FOR ? "loop" : "if", type);
                return false;
            }
        for (int r = 0; r < op->num_results; r++) {
            int64_t registers = layout_value_registers(plan, op->results[r], &elements);
            ir_type_format(&op->results[r]->type, type, sizeof type);
            if (elements > LAYOUT_MAX_THREAD_ELEMENTS) {
                diag_error(op->loc, "this %s has %lld elements in each of the kernel's %d threads, more than "
                           "the %d tessc compiles; use smaller blocks or more warps",
                           type, (long long)elements, plan->threads, LAYOUT_MAX_THREAD_ELEMENTS);
                return false;
            }
            if (op->opcode == IR_DOT && registers > LAYOUT_MAX_REGISTERS) {
                snprintf(what, sizeof what, "this dot's accumulator (%s) needs", type);
                layout_register_error(plan, op->loc, what, registers);
                return false;
            }
        }
        if (op->opcode == IR_GATHER || op->opcode == IR_SCATTER || op->opcode == IR_SCATTER_ATOMIC) {
            /* the index tile of the first dim has the op's shape and layout */
            const IrValue *index = op->operands[1];
            layout_value_registers(plan, index, &elements);
            if (elements > LAYOUT_MAX_INDEXED_ELEMENTS) {
                diag_error(op->loc, "this %s has %lld elements in each of the kernel's %d threads, more than the %d "
                           "a gather or scatter compiles (each is its own predicated access); use smaller blocks or "
                           "more warps",
                           op->opcode == IR_GATHER ? "gather" : "scatter", (long long)elements, plan->threads,
                           LAYOUT_MAX_INDEXED_ELEMENTS);
                return false;
            }
        }
        if (op->opcode == IR_FOR && op->body) {
            int64_t registers = 0;
            for (int a = 1; a < op->body->num_args; a++)
                registers += layout_value_registers(plan, op->body->args[a], &elements);
            if (registers > LAYOUT_MAX_REGISTERS) {
                layout_register_error(plan, op->loc, "the values this loop carries need", registers);
                return false;
            }
        }
    }
    return true;
}
