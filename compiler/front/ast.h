/*
 * ast.h: the syntax tree the parser builds and sema annotates.
 *
 * Every node carries the span of the source it came from. The parser fills
 * the syntactic fields; sema fills `type` (and `value` for compile-time
 * constants) and resolves names to their Symbol. Lowering to tile IR reads
 * only annotated trees with no errors.
 */
#ifndef TESSERA_AST_H
#define TESSERA_AST_H

#include "base.h"
#include "ir.h"

typedef struct Node Node;
typedef struct Symbol Symbol;
typedef struct Type Type;
typedef struct Kernel Kernel;

/* ---- sema types ----------------------------------------------------------- */

/* A dimension: a static size, or a symbolic size passed at launch. */
typedef struct Dim {
    int64_t size;            /* when sym == NULL */
    Symbol *sym;             /* symbolic size (SYM_SIZE), else NULL */
} Dim;

enum { MAX_RANK = 8 };

typedef enum TypeKind {
    TY_ERROR,    /* an expression that already produced an error: silences cascades */
    TY_VOID,     /* a call used as a statement (store, atomic_*) */
    TY_TILE,     /* immutable value; rank 0 is a scalar */
    TY_REF,      /* a view of memory: the type of a place */
    TY_DTYPE,    /* a dtype or type written as an argument: zeros([4], f32), alloc(f32[8] @shared) */
} TypeKind;

struct Type {
    TypeKind kind;
    DType dtype;
    int rank;
    Dim dims[MAX_RANK];
    /* A weak tile is a literal or an expression of literals, consts and
       compile-time parameters: it takes the dtype of what it meets. It is
       always a compile-time constant (see Node.value). Its dtype is i32 (from
       integer literals) or f32 (from float literals) until it meets another. */
    bool weak;
    MemSpace space;          /* TY_REF, and TY_DTYPE when written with @space */
    Access access;           /* TY_REF */
    bool has_space;          /* TY_DTYPE: written with @space */
    bool has_shape;          /* TY_DTYPE: written with [dims] */
};

/* A compile-time value. */
typedef struct ConstValue {
    bool known;
    bool is_float;
    int64_t i;
    double f;
} ConstValue;

/* ---- symbols --------------------------------------------------------------- */

typedef enum SymbolKind {
    SYM_CONST,       /* const NAME = expr; */
    SYM_CPARAM,      /* compile-time parameter kernel k<NAME = 4> */
    SYM_PARAM,       /* array or scalar kernel parameter */
    SYM_SIZE,        /* symbolic size: a new name in a parameter's shape */
    SYM_LET,
    SYM_VAR,
    SYM_LOOP,        /* for-loop induction variable */
    SYM_MAP,         /* index-map parameter of a block spec */
} SymbolKind;

struct Symbol {
    SymbolKind kind;
    const char *name;        /* interned */
    Span span;               /* where it was declared */
    Type type;               /* for a PARAM array: the ref type of its kernel view */
    ConstValue value;        /* CONST, CPARAM */
    Node *decl;              /* declaring node, if any */
    int index;               /* PARAM: position; SIZE: launch order among sizes */
    Type array_type;         /* PARAM array: the whole array (before its block spec) */
    struct BlockSpec *block; /* PARAM array: its block spec or NULL */
    bool is_array;           /* PARAM */
    void *lowering;          /* private to lower.c (current SSA value) */
};

/* ---- built-in functions (sema resolves N_CALL.builtin) ------------------ */

typedef enum Builtin {
    BI_NONE,
    BI_PROGRAM_ID, BI_NUM_PROGRAMS, BI_IOTA, BI_ZEROS, BI_FULL, BI_CDIV,
    BI_MIN, BI_MAX,                       /* two operands: elementwise */
    BI_SUM, BI_REDUCE_MAX, BI_REDUCE_MIN, /* sum(t), max(t, axis = k), min(t, axis = k) */
    BI_WHERE,
    BI_EXP, BI_EXP2, BI_EXP2_FTZ, BI_LOG, BI_LOG2, BI_SQRT, BI_RSQRT, BI_ABS, BI_TANH,
    BI_SIGMOID, BI_SIN, BI_COS, BI_ERF, BI_FLOOR, BI_CEIL, BI_TRUNC, BI_ROUND,
    BI_POW,                               /* two float operands */
    BI_ISNAN, BI_ISINF, BI_ISFINITE,      /* float -> bool */
    BI_CLAMP, BI_SIGN,                    /* numeric; lowered to min/max/select */
    BI_BITCAST,                           /* bitcast(x, dtype): the bits, another dtype of their width */
    BI_RAND, BI_RANDINT, BI_RANDN,        /* (seed, offsets): Philox 4x32-10, as Triton's */
    BI_ARGMAX, BI_ARGMIN,                 /* (t [, axis = k]) -> i32, the first index */
    BI_CUMSUM, BI_CUMPROD, BI_CUMMAX, BI_CUMMIN, /* (t [, axis = k]): inclusive scans, t's type */
    BI_PRINT, BI_ASSERT,                  /* ("label" [, v]), (cond [, "message"]): with tessc -g only */
    BI_BROADCAST_TO, BI_EXPAND_DIMS,      /* (t, [shape]), (t, axis = k): shape ops */
    BI_RESHAPE, BI_PERMUTE,               /* (t, [shape]), (t, [dims]) */
    BI_JOIN, BI_INTERLEAVE,               /* (a, b): a new last dim of 2; the last dims interleaved */
    BI_FLIP,                              /* (t [, axis = k]): reversed along an axis */
    BI_DOT, BI_ALLOC, BI_LOAD, BI_STORE,
    BI_ATOMIC_ADD, BI_ATOMIC_MAX, BI_ATOMIC_MIN,
    BI_DS,                                /* only inside ref indexing */
} Builtin;

