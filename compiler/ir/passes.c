/*
 * passes.c: the tile-IR pass list.
 *
 * In: verified kernels (from lowering or from a .tir file). Out: the same
 * kernels, transformed in place by each pass in turn. After every pass the
 * kernel can be dumped (--dump-after=NAME) and, with options->verify, is
 * verified again; a verifier failure there is a compiler bug, reported as
 * an internal error, and stops the run (no exit(): the driver decides).
 *
 * opt_level 0 runs no pass: the input is still verified, and nothing is
 * dumped since no pass ran.
 */
#include "ir.h"

#include <string.h>

static const char *const pass_list_names[] = {"persist", "overlap", "pipeline", "handoff",
                                               "prefetch", "fold", "cse", "dce"};

/* Verifies `kernel` after the step called `after`; false (reported) on a
   failure. */
static bool verify_after(IrKernel *kernel, const char *after, const PassOptions *options) {
    if (!options->verify)
        return true;
    char message[1024];
    if (ir_verify_kernel(kernel, message, sizeof message))
        return true;
    fflush(stdout);
    fprintf(stderr, "tessc: internal error: IR verification failed after %s: %s\n", after, message);
    return false;
}

/* After one step of the list: dump if asked, verify. */
static bool after_pass(IrKernel *kernel, const char *name, const PassOptions *options) {
    if (options->dump_after && strcmp(options->dump_after, name) == 0) {
        FILE *out = options->dump_out ? options->dump_out : stderr;
        fprintf(out, "// IR after %s\n", name);
        ir_print_kernel(kernel, out);
    }
    return verify_after(kernel, name, options);
}

/* One step of the list: run, dump if asked, verify. */
static bool run_pass(IrKernel *kernel, const char *name, void (*pass)(IrKernel *),
                     const PassOptions *options) {
    pass(kernel);
    return after_pass(kernel, name, options);
}

/* THE pass list. persist first, at a persistent --grid (every later pass
   then sees the tile loop as the loop it is: the pipeline pass pipelines
   it like any other), overlap next, at --overlap=rotate (it moves a loop's
   second dot a trip later; the rotated loop's loads are then the
   pipeline's like any others), pipeline next (it takes the loads that
   feed dots into shared-memory rings; prefetch then carries the loop's
   other loads in registers), handoff next, at --grid=persistent-handoff
   (a persistent kernel's ring prologue, which the pipeline pass made,
   issued a tile early), prefetch next (the address ops it copies in front
   of and into loops are then folded and merged like any others), fold next
   (it makes constants that CSE can merge and dead ops that DCE removes),
   CSE (it leaves duplicates unused), DCE last. */
static bool run_kernel_passes(IrKernel *kernel, const PassOptions *options) {
    if (!verify_after(kernel, "lowering", options))
        return false;
    if (options->opt_level <= 0)
        return true;
    if (options->persistent != PERSIST_NONE)
        pass_persist(kernel, options->persistent, options->heavy_first);
    if (!after_pass(kernel, "persist", options)) return false;
    if (options->rotate_dots)
        pass_overlap(kernel);
    if (!after_pass(kernel, "overlap", options)) return false;
    pass_pipeline(kernel, options->fp8_rings, options->stationary_shared);
    if (!after_pass(kernel, "pipeline", options)) return false;
    if (options->handoff)
        pass_handoff(kernel, options->shared_budget);
    if (!after_pass(kernel, "handoff", options)) return false;
    if (!run_pass(kernel, "prefetch", pass_prefetch, options)) return false;
    if (!run_pass(kernel, "fold", pass_fold, options)) return false;
    if (!run_pass(kernel, "cse", pass_cse, options)) return false;
    if (!run_pass(kernel, "dce", pass_dce, options)) return false;
    return true;
}

bool passes_run(IrModule *module, const PassOptions *options) {
    for (int i = 0; i < module->kernels.len; i++)
        if (!run_kernel_passes(module->kernels.items[i], options))
            return false;
    return true;
}

const char *passes_names(void) { return "persist, overlap, pipeline, handoff, prefetch, fold, cse, dce"; }

bool passes_known(const char *name) {
    for (size_t i = 0; i < sizeof pass_list_names / sizeof pass_list_names[0]; i++)
        if (strcmp(pass_list_names[i], name) == 0)
            return true;
    return false;
}
