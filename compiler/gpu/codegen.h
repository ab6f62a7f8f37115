/*
 * codegen.h: the backend's one internal header (no LLVM in it).
 *
 * The backend takes a kernel's tile IR after the tile passes and makes PTX
 * and cubins:
 *
 *     layout_assign      which thread holds which tile element (layout.c)
 *     shared_alloc       offsets in the dynamic shared buffer (shared_alloc.c)
 *     codegen_kernel     LLVM IR, PTX per arch, cubin per arch (emit.c, llvm_*.c)
 *
 * Layouts (the model is Triton's "distributed" layouts). A layout is a map
 * from (thread, register) to a tile element; it is independent of the tile's
 * shape, which is applied to it (layout_map):
 *
 *   BLOCKED  per dim: size_per_thread (a contiguous run in one thread; along
 *            the last dim it is the vector of a 16-byte load or store),
 *            threads_per_warp, warps_per_cta, and an order (fastest dim
 *            first) in which lanes and warps are numbered. The product of
 *            threads_per_warp is 32 and of warps_per_cta the warp count. A
 *            dim shorter than the layout's reach is replicated: several
 *            threads hold the same element. A dim whose size is not a power
 *            of two lives wholly in every thread's registers.
 *   SLICE    a parent layout with one dim removed: what a reduction over that
 *            dim leaves (the threads that were spread along it now hold
 *            copies of the same result).
 *
 * Layouts are opaque outside the layout code (layout_internal.h holds the
 * representation; the Makefile keeps every other file from including it).
 * The lowering asks a LayoutMap (a layout applied to a shape) the questions
 * of the "Layout interface" below: register counts and offsets, the
 * thread's coordinates and unique-copy conditions as sums of terms over the
 * lane and warp index, contiguous runs, reduction lanes and warps, warps
 * along a dim. A new kind (a general linear layout, mma and wgmma
 * fragments) answers the same questions; until a direct conversion is
 * written, one to or from it goes through shared memory.
 *
 * Where a value must change layout (an operand whose wanted layout differs,
 * transpose, extract, a general reshape or broadcast, dot operands, the
 * cross-warp step of a reduction) the lowering goes through shared memory:
 * the op gets a scratch buffer, and shared_alloc gives every scratch buffer
 * and every `alloc` an offset by liveness over the op order.
 */
#ifndef TESSERA_CODEGEN_H
#define TESSERA_CODEGEN_H

#include "ir.h"

/* ---- layouts (layout.c) ---------------------------------------------------- */

/* Opaque outside the layout code (layout_internal.h): the lowering asks the
   questions below and never reads a layout's fields. */
typedef struct Layout Layout;
/* A layout applied to a tile shape. Register r of a thread holds the element
   whose coordinate along dim d is layout_thread_coord(d) + the r-th
   layout_reg_offsets(d); registers are numbered row-major over the dims'
   register counts (layout_dim_regs). */
typedef struct LayoutMap LayoutMap;

bool layout_equal(const Layout *a, const Layout *b);
/* The layout of `parent`'s tiles with dim `dim` removed (a reduction's result). */
const Layout *layout_slice(IrKernel *kernel, const Layout *parent, int dim);
/* Writes "blocked<spt=[1,4] tpw=[2,16] wpc=[4,1] order=[1,0]>" or
   "slice<dim=1, blocked<...>>". */
void layout_format(const Layout *layout, char *buf, size_t size);

/* ---- Layout interface: what the lowering asks of a map (layout.c) ----
   Thread-dependent quantities come as sums of terms over the lane (0..31)
   and warp index, which the lowering turns into i32 arithmetic. A term's
   values are a bit field of the result, disjoint from the other terms',
   so the sum is also their OR or XOR: a linear (GF(2)) layout gives one
   term per lane or warp bit, a blocked one a term per dim. */
typedef enum LayoutIndex { LAYOUT_LANE, LAYOUT_WARP } LayoutIndex;
/* ((index / divisor) % count) * scale; count 0: no modulo. */
typedef struct LayoutTerm {
    LayoutIndex index;
    int divisor;
    int count;
    int64_t scale;
} LayoutTerm;
enum { LAYOUT_MAX_TERMS = 12, LAYOUT_MAX_CONDITIONS = 2 * IR_MAX_RANK + 2, LAYOUT_MAX_LANE_MASKS = 5 };
/* The sum of its terms (none: 0). */
typedef struct LayoutExpr {
    int num_terms;
    LayoutTerm terms[LAYOUT_MAX_TERMS];
} LayoutExpr;
/* This thread's coordinate along a dim: (position * scale) % modulus, from
   one of the map's thread positions (layout_thread_positions); position
   -1: the coordinate is 0; modulus 0: none, else a power of two. */
typedef struct LayoutCoord {
    int position;
    int64_t scale;
    int64_t modulus;
} LayoutCoord;
/* Holds when value < bound (unsigned), the value being thread position
   `position`, or (position -1) expr. `dim` says what it is about: -1 the
   lanes and warps past the layout's, d < rank the copies along tile dim d,
   rank the dims a slice removed. */