/* ---- nodes ----------------------------------------------------------------- */

typedef enum NodeKind {
    /* expressions */
    N_INT,           /* int_value */
    N_FLOAT,         /* float_value; also inf and nan */
    N_BOOL,          /* int_value 0/1 */
    N_NAME,          /* name -> sym */
    N_STRING,        /* name: the text between the quotes (print, assert) */
    N_UNARY,         /* op, lhs */
    N_BINARY,        /* op, lhs, rhs */
    N_CAST,          /* lhs as dtype */
    N_CALL,          /* name(args) ; args may be N_KWARG */
    N_KWARG,         /* name = lhs */
    N_INDEX,         /* lhs[items] ; items are index items below */
    N_TRANSPOSE,     /* lhs.T */
    N_LIST,          /* [items] : shape list literal */
    N_TYPE,          /* dtype [dims] @space written as an argument; dims in items */
    /* index items */
    N_ELLIPSIS,      /* ... */
    N_SLICE,         /* lhs : rhs, either may be NULL (":" alone) */
    N_NONE,          /* None */
    N_UNDERSCORE,    /* _ in a block spec */
    /* statements */
    N_LET,           /* let name = rhs */
    N_VAR,           /* var name = rhs */
    N_ASSIGN,        /* lhs op= rhs ; op is '=' or '+', '-', '*', '/' */
    N_EXPR_STMT,     /* lhs */
    N_FOR,           /* for name in lhs .. rhs [step step] body */
    N_WHILE,         /* while cond body */
    N_BREAK,         /* break; flags: what it sets (sema) */
    N_CONTINUE,      /* continue; */
    N_RETURN,        /* return; */
    N_IF,            /* if cond then_body [else else_body] */
    N_BLOCK,         /* { items } */
} NodeKind;

/* Operators, as the characters or pairs that spell them. */
typedef enum Op {
    OP_ADD = '+', OP_SUB = '-', OP_MUL = '*', OP_DIV = '/', OP_REM = '%',
    OP_LT = '<', OP_GT = '>', OP_NOT = '!', OP_ASSIGN = '=',
    OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_AND, OP_OR, OP_NEG,
    OP_BAND, OP_BOR, OP_BXOR, OP_SHL, OP_SHR, OP_BNOT,   /* & | ^ << >> ~ */
} Op;

struct Node {
    NodeKind kind;
    Span span;
    int op;                  /* Op */
    const char *name;        /* interned: N_NAME, N_STRING, N_CALL, N_KWARG, N_LET, N_VAR, N_FOR */
    int64_t int_value;
    double float_value;
    const char *text;        /* literal as written, for --emit ast and messages */
    DType dtype;             /* N_CAST, N_TYPE */
    bool has_space;          /* N_TYPE */
    MemSpace space;          /* N_TYPE */
    Span space_span;         /* N_TYPE: span of @space */
    Node *lhs, *rhs, *step;
    Node *cond;
    Node *then_body, *else_body;   /* N_BLOCK nodes; else_body may be an N_IF */
    Node *body;              /* N_FOR: N_BLOCK */
    PtrVec items;            /* N_CALL args, N_INDEX items, N_LIST, N_TYPE dims, N_BLOCK stmts */
    int depth;               /* parser: expression levels, or for blocks (and for/if) block
                                levels, this node holds; bounded in parser.y */

