/*
 * shared_alloc.c: offsets in the kernel's dynamic shared-memory buffer.
 *
 * In: a KernelPlan whose ops carry scratch_bytes (layout conversions,
 * reductions across warps, dot staging) and whose `alloc` ops carry their
 * buffer size. Out: every such op's scratch_offset and the kernel's total,
 * plan->shared_bytes, which goes into the manifest as the dynamic shared
 * size of a launch; a TMA plan's mbarriers (tma.c) after every buffer.
 *
 * Lifetimes are intervals over the op order (pre-order, layout_assign's
 * numbering). An op's scratch lives only while the op runs: [i, i]. An
 * alloc lives from its op to its last use through any view of it; a use
 * inside a loop that does not contain the alloc keeps it alive to the end
 * of that loop, since the next iteration uses it again. Buffers whose
 * intervals overlap never share bytes; the rest reuse by first fit, largest
 * first. Barriers between the phases that touch shared memory are
 * barrier.c's job.
 *
 * Every buffer becomes a SharedBuffer record (plan->buffers, program order)
 * with its format: how the op lays its bytes out (a row-major tile, a
 * reduction's partials, a dot's staged operands, the mma's padded rows).
 * Conversions (convert.c) use their user's buffer: each shared one gets the
 * bytes [offset, offset + its rows at its pitch) of it (convert.c made the
 * user's scratch that large).
 *
 * Each record also gets its bank-conflict figures, from the layouts' linear
 * maps (linear_shared_wavefronts) for the access pattern that is clear from
 * the format: the row-major writes into it and the reads out of it of each
 * shared conversion at its op (at the pitch and vector widths convert.c
 * chose, which figured them), the writes of a shape op through shared
 * memory (its source, one element a store as llvm_convert.c does), and for
 * an mma dot
 * the ldmatrix reads of A (when staged) and B at their pitches
 * (linear_ldmatrix, llvm_dot.c's addresses).
 */
#include "codegen.h"
#include "linear_layout.h"

#include <stdlib.h>

typedef SharedBuffer Buffer;

static int64_t shared_align(int64_t v) { return (v + 15) & ~(int64_t)15; }

/* Where a buffer may start: a swizzled alloc (wgmma's operands) or a TMA
   store's scratch (its boxes) at a 1024-byte boundary, where the
   hardware's swizzle pattern starts (PTX ISA 9.7.15.5.1.2.2: base offset
   0); others at 16 bytes. */
static int64_t buffer_alignment(const Buffer *b) {
    return (b->op->op->opcode == IR_ALLOC && b->op->alloc_swizzle.rows) || b->op->tma_store ? 1024 : 16;
}

const char *shared_format_name(SharedFormat format) {
    switch (format) {
    case SHARED_ROW_MAJOR: return "row-major";
    case SHARED_PARTIALS: return "partials";
    case SHARED_SCAN_TOTALS: return "scan-totals";
    case SHARED_STAGED: return "staged";
    case SHARED_MMA_PITCH: return "mma-pitch";
    case SHARED_TMA_BOXES: return "tma-boxes";
    }
    return "?";
}

static int64_t tile_bytes(const IrType *type) {
    return ir_type_elements(type) * (type->dtype == DT_BOOL ? 1 : dtype_bytes(type->dtype));
}

/* What the op itself keeps in its buffer (layout.c sized it for the
   largest of these and of its operands' conversions). */