typedef struct LayoutCondition {
    int position;
    LayoutExpr expr;
    int64_t bound;
    int dim;
} LayoutCondition;

/* `layout` applied to `shape`, from the kernel's arena. */
const LayoutMap *layout_map_new(IrKernel *kernel, const Layout *layout, const IrType *shape);
/* Registers per thread, and registers along dim d (their product). */
int64_t layout_num_regs(const LayoutMap *map);
int64_t layout_dim_regs(const LayoutMap *map, int d);
/* The compile-time part of register r's coordinates, one per dim. */
void layout_reg_offsets(const LayoutMap *map, int64_t reg, int64_t *offsets);
/* Register index of per-dim register indices (row-major). */
int64_t layout_reg_index(const LayoutMap *map, const int64_t *dim_regs);
/* The thread positions (returns how many, at most IR_MAX_RANK): the values
   a thread computes once, from which its coordinates and unique conditions
   are made (blocked: its index along each dim of the root layout). */
int layout_thread_positions(const LayoutMap *map, LayoutExpr *positions);
/* This thread's coordinate along dim d (the part every register adds its
   offset to), in [0, size of dim d). */
void layout_thread_coord(const LayoutMap *map, int d, LayoutCoord *out);
/* The conditions (all must hold; returns how many, in order of dim) under
   which this thread holds the first copy of each of its elements: of the
   threads that hold an element, exactly one meets them. A block of
   `threads` threads. */
int layout_unique_conditions(const LayoutMap *map, int threads, LayoutCondition *out);
/* Along dim d, runs of this many registers with consecutive indices along
   d (the others equal; for the last dim, consecutive registers), starting
   at a multiple of it, hold consecutive elements, the first at a coordinate
   that is a multiple of it (1: no such promise). Vector accesses use it. */
int64_t layout_contiguous_run(const LayoutMap *map, int d);
/* A reduction along dim d: the xor masks of the lane index (a butterfly,
   smallest first) that reach every lane of the warp holding a distinct
   partial of this thread's results (returns how many, at most
   LAYOUT_MAX_LANE_MASKS). After it every lane holds its warp's partial. */
int layout_reduce_lane_masks(const LayoutMap *map, int d, int *masks);
/* A reduction along dim d: how many warps hold distinct partials of this
   thread's results, and (when more than one) this warp's index among them,
   in [0, count). */
int layout_reduce_warps(const LayoutMap *map, int d, LayoutTerm *index);
/* The warps along dim d (mma: warps along M, N) and this warp's index
   among them, in [0, count). */
int layout_warps_along(const LayoutMap *map, int d, LayoutTerm *index);

/* Tensor-core dots (layout.c decides, llvm_dot.c lowers) stage A as
   [m][k + 8] and B as [k][n + 8] (or, for B = transpose(x), x as
   [n][k + 8]) f16/bf16 elements in shared memory: the 16
   padding bytes per row put the 8 rows that one ldmatrix phase reads into 8
   different 16-byte bank groups (no bank conflict). */
static inline int64_t layout_mma_pitch(int64_t row_elements) { return row_elements + 8; }

/* What layout_assign decided for one op. */
typedef struct OpPlan {
    IrOp *op;
    int index;                         /* position in program order (pre-order) */
    int end_index;                     /* last index inside its regions (= index without) */
    const Layout **operand_layouts;    /* wanted layout per operand; NULL: as it is */
    bool via_shared;                   /* a shape op that rearranges through shared memory */
    bool mma;                          /* a dot on tensor cores (mma.sync.m16n8k16) */
    bool mma_b_transposed;             /* mma: operand 1 is transpose(x), x staged as it is */
    bool elided;                       /* not lowered: its only user reads its operand instead */
    int64_t scratch_bytes;             /* shared scratch this op needs (alloc: its buffer) */
    int64_t scratch_offset;            /* from shared_alloc */
} OpPlan;

typedef struct ValuePlan {
    const Layout *layout;              /* tiles only; NULL for refs */
    bool flexible;                     /* computed from constants and single elements:
                                          the lowering rematerializes it in any layout */
} ValuePlan;

typedef struct KernelPlan {
    IrKernel *kernel;
    int threads;
    ValuePlan *values;                 /* indexed by IrValue.id (numbered by layout_assign) */
    int num_values;
    OpPlan *ops;                       /* in program order */
    int num_ops;
    int64_t shared_bytes;              /* from shared_alloc: the dynamic shared size */
    /* op -> OpPlan lookup (open addressing) */
    OpPlan **table;
    int table_size;
} KernelPlan;

/* Gives every tile value of `kernel` a layout and every op its operand
   layouts and scratch needs. Numbers the kernel's values (IrValue.id); the
   numbering must stay until the kernel is lowered. Allocates from the
   kernel's arena. */