    /* filled by sema */
    Type type;               /* a place (ref) that is loaded has its tile type here */
    ConstValue value;        /* compile-time value when known */
    Symbol *sym;             /* N_NAME, N_LET, N_VAR, N_FOR */
    bool loaded;             /* a place used as a value: lowering emits a load */
    bool gather;             /* N_INDEX: a place indexed by integer tiles (gather, scatter) */
    Type place_type;         /* when loaded: the ref type of the place */
    int builtin;             /* N_CALL: sema's builtin id */
    int axis;                /* N_CALL reductions: the axis, -1 for all axes */
    int64_t slice_start, slice_stop;  /* N_SLICE: resolved static bounds; N_CALL ds: size in slice_stop */
    bool runtime_index;      /* an item of a tile index: an integer scalar known only at run time */
    bool reverse;            /* N_CALL scans: reverse = true, from the end of the axis */
    /* Early exits (sema; lower.c reads them): each exit sets bool flags, and
       what follows it runs under their negation. A loop has an exit flag
       (a carried bool that ends it before a trip where it is true) when a
       break or a return leaves it, and a skip flag (per trip) when a
       continue ends its trip. */
    Symbol *exit_flag, *skip_flag;   /* N_FOR, N_WHILE */
    PtrVec flags;            /* N_BREAK, N_CONTINUE, N_RETURN: the flag Symbols it sets */
};

/* ---- declarations ---------------------------------------------------------- */

typedef struct ConstDecl {
    const char *name;
    Span span;
    Node *value;
    Symbol *sym;             /* sema */
} ConstDecl;

typedef struct CParamDecl {
    const char *name;
    Span span;
    Node *default_value;     /* NULL when it must come from -D */
    Symbol *sym;             /* sema */
} CParamDecl;

typedef struct ParamDecl {
    const char *name;
    Span span;
    bool is_array;
    bool has_access;         /* written with in/out/inout */
    Access access;
    Span access_span;
    DType dtype;
    Span dtype_span;
    PtrVec dims;             /* Node*: N_INT, N_NAME, or any expression */
    bool has_strides;        /* written as [dims; strides] */
    PtrVec strides;          /* Node*: a size name or a constant, one per dim */
    Span strides_span;
    Dim stride_dims[MAX_RANK];   /* sema: each stride, a size symbol or a constant */
    bool has_space;
    MemSpace space;
    Span space_span;
    Symbol *sym;             /* sema */
} ParamDecl;

typedef struct BlockSpec {
    const char *array;       /* the parameter's name */
    Span span;               /* the whole spec */
    Span array_span;
    PtrVec dims;             /* Node*: expression or N_UNDERSCORE */
    PtrVec map_params;       /* Node* N_NAME */
    PtrVec map_results;      /* Node* expressions */
    Span map_span;
    /* sema */
    Symbol *param;
    PtrVec map_syms;         /* Symbol* SYM_MAP */
} BlockSpec;

struct Kernel {
    const char *name;
    Span span;               /* the name */
    PtrVec cparams;          /* CParamDecl* */
    PtrVec params;           /* ParamDecl* */
    bool has_grid;
    PtrVec grid;             /* Node* expressions */
    Span grid_span;
    PtrVec blocks;           /* BlockSpec* */
    Node *warps;             /* NULL: default 4 */
    Node *stages;            /* NULL: default 2 */
    Node *body;              /* N_BLOCK */

    /* sema */
    PtrVec sizes;            /* Symbol* SYM_SIZE in launch order */
    PtrVec param_syms;       /* Symbol* SYM_PARAM in order */
    int warps_value, stages_value;
    long shared_bytes;       /* total of the kernel's alloc()s */
    bool selected;           /* chosen by -k (all when no -k) */
    Symbol *return_flag;     /* a bool set by `return`; NULL when the kernel has none */
};

typedef struct Program {
    const SourceFile *file;
    PtrVec consts;           /* ConstDecl* */
    PtrVec kernels;          /* Kernel* */
} Program;

/* ---- phase entry points ---------------------------------------------------- */

/* grammar/parser.y: parses the whole file into a Program allocated from
   `arena`. Syntax errors are reported through diag; returns NULL only when
   nothing usable was built. */
Program *parse_program(Arena *arena, const SourceFile *file);

/* grammar/lexer.l: prints one token per line ("line:col KIND 'text'") for
   --emit tokens. Returns false after a lexical error. */
bool lex_dump_tokens(const SourceFile *file, FILE *out);

/* ast_print.c: the --emit ast form, an indented S-expression per node. */
void ast_print(const Program *program, FILE *out);

/* sema.c: resolves names, applies -D definitions, checks and types every
   kernel. Returns the number of errors. */
typedef struct Define {
    const char *name;
    const char *value_text;
    bool used;
} Define;

typedef struct SemaOptions {
    Define *defines;
    int define_count;
    const ArchInfo **archs;  /* shared-memory limit: the smallest of these */
    int arch_count;
} SemaOptions;

int sema_check(Arena *arena, Program *program, const SemaOptions *options);

/* The tile-IR opcode of a binary operator (Op) and of a math builtin: sema
   computes compile-time values as those ops compute (ir/numeric.h), lower.c
   emits them. */
IrOpcode sema_binary_opcode(int op);
IrOpcode sema_math_opcode(Builtin builtin);

/* Node constructors for the parser (ast_print.c). */
Node *ast_new(Arena *arena, NodeKind kind, Span span);
const char *ast_kind_name(NodeKind kind);
const char *ast_op_spelling(int op);

#endif
