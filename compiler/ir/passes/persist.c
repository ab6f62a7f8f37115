/*
 * persist.c: the persistent grid (--grid=persistent).
 *
 * In: a verified kernel launched over the grid (G0[, G1[, G2]]) it was
 * written for, one program a tile. Out: the same kernel launched on
 * min(G0 G1 G2, resident_blocks()) programs, as many as the device holds at
 * once (ir.h GRID_RESIDENT), each running the body once for every tile
 * t = program_id(0), + num_programs(0), ... below G0 G1 G2:
 *
 *   grid (min(G0 * G1 * G2, resident_blocks()))
 *   %g0 = <G0> ... %tiles = mul ...
 *   for %t = program_id 0 to %tiles step num_programs 0 {
 *     %p0 = rem %t, %g0 ...         the tile's program ids
 *     <the body, its program_id(d) read as %pd, its num_programs(d) as %gd>
 *   }
 *
 * The tiles go in the order the block scheduler starts programs (program
 * id 0 fastest), or in groups of rows where the backend groups a matmul's
 * grid (llvm_kernel.c program_ids), with program id 0 last to first under
 * heavy-first (--grid-order=heavy-first, and auto, the default) where the
 * backend would reverse it (heavy_first_grid); under heavy-first every
 * second round of tiles is also dealt out backwards (snake, below). Every
 * tile runs exactly once, as every program did, and programs run in no
 * defined order (docs/language.md): the outputs are the same. A
 * `return` ends the tile's trip only (its flag is computed in the body,
 * docs/ir.md `until`), as it ended the tile's program.
 *
 * Why: cuBLAS's and cuDNN's kernels launch one block a multiprocessor and
 * loop over tiles; a block's start (its barriers' initialization, its
 * registers' reallocation) is then paid once, and the pipeline pass's
 * rings can later run on from one tile into the next (docs/codegen.md,
 * "Grid order"). It runs first, so that every later pass sees the tile
 * loop as the loop it is.
 *
 * Which kernels: every one it can (PERSIST_ALL, --grid=persistent), or
 * (PERSIST_TWO_DOT_LOOPS, --grid=auto when every --arch is sm_90a) those
 * with a loop of two dots or more (flash attention's), and of those whose
 * loop bound rises with program id 0 (causal attention's) only the ones
 * ordered heavy-first.
 *
 * Left alone: a kernel of one program (grid (1)), one already persistent,
 * one with print or assert (their messages name the program), one whose
 * grid may be negative (it names a scalar parameter, or subtracts: the
 * plain launch refuses a negative dimension, which the tile count alone
 * would not show), one whose grid names a size that is not i32, and one
 * with more program-id ops than PERSIST_MAX_IDS.
 */
#include "loop_edit.h"

#include <string.h>

enum { PERSIST_MAX_IDS = 256, PERSIST_GROUP_ROWS = 8 /* llvm_kernel.c PROGRAM_GROUP_ROWS */ };

typedef struct Persist {
    IrKernel *kernel;
    IrOp *before;                 /* new ops go in front of it */
    Span loc;
    IrOp *ids[PERSIST_MAX_IDS];   /* the body's program_id and num_programs ops */
    int num_ids;
    bool refused;
} Persist;

static IrValue *emit(Persist *P, IrOpcode opcode, IrValue *a, IrValue *b) {
    IrType i32 = ir_scalar_type(DT_I32);
    return loop_new_op(P->kernel, P->before, P->loc, opcode, &i32, a, b, NULL)->results[0];
}

static IrValue *compare(Persist *P, IrOpcode opcode, IrValue *a, IrValue *b) {
    IrType flag = ir_scalar_type(DT_BOOL);
    return loop_new_op(P->kernel, P->before, P->loc, opcode, &flag, a, b, NULL)->results[0];
}

static IrValue *constant(Persist *P, int64_t value) {
    IrType i32 = ir_scalar_type(DT_I32);
    IrOp *op = loop_new_op(P->kernel, P->before, P->loc, IR_CONST, &i32, NULL, NULL, NULL);
    op->int_value = value;
    return op->results[0];
}

static IrValue *program_value(Persist *P, IrOpcode opcode) {
    IrType i32 = ir_scalar_type(DT_I32);
    IrOp *op = loop_new_op(P->kernel, P->before, P->loc, opcode, &i32, NULL, NULL, NULL);
    op->axis = 0;
    return op->results[0];
}

