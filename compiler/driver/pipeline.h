/*
 * pipeline.h: the backend's phases for one kernel, per target (pipeline.c).
 */
#ifndef TESSERA_PIPELINE_H
#define TESSERA_PIPELINE_H

#include "codegen.h"

/* One kernel through every target (arch family) of options->archs: per
   target, layout assignment to ptxas (started, not waited for: ptxas_collect
   reaps the jobs). `out` is started here (target_begin_kernel) and freed by
   target_free_kernel, also after a failure. False after a diagnostic
   (diag_error_count() > 0: the register rule, shared memory) or an internal
   error naming the kernel. */
bool pipeline_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out);

#endif
