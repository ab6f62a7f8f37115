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
 *     convert_plan         every layout conversion: method, placement (convert.c)
 *     shared_alloc         offsets in the dynamic shared buffer (shared_alloc.c)
 *     barrier_plan         where bar.sync goes (barrier.c)
 *     target_check_shared  the plan against its archs' shared memory (target.c)
 *     emit_lower           LLVM IR, libdevice linked (emit.c, llvm_*.c)
 *   per arch of the family:
 *     emit_optimize        globaldce,default<O3> for the arch (emit.c)
 *     emit_ptx             PTX (emit.c)
 *     ptxas_start          ptxas in the background (ptxas.c)
 *   after every kernel's LLVM:
 *     ptxas_collect        the cubins and ptxas's counts (ptxas.c)
 *
 * Each of the first four adds to the KernelPlan; plan_print.c prints it
 * (--dump-after=layout, convert, shared, barrier). The lowering executes
 * the plan and decides nothing.
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
 * cross-warp step of a reduction) it goes through shared memory: the op
 * gets a scratch buffer, and shared_alloc gives every scratch buffer and
 * every `alloc` an offset by liveness over the op order.
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

/* `layout` applied to `shape`, from the kernel's arena, with its linear
   map over the kernel's warps (linear_layout.h), from which the answers
   below come. */
const LayoutMap *layout_map_new(IrKernel *kernel, const Layout *layout, const IrType *shape);
/* That linear map, or NULL where the map has none (a layout applied to a
   tile of another rank, or one linear_from_layout cannot express). */
const struct LinearLayout *layout_map_linear(const LayoutMap *map);
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

/* The shared layout of an alloc that wgmma reads through matrix descriptors
   (layout.c decides, llvm_memory.c writes it, llvm_dot.c describes it; PTX
   ISA 9.7.15.5.1.2). Each slot (the leading dims; a rank-2 alloc is one
   slot) holds its rows x cols tile as panels of `panel` elements of each
   row (cols / panel panels, one after the other), each panel row `panel`
   x elem_bytes bytes (32, 64 or 128: the swizzle mode), the 16-byte chunks
   of a row XORed with its row's bits as the hardware's Swizzle<B,4,3> does
   (byte offset ^= ((offset >> 7) & (panel bytes / 16 - 1)) << 4, the offset
   counted from a 1024-byte boundary). With `permute_rows` (an A operand),
   tile row r sits at the panel row of llvm_memory_wgmma_row: the order in
   which a warpgroup's m64 tiles give each thread the rows of the blocked
   mma layout (layout.c, "wgmma"). */
typedef struct SharedSwizzle {
    int64_t rows, cols;                /* of one slot; 0: not swizzled */
    int panel;                         /* elements of a row per panel: 32, 64 or 128 bytes' worth */
    int elem_bytes;                    /* 2 (f16, bf16) or 1 (fp8: wgmma's k32 form) */
    bool permute_rows;
    int warps, slabs;                  /* permute_rows: the block's warps, 64-row slabs per warpgroup */
} SharedSwizzle;

struct ConvertRecord;

/* What layout_assign decided for one op (and, below the line, what the
   conversion, shared-memory and barrier passes added). */
/* A tensor-core dot's k steps of 16 up to this many are straight-line code
   (llvm_dot.c); beyond, a rolled loop. */
enum { LAYOUT_MMA_UNROLLED_STEPS = 4 };

