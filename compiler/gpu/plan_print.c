/*
 * plan_print.c: the backend's plan as text (--dump-after=layout, convert,
 * shared, barrier).
 *
 * In: a KernelPlan after one of those phases. Out, to a stream: the kernel's
 * tile IR (ir_print's text and numbering) with the plan as `//` lines at
 * the ops, as far as the phase has decided it (docs/codegen.md, "The plan
 * as text"):
 *
 *   // #0 = blocked<...>                       the layouts, numbered, first
 *   // layout %5 #0                            after the op defining %5
 *   // convert_layout %5 : TYPE #0 -> #1 via METHOD [(kind: K)] ... [smem[LO, HI)] [pitch=P] [vec=W/R]
 *                                              where it runs
 *   // barrier STEP [of convert %5]: WHY       where bar.sync goes
 *   // smem[LO, HI) FORMAT ... [writes: / reads: / a reads: / b reads: wavefronts=W ideal=I]
 *                                              after the op owning the buffer
 *   // shared: N bytes in M buffers; K barriers    at the end
 *
 * Printing renumbers IrValue.id (ir_print); the plan's numbering (params
 * first) is put back before returning.
 */
#include "codegen.h"
#include "linear_layout.h"

#include <string.h>

enum { PHASE_LAYOUT, PHASE_CONVERT, PHASE_SHARED, PHASE_BARRIER };

static const char *const phase_names[] = {"layout", "convert", "shared", "barrier", "llvm", "opt"};

const char *codegen_phase_names(void) { return "layout, convert, shared, barrier, llvm, opt"; }

bool codegen_phase_known(const char *name) {
    for (size_t i = 0; i < sizeof phase_names / sizeof phase_names[0]; i++)
        if (strcmp(phase_names[i], name) == 0)
            return true;
    return false;
}

typedef struct Printer {
    KernelPlan *plan;
    int phase;
    int num_params;
    PtrVec layouts;                    /* distinct layouts, by first appearance */
} Printer;

static int layout_number(Printer *P, const Layout *layout) {
    for (int i = 0; i < P->layouts.len; i++)
        if (layout_equal(P->layouts.items[i], layout))
            return i;
    ptrvec_push(&P->plan->kernel->arena, &P->layouts, (void *)layout);
    return P->layouts.len - 1;
}

static bool is_param(const IrValue *v) { return !v->def && !v->arg_of; }

/* While ir_print prints, a block's value has its printed number, the plan's
   number less the parameters'. */
static const ValuePlan *value_plan(Printer *P, const IrValue *v) {
    return &P->plan->values[is_param(v) ? v->id : v->id + P->num_params];
}

static void print_value(const IrValue *v, FILE *out) {
    if (is_param(v) && v->name)
        fprintf(out, "%%%s", v->name);
    else
        fprintf(out, "%%%d", v->id);
}

static void indent(int depth, FILE *out) {
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
    fputs("// ", out);
}

static void print_barriers(Printer *P, const OpPlan *op, const ConvertRecord *c, int depth, FILE *out) {
    if (P->phase < PHASE_BARRIER)
        return;
    for (int i = 0; i < P->plan->num_barriers; i++) {
        const BarrierRecord *b = &P->plan->barrier_list[i];
        if (b->op != op || b->convert != c)
            continue;
        indent(depth, out);
        fprintf(out, "barrier %s", b->step == BARRIER_BEFORE_WRITE ? "before-write" : "before-read");
        if (c) {
            fputs(" of convert ", out);
            print_value(c->value, out);
        }
        fprintf(out, ": %s\n", b->why);
    }
}

static void print_convert(Printer *P, const OpPlan *at, const ConvertRecord *c, int depth, FILE *out) {
    char type[160];
    ir_type_format(&c->value->type, type, sizeof type);
    indent(depth, out);
    fputs("convert_layout ", out);
    print_value(c->value, out);
    fprintf(out, " : %s #%d -> #%d via %s", type, layout_number(P, c->from), layout_number(P, c->to),
            convert_method_name(c->method));
    if (c->kind >= 0)
        fprintf(out, " (kind: %s)", linear_convert_name((LinearConvertKind)c->kind));
    if (c->loop)
        fprintf(out, " hoisted users=%d", c->num_users);
    else
        fprintf(out, " operand=%d", c->operand);
    if (P->phase >= PHASE_SHARED && (c->method == CONVERT_SHARED || c->method == CONVERT_REBROADCAST))
        fprintf(out, " smem[%lld, %lld)", (long long)c->smem_lo, (long long)c->smem_hi);
    if (c->method == CONVERT_SHARED && c->value->type.rank > 0 && c->pitch != c->value->type.dims[c->value->type.rank - 1].size)
        fprintf(out, " pitch=%lld", (long long)c->pitch);
    if (c->method == CONVERT_SHARED && (c->write_vec > 1 || c->read_vec > 1))
        fprintf(out, " vec=%d/%d", c->write_vec, c->read_vec);
    fputc('\n', out);
    print_barriers(P, at, c, depth, out);
}