static void shared_format(const KernelPlan *plan, Buffer *b) {
    const OpPlan *p = b->op;
    const IrOp *op = p->op;
    b->format = SHARED_ROW_MAJOR;
    if (p->tma_store) {
        b->format = SHARED_TMA_BOXES;
    } else if (op->opcode == IR_REDUCE && !p->via_shared) {
        const IrValue *src = op->operands[0];
        const LayoutMap *map = layout_map_new(plan->kernel, plan->values[src->id].layout, &src->type);
        LayoutTerm warp_index;
        if (layout_reduce_warps(map, op->axis, &warp_index) > 1)
            b->format = SHARED_PARTIALS;
    } else if (op->opcode == IR_SCAN && p->scan_warps > 1) {
        b->format = SHARED_SCAN_TOTALS;
    } else if (op->opcode == IR_DOT) {
        const IrType *at = &op->operands[0]->type, *bt = &op->operands[1]->type;
        if (p->mma) {
            /* fp8: rows of byte pairs, k halved (llvm_dot.c); B is x.T, k-major */
            int64_t k = p->mma_fp8 ? at->dims[1].size / 2 : at->dims[1].size;
            b->format = SHARED_MMA_PITCH;
            b->a_pitch = layout_mma_pitch(k);
            b->b_pitch = layout_mma_pitch(p->mma_fp8 ? k : p->mma_b_transposed ? bt->dims[0].size : bt->dims[1].size);
            b->b_offset = p->mma_a_shared || layout_mma_a_in_registers(plan, p) ? 0
                          : shared_align(at->dims[0].size * b->a_pitch * 2);
        } else {
            b->format = SHARED_STAGED;
            b->b_offset = shared_align(tile_bytes(at));
        }
    }
}

/* The alloc op a ref value comes from, or NULL (value id -> OpPlan). */
static void shared_find_uses(KernelPlan *plan, OpPlan **root, Buffer *buffers, int *buffer_of) {
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        IrOp *op = p->op;
        /* A dot reading an operand in place (layout.c) reads its alloc
           itself: the alloc lives until the dot, not just its elided load. */
        for (int k = 0; k < op->num_operands + 2; k++) {
            const IrValue *v = k < op->num_operands ? op->operands[k] : NULL;
            if (k >= op->num_operands && op->opcode == IR_DOT) {
                const IrValue *ref = layout_in_place_ref(p, k - op->num_operands);
                v = ref ? layout_alloc_of(ref)->results[0] : NULL;
            }
            OpPlan *alloc = v ? root[v->id] : NULL;
            if (!alloc)
                continue;
            Buffer *b = &buffers[buffer_of[alloc->index]];
            int end = p->index;
            /* Loops around the use but not around the alloc repeat the use. */
            for (IrBlock *blk = op->parent; blk && blk->parent_op; blk = blk->parent_op->parent) {
                OpPlan *outer = layout_op_plan(plan, blk->parent_op);
                if (outer->op->opcode == IR_FOR && outer->index > alloc->index && outer->end_index > end)
                    end = outer->end_index;
            }
            if (end > b->end)
                b->end = end;
            if (op->opcode == IR_VIEW && k == 0)
                root[op->results[0]->id] = alloc;
        }
    }
}

static int shared_by_size(const void *pa, const void *pb) {
    const Buffer *a = pa, *b = pb;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return a->start - b->start;
}

/* ---- bank conflicts --------------------------------------------------------------- */

static int elem_bytes(DType dtype) { return dtype == DT_BOOL ? 1 : dtype_bytes(dtype); }

/* Adds the wavefronts of `layout`'s threads writing `type` row-major, one
   element a store, to *w and *ideal; false where the map is missing. */
static bool shared_write_cost(const KernelPlan *plan, const Layout *layout, const IrType *type, int64_t *w,
                              int64_t *ideal) {
    const LinearLayout *l = layout ? layout_map_linear(layout_map_new(plan->kernel, layout, type)) : NULL;
    if (!l)
        return false;
    int64_t stride[IR_MAX_RANK], step = 1;
    for (int d = type->rank - 1; d >= 0; d--) {
        stride[d] = step;
        step *= type->dims[d].size;
    }
    LinearShared shared;
    linear_shared_strided(&shared, type->rank, stride);
    int64_t i = 0, n = linear_shared_wavefronts(l, &shared, elem_bytes(type->dtype), 1, &i);
    if (n < 0)
        return false;
    *w += n;
    *ideal += i;
    return true;
}