KernelPlan *layout_assign(IrKernel *kernel, int threads);
OpPlan *layout_op_plan(const KernelPlan *plan, const IrOp *op);
const Layout *layout_of(const KernelPlan *plan, const IrValue *value);
/* The layout that loads and stores of `shape` use: per-thread vectors of up
   to 16 bytes along the last dim, lanes then warps filled from the fastest
   dim, so that a warp's accesses are contiguous. */
const Layout *layout_blocked_default(IrKernel *kernel, const IrType *shape, int threads);
/* A value of shape `type`: how many registers each thread holds. */
int64_t layout_regs_per_thread(const Layout *layout, const IrType *type);
/* The register rule (layout.c): false, after an error at the op, when a
   tile value needs more than a thread's 255 registers by itself. */
bool layout_check_registers(const KernelPlan *plan);

/* ---- shared memory (shared_alloc.c) ----------------------------------------- */

/* Gives every op scratch buffer and every `alloc` an offset in the dynamic
   shared buffer: intervals over the op order, reuse where lifetimes do not
   overlap, 16-byte alignment. Sets each OpPlan's scratch_offset (an alloc's
   buffer is its op's scratch) and plan->shared_bytes. */
void shared_alloc(KernelPlan *plan);
/* The first op (program order) whose buffer ends past `limit`, or NULL. */
const OpPlan *shared_over_limit(const KernelPlan *plan, int64_t limit);

/* ---- code generation (emit.c) --------------------------------------------------- */

typedef struct CodegenArch {
    const ArchInfo *arch;
    int ptx_version;                   /* e.g. 80 for PTX ISA 8.0 */
    char *ptx;                         /* NUL-terminated */
    size_t ptx_size;
    char *cubin;                       /* NULL when no ptxas was found */
    size_t cubin_size;
    int registers, spill_stores, spill_loads;
    int ptxas_shared_bytes;            /* static shared memory ptxas reports */
    struct PtxasJob *ptxas_job;        /* running until codegen_finish (emit.c) */
} CodegenArch;

typedef struct CodegenKernel {
    const IrKernel *kernel;
    const char *entry;                 /* entry symbol, e.g. matmul_BM128_BN128_BK64 */
    int threads;
    int64_t shared_bytes;              /* dynamic shared memory per block */
    char *llvm_ir;                     /* --emit llvm: optimized for the first arch */
    size_t llvm_ir_size;
    CodegenArch archs[8];
    int num_archs;
} CodegenKernel;

typedef struct CodegenOptions {
    const ArchInfo *const *archs;
    int num_archs;
    bool want_llvm, want_ptx, want_cubin;
    const char *source_name;           /* module's source_filename: a basename */
    const char *const *ptxas_args;     /* -Xptxas, appended to each ptxas command */
    int num_ptxas_args;
} CodegenOptions;

/* Lowers one kernel for every arch. On failure returns false after either
   a diagnostic (a limit of the register rule or of shared memory, at the op;
   a temporary file for ptxas that cannot be written; diag_error_count() > 0)
   or an internal error naming the kernel; never aborts on valid IR (LLVM's
   fatal errors become internal errors). The buffers in `out` are malloc'd;
   codegen_kernel_free releases them. */
bool codegen_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out);
/* ptxas runs in the background (a child per arch, several at once):
   codegen_kernel starts it, codegen_finish waits for the kernel's cubins and
   reports a failure as codegen_kernel does its own (after a diagnostic, or
   as an internal error). codegen_kernel_free stops what is still running. */
bool codegen_finish(CodegenKernel *out);
void codegen_kernel_free(CodegenKernel *out);
/* For a signal handler (main.c): kills and reaps every running ptxas and
   removes the jobs' temporary directories; async-signal-safe. */
void codegen_stop_jobs_on_signal(void);
/* The PTX ISA version chosen for an arch (80 = 8.0). */
int codegen_ptx_version(const ArchInfo *arch);
/* Whether a ptxas exists: $PTXAS, then PATH, then /usr/local/cuda/bin. */
const char *codegen_find_ptxas(void);

/* ---- C bindings (embed.c) ----------------------------------------------------- */

/* An artifact embedded in the C source, under the name the manifest gives it. */
typedef struct EmbedImage {
    const char *file;                  /* "relu.relu.sm_90.cubin" */
    const char *data;
    size_t size;
} EmbedImage;

typedef struct EmbedInput {
    const char *stem;                  /* names the files: STEM.h, STEM.c */
    const char *source_name;           /* the input's base name, for comments */
    const CodegenKernel *kernels;      /* in manifest order */
    int num_kernels;
    const char *manifest;              /* the manifest text naming the images */
    size_t manifest_size;
    const EmbedImage *images;
    int num_images;
} EmbedInput;

/* --emit header: one typed launch function per kernel (STEM.h). */
void embed_header(const EmbedInput *in, FILE *out);
/* --emit source: the embedded manifest and images and the functions (STEM.c). */
void embed_source(const EmbedInput *in, FILE *out);

#endif
