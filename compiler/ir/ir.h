/*
 * ir.h: the tile IR.
 *
 * SSA over whole tiles. A kernel is a list of parameters and one body block;
 * `for` and `if` ops own nested blocks and carry values through block
 * arguments and `yield`. Every value has a type: a tile (dtype and static
 * shape; rank 0 is a scalar) or a ref (dtype, shape that may name symbolic
 * sizes, memory space, access). Every op has the source span it came from.
 *
 * The IR knows nothing of LLVM or CUDA. Each kernel owns an arena from which
 * all of its ops, values and blocks come; nothing is freed one by one.
 * docs/ir.md describes the textual form that ir_print writes and ir_parse
 * reads back.
 */
#ifndef TESSERA_IR_H
#define TESSERA_IR_H

#include "base.h"

enum { IR_MAX_RANK = 8 };

typedef struct IrDim {
    int64_t size;            /* static size when sym == NULL */
    const char *sym;         /* interned name of a symbolic size, else NULL */
} IrDim;

typedef enum IrTypeKind { IRT_TILE, IRT_REF } IrTypeKind;

typedef struct IrType {
    IrTypeKind kind;
    DType dtype;
    int rank;
    IrDim dims[IR_MAX_RANK];
    MemSpace space;          /* IRT_REF */
    Access access;           /* IRT_REF */
} IrType;

typedef struct IrOp IrOp;
typedef struct IrBlock IrBlock;
typedef struct IrKernel IrKernel;

typedef struct IrValue {
    IrType type;
    IrOp *def;               /* defining op; NULL for parameters and block arguments */
    int result_index;        /* which result of def */
    IrBlock *arg_of;         /* block whose argument this is, else NULL */
    const char *name;        /* parameters keep their source name; else NULL */
    int id;                  /* scratch: numbering for printing, pass-local marks */
    struct IrValue *forward; /* set by ir_forward: what its uses read instead */
} IrValue;

typedef enum IrOpcode {
    /* sources */
    IR_CONST,                /* splat of int_value/float_value to the result type */
    IR_PROGRAM_ID,           /* axis -> i32 */
    IR_NUM_PROGRAMS,         /* axis -> i32 */
    IR_IOTA,                 /* -> tile<i32[n]>, 0..n-1 */
    /* elementwise binary: operands and result of one type (comparisons give bool) */
    IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_REM, IR_MIN, IR_MAX,
    IR_POW,                  /* float */
    IR_AND, IR_OR, IR_XOR,   /* bool or integer: on the bits */
    IR_SHL, IR_SHR,          /* integer; shr arithmetic for signed dtypes */
    IR_EQ, IR_NE, IR_LT, IR_LE, IR_GT, IR_GE,
    /* elementwise unary */
    IR_NEG, IR_NOT,
    IR_EXP, IR_EXP2, IR_EXP2_FTZ, IR_LOG, IR_LOG2, IR_SQRT, IR_RSQRT, IR_ABS,
    IR_TANH, IR_SIGMOID, IR_SIN, IR_COS, IR_ERF,
    IR_FLOOR, IR_CEIL, IR_TRUNC, IR_ROUND,   /* float, exact; round: half to even */
    IR_SELECT,               /* (bool cond, a, b) all of one shape */
    IR_CAST,                 /* dtype of the result type */
    IR_BITCAST,              /* the bits as the result's dtype, of the same width */
    /* shape */
    IR_BROADCAST,            /* size-1 dims (and missing leading dims) expand */
    IR_RESHAPE,              /* same element count; row-major element order unchanged */
    IR_TRANSPOSE,            /* swaps the last two dims */
    IR_EXTRACT,              /* static slice of a tile: starts[], sizes from the result type */
    IR_PERMUTE,              /* dims reordered: result dim i is operand dim starts[i] */
    IR_FLIP,                 /* the order along dim `axis` reversed */
    IR_REDUCE,               /* combine over axis; the axis is dropped */
    IR_SCAN,                 /* inclusive prefix combine along axis; same type */
    IR_DOT,                  /* (a[m,k], b[k,n] [, acc[m,n]]) -> f32 (i32 for ints) */
    /* memory */
    IR_VIEW,                 /* (ref, offsets...) -> ref ; view_dims[] per source dim */
    IR_LOAD,                 /* (ref [, mask] [, other]) -> tile */
    IR_STORE,                /* (ref, value [, mask]) */
    IR_ATOMIC,               /* (ref, value [, mask]) ; combine */
    IR_GATHER,               /* (ref @global, index tiles one per ref dim [, mask] [, other]) -> tile */
    IR_SCATTER,              /* (ref @global, index tiles, value [, mask]) */
    IR_SCATTER_ATOMIC,       /* (ref @global, index tiles, value [, mask]) ; combine */
    IR_ALLOC,                /* -> ref<... @shared inout> */
    /* debugging (only with tessc -g) */
    IR_PRINT,                /* ([value]) ; text: the label */
    IR_ASSERT,               /* (bool cond) ; text: the message */
    /* asynchronous copies (made by passes/pipeline.c, docs/ir.md "async") */
    IR_ASYNC_COPY,           /* (dst @shared, src @global [, mask]) ; lands at a wait */
    IR_ASYNC_COMMIT,         /* closes the open group of copies */
    IR_ASYNC_WAIT,           /* int_value: groups that may still be pending */
    /* control */
    IR_FOR,                  /* (lo, hi, step, inits...) -> finals ; body args (iv, carried...) */
    IR_IF,                   /* (cond) -> results ; then and else blocks */
    IR_YIELD,                /* terminator of for/if blocks */
    IR_OPCODE_COUNT
} IrOpcode;

