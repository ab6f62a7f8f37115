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

/* The phases for one target, one call a line. The conversion pass
   (gpu/convert.c) and the barrier pass (gpu/barrier.c) go where the
   comments say, between layout assignment and the LLVM lowering, each with
   its --dump-after hook (CodegenOptions): conversions before shared_alloc,
   which gives their buffers offsets; barriers where the buffers they order
   are known. A phase that fails has reported (a diagnostic or an internal
   error); the plan lives in the kernel's arena. */
static bool pipeline_target(IrKernel *kernel, const CodegenOptions *options, const CodegenTarget *target,
                            const char *ptxas, CodegenKernel *out) {
    double t = timing_begin();
    KernelPlan *plan = layout_assign(kernel, target->arch, target_threads(kernel, target));
    if (!layout_check_registers(plan))
        return false;
    /* conversions (convert.c): here */
    shared_alloc(plan);
    /* barriers (barrier.c): here, or before shared_alloc */
    timing_end("layouts and shared memory", t);
    if (!target_check_shared(plan, target, out))
        return false;
    EmitModule *module = emit_lower(plan, options, out->entry);
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