static void before_op(void *ctx, const IrOp *op, int depth, FILE *out) {
    Printer *P = ctx;
    if (P->phase < PHASE_CONVERT)
        return;
    OpPlan *p = layout_op_plan(P->plan, op);
    for (int i = 0; p->operand_converts && i < op->num_operands; i++)
        if (p->operand_converts[i] && !p->operand_converts[i]->loop)
            print_convert(P, p, p->operand_converts[i], depth, out);
    for (int k = 0; k < p->num_hoisted; k++)
        print_convert(P, p, p->hoisted[k], depth, out);
    print_barriers(P, p, NULL, depth, out);
}

static void print_layout(Printer *P, const IrValue *v, const char *how, int depth, FILE *out) {
    const ValuePlan *vp = value_plan(P, v);
    if (v->type.kind != IRT_TILE || !vp->layout)
        return;
    indent(depth, out);
    fputs("layout ", out);
    print_value(v, out);
    fprintf(out, " #%d%s%s\n", layout_number(P, vp->layout), vp->flexible ? " splat" : "", how);
}

static void print_buffer(Printer *P, const OpPlan *p, int depth, FILE *out) {
    for (int i = 0; i < P->plan->num_buffers; i++) {
        const SharedBuffer *b = &P->plan->buffers[i];
        if (b->op != p)
            continue;
        indent(depth, out);
        fprintf(out, "smem[%lld, %lld) %s", (long long)b->offset, (long long)(b->offset + b->size),
                p->op->opcode == IR_ALLOC ? "alloc" : "scratch");
        fprintf(out, " %s", shared_format_name(b->format));
        long long lo = (long long)b->offset, bo = lo + (long long)b->b_offset;
        if (b->format == SHARED_MMA_PITCH)
            fprintf(out, " a@%lld pitch=%lld b@%lld pitch=%lld", lo, (long long)b->a_pitch, bo, (long long)b->b_pitch);
        else if (b->format == SHARED_STAGED)
            fprintf(out, " a@%lld b@%lld", lo, bo);
        else if (b->format == SHARED_PARTIALS)
            fprintf(out, " slot=%d [%lld, %lld)", p->reduce_slot, lo + p->reduce_slot * (long long)p->reduce_slot_bytes,
                    lo + (p->reduce_slot + 1) * (long long)p->reduce_slot_bytes);
        if (b->write_wavefronts >= 0)
            fprintf(out, " writes: wavefronts=%lld ideal=%lld", (long long)b->write_wavefronts,
                    (long long)b->write_ideal);
        if (b->read_wavefronts >= 0)
            fprintf(out, " reads: wavefronts=%lld ideal=%lld", (long long)b->read_wavefronts,
                    (long long)b->read_ideal);
        if (b->a_wavefronts >= 0)
            fprintf(out, " a reads: wavefronts=%lld ideal=%lld", (long long)b->a_wavefronts, (long long)b->a_ideal);
        if (b->b_wavefronts >= 0)
            fprintf(out, " b reads: wavefronts=%lld ideal=%lld", (long long)b->b_wavefronts, (long long)b->b_ideal);
        fputc('\n', out);
    }
}