/* The i32 parameter a grid expression names; NULL for any other. */
static const IrParam *grid_param(const IrKernel *kernel, const char *name) {
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        if ((p->kind == PARAM_SIZE || p->kind == PARAM_SCALAR) && strcmp(p->name, name) == 0)
            return p->value->type.dtype == DT_I32 && p->value->type.rank == 0 ? p : NULL;
    }
    return NULL;
}

/* Whether the body can compute grid expression `g` (its names i32), and
   it is never negative: constants >= 0 and sizes (libtessrt and the
   interpreter refuse a negative size) under every operator but `-`. A
   negative dimension fails the plain kernel's launch, but a product of two
   would pass the persistent one's check of the tile count alone. */
static bool grid_computable(const IrKernel *kernel, const GridExpr *g) {
    switch (g->kind) {
    case GRID_CONST: return g->value >= 0 && g->value <= INT32_MAX;
    case GRID_SIZE: {
        const IrParam *p = grid_param(kernel, g->size);
        return p && p->kind == PARAM_SIZE;
    }
    case GRID_RESIDENT:
    case GRID_SUB: return false;
    default: return grid_computable(kernel, g->lhs) && grid_computable(kernel, g->rhs);
    }
}

/* Grid expression `g` as ops: the arithmetic the runtime does on int64 (its
   checks keep a launched grid's values in i32), cdiv(a, b) as a / b + (a %
   b != 0), which no i32 a can overflow (a + b - 1 can: a size near 2^31). */
static IrValue *grid_value(Persist *P, const GridExpr *g) {
    static const IrOpcode opcodes[] = {
        [GRID_ADD] = IR_ADD, [GRID_SUB] = IR_SUB, [GRID_MUL] = IR_MUL, [GRID_DIV] = IR_DIV,
        [GRID_REM] = IR_REM, [GRID_MIN] = IR_MIN, [GRID_MAX] = IR_MAX,
    };
    switch (g->kind) {
    case GRID_CONST: return constant(P, g->value);
    case GRID_SIZE: return grid_param(P->kernel, g->size)->value;
    case GRID_CDIV: {   /* both sides are never negative (grid_computable) */
        IrValue *a = grid_value(P, g->lhs), *b = grid_value(P, g->rhs), *zero = constant(P, 0);
        IrValue *inexact = compare(P, IR_NE, emit(P, IR_REM, a, b), zero);
        IrType i32 = ir_scalar_type(DT_I32);
        IrValue *one_more = loop_new_op(P->kernel, P->before, P->loc, IR_SELECT, &i32, inexact, constant(P, 1), zero)->results[0];
        return emit(P, IR_ADD, emit(P, IR_DIV, a, b), one_more);
    }
    default: return emit(P, opcodes[g->kind], grid_value(P, g->lhs), grid_value(P, g->rhs));
    }
}

/* Collects the program-id ops of `block` and refuses what the pass leaves
   alone. */
static void collect(Persist *P, IrBlock *block) {
    for (IrOp *op = block ? block->first : NULL; op && !P->refused; op = op->next) {
        if (op->opcode == IR_PRINT || op->opcode == IR_ASSERT)
            P->refused = true;
        if (op->opcode == IR_PROGRAM_ID || op->opcode == IR_NUM_PROGRAMS) {
            if (P->num_ids == PERSIST_MAX_IDS)
                P->refused = true;
            else
                P->ids[P->num_ids++] = op;
        }
        collect(P, op->body);
        collect(P, op->else_body);
    }
}

/* The grid orders of the backend (llvm_kernel.c grouped_grid and
   heavy_first_grid), decided here on the kernel as written. */
static bool dot_in_loop(const IrBlock *block, bool in_loop) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        if (op->opcode == IR_DOT && in_loop)
            return true;
        bool loop = in_loop || op->opcode == IR_FOR;
        if (dot_in_loop(op->body, loop) || dot_in_loop(op->else_body, loop))
            return true;
    }
    return false;
}

/* The dots in `block`, at any depth. */
static int count_dots(const IrBlock *block) {
    int n = 0;
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next)
        n += (op->opcode == IR_DOT) + count_dots(op->body) + count_dots(op->else_body);
    return n;
}

/* Whether a `for` in `block` (at any depth) has two dots or more in its
   body (flash attention's q @ k.T and p @ v). */