static void shared_write_figures(const KernelPlan *plan, Buffer *b) {
    const OpPlan *p = b->op;
    int64_t w = 0, ideal = 0;
    bool any = false, ok = true;
    int64_t r = 0, r_ideal = 0;
    for (int i = 0; i < plan->num_converts; i++) {
        const ConvertRecord *c = plan->converts[i];
        if (c->method != CONVERT_SHARED || c->user != p)
            continue;
        any = true;
        ok &= c->write_wavefronts >= 0 && c->read_wavefronts >= 0;
        w += c->write_wavefronts;
        ideal += c->write_ideal;
        r += c->read_wavefronts;
        r_ideal += c->read_ideal;
    }
    if (any && ok) {
        b->read_wavefronts = r;
        b->read_ideal = r_ideal;
    }
    if (p->via_shared && !p->remat && !p->elided && p->op->num_operands > 0) {
        const IrValue *src = p->op->operands[0];
        if (!convert_is_scalar(plan, src)) {
            any = true;
            ok &= shared_write_cost(plan, plan->values[src->id].layout, &src->type, &w, &ideal);
        }
    }
    if (any && ok) {
        b->write_wavefronts = w;
        b->write_ideal = ideal;
    }
}

/* The ldmatrix reads of an mma dot's staged operands at their pitches. */
static void shared_mma_figures(const KernelPlan *plan, Buffer *b) {
    const OpPlan *p = b->op;
    const IrOp *op = p->op;
    const IrValue *av = op->operands[0], *r = op->results[0];
    const LayoutMap *out = layout_map_new(plan->kernel, plan->values[r->id].layout, &r->type);
    LayoutTerm tm, tn;
    int wm = layout_warps_along(out, 0, &tm), wn = layout_warps_along(out, 1, &tn);
    /* linear_ldmatrix numbers warps warp_m * wn + warp_n */
    if ((wn > 1 && tn.divisor != 1) || (wm > 1 && tm.divisor != wn))
        return;
    int64_t m = av->type.dims[0].size, k = av->type.dims[1].size, n = r->type.dims[1].size;
    if (p->mma_fp8)   /* byte pairs as b16 elements (llvm_dot.c) */
        k /= 2;
    /* A in the accumulator's layout with one warp across N is read from
       registers (llvm_dot.c): its staging rows are not read. */
    bool a_in_registers = layout_mma_a_in_registers(plan, p);
    LinearLayout l;
    LinearShared shared;
    if (!a_in_registers && !p->mma_a_shared && linear_ldmatrix(LINEAR_MMA_A, false, m, k, wm, wn, &l)) {
        int64_t stride[2] = {b->a_pitch, 1};
        linear_shared_strided(&shared, 2, stride);
        b->a_wavefronts = linear_shared_wavefronts(&l, &shared, 2, 8, &b->a_ideal);
    }
    bool bt = p->mma_b_transposed;
    if (!p->mma_b_shared && linear_ldmatrix(LINEAR_MMA_B, bt, bt ? n : k, bt ? k : n, wm, wn, &l)) {
        int64_t stride[2] = {b->b_pitch, 1};
        linear_shared_strided(&shared, 2, stride);
        b->b_wavefronts = linear_shared_wavefronts(&l, &shared, 2, 8, &b->b_ideal);
    }
}

static void shared_figures(const KernelPlan *plan, Buffer *b) {
    b->write_wavefronts = b->write_ideal = b->read_wavefronts = b->read_ideal = -1;
    b->a_wavefronts = b->a_ideal = b->b_wavefronts = b->b_ideal = -1;
    if (b->op->op->opcode == IR_ALLOC)
        return;
    shared_write_figures(plan, b);
    if (b->format == SHARED_MMA_PITCH)
        shared_mma_figures(plan, b);
}

