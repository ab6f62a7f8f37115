/*
 * sema.c: names, compile-time values and types.
 *
 * In: a parsed Program. Out: every node annotated with its Type (and its
 * value when known at compile time), every name bound to its Symbol, each
 * kernel's symbolic sizes in launch order, warps, stages and shared bytes.
 *
 * Every mistake a user can make in a well-formed program is reported here,
 * at the node where it was written, so that lowering and the backend never
 * see an invalid kernel. A node that produced an error gets TY_ERROR, and
 * anything built on it stays quiet, so one mistake gives one message.
 *
 * Rules implemented (docs/language.md says them for users):
 *   - arithmetic is strict: both sides have one dtype, except a weak value
 *     (a literal, or an expression of literals, consts and compile-time
 *     parameters), which takes the other side's dtype;
 *   - shapes broadcast as in NumPy; every tile dim is a static power of two;
 *   - a place (ref indexing) used as a value is loaded; a ref by itself is
 *     never a value.
 */
#include "ast.h"
#include "numeric.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TILE_ELEMENTS = 1 << 20, MAX_PLACE_INDEXES = 6 };

/* ---- scopes ----------------------------------------------------------------- */

typedef struct Scope {
    struct Scope *parent;
    PtrVec symbols;
    /* By name, once the scope holds more than SCOPE_LINEAR symbols: a file
       of many thousand consts was quadratic with the linear search alone. */
    Symbol **table;
    int table_capacity;      /* a power of two, at least twice the symbols */
} Scope;

enum { SCOPE_LINEAR = 16 };

typedef struct Sema {
    Arena *arena;
    Program *program;
    const SemaOptions *options;
    Scope *globals;
    Kernel *kernel;          /* the kernel being checked */
    int grid_rank;
    long shared_limit;
    const char *shared_limit_arch;
    Node *loops[12];         /* the for and while loops around the statement being checked
                                (SEMA_MAX_LOOP_DEPTH) */
    int num_loops;
} Sema;

/* Names are interned, so the pointer is the key. */
static size_t scope_slot(const Scope *scope, const char *name) {
    uint64_t h = (uint64_t)(uintptr_t)name;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    size_t mask = (size_t)scope->table_capacity - 1;
    size_t i = (size_t)h & mask;
    while (scope->table[i] && scope->table[i]->name != name)
        i = (i + 1) & mask;
    return i;
}

/* The first symbol of each name only: a second declaration is an error,
   and lookups find the first, as the linear search does. */
static void scope_index(Sema *s, Scope *scope, Symbol *sym) {
    if (scope->symbols.len <= SCOPE_LINEAR)
        return;
    if (scope->symbols.len * 2 > scope->table_capacity) {
        scope->table_capacity = scope->table_capacity ? scope->table_capacity * 2 : 4 * SCOPE_LINEAR;
        scope->table = ARENA_ARRAY(s->arena, Symbol *, scope->table_capacity);
        for (int i = 0; i < scope->symbols.len; i++) {
            Symbol *old = scope->symbols.items[i];
            size_t slot = scope_slot(scope, old->name);
            if (!scope->table[slot])
                scope->table[slot] = old;
        }
        return;   /* sym is among them */
    }
    size_t slot = scope_slot(scope, sym->name);
    if (!scope->table[slot])
        scope->table[slot] = sym;
}

static Symbol *scope_find_local(Scope *scope, const char *name) {
    if (scope->table)
        return scope->table[scope_slot(scope, name)];
    for (int i = 0; i < scope->symbols.len; i++) {
        Symbol *sym = scope->symbols.items[i];
        if (sym->name == name)
            return sym;
    }
    return NULL;
}

static Symbol *scope_lookup(Scope *scope, const char *name) {
    for (; scope; scope = scope->parent) {
        Symbol *sym = scope_find_local(scope, name);
        if (sym)
            return sym;
    }
    return NULL;
}

static Scope *scope_new(Sema *s, Scope *parent) {
    Scope *scope = ARENA_NEW(s->arena, Scope);
    scope->parent = parent;
    return scope;
}

static const char *symbol_kind_word(SymbolKind kind) {
    switch (kind) {
    case SYM_CONST: return "const";
    case SYM_CPARAM: return "compile-time parameter";
    case SYM_PARAM: return "parameter";
    case SYM_SIZE: return "symbolic size";
    case SYM_LET: return "let binding";
    case SYM_VAR: return "var";
    case SYM_LOOP: return "loop variable";
    case SYM_MAP: return "index-map name";
    }
    return "name";
}

/* Declares `name` in `scope`; a second declaration in the same scope is an error. */
static Symbol *declare(Sema *s, Scope *scope, SymbolKind kind, const char *name, Span span) {
    Symbol *old = scope_find_local(scope, name);
    if (old) {
        diag_error(span, "'%s' is already defined", name);
        diag_note(old->span, "'%s' was defined here as a %s", name, symbol_kind_word(old->kind));
    }
    Symbol *sym = ARENA_NEW(s->arena, Symbol);
    sym->kind = kind;
    sym->name = name;
    sym->span = span;
    ptrvec_push(s->arena, &scope->symbols, sym);
    scope_index(s, scope, sym);
    return sym;
}

/* ---- types ------------------------------------------------------------------ */

static Type type_error(void) { return (Type){.kind = TY_ERROR}; }
static Type type_void(void) { return (Type){.kind = TY_VOID}; }

static Type type_scalar(DType dtype) { return (Type){.kind = TY_TILE, .dtype = dtype}; }

static Type type_weak(bool is_float) {
    Type t = type_scalar(is_float ? DT_F32 : DT_I32);
    t.weak = true;
    return t;
}

static Type *set_type(Node *node, Type t) {
    node->type = t;
    return &node->type;
}

static bool is_error(const Type *t) { return t->kind == TY_ERROR; }
static bool is_scalar(const Type *t) { return t->kind == TY_TILE && t->rank == 0; }

/* Formats a type for messages into one of a few rotating buffers. */
static const char *type_str(const Type *t) {
    static char buffers[4][160];
    static int next;
    char *buf = buffers[next++ % 4];
    size_t n = 0, size = sizeof buffers[0];
    switch (t->kind) {
    case TY_ERROR: return "<error>";
    case TY_VOID: return "nothing";
    case TY_DTYPE: snprintf(buf, size, "type %s", dtype_name(t->dtype)); return buf;
    case TY_TILE:
    case TY_REF: break;
    }
    if (t->kind == TY_REF)
        n += (size_t)snprintf(buf + n, size - n, "ref ");
    if (t->weak)
        n += (size_t)snprintf(buf + n, size - n, "%s literal", t->dtype == DT_F32 ? "float" : "integer");
    else
        n += (size_t)snprintf(buf + n, size - n, "%s", dtype_name(t->dtype));
    if (t->rank > 0 || t->kind == TY_REF) {
        n += (size_t)snprintf(buf + n, size - n, "[");
        for (int i = 0; i < t->rank && n < size; i++) {
            if (t->dims[i].sym)
                n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", t->dims[i].sym->name);
            else
                n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "",
                                      (long long)t->dims[i].size);
        }
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, "]");
    }
    if (t->kind == TY_REF && n < size)
        snprintf(buf + n, size - n, " @%s", space_name(t->space));
    return buf;
}

static const char *shape_str(const Type *t) {
    static char buffers[4][120];
    static int next;
    char *buf = buffers[next++ % 4];
    size_t n = 0, size = sizeof buffers[0];
    n += (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < t->rank && n < size; i++) {
        if (t->dims[i].sym)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", t->dims[i].sym->name);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)t->dims[i].size);
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
    return buf;
}

static bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* Every tile is static, each dim a power of two, and small enough to hold in
   registers and shared memory. Reports at `span`; false after an error. */
static bool check_tile_shape(const Type *t, Span span, const char *what) {
    int64_t elements = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i].sym) {
            diag_error(span, "%s has a dim of symbolic size '%s'; tiles need static shapes "
                       "(take a static block of it, e.g. with ds(start, SIZE))",
                       what, t->dims[i].sym->name);
            return false;
        }
        int64_t d = t->dims[i].size;
        if (d <= 0) {   /* iota(-2147483648), zeros([0], f32): a make fuzz find */
            diag_error(span, "%s has shape %s; every tile dim must be at least 1 (dim %d is %lld)", what,
                       shape_str(t), i, (long long)d);
            return false;
        }
        if (!is_power_of_two(d) && d <= MAX_TILE_ELEMENTS) {
            /* the next power of two, for the advice (d is small here: no overflow) */
            int64_t up = 1;
            while (up < d)
                up *= 2;
            diag_error(span, "%s has shape %s; every tile dim must be a power of two (dim %d is %lld): "
                       "layouts split a dim over registers, lanes and warps in halves; make the block %lld "
                       "and mask the rest (load(..., other = ...), a store mask or where())",
                       what, shape_str(t), i, (long long)d, (long long)up);
            return false;
        }
        if (d > MAX_TILE_ELEMENTS || elements * d > MAX_TILE_ELEMENTS) {
            diag_error(span, "%s has shape %s, more than %d elements; tiles must fit on chip",
                       what, shape_str(t), MAX_TILE_ELEMENTS);
            return false;
        }
        elements *= d;
    }
    return true;
}

/* NumPy broadcasting of two static shapes. */
static bool broadcast_shapes(const Type *a, const Type *b, Type *out) {
    int rank = a->rank > b->rank ? a->rank : b->rank;
    out->rank = rank;
    for (int i = 0; i < rank; i++) {
        int ia = a->rank - rank + i, ib = b->rank - rank + i;
        int64_t da = ia >= 0 ? a->dims[ia].size : 1;
        int64_t db = ib >= 0 ? b->dims[ib].size : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        out->dims[i] = (Dim){.size = da == 1 ? db : da};
    }
    return true;
}

/* Does a value of shape `from` broadcast to exactly `to`? */
/* Whether two tiles have one static shape. */
static bool same_shape(const Type *a, const Type *b) {
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d].sym || b->dims[d].sym || a->dims[d].size != b->dims[d].size)
            return false;
    return true;
}

static bool broadcasts_to(const Type *from, const Type *to) {
    if (from->rank > to->rank)
        return false;
    for (int i = 0; i < from->rank; i++) {
        int64_t d = from->dims[i].size, t = to->dims[to->rank - from->rank + i].size;
        if (d != t && d != 1)
            return false;
    }
    return true;
}

/* ---- compile-time values ------------------------------------------------------- */

static ConstValue const_int(int64_t v) { return (ConstValue){.known = true, .i = v}; }
static ConstValue const_float(double v) { return (ConstValue){.known = true, .is_float = true, .f = v}; }

/* A compile-time value as numeric.h's Scalar: weak values are i64 or f64
   (docs/language.md 3.4), and a cast's value is exact in both. */
static Scalar weak_scalar(ConstValue v) {
    return v.is_float ? numeric_float(DT_F64, v.f) : numeric_int(DT_I64, v.i);
}

static ConstValue const_of_scalar(Scalar v) {
    return dtype_is_float(v.dtype) ? const_float(v.f) : const_int(v.i);
}

/* Both weak values of one kind: an integer with a float becomes an f64. */
static void weak_meet(Scalar *a, Scalar *b) {
    if (a->dtype != b->dtype) {
        *a = numeric_cast(*a, DT_F64);
        *b = numeric_cast(*b, DT_F64);
    }
}

IrOpcode sema_binary_opcode(int op) {
    switch (op) {
    case OP_ADD: return IR_ADD;
    case OP_SUB: return IR_SUB;
    case OP_MUL: return IR_MUL;
    case OP_DIV: return IR_DIV;
    case OP_REM: return IR_REM;
    case OP_LT: return IR_LT;
    case OP_GT: return IR_GT;
    case OP_LE: return IR_LE;
    case OP_GE: return IR_GE;
    case OP_EQ: return IR_EQ;
    case OP_NE: return IR_NE;
    case OP_AND: return IR_AND;
    case OP_OR: return IR_OR;
    case OP_BAND: return IR_AND;   /* on bools, '&' is '&&' (without the short circuit, which tiles lack anyway) */
    case OP_BOR: return IR_OR;
    case OP_BXOR: return IR_XOR;
    case OP_SHL: return IR_SHL;
    case OP_SHR: return IR_SHR;
    }
    INTERNAL_ERROR("binary operator %d", op);
}

IrOpcode sema_math_opcode(Builtin builtin) {
    switch (builtin) {
    case BI_EXP: return IR_EXP;
    case BI_EXP2: return IR_EXP2;
    case BI_EXP2_FTZ: return IR_EXP2_FTZ;
    case BI_LOG: return IR_LOG;
    case BI_LOG2: return IR_LOG2;
    case BI_SQRT: return IR_SQRT;
    case BI_RSQRT: return IR_RSQRT;
    case BI_ABS: return IR_ABS;
    case BI_TANH: return IR_TANH;
    case BI_SIGMOID: return IR_SIGMOID;
    case BI_SIN: return IR_SIN;
    case BI_COS: return IR_COS;
    case BI_ERF: return IR_ERF;
    case BI_FLOOR: return IR_FLOOR;
    case BI_CEIL: return IR_CEIL;
    case BI_TRUNC: return IR_TRUNC;
    case BI_ROUND: return IR_ROUND;
    default: INTERNAL_ERROR("math builtin %d", builtin);
    }
}

/* Folds a binary operator over two weak values in i64 or f64, as the
   interpreter computes those dtypes (integers wrap and divide as in C,
   floats are IEEE doubles). */
static bool fold_binary(int op, ConstValue a, ConstValue b, ConstValue *out, Span span) {
    Scalar x = weak_scalar(a), y = weak_scalar(b), r;
    weak_meet(&x, &y);
    IrOpcode opcode = sema_binary_opcode(op);
    if (dtype_is_float(x.dtype) && (opcode == IR_AND || opcode == IR_OR))
        return false;
    if (!numeric_binary(opcode, x, y, &r)) {
        diag_error(span, "division by zero in a constant expression");
        return false;
    }
    *out = const_of_scalar(r);
    return true;
}

/* ---- expressions -------------------------------------------------------------- */

static Type *check_expr(Sema *s, Scope *scope, Node *node);
static Type *check_value(Sema *s, Scope *scope, Node *node);

/* The integer compile-time value of `node`, which must be one. */
static bool expect_const_int(Sema *s, Scope *scope, Node *node, const char *what, int64_t *out) {
    Type *t = check_value(s, scope, node);
    if (is_error(t))
        return false;
    if (!node->value.known || !is_scalar(t) || node->value.is_float || !dtype_is_int(t->dtype)) {
        diag_error(node->span, "%s must be an integer known at compile time", what);
        return false;
    }
    *out = node->value.i;
    return true;
}