/* mul only in a scan (cumprod); reduce and the atomics take add, max, min. */
typedef enum IrCombine { COMBINE_ADD, COMBINE_MAX, COMBINE_MIN, COMBINE_MUL } IrCombine;

/* How a view treats one dimension of its source ref. */
typedef enum IrViewKind {
    VIEW_FULL,               /* keep the whole dim */
    VIEW_RANGE,              /* [offset, offset + size) ; offset is an operand */
    VIEW_INDEX,              /* one position; the dim is dropped */
} IrViewKind;

typedef struct IrViewDim {
    IrViewKind kind;
    int64_t size;            /* VIEW_RANGE */
    int offset_operand;      /* VIEW_RANGE, VIEW_INDEX: index into operands */
} IrViewDim;

struct IrOp {
    IrOpcode opcode;
    Span loc;                /* source span of the construct it came from */
    IrValue **operands;
    int num_operands;
    IrValue **results;
    int num_results;
    IrBlock *parent;
    IrOp *prev, *next;

    /* attributes; which ones an opcode uses is listed above */
    int64_t int_value;       /* IR_CONST of an integer or bool type; IR_ASYNC_WAIT */
    double float_value;      /* IR_CONST of a float type */
    int axis;                /* PROGRAM_ID, NUM_PROGRAMS, REDUCE, SCAN, FLIP */
    IrCombine combine;       /* REDUCE, ATOMIC */
    bool has_mask;           /* LOAD, STORE, ATOMIC, ASYNC_COPY */
    bool has_other;          /* LOAD */
    bool fp8;                /* DOT: a dot() of fp8 tiles, its operands lower.c's casts of them to
                                f16: fp8 tensor cores may run it (a dot the user wrote of f16 casts
                                keeps f16's; docs/ir.md) */
    IrViewDim *view_dims;    /* VIEW: one per source dim */
    int64_t *starts;         /* EXTRACT: one start per dim; PERMUTE: the operand dim of each result dim */
    const char *text;        /* PRINT: the label; ASSERT: the message */
    IrBlock *body;           /* FOR; IF: the then block */
    IrBlock *else_body;      /* IF */
};

struct IrBlock {
    IrValue **args;
    int num_args;
    IrOp *first, *last;
    IrOp *parent_op;         /* NULL for the kernel body */
};