static void after_op(void *ctx, const IrOp *op, int depth, FILE *out) {
    Printer *P = ctx;
    OpPlan *p = layout_op_plan(P->plan, op);
    const char *how = p->elided ? " (elided)" :
                      !p->via_shared ? "" :
                      P->phase >= PHASE_CONVERT && p->remat ? " via remat" : " via shared";
    for (int i = 0; i < op->num_results; i++)
        print_layout(P, op->results[i], how, depth, out);
    if (op->opcode == IR_FOR && op->body)
        for (int i = 0; i < op->body->num_args; i++)
            print_layout(P, op->body->args[i], " (loop argument)", depth, out);
    if (p->wgmma) {
        indent(depth, out);
        fprintf(out, "wgmma m64n%lldk%d%s, a %s, b by descriptor%s%s\n", (long long)op->results[0]->type.dims[1].size,
                p->mma_fp8 ? 32 : 16, p->mma_fp8 ? " fp8" : "",
                p->mma_a_shared ? "by descriptor" : "from registers",
                p->mma_b_transposed ? " (b = x.T: x k-major)" : " (b n-major)", p->wgmma_async ? ", async" : "");
    }
    if (p->pingpong & (1u << PINGPONG_LOOP)) {
        indent(depth, out);
        fprintf(out, "pingpong: warpgroup 0 holds the first turn (named barriers 1, 2); after the loop it passes it, "
                "then the %s\n", P->plan->producer_threads ? "consumers meet (bar.sync 3)" : "block meets (bar.sync 0)");
    }
    if (p->pingpong & (1u << PINGPONG_TAKE_BEFORE)) {
        indent(depth, out);
        fputs("pingpong: this warpgroup's turn taken before the issue (bar.sync 1 + warpgroup, 256)\n", out);
    }
    if (p->pingpong & (1u << PINGPONG_PASS_AFTER)) {
        indent(depth, out);
        fputs("pingpong: the turn passed after the commit (bar.arrive 2 - warpgroup, 256)\n", out);
    }
    if (p->mma_fp8 && !p->wgmma) {
        indent(depth, out);
        fprintf(out, "mma.sync m16n8k32 %s x %s, casts elided, b = x.T k-major; a %s, x %s\n",
                dtype_name(layout_fp8_dtype(p, 0)), dtype_name(layout_fp8_dtype(p, 1)),
                p->mma_a_shared ? "in place" : "staged", p->mma_b_shared ? "in place" : "staged as it is");
    }
    if (op->opcode == IR_SCAN) {
        indent(depth, out);
        fprintf(out, "scan: runs of %d in a thread, %d lanes, %d warps, %d repeats along axis %d\n", p->scan_chunk,
                p->scan_lanes, p->scan_warps, p->scan_reps, op->axis);
    }
    if (p->alloc_swizzle.rows) {
        const SharedSwizzle *s = &p->alloc_swizzle;
        indent(depth, out);
        fprintf(out, "swizzle %dB: slots of %lldx%lld in panels of %d%s\n", s->panel * s->elem_bytes, (long long)s->rows,
                (long long)s->cols, s->panel, s->permute_rows ? ", rows in wgmma order" : "");
    }
    if (p->ring_release) {
        indent(depth, out);
        fprintf(out, "release: %s is each warp counting itself out (counter group mod %d); "
                "the last warp issues this group's copies and arms it\n",
                p->wgmma_async ? "the async wgmma's barrier" : "the barrier above", P->plan->tma_barriers);
    }
    if (p->tma_map && P->plan->producer_threads) {
        indent(depth, out);
        fprintf(out, "tma: the producer waits on the slot's empty mbarrier (group mod %d), then issues bulk copies "
                "through map #%d; the consumers count the bytes%s\n", P->plan->tma_barriers, p->tma_map - 1,
                p->consumer_barrier && (p->barriers & (1u << BARRIER_BEFORE_WRITE))
                    ? " after fence.proxy.async and the barrier above (theirs)" : "");
    } else if (p->tma_map) {
        indent(depth, out);
        fprintf(out, "tma: bulk copies through map #%d, completing on the group's mbarrier\n", p->tma_map - 1);
    } else if (P->plan->producer_threads && op->opcode == IR_ASYNC_COMMIT) {
        indent(depth, out);
        fprintf(out, "tma: the producer's lane 0 arrives on mbarrier (group mod %d) expecting the group's bytes; "
                "each consumer warp's lane 0 arrives on its empty mbarrier\n", P->plan->tma_barriers);
    } else if (P->plan->tma && op->opcode == IR_ASYNC_COMMIT) {
        indent(depth, out);
        fprintf(out, "tma: %s arrives on mbarrier (group mod %d) expecting the group's bytes\n",
                P->plan->tma_release_offset ? "the issuing thread (thread 0, or lane 0 of a release's last warp)"
                                            : "thread 0",
                P->plan->tma_barriers);
    } else if (p->tma_store) {
        const SharedSwizzle *s = &p->tma_store_swizzle;
        indent(depth, out);
        long long boxes = (long long)(s->cols / s->panel);
        fprintf(out, "tma store: the tile into its scratch in its own layout (%lld box%s of %lldx%d, swizzle %dB), "
                "fence.proxy.async and the barrier above, then thread 0 stores the boxes through map #%d and waits "
                "for their reads %s\n", boxes, boxes == 1 ? "" : "es", (long long)s->rows, s->panel,
                s->panel * s->elem_bytes, p->tma_store - 1,
                p->tma_store_deferred ? "before the next tile's store (and the kernel's end)" : "at once");
    } else if (P->plan->tma && op->opcode == IR_ASYNC_WAIT) {
        indent(depth, out);
        fprintf(out, "tma: every thread waits on the groups' mbarriers (parity), no barrier after\n");
    }
    if (P->phase >= PHASE_SHARED && p->scratch_bytes > 0)
        print_buffer(P, p, depth, out);
}

