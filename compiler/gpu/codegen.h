/*
 * codegen.h: the backend's one internal header (no LLVM in it).
 *
 * The backend takes a kernel's tile IR after the tile passes and makes PTX
 * and cubins, once per target: the --arch values are grouped into arch
 * families (target_group; ArchInfo.family, base.h), and each family gets
 * its own plan and LLVM module, from which each of its archs gets its own
 * PTX and cubin. The driver calls the phases one a line
 * (compiler/driver/main.c, backend_target):
 *
 *     layout_assign        which thread holds which tile element (layout.c)
 *     layout_check_registers  the register rule (layout.c)
 *     (the conversion pass, convert.c, goes here)
 *     shared_alloc         offsets in the dynamic shared buffer (shared_alloc.c)
 *     (the barrier pass, barrier.c, goes here or before shared_alloc)
 *     target_check_shared  the plan against its archs' shared memory (target.c)
 *     emit_lower           LLVM IR, libdevice linked (emit.c, llvm_*.c)
 *   per arch of the family:
 *     emit_optimize        globaldce,default<O3> for the arch (emit.c)
 *     emit_ptx             PTX (emit.c)
 *     ptxas_start          ptxas in the background (ptxas.c)
 *   after every kernel's LLVM:
 *     ptxas_collect        the cubins and ptxas's counts (ptxas.c)
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
 * Tensor-core layouts slot in as new kinds (LAYOUT_MMA for mma.sync and
 * wgmma accumulators, LAYOUT_DOT_OPERAND for their A and B operands):
 * layout_map gives each kind's register -> element function, and the
 * lowering already asks only layout_map and layout_equal, so a conversion
 * to or from a new kind goes through shared memory until a direct one is
 * written.
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

typedef enum LayoutKind { LAYOUT_BLOCKED, LAYOUT_SLICE } LayoutKind;

typedef struct Layout {
    LayoutKind kind;
    int rank;                          /* rank of the tiles it distributes */
    /* LAYOUT_BLOCKED */
    int size_per_thread[IR_MAX_RANK];
    int threads_per_warp[IR_MAX_RANK];
    int warps_per_cta[IR_MAX_RANK];
    int order[IR_MAX_RANK];            /* order[0] is the fastest-varying dim */
    /* LAYOUT_SLICE */
    const struct Layout *parent;
    int slice_dim;                     /* the parent's dim that is removed */
} Layout;

/* One dim of a tile under a layout: where its elements are. */
typedef struct LayoutDim {
    int64_t size;                      /* the tile's size along this dim */
    int root_dim;                      /* the dim of the blocked root layout */
    bool in_registers;                 /* not a power of two: whole dim in each thread */
    int spt, tpw, wpc;                 /* size_per_thread (clipped), threads, warps */
    int64_t reach;                     /* spt * tpw * wpc before clipping */
    int64_t regs;                      /* registers along this dim */
    int unique_threads;                /* threads along it that hold distinct elements */
} LayoutDim;

/* A layout applied to a shape. Register r of a thread holds the element
   whose coordinate along dim d is base_d(thread) + layout_reg_offset(d, r);
   registers are numbered row-major over the dims' register counts. */
typedef struct LayoutMap {
    const Layout *root;                /* the blocked layout at the bottom */
    int rank;
    LayoutDim dims[IR_MAX_RANK];
    int64_t num_regs;
    /* root dims the tile does not have (sliced away): their threads replicate */
    int num_sliced;
    int sliced_dims[IR_MAX_RANK];
    /* lane and warp numbering of each root dim: lane_d = lane / lane_stride % tpw */
    int lane_stride[IR_MAX_RANK], warp_stride[IR_MAX_RANK];
} LayoutMap;

void layout_map(const Layout *layout, const IrType *shape, LayoutMap *map);
/* The compile-time part of register r's coordinates, one per dim. */
void layout_reg_offsets(const LayoutMap *map, int64_t reg, int64_t *offsets);
/* Register index of per-dim register indices (row-major). */
int64_t layout_reg_index(const LayoutMap *map, const int64_t *dim_regs);
bool layout_equal(const Layout *a, const Layout *b);
/* The layout of `parent`'s tiles with dim `dim` removed (a reduction's result). */
const Layout *layout_slice(IrKernel *kernel, const Layout *parent, int dim);
/* Writes "blocked<spt=[1,4] tpw=[2,16] wpc=[4,1] order=[1,0]>" or
   "slice<dim=1, blocked<...>>". */
void layout_format(const Layout *layout, char *buf, size_t size);

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
    const ArchInfo *target;            /* the family's arch the plan is for (target.c) */
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
   layouts and scratch needs, for `target` (the plan's arch; every arch of
   its family runs the plan) and `threads` per block. Numbers the kernel's
   values (IrValue.id); the numbering must stay until the kernel is lowered,
   and a second plan (another target) numbers them the same way. Allocates
   from the kernel's arena. The rules do not depend on the target yet. */