/* Turns an already checked `node` into a value: a place is loaded, a bare
   ref is an error. */
static Type *as_value(Node *node) {
    Type *t = &node->type;
    if (t->kind == TY_REF) {
        if (node->kind == N_INDEX) {
            Type tile = *t;
            tile.kind = TY_TILE;
            if (!check_tile_shape(&tile, node->span, "this load")) {
                node->type = type_error();
                return &node->type;
            }
            node->place_type = *t;
            node->loaded = true;
            node->type = tile;
            return &node->type;
        }
        const char *name = node->kind == N_NAME ? node->name : NULL;
        if (name)
            diag_error(node->span, "'%s' is a ref, not a value; read it with '%s[...]'", name, name);
        else
            diag_error(node->span, "a ref is not a value; index it to read it ('r[...]')");
        node->type = type_error();
    } else if (t->kind == TY_DTYPE) {
        diag_error(node->span, "a type is not a value here");
        node->type = type_error();
    } else if (t->kind == TY_VOID) {
        diag_error(node->span, "this call gives no value");
        node->type = type_error();
    }
    return &node->type;
}

/* Checks `node` as a value. */
static Type *check_value(Sema *s, Scope *scope, Node *node) {
    check_expr(s, scope, node);
    return as_value(node);
}

/* Unifies the dtypes of two operands under the weak-literal rule. On success
   sets *dtype and *weak of the result. */
static bool unify_dtypes(const Type *a, const Type *b, Span span, const char *what, DType *dtype,
                         bool *weak) {
    if (a->weak && b->weak) {
        *weak = true;
        *dtype = (a->dtype == DT_F32 || b->dtype == DT_F32) ? DT_F32 : DT_I32;
        return true;
    }
    *weak = false;
    if (a->weak || b->weak) {
        const Type *lit = a->weak ? a : b, *strong = a->weak ? b : a;
        if (lit->dtype == DT_F32 && !dtype_is_float(strong->dtype)) {
            diag_error(span, "a float literal cannot take the dtype %s of the other operand of %s; "
                       "cast with 'as'", dtype_name(strong->dtype), what);
            return false;
        }
        if (strong->dtype == DT_BOOL) {
            diag_error(span, "a number cannot be combined with a bool tile in %s", what);
            return false;
        }
        *dtype = strong->dtype;
        return true;
    }
    if (a->dtype != b->dtype) {
        diag_error(span, "mixed dtypes %s and %s in %s; cast one side with 'as'",
                   dtype_name(a->dtype), dtype_name(b->dtype), what);
        return false;
    }
    *dtype = a->dtype;
    return true;
}

static const char *op_word(int op) {
    static char buf[16];
    snprintf(buf, sizeof buf, "'%s'", ast_op_spelling(op));
    return buf;
}

/* fp8 is for storage, casts and dot() (docs/language.md 3.1): true, with an
   error, when `t` is fp8 and `what` would compute on it. */

static bool fp8_operand(const Type *t, Span span, const char *what) {
    if (!dtype_is_fp8(t->dtype))
        return false;
    diag_error(span, "%s does not compute on %s values; cast with 'as f16' or 'as f32' first (fp8 is for "
               "storage, casts and dot())", what, dtype_name(t->dtype));
    return true;
}

/* The same for the operand of builtin `call`, named as "exp()". */
static bool fp8_call_operand(const Type *t, const Node *call) {
    char what[64];
    snprintf(what, sizeof what, "%s()", call->name);
    return fp8_operand(t, call->span, what);
}

/* The result type of an elementwise operation of two values. */
static Type elementwise2(const Type *a, const Type *b, Span span, const char *what) {
    Type result = {.kind = TY_TILE};
    if (fp8_operand(a, span, what) || fp8_operand(b, span, what))
        return type_error();
    if (!unify_dtypes(a, b, span, what, &result.dtype, &result.weak))
        return type_error();
    if (!broadcast_shapes(a, b, &result)) {
        diag_error(span, "shapes %s and %s do not broadcast in %s", shape_str(a), shape_str(b), what);
        return type_error();
    }
    return result;
}

static Type *check_binary(Sema *s, Scope *scope, Node *node) {
    Type *a = check_value(s, scope, node->lhs);
    Type *b = check_value(s, scope, node->rhs);
    if (is_error(a) || is_error(b))
        return set_type(node, type_error());
    int op = node->op;
    const char *what = op_word(op);
    bool bitwise = op == OP_BAND || op == OP_BOR || op == OP_BXOR, shift = op == OP_SHL || op == OP_SHR;
    if (bitwise || shift) {
        /* integers (of one dtype, weak literals taking it), or bools for & | ^ */
        bool a_ok = dtype_is_int(a->dtype) || (bitwise && a->dtype == DT_BOOL);
        bool b_ok = dtype_is_int(b->dtype) || (bitwise && b->dtype == DT_BOOL);
        if (!a_ok || !b_ok) {
            diag_error(node->span, "%s needs %s operands, got %s and %s%s", what,
                       shift ? "integer" : "integer or bool", type_str(a), type_str(b),
                       dtype_is_float(a->dtype) || dtype_is_float(b->dtype)
                           ? "; bitcast(x, u32) gives a float's bits as an integer" : "");
            return set_type(node, type_error());
        }
        /* A literal amount would wrap into x's dtype before the clamp (1 << 40
           as an i32 is 0): one outside the width is an error, not a shift. */
        ConstValue n = node->rhs->value;
        if (shift && b->weak && !a->weak && n.known && !n.is_float) {
            int bits = 8 * dtype_bytes(a->dtype);
            if (n.i < 0 || n.i >= bits) {
                diag_error(node->rhs->span, "a shift of %s by %lld: the amount must be 0 to %d for its %d bits "
                           "(a run-time amount outside that gives 0, or -1 for '>>' of a negative value)",
                           type_str(a), (long long)n.i, bits - 1, bits);
                return set_type(node, type_error());
            }
        }
    } else if (op == OP_AND || op == OP_OR) {
        if (a->dtype != DT_BOOL || b->dtype != DT_BOOL) {
            diag_error(node->span, "%s needs bool operands, got %s and %s", what, type_str(a), type_str(b));
            return set_type(node, type_error());
        }
    } else if (a->dtype == DT_BOOL && !a->weak && (op != OP_EQ && op != OP_NE)) {   /* not '&' '|' '^' */
        diag_error(node->lhs->span, "%s is not defined on bool values", what);
        return set_type(node, type_error());
    }
    Type result = elementwise2(a, b, node->span, what);
    if (is_error(&result))
        return set_type(node, result);
    bool compare = op == OP_LT || op == OP_GT || op == OP_LE || op == OP_GE || op == OP_EQ || op == OP_NE;
    if (result.weak && node->lhs->value.known && node->rhs->value.known) {
        if (!fold_binary(op, node->lhs->value, node->rhs->value, &node->value, node->span))
            return set_type(node, type_error());
    } else if ((op == OP_DIV || op == OP_REM) && dtype_is_int(result.dtype) && node->rhs->value.known &&
               !node->rhs->value.is_float && node->rhs->value.i == 0) {
        /* Not folded (the dividend is known only at run time), but certainly
           wrong: the GPU does not trap, it gives an undefined value. */
        diag_error(node->rhs->span, "integer %s by zero: the divisor is the constant 0",
                   op == OP_DIV ? "division" : "remainder");
        return set_type(node, type_error());
        if (!compare && result.dtype == DT_I32 && node->value.is_float)
            result.dtype = DT_F32;
    }
    if (compare) {
        result.dtype = DT_BOOL;
        result.weak = false;
    }
    node->type = result;
    return &node->type;
}

static Type *check_unary(Sema *s, Scope *scope, Node *node) {
    Type *a = check_value(s, scope, node->lhs);
    if (is_error(a))
        return set_type(node, type_error());
    if (fp8_operand(a, node->span, op_word(node->op)))
        return set_type(node, type_error());
    if (node->op == OP_BNOT) {
        /* ~x: the bits flipped; on a bool, '!' */
        if (!dtype_is_int(a->dtype) && a->dtype != DT_BOOL) {
            diag_error(node->span, "'~' needs an integer or bool operand, got %s%s", type_str(a),
                       dtype_is_float(a->dtype) ? "; bitcast(x, u32) gives a float's bits as an integer" : "");
            return set_type(node, type_error());
        }
        node->type = *a;
        Scalar r;
        if (node->lhs->value.known && a->dtype != DT_BOOL && numeric_unary(IR_NOT, weak_scalar(node->lhs->value), &r))
            node->value = const_of_scalar(r);
        else if (node->lhs->value.known)
            node->value = const_int(!node->lhs->value.i);
        return &node->type;
    }
    if (node->op == OP_NOT) {
        if (a->dtype != DT_BOOL) {
            diag_error(node->span, "'!' needs a bool operand, got %s", type_str(a));
            return set_type(node, type_error());
        }
        node->type = *a;
        if (node->lhs->value.known)
            node->value = const_int(!node->lhs->value.i);
        return &node->type;
    }
    if (a->dtype == DT_BOOL) {
        diag_error(node->span, "unary '-' is not defined on bool values");
        return set_type(node, type_error());
    }
    node->type = *a;
    if (a->weak && node->lhs->value.known) {
        Scalar r;
        if (numeric_unary(IR_NEG, weak_scalar(node->lhs->value), &r))
            node->value = const_of_scalar(r);
    }
    return &node->type;
}

static Type *check_cast(Sema *s, Scope *scope, Node *node) {
    Type *a = check_value(s, scope, node->lhs);
    if (is_error(a))
        return set_type(node, type_error());
    node->type = *a;
    node->type.weak = false;
    node->type.dtype = node->dtype;
    ConstValue v = node->lhs->value;
    /* As the cast op computes it: floats to int saturate, NaN gives 0. */
    if (v.known && a->rank == 0)
        node->value = const_of_scalar(numeric_cast(weak_scalar(v), node->dtype));
    return &node->type;
}

static Symbol *lookup_or_report(Sema *s, Scope *scope, Node *node) {
    Symbol *sym = scope_lookup(scope, node->name);
    /* the statement words Tessera lacks (`loop`, `do`) come with blocks,
       which the parser reports; one reaching the checker is a name */
    if (!sym)
        diag_error(node->span, "undefined name '%s'", node->name);
    (void)s;
    return sym;
}

static Type *check_name(Sema *s, Scope *scope, Node *node) {
    Symbol *sym = lookup_or_report(s, scope, node);
    if (!sym)
        return set_type(node, type_error());
    node->sym = sym;
    node->type = sym->type;
    if (sym->kind == SYM_CONST || sym->kind == SYM_CPARAM || (sym->kind == SYM_LET && sym->value.known))
        node->value = sym->value;
    return &node->type;
}

/* ---- indexing ------------------------------------------------------------------ */

/* Counts the items of an index that take up a dim of the indexed value. */
static int index_items_using_dims(Node *node) {
    int n = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind != N_ELLIPSIS && item->kind != N_NONE)
            n++;
    }
    return n;
}

/* Resolves a static slice a:b of a dim of size `dim` (-1: symbolic). */
static bool check_static_slice(Sema *s, Scope *scope, Node *item, int64_t dim, const char *dim_name) {
    int64_t start = 0, stop = dim;
    if (item->lhs && !expect_const_int(s, scope, item->lhs, "a slice bound (use ds(start, size) for a dynamic start)", &start))
        return false;
    if (item->rhs) {
        if (!expect_const_int(s, scope, item->rhs, "a slice bound (use ds(start, size) for a dynamic start)", &stop))
            return false;
    } else if (dim < 0) {
        diag_error(item->span, "slice 'a:' of a dim of symbolic size '%s' has no static end; "
                   "use ds(start, size)", dim_name);
        return false;
    }
    if (start < 0 || stop <= start || (dim >= 0 && stop > dim)) {
        if (dim >= 0)
            diag_error(item->span, "slice %lld:%lld is empty or outside a dim of size %lld",
                       (long long)start, (long long)stop, (long long)dim);
        else
            diag_error(item->span, "slice %lld:%lld is empty", (long long)start, (long long)stop);
        return false;
    }
    item->slice_start = start;
    item->slice_stop = stop;
    return true;
}

/* r[i0, i1, ...] with integer tiles among the indices: a gathered place,
   one element of r per element of the indices broadcast together (numpy's
   integer-array indexing), every dim indexed by a tile or a scalar. Its
   type is a ref of that shape; loads gather, stores scatter. */
static Type *check_gather_index(Sema *s, Scope *scope, Node *node, const Type *ref) {
    (void)s, (void)scope;
    Type shape = {.kind = TY_TILE, .rank = 0};
    int count = 0;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_SLICE || item->kind == N_ELLIPSIS || item->kind == N_NONE ||
            (item->kind == N_CALL && item->name == intern_cstr("ds"))) {
            diag_error(item->span, "an index with integer tiles takes a tile or a scalar in every dim; a "
                       "whole dim is an iota (x[rows[:, None], iota(D)[None, :]])");
            return set_type(node, type_error());
        }
        const Type *t = &item->type;   /* checked by check_place_index */
        if (!t->weak && t->dtype != DT_I32 && t->dtype != DT_I16 && t->dtype != DT_I8 && t->dtype != DT_U8 &&
            t->dtype != DT_U16) {
            diag_error(item->span, "an index tile must be i32 (or i8, i16, u8, u16), got %s; cast with 'as i32'",
                       type_str(t));
            return set_type(node, type_error());
        }
        Type next = shape;
        if (!broadcast_shapes(&shape, t, &next)) {
            diag_error(node->span, "the index tiles' shapes do not broadcast together (%s and %s)",
                       shape_str(&shape), shape_str(t));
            return set_type(node, type_error());
        }
        shape = next;
        count++;
    }
    if (count != ref->rank) {
        diag_error(node->span, "an index with integer tiles needs one index per dim: %d for a ref of rank %d (%s)",
                   count, ref->rank, type_str(ref));
        return set_type(node, type_error());
    }
    Type result = *ref;
    result.rank = shape.rank;
    for (int d = 0; d < shape.rank; d++)
        result.dims[d] = shape.dims[d];
    Type tile = result;
    tile.kind = TY_TILE;
    if (!check_tile_shape(&tile, node->span, "this gather"))
        return set_type(node, type_error());
    node->gather = true;
    node->type = result;
    return &node->type;
}