typedef struct OpPlan {
    IrOp *op;
    int index;                         /* position in program order (pre-order) */
    int end_index;                     /* last index inside its regions (= index without) */
    const Layout **operand_layouts;    /* wanted layout per operand; NULL: as it is */
    bool via_shared;                   /* a shape op that rearranges through shared memory */
    bool mma;                          /* a dot on tensor cores (mma.sync.m16n8k16, or wgmma) */
    bool wgmma;                        /* mma on sm_90a's wgmma.mma_async.m64nNk16: B (and A, or
                                          A from registers) read in place from swizzled allocs
                                          (alloc_swizzle) */
    bool wgmma_async;                  /* wgmma in a loop, its result only carried into itself:
                                          its group stays in flight into the next iteration, the
                                          ring's copies before it deferred past it (layout.c
                                          plan_wgmma_async, llvm_dot.c) */
    struct OpPlan *deferred_to;        /* an op lowered after this dot (an async wgmma's: the
                                          ring's copies), not in place */
    bool mma_fp8;                      /* mma: fp8 tensor cores (mma.sync.m16n8k32, or wgmma's k32
                                          form): a `dot fp8` of cast a8 and cast x8.T, the casts
                                          and the transpose elided; a8 and x8 (k-major) read in
                                          place from rings or staged as bytes (llvm_dot.c) */
    bool mma_b_transposed;             /* mma: operand 1 is transpose(x), x staged as it is */
    bool mma_a_shared, mma_b_shared;   /* mma: the operand (x for a transposed B) is a load of
                                          an alloc, which ldmatrix reads in place (not staged) */
    IrOp *mma_carry_wait;              /* mma, both operands ring slots: the async_wait after it
                                          in its loop body, which the dot lowers itself, loading
                                          the next slot's first k step across its barrier
                                          (layout.c plan_carry, llvm_dot.c); NULL: none */
    struct OpPlan *carry_dot;          /* async_wait: the dot that lowers it (mma_carry_wait) */
    int64_t alloc_pitch;               /* alloc: elements between rows (its last dim padded,
                                          0: dense): the rings async copies fill */
    SharedSwizzle alloc_swizzle;       /* alloc: the wgmma layout (rows 0: none) */
    int tma_map;                       /* async_copy of a TMA plan: 1 + its KernelPlan.tma_maps
                                          index (tma.c); 0: none */
    int tma_store;                     /* store of a TMA plan: 1 + the tma_maps index of the map
                                          it stores through (tma.c, "TMA stores"); 0: none */
    SharedSwizzle tma_store_swizzle;   /* tma_store: its scratch, the tile in the map's boxes */
    bool tma_store_deferred;           /* tma_store at a persistent tile loop's top level: its
                                          scratch is its own from the loop on (shared_alloc), and
                                          the wait for the boxes' reads comes before the next
                                          tile's writes of it (and at the kernel's end), so the
                                          next tile starts while they drain */
    /* tma_schedule (tma.c), a TMA plan under --hopper-schedule release or
       pingpong: */
    bool ring_release;                 /* async_copy: its ring barrier is a release instead (each
                                          warp counts itself in; the last one issues the copies) */
    unsigned pingpong;                 /* PingPongStep bits: the loop's entry and exit, a dot's
                                          turn taken before its issue or passed on after it */
    /* ... under --hopper-schedule producer (tma.c producer_slice): */
    bool producer;                     /* the producer warpgroup runs it too: an async copy or
                                          commit, or what their operands, guards and trip
                                          counts come from (scalars, views, allocs, for, if) */
    bool consumer_barrier;             /* async_copy, async wgmma dot: the consumers keep the
                                          barrier barrier.c (or the dot) put there, as their own
                                          (a copy's after fence.proxy.async): it is not in a loop
                                          whose warps share nothing but the ring (tma.c) */
    bool elided;                       /* not lowered: its only user reads its operand instead */
    int64_t scratch_bytes;             /* shared scratch this op needs (alloc: its buffer) */
    int64_t scratch_offset;            /* from shared_alloc */
    /* convert_plan */
    struct ConvertRecord **operand_converts; /* per operand: how it arrives in its
                                          wanted layout; NULL: as it is */
    struct ConvertRecord **hoisted;    /* a `for`: conversions done once before it */
    int num_hoisted;
    bool remat;                        /* a via_shared shape op whose result is an index
                                          expression: recomputed, no shared memory */
    /* barrier_plan: bit s set = a barrier at the op's own step s
       (BarrierStep), and which of a reduction's two slots it writes */
    unsigned barriers;
    int reduce_slot;
    int64_t reduce_slot_bytes;         /* a cross-warp reduction: bytes of one slot */
    /* A scan (layout.c scan_shape, llvm_reduce.c): along its axis each
       thread holds `scan_reps` runs of `scan_chunk` consecutive elements;
       `scan_lanes` lanes, then `scan_warps` warps, take consecutive runs,
       and the pattern repeats (coordinate = rep * reach + warp * chunk *
       lanes + lane * chunk + e). No copies along the axis. */
    int scan_chunk, scan_lanes, scan_warps, scan_reps;
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
    bool wgmma;                        /* some dot runs on wgmma: cp.async waits end with
                                          fence.proxy.async, allocs are 1024-aligned */
    bool heavy_first;                  /* --grid-order=heavy-first (CodegenOptions.grid_heavy_first) */
    /* tma_plan (tma.c): every async copy a TMA bulk copy completing on an
       mbarrier, through the tensor maps below (one kernel parameter each,
       after the kernel's own); false in a plan that was not asked for it */
    bool tma;
    struct TmaMap *tma_maps;
    int num_tma_maps;
    int tma_barriers;                  /* mbarriers, one per commit group modulo their count */
    int64_t tma_barrier_offset;        /* shared_alloc: their 8-byte words, after every buffer */
    int64_t tma_release_offset;        /* tma_schedule: the release counters' 4-byte words, one
                                          per mbarrier, after them; 0: no release */
    /* tma_schedule under --hopper-schedule producer: a warpgroup of its own
       issues the copies (warp specialization; docs/codegen.md "Warpgroup
       schedules"). `threads` stays the consumers', whose layouts it sizes. */
    int producer_threads;              /* 128, after the consumers' threads; 0: none */
    bool *producer_values;             /* by IrValue.id: the values the producer computes */
    int64_t tma_empty_offset;          /* the empty mbarriers' 8-byte words, one per full one */
    int producer_registers;            /* setmaxnreg: the producer's and the consumers' */
    int consumer_registers;            /* registers a thread (0: no setmaxnreg) */
    struct ConvertRecord **converts;   /* convert_plan: every conversion, in program order */
    int num_converts;
    struct SharedBuffer *buffers;      /* shared_alloc: every buffer, in program order */
    int num_buffers;
    struct BarrierRecord *barrier_list; /* barrier_plan: every barrier, in program order */
    int num_barriers;
    /* op -> OpPlan lookup (open addressing) */
    OpPlan **table;
    int table_size;
} KernelPlan;