KernelPlan *layout_assign(IrKernel *kernel, const ArchInfo *target, int threads);
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

/* ---- targets and results (target.c) ------------------------------------------ */

typedef struct CodegenArch {
    const ArchInfo *arch;
    int ptx_version;                   /* e.g. 80 for PTX ISA 8.0 */
    int threads;                       /* per block, from its target's plan */
    int64_t shared_bytes;              /* dynamic shared memory per block, from the plan */
    char *ptx;                         /* NUL-terminated */
    size_t ptx_size;
    char *cubin;                       /* NULL when no ptxas was found */
    size_t cubin_size;
    int registers, spill_stores, spill_loads;
    int ptxas_shared_bytes;            /* static shared memory ptxas reports */
    struct PtxasJob *ptxas_job;        /* running until ptxas_collect (ptxas.c) */
} CodegenArch;

/* One kernel's results: per --arch (in --arch order, whatever the order the
   families run in) its PTX, cubin and launch facts. */
typedef struct CodegenKernel {
    const IrKernel *kernel;
    const char *entry;                 /* entry symbol, e.g. matmul_BM128_BN128_BK64 */
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

/* A target: one arch family of --arch, with its archs as indices into
   CodegenOptions.archs (and CodegenKernel.archs). One plan and one LLVM
   module serve them all. */
typedef struct CodegenTarget {
    ArchFamily family;
    const ArchInfo *arch;              /* the family's first --arch: the plan's target */
    int archs[8];
    int num_archs;
} CodegenTarget;

/* Groups `options`' archs by family, families in the order of their first
   arch; returns the count (at most ARCH_FAMILY_COUNT). */
int target_group(const CodegenOptions *options, CodegenTarget *targets);
/* The block size of the kernel's plan for a target: 32 * warps today (4
   warps when the kernel names none); a warp-specialized sm_90a plan will
   add its producer warps here. */
int target_threads(const IrKernel *kernel, const CodegenTarget *target);
/* Starts a kernel's results: its entry symbol (the name and the
   compile-time values) and one CodegenArch per --arch. */
void target_begin_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out);
/* After shared_alloc: false, after an error at the op whose buffer crosses
   the limit, when the plan needs more shared memory than an arch of its
   target has. Records the plan's threads and shared bytes in the target's
   CodegenArchs otherwise. */
bool target_check_shared(const KernelPlan *plan, const CodegenTarget *target, CodegenKernel *out);
/* Releases a kernel's buffers and stops its ptxas jobs still running (after
   an error elsewhere). */
void target_free_kernel(CodegenKernel *out);

/* ---- LLVM: lowering, optimization, PTX (emit.c, llvm_*.c) ----------------------- */

/* One target's LLVM context and module, from emit_lower to emit_dispose. */
typedef struct EmitModule EmitModule;

/* Lowers the plan's kernel to one LLVM module (llvm_kernel_lower), with
   libdevice linked when the kernel calls it, the data layout of
   `plan->target`. NULL after an internal error naming the kernel; never
   aborts on valid IR (LLVM's fatal errors become internal errors). */
EmitModule *emit_lower(KernelPlan *plan, const CodegenOptions *options, const char *entry);
/* A copy of the module through "globaldce,default<O3>" with a->arch's
   target machine, kept for emit_ptx. For the first --arch (out->archs[0])
   with --emit llvm, its text goes to out->llvm_ir (malloc'd). False after
   an internal error. */
bool emit_optimize(EmitModule *module, CodegenArch *a, CodegenKernel *out);
/* The optimized copy's PTX in a->ptx (malloc'd); the copy is dropped. False
   after an internal error. */
bool emit_ptx(EmitModule *module, CodegenArch *a);
void emit_dispose(EmitModule *module);
/* The PTX ISA version chosen for an arch (80 = 8.0). */
int emit_ptx_version(const ArchInfo *arch);

/* ---- ptxas (ptxas.c) ------------------------------------------------------------ */

typedef struct PtxasJob PtxasJob;

/* Whether a ptxas exists: $PTXAS, then PATH, then /usr/local/cuda/bin. */
const char *ptxas_find(void);
/* Starts `ptxas` on a->ptx in the background (-arch, -v, the -Xptxas
   options); a job that cannot start comes back failed, for ptxas_collect to
   report. */
PtxasJob *ptxas_start(const char *ptxas, const CodegenOptions *options, CodegenArch *a, const char *entry);
/* Waits for every job of the kernel and reads the cubins and ptxas's counts
   into its CodegenArchs. False after a diagnostic (diag_error_count() > 0:
   the machine's limits, -Xptxas) or an internal error (ptxas rejected our
   PTX). */
bool ptxas_collect(CodegenKernel *out);
/* Kills and reaps a job's ptxas and removes its directory (not its memory). */
void ptxas_stop(PtxasJob *job);
/* For a signal handler (main.c): kills and reaps every running ptxas and
   removes the jobs' temporary directories; async-signal-safe. */
void ptxas_stop_all_on_signal(void);

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
