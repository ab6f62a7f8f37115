/*
 * interp.h: the tile-IR interpreter.
 *
 * Executes one kernel over its whole grid on host buffers, with the
 * semantics the GPU must have (docs/interpreter.md): edge reads give 0 or
 * `other`, edge writes are dropped, f16 and bf16 round after every op,
 * integers wrap, `dot` accumulates in f32. It also reports what a GPU would
 * let through silently: a read of shared memory nothing wrote, an integer
 * index outside the ref it indexes, integer division by zero, and a
 * non-atomic write of one global element by two program instances.
 *
 * The interpreter knows nothing of LLVM, CUDA or .npy files: the caller
 * (compiler/driver/run.c for `tessc run`; runtime/interp_device.c for tessrun and
 * libtessrt, through libtessinterp) binds host memory.
 */
#ifndef TESSERA_INTERP_H
#define TESSERA_INTERP_H

#include "ir.h"

/* One launch argument, in the kernel's parameter order (IrKernel.params):
   arrays and scalars, then symbolic sizes. */
typedef struct InterpArg {
    /* PARAM_ARRAY: host memory in the parameter's dtype, C order. f16 and
       bf16 elements are raw 16-bit patterns, bool one byte of 0 or 1. The
       shape must agree with the parameter's type and the sizes passed. */
    void *data;
    int64_t shape[IR_MAX_RANK];
    /* PARAM_ARRAY with strides (IrParam.strides): the buffer's elements, which
       must cover the strides' reach; shape is then not read. -1: unknown (a
       device pointer), not checked. */
    int64_t count;
    /* PARAM_SCALAR of a float dtype */
    double float_value;
    /* PARAM_SCALAR of an integer or bool dtype, and PARAM_SIZE */
    int64_t int_value;
} InterpArg;

/* What went wrong, when interp_run_kernel returns false. `message` is whole
   ("kernel 'k', program (1, 0, 0): ..."); `loc` is the source span of the
   op that failed (line 0 when the failure is about the launch itself). */
typedef struct InterpError {
    char message[1024];
    Span loc;
    bool has_program;
    int64_t program[3];
    bool out_of_memory;          /* host memory ran out (the message says so) */
    bool assertion;              /* an assert() failed (tessc -g) */
} InterpError;

/* Runs every program instance of `kernel` in order (program ids counting up,
   axis 0 fastest). Writes go straight into the argument buffers. Returns
   false with *error filled on a bad launch or a detected error; the buffers
   then hold what the programs wrote before it. */
bool interp_run_kernel(const IrKernel *kernel, const InterpArg *args, int num_args,
                       InterpError *error);

/* The most programs (the product of the grid's dimensions) one
   interp_run_kernel executes; a larger grid is a launch error that says how
   to raise the limit. The setting is process-wide; 0 or less restores the
   default. `tessc run --max-programs`, `tessrun --max-programs` and
   $TESSRT_INTERP_MAX_PROGRAMS (libtessinterp) set it. */
#define INTERP_DEFAULT_MAX_PROGRAMS ((int64_t)1 << 24)
/* A persistent grid's resident_blocks() (ir.h GRID_RESIDENT) in the
   interpreter: few, and not a divisor of most tile counts, so that its
   programs run unequal numbers of tiles, as a GPU's do. */
#define INTERP_RESIDENT_BLOCKS 3
void interp_set_max_programs(int64_t limit);
int64_t interp_get_max_programs(void);

/* Evaluates the kernel's grid for the given arguments (sizes are read from
   args) with the runtime's evaluator (runtime/expr.h); false with a message on
   an overflow, a division by zero or a dimension out of CUDA's range. */
bool interp_grid(const IrKernel *kernel, const InterpArg *args, int num_args, int64_t grid[3],
                 InterpError *error);

#endif
