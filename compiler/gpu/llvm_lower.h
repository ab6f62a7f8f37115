/*
 * llvm_lower.h: shared state of the llvm_*.c lowering files (tile IR ->
 * LLVM IR). The one header outside emit.c that includes LLVM-C; only the
 * backend's LLVM files include it, so LLVM stays behind the backend wall.
 *
 * Each tile value becomes the registers its layout gives this thread: a
 * Tile. Each ref value becomes a Ref: a base pointer, an element offset,
 * per-dim strides and the bounds that decide the edge masks. Both tables are
 * indexed by IrValue.id (layout_assign's numbering) and live only while one
 * kernel is lowered: the IR never holds an LLVM handle.
 */
#ifndef TESSERA_LLVM_LOWER_H
#define TESSERA_LLVM_LOWER_H

#include "codegen.h"

#include <llvm-c/Core.h>

/* This thread's registers of one tile value. */
typedef struct Tile {
    const Layout *layout;
    IrType type;
    const LayoutMap *map;              /* layout applied to type (layout_map_new) */
    int64_t num_regs;                  /* layout_num_regs(map) */
    LLVMValueRef *regs;                /* num_regs of them */
    LLVMValueRef splat;                /* flexible values: the one element they all are */
} Tile;

/* A position l along one dim of a ref is in bounds iff lo <= l < hi for
   every bound (lo NULL: no lower bound; hi NULL: no upper bound). */
typedef struct RefBound {
    LLVMValueRef lo, hi;               /* i32 */
} RefBound;

enum { REF_MAX_BOUNDS = 8 };

typedef struct RefDim {
    LLVMValueRef stride;               /* i64, in elements */
    bool unit_stride;                  /* stride is 1: vector accesses possible */
    int num_bounds;
    RefBound bounds[REF_MAX_BOUNDS];
} RefDim;

typedef struct Ref {
    DType dtype;
    MemSpace space;
    LLVMValueRef base;                 /* ptr addrspace(1) or addrspace(3) */
    LLVMValueRef offset;               /* i64 elements from base to the view's origin */
    int rank;
    RefDim dims[IR_MAX_RANK];
    LLVMValueRef valid;                /* i1: dropped (indexed) dims in bounds; NULL: true */
    bool readonly;                     /* an `in` array (or a view of one): ld.global.nc */
    const SharedSwizzle *swizzle;      /* a view of a wgmma operand's alloc: offsets are of its
                                          dense row-major form, addresses swizzled; NULL: none */
} Ref;

/* Per (layout, shape): this thread's coordinate bases and whether it holds
   the first copy of its elements. Computed once, in the entry block. */
typedef struct ThreadInfo {
    const Layout *layout;
    IrType type;
    LLVMValueRef base[IR_MAX_RANK];    /* i32: layout_thread_coord */
    LLVMValueRef unique;               /* i1 */
    struct ThreadInfo *next;
} ThreadInfo;

/* The `for` being lowered: values a dot carries around its back edge
   (llvm_dot.c's carry): phis in `header`, their initial values computed
   in `pre` (before its branch), and the values the latch hands back. */
typedef struct LoopLowering {
    IrOp *op;
    LLVMBasicBlockRef pre, header;
    PtrVec phis, nexts;                /* LLVMValueRef each, matched by index */
    LLVMValueRef first;                /* i1 in the body: this is the first trip */
    bool *zero_start;                  /* per loop argument (less the counter): an async wgmma's
                                          accumulator that starts as zeros, left undefined in
                                          front of the loop (its first trip's wgmma does not
                                          read it: scale-d 0), the exit's result 0 without trips */
    struct LoopLowering *outer;
} LoopLowering;

enum { LOWERING_MAX_IN_FLIGHT = 4 };

typedef struct Lowering {
    LLVMContextRef ctx;
    LLVMModuleRef module;
    LLVMBuilderRef b;                  /* where code goes */
    LLVMBuilderRef entry;              /* the entry block, before its branch */
    LLVMValueRef fn;
    KernelPlan *plan;
    IrKernel *kernel;
    Tile **tiles;                      /* by IrValue.id */
    Ref **refs;
    ThreadInfo *threads;
    Tile **converted;                  /* by ConvertRecord.id: hoisted conversions while their loop is lowered */
    LLVMValueRef smem;                 /* the dynamic shared buffer */
    LLVMValueRef tid, lane, warp;      /* i32 */
    LoopLowering *loop;                /* the innermost `for` being lowered; NULL outside */
    bool grouped_grid;                 /* program ids in groups of rows (llvm_kernel.c program_ids) */
    bool heavy_first;                  /* program id 0 backwards (llvm_kernel.c heavy_first_grid) */
    LLVMValueRef program_ids[2];       /* ... computed at the first program_id */
    LLVMValueRef tma_armed, tma_waited, tma_bytes, tma_history;   /* a TMA plan's counters (llvm_tma.c) */
    LLVMValueRef tma_rank;             /* ... with releases: the issuing rank (alloca); NULL: tid */
    bool producer_mode;                /* lowering the producer warpgroup's slice (llvm_kernel.c
                                          split_producer): only OpPlan.producer ops */
    bool consumers_only;               /* past the split: a block barrier is the consumers' own
                                          (named barrier 3 of KernelPlan.threads) */
    /* wgmma dots whose group is committed but not waited for (llvm_dot.c
       llvm_dot_settle), oldest first: each result's registers are read
       only after a wait_group that leaves fewer groups in flight */
    struct {
        const IrValue *value;
        Tile *tile;
    } in_flight[LOWERING_MAX_IN_FLIGHT];
    int num_in_flight;
    LLVMTypeRef i1, i8, i16, i32, i64, f16, bf16, f32, f64, ptr_global, ptr_shared, void_type;
} Lowering;