/* A tensor map (CUtensorMap, built by the runtime at launch from the
   manifest's record, docs/manifest.md "tma") through which TMA copies tiles
   of one array parameter into a swizzled alloc: boxes of box[d] elements
   along each array dim d (outermost first; 1 along a dim a view indexes),
   the innermost box one swizzle panel wide (swizzle_bytes, matching the
   alloc's SharedSwizzle), out-of-bounds elements filled with zeros. */
typedef struct TmaMap {
    int param;                         /* index in kernel->params (an array) */
    int rank;
    int64_t box[IR_MAX_RANK];
    int swizzle_bytes;                 /* 32, 64 or 128 */
    DType dtype;
    /* > 0: a wgmma A operand's rows (SharedSwizzle.permute_rows) through a
       5-dim map whose boxes are 64 rows in wgmma order (tma.c); the block's
       warps and 64-row slabs per warpgroup */
    int row_warps, row_slabs;
    bool store;                        /* stores go through it (tma.c "TMA stores"), not copies */
} TmaMap;

/* TMA (sm_90a; docs/codegen.md "TMA"): whether every async copy of the
   plan's kernel can be a bulk tensor copy, and if so marks the plan (tma,
   tma_maps, OpPlan.tma_map). Runs after layout_assign, on a plan of its
   own: the kernel's other entry keeps cp.async. With `stores`, an
   epilogue store that would go through shared memory (layout.c
   store_through_shared) goes out as bulk tensor stores instead
   (OpPlan.tma_store): under TMA_STORE_AUTO a store at the kernel's top
   level only, under TMA_STORE_ON a persistent tile loop's too. */
typedef enum TmaStoreMode { TMA_STORE_AUTO, TMA_STORE_OFF, TMA_STORE_ON } TmaStoreMode;
bool tma_plan(KernelPlan *plan, TmaStoreMode stores);
/* --hopper-schedule (docs/codegen.md, "Warpgroup schedules"): how the
   warpgroups of a TMA entry's loop share its ring. Lockstep: the ring's
   block barrier every trip; release: each warp counts itself out of a slot
   and the last one refills it, so warpgroups drift apart; pingpong: release,
   and two warpgroups take turns issuing their wgmma dots (FlashAttention-3's
   schedule), one's softmax beside the other's tensor-core work.
   Producer: one more warpgroup issues every copy and the consumers only
   wait for full slots and count themselves out of empty ones
   (FlashAttention-3's and CUTLASS's warp specialization); producer-pingpong:
   that, and pingpong's turns between the two consumer warpgroups.
   Auto (the default): producer where it was measured to pay, a loop of two
   wgmma dots (flash attention) run by two consumer warpgroups; lockstep
   elsewhere (docs/performance.md, "Session 30"). */