/* Grid expressions stay expressions over symbolic sizes: the runtime
   evaluates them from the launch arguments. GRID_RESIDENT,
   `resident_blocks()`, is the number of the kernel's blocks the device
   holds at once (its multiprocessors times the blocks of the launched
   entry one holds), which libtessrt knows only once it has chosen the
   entry; the interpreter takes INTERP_RESIDENT_BLOCKS. Only the persist
   pass writes it (a persistent grid, docs/ir.md). */
typedef enum GridExprKind {
    GRID_CONST, GRID_SIZE, GRID_ADD, GRID_SUB, GRID_MUL, GRID_DIV, GRID_REM,
    GRID_CDIV, GRID_MIN, GRID_MAX, GRID_RESIDENT,
} GridExprKind;

typedef struct GridExpr {
    GridExprKind kind;
    int64_t value;           /* GRID_CONST */
    const char *size;        /* GRID_SIZE: symbolic size name */
    struct GridExpr *lhs, *rhs;
} GridExpr;

typedef enum IrParamKind { PARAM_ARRAY, PARAM_SCALAR, PARAM_SIZE } IrParamKind;

typedef struct IrParam {
    const char *name;
    IrParamKind kind;
    IrValue *value;          /* ARRAY: ref to the whole array; SCALAR/SIZE: rank-0 tile */
    IrDim *strides;          /* ARRAY: one per dim, in elements (a size's name or a constant);
                                NULL: row-major, the last dim contiguous */
} IrParam;

typedef struct IrCParam {
    const char *name;
    bool is_float;
    int64_t int_value;
    double float_value;
} IrCParam;

/* A launch contract from a block spec: array parameter `param`'s dim `dim`
   is a symbolic size, and the block along it is `block` wide at constant
   block index 0, so the kernel reaches only its first `block` elements. The
   launch must have that size <= block (checked by libtessrt from the
   manifest, and by the interpreter); never silently a partial row. */
typedef struct IrCover {
    int param;
    int dim;
    int64_t block;
} IrCover;

struct IrKernel {
    Arena arena;             /* everything of this kernel */
    const char *name;
    Span loc;
    IrCParam *cparams;
    int num_cparams;
    IrParam *params;         /* launch order: arrays and scalars, then sizes */
    int num_params;
    GridExpr *grid[3];
    int grid_rank;
    int warps, stages;
    bool stationary_shared;  /* the pipeline pass stored its stationary operands at
                                --stationary=shared: wgmma may read them by descriptor */
    bool rotated_dots;       /* the overlap pass rotated a loop: the backend leaves a wgmma
                                group in flight until its result is read (llvm_dot.c) */
    IrCover *covers;         /* launch contracts of the block specs (docs/ir.md) */
    int num_covers;
    IrBlock *body;
};

typedef struct IrModule {
    const char *source_name; /* the .tess file the kernels came from */
    PtrVec kernels;          /* IrKernel* */
} IrModule;

/* ---- construction (ir.c) ----------------------------------------------- */

IrKernel *ir_kernel_new(const char *name, Span loc);
void ir_kernel_free(IrKernel *kernel);
IrBlock *ir_block_new(IrKernel *kernel, int num_args, const IrType *arg_types);
IrOp *ir_op_new(IrKernel *kernel, IrOpcode opcode, Span loc, int num_operands,
                int num_results);
/* Sets result i's type (the value itself is made by ir_op_new). */
void ir_op_set_result_type(IrOp *op, int i, IrType type);
void ir_block_append(IrBlock *block, IrOp *op);
void ir_op_insert_before(IrOp *before, IrOp *op);
void ir_op_remove(IrOp *op);
/* Replaces every use of `from` in ops nested anywhere under `block`: one
   walk of the block per call, so a pass that replaces many values uses the
   forwarding below instead. */
void ir_replace_uses(IrBlock *block, IrValue *from, IrValue *to);
/* How many operands of ops nested anywhere under `block` (NULL: none) are `v`. */
int ir_count_uses(const IrBlock *block, const IrValue *v);
/* The ref a chain of views of `ref` starts from: an array parameter or an
   alloc (or `ref` itself). */
