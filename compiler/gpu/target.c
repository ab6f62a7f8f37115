/*
 * target.c: one plan per target.
 *
 * The --arch values are grouped into targets, one per arch family
 * (ArchInfo.family: sm_80/86, sm_89, sm_90, sm_90a; base.h and
 * ir/dtype.c hold the feature table). Layout assignment and everything
 * after it run once per target: the archs of one family share a plan and
 * an LLVM module, and each still gets its own PTX and cubin, so that a
 * family's plan can use what its archs have (wgmma on sm_90a, fp8 mma on
 * sm_89 and up) without changing the others'. The layout rules read two
 * feature flags (wgmma, mma_fp8); otherwise the plans are the same.
 *
 * Also here: a kernel's result record (CodegenKernel: its entry symbol and
 * one CodegenArch per --arch, in --arch order whatever order the targets
 * run in), the block size of a target's plan, the blocks a multiprocessor
 * should hold, and the shared-memory limit of a target's archs.
 */
#include "codegen.h"

#include <stdlib.h>
#include <string.h>

int target_group(const CodegenOptions *options, CodegenTarget *targets) {
    int n = 0;
    for (int i = 0; i < options->num_archs; i++) {
        const ArchInfo *arch = options->archs[i];
        int t = 0;
        while (t < n && targets[t].family != arch->family)
            t++;
        if (t == n) {
            if (n == ARCH_FAMILY_COUNT)
                INTERNAL_ERROR("more targets than arch families");
            targets[n++] = (CodegenTarget){.family = arch->family, .arch = arch};
        }
        if (targets[t].num_archs == (int)(sizeof targets[t].archs / sizeof targets[t].archs[0]))
            INTERNAL_ERROR("too many archs in one target");
        targets[t].archs[targets[t].num_archs++] = i;
    }
    return n;
}

int target_threads(const IrKernel *kernel, const CodegenTarget *target) {
    (void)target;
    return (kernel->warps > 0 ? kernel->warps : 4) * 32;
}

/* Blocks a multiprocessor should hold at once (docs/codegen.md, "wgmma"):
   with one wgmma dot, whose block waits for its own tensor-core group at
   every k tile, a second block's wgmmas fill the first's barrier and copy
   phases. Two when both fit: the shared memory of two blocks (228 KB a
   multiprocessor on sm_90, 1 KB of it reserved per block) and the
   registers, 65536 / (2 x threads) a thread, at least the accumulator's
   m x n / threads plus 64 for the rest (addresses, the loop, the
   epilogue). Else 1 (no hint). The rule is for a single dot with A in
   place and an accumulator operand: a kernel with more live tiles (flash
   attention, A from registers) keeps its registers. */
int target_blocks_per_sm(const KernelPlan *plan) {
    int dots = 0;
    int64_t acc = 0;
    for (int i = 0; i < plan->num_ops; i++) {
        const OpPlan *p = &plan->ops[i];
        if (p->op->opcode != IR_DOT)
            continue;
        dots++;
        /* the matmul shape: A in place, an accumulator operand (what else a
           dot keeps live, A's registers or a second accumulator, the 64
           below does not cover: ptxas then spills) */
        const IrOp *loop = p->op->parent ? p->op->parent->parent_op : NULL;
        if (p->wgmma && p->mma_a_shared && p->op->num_operands > 2 &&
            (!loop || loop->parent == plan->kernel->body))   /* not in a loop nest: its state is live too */
            acc = ir_type_elements(&p->op->results[0]->type) / plan->threads;
    }
    if (!plan->wgmma || dots != 1 || acc == 0)
        return 1;
    int64_t regs = 65536 / (2 * (int64_t)plan->threads);
    if (regs > 255)
        regs = 255;
    bool fits = 2 * (plan->shared_bytes + 1024) <= 233472 && 2 * plan->threads <= 2048 && acc + 64 <= regs;
    return fits ? 2 : 1;
}

/* matmul_BM128_BN128_BK64: the kernel's name and its compile-time values. */
static char *target_entry_symbol(IrKernel *kernel) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", kernel->name);
    for (int i = 0; i < kernel->num_cparams; i++) {
        const IrCParam *c = &kernel->cparams[i];
        char value[64];
        if (c->is_float)
            snprintf(value, sizeof value, "%g", c->float_value);
        else
            snprintf(value, sizeof value, "%lld", (long long)c->int_value);
        for (char *p = value; *p; p++)
            *p = *p == '-' ? 'm' : *p == '.' ? 'p' : *p == '+' ? 'P' : *p;
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "_%s%s", c->name, value);
    }
    return arena_strdup(&kernel->arena, buf);
}

void target_begin_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out) {
    memset(out, 0, sizeof *out);
    out->kernel = kernel;
    out->entry = target_entry_symbol(kernel);
    if (options->num_archs > (int)(sizeof out->archs / sizeof out->archs[0]))
        INTERNAL_ERROR("too many archs");
    out->num_archs = options->num_archs;
    for (int i = 0; i < options->num_archs; i++) {
        CodegenArch *a = &out->archs[i];
        a->arch = options->archs[i];
        a->ptx_version = emit_ptx_version(a->arch);
        a->registers = a->spill_stores = a->spill_loads = -1;
    }
}

bool target_check_shared(const KernelPlan *plan, const CodegenTarget *target, const KernelPlan *tma,
                         CodegenKernel *out) {
    const IrKernel *kernel = plan->kernel;
    for (int i = 0; i < target->num_archs; i++) {
        const ArchInfo *arch = out->archs[target->archs[i]].arch;
        if (plan->shared_bytes > arch->shared_bytes_max) {
            /* At the op whose buffer crosses the limit (the kernel's name if
               none can be blamed). */
            const OpPlan *over = shared_over_limit(plan, arch->shared_bytes_max);
            diag_error(over ? over->op->loc : kernel->loc,
                       "kernel '%s' needs %lld bytes of shared memory (its allocs and the compiler's staging "
                       "buffers), more than the %ld bytes of %s",
                       kernel->name, (long long)plan->shared_bytes, arch->shared_bytes_max, arch->name);
            if (over)
                diag_note(over->op->loc, "this %s's buffer of %lld bytes ends past the limit",
                          over->op->opcode == IR_ALLOC ? "alloc" : ir_opcode_name(over->op->opcode),
                          (long long)over->scratch_bytes);
            return false;
        }
    }
    for (int i = 0; i < target->num_archs; i++) {
        CodegenArch *a = &out->archs[target->archs[i]];
        a->threads = plan->threads;
        a->shared_bytes = plan->shared_bytes;
        if (tma) {
            a->tma_entry = arena_printf(&plan->kernel->arena, "%s_tma", out->entry);
            a->tma_maps = tma->tma_maps;
            a->num_tma_maps = tma->num_tma_maps;
            a->tma_shared_bytes = tma->shared_bytes;
            a->tma_threads = tma->threads + tma->producer_threads;
            if (tma->consumer_registers)   /* what the block's pool must hold, a thread */
                a->tma_registers_needed = (tma->threads * tma->consumer_registers + tma->producer_threads *
                                           tma->producer_registers + a->tma_threads - 1) / a->tma_threads;
        }
    }
    return true;
}

void target_free_kernel(CodegenKernel *out) {
    free(out->llvm_ir);
    for (int i = 0; i < out->num_archs; i++) {
        if (out->archs[i].ptxas_job)   /* after an error elsewhere: not waited for */
            ptxas_stop(out->archs[i].ptxas_job);
        free(out->archs[i].ptxas_job);
        free(out->archs[i].ptx);
        free(out->archs[i].cubin);
    }
    memset(out, 0, sizeof *out);
}