typedef enum HopperSchedule {
    SCHEDULE_AUTO, SCHEDULE_LOCKSTEP, SCHEDULE_RELEASE, SCHEDULE_PINGPONG, SCHEDULE_PRODUCER, SCHEDULE_PRODUCER_PINGPONG
} HopperSchedule;

/* OpPlan.pingpong bits. Warpgroup g's turn is named barrier 1 + g, of
   both warpgroups' threads: it takes its turn by waiting there (bar.sync)
   and passes it by arriving at the other's (bar.arrive). */
typedef enum PingPongStep {
    PINGPONG_LOOP,                     /* a for: warpgroup 0 holds the first turn; it passes the last */
    PINGPONG_PASS_AFTER,               /* a wgmma dot: the turn passed once its group is committed */
    PINGPONG_TAKE_BEFORE,              /* a wgmma dot: the turn taken before its wgmma.fence */
} PingPongStep;
/* Whether `op` is an `if` that only issues async copies (a ring's fill,
   passes/pipeline.c): views, async_copy, scalars and an empty yield. */
bool layout_copies_only(const IrOp *op);
/* After barrier_plan, on a TMA plan: under `schedule`, marks each loop whose
   only barriers are its ring's (OpPlan.ring_release, KernelPlan.
   tma_release_offset, with room for the counters) and, for pingpong, the
   two-warpgroup loops of two wgmma dots (OpPlan.pingpong). */
void tma_schedule(KernelPlan *plan, HopperSchedule schedule);
/* For the lowering: the array-dim coordinates of the origin of `ref`, a
   TMA copy's source or a TMA store's destination. Each array dim d gets
   the one view offset along it (coords[d], or NULL for 0); tile_dim[d] is
   the tile's dim that runs along array dim d, or -1 when a view indexes d. */
void tma_array_dims(const KernelPlan *plan, const IrValue *ref, const IrValue **coords, int *tile_dim);

/* Gives every tile value of `kernel` a layout and every op its operand
   layouts and scratch needs, for `target` (the plan's arch; every arch of
   its family runs the plan) and `threads` per block. Numbers the kernel's
   values (IrValue.id); the numbering must stay until the kernel is lowered,
   and a second plan (another target) numbers them the same way. Allocates
   from the kernel's arena. The rules do not depend on the target yet. */
KernelPlan *layout_assign(IrKernel *kernel, const ArchInfo *target, int threads);
OpPlan *layout_op_plan(const KernelPlan *plan, const IrOp *op);
/* A tensor-core dot whose A arrives in its accumulator's own layout with
   one warp across N: its fragments are registers (llvm_dot.c). */
bool layout_mma_a_in_registers(const KernelPlan *plan, const OpPlan *dot);
/* Whether a dot stages an operand in its scratch (a barrier phase): FMA
   dots always; tensor-core dots unless each operand is read in place
   (mma_a_shared, mma_b_shared) or from registers. */
bool layout_dot_stages(const KernelPlan *plan, const OpPlan *dot);
/* The alloc op a ref is a view of (through any views), or NULL. */
const IrOp *layout_alloc_of(const IrValue *ref);
/* The body of a persistent kernel's tile loop (passes/persist.c), whose top
   level is to its tiles what the kernel's top level is to a plain kernel's
   one tile (epilogue stores: layout.c, convert.c); NULL for another kernel. */
const IrBlock *layout_tile_loop_body(const IrKernel *kernel);
/* The ref a tensor-core dot reads operand `operand` (0: A, 1: B, or x of a
   transposed B) from in place (mma_a_shared, mma_b_shared: the elided
   load's ref), or NULL when it does not. */
const IrValue *layout_in_place_ref(const OpPlan *dot, int operand);
/* The fp8 dtype of operand `operand` of an fp8 tensor-core dot (mma_fp8):
   what its elided cast reads. */
DType layout_fp8_dtype(const OpPlan *dot, int operand);
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

/* ---- layout conversions (convert.c) ----------------------------------------- */

/* How a value gets from its layout to the one a user wants. */
typedef enum ConvertMethod {
    CONVERT_SPLAT,                     /* a splat or single element: re-spread, no code */
    CONVERT_REMAT,                     /* an index expression: recomputed in the new layout */
    CONVERT_REBROADCAST,               /* a broadcast: redone from its source through shared memory */
    CONVERT_SHARED,                    /* write, barrier, read through the user's scratch */
    CONVERT_SHUFFLE,                   /* within a warp (shfl.sync): reserved, not chosen yet */
} ConvertMethod;