const IrValue *ir_view_root(const IrValue *ref);
/* Replacing many values in one walk. ir_forward(from, to) records that the
   uses of `from` read `to` from now on; ir_resolve_operands(op) rewrites
   op's operands to what they read now. A pass that walks its blocks in
   order resolves each op when it reaches it (a value is defined before its
   uses in that order, so each use sees every replacement made so far), and
   calls ir_apply_forwards once at its end for any use it skipped. */
void ir_forward(IrValue *from, IrValue *to);
void ir_resolve_operands(IrOp *op);
void ir_apply_forwards(IrBlock *block);

IrType ir_tile_type(DType dtype, int rank, const int64_t *dims);
IrType ir_scalar_type(DType dtype);
bool ir_type_equal(const IrType *a, const IrType *b);
int64_t ir_type_elements(const IrType *type);   /* tiles only */
/* The dim a reshape from `src` to `dst` inserts (size 1, the other dims
   unchanged), or -1. */
int ir_type_inserted_unit_dim(const IrType *src, const IrType *dst);
/* Writes the textual type ("tile<f32[128,64]>", "i32", "ref<f16[128,K] @global in>"). */
void ir_type_format(const IrType *type, char *buf, size_t size);

const char *ir_opcode_name(IrOpcode opcode);
bool ir_opcode_from_name(const char *name, IrOpcode *out);
bool ir_opcode_is_pure(IrOpcode opcode);         /* no memory effects, no regions */
/* Kept with what it reads even when nothing uses its results: the stores,
   atomics, scatters, async copies and their groups, print and assert. */
bool ir_opcode_has_effect(IrOpcode opcode);
/* The kernel's asserts in op order, nested blocks included (the manifest's
   "asserts" and the GPU's assert numbers): their count, and into out[] the
   first `cap` of them (out may be NULL). */
int ir_kernel_asserts(const IrKernel *kernel, const IrOp **out, int cap);
/* `op`'s position in that order, or -1. */
int ir_assert_index(const IrKernel *kernel, const IrOp *op);
/* The global word the GPU claims on a failed assert (llvm_debug.c, runtime). */
#define TESSERA_ASSERT_SYMBOL "tessera_assert"
bool ir_opcode_is_elementwise_binary(IrOpcode opcode);
bool ir_opcode_is_elementwise_unary(IrOpcode opcode);
bool ir_opcode_is_compare(IrOpcode opcode);
const char *ir_combine_name(IrCombine combine);
/* How scalar `v` moves with program id 0: 1 never down and not constant in
   it, 0 independent of it, -1 unknown (or down). From adds, mins, maxes,
   subtractions of independent values, and products and quotients by
   positive constants (causal attention's key loop bound, min(q0, T) / BK):
   the heavy-first grid order (llvm_kernel.c, passes/persist.c). */
int ir_rises_with_program_id0(const IrKernel *kernel, const IrValue *v);
/* Whether the kernel's grid is the persist pass's (min(TILES,
   resident_blocks()), one dimension): the only place the verifier allows
   resident_blocks(). */
bool ir_grid_persistent(const IrKernel *kernel);
/* A well-mixed hash of a pointer, for the hash tables keyed by values or
   interned names (the .tir reader, the verifier, the interpreter). */
uint64_t ir_hash_pointer(const void *p);

/* ---- text (ir_print.c, ir_parse.c) ------------------------------------- */

void ir_print_module(const IrModule *module, FILE *out);
void ir_print_kernel(const IrKernel *kernel, FILE *out);
/* ir_print_kernel with lines of the caller's around each op (the backend's
   --dump-after): before_op before the op's text, after_op after all of it
   (a for or if: after its closing brace), at the op's nesting depth. */