/* llvm_kernel.c */
bool llvm_kernel_lower(KernelPlan *plan, LLVMContextRef ctx, LLVMModuleRef module, const char *entry,
                       char *error, size_t error_size);
LLVMTypeRef llvm_kernel_reg_type(Lowering *L, DType dtype);   /* bool: i1 */
LLVMTypeRef llvm_kernel_mem_type(Lowering *L, DType dtype);   /* bool: i8 */
int llvm_kernel_mem_bytes(DType dtype);
/* Calls intrinsic `name` (overloaded on `types`); an unknown name is an
   internal error, never an LLVM abort or a .extern call (toolchain.md). */
LLVMValueRef llvm_kernel_intrinsic(Lowering *L, const char *name, LLVMTypeRef *types, int num_types,
                                   LLVMValueRef *args, int num_args);
LLVMValueRef llvm_kernel_i32(Lowering *L, int64_t v);
LLVMValueRef llvm_kernel_i64(Lowering *L, int64_t v);
/* Lane 0's i32 `v` in every lane (shfl.sync.idx, the whole warp present):
   ptxas then knows it is warp-uniform and may keep what derives from it
   on the uniform datapath (wgmma descriptors, shared addresses). */
LLVMValueRef llvm_kernel_lane0(Lowering *L, LLVMValueRef v);
/* bar.sync 0, every thread of the block: for the lowering's own protocols
   (the TMA prologue, an async wgmma's ring, a ping-pong exit, ordered
   gather/scatter). */
void llvm_kernel_block_barrier(Lowering *L);
/* bar.sync 0 iff barrier_plan set bit `step` of `barriers` (an OpPlan's
   or a ConvertRecord's). */
void llvm_kernel_barrier_at(Lowering *L, unsigned barriers, BarrierStep step);
/* An async_wait op: the wait, the proxy fence a wgmma kernel needs, its barrier. */
void llvm_kernel_async_wait(Lowering *L, const IrOp *wait);
LLVMBasicBlockRef llvm_kernel_block(Lowering *L, const char *name);
/* Keeps the loop whose back edge is `branch` rolled (LLVM and ptxas). */
void llvm_kernel_no_unroll(Lowering *L, LLVMValueRef branch);
Tile *llvm_kernel_tile_new(Lowering *L, const Layout *layout, const IrType *type);
Tile *llvm_kernel_splat(Lowering *L, const Layout *layout, const IrType *type, LLVMValueRef scalar);
Tile *llvm_kernel_tile(Lowering *L, const IrValue *v);
void llvm_kernel_set_tile(Lowering *L, const IrValue *v, Tile *t);
/* Operand i of op in the layout the plan wants it in (converted if needed). */
Tile *llvm_kernel_operand(Lowering *L, IrOp *op, int i);
/* The scalar of a rank-0 or single-element operand. */
LLVMValueRef llvm_kernel_scalar(Lowering *L, const IrValue *v);
ThreadInfo *llvm_kernel_thread(Lowering *L, const Layout *layout, const IrType *type);
/* A layout term or expression (codegen.h) as i32 arithmetic on L->lane, L->warp. */
LLVMValueRef llvm_kernel_term(Lowering *L, const LayoutTerm *term);
LLVMValueRef llvm_kernel_expr(Lowering *L, const LayoutExpr *expr);
/* Register r's coordinate along dim d (i32). */
LLVMValueRef llvm_kernel_coord(Lowering *L, const Tile *t, const ThreadInfo *ti, int64_t reg, int d);
/* Pointer into the dynamic shared buffer at a byte offset (i32 value). */
LLVMValueRef llvm_kernel_smem(Lowering *L, LLVMValueRef byte_offset);
LLVMValueRef llvm_kernel_and(Lowering *L, LLVMValueRef a, LLVMValueRef b);   /* NULL: true */

/* llvm_memory.c */
void llvm_memory_param(Lowering *L, const IrParam *param, LLVMValueRef arg);
void llvm_memory_view(Lowering *L, IrOp *op);
void llvm_memory_alloc(Lowering *L, IrOp *op);
void llvm_memory_load(Lowering *L, IrOp *op);
void llvm_memory_store(Lowering *L, IrOp *op);
void llvm_memory_atomic(Lowering *L, IrOp *op);
void llvm_memory_gather(Lowering *L, IrOp *op);
void llvm_memory_scatter(Lowering *L, IrOp *op);
void llvm_memory_async_copy(Lowering *L, IrOp *op);
/* Element (0, 0) of a rank-2 shared ref whose rows are contiguous, and the
   elements between rows (a constant): a dot operand read in place. */
