/*
 * pipeline.c: the backend's phases for one kernel, once per target.
 *
 * The driver's pipeline (main.c, compile_into) runs the front end and the
 * tile passes once, then this for every kernel: the --arch values grouped
 * into targets (one per arch family, gpu/target.c), and for each target
 * the phases below, one call a line. The archs of a target share its plan
 * and LLVM module; each gets its own optimization, PTX and ptxas job.
 * ptxas runs in the background: the driver reaps every kernel's jobs
 * (ptxas_collect) after the last kernel's LLVM, so several archs' ptxas
 * run while later kernels lower. The fuzz target (fuzz/fuzz_frontend.c)
 * calls the same function.
 */
#include "pipeline.h"

#include <string.h>

/* --dump-after=PHASE of a plan phase (layout, convert, shared, barrier):
   the tile IR annotated with the plan (plan_print.c), of the first --arch's
   target only, as the LLVM dumps are of the first --arch. */
static void pipeline_dump(KernelPlan *plan, const CodegenOptions *options, const char *phase) {
    if (options->dump_after && strcmp(options->dump_after, phase) == 0 && plan->target == options->archs[0])
        plan_print(plan, phase, options->dump_out ? options->dump_out : stderr);
}

/* The plan phases after layout assignment, each with its --dump-after hook. */
static void pipeline_plan(KernelPlan *plan, const CodegenOptions *options) {
    plan->heavy_first = options->grid_heavy_first;
    pipeline_dump(plan, options, "layout");
    convert_plan(plan);
    pipeline_dump(plan, options, "convert");
    shared_alloc(plan);
    pipeline_dump(plan, options, "shared");
    barrier_plan(plan);
    if (plan->tma)
        tma_schedule(plan, options->hopper_schedule);
    pipeline_dump(plan, options, "barrier");
}

/* A TMA plan (tma.c) with or without TMA stores; NULL when its copies
   cannot all be TMA or its shared memory (the mbarriers) does not fit. */
static KernelPlan *tma_plan_with(IrKernel *kernel, const CodegenOptions *options, const CodegenTarget *target,
                                 TmaStoreMode stores) {
    KernelPlan *tma = layout_assign(kernel, target->arch, target_threads(kernel, target));
    if (!tma_plan(tma, stores))
        return NULL;
    pipeline_plan(tma, options);
    return tma->shared_bytes <= target->arch->shared_bytes_max ? tma : NULL;
}

static bool has_tma_store(const KernelPlan *plan) {
    for (int i = 0; i < plan->num_ops; i++)
        if (plan->ops[i].tma_store)
            return true;
    return false;
}

/* The TMA plan of a kernel whose plan has wgmma, as a second entry of the
   same module. With TMA stores where they fit: a deferred one's scratch of
   its own (tma.c) may not leave room, and the producer warpgroup's
   mbarriers (or release counters) come after every buffer (tma_schedule
   keeps lockstep where they do not fit), so a plan whose stores cost it
   the producer, the release schedule or its TMA entry is planned again
   without them. The trials print no dump; with --dump-after the plan kept
   is made again with the hooks. */
static KernelPlan *pipeline_tma_plan(IrKernel *kernel, const CodegenOptions *options, const CodegenTarget *target,
                                     const KernelPlan *plan) {
    if (!plan->wgmma || !target->arch->tma)
        return NULL;
    CodegenOptions quiet = *options;
    quiet.dump_after = NULL;
    TmaStoreMode stores = options->tma_store;
    KernelPlan *with = stores != TMA_STORE_OFF ? tma_plan_with(kernel, &quiet, target, stores) : NULL;
    KernelPlan *without = NULL;
    if (with && has_tma_store(with)) {
        without = tma_plan_with(kernel, &quiet, target, TMA_STORE_OFF);
        if (without && (with->producer_threads != without->producer_threads ||
                        (with->tma_release_offset == 0) != (without->tma_release_offset == 0)))
            stores = TMA_STORE_OFF;
    } else {
        without = with;   /* no store qualified: the same plan as without them */
        stores = TMA_STORE_OFF;
    }
    if (options->dump_after)
        return tma_plan_with(kernel, options, target, stores);
    if (stores != TMA_STORE_OFF)
        return with;
    return without ? without : tma_plan_with(kernel, options, target, TMA_STORE_OFF);
}

/* The phases for one target, one call a line, each plan phase with its
   --dump-after hook (the LLVM ones, llvm and opt, are emit.c's). A phase
   that fails has reported (a diagnostic or an internal error); the plan
   lives in the kernel's arena. */
static bool pipeline_target(IrKernel *kernel, const CodegenOptions *options, const CodegenTarget *target,
                            const char *ptxas, CodegenKernel *out) {
    double t = timing_begin();
    KernelPlan *plan = layout_assign(kernel, target->arch, target_threads(kernel, target));
    if (!layout_check_registers(plan))
        return false;
    pipeline_plan(plan, options);
    KernelPlan *tma = pipeline_tma_plan(kernel, options, target, plan);
    timing_end("layouts and shared memory", t);
    if (!target_check_shared(plan, target, tma, out))
        return false;
    const char *tma_entry = tma ? arena_printf(&kernel->arena, "%s_tma", out->entry) : NULL;
    for (int i = 0; i < target->num_archs; i++) {
        CodegenArch *a = &out->archs[target->archs[i]];
        a->ptx_version = emit_ptx_version_for(plan, a->arch);
    }
    EmitModule *module = emit_lower_with_tma(plan, tma, options, out->entry, tma_entry);
    bool ok = module != NULL;
    for (int i = 0; ok && i < target->num_archs; i++) {
        CodegenArch *a = &out->archs[target->archs[i]];
        ok = emit_optimize(module, a, out);
        ok = ok && emit_ptx(module, a);
        if (ok && ptxas)
            a->ptxas_job = ptxas_start(ptxas, options, a, out->entry);
    }
    emit_dispose(module);
    return ok;
}

bool pipeline_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out) {
    target_begin_kernel(kernel, options, out);
    CodegenTarget targets[ARCH_FAMILY_COUNT];
    int num_targets = target_group(options, targets);
    const char *ptxas = options->want_cubin ? ptxas_find() : NULL;
    for (int i = 0; i < num_targets; i++)
        if (!pipeline_target(kernel, options, &targets[i], ptxas, out))
            return false;
    return true;
}