void shared_alloc(KernelPlan *plan) {
    Buffer *buffers = calloc((size_t)plan->num_ops + 1, sizeof *buffers);
    int *buffer_of = calloc((size_t)plan->num_ops + 1, sizeof *buffer_of);
    OpPlan **root = calloc((size_t)plan->num_values + 1, sizeof *root);
    if (!buffers || !buffer_of || !root)
        fatal_out_of_memory();
    int n = 0;
    for (int i = 0; i < plan->num_ops; i++) {
        OpPlan *p = &plan->ops[i];
        p->scratch_offset = 0;
        if (p->scratch_bytes <= 0)
            continue;
        buffer_of[i] = n;
        buffers[n] = (Buffer){.op = p, .start = p->index, .end = p->index, .size = shared_align(p->scratch_bytes)};
        if (p->tma_store_deferred) {   /* its own bytes from the tile loop to the end: the boxes' reads
                                          run on into the next tile (tma.c) */
            buffers[n].start = layout_op_plan(plan, layout_tile_loop_body(plan->kernel)->parent_op)->index;
            buffers[n].end = plan->num_ops;
        }
        shared_format(plan, &buffers[n++]);
        if (p->op->opcode == IR_ALLOC)
            root[p->op->results[0]->id] = p;
    }
    shared_find_uses(plan, root, buffers, buffer_of);
    qsort(buffers, (size_t)n, sizeof *buffers, shared_by_size);

    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        Buffer *b = &buffers[i];
        int64_t offset = 0;
        for (bool moved = true; moved;) {
            moved = false;
            for (int j = 0; j < i; j++) {
                Buffer *o = &buffers[j];
                bool live_together = o->start <= b->end && b->start <= o->end;
                bool bytes_meet = o->offset < offset + b->size && offset < o->offset + o->size;
                if (live_together && bytes_meet) {
                    int64_t align = buffer_alignment(b);
                    offset = (o->offset + o->size + align - 1) / align * align;
                    moved = true;
                }
            }
        }
        b->offset = offset;
        b->op->scratch_offset = offset;
        if (offset + b->size > total)
            total = offset + b->size;
    }
    if (plan->tma) {   /* the mbarriers (tma.c), live for the whole kernel */
        plan->tma_barrier_offset = (total + 7) / 8 * 8;
        total = plan->tma_barrier_offset + 8 * (int64_t)plan->tma_barriers;
    }
    plan->shared_bytes = total;
    plan->buffers = ARENA_ARRAY(&plan->kernel->arena, SharedBuffer, n + 1);
    plan->num_buffers = n;
    for (int i = 0; i < plan->num_ops; i++)
        if (plan->ops[i].scratch_bytes > 0)
            for (int j = 0; j < n; j++)
                if (buffers[j].op == &plan->ops[i])
                    plan->buffers[buffer_of[i]] = buffers[j];
    for (int i = 0; i < plan->num_converts; i++) {
        ConvertRecord *c = plan->converts[i];
        if (c->method != CONVERT_SHARED && c->method != CONVERT_REBROADCAST)
            continue;
        c->smem_lo = c->user->scratch_offset;
        c->smem_hi = c->smem_lo + (c->method == CONVERT_REBROADCAST ? tile_bytes(&c->value->def->operands[0]->type)
                                                                     : convert_shared_bytes(c));
    }
    for (int i = 0; i < n; i++)
        shared_figures(plan, &plan->buffers[i]);
    free(buffers);
    free(buffer_of);
    free(root);
}

/* The first op in program order whose buffer (an alloc, or the compiler's
   scratch) reaches past `limit` bytes: where the kernel runs out of shared
   memory, and where the error is reported. NULL when everything fits. */
const OpPlan *shared_over_limit(const KernelPlan *plan, int64_t limit) {
    for (int i = 0; i < plan->num_ops; i++) {
        const OpPlan *p = &plan->ops[i];
        if (p->scratch_bytes > 0 && p->scratch_offset + shared_align(p->scratch_bytes) > limit)
            return p;
    }
    return NULL;
}