/* Back to layout_assign's numbering: parameters first, then what
   ir_print numbered from 0. */
static void renumber(IrBlock *block, int offset) {
    for (int i = 0; i < block->num_args; i++)
        block->args[i]->id += offset;
    for (IrOp *op = block->first; op; op = op->next) {
        for (int i = 0; i < op->num_results; i++)
            op->results[i]->id += offset;
        if (op->body)
            renumber(op->body, offset);
        if (op->else_body)
            renumber(op->else_body, offset);
    }
}

void plan_print(KernelPlan *plan, const char *phase, FILE *out) {
    Printer P = {.plan = plan, .num_params = plan->kernel->num_params};
    while (P.phase < PHASE_BARRIER && strcmp(phase_names[P.phase], phase) != 0)
        P.phase++;
    /* Numbered in the order the text names them: values first. */
    for (int i = 0; i < plan->num_values; i++)
        if (plan->values[i].layout)
            layout_number(&P, plan->values[i].layout);
    for (int i = 0; P.phase >= PHASE_CONVERT && i < plan->num_converts; i++)
        layout_number(&P, plan->converts[i]->to);
    fprintf(out, "// plan after %s: kernel %s, %d threads%s\n", phase, plan->kernel->name, plan->threads,
            !plan->tma ? "" : plan->producer_threads ? ", the TMA entry (and a producer warpgroup of 128)" : ", the TMA entry");
    for (int i = 0; plan->tma && i < plan->num_tma_maps; i++) {
        const TmaMap *m = &plan->tma_maps[i];
        fprintf(out, "// tma map #%d: %s, box [", i, plan->kernel->params[m->param].name);
        for (int d = 0; d < m->rank; d++)
            fprintf(out, "%s%lld", d ? ", " : "", (long long)m->box[d]);
        fprintf(out, "], swizzle %dB", m->swizzle_bytes);
        if (m->row_warps)
            fprintf(out, ", rows in wgmma order (5 dims: %d warps, %d slabs)", m->row_warps, m->row_slabs);
        if (m->store)
            fputs(", stores", out);
        fputc('\n', out);
    }
    for (int i = 0; i < P.layouts.len; i++) {
        char text[512];
        layout_format(P.layouts.items[i], text, sizeof text);
        fprintf(out, "// #%d = %s\n", i, text);
    }
    IrPrintHooks hooks = {.ctx = &P, .before_op = before_op, .after_op = after_op};
    ir_print_kernel_annotated(plan->kernel, out, &hooks);
    renumber(plan->kernel->body, P.num_params);
    if (P.phase >= PHASE_SHARED)
        fprintf(out, "// shared: %lld bytes in %d buffers\n", (long long)plan->shared_bytes, plan->num_buffers);
    if (P.phase >= PHASE_SHARED && plan->tma)
        fprintf(out, "// mbarriers: %d at [%lld, %lld)\n", plan->tma_barriers, (long long)plan->tma_barrier_offset,
                (long long)(plan->tma_barrier_offset + 8 * plan->tma_barriers));
    if (P.phase >= PHASE_BARRIER && plan->producer_threads) {
        int ops = 0;
        for (int i = 0; i < plan->num_ops; i++)
            ops += plan->ops[i].producer;
        fprintf(out, "// producer warpgroup: threads [%d, %d), its first warp runs %d ops (every copy and commit and "
                "what they need); setmaxnreg %d / %d\n", plan->threads, plan->threads + plan->producer_threads, ops,
                plan->producer_registers, plan->consumer_registers);
        fprintf(out, "// empty mbarriers: %d at [%lld, %lld), %d arrivals each (a consumer warp's)\n", plan->tma_barriers,
                (long long)plan->tma_empty_offset, (long long)(plan->tma_empty_offset + 8 * plan->tma_barriers),
                plan->threads / 32);
    }
    if (P.phase >= PHASE_BARRIER && plan->tma_release_offset)
        fprintf(out, "// release counters: %d at [%lld, %lld)\n", plan->tma_barriers, (long long)plan->tma_release_offset,
                (long long)(plan->tma_release_offset + 4 * plan->tma_barriers));
    int releases = 0;
    for (int i = 0; i < plan->num_ops; i++)
        releases += plan->ops[i].ring_release && plan->ops[i].op->opcode == IR_ASYNC_COPY;
    if (P.phase >= PHASE_BARRIER && releases)
        fprintf(out, "// barriers: %d (%d of them releases)\n", plan->num_barriers, releases);
    else if (P.phase >= PHASE_BARRIER)
        fprintf(out, "// barriers: %d\n", plan->num_barriers);
}