/* r[items] on a ref: a place whose type is the viewed ref. */
static Type *check_place_index(Sema *s, Scope *scope, Node *node, const Type *ref) {
    Type result = *ref;
    result.rank = 0;
    if (node->lhs->kind == N_INDEX && node->lhs->gather) {
        diag_error(node->span, "a gathered place cannot be indexed again; index the tiles of indices instead");
        return set_type(node, type_error());
    }
    /* Each index is a view whose bounds every access checks; the backend
       keeps a fixed number of them per dim (the array's, the block's and
       these), so the chain is limited rather than failing there. */
    int depth = 1;
    for (Node *inner = node->lhs; inner->kind == N_INDEX; inner = inner->lhs)
        depth++;
    if (depth > MAX_PLACE_INDEXES) {
        diag_error(node->span, "a place may be indexed at most %d times in a row", MAX_PLACE_INDEXES);
        return set_type(node, type_error());
    }
    int used = index_items_using_dims(node);
    if (used > ref->rank) {
        diag_error(node->span, "%d ind%s for a ref of rank %d (%s)", used, used == 1 ? "ex" : "ices", ref->rank,
                   type_str(ref));
        return set_type(node, type_error());
    }
    int dim = 0;
    bool ok = true, seen_ellipsis = false, gather = false;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_ELLIPSIS) {
            if (seen_ellipsis) {
                diag_error(item->span, "only one '...' is allowed in an index");
                ok = false;
                continue;
            }
            seen_ellipsis = true;
            for (int k = 0; k < ref->rank - used; k++)
                result.dims[result.rank++] = ref->dims[dim++];
            continue;
        }
        if (item->kind == N_NONE) {
            diag_error(item->span, "'None' adds a dim to a tile, not to a ref; load first ('r[...][:, None]')");
            ok = false;
            continue;
        }
        Dim d = ref->dims[dim];
        int64_t size = d.sym ? -1 : d.size;
        if (item->kind == N_SLICE) {
            if (!item->lhs && !item->rhs) {
                result.dims[result.rank++] = d;
            } else if (check_static_slice(s, scope, item, size, d.sym ? d.sym->name : "")) {
                result.dims[result.rank++] = (Dim){.size = item->slice_stop - item->slice_start};
            } else {
                ok = false;
            }
        } else if (item->kind == N_CALL && item->name == intern_cstr("ds")) {
            item->builtin = BI_DS;
            item->type = type_void();
            Node *kwarg = NULL;
            for (int a = 0; a < item->items.len && !kwarg; a++)
                if (((Node *)item->items.items[a])->kind == N_KWARG)
                    kwarg = item->items.items[a];
            if (kwarg) {
                diag_error(kwarg->span, "ds() has no keyword argument '%s'", kwarg->name);
                ok = false;
            } else if (item->items.len != 2) {
                diag_error(item->span, "ds() takes 2 arguments (start, size), got %d", item->items.len);
                ok = false;
            } else {
                Node *start = item->items.items[0], *count = item->items.items[1];
                Type *st = check_value(s, scope, start);
                int64_t n = 0;
                if (is_error(st)) {
                    ok = false;
                } else if (!is_scalar(st) || !dtype_is_int(st->dtype) ||
                           (!st->weak && st->dtype != DT_I32)) {
                    diag_error(start->span, "the start of ds() must be an i32 scalar, got %s", type_str(st));
                    ok = false;
                }
                if (count->kind == N_NAME) {
                    Symbol *sym = scope_lookup(scope, count->name);
                    if (sym && sym->kind == SYM_SIZE) {
                        diag_error(count->span, "the size of ds() must be known at compile time; "
                                   "'%s' is a symbolic size, known only at launch", sym->name);
                        ok = false;
                        count = NULL;
                    }
                }
                if (!count) {
                    /* reported above */
                } else if (!expect_const_int(s, scope, count, "the size of ds()", &n)) {
                    ok = false;
                } else if (n <= 0) {
                    diag_error(count->span, "the size of ds() must be positive, got %lld", (long long)n);
                    ok = false;
                } else {
                    item->slice_stop = n;
                    result.dims[result.rank++] = (Dim){.size = n};
                }
            }
        } else {
            Type *t = check_value(s, scope, item);
            if (is_error(t)) {
                ok = false;
            } else if (t->rank > 0 && dtype_is_int(t->dtype)) {
                gather = true;   /* an integer tile: the whole index gathers */
            } else if (!is_scalar(t) || !dtype_is_int(t->dtype) || (!t->weak && t->dtype != DT_I32)) {
                diag_error(item->span, "a ref index must be an i32 scalar, ':', a slice or ds(start, size); "
                           "got %s", type_str(t));
                ok = false;
            }
        }
        dim++;
    }
    for (; dim < ref->rank && !seen_ellipsis; dim++)
        result.dims[result.rank++] = ref->dims[dim];
    if (!ok)
        return set_type(node, type_error());
    if (gather)
        return check_gather_index(s, scope, node, ref);
    node->type = result;
    return &node->type;
}

/* t[items] on a tile: None adds a unit dim, ':' keeps one, a static slice
   narrows one, a constant index drops one, and so does an integer scalar
   known only at run time (its element read out by lowering). */
static Type *check_tile_index(Sema *s, Scope *scope, Node *node, const Type *tile) {
    Type result = *tile;
    result.rank = 0;
    int used = index_items_using_dims(node);
    if (used > tile->rank) {
        diag_error(node->span, "%d ind%s for a tile of rank %d", used, used == 1 ? "ex" : "ices", tile->rank);
        return set_type(node, type_error());
    }
    /* The result's rank: the tile's, less a dim per integer index, plus one
       per None. Checked first: trailing dims and '...' add dims too. */
    int result_rank = tile->rank;
    for (int i = 0; i < node->items.len; i++) {
        NodeKind kind = ((Node *)node->items.items[i])->kind;
        result_rank += kind == N_NONE ? 1 : kind == N_ELLIPSIS || kind == N_SLICE ? 0 : -1;
    }
    if (result_rank > MAX_RANK) {
        diag_error(node->span, "a tile has at most %d dims; this index gives %d", MAX_RANK, result_rank);
        return set_type(node, type_error());
    }
    int dim = 0;
    bool ok = true, seen_ellipsis = false;
    for (int i = 0; i < node->items.len; i++) {
        Node *item = node->items.items[i];
        if (item->kind == N_ELLIPSIS) {
            if (seen_ellipsis) {
                diag_error(item->span, "only one '...' is allowed in an index");
                ok = false;
                continue;
            }
            seen_ellipsis = true;
            for (int k = 0; k < tile->rank - used; k++)
                result.dims[result.rank++] = tile->dims[dim++];
        } else if (item->kind == N_NONE) {
            result.dims[result.rank++] = (Dim){.size = 1};
        } else if (item->kind == N_SLICE) {
            int64_t size = tile->dims[dim].size;
            if (!item->lhs && !item->rhs) {
                item->slice_start = 0;
                item->slice_stop = size;
                result.dims[result.rank++] = tile->dims[dim];
            } else if (check_static_slice(s, scope, item, size, "")) {
                result.dims[result.rank++] = (Dim){.size = item->slice_stop - item->slice_start};
            } else {
                ok = false;
            }
            dim++;
        } else {
            int64_t index;
            if (item->kind == N_CALL && item->name == intern_cstr("ds")) {
                diag_error(item->span, "ds() selects from a ref; a tile takes static slices 'a:b'");
                ok = false;
            } else if (is_error(check_value(s, scope, item))) {
                ok = false;
            } else if (!is_scalar(&item->type) || !dtype_is_int(item->type.dtype) || item->value.is_float) {
                diag_error(item->span, "a tile index must be an integer scalar (a constant, or one known at "
                           "run time), got %s", type_str(&item->type));
                ok = false;
            } else if (!item->value.known) {
                /* t[i] at a run-time i: the whole dim, then the element i of it (lower.c) */
                item->runtime_index = true;
                item->slice_start = 0;
                item->slice_stop = tile->dims[dim].size;
            } else if ((index = item->value.i) < 0 || index >= tile->dims[dim].size) {
                diag_error(item->span, "index %lld is outside a dim of size %lld", (long long)index,
                           (long long)tile->dims[dim].size);
                ok = false;
            } else {
                item->slice_start = index;
                item->slice_stop = index + 1;
            }
            dim++;
        }
    }
    for (; dim < tile->rank && !seen_ellipsis; dim++)
        result.dims[result.rank++] = tile->dims[dim];
    if (!ok)
        return set_type(node, type_error());
    if (!check_tile_shape(&result, node->span, "this slice"))
        return set_type(node, type_error());
    node->type = result;
    /* A weak value is one number spread over its shape, so '...', 'None',
       slices and constant indices keep that number: 1.0[None] is a weak
       [1] of 1.0, and lowering makes it a constant like any weak value. */
    if (tile->weak)
        node->value = node->lhs->value;
    return &node->type;
}

/* True when an index holds a 'None', which only a tile takes. */
static bool index_has_none(Node *node) {
    for (int i = 0; i < node->items.len; i++)
        if (((Node *)node->items.items[i])->kind == N_NONE)
            return true;
    return false;
}

static Type *check_index(Sema *s, Scope *scope, Node *node) {
    Type *base = check_expr(s, scope, node->lhs);
    if (is_error(base))
        return set_type(node, type_error());
    /* A ref indexes to a place, and so does a place indexed again: the
       second index narrows the first's view (x[ds(j, 128)][0:64]). An index
       with 'None' is a tile index, so the place is read first, as in Pallas:
       x[...][:, None] is the loaded tile with a unit dim added. */
    if (base->kind == TY_REF && (node->lhs->kind != N_INDEX || !index_has_none(node)))
        return check_place_index(s, scope, node, base);
    base = as_value(node->lhs);
    if (is_error(base))
        return set_type(node, type_error());
    return check_tile_index(s, scope, node, base);
}

/* ---- calls ------------------------------------------------------------------ */

static const struct {
    const char *name;
    Builtin builtin;
} builtin_names[] = {
    {"program_id", BI_PROGRAM_ID}, {"num_programs", BI_NUM_PROGRAMS}, {"iota", BI_IOTA},
    {"zeros", BI_ZEROS}, {"full", BI_FULL}, {"cdiv", BI_CDIV}, {"min", BI_MIN}, {"max", BI_MAX},
    {"sum", BI_SUM}, {"where", BI_WHERE}, {"exp", BI_EXP}, {"exp2", BI_EXP2}, {"exp2_ftz", BI_EXP2_FTZ}, {"log", BI_LOG},
    {"log2", BI_LOG2}, {"sqrt", BI_SQRT}, {"rsqrt", BI_RSQRT}, {"abs", BI_ABS}, {"tanh", BI_TANH},
    {"sigmoid", BI_SIGMOID}, {"sin", BI_SIN}, {"cos", BI_COS}, {"erf", BI_ERF}, {"floor", BI_FLOOR},
    {"ceil", BI_CEIL}, {"trunc", BI_TRUNC}, {"round", BI_ROUND}, {"pow", BI_POW}, {"isnan", BI_ISNAN},
    {"isinf", BI_ISINF}, {"isfinite", BI_ISFINITE}, {"clamp", BI_CLAMP}, {"sign", BI_SIGN}, {"bitcast", BI_BITCAST}, {"rand", BI_RAND},
    {"randint", BI_RANDINT}, {"randn", BI_RANDN}, {"argmax", BI_ARGMAX}, {"argmin", BI_ARGMIN},
    {"print", BI_PRINT}, {"assert", BI_ASSERT}, {"cumsum", BI_CUMSUM}, {"cumprod", BI_CUMPROD}, {"cummax", BI_CUMMAX}, {"cummin", BI_CUMMIN},
    {"broadcast_to", BI_BROADCAST_TO}, {"expand_dims", BI_EXPAND_DIMS}, {"reshape", BI_RESHAPE},
    {"permute", BI_PERMUTE}, {"join", BI_JOIN}, {"interleave", BI_INTERLEAVE}, {"flip", BI_FLIP},
    {"dot", BI_DOT},
    {"alloc", BI_ALLOC}, {"load", BI_LOAD}, {"store", BI_STORE}, {"atomic_add", BI_ATOMIC_ADD},
    {"atomic_max", BI_ATOMIC_MAX}, {"atomic_min", BI_ATOMIC_MIN}, {"ds", BI_DS},
};

/* Splits a call's arguments into positional ones and the keyword arguments
   named in `allowed` (NULL-terminated). Reports unknown or repeated keywords. */
typedef struct CallArgs {
    Node *positional[4];
    int count;
    Node *kw[3];             /* in the order of `allowed` */
} CallArgs;

static bool split_args(Node *call, const char *const *allowed, CallArgs *args) {
    memset(args, 0, sizeof *args);
    bool ok = true, seen_keyword = false;
    for (int i = 0; i < call->items.len; i++) {
        Node *arg = call->items.items[i];
        if (arg->kind != N_KWARG) {
            if (seen_keyword) {
                diag_error(arg->span, "a positional argument cannot follow a keyword argument");
                ok = false;
            }
            if (args->count < 4)
                args->positional[args->count] = arg;
            args->count++;
            continue;
        }
        seen_keyword = true;
        int k = -1;
        for (int j = 0; allowed && allowed[j]; j++)
            if (strcmp(allowed[j], arg->name) == 0)
                k = j;
        if (k < 0) {
            diag_error(arg->span, "%s() has no keyword argument '%s'", call->name, arg->name);
            ok = false;
        } else if (args->kw[k]) {
            diag_error(arg->span, "keyword argument '%s' given twice", arg->name);
            ok = false;
        } else {
            args->kw[k] = arg->lhs;
        }
    }
    return ok;
}

static bool expect_arg_count(Node *call, const CallArgs *args, int min, int max) {
    if (args->count >= min && args->count <= max)
        return true;
    if (min == max)
        diag_error(call->span, "%s() takes %d argument%s, got %d", call->name, min, min == 1 ? "" : "s",
                   args->count);
    else
        diag_error(call->span, "%s() takes %d to %d arguments, got %d", call->name, min, max, args->count);
    return false;
}

/* A shape argument: a list literal of compile-time integers. */
static bool check_shape_arg(Sema *s, Scope *scope, Node *arg, Type *out) {
    if (arg->kind != N_LIST) {
        diag_error(arg->span, "a shape is written as a list of sizes, e.g. [128, 64]");
        return false;
    }
    if (arg->items.len > MAX_RANK) {
        diag_error(arg->span, "a tile has at most %d dims", MAX_RANK);
        return false;
    }
    out->rank = arg->items.len;
    for (int i = 0; i < arg->items.len; i++) {
        Node *d = arg->items.items[i];
        int64_t size;
        if (!expect_const_int(s, scope, d, "a tile dim", &size))
            return false;
        out->dims[i] = (Dim){.size = size};
    }
    arg->type = type_void();
    return true;
}