static bool two_dot_loop(const IrBlock *block) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        if (op->opcode == IR_FOR && count_dots(op->body) >= 2)
            return true;
        if (two_dot_loop(op->body) || two_dot_loop(op->else_body))
            return true;
    }
    return false;
}

static bool heavy_loop(const IrKernel *kernel, const IrBlock *block) {
    for (const IrOp *op = block ? block->first : NULL; op; op = op->next) {
        if (op->opcode == IR_FOR && ir_rises_with_program_id0(kernel, op->operands[0]) == 0 &&
            ir_rises_with_program_id0(kernel, op->operands[1]) == 1 && dot_in_loop(op->body, true))
            return true;
        if (heavy_loop(kernel, op->body) || heavy_loop(kernel, op->else_body))
            return true;
    }
    return false;
}

/* Under heavy-first, the tiles of every second round of the loop (tiles
   r NB .. r NB + NB - 1 for NB programs, the last round cut at the tile
   count) go to the programs in reverse: t = r NB + b becomes r NB + W - 1 - b,
   W the round's width. The loop hands program b tiles b, b + NB, ...; tiles
   heaviest first (id 0 reversed, fastest) make the weight of tile r NB + b
   fall with (r NB + b) mod G0, so a fixed stride alone gives some programs
   the heavier residues in every round (causal attention at 132 programs
   and 32 query blocks: programs of one residue class mod 4 do 20% more
   work than another's); reversed every second round, what a program gets
   heavier in one round it gets lighter in the next. */
static IrValue *snake(Persist *P, IrValue *t, IrValue *tiles, IrValue *blocks) {
    IrType i32 = ir_scalar_type(DT_I32);
    IrValue *round = emit(P, IR_DIV, t, blocks);
    IrValue *start = emit(P, IR_MUL, round, blocks);   /* <= t */
    IrValue *width = emit(P, IR_MIN, emit(P, IR_SUB, tiles, start), blocks);
    IrValue *back = emit(P, IR_SUB, emit(P, IR_SUB, emit(P, IR_ADD, start, width), constant(P, 1)),
                         emit(P, IR_SUB, t, start));
    IrValue *odd = compare(P, IR_NE, emit(P, IR_REM, round, constant(P, 2)), constant(P, 0));
    return loop_new_op(P->kernel, P->before, P->loc, IR_SELECT, &i32, odd, back, t)->results[0];
}

static GridExpr *grid_node(IrKernel *kernel, GridExprKind kind, GridExpr *lhs, GridExpr *rhs) {
    GridExpr *g = ARENA_NEW(&kernel->arena, GridExpr);
    g->kind = kind;
    g->lhs = lhs;
    g->rhs = rhs;
    return g;
}