typedef struct ConvertRecord {
    int id;                            /* index in plan->converts */
    const IrValue *value;
    const Layout *from, *to;
    ConvertMethod method;
    OpPlan *user;                      /* the first op that reads it (whose scratch it uses) */
    int operand;                       /* ... and which operand */
    OpPlan *loop;                      /* hoisted: done once before this `for`; NULL: at the user */
    int num_users;                     /* operands it serves (more than one only when hoisted) */
    /* shared: what the two layouts' linear maps say it needs
       (linear_convert_kind: a LinearConvertKind, linear_layout.h), whatever
       the method; -1 where a map is missing or for other methods. A record
       classified noop, registers or shuffle still goes through shared
       memory: the cheaper paths are not lowered yet. */
    int kind;
    int64_t smem_lo, smem_hi;          /* shared and rebroadcast: the bytes it uses (shared_alloc) */
    /* shared: the buffer is the tile row-major with each row `pitch`
       elements apart (the last dim's size, or more: a pad against bank
       conflicts), written `write_vec` and read `read_vec` elements (a
       power of two, at most 16 bytes) an access; chosen by convert.c from
       the modelled wavefronts of both sides (write_wavefronts ...: the worst
       warp's, and the fewest its bytes need; -1 where not modelled). */
    int64_t pitch;
    int write_vec, read_vec;
    int64_t write_wavefronts, write_ideal, read_wavefronts, read_ideal;
    unsigned barriers;                 /* barrier_plan: bit s = a barrier at step s */
} ConvertRecord;

/* Records, for every operand whose wanted layout differs from its value's,
   how it converts and where (convert.c). After layout_assign. */
void convert_plan(KernelPlan *plan);
/* A shared conversion's buffer as element strides per tile dim (row-major,
   the last dim's rows `pitch` apart). */
void convert_shared_strides(const ConvertRecord *c, int64_t *stride);
/* The bytes of its buffer: rows x pitch elements. */
int64_t convert_shared_bytes(const ConvertRecord *c);
const char *convert_method_name(ConvertMethod method);
/* Whether v (not the result of the op being lowered) is a splat or a
   single element: what the lowering holds as one scalar. */
bool convert_is_scalar(const KernelPlan *plan, const IrValue *v);
/* Whether `v` is an index expression (iota, splats, elementwise ops,
   broadcasts of them) that a conversion recomputes in the wanted layout
   instead of moving it through shared memory. */
bool convert_can_remat(const KernelPlan *plan, const IrValue *v);

/* ---- shared memory (shared_alloc.c) ----------------------------------------- */

/* How a buffer's bytes are laid out. */
typedef enum SharedFormat {
    SHARED_ROW_MAJOR,                  /* a tile row-major (conversions, shape ops, allocs) */
    SHARED_PARTIALS,                   /* a reduction: 2 slots of warps x result elements */
    SHARED_SCAN_TOTALS,                /* a scan: runs x warps x rows of warp totals */
    SHARED_STAGED,                     /* a dot's operands: A then B, each row-major */
    SHARED_MMA_PITCH,                  /* an mma dot's operands, rows of layout_mma_pitch */
    SHARED_TMA_BOXES,                  /* a TMA store's tile: its map's boxes, swizzled
                                          (OpPlan.tma_store_swizzle) */
} SharedFormat;

typedef struct SharedBuffer {
    OpPlan *op;                        /* the op whose scratch (or alloc) it is */
    SharedFormat format;
    int64_t size;                      /* bytes, 16-aligned */
    int64_t offset;
    int start, end;                    /* live over these op indices */
    int64_t a_pitch, b_pitch;          /* SHARED_MMA_PITCH: elements per row of A and B */
    int64_t b_offset;                  /* SHARED_STAGED, SHARED_MMA_PITCH: B's bytes from offset */
    /* Bank conflicts from the layouts' linear maps (linear_shared_wavefronts:
       shared-memory wavefronts of the worst warp, and the fewest the bytes
       allow); -1 where not computed. writes: the row-major writes into it
       of the conversions at its op (at their pitch and write_vec) and of
       its shape op's source (one element a store), summed. reads: the
       conversions' reads (read_vec), summed. a_reads, b_reads:
       SHARED_MMA_PITCH, the ldmatrix reads of A (when staged) and of B. */
    int64_t write_wavefronts, write_ideal, read_wavefronts, read_ideal;
    int64_t a_wavefronts, a_ideal, b_wavefronts, b_ideal;
} SharedBuffer;