static bool check_dtype_arg(Node *arg, DType *dtype) {
    if (arg->kind != N_TYPE || arg->items.len > 0 || arg->has_space) {
        diag_error(arg->span, "expected a dtype such as f32");
        return false;
    }
    arg->type = (Type){.kind = TY_DTYPE, .dtype = arg->dtype};
    *dtype = arg->dtype;
    return true;
}

static bool check_axis_arg(Sema *s, Scope *scope, Node *arg, int rank, int *axis) {
    int64_t v;
    if (!expect_const_int(s, scope, arg, "an axis", &v))
        return false;
    if (v < -rank || v >= rank) {
        if (rank == 0)
            diag_error(arg->span, "axis %lld does not exist: the value is a scalar", (long long)v);
        else
            diag_error(arg->span, "axis %lld does not exist in a tile of rank %d (axes 0..%d)",
                       (long long)v, rank, rank - 1);
        return false;
    }
    *axis = (int)(v < 0 ? v + rank : v);
    return true;
}

/* The place argument of load/store/atomic_*: an indexed ref or a ref name. */
static Type *check_place_arg(Sema *s, Scope *scope, Node *arg, const char *fn) {
    Type *t = check_expr(s, scope, arg);
    if (is_error(t))
        return t;
    if (t->kind != TY_REF) {
        diag_error(arg->span, "the first argument of %s() must be a ref place such as x[...], got %s", fn,
                   type_str(t));
        arg->type = type_error();
        return &arg->type;
    }
    Type tile = *t;
    tile.kind = TY_TILE;
    if (!check_tile_shape(&tile, arg->span, "this place")) {
        arg->type = type_error();
        return &arg->type;
    }
    return t;
}

/* The parameter (or alloc binding) that a place writes through, following
   let aliases of refs. */
static Symbol *place_root(Node *place) {
    while (place && place->kind == N_INDEX)
        place = place->lhs;
    Symbol *sym = place && place->kind == N_NAME ? place->sym : NULL;
    while (sym && sym->kind == SYM_LET && sym->decl && sym->decl->rhs->kind == N_NAME && sym->decl->rhs->sym)
        sym = sym->decl->rhs->sym;
    return sym;
}

/* A write through `place` must not go to an 'in' parameter. */
static bool check_writable(Node *place, const Type *ref, Span span) {
    if (ref->access != ACCESS_IN)
        return true;
    Symbol *root = place_root(place);
    if (root) {
        diag_error(span, "cannot store to '%s': it is an 'in' parameter", root->name);
        diag_note(root->span, "'%s' declared 'in' here (use 'out' or 'inout' to write it)", root->name);
    } else {
        diag_error(span, "cannot store to a read-only ref");
    }
    return false;
}

/* A value stored into a place of type `ref`: same dtype (or weak), shape
   broadcasting to the place's. */
static bool check_stored_value(const Type *value, const Type *ref, Span span) {
    if (is_error(value))
        return false;
    if (!value->weak && value->dtype != ref->dtype) {
        diag_error(span, "cannot store %s into %s; cast with 'as %s'", type_str(value), type_str(ref),
                   dtype_name(ref->dtype));
        return false;
    }
    if (value->weak && value->dtype == DT_F32 && !dtype_is_float(ref->dtype)) {
        diag_error(span, "cannot store a float literal into %s", type_str(ref));
        return false;
    }
    if (!broadcasts_to(value, ref)) {
        diag_error(span, "cannot store a value of shape %s into a place of shape %s", shape_str(value),
                   shape_str(ref));
        return false;
    }
    return true;
}

static bool check_mask_arg(Sema *s, Scope *scope, Node *mask, const Type *shape) {
    Type *m = check_value(s, scope, mask);
    if (is_error(m))
        return false;
    if (m->dtype != DT_BOOL) {
        diag_error(mask->span, "a mask must be a bool tile, got %s", type_str(m));
        return false;
    }
    if (!broadcasts_to(m, shape)) {
        diag_error(mask->span, "a mask of shape %s does not broadcast to %s", shape_str(m), shape_str(shape));
        return false;
    }
    return true;
}

static Type *check_call(Sema *s, Scope *scope, Node *node);

static Type check_math(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 1, 1))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    if (is_error(a) || fp8_call_operand(a, node))
        return type_error();
    if (node->builtin == BI_ABS ? a->dtype == DT_BOOL : !dtype_is_float(a->dtype) && !a->weak) {
        diag_error(node->span, "%s() needs a %s tile, got %s", node->name,
                   node->builtin == BI_ABS ? "numeric" : "float", type_str(a));
        return type_error();
    }
    if (node->builtin == BI_EXP2_FTZ && a->dtype == DT_F64 && !a->weak) {
        /* ex2.approx.ftz.f32 has no f64 form, and f64's own smallest normal
           would be another function: the flush is defined for f32 only. */
        diag_error(node->span, "exp2_ftz() flushes results below f32's smallest normal (2^-126) and takes f16, bf16 "
                   "or f32, got %s; use exp2() for f64", type_str(a));
        return type_error();
    }
    Type r = *a;
    if (a->weak) {
        /* exp(1) is a float: math on a weak value gives a weak float. */
        r.dtype = node->builtin == BI_ABS ? a->dtype : DT_F32;
        ConstValue v = args->positional[0]->value;
        Scalar x = weak_scalar(v), y;
        if (node->builtin != BI_ABS)
            x = numeric_cast(x, DT_F64);
        if (v.known && numeric_unary(sema_math_opcode((Builtin)node->builtin), x, &y))
            node->value = const_of_scalar(y);
    }
    return r;
}

/* pow(x, y): floats (a weak pair is a weak float, computed now in f64),
   broadcasting as the arithmetic operators do. */
static Type check_pow(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 2, 2))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    Type *b = check_value(s, scope, args->positional[1]);
    if (is_error(a) || is_error(b))
        return type_error();
    Type r = elementwise2(a, b, node->span, "pow()");
    if (is_error(&r))
        return r;
    if (!dtype_is_float(r.dtype) && !r.weak) {
        diag_error(node->span, "pow() needs float operands, got %s and %s; cast with 'as f32'", type_str(a),
                   type_str(b));
        return type_error();
    }
    if (r.weak) {
        r.dtype = DT_F32;
        ConstValue x = args->positional[0]->value, y = args->positional[1]->value;
        Scalar out;
        if (x.known && y.known &&
            numeric_binary(IR_POW, numeric_cast(weak_scalar(x), DT_F64), numeric_cast(weak_scalar(y), DT_F64), &out))
            node->value = const_of_scalar(out);
    }
    return r;
}

/* isnan, isinf, isfinite: a float tile (or a weak value) to a bool tile of
   its shape. */
static Type check_float_class(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 1, 1))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    if (is_error(a) || fp8_call_operand(a, node))
        return type_error();
    if (!dtype_is_float(a->dtype) && !a->weak) {
        diag_error(node->span, "%s() needs a float tile, got %s (an integer is never NaN or infinite)", node->name,
                   type_str(a));
        return type_error();
    }
    Type r = *a;
    r.dtype = DT_BOOL;
    r.weak = false;   /* a bool is never weak (true and false are bool) */
    ConstValue v = args->positional[0]->value;
    if (a->weak && v.known) {
        double x = v.is_float ? v.f : (double)v.i;
        bool c = node->builtin == BI_ISNAN ? isnan(x) : node->builtin == BI_ISINF ? isinf(x) : isfinite(x);
        node->value = const_of_scalar((Scalar){.dtype = DT_BOOL, .i = c});
    }
    return r;
}

/* clamp(x, lo, hi) = min(max(x, lo), hi): numeric operands of one dtype (or
   weak), broadcasting together. */
static Type check_clamp(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 3, 3))
        return type_error();
    Type *x = check_value(s, scope, args->positional[0]);
    Type *lo = check_value(s, scope, args->positional[1]);
    Type *hi = check_value(s, scope, args->positional[2]);
    if (is_error(x) || is_error(lo) || is_error(hi))
        return type_error();
    Type r = elementwise2(x, lo, node->span, "clamp()");
    if (is_error(&r))
        return r;
    r = elementwise2(&r, hi, node->span, "clamp()");
    if (is_error(&r))
        return r;
    if (r.dtype == DT_BOOL) {
        diag_error(node->span, "clamp() needs numeric operands, got %s", type_str(&r));
        return type_error();
    }
    ConstValue vx = args->positional[0]->value, vl = args->positional[1]->value, vh = args->positional[2]->value;
    if (r.weak && vx.known && vl.known && vh.known) {
        Scalar a = weak_scalar(vx), l = weak_scalar(vl), h = weak_scalar(vh), m, out;
        weak_meet(&a, &l);
        weak_meet(&a, &h);
        weak_meet(&l, &h);
        numeric_binary(IR_MAX, a, l, &m);
        numeric_binary(IR_MIN, m, h, &out);
        node->value = const_of_scalar(out);
    }
    return r;
}

/* bitcast(x, dtype): x's bits read as `dtype`, of the same width (not
   bool); a literal has no bits until it has a dtype. */
static Type check_bitcast(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 2, 2))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    DType to;
    if (is_error(a) || !check_dtype_arg(args->positional[1], &to))
        return type_error();
    if (a->weak) {
        diag_error(args->positional[0]->span, "bitcast() needs a value of a known dtype, not a literal; write "
                   "'1.0 as f32' to give it one");
        return type_error();
    }
    if (a->dtype == DT_BOOL || to == DT_BOOL || dtype_bytes(a->dtype) != dtype_bytes(to)) {
        diag_error(node->span, "bitcast() keeps the bits: %s and %s must be of one width (8, 16, 32 or 64 bits, "
                   "not bool)", dtype_name(a->dtype), dtype_name(to));
        return type_error();
    }
    Type r = *a;
    r.dtype = to;
    return r;
}

/* rand(seed, offsets), randint, randn: a scalar integer seed (i32, u32,
   i64 or a literal) and an i32 or u32 tile of offsets (docs/language.md
   9.13); the result has the offsets' shape. */
static Type check_random(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 2, 2))
        return type_error();
    Type *seed = check_value(s, scope, args->positional[0]);
    Type *offsets = check_value(s, scope, args->positional[1]);
    if (is_error(seed) || is_error(offsets))
        return type_error();
    if (seed->rank != 0 || !(seed->weak ? !args->positional[0]->value.is_float
                                        : seed->dtype == DT_I32 || seed->dtype == DT_U32 || seed->dtype == DT_I64)) {
        diag_error(args->positional[0]->span, "the seed of %s() must be an integer scalar (i32, u32 or i64), got %s",
                   node->name, type_str(seed));
        return type_error();
    }
    if (offsets->weak || (offsets->dtype != DT_I32 && offsets->dtype != DT_U32)) {
        diag_error(args->positional[1]->span, "the offsets of %s() must be an i32 or u32 tile (one random number "
                   "each, as 'start + iota(N)'), got %s", node->name, type_str(offsets));
        return type_error();
    }
    Type r = *offsets;
    r.dtype = node->builtin == BI_RANDINT ? DT_U32 : DT_F32;
    return r;
}

/* sign(x): 1, -1 or 0 (+0 for either zero, NaN for NaN, as numpy's). */
static Type check_sign(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 1, 1))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    if (is_error(a) || fp8_call_operand(a, node))
        return type_error();
    if (a->dtype == DT_BOOL) {
        diag_error(node->span, "sign() needs a numeric tile, got %s", type_str(a));
        return type_error();
    }
    ConstValue v = args->positional[0]->value;
    if (a->weak && v.known) {
        if (v.is_float)
            node->value = const_of_scalar((Scalar){.dtype = DT_F64,
                                                   .f = v.f > 0 ? 1.0 : v.f < 0 ? -1.0 : isnan(v.f) ? v.f : 0.0});
        else
            node->value = const_of_scalar((Scalar){.dtype = DT_I64, .i = v.i > 0 ? 1 : v.i < 0 ? -1 : 0});
    }
    return *a;
}

static Type check_reduction(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    Type *a = check_value(s, scope, args->positional[0]);
    if (is_error(a) || fp8_call_operand(a, node))
        return type_error();
    if (a->weak) {
        bool scan = node->builtin >= BI_CUMSUM && node->builtin <= BI_CUMMIN;
        diag_error(args->positional[0]->span, "%s() %s a tile; give it a tile, not a literal", node->name,
                   scan ? "scans" : "reduces");
        return type_error();
    }
    if (a->dtype == DT_BOOL) {
        diag_error(args->positional[0]->span, "%s() is not defined on bool tiles", node->name);
        return type_error();
    }
    Type r = *a;
    node->axis = -1;
    if (args->kw[0]) {
        if (!check_axis_arg(s, scope, args->kw[0], a->rank, &node->axis))
            return type_error();
        r.rank = 0;
        for (int i = 0; i < a->rank; i++)
            if (i != node->axis)
                r.dims[r.rank++] = a->dims[i];
    } else {
        r.rank = 0;
    }
    return r;
}

static Type check_dot(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 2, 2))
        return type_error();
    Type *a = check_value(s, scope, args->positional[0]);
    Type *b = check_value(s, scope, args->positional[1]);
    if (is_error(a) || is_error(b))
        return type_error();
    if (a->rank != 2 || b->rank != 2) {
        diag_error(node->span, "dot() takes two rank-2 tiles ([m, k] and [k, n]), got %s and %s",
                   type_str(a), type_str(b));
        return type_error();
    }
    if (a->dims[1].size != b->dims[0].size) {
        diag_error(node->span, "dot() inner sizes differ: %s and %s (%lld != %lld)", type_str(a),
                   type_str(b), (long long)a->dims[1].size, (long long)b->dims[0].size);
        return type_error();
    }
    bool supported = !a->weak && !b->weak &&
                     ((a->dtype == b->dtype && (a->dtype == DT_F16 || a->dtype == DT_BF16 || a->dtype == DT_F32 ||
                                                a->dtype == DT_I8)) ||
                      (dtype_is_fp8(a->dtype) && dtype_is_fp8(b->dtype)));
    if (!supported) {
        diag_error(node->span, "dot() of %s and %s is not supported; it takes two f16, two bf16, "
                   "two f32 (computed as tf32), two i8 or two fp8 (f8e4m3, f8e5m2) tiles", dtype_name(a->dtype),
                   dtype_name(b->dtype));
        return type_error();
    }
    Type r = {.kind = TY_TILE, .dtype = a->dtype == DT_I8 ? DT_I32 : DT_F32, .rank = 2};
    r.dims[0] = a->dims[0];
    r.dims[1] = b->dims[1];
    return r;
}