LLVMValueRef llvm_memory_shared_rows(Lowering *L, const IrValue *ref, int64_t *pitch);
/* The panel row of a wgmma A operand's alloc that holds tile row `row`
   (i64; codegen.h SharedSwizzle.permute_rows); `row` itself otherwise. */
LLVMValueRef llvm_memory_wgmma_row(Lowering *L, const struct SharedSwizzle *s, LLVMValueRef row);
/* The same for the ring slot `slot` of the view `ring[s, :, :]`. */
LLVMValueRef llvm_memory_shared_rows_at(Lowering *L, const IrValue *view, LLVMValueRef slot, int64_t *pitch);

/* llvm_tma.c: a TMA plan's copies, commits and waits (tma.c) */
void llvm_tma_begin(Lowering *L);      /* the counters and mbarriers, at the start of the body */
void llvm_tma_copy(Lowering *L, IrOp *op);
void llvm_tma_commit(Lowering *L);
void llvm_tma_wait(Lowering *L, const IrOp *op);
/* A TMA store (OpPlan.tma_store), its tile already in its scratch: the
   bulk tensor stores of its boxes, by thread 0. */
void llvm_tma_store(Lowering *L, IrOp *op);
/* Thread 0 waits until its bulk stores have read their shared memory. */
void llvm_tma_store_wait(Lowering *L);
/* At the end of the body: that wait, where a store deferred it. */
void llvm_tma_end(Lowering *L);
/* A ring barrier as a release (OpPlan.ring_release): the block's last warp
   to count itself in issues the open group's copies and arms it. */
void llvm_tma_release(Lowering *L);

/* llvm_convert.c: layout conversions and shape ops through shared memory.
   `barriers`: the BarrierStep bits barrier_plan set for the conversion. */
/* A shared conversion (ConvertRecord: its bytes, pitch, vectors, barriers). */
Tile *llvm_convert_tile(Lowering *L, Tile *t, const ConvertRecord *c);
void llvm_convert_shape_op(Lowering *L, IrOp *op);
/* The result of broadcast op `bcast` again, in layout `to`, from its source. */
Tile *llvm_convert_rebroadcast(Lowering *L, IrOp *bcast, const Layout *to, int64_t scratch_offset, unsigned barriers);
/* v, an index expression (iota, splats and cheap ops over them: convert.c
   decided), recomputed in layout `to`. */
Tile *llvm_convert_remat(Lowering *L, const IrValue *v, const Layout *to);
/* Writes t row-major at a byte offset of the shared buffer (no barrier). */
void llvm_convert_write_shared(Lowering *L, Tile *t, int64_t offset);
/* Reads a shared row-major tile of `src` type at element index `index`. */
LLVMValueRef llvm_convert_read_shared(Lowering *L, DType dtype, int64_t offset, LLVMValueRef index);
LLVMValueRef llvm_convert_linear(Lowering *L, const IrType *type, LLVMValueRef *coords);

/* llvm_math.c */
void llvm_math_const(Lowering *L, IrOp *op);
void llvm_math_iota(Lowering *L, IrOp *op);
void llvm_math_elementwise(Lowering *L, IrOp *op);
LLVMValueRef llvm_math_cast(Lowering *L, LLVMValueRef v, DType from, DType to);
LLVMValueRef llvm_math_binary(Lowering *L, IrOpcode opcode, DType dtype, LLVMValueRef a, LLVMValueRef b);

/* llvm_reduce.c */
void llvm_reduce_op(Lowering *L, IrOp *op);
void llvm_scan_op(Lowering *L, IrOp *op);

/* llvm_debug.c: print and assert (tessc -g) */
void llvm_debug_print(Lowering *L, IrOp *op);
void llvm_debug_assert(Lowering *L, IrOp *op, int number);
/* The IR's program id along `axis` (grouped grids included), i32. */
LLVMValueRef llvm_kernel_program_id(Lowering *L, int axis);
LLVMValueRef llvm_reduce_combine(Lowering *L, IrCombine combine, DType dtype, LLVMValueRef a, LLVMValueRef b);

/* llvm_dot.c */
void llvm_dot_op(Lowering *L, IrOp *op);
/* Ping-pong between two warpgroups (OpPlan.pingpong): a dot's turn taken
   or passed, and a loop's entry and exit. */
void llvm_dot_pingpong(Lowering *L, PingPongStep step);
void llvm_dot_pingpong_enter(Lowering *L);
void llvm_dot_pingpong_leave(Lowering *L);
/* After a loop with an async wgmma dot (OpPlan.wgmma_async): waits for its
   last group and pins the result's registers after the wait. */
void llvm_dot_wgmma_drain(Lowering *L, Tile *result);
void llvm_dot_settle(Lowering *L, const IrOp *op);
/* The ops deferred past an async wgmma dot (OpPlan.deferred_to), lowered
   where the dot says (llvm_kernel.c). */
void llvm_kernel_lower_deferred(Lowering *L, const OpPlan *dot);

#endif