/* Gives every op scratch buffer and every `alloc` an offset in the dynamic
   shared buffer: intervals over the op order, reuse where lifetimes do not
   overlap, 16-byte alignment. Sets each OpPlan's scratch_offset (an alloc's
   buffer is its op's scratch) and plan->shared_bytes. */
void shared_alloc(KernelPlan *plan);
const char *shared_format_name(SharedFormat format);
/* The first op (program order) whose buffer ends past `limit`, or NULL. */
const OpPlan *shared_over_limit(const KernelPlan *plan, int64_t limit);

/* ---- barriers (barrier.c) -------------------------------------------------------- */

/* The steps of an op's (or a conversion's) shared-memory phase at which a
   barrier may go: before its first write, and between its writes and the
   reads of other threads. */
typedef enum BarrierStep { BARRIER_BEFORE_WRITE = 0, BARRIER_BEFORE_READ = 1 } BarrierStep;

typedef struct BarrierRecord {
    OpPlan *op;                        /* at this op's step ... */
    ConvertRecord *convert;            /* ... or this conversion's (at its user or hoisted) */
    BarrierStep step;
    const char *why;                   /* what the barrier orders, for the dump */
} BarrierRecord;

/* Places every barrier (barrier.c). After shared_alloc. */
void barrier_plan(KernelPlan *plan);

/* ---- the plan as text (plan_print.c) ----------------------------------------------- */

/* The kernel's tile IR annotated with the plan after `phase` (layout,
   convert, shared, barrier), to `out`. */
void plan_print(KernelPlan *plan, const char *phase, FILE *out);

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
    /* A second entry of the same module that copies through TMA (tma.c),
       launched when the arguments meet TMA's rules (docs/manifest.md "tma"):
       its name, tensor maps, shared bytes and ptxas registers; NULL: none */
    const char *tma_entry;
    const struct TmaMap *tma_maps;
    int num_tma_maps;
    int64_t tma_shared_bytes;
    int tma_threads;                   /* its block's threads: a producer warpgroup's more */
    int tma_registers_needed;          /* the fewest registers a thread at launch for its
                                          setmaxnreg split (a producer warpgroup's); 0: any */
    int tma_registers, tma_spills;
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
    /* --dump-after for a backend phase (layout, convert, shared, barrier,
       llvm, opt; codegen_phase_known) or NULL; printed to dump_out (stderr
       when NULL) */
    const char *dump_after;
    FILE *dump_out;
    HopperSchedule hopper_schedule;
    /* --grid-order=heavy-first: where a loop with a dot runs more trips the
       higher program id 0 is, program id 0 runs backwards, so that the
       block scheduler starts the heaviest blocks first (llvm_kernel.c
       heavy_first_grid) */
    bool grid_heavy_first;
    TmaStoreMode tma_store;            /* --tma-store (tma.c) */
} CodegenOptions;

/* The backend phases --dump-after accepts, for --help and errors. */
const char *codegen_phase_names(void);
bool codegen_phase_known(const char *name);

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
/* After shared_alloc: how many blocks of the plan a multiprocessor should
   hold (the kernel's .minnctapersm; 1: no hint). Two for a kernel whose
   one dot runs on wgmma when two blocks' shared memory and registers fit. */
int target_blocks_per_sm(const KernelPlan *plan);
/* Starts a kernel's results: its entry symbol (the name and the
   compile-time values) and one CodegenArch per --arch. */
void target_begin_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out);
/* After shared_alloc: false, after an error at the op whose buffer crosses
   the limit, when the plan needs more shared memory than an arch of its
   target has. Records the plan's threads and shared bytes in the target's
   CodegenArchs otherwise, and the TMA entry of `tma` (its plan, or NULL). */
bool target_check_shared(const KernelPlan *plan, const CodegenTarget *target, const KernelPlan *tma,
                         CodegenKernel *out);
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
/* With a TMA plan of the same kernel (tma.c): its entry `tma_entry` lowered
   into the same module, before libdevice is linked. */
EmitModule *emit_lower_with_tma(KernelPlan *plan, KernelPlan *tma, const CodegenOptions *options, const char *entry,
                                const char *tma_entry);
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
/* The PTX version of `arch` for a kernel planned as `plan`: raised to 8.4
   where the plan has an fp8 mma. */
int emit_ptx_version_for(const KernelPlan *plan, const ArchInfo *arch);

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