static Type check_alloc(Sema *s, Scope *scope, Node *node, const CallArgs *args) {
    if (!expect_arg_count(node, args, 1, 1))
        return type_error();
    Node *arg = args->positional[0];
    if (arg->kind != N_TYPE || arg->items.len == 0) {
        diag_error(arg->span, "alloc() takes a shaped type, e.g. alloc(f32[128, 64] @shared)");
        return type_error();
    }
    if (arg->has_space && arg->space != SPACE_SHARED) {
        diag_error(arg->space_span, "alloc() makes @shared memory; @global memory comes only from "
                   "kernel parameters");
        return type_error();
    }
    Type r = {.kind = TY_REF, .dtype = arg->dtype, .space = SPACE_SHARED, .access = ACCESS_INOUT};
    if (arg->items.len > MAX_RANK) {
        diag_error(arg->span, "a ref has at most %d dims", MAX_RANK);
        return type_error();
    }
    r.rank = arg->items.len;
    int64_t bytes = dtype_bytes(arg->dtype);
    for (int i = 0; i < arg->items.len; i++) {
        int64_t size;
        Node *d = arg->items.items[i];
        if (!expect_const_int(s, scope, d, "the size of a shared allocation", &size))
            return type_error();
        if (size <= 0 || size > (1 << 24) || bytes * size > (int64_t)1 << 32) {
            diag_error(d->span, "shared allocation dim %lld is out of range", (long long)size);
            return type_error();
        }
        bytes *= size;
        r.dims[i] = (Dim){.size = size};
    }
    arg->type = (Type){.kind = TY_DTYPE, .dtype = arg->dtype};
    Kernel *k = s->kernel;
    long before = k->shared_bytes;
    k->shared_bytes += (long)bytes;
    if (before <= s->shared_limit && k->shared_bytes > s->shared_limit) {
        diag_error(node->span, "this allocation brings kernel '%s' to %ld bytes of shared memory, over "
                   "the %ld bytes that %s allows", k->name, k->shared_bytes, s->shared_limit,
                   s->shared_limit_arch);
        diag_note(node->span, "this allocation alone is %lld bytes", (long long)bytes);
    }
    return r;
}

/* What Triton, Pallas and NumPy users reach for that Tessera spells
   another way (or lacks), for the unknown-function error: the name and
   what to write instead. */
static const struct {
    const char *name, *instead;
} foreign_functions[] = {
    {"associative_scan", "there is no user-written scan combine (the language has no functions to pass); "
                         "cumsum, cumprod, cummax and cummin scan along an axis"},
    {"cumulative", "cumsum, cumprod, cummax and cummin scan along an axis"},
    {"arange", "iota(n) is 0 .. n-1 (add a start)"},
    {"maximum", "max(a, b) takes two operands elementwise"},
    {"minimum", "min(a, b) takes two operands elementwise"},
    {"relu", "max(x, 0.0) is relu"},
    {"fma", "write a * b + c (the GPU fuses it)"},
    {"trans", "x.T transposes a rank-2 tile, permute(x, ...) any rank"},
    {"transpose", "x.T transposes a rank-2 tile, permute(x, ...) any rank"},
    {"zeros_like", "zeros([m, n], dtype) takes the shape and dtype"},
    {"device_print", "print(\"label\", x), kept with tessc -g"},
    {"device_assert", "assert(cond, \"message\"), kept with tessc -g"},
    {"static_assert", "a compile-time check is a const or a block spec contract; assert(cond, \"message\") checks at run time with -g"},
    {"multiple_of", "no hint is needed: block specs tell the compiler the alignment"},
    {"max_contiguous", "no hint is needed: block specs tell the compiler the contiguity"},
    {"static_range", "for i in 0 .. N with a compile-time N"},
    {"split", "slice the tile: t[..., 0] and t[..., 1] of a [..., 2] tile (docs/language.md 9.2)"},
    {"cat", "join(a, b) stacks two tiles along a new last dim (reshape after)"},
    {"sort", "there is no sort; argmax/argmin and max/min reduce"},
    {"atomic_cas", "atomic_add, atomic_max and atomic_min are the atomics"},
    {"atomic_xchg", "atomic_add, atomic_max and atomic_min are the atomics"},
};