static void persist_kernel(IrKernel *kernel, PersistMode mode, bool heavy_first) {
    Persist P = {.kernel = kernel, .loc = kernel->loc};
    int rank = kernel->grid_rank;
    bool one = true;
    for (int d = 0; d < rank; d++) {
        if (!grid_computable(kernel, kernel->grid[d]))
            return;
        one = one && kernel->grid[d]->kind == GRID_CONST && kernel->grid[d]->value == 1;
    }
    if (rank == 0 || one || !kernel->body->first)
        return;
    collect(&P, kernel->body);
    if (P.refused)
        return;
    bool dots = dot_in_loop(kernel->body, false);
    bool grouped = rank == 2 && dots;
    bool heavy = heavy_loop(kernel, kernel->body);
    bool reversed = heavy_first && heavy && !grouped;
    /* --grid=auto on sm_90a: flash attention's loop of two dots, where it
       was measured to pay (docs/performance.md, session 36: 1.03-1.13x,
       matmul 0.90-1.005x), and of those with unequal tiles only the ones
       ordered heavy-first, whose rounds the snake order balances (never
       a grouped 2-d grid's: it is not reversed) */
    if (mode == PERSIST_TWO_DOT_LOOPS && (!two_dot_loop(kernel->body) || (heavy && !reversed)))
        return;

    /* In front of the body: the grid's dims, the tile count, the loop. */
    IrOp *first = kernel->body->first, *last = kernel->body->last;
    P.before = first;
    IrValue *dims[3];
    for (int d = 0; d < rank; d++)
        dims[d] = grid_value(&P, kernel->grid[d]);
    IrValue *tiles = dims[0];
    for (int d = 1; d < rank; d++)
        tiles = emit(&P, IR_MUL, tiles, dims[d]);
    IrValue *block_index = program_value(&P, IR_PROGRAM_ID), *blocks = program_value(&P, IR_NUM_PROGRAMS);
    IrOp *loop = ir_op_new(kernel, IR_FOR, P.loc, 3, 0);
    loop->operands[0] = block_index;
    loop->operands[1] = tiles;
    loop->operands[2] = blocks;
    IrType i32 = ir_scalar_type(DT_I32);
    loop->body = ir_block_new(kernel, 1, &i32);
    loop->body->parent_op = loop;
    ir_op_insert_before(first, loop);

    /* The body moves into the loop, its yield after it. */
    for (IrOp *op = first, *next; op; op = next) {
        next = op == last ? NULL : op->next;
        ir_op_remove(op);
        ir_block_append(loop->body, op);
    }
    ir_block_append(loop->body, ir_op_new(kernel, IR_YIELD, P.loc, 0, 0));

    /* At the top of the trip: the tile's program ids. */
    P.before = first;
    IrValue *t = loop->body->args[0];
    if (reversed)
        t = snake(&P, t, tiles, blocks);
    IrValue *ids[3] = {t, NULL, NULL};
    if (grouped) {   /* llvm_kernel.c program_ids, on t; t / G1 / rows is t / (rows G1), and
                        first_row * G1 <= t: no product past t, which fits i32 */
        IrValue *rows = constant(&P, PERSIST_GROUP_ROWS);
        IrValue *first_row = emit(&P, IR_MUL, emit(&P, IR_DIV, emit(&P, IR_DIV, t, dims[1]), rows), rows);
        IrValue *size = emit(&P, IR_MIN, emit(&P, IR_SUB, dims[0], first_row), rows);
        IrValue *in_group = emit(&P, IR_SUB, t, emit(&P, IR_MUL, first_row, dims[1]));
        ids[0] = emit(&P, IR_ADD, first_row, emit(&P, IR_REM, in_group, size));
        ids[1] = emit(&P, IR_DIV, in_group, size);
    } else if (rank > 1) {
        ids[0] = emit(&P, IR_REM, t, dims[0]);
        IrValue *rest = emit(&P, IR_DIV, t, dims[0]);
        ids[1] = rank == 3 ? emit(&P, IR_REM, rest, dims[1]) : rest;
        if (rank == 3)
            ids[2] = emit(&P, IR_DIV, rest, dims[1]);
    }
    if (reversed)   /* G0 - 1 - p0 */
        ids[0] = emit(&P, IR_SUB, emit(&P, IR_SUB, dims[0], constant(&P, 1)), ids[0]);

    /* An axis past the grid's rank (a .tir may name one: the verifier
       allows 0 to 2) is a dimension of 1: id 0, one program. Every value
       is made before any op goes (`first` may be one of them). */
    IrValue *past_rank[2] = {NULL, NULL};
    for (int i = 0; i < P.num_ids; i++) {
        IrOp *op = P.ids[i];
        bool program_id = op->opcode == IR_PROGRAM_ID;
        if (!(op->axis >= 0 && op->axis < rank) && !past_rank[program_id])
            past_rank[program_id] = constant(&P, program_id ? 0 : 1);
    }
    for (int i = 0; i < P.num_ids; i++) {
        IrOp *op = P.ids[i];
        bool program_id = op->opcode == IR_PROGRAM_ID;
        IrValue *value = op->axis >= 0 && op->axis < rank ? (program_id ? ids[op->axis] : dims[op->axis])
                                                          : past_rank[program_id];
        ir_replace_uses(loop->body, op->results[0], value);
        ir_op_remove(op);
    }

    /* The launch: min(G0 * G1 * G2, resident_blocks()). */
    GridExpr *count = kernel->grid[0];
    for (int d = 1; d < rank; d++)
        count = grid_node(kernel, GRID_MUL, count, kernel->grid[d]);
    kernel->grid[0] = grid_node(kernel, GRID_MIN, count, grid_node(kernel, GRID_RESIDENT, NULL, NULL));
    kernel->grid[1] = kernel->grid[2] = NULL;
    kernel->grid_rank = 1;
}

void pass_persist(IrKernel *kernel, PersistMode mode, bool heavy_first) { persist_kernel(kernel, mode, heavy_first); }