typedef struct IrPrintHooks {
    void *ctx;
    void (*before_op)(void *ctx, const IrOp *op, int depth, FILE *out);
    void (*after_op)(void *ctx, const IrOp *op, int depth, FILE *out);
} IrPrintHooks;
void ir_print_kernel_annotated(const IrKernel *kernel, FILE *out, const IrPrintHooks *hooks);
void grid_expr_format(const GridExpr *expr, char *buf, size_t size);

/* Parses the textual IR of `file`; reports errors through diag at their
   line and column in the .tir file. NULL on error. */
IrModule *ir_parse_module(Arena *arena, const SourceFile *file);

/* ---- verification (ir_verify.c) ---------------------------------------- */

/* Checks types, operand counts, attributes, dominance and terminators.
   On failure writes one message naming the op and returns false. */
bool ir_verify_kernel(const IrKernel *kernel, char *message, size_t size);
/* The same checks for a caller that can point at the op: *failed is the op
   the message is about, or NULL when it is about the kernel itself (its
   parameters or grid), and the message leaves out the "kernel 'k', op at
   loc(...)" prefix that ir_verify_kernel adds. ir_parse uses it to report
   an ill-typed op at its own line in the .tir file. */
bool ir_verify_kernel_op(const IrKernel *kernel, char *message, size_t size,
                         const IrOp **failed);

/* ---- lowering from the AST (lower.c) ----------------------------------- */

struct Program;
/* debug: keep print and assert (tessc -g); without it they lower to nothing. */
IrModule *lower_program(Arena *arena, struct Program *program, bool debug);

/* ---- passes (passes.c and passes/<name>.c) ----------------------------- */

/* Which kernels the persist pass (passes/persist.c) makes persistent:
   none (--grid=per-tile), those with a loop of two dots (flash attention's)
   whose tiles do equal work or are ordered heavy-first (--grid=auto where
   every --arch is sm_90a), or every one it can (--grid=persistent). */
typedef enum PersistMode { PERSIST_NONE, PERSIST_TWO_DOT_LOOPS, PERSIST_ALL } PersistMode;

typedef struct PassOptions {
    int opt_level;                 /* 0..3; 0 runs no transformation */
    const char *dump_after;        /* pass name or NULL */
    FILE *dump_out;
    bool verify;                   /* run ir_verify_kernel between passes */
    bool fp8_rings;                /* every target reads rings of fp8 bytes in place (fp8 tensor
                                      cores, sm_89 and up): the pipeline pass makes them */
    bool stationary_shared;        /* --stationary=shared: every loop-invariant A of a tensor-core
                                      dot in a pipelined loop stored once into shared memory */
    bool rotate_dots;              /* --overlap=rotate: the overlap pass (passes/overlap.c) */
    PersistMode persistent;        /* --grid: which kernels the persist pass makes persistent */
    bool handoff;                  /* --grid=persistent-handoff: the handoff pass (passes/handoff.c) */
    bool heavy_first;              /* --grid-order=heavy-first or auto: tiles heavy-first (persist.c) */
    int64_t shared_budget;         /* bytes of shared memory a block of every target may have (0: no
                                      limit): the handoff pass keeps a kernel inside it */
} PassOptions;

/* Runs the pass list on every kernel; returns false after a verifier failure
   (already reported as an internal error). */
bool passes_run(IrModule *module, const PassOptions *options);
const char *passes_names(void);    /* "persist, overlap, pipeline, ..." for --help and errors */
bool passes_known(const char *name);

void pass_fold(IrKernel *kernel);  /* passes/fold.c */
void pass_cse(IrKernel *kernel);   /* passes/cse.c */
void pass_dce(IrKernel *kernel);   /* passes/dce.c */
void pass_prefetch(IrKernel *kernel); /* passes/prefetch.c */
void pass_overlap(IrKernel *kernel); /* passes/overlap.c */
void pass_persist(IrKernel *kernel, PersistMode mode, bool heavy_first); /* passes/persist.c */
void pass_pipeline(IrKernel *kernel, bool fp8_rings, bool stationary_shared); /* passes/pipeline.c */
void pass_handoff(IrKernel *kernel, int64_t shared_budget); /* passes/handoff.c */

#endif