static Type *check_call(Sema *s, Scope *scope, Node *node) {
    node->builtin = BI_NONE;
    for (size_t i = 0; i < sizeof builtin_names / sizeof builtin_names[0]; i++)
        if (builtin_names[i].name == node->name || strcmp(builtin_names[i].name, node->name) == 0)
            node->builtin = builtin_names[i].builtin;
    static const char *const no_kw[] = {NULL};
    static const char *const axis_kw[] = {"axis", NULL};
    static const char *const scan_kw[] = {"axis", "reverse", NULL};
    static const char *const load_kw[] = {"other", "mask", NULL};
    static const char *const mask_kw[] = {"mask", NULL};
    CallArgs args;
    Type r = type_error();
    switch ((Builtin)node->builtin) {
    case BI_NONE: {
        const char *instead = NULL;
        for (size_t i = 0; i < sizeof foreign_functions / sizeof foreign_functions[0]; i++)
            if (strcmp(foreign_functions[i].name, node->name) == 0)
                instead = foreign_functions[i].instead;
        if (instead)
            diag_error(node->span, "unknown function '%s': %s", node->name, instead);
        else
            diag_error(node->span, "unknown function '%s'", node->name);
        break;
    }
    case BI_PRINT:
    case BI_ASSERT: {
        /* print("label" [, value]); assert(cond [, "message"]): statements,
           kept only in debug builds (tessc -g) */
        bool is_print = node->builtin == BI_PRINT;
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 1, 2))
            break;
        Node *text = is_print ? args.positional[0] : args.count > 1 ? args.positional[1] : NULL;
        Node *value = is_print ? (args.count > 1 ? args.positional[1] : NULL) : args.positional[0];
        if (is_print && text->kind != N_STRING) {
            diag_error(text->span, "print() takes a label first, a string: print(\"x\", x)");
            break;
        }
        if (!is_print && text && text->kind != N_STRING) {
            diag_error(text->span, "assert()'s message must be a string: assert(cond, \"what went wrong\")");
            break;
        }
        if (value) {
            Type *t = check_value(s, scope, value);
            if (is_error(t))
                break;
            if (!is_print && t->dtype != DT_BOOL) {
                diag_error(value->span, "assert() needs a bool condition (a scalar or a tile: every element must "
                           "hold), got %s", type_str(t));
                break;
            }
            if (is_print && t->weak) {
                diag_error(value->span, "print() shows a value of a dtype; give the literal one ('2.0 as f32')");
                break;
            }
        }
        r = type_void();
        break;
    }
    case BI_DS:
        diag_error(node->span, "ds(start, size) is only allowed as an index of a ref");
        break;
    case BI_PROGRAM_ID:
    case BI_NUM_PROGRAMS: {
        int64_t axis;
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 1, 1) ||
            !expect_const_int(s, scope, args.positional[0], "the axis", &axis))
            break;
        if (s->grid_rank == 0) {
            diag_error(node->span, "%s() is known only when the kernel runs; it cannot be used in a const, "
                       "a compile-time parameter's default or an array dim", node->name);
            break;
        }
        if (axis < 0 || axis >= s->grid_rank) {
            diag_error(args.positional[0]->span, "axis %lld does not exist: the grid has %d dimension%s",
                       (long long)axis, s->grid_rank, s->grid_rank == 1 ? "" : "s");
            break;
        }
        node->axis = (int)axis;
        r = type_scalar(DT_I32);
        break;
    }
    case BI_IOTA: {
        int64_t n;
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 1, 1) ||
            !expect_const_int(s, scope, args.positional[0], "the size of iota()", &n))
            break;
        Type t = {.kind = TY_TILE, .dtype = DT_I32, .rank = 1, .dims = {{.size = n}}};
        if (check_tile_shape(&t, node->span, "iota()"))
            r = t;
        break;
    }
    case BI_ZEROS:
    case BI_FULL: {
        bool full = node->builtin == BI_FULL;
        Type t = {.kind = TY_TILE};
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, full ? 3 : 2, full ? 3 : 2))
            break;
        if (!check_shape_arg(s, scope, args.positional[0], &t) ||
            !check_dtype_arg(args.positional[full ? 2 : 1], &t.dtype))
            break;
        if (full) {
            Node *v = args.positional[1];
            Type *vt = check_value(s, scope, v);
            if (is_error(vt))
                break;
            if (!is_scalar(vt)) {
                diag_error(v->span, "the fill value of full() must be a scalar, got %s", type_str(vt));
                break;
            }
            if (vt->weak ? (vt->dtype == DT_F32 && !dtype_is_float(t.dtype)) : vt->dtype != t.dtype) {
                diag_error(v->span, "the fill value %s does not match the dtype %s", type_str(vt),
                           dtype_name(t.dtype));
                break;
            }
        }
        if (check_tile_shape(&t, node->span, full ? "full()" : "zeros()"))
            r = t;
        break;
    }
    case BI_CDIV:
    case BI_MIN:
    case BI_MAX: {
        if (!split_args(node, node->builtin == BI_CDIV ? no_kw : axis_kw, &args))
            break;
        if (node->builtin != BI_CDIV && (args.kw[0] || args.count == 1)) {
            /* max(t, axis = k) and max(t) reduce. */
            node->builtin = node->builtin == BI_MAX ? BI_REDUCE_MAX : BI_REDUCE_MIN;
            if (!expect_arg_count(node, &args, 1, 1))
                break;
            r = check_reduction(s, scope, node, &args);
            break;
        }
        if (!expect_arg_count(node, &args, 2, 2))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        Type *b = check_value(s, scope, args.positional[1]);
        if (is_error(a) || is_error(b))
            break;
        char what[32];
        snprintf(what, sizeof what, "%s()", node->name);
        r = elementwise2(a, b, node->span, what);
        if (is_error(&r))
            break;
        if (r.dtype == DT_BOOL || (node->builtin == BI_CDIV && !dtype_is_int(r.dtype))) {
            diag_error(node->span, "%s() needs %s operands, got %s and %s", node->name,
                       node->builtin == BI_CDIV ? "integer" : "numeric", type_str(a), type_str(b));
            r = type_error();
            break;
        }
        ConstValue x = args.positional[0]->value, y = args.positional[1]->value;
        if (r.weak && x.known && y.known) {
            if (node->builtin == BI_CDIV) {
                if (y.i == 0) {
                    diag_error(node->span, "division by zero in a constant expression");
                    r = type_error();
                    break;
                }
                /* x / -1 is -x, which wraps for the most negative x (no trap). */
                int64_t q = y.i == -1 ? (int64_t)(0 - (uint64_t)x.i) : x.i / y.i;
                if (y.i != -1 && (x.i % y.i != 0) && ((x.i < 0) == (y.i < 0)))
                    q++;
                node->value = const_int(q);
            } else {
                /* max and min as the elementwise ops: NaN propagates, -0 < +0 */
                Scalar sx = weak_scalar(x), sy = weak_scalar(y), m;
                weak_meet(&sx, &sy);
                numeric_binary(node->builtin == BI_MIN ? IR_MIN : IR_MAX, sx, sy, &m);
                node->value = const_of_scalar(m);
            }
        }
        break;
    }
    case BI_SUM:
        if (!split_args(node, axis_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        r = check_reduction(s, scope, node, &args);
        break;
    case BI_BROADCAST_TO: {
        /* broadcast_to(t, [d0, d1, ...]): t's dims, aligned at the right,
           each 1 or the target's (numpy's broadcast_to) */
        Type target = {.kind = TY_TILE};
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 2, 2))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        if (is_error(a) || !check_shape_arg(s, scope, args.positional[1], &target))
            break;
        target.dtype = a->dtype;
        target.weak = a->weak;
        if (!broadcasts_to(a, &target)) {
            diag_error(node->span, "broadcast_to() cannot make a value of shape %s into %s: each dim, from the "
                       "right, must be 1 or the target's", shape_str(a), shape_str(&target));
            break;
        }
        if (check_tile_shape(&target, node->span, "broadcast_to()")) {
            r = target;
            if (a->weak)
                node->value = args.positional[0]->value;
        }
        break;
    }
    case BI_RESHAPE: {
        /* reshape(t, [d0, d1, ...]): the same elements in row-major order */
        Type target = {.kind = TY_TILE};
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 2, 2))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        if (is_error(a) || !check_shape_arg(s, scope, args.positional[1], &target))
            break;
        if (!check_tile_shape(&target, node->span, "reshape()"))
            break;
        int64_t from = 1, to = 1;
        for (int d = 0; d < a->rank; d++)
            from *= a->dims[d].size;
        for (int d = 0; d < target.rank; d++)
            to *= target.dims[d].size;
        if (from != to) {
            diag_error(node->span, "reshape() keeps the number of elements: %s has %lld, %s has %lld",
                       shape_str(a), (long long)from, shape_str(&target), (long long)to);
            break;
        }
        target.dtype = a->dtype;
        target.weak = a->weak;
        r = target;
        if (a->weak)
            node->value = args.positional[0]->value;
        break;
    }
    case BI_PERMUTE: {
        /* permute(t, [p0, p1, ...]): result dim i is t's dim p_i (numpy's transpose(axes)) */
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 2, 2))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        Node *list = args.positional[1];
        if (is_error(a))
            break;
        if (list->kind != N_LIST || list->items.len != a->rank) {
            diag_error(list->span, "permute() takes a list of %d dims, each of 0..%d once (the tile's rank is %d)",
                       a->rank, a->rank - 1, a->rank);
            break;
        }
        Type t = *a;
        bool seen[MAX_RANK] = {false}, ok = true;
        for (int i = 0; i < a->rank && ok; i++) {
            int axis;
            Node *item = list->items.items[i];
            ok = check_axis_arg(s, scope, item, a->rank, &axis);
            if (ok && seen[axis]) {
                diag_error(item->span, "permute() names dim %d twice", axis);
                ok = false;
            }
            if (ok) {
                seen[axis] = true;
                t.dims[i] = a->dims[axis];
            }
        }
        list->type = type_void();
        if (ok) {
            r = t;
            if (a->weak)
                node->value = args.positional[0]->value;
        }
        break;
    }
    case BI_JOIN:
    case BI_INTERLEAVE: {
        /* join(a, b): [..., 2] with a at index 0, b at 1 (Triton's tl.join);
           interleave(a, b): [..., 2n], a's elements at even places of the
           last dim, b's at odd ones (Triton's tl.interleave) */
        const char *fn = node->builtin == BI_JOIN ? "join()" : "interleave()";
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 2, 2))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        Type *b = check_value(s, scope, args.positional[1]);
        if (is_error(a) || is_error(b))
            break;
        Type t = a->weak ? *b : *a;
        if (!unify_dtypes(a, b, node->span, fn, &t.dtype, &t.weak))
            break;
        if (!same_shape(a, b) && !(a->weak && a->rank == 0) && !(b->weak && b->rank == 0)) {
            diag_error(node->span, "%s takes two tiles of one shape, got %s and %s", fn, shape_str(a),
                       shape_str(b));
            break;
        }
        if (t.weak || t.rank == 0) {
            diag_error(node->span, "%s takes tiles, not scalars", fn);
            break;
        }
        if (node->builtin == BI_JOIN) {
            if (t.rank + 1 > MAX_RANK) {
                diag_error(node->span, "a tile has at most %d dims", MAX_RANK);
                break;
            }
            t.dims[t.rank++] = (Dim){.size = 2};
        } else {
            t.dims[t.rank - 1].size *= 2;
        }
        if (check_tile_shape(&t, node->span, fn))
            r = t;
        break;
    }
    case BI_FLIP: {
        /* flip(t, axis = k): the order along axis k reversed (a rank-1 t
           needs no axis); numpy's flip, Triton's tl.flip */
        if (!split_args(node, axis_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        if (is_error(a))
            break;
        if (a->rank == 0 || a->weak) {
            diag_error(node->span, "flip() reverses a tile along an axis; give it a tile, not a scalar");
            break;
        }
        int axis = 0;
        if (args.kw[0]) {
            if (!check_axis_arg(s, scope, args.kw[0], a->rank, &axis))
                break;
        } else if (a->rank != 1) {
            diag_error(node->span, "flip() of a rank-%d tile needs 'axis = K'", a->rank);
            break;
        }
        node->axis = axis;
        r = *a;
        break;
    }
    case BI_EXPAND_DIMS: {
        /* expand_dims(t, axis = k): a unit dim inserted before dim k (k may be
           the rank: at the end; negative counts from the end of the result) */
        if (!split_args(node, axis_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        if (is_error(a))
            break;
        if (!args.kw[0]) {
            diag_error(node->span, "expand_dims() needs 'axis = K', where the new unit dim goes");
            break;
        }
        int axis;
        if (!check_axis_arg(s, scope, args.kw[0], a->rank + 1, &axis))
            break;
        if (a->rank + 1 > MAX_RANK) {
            diag_error(node->span, "a tile has at most %d dims", MAX_RANK);
            break;
        }
        Type t = *a;
        t.rank = a->rank + 1;
        for (int d = 0, from = 0; d < t.rank; d++)
            t.dims[d] = d == axis ? (Dim){.size = 1} : a->dims[from++];
        node->axis = axis;
        r = t;
        if (a->weak)
            node->value = args.positional[0]->value;
        break;
    }
    case BI_ARGMAX:
    case BI_ARGMIN: {
        /* the index of the first maximum (minimum) along the axis, as an i32;
           a NaN counts as the maximum and the minimum, as in numpy */
        if (!split_args(node, axis_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        Type *a = check_value(s, scope, args.positional[0]);
        r = check_reduction(s, scope, node, &args);
        if (is_error(&r) || is_error(a))
            break;
        if (node->axis < 0 && a->rank != 1) {
            diag_error(node->span, "%s() of a rank-%d tile needs 'axis = K' (it gives an index along one axis)",
                       node->name, a->rank);
            r = type_error();
            break;
        }
        if (node->axis < 0)
            node->axis = 0;
        r.dtype = DT_I32;
        break;
    }
    case BI_CUMSUM:
    case BI_CUMPROD:
    case BI_CUMMAX:
    case BI_CUMMIN: {
        /* an inclusive scan along one axis: element i is the combine of
           elements 0..i (reverse = true: i..n-1); the input's type */
        if (!split_args(node, scan_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        if (args.kw[1]) {
            Type *rt = check_value(s, scope, args.kw[1]);
            if (is_error(rt))
                break;
            if (rt->dtype != DT_BOOL || !args.kw[1]->value.known || rt->rank != 0) {
                diag_error(args.kw[1]->span, "'reverse' of %s() is true or false, known at compile time", node->name);
                break;
            }
            node->reverse = args.kw[1]->value.i != 0;
        }
        Type *a = check_value(s, scope, args.positional[0]);
        Type red = check_reduction(s, scope, node, &args);
        if (is_error(&red) || is_error(a))
            break;
        if (a->rank == 0) {
            diag_error(args.positional[0]->span, "%s() scans along an axis; give it a tile of rank 1 or more, "
                       "not a scalar", node->name);
            break;
        }
        if (node->axis < 0 && a->rank != 1) {
            diag_error(node->span, "%s() of a rank-%d tile needs 'axis = K' (it scans along one axis)",
                       node->name, a->rank);
            break;
        }
        if (node->axis < 0)
            node->axis = 0;
        r = *a;
        break;
    }
    case BI_REDUCE_MAX:
    case BI_REDUCE_MIN:
        break;  /* only set above */
    case BI_WHERE: {
        if (!split_args(node, no_kw, &args) || !expect_arg_count(node, &args, 3, 3))
            break;
        Type *c = check_value(s, scope, args.positional[0]);
        Type *a = check_value(s, scope, args.positional[1]);
        Type *b = check_value(s, scope, args.positional[2]);
        if (is_error(c) || is_error(a) || is_error(b))
            break;
        if (c->dtype != DT_BOOL) {
            diag_error(args.positional[0]->span, "the condition of where() must be a bool tile, got %s",
                       type_str(c));
            break;
        }
        r = elementwise2(a, b, node->span, "where()");
        if (is_error(&r))
            break;
        Type shape = r;
        if (!broadcast_shapes(&shape, c, &r)) {
            diag_error(node->span, "the condition's shape %s does not broadcast with %s", shape_str(c),
                       shape_str(&shape));
            r = type_error();
        }
        if (r.weak && args.positional[0]->value.known && args.positional[1]->value.known &&
            args.positional[2]->value.known)
            node->value = args.positional[0]->value.i ? args.positional[1]->value : args.positional[2]->value;
        else
            r.weak = false;  /* chosen at run time: a weak pair takes i32 or f32 */
        break;
    }
    case BI_EXP: case BI_EXP2: case BI_EXP2_FTZ: case BI_LOG: case BI_LOG2: case BI_SQRT: case BI_RSQRT:
    case BI_ABS: case BI_TANH: case BI_SIGMOID: case BI_SIN: case BI_COS: case BI_ERF: case BI_FLOOR:
    case BI_CEIL: case BI_TRUNC: case BI_ROUND:
        if (split_args(node, no_kw, &args))
            r = check_math(s, scope, node, &args);
        break;
    case BI_POW:
        if (split_args(node, no_kw, &args))
            r = check_pow(s, scope, node, &args);
        break;
    case BI_ISNAN: case BI_ISINF: case BI_ISFINITE:
        if (split_args(node, no_kw, &args))
            r = check_float_class(s, scope, node, &args);
        break;
    case BI_CLAMP:
        if (split_args(node, no_kw, &args))
            r = check_clamp(s, scope, node, &args);
        break;
    case BI_SIGN:
        if (split_args(node, no_kw, &args))
            r = check_sign(s, scope, node, &args);
        break;
    case BI_BITCAST:
        if (split_args(node, no_kw, &args))
            r = check_bitcast(s, scope, node, &args);
        break;
    case BI_RAND: case BI_RANDINT: case BI_RANDN:
        if (split_args(node, no_kw, &args))
            r = check_random(s, scope, node, &args);
        break;
    case BI_DOT:
        if (split_args(node, no_kw, &args))
            r = check_dot(s, scope, node, &args);
        break;
    case BI_ALLOC:
        if (split_args(node, no_kw, &args))
            r = check_alloc(s, scope, node, &args);
        break;
    case BI_LOAD: {
        if (!split_args(node, load_kw, &args) || !expect_arg_count(node, &args, 1, 1))
            break;
        Type *place = check_place_arg(s, scope, args.positional[0], "load");
        if (is_error(place))
            break;
        Type tile = *place;
        tile.kind = TY_TILE;
        bool ok = true;
        if (args.kw[0]) {
            Type *o = check_value(s, scope, args.kw[0]);
            if (is_error(o))
                ok = false;
            else if ((o->weak && o->dtype == DT_F32 && !dtype_is_float(tile.dtype)) ||
                     (!o->weak && o->dtype != tile.dtype)) {
                diag_error(args.kw[0]->span, "'other' of %s does not match the loaded dtype %s",
                           type_str(o), dtype_name(tile.dtype));
                ok = false;
            } else if (!broadcasts_to(o, &tile)) {
                diag_error(args.kw[0]->span, "'other' of shape %s does not broadcast to %s", shape_str(o),
                           shape_str(&tile));
                ok = false;
            }
        }
        if (args.kw[1] && !check_mask_arg(s, scope, args.kw[1], &tile))
            ok = false;
        if (ok)
            r = tile;
        break;
    }
    case BI_STORE:
    case BI_ATOMIC_ADD:
    case BI_ATOMIC_MAX:
    case BI_ATOMIC_MIN: {
        if (!split_args(node, mask_kw, &args) || !expect_arg_count(node, &args, 2, 2))
            break;
        Node *place_node = args.positional[0];
        Type *place = check_place_arg(s, scope, place_node, node->name);
        Type *value = check_value(s, scope, args.positional[1]);
        if (is_error(place) || is_error(value))
            break;
        bool ok = check_writable(place_node, place, place_node->span) &&
                  check_stored_value(value, place, args.positional[1]->span);
        if (ok && node->builtin != BI_STORE) {
            DType d = place->dtype;
            bool add = node->builtin == BI_ATOMIC_ADD;
            bool supported = add ? (d == DT_I32 || d == DT_U32 || d == DT_I64 || d == DT_F16 ||
                                    d == DT_BF16 || d == DT_F32 || d == DT_F64)
                                 : (d == DT_I32 || d == DT_U32 || d == DT_I64 || d == DT_F32);
            if (!supported) {
                diag_error(node->span, "%s() is not supported on %s", node->name, dtype_name(d));
                ok = false;
            }
        }
        if (args.kw[0]) {
            Type shape = *place;
            shape.kind = TY_TILE;
            ok = check_mask_arg(s, scope, args.kw[0], &shape) && ok;
        }
        if (ok)
            r = type_void();
        break;
    }
    }
    node->type = r;
    return &node->type;
}

static Type *check_expr(Sema *s, Scope *scope, Node *node) {
    switch (node->kind) {
    case N_INT:
        node->type = type_weak(false);
        node->value = const_int(node->int_value);
        break;
    case N_FLOAT:
        node->type = type_weak(true);
        node->value = const_float(node->float_value);
        break;
    case N_BOOL:
        node->type = type_scalar(DT_BOOL);
        node->value = const_int(node->int_value);
        break;
    case N_NAME: return check_name(s, scope, node);
    case N_STRING:
        diag_error(node->span, "a string is only the label of print() or the message of assert()");
        node->type = type_error();
        break;
    case N_UNARY: return check_unary(s, scope, node);
    case N_BINARY: return check_binary(s, scope, node);
    case N_CAST: return check_cast(s, scope, node);
    case N_CALL: return check_call(s, scope, node);
    case N_INDEX: return check_index(s, scope, node);
    case N_TRANSPOSE: {
        Type *a = check_value(s, scope, node->lhs);
        if (is_error(a))
            return set_type(node, type_error());
        if (a->rank < 2) {
            diag_error(node->span, "'.T' needs a tile of rank 2 or more, got %s", type_str(a));
            return set_type(node, type_error());
        }
        node->type = *a;
        node->type.dims[a->rank - 2] = a->dims[a->rank - 1];
        node->type.dims[a->rank - 1] = a->dims[a->rank - 2];
        break;
    }
    case N_LIST:
        diag_error(node->span, "a list is only allowed as a shape argument, e.g. zeros([4, 4], f32)");
        node->type = type_error();
        break;
    case N_TYPE:
        node->type = (Type){.kind = TY_DTYPE, .dtype = node->dtype};
        break;
    case N_KWARG:
        diag_error(node->span, "a keyword argument is only allowed in a call");
        node->type = type_error();
        break;
    case N_ELLIPSIS:
    case N_SLICE:
    case N_NONE:
        diag_error(node->span, "'%s' is only allowed inside an index",
                   node->kind == N_ELLIPSIS ? "..." : node->kind == N_NONE ? "None" : ":");
        node->type = type_error();
        break;
    case N_UNDERSCORE:
        diag_error(node->span, "'_' is only allowed as a block dim");
        node->type = type_error();
        break;
    default:
        INTERNAL_ERROR("check_expr: statement node %s", ast_kind_name(node->kind));
    }
    return &node->type;
}

/* ---- statements ----------------------------------------------------------------- */

static void check_block(Sema *s, Scope *scope, Node *block);

/* A var holds a concrete dtype: weak values take i32 or f32. */
static Type materialize(Type t) {
    t.weak = false;
    return t;
}

static void check_assign(Sema *s, Scope *scope, Node *node) {
    Node *target = node->lhs;
    if (target->kind == N_NAME) {
        Symbol *sym = lookup_or_report(s, scope, target);
        Type *value = check_value(s, scope, node->rhs);
        if (!sym)
            return;
        target->sym = sym;
        target->type = sym->type;
        if (sym->kind != SYM_VAR) {
            if (sym->kind == SYM_PARAM && sym->is_array)
                diag_error(target->span, "cannot assign to ref '%s'; store into it with '%s[...] = ...'",
                           sym->name, sym->name);
            else
                diag_error(target->span, "cannot assign to '%s': it is a %s%s", sym->name,
                           symbol_kind_word(sym->kind),
                           sym->kind == SYM_LET ? " (declare it with 'var' to update it)" : "");
            diag_note(sym->span, "'%s' is declared here", sym->name);
            return;
        }
        if (is_error(value))
            return;
        Type result = *value;
        if (node->op != OP_ASSIGN && sym->type.dtype == DT_BOOL) {
            diag_error(node->span, "'%s=' is not defined on bool values", ast_op_spelling(node->op));
            return;
        }
        if (node->op != OP_ASSIGN) {
            const char *what = op_word(node->op);
            result = elementwise2(&sym->type, value, node->span, what);
            if (is_error(&result))
                return;
        } else if (!value->weak && value->dtype != sym->type.dtype) {
            diag_error(node->rhs->span, "cannot assign %s to var '%s' of type %s; cast with 'as %s'",
                       type_str(value), sym->name, type_str(&sym->type), dtype_name(sym->type.dtype));
            return;
        } else if (value->weak && value->dtype == DT_F32 && !dtype_is_float(sym->type.dtype)) {
            diag_error(node->rhs->span, "cannot assign a float literal to var '%s' of type %s", sym->name,
                       type_str(&sym->type));
            return;
        }
        if (!broadcasts_to(&result, &sym->type)) {
            diag_error(node->rhs->span, "cannot assign a value of shape %s to var '%s' of shape %s",
                       shape_str(&result), sym->name, shape_str(&sym->type));
        }
        return;
    }
    if (target->kind == N_INDEX) {
        Type *base = check_expr(s, scope, target->lhs);
        Type *value = check_value(s, scope, node->rhs);
        if (is_error(base))
            return;
        if (base->kind != TY_REF) {
            diag_error(target->span, "cannot store into a tile: tiles are immutable values "
                       "(store into a ref, or build a new tile with where())");
            return;
        }
        if (target->lhs->kind == N_INDEX && index_has_none(target)) {
            diag_error(target->span, "cannot store into a tile: 'None' makes a tile of the place "
                       "(store into the place without it)");
            return;
        }
        Type *place = check_place_index(s, scope, target, base);
        if (is_error(place) || is_error(value))
            return;
        Type tile = *place;
        tile.kind = TY_TILE;
        if (!check_tile_shape(&tile, target->span, "this store") || !check_writable(target, place, target->span))
            return;
        if (node->op != OP_ASSIGN && tile.dtype == DT_BOOL) {
            diag_error(node->span, "'%s=' is not defined on bool values", ast_op_spelling(node->op));
            return;
        }
        if (node->op != OP_ASSIGN && target->gather) {
            /* two elements with one index would read the same old value */
            diag_error(node->span, "'%s=' on a gathered place: elements with the same index would race; %s",
                       ast_op_spelling(node->op),
                       node->op == OP_ADD || node->op == OP_SUB
                           ? "use atomic_add(place, value)"
                           : "read the old values (let old = place), compute, and store them back with distinct "
                             "indices");
            return;
        }
        if (node->op != OP_ASSIGN) {
            Type r = elementwise2(&tile, value, node->span, op_word(node->op));
            if (is_error(&r))
                return;
            if (place->access == ACCESS_OUT && place->space == SPACE_GLOBAL) {
                /* reading an out parameter is allowed: it holds what was stored */
            }
            check_stored_value(&r, place, node->rhs->span);
            return;
        }
        check_stored_value(value, place, node->rhs->span);
        return;
    }
    check_expr(s, scope, target);
    diag_error(target->span, "cannot assign to this expression; assign to a var or store into a ref place");
}

/* ---- early exits ------------------------------------------------------------------ */

/* A hidden bool var, one of the flags an early exit sets (ast.h). */
static Symbol *exit_flag_new(Sema *s, const char *name, Span span) {
    Symbol *sym = ARENA_NEW(s->arena, Symbol);
    sym->kind = SYM_VAR;
    sym->name = intern_cstr(name);
    sym->span = span;
    sym->type = type_scalar(DT_BOOL);
    return sym;
}

static Symbol *loop_exit_flag(Sema *s, Node *loop) {
    if (!loop->exit_flag)
        loop->exit_flag = exit_flag_new(s, "exit", loop->span);
    return loop->exit_flag;
}

/* break and continue act on the innermost loop; return ends the program,
   leaving every loop around it. */
static void check_exit(Sema *s, Node *node) {
    const char *word = node->kind == N_BREAK ? "break" : node->kind == N_CONTINUE ? "continue" : "return";
    if (node->kind != N_RETURN && s->num_loops == 0) {
        diag_error(node->span, "'%s' outside a loop: it must be inside a 'for' or a 'while'", word);
        return;
    }
    Node *loop = s->num_loops ? s->loops[s->num_loops - 1] : NULL;
    if (node->kind == N_BREAK) {
        ptrvec_push(s->arena, &node->flags, loop_exit_flag(s, loop));
    } else if (node->kind == N_CONTINUE) {
        if (!loop->skip_flag)
            loop->skip_flag = exit_flag_new(s, "skip", loop->span);
        ptrvec_push(s->arena, &node->flags, loop->skip_flag);
    } else {
        if (!s->kernel->return_flag)
            s->kernel->return_flag = exit_flag_new(s, "returned", node->span);
        ptrvec_push(s->arena, &node->flags, s->kernel->return_flag);
        for (int i = 0; i < s->num_loops; i++)
            ptrvec_push(s->arena, &node->flags, loop_exit_flag(s, s->loops[i]));
    }
}

/* Loops nested deeper than this are an error: LLVM's loop analyses of the
   nest (scalar evolution over the carried values' phis) grow about 2x a
   level (15 nested whiles: 2 s and 260 MB; 16 overflowed the stack in
   SCEV's recursion; 20 nested fors 1 GB). */
enum { SEMA_MAX_LOOP_DEPTH = 12 };

static void check_loop_body(Sema *s, Scope *scope, Node *loop) {
    _Static_assert(sizeof s->loops / sizeof s->loops[0] == SEMA_MAX_LOOP_DEPTH, "Sema.loops holds the limit");
    if (s->num_loops == SEMA_MAX_LOOP_DEPTH) {
        diag_error(loop->span, "loops nested more than %d deep; tessc compiles at most %d (LLVM's loop analysis "
                   "grows about twice a level)", SEMA_MAX_LOOP_DEPTH, SEMA_MAX_LOOP_DEPTH);
        return;
    }
    s->loops[s->num_loops++] = loop;
    check_block(s, scope, loop->body);
    s->num_loops--;
}

static void check_stmt(Sema *s, Scope *scope, Node *node) {
    switch (node->kind) {
    case N_LET:
    case N_VAR: {
        bool is_var = node->kind == N_VAR;
        Type *t = check_expr(s, scope, node->rhs);
        /* let binds places by loading them, but a bare ref (a parameter or an
           alloc) stays a ref: the name then aliases it. */
        if (t->kind != TY_REF || node->rhs->kind == N_INDEX || is_var)
            t = as_value(node->rhs);
        Symbol *sym = declare(s, scope, is_var ? SYM_VAR : SYM_LET, node->name, node->span);
        sym->decl = node;
        node->sym = sym;
        sym->type = is_var ? materialize(*t) : *t;
        if (!is_var && t->weak)
            sym->value = node->rhs->value;
        break;
    }
    case N_ASSIGN:
        check_assign(s, scope, node);
        break;
    case N_EXPR_STMT: {
        Node *e = node->lhs;
        Type *t = check_expr(s, scope, e);
        if (!is_error(t) && t->kind != TY_VOID)
            diag_warning(e->span, "this expression's value is unused");
        break;
    }
    case N_FOR: {
        Node *bounds[3] = {node->lhs, node->rhs, node->step};
        const char *names[3] = {"start", "end", "step"};
        for (int i = 0; i < 3; i++) {
            if (!bounds[i])
                continue;
            Type *t = check_value(s, scope, bounds[i]);
            if (!is_error(t) && (!is_scalar(t) || !dtype_is_int(t->dtype) || (!t->weak && t->dtype != DT_I32)))
                diag_error(bounds[i]->span, "the loop %s must be an i32 scalar, got %s", names[i], type_str(t));
        }
        if (node->step && node->step->value.known && node->step->value.i <= 0)
            diag_error(node->step->span, "the loop step must be positive, got %lld", (long long)node->step->value.i);
        Scope *inner = scope_new(s, scope);
        Symbol *iv = declare(s, inner, SYM_LOOP, node->name, node->span);
        iv->type = type_scalar(DT_I32);
        node->sym = iv;
        check_loop_body(s, inner, node);
        break;
    }
    case N_WHILE: {
        Type *c = check_value(s, scope, node->cond);
        if (!is_error(c) && (!is_scalar(c) || c->dtype != DT_BOOL))
            diag_error(node->cond->span, "the condition of 'while' must be a bool scalar, got %s%s", type_str(c),
                       is_scalar(c) ? "" : " (a loop's trips are the same in every element)");
        loop_exit_flag(s, node);   /* the condition's exit */
        check_loop_body(s, scope_new(s, scope), node);
        break;
    }
    case N_BREAK:
    case N_CONTINUE:
    case N_RETURN:
        check_exit(s, node);
        break;
    case N_IF: {
        Type *c = check_value(s, scope, node->cond);
        if (!is_error(c) && (!is_scalar(c) || c->dtype != DT_BOOL))
            diag_error(node->cond->span, "the condition of 'if' must be a bool scalar, got %s%s", type_str(c),
                       is_scalar(c) ? "" : " (use where() to choose per element)");
        check_block(s, scope_new(s, scope), node->then_body);
        if (node->else_body) {
            if (node->else_body->kind == N_IF)
                check_stmt(s, scope, node->else_body);
            else
                check_block(s, scope_new(s, scope), node->else_body);
        }
        break;
    }
    case N_BLOCK:
        check_block(s, scope_new(s, scope), node);
        break;
    default:
        INTERNAL_ERROR("check_stmt: %s", ast_kind_name(node->kind));
    }
}

static void check_block(Sema *s, Scope *scope, Node *block) {
    for (int i = 0; i < block->items.len; i++)
        check_stmt(s, scope, block->items.items[i]);
}

/* ---- kernel headers ------------------------------------------------------------- */

/* Parses a -D value: an integer (decimal, or hex with 0x, as in source: no
   octal), a float, true or false. An integer or a float that does not fit
   is an error, not the float or the infinity it happens to parse as. */
typedef enum { DEFINE_OK, DEFINE_BAD, DEFINE_INT_RANGE, DEFINE_FLOAT_RANGE, DEFINE_NOT_FINITE } DefineProblem;

static DefineProblem parse_define_value(const char *text, ConstValue *out) {
    const char *digits = text + (text[0] == '-' || text[0] == '+');
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    const char *set = hex ? "0123456789abcdefABCDEF" : "0123456789";
    size_t n = strspn(digits + 2 * hex, set);
    char *end;
    errno = 0;
    if (n > 0 && digits[2 * hex + n] == '\0') {
        long long i = strtoll(text, &end, hex ? 16 : 10);
        if (errno == ERANGE)
            return DEFINE_INT_RANGE;
        *out = const_int(i);
        return DEFINE_OK;
    }
    double f = strtod(text, &end);
    if (*end == '\0' && end != text) {
        if (errno == ERANGE && isinf(f))
            return DEFINE_FLOAT_RANGE;
        if (!isfinite(f))   /* strtod's nan and inf: the manifest's numbers are finite */
            return DEFINE_NOT_FINITE;
        *out = const_float(f);
        return DEFINE_OK;
    }
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = const_int(text[0] == 't');
        return DEFINE_OK;
    }
    return DEFINE_BAD;
}

/* Grid expressions are evaluated by the runtime: only sizes, constants and
   integer arithmetic may appear. */
static bool check_grid_expr(Node *e) {
    switch (e->kind) {
    case N_INT: return true;
    case N_NAME:   /* a size, an i32 scalar parameter (known at launch), a constant */
        return e->sym && (e->sym->kind == SYM_SIZE || e->sym->kind == SYM_CONST || e->sym->kind == SYM_CPARAM ||
                          (e->sym->kind == SYM_PARAM && !e->sym->is_array && e->sym->type.dtype == DT_I32));
    case N_BINARY:
        return (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_MUL || e->op == OP_DIV || e->op == OP_REM) &&
               check_grid_expr(e->lhs) && check_grid_expr(e->rhs);
    case N_UNARY: return e->op == OP_NEG && check_grid_expr(e->lhs);
    case N_CALL:
        if ((e->builtin == BI_CDIV || e->builtin == BI_MIN || e->builtin == BI_MAX) && e->items.len == 2)
            return check_grid_expr(e->items.items[0]) && check_grid_expr(e->items.items[1]);
        return false;
    default: return false;
    }
}

/* An array dim or stride written as a name: the size symbol it is (a new
   name declares a symbolic size, passed at launch), or NULL when the name
   is something else or the item is not a name (a constant, then). */
static Symbol *param_size_name(Sema *s, Scope *scope, Kernel *k, Node *item) {
    if (item->kind != N_NAME)
        return NULL;
    Symbol *found = scope_lookup(scope, item->name);
    if (!found) {
        found = declare(s, scope, SYM_SIZE, item->name, item->span);
        found->type = type_scalar(DT_I32);
        found->index = k->sizes.len;
        ptrvec_push(s->arena, &k->sizes, found);
    }
    item->sym = found;
    if (found->kind != SYM_SIZE)
        return NULL;
    item->type = type_scalar(DT_I32);
    return found;
}

static void check_params(Sema *s, Kernel *k, Scope *scope) {
    for (int i = 0; i < k->params.len; i++) {
        ParamDecl *p = k->params.items[i];
        Symbol *sym = declare(s, scope, SYM_PARAM, p->name, p->span);
        p->sym = sym;
        sym->index = i;
        sym->is_array = p->is_array;
        ptrvec_push(s->arena, &k->param_syms, sym);
        if (!p->is_array) {
            sym->type = type_scalar(p->dtype);
            if (p->has_access && p->access != ACCESS_IN)
                diag_error(p->access_span, "scalar parameter '%s' is passed by value and cannot be '%s'",
                           p->name, access_name(p->access));
            if (p->has_space)
                diag_error(p->space_span, "scalar parameter '%s' has no memory space", p->name);
            if (dtype_is_fp8(p->dtype))
                diag_error(p->span, "a scalar parameter cannot be %s; pass an f32 and cast it in the kernel",
                           dtype_name(p->dtype));
            continue;
        }
        Type t = {.kind = TY_REF, .dtype = p->dtype, .space = SPACE_GLOBAL,
                  .access = p->has_access ? p->access : ACCESS_IN};
        if (p->has_space && p->space == SPACE_SHARED)
            diag_error(p->space_span, "parameter '%s' cannot be in @shared: parameters are arrays in "
                       "@global memory; shared memory comes from alloc() inside the kernel", p->name);
        if (p->dims.len > MAX_RANK) {
            diag_error(p->span, "parameter '%s' has %d dims; at most %d are supported", p->name, p->dims.len,
                       MAX_RANK);
            sym->type = type_error();
            continue;
        }
        t.rank = p->dims.len;
        bool dims_ok = true;   /* a bad dim makes the parameter an error: no cascade from it */
        for (int d = 0; d < p->dims.len; d++) {
            Node *dim = p->dims.items[d];
            Symbol *size_sym = param_size_name(s, scope, k, dim);
            if (size_sym) {
                t.dims[d] = (Dim){.sym = size_sym};
                continue;
            }
            int64_t size;
            if (!expect_const_int(s, scope, dim, "an array dim (a size name or a constant)", &size)) {
                dims_ok = false;
                continue;
            }
            if (size <= 0) {
                diag_error(dim->span, "an array dim must be positive, got %lld", (long long)size);
                dims_ok = false;
            }
            t.dims[d] = (Dim){.size = size};
        }
        /* Strides, one per dim, in elements: a size name (new ones are
           sizes, passed at launch) or a constant >= 0. */
        if (p->has_strides && p->strides.len != p->dims.len) {
            diag_error(p->strides_span, "array '%s' has %d dims and %d strides; give one stride per dim", p->name,
                       p->dims.len, p->strides.len);
            dims_ok = false;
        }
        for (int d = 0; p->has_strides && dims_ok && d < p->strides.len; d++) {
            Node *st = p->strides.items[d];
            Symbol *size_sym = param_size_name(s, scope, k, st);
            if (size_sym) {
                p->stride_dims[d] = (Dim){.sym = size_sym};
                continue;
            }
            int64_t v;
            if (!expect_const_int(s, scope, st, "an array stride (a size name or a constant)", &v)) {
                dims_ok = false;
                continue;
            }
            if (v < 0 || v > INT32_MAX) {   /* a size's range: sizes and strides are i32 at launch */
                diag_error(st->span, "an array stride must be 0 to 2^31 - 1, got %lld", (long long)v);
                dims_ok = false;
            }
            p->stride_dims[d] = (Dim){.size = v};
        }
        /* Static dims whose element count or byte size overflows 64 bits
           would wrap the kernel's index arithmetic. */
        int64_t bytes = dtype_bytes(p->dtype), limit = INT64_MAX;
        for (int d = 0; dims_ok && d < t.rank; d++) {
            if (t.dims[d].sym || t.dims[d].size <= 0)
                continue;
            if (bytes > limit / t.dims[d].size) {
                diag_error(p->span, "parameter '%s' (%s) is larger than 2^63 - 1 bytes", p->name, type_str(&t));
                dims_ok = false;
            } else {
                bytes *= t.dims[d].size;
            }
        }
        sym->array_type = dims_ok ? t : type_error();
        sym->type = sym->array_type;
    }
}

/* An index map runs before the body: it may use its own names, symbolic
   sizes and compile-time values, nothing else. */
static bool check_map_names(Node *e) {
    if (!e)
        return true;
    if (e->kind == N_NAME && e->sym) {
        SymbolKind k = e->sym->kind;
        if (k == SYM_MAP || k == SYM_SIZE || k == SYM_CONST || k == SYM_CPARAM)
            return true;
        diag_error(e->span, "the index map may only use its own names, sizes and constants; '%s' is a %s",
                   e->name, symbol_kind_word(k));
        return false;
    }
    if (e->kind == N_CALL && e->builtin != BI_CDIV && e->builtin != BI_MIN && e->builtin != BI_MAX) {
        diag_error(e->span, "the index map may only call cdiv, min and max");
        return false;
    }
    bool ok = check_map_names(e->lhs) && check_map_names(e->rhs);
    for (int i = 0; ok && e->kind == N_CALL && i < e->items.len; i++)
        ok = check_map_names(e->items.items[i]);
    return ok;
}

static void check_block_spec(Sema *s, Kernel *k, Scope *kernel_scope, BlockSpec *b) {
    Symbol *param = scope_lookup(kernel_scope, b->array);
    if (!param || param->kind != SYM_PARAM) {
        diag_error(b->array_span, "block spec for '%s', which is not a parameter of kernel '%s'", b->array,
                   k->name);
        return;
    }
    if (!param->is_array) {
        diag_error(b->array_span, "block spec for scalar parameter '%s'; block specs apply to arrays", b->array);
        return;
    }
    if (param->block) {
        diag_error(b->array_span, "a second block spec for '%s'", b->array);
        diag_note(param->block->array_span, "the first is here");
        return;
    }
    param->block = b;
    b->param = param;
    const Type *array = &param->array_type;
    if (array->kind != TY_REF)
        return;
    if (b->dims.len != array->rank) {
        diag_error(b->span, "block spec for '%s' has %d dim%s, but '%s' has rank %d", b->array, b->dims.len,
                   b->dims.len == 1 ? "" : "s", b->array, array->rank);
        diag_note(param->span, "'%s' declared here as %s", b->array, type_str(array));
        param->type = type_error();
        return;
    }
    if (b->map_params.len != s->grid_rank) {
        diag_error(b->map_span, "the index map of '%s' takes %d name%s, but the grid has %d dimension%s",
                   b->array, b->map_params.len, b->map_params.len == 1 ? "" : "s", s->grid_rank,
                   s->grid_rank == 1 ? "" : "s");
        param->type = type_error();
        return;
    }
    if (b->map_results.len != array->rank) {
        diag_error(b->map_span, "the index map of '%s' gives %d block index%s, but '%s' has rank %d",
                   b->array, b->map_results.len, b->map_results.len == 1 ? "" : "es", b->array, array->rank);
        param->type = type_error();
        return;
    }
    Scope *map_scope = scope_new(s, kernel_scope);
    for (int i = 0; i < b->map_params.len; i++) {
        Node *n = b->map_params.items[i];
        Symbol *sym = declare(s, map_scope, SYM_MAP, n->name, n->span);
        sym->type = type_scalar(DT_I32);
        sym->index = i;
        n->sym = sym;
        ptrvec_push(s->arena, &b->map_syms, sym);
    }
    bool ok = true;
    for (int i = 0; i < b->map_results.len; i++) {
        Node *e = b->map_results.items[i];
        Type *t = check_value(s, map_scope, e);
        if (is_error(t)) {
            ok = false;
        } else if (!is_scalar(t) || !dtype_is_int(t->dtype) || (!t->weak && t->dtype != DT_I32)) {
            diag_error(e->span, "a block index must be an i32 scalar, got %s", type_str(t));
            ok = false;
        } else if (!check_map_names(e)) {
            ok = false;
        }
    }
    /* The kernel's view: the block, with '_' dims squeezed out. */
    Type view = *array;
    view.rank = 0;
    for (int d = 0; d < b->dims.len; d++) {
        Node *dim = b->dims.items[d];
        if (dim->kind == N_UNDERSCORE)
            continue;
        if (dim->kind == N_NAME) {
            Symbol *sym = scope_lookup(kernel_scope, dim->name);
            if (sym && sym->kind == SYM_SIZE) {
                dim->sym = sym;
                dim->type = sym->type;
                if (array->dims[d].sym != sym) {
                    diag_error(dim->span, "block dim '%s' is a symbolic size, so it must be the whole "
                               "dim of '%s', which is %s", sym->name, b->array,
                               array->dims[d].sym ? array->dims[d].sym->name : "static");
                    ok = false;
                }
                Node *index = b->map_results.items[d];
                if (!index->value.known || index->value.i != 0) {
                    diag_error(index->span, "block dim '%s' covers the whole array dim, so its block index "
                               "must be 0", sym->name);
                    ok = false;
                }
                view.dims[view.rank++] = (Dim){.sym = sym};
                continue;
            }
        }
        int64_t size;
        if (!expect_const_int(s, kernel_scope, dim, "a block dim (a constant, a size name or '_')", &size)) {
            ok = false;
            continue;
        }
        if (size <= 0) {
            diag_error(dim->span, "a block dim must be positive, got %lld", (long long)size);
            ok = false;
            continue;
        }
        view.dims[view.rank++] = (Dim){.size = size};
    }
    param->type = ok ? view : type_error();
}

static void check_kernel(Sema *s, Kernel *k) {
    s->kernel = k;
    s->grid_rank = 0;   /* no program_id() until the grid is known */
    Scope *scope = scope_new(s, s->globals);
    const SemaOptions *opt = s->options;

    for (int i = 0; i < k->cparams.len; i++) {
        CParamDecl *c = k->cparams.items[i];
        Symbol *sym = declare(s, scope, SYM_CPARAM, c->name, c->span);
        c->sym = sym;
        const Define *def = NULL;
        for (int d = 0; d < opt->define_count; d++)
            if (opt->defines[d].name == c->name)
                def = &opt->defines[d];
        if (def) {
            ((Define *)def)->used = true;
            DefineProblem problem = parse_define_value(def->value_text, &sym->value);
            if (problem == DEFINE_BAD)
                diag_error_plain("-D %s=%s: the value must be an integer or a number", def->name, def->value_text);
            else if (problem == DEFINE_INT_RANGE)
                diag_error_plain("-D %s=%s: the integer is out of range (-2^63 .. 2^63 - 1)", def->name,
                                 def->value_text);
            else if (problem == DEFINE_FLOAT_RANGE)
                diag_error_plain("-D %s=%s: the float overflows a double", def->name, def->value_text);
            else if (problem == DEFINE_NOT_FINITE)
                diag_error_plain("-D %s=%s: a compile-time value must be a finite number (the manifest records it "
                                 "as a JSON number)", def->name, def->value_text);
            if (problem != DEFINE_OK)
                continue;
        } else if (c->default_value) {
            Type *t = check_value(s, scope, c->default_value);
            if (is_error(t))
                continue;
            if (!c->default_value->value.known) {
                diag_error(c->default_value->span, "the default of '%s' must be known at compile time", c->name);
                continue;
            }
            sym->value = c->default_value->value;
            if (sym->value.is_float && !isfinite(sym->value.f)) {
                diag_error(c->default_value->span, "the default of '%s' must be a finite number (the manifest "
                           "records it as a JSON number)", c->name);
                continue;
            }
        } else {
            diag_error(c->span, "compile-time parameter '%s' has no default; set it with -D %s=VALUE", c->name,
                       c->name);
            continue;
        }
        sym->type = type_weak(sym->value.is_float);
    }

    check_params(s, k, scope);

    s->grid_rank = k->has_grid ? k->grid.len : 1;
    if (k->grid.len > 3) {
        Node *extra = k->grid.items[3];
        diag_error(extra->span, "the grid has %d dimensions; at most 3 are allowed", k->grid.len);
        s->grid_rank = 3;
    }
    for (int i = 0; i < k->grid.len && i < 3; i++) {
        Node *e = k->grid.items[i];
        Type *t = check_value(s, scope, e);
        if (is_error(t))
            continue;
        if (!is_scalar(t) || !dtype_is_int(t->dtype) || (!t->weak && t->dtype != DT_I32) || !check_grid_expr(e))
            diag_error(e->span, "a grid dimension must be an integer expression of sizes, i32 scalar parameters "
                       "and constants (+ - * / %% cdiv min max)");
        else if (e->value.known && (e->value.i <= 0 || e->value.i > (i == 0 ? INT32_MAX : 65535)))
            /* The hardware's limits: 2^31 - 1 blocks along x, 65535 along y and z. */
            diag_error(e->span, "a grid dimension must be between 1 and %d, got %lld%s", i == 0 ? INT32_MAX : 65535,
                       (long long)e->value.i, i == 0 ? "" : " (y and z are limited to 65535)");
    }

    k->warps_value = 4;
    k->stages_value = 2;
    int64_t v;
    if (k->warps && expect_const_int(s, scope, k->warps, "warps", &v)) {
        if (!is_power_of_two(v) || v > 32)
            diag_error(k->warps->span, "warps must be a power of two from 1 to 32, got %lld", (long long)v);
        else
            k->warps_value = (int)v;
    }
    if (k->stages && expect_const_int(s, scope, k->stages, "stages", &v)) {
        if (v < 1 || v > 8)
            diag_error(k->stages->span, "stages must be from 1 to 8, got %lld", (long long)v);
        else
            k->stages_value = (int)v;
    }

    for (int i = 0; i < k->blocks.len; i++)
        check_block_spec(s, k, scope, k->blocks.items[i]);

    k->shared_bytes = 0;
    check_block(s, scope_new(s, scope), k->body);
}

int sema_check(Arena *arena, Program *program, const SemaOptions *options) {
    int errors_before = diag_error_count();
    Sema s = {.arena = arena, .program = program, .options = options};
    s.globals = scope_new(&s, NULL);
    s.shared_limit = 0;
    for (int i = 0; i < options->arch_count; i++) {
        if (!s.shared_limit_arch || options->archs[i]->shared_bytes_max < s.shared_limit) {
            s.shared_limit = options->archs[i]->shared_bytes_max;
            s.shared_limit_arch = options->archs[i]->name;
        }
    }
    if (!s.shared_limit_arch) {
        s.shared_limit = arch_lookup("sm_90")->shared_bytes_max;
        s.shared_limit_arch = "sm_90";
    }

    for (int i = 0; i < program->consts.len; i++) {
        ConstDecl *c = program->consts.items[i];
        Type *t = check_value(&s, s.globals, c->value);
        Symbol *sym = declare(&s, s.globals, SYM_CONST, c->name, c->span);
        c->sym = sym;
        if (is_error(t)) {
            sym->type = type_error();
            continue;
        }
        if (!c->value->value.known || !is_scalar(t)) {
            diag_error(c->value->span, "the value of const '%s' must be a number known at compile time", c->name);
            sym->type = type_error();
            continue;
        }
        sym->value = c->value->value;
        sym->type = *t;
        sym->type.weak = t->weak;
    }

    for (int i = 0; i < program->kernels.len; i++) {
        Kernel *k = program->kernels.items[i];
        for (int j = 0; j < i; j++) {
            Kernel *other = program->kernels.items[j];
            if (other->name == k->name) {
                diag_error(k->span, "a second kernel named '%s'", k->name);
                diag_note(other->span, "the first is here");
            }
        }
        Symbol *clash = scope_find_local(s.globals, k->name);
        if (clash) {
            diag_error(k->span, "kernel '%s' has the name of a const", k->name);
            diag_note(clash->span, "the const is here");
        }
        check_kernel(&s, k);
    }

    for (int d = 0; d < options->define_count; d++)
        if (!options->defines[d].used)
            diag_error_plain("-D %s: no kernel has a compile-time parameter named '%s'", options->defines[d].name,
                             options->defines[d].name);
    return diag_error_count() - errors_before;
}
