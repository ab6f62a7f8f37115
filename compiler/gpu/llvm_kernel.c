/*
 * llvm_kernel.c: one tile-IR kernel becomes one LLVM function.
 *
 * In: a KernelPlan (layouts, scratch offsets) and an empty LLVM module. Out:
 * the kernel function: `ptx_kernel` calling convention (the only marking
 * LLVM 22 honours, toolchain.md), "nvvm.maxntid" from the warp count, array
 * parameters as `ptr addrspace(1) noalias` (readonly for `in`, so that O3
 * picks ld.global.nc), scalars by value, sizes as i32, in IrKernel.params
 * order. The body is structured: `for` is a header block with one phi per
 * register of every carried tile, `if` is a diamond with phis at the merge.
 *
 * This file owns the op dispatch, control flow, program ids and thread
 * coordinates; memory, math, conversions, reductions and dot live in their
 * own llvm_*.c files.
 */
#include "llvm_lower.h"

#include <math.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <string.h>

/* ---- small helpers shared by the llvm_*.c files -------------------------------- */

LLVMTypeRef llvm_kernel_reg_type(Lowering *L, DType dtype) {
    switch (dtype) {
    case DT_BOOL: return L->i1;
    case DT_I8: case DT_U8: case DT_F8E4M3: case DT_F8E5M2: return L->i8;   /* fp8: its bits */
    case DT_I16: case DT_U16: return L->i16;
    case DT_I32: case DT_U32: return L->i32;
    case DT_I64: case DT_U64: return L->i64;
    case DT_F16: return L->f16;
    case DT_BF16: return L->bf16;
    case DT_F32: return L->f32;
    case DT_F64: return L->f64;
    default: break;
    }
    INTERNAL_ERROR("dtype %d in LLVM lowering", (int)dtype);
}

LLVMTypeRef llvm_kernel_mem_type(Lowering *L, DType dtype) {
    return dtype == DT_BOOL ? L->i8 : llvm_kernel_reg_type(L, dtype);
}

int llvm_kernel_mem_bytes(DType dtype) { return dtype == DT_BOOL ? 1 : dtype_bytes(dtype); }

LLVMValueRef llvm_kernel_i32(Lowering *L, int64_t v) { return LLVMConstInt(L->i32, (unsigned long long)v, 1); }
LLVMValueRef llvm_kernel_i64(Lowering *L, int64_t v) { return LLVMConstInt(L->i64, (unsigned long long)v, 1); }

LLVMValueRef llvm_kernel_and(Lowering *L, LLVMValueRef a, LLVMValueRef b) {
    if (!a)
        return b;
    if (!b)
        return a;
    return LLVMBuildAnd(L->b, a, b, "");
}

LLVMValueRef llvm_kernel_lane0(Lowering *L, LLVMValueRef v) {
    LLVMValueRef args[4] = {llvm_kernel_i32(L, -1), v, llvm_kernel_i32(L, 0), llvm_kernel_i32(L, 31)};
    return llvm_kernel_intrinsic(L, "llvm.nvvm.shfl.sync.idx.i32", NULL, 0, args, 4);
}

LLVMValueRef llvm_kernel_intrinsic(Lowering *L, const char *name, LLVMTypeRef *types, int num_types,
                                   LLVMValueRef *args, int num_args) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (id == 0)
        INTERNAL_ERROR("LLVM has no intrinsic '%s'", name);
    if (LLVMIntrinsicIsOverloaded(id) != (num_types > 0))
        INTERNAL_ERROR("intrinsic '%s' called with %d overload types", name, num_types);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(L->module, id, types, (size_t)num_types);
    LLVMTypeRef fty = LLVMIntrinsicGetType(L->ctx, id, types, (size_t)num_types);
    return LLVMBuildCall2(L->b, fty, fn, args, (unsigned)num_args, "");
}

/* Marks a loop's back edge llvm.loop.unroll.disable: LLVM keeps the loop
   and the NVPTX backend prints `.pragma "nounroll";`, which ptxas obeys. */
void llvm_kernel_no_unroll(Lowering *L, LLVMValueRef branch) {
    LLVMMetadataRef disable = LLVMMDStringInContext2(L->ctx, "llvm.loop.unroll.disable", 24);
    LLVMMetadataRef inner = LLVMMDNodeInContext2(L->ctx, &disable, 1);
    LLVMMetadataRef self = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    LLVMMetadataRef ops[2] = {self, inner};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(L->ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(self, loop);
    unsigned kind = LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9);
    LLVMSetMetadata(branch, kind, LLVMMetadataAsValue(L->ctx, loop));
}

/* async_wait N: cp.async.wait_group N (PTX ISA 9.7.9.25.3.3), then, in a
   kernel with a wgmma dot, fence.proxy.async.shared::cta (wgmma reads
   shared memory through the async proxy: this thread's copies, written
   through the generic one, are made visible to it before the barrier hands
   them to the other threads; PTX ISA 9.7.13.4.18, proxy fences), then the
   barrier barrier.c placed after it. Here and where a carrying dot lowers
   its loop's wait (llvm_dot.c). */
void llvm_kernel_async_wait(Lowering *L, const IrOp *wait) {
    LLVMValueRef n = llvm_kernel_i32(L, wait->int_value);
    llvm_kernel_intrinsic(L, "llvm.nvvm.cp.async.wait.group", NULL, 0, &n, 1);
    if (L->plan->wgmma)
        llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
    llvm_kernel_barrier_at(L, layout_op_plan(L->plan, wait)->barriers, BARRIER_BEFORE_READ);
}

/* __syncthreads: `barrier.cta.sync.aligned.all 0` (PTX ISA 9.7.13.1, bar /
   barrier), which LLVM 22 prints as bar.sync 0. Every thread of the block
   must reach it; past a producer warpgroup's split, every consumer thread
   (`bar.sync 3, threads`). */
void llvm_kernel_block_barrier(Lowering *L) {
    if (L->producer_mode)   /* the producer runs no op that has one (tma.c producer_slice) */
        INTERNAL_ERROR("kernel '%s': a block barrier in the producer warpgroup's code", L->kernel->name);
    if (L->consumers_only) {   /* the producer warpgroup never comes: barrier 3 of the consumers
                                  (1 and 2 are ping-pong's turns, llvm_dot.c) */
        LLVMValueRef args[2] = {llvm_kernel_i32(L, 3), llvm_kernel_i32(L, L->plan->threads)};
        llvm_kernel_intrinsic(L, "llvm.nvvm.barrier.cta.sync.aligned.count", NULL, 0, args, 2);
        return;
    }
    LLVMValueRef zero = llvm_kernel_i32(L, 0);
    llvm_kernel_intrinsic(L, "llvm.nvvm.barrier.cta.sync.aligned.all", NULL, 0, &zero, 1);
}

/* A block barrier where barrier_plan put one (bit `step` of `barriers`);
   barrier.c says why every thread reaches it. */
void llvm_kernel_barrier_at(Lowering *L, unsigned barriers, BarrierStep step) {
    if (barriers & (1u << step))
        llvm_kernel_block_barrier(L);
}

LLVMBasicBlockRef llvm_kernel_block(Lowering *L, const char *name) {
    return LLVMAppendBasicBlockInContext(L->ctx, L->fn, name);
}

LLVMValueRef llvm_kernel_smem(Lowering *L, LLVMValueRef byte_offset) {
    return LLVMBuildGEP2(L->b, L->i8, L->smem, &byte_offset, 1, "");
}

/* ---- tiles ------------------------------------------------------------------------ */

Tile *llvm_kernel_tile_new(Lowering *L, const Layout *layout, const IrType *type) {
    Tile *t = ARENA_NEW(&L->kernel->arena, Tile);
    t->layout = layout;
    t->type = *type;
    t->map = layout_map_new(L->kernel, layout, type);
    t->num_regs = layout_num_regs(t->map);
    t->regs = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, t->num_regs + 1);
    return t;
}

Tile *llvm_kernel_splat(Lowering *L, const Layout *layout, const IrType *type, LLVMValueRef scalar) {
    Tile *t = llvm_kernel_tile_new(L, layout, type);
    for (int64_t r = 0; r < t->num_regs; r++)
        t->regs[r] = scalar;
    t->splat = scalar;
    return t;
}

Tile *llvm_kernel_tile(Lowering *L, const IrValue *v) {
    Tile *t = L->tiles[v->id];
    if (!t)
        INTERNAL_ERROR("kernel '%s': tile value %d used before it was lowered", L->kernel->name, v->id);
    return t;
}

void llvm_kernel_set_tile(Lowering *L, const IrValue *v, Tile *t) { L->tiles[v->id] = t; }

LLVMValueRef llvm_kernel_scalar(Lowering *L, const IrValue *v) {
    Tile *t = llvm_kernel_tile(L, v);
    return t->splat ? t->splat : t->regs[0];
}

/* Does what conversion record `c` says (convert.c decided it). */
static Tile *run_conversion(Lowering *L, const ConvertRecord *c) {
    Tile *t = llvm_kernel_tile(L, c->value);
    switch (c->method) {
    case CONVERT_SPLAT: return llvm_kernel_splat(L, c->to, &t->type, t->splat ? t->splat : t->regs[0]);
    case CONVERT_REMAT: return llvm_convert_remat(L, c->value, c->to);
    case CONVERT_REBROADCAST: return llvm_convert_rebroadcast(L, c->value->def, c->to, c->smem_lo, c->barriers);
    case CONVERT_SHARED: return llvm_convert_tile(L, t, c);
    case CONVERT_SHUFFLE: break;
    }
    INTERNAL_ERROR("kernel '%s': conversion by %s has no lowering", L->kernel->name, convert_method_name(c->method));
}

Tile *llvm_kernel_operand(Lowering *L, IrOp *op, int i) {
    OpPlan *p = layout_op_plan(L->plan, op);
    const ConvertRecord *c = p->operand_converts ? p->operand_converts[i] : NULL;
    if (!c)
        return llvm_kernel_tile(L, op->operands[i]);
    if (!c->loop)
        return run_conversion(L, c);
    if (!L->converted[c->id])
        INTERNAL_ERROR("kernel '%s': hoisted conversion %d read outside its loop", L->kernel->name, c->id);
    return L->converted[c->id];
}

/* ---- thread coordinates -------------------------------------------------------------- */

static LLVMValueRef sreg(Lowering *L, const char *name) {
    return llvm_kernel_intrinsic(L, name, NULL, 0, NULL, 0);
}

LLVMValueRef llvm_kernel_term(Lowering *L, const LayoutTerm *term) {
    LLVMValueRef v = term->index == LAYOUT_LANE ? L->lane : L->warp;
    if (term->divisor != 1)
        v = LLVMBuildUDiv(L->b, v, llvm_kernel_i32(L, term->divisor), "");
    if (term->count != 0)
        v = LLVMBuildURem(L->b, v, llvm_kernel_i32(L, term->count), "");
    if (term->scale != 1)
        v = LLVMBuildMul(L->b, v, llvm_kernel_i32(L, term->scale), "");
    return v;
}

/* Terms are built in order and summed from the last (the highest bits). */
LLVMValueRef llvm_kernel_expr(Lowering *L, const LayoutExpr *expr) {
    LLVMValueRef values[LAYOUT_MAX_TERMS];
    for (int i = 0; i < expr->num_terms; i++)
        values[i] = llvm_kernel_term(L, &expr->terms[i]);
    LLVMValueRef sum = NULL;
    for (int i = expr->num_terms - 1; i >= 0; i--)
        sum = sum ? LLVMBuildAdd(L->b, sum, values[i], "") : values[i];
    return sum ? sum : llvm_kernel_i32(L, 0);
}

/* The thread's coordinate bases and unique predicate, as the layout gives
   them (layout_thread_coord, layout_unique_conditions), from %tid (PTX ISA
   10.1) split into L->lane and L->warp. */
ThreadInfo *llvm_kernel_thread(Lowering *L, const Layout *layout, const IrType *type) {
    for (ThreadInfo *ti = L->threads; ti; ti = ti->next) {
        bool same = ti->type.rank == type->rank && layout_equal(ti->layout, layout);
        for (int d = 0; same && d < type->rank; d++)
            same = ti->type.dims[d].size == type->dims[d].size;
        if (same)
            return ti;
    }
    ThreadInfo *ti = ARENA_NEW(&L->kernel->arena, ThreadInfo);
    ti->layout = layout;
    ti->type = *type;
    const LayoutMap *map = layout_map_new(L->kernel, layout, type);
    LLVMBuilderRef saved = L->b;
    L->b = L->entry;
    LayoutExpr exprs[IR_MAX_RANK];
    LLVMValueRef positions[IR_MAX_RANK];
    int num_positions = layout_thread_positions(map, exprs);
    for (int i = 0; i < num_positions; i++)
        positions[i] = llvm_kernel_expr(L, &exprs[i]);
    /* Each dim's base beside the conditions about its copies. */
    LayoutCondition conds[LAYOUT_MAX_CONDITIONS];
    int num_conds = layout_unique_conditions(map, L->plan->threads, conds), c = 0;
    LLVMValueRef unique = NULL;
    for (int d = -1; d <= type->rank; d++) {
        if (d >= 0 && d < type->rank) {
            LayoutCoord coord;
            layout_thread_coord(map, d, &coord);
            LLVMValueRef v = coord.position < 0 ? llvm_kernel_i32(L, 0) : positions[coord.position];
            if (coord.position >= 0 && coord.scale != 1)
                v = LLVMBuildMul(L->b, v, llvm_kernel_i32(L, coord.scale), "");
            if (coord.position >= 0 && coord.modulus != 0)
                v = LLVMBuildAnd(L->b, v, llvm_kernel_i32(L, coord.modulus - 1), "");
            ti->base[d] = v;
        }
        for (; c < num_conds && conds[c].dim <= d; c++) {
            const LayoutCondition *k = &conds[c];
            LLVMValueRef v = k->position >= 0 ? positions[k->position] : llvm_kernel_expr(L, &k->expr);
            LLVMValueRef test = k->bound == 1 ? LLVMBuildICmp(L->b, LLVMIntEQ, v, llvm_kernel_i32(L, 0), "")
                                              : LLVMBuildICmp(L->b, LLVMIntULT, v, llvm_kernel_i32(L, k->bound), "");
            unique = llvm_kernel_and(L, unique, test);
        }
    }
    ti->unique = unique ? unique : LLVMConstInt(L->i1, 1, 0);
    L->b = saved;
    ti->next = L->threads;
    L->threads = ti;
    return ti;
}

LLVMValueRef llvm_kernel_coord(Lowering *L, const Tile *t, const ThreadInfo *ti, int64_t reg, int d) {
    int64_t offsets[IR_MAX_RANK];
    layout_reg_offsets(t->map, reg, offsets);
    return LLVMBuildAdd(L->b, ti->base[d], llvm_kernel_i32(L, offsets[d]), "");
}

/* ---- control flow ---------------------------------------------------------------------- */

static void lower_block(Lowering *L, IrBlock *block);

/* Whether the lowering carries loop argument or if result `v`: every one,
   but in the producer's slice only those it needs. */
static bool lowered_value(Lowering *L, const IrValue *v) {
    return !L->producer_mode || L->plan->producer_values[v->id];
}

/* The registers a yield hands back to `to` (a loop's carried arguments or
   an if's results), each in its layout: those the lowering carries. */
static Tile **yield_tiles(Lowering *L, IrOp *yield, int n, IrValue *const *to) {
    Tile **tiles = ARENA_ARRAY(&L->kernel->arena, Tile *, n + 1);
    for (int i = 0; i < n; i++)
        tiles[i] = yield->operands[i]->type.kind == IRT_TILE && lowered_value(L, to[i]) ? llvm_kernel_operand(L, yield, i)
                                                                                         : NULL;
    return tiles;
}

/* A loop's hoisted conversions (convert.c), done once before it; its
   body's operands read them, and so may the ops after it in its block
   (lower_block drops them at the block's end: the preheader need not
   dominate what follows an enclosing if). */
static void hoist_conversions(Lowering *L, const OpPlan *loop) {
    for (int k = 0; k < loop->num_hoisted; k++)
        if (!L->producer_mode || L->plan->producer_values[loop->hoisted[k]->value->id])
            L->converted[loop->hoisted[k]->id] = run_conversion(L, loop->hoisted[k]);
}

static void drop_hoisted(Lowering *L, const OpPlan *loop) {
    for (int k = 0; k < loop->num_hoisted; k++)
        L->converted[loop->hoisted[k]->id] = NULL;
}

/* The number of iterations of `for iv = lo to hi step step` (docs/language.md
   6.6: lo, lo + step, ... while < hi; none when step <= 0), computed once in
   front of the loop, so that no input makes the loop run forever or wrap iv
   into a second lap. Unsigned 32 bits are exact: with lo < hi, hi - lo - 1
   is in [0, 2^32 - 2] as an unsigned number, and the count at most 2^32 - 1
   (step 1 from INT32_MIN to INT32_MAX). */
static LLVMValueRef trip_count(Lowering *L, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step, bool step_positive) {
    LLVMValueRef zero = llvm_kernel_i32(L, 0), one = llvm_kernel_i32(L, 1);
    LLVMValueRef runs = LLVMBuildICmp(L->b, LLVMIntSLT, lo, hi, "");
    LLVMValueRef divisor = step;
    if (!step_positive) {
        LLVMValueRef positive = LLVMBuildICmp(L->b, LLVMIntSGT, step, zero, "");
        runs = LLVMBuildAnd(L->b, runs, positive, "");
        divisor = LLVMBuildSelect(L->b, positive, step, one, "");   /* no udiv by 0 or a negative step */
    }
    LLVMValueRef span = LLVMBuildSub(L->b, LLVMBuildSub(L->b, hi, lo, ""), one, "");
    LLVMValueRef count = LLVMBuildAdd(L->b, LLVMBuildUDiv(L->b, span, divisor, ""), one, "");
    return LLVMBuildSelect(L->b, runs, count, zero, "trips");
}

/* Whether loop result i comes from an async wgmma dot of the body. */
static bool async_result(Lowering *L, const IrOp *op, int i) {
    const IrOp *yield = op->body->last;
    const IrOp *def = yield && yield->opcode == IR_YIELD ? yield->operands[i]->def : NULL;
    return def && def->opcode == IR_DOT && def->parent == op->body && layout_op_plan(L->plan, def)->wgmma_async;
}

/* Whether loop argument i of `op` is an async wgmma dot's accumulator
   (layout.c plan_wgmma_async) that starts as a constant +0.0, which the
   loop's first wgmma then need not read (LoopLowering.zero_start). +0.0
   only: -0.0 + x is x, but +0.0 + -0.0 is +0.0. */
static bool async_zero_start(Lowering *L, const IrOp *op, int i) {
    const IrOp *init = op->operands[3 + i]->def;
    return async_result(L, op, i) && op->body->last->operands[i]->def->operands[2] == op->body->args[i + 1] &&
           init && init->opcode == IR_CONST && dtype_is_float(init->results[0]->type.dtype) &&
           init->float_value == 0.0 && !signbit(init->float_value);
}

static void lower_for(Lowering *L, IrOp *op) {
    LLVMValueRef lo = llvm_kernel_scalar(L, op->operands[0]);
    LLVMValueRef hi = llvm_kernel_scalar(L, op->operands[1]);
    LLVMValueRef step = llvm_kernel_scalar(L, op->operands[2]);
    /* A constant step 1, the common loop, tests iv < hi as it goes: iv + 1
       cannot pass INT32_MAX while iv < hi. Any other step counts its trips
       down from the count made in front of the loop. */
    const IrOp *step_def = op->operands[2]->def;
    bool step_one = step_def && step_def->opcode == IR_CONST && step_def->int_value == 1;
    LLVMValueRef trips = step_one ? NULL :
                         trip_count(L, lo, hi, step, step_def && step_def->opcode == IR_CONST && step_def->int_value > 0);
    int n = op->num_results;
    Tile **inits = ARENA_ARRAY(&L->kernel->arena, Tile *, n + 1);
    bool *zero_start = ARENA_ARRAY(&L->kernel->arena, bool, n + 1);
    Tile **original_inits = ARENA_ARRAY(&L->kernel->arena, Tile *, n + 1);
    for (int i = 0; i < n; i++) {
        if (!lowered_value(L, op->body->args[i + 1]))
            continue;
        inits[i] = original_inits[i] = llvm_kernel_operand(L, op, 3 + i);
        zero_start[i] = !L->producer_mode && async_zero_start(L, op, i);
        if (zero_start[i]) {   /* ptxas would serialise the wgmmas behind the movs of zeros (C7515) */
            Tile *undef = llvm_kernel_tile_new(L, inits[i]->layout, &inits[i]->type);
            for (int64_t r = 0; r < undef->num_regs; r++)
                undef->regs[r] = LLVMGetUndef(llvm_kernel_reg_type(L, inits[i]->type.dtype));
            inits[i] = undef;
        }
    }
    OpPlan *plan_op = layout_op_plan(L->plan, op);
    hoist_conversions(L, plan_op);
    if (!L->producer_mode)   /* barrier.c walk_for: a clean start for the loop */
        llvm_kernel_barrier_at(L, plan_op->barriers, BARRIER_BEFORE_WRITE);
    bool pingpong = (plan_op->pingpong & (1u << PINGPONG_LOOP)) && !L->producer_mode;   /* the consumers' turns */
    if (pingpong)
        llvm_dot_pingpong_enter(L);
    /* A loop with an async wgmma dot runs behind a guard of its own: ptxas
       serialises the wgmmas (C7514) when the accumulator's reads after the
       loop are reached both from the drained exit and, by the loop's
       zero-trip test, without a wgmma; the skip edge gives the merge the
       results' initial values (zero_start: zeros). */
    bool guarded = false;
    for (int i = 0; i < n && !L->producer_mode; i++)
        guarded |= async_result(L, op, i);
    LLVMBasicBlockRef skip = NULL;
    if (guarded) {
        LLVMValueRef runs = trips ? LLVMBuildICmp(L->b, LLVMIntNE, trips, llvm_kernel_i32(L, 0), "")
                                  : LLVMBuildICmp(L->b, LLVMIntSLT, lo, hi, "");
        LLVMBasicBlockRef into = llvm_kernel_block(L, "for.guarded");
        skip = llvm_kernel_block(L, "for.skip");
        LLVMBuildCondBr(L->b, runs, into, skip);
        LLVMPositionBuilderAtEnd(L->b, into);
    }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef header = llvm_kernel_block(L, "for.header");
    LLVMBasicBlockRef body = llvm_kernel_block(L, "for.body");
    LLVMBasicBlockRef exit = llvm_kernel_block(L, "for.exit");
    LLVMBuildBr(L->b, header);

    LLVMPositionBuilderAtEnd(L->b, header);
    LLVMValueRef iv = LLVMBuildPhi(L->b, L->i32, "iv");
    LLVMAddIncoming(iv, &lo, &pre, 1);
    LLVMValueRef left = NULL;   /* the trips still to run, counting this one */
    if (trips) {
        left = LLVMBuildPhi(L->b, L->i32, "left");
        LLVMAddIncoming(left, &trips, &pre, 1);
    }
    Tile **carried = ARENA_ARRAY(&L->kernel->arena, Tile *, n + 1);
    for (int i = 0; i < n; i++) {
        IrValue *arg = op->body->args[i + 1];
        if (!inits[i])
            continue;
        carried[i] = llvm_kernel_tile_new(L, inits[i]->layout, &arg->type);
        for (int64_t r = 0; r < carried[i]->num_regs; r++) {
            carried[i]->regs[r] = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, arg->type.dtype), "");
            LLVMAddIncoming(carried[i]->regs[r], &inits[i]->regs[r], &pre, 1);
        }
        llvm_kernel_set_tile(L, arg, carried[i]);
        llvm_kernel_set_tile(L, op->results[i], carried[i]);
    }
    LLVMValueRef more = trips ? LLVMBuildICmp(L->b, LLVMIntNE, left, llvm_kernel_i32(L, 0), "") :
                                LLVMBuildICmp(L->b, LLVMIntSLT, iv, hi, "");
    if (op->int_value > 0)   /* `until`: the carried flag (a uniform scalar) ends the loop */
        more = LLVMBuildAnd(L->b, more, LLVMBuildNot(L->b, carried[op->int_value - 1]->regs[0], ""), "");
    LLVMValueRef first = LLVMBuildICmp(L->b, LLVMIntEQ, iv, lo, "first");
    LLVMBuildCondBr(L->b, more, body, exit);

    LoopLowering loop = {.op = op, .pre = pre, .header = header, .first = first, .zero_start = zero_start,
                         .outer = L->loop};
    L->loop = &loop;
    LLVMPositionBuilderAtEnd(L->b, body);
    IrType i32 = ir_scalar_type(DT_I32);
    llvm_kernel_set_tile(L, op->body->args[0], llvm_kernel_splat(L, layout_of(L->plan, op->body->args[0]) ?
                                                                        layout_of(L->plan, op->body->args[0]) :
                                                                        layout_blocked_default(L->kernel, &i32, L->plan->threads),
                                                                    &i32, iv));
    lower_block(L, op->body);
    IrOp *yield = op->body->last;
    if (!yield || yield->opcode != IR_YIELD || yield->num_operands != n)
        INTERNAL_ERROR("kernel '%s': for body without a matching yield", L->kernel->name);
    Tile **next = yield_tiles(L, yield, n, op->body->args + 1);
    /* After the last trip iv + step may wrap; that value is never used. */
    LLVMValueRef iv_next = LLVMBuildAdd(L->b, iv, step, "iv.next");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
    LLVMAddIncoming(iv, &iv_next, &latch, 1);
    if (trips) {
        LLVMValueRef left_next = LLVMBuildSub(L->b, left, llvm_kernel_i32(L, 1), "left.next");
        LLVMAddIncoming(left, &left_next, &latch, 1);
    }
    for (int i = 0; i < n; i++)
        for (int64_t r = 0; carried[i] && r < carried[i]->num_regs; r++)
            LLVMAddIncoming(carried[i]->regs[r], &next[i]->regs[r], &latch, 1);
    for (int i = 0; i < loop.phis.len; i++) {
        LLVMValueRef carried_next = loop.nexts.items[i];
        LLVMAddIncoming(loop.phis.items[i], &carried_next, &latch, 1);
    }
    L->loop = loop.outer;
    LLVMBuildBr(L->b, header);
    LLVMPositionBuilderAtEnd(L->b, exit);
    /* An async wgmma dot's last group is still in flight: wait for it
       and copy the accumulator out before anything reads it
       (docs/codegen.md, "wgmma"); then the guard's merge. */
    Tile **exits = ARENA_ARRAY(&L->kernel->arena, Tile *, n + 1);
    for (int i = 0; i < n; i++) {
        exits[i] = carried[i];
        if (carried[i] && !L->producer_mode && async_result(L, op, i)) {
            Tile *drained = llvm_kernel_tile_new(L, carried[i]->layout, &op->results[i]->type);
            for (int64_t r = 0; r < carried[i]->num_regs; r++)
                drained->regs[r] = carried[i]->regs[r];
            llvm_dot_wgmma_drain(L, drained);
            exits[i] = drained;
        }
    }
    if (guarded) {
        LLVMBasicBlockRef exit_end = LLVMGetInsertBlock(L->b);
        LLVMBasicBlockRef merge = llvm_kernel_block(L, "for.merge");
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, skip);
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, merge);
        for (int i = 0; i < n; i++) {
            Tile *t = llvm_kernel_tile_new(L, carried[i]->layout, &op->results[i]->type);
            for (int64_t r = 0; r < t->num_regs; r++) {
                LLVMValueRef phi = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, op->results[i]->type.dtype), "");
                LLVMValueRef values[2] = {exits[i]->regs[r], original_inits[i]->regs[r]};
                LLVMBasicBlockRef from[2] = {exit_end, skip};
                LLVMAddIncoming(phi, values, from, 2);
                t->regs[r] = phi;
            }
            exits[i] = t;
        }
    }
    if (pingpong)
        llvm_dot_pingpong_leave(L);
    for (int i = 0; i < n; i++)
        if (exits[i])
            llvm_kernel_set_tile(L, op->results[i], exits[i]);
}

static void lower_if(Lowering *L, IrOp *op) {
    /* barrier.c barrier_before_guard: the guarded copies' barrier, after
       the proxy fence that orders the pending generic writes of the ring's
       bytes before the bulk copies (llvm_tma_copy) */
    if ((layout_op_plan(L->plan, op)->barriers & (1u << BARRIER_BEFORE_WRITE)) && !L->producer_mode) {
        if (L->plan->tma)
            llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
        llvm_kernel_block_barrier(L);
    }
    LLVMValueRef cond = llvm_kernel_scalar(L, op->operands[0]);
    LLVMBasicBlockRef then_bb = llvm_kernel_block(L, "if.then");
    LLVMBasicBlockRef else_bb = llvm_kernel_block(L, "if.else");
    LLVMBasicBlockRef merge = llvm_kernel_block(L, "if.end");
    LLVMBuildCondBr(L->b, cond, then_bb, else_bb);
    int n = op->num_results;
    IrBlock *blocks[2] = {op->body, op->else_body};
    LLVMBasicBlockRef starts[2] = {then_bb, else_bb}, ends[2];
    Tile **values[2];
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(L->b, starts[k]);
        values[k] = NULL;
        if (blocks[k]) {
            lower_block(L, blocks[k]);
            IrOp *yield = blocks[k]->last;
            if (n > 0 && (!yield || yield->opcode != IR_YIELD || yield->num_operands != n))
                INTERNAL_ERROR("kernel '%s': if branch without a matching yield", L->kernel->name);
            if (n > 0)
                values[k] = yield_tiles(L, yield, n, op->results);
        }
        ends[k] = LLVMGetInsertBlock(L->b);
        LLVMBuildBr(L->b, merge);
    }
    LLVMPositionBuilderAtEnd(L->b, merge);
    for (int i = 0; i < n; i++) {
        IrValue *r = op->results[i];
        if (r->type.kind != IRT_TILE || !values[0] || !values[1] || !lowered_value(L, r))
            continue;
        Tile *t = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
        for (int64_t reg = 0; reg < t->num_regs; reg++) {
            t->regs[reg] = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, r->type.dtype), "");
            LLVMValueRef in[2] = {values[0][i]->regs[reg], values[1][i]->regs[reg]};
            LLVMAddIncoming(t->regs[reg], in, ends, 2);
        }
        llvm_kernel_set_tile(L, r, t);
    }
}

enum { PROGRAM_GROUP_ROWS = 8 };

/* Whether the kernel's programs go in groups of rows (program_ids): a 2-D
   grid whose programs run a tensor-core dot in a loop, each reading a row
   of blocks of one operand and a column of the other, as a matmul does. */
static bool grouped_grid(const KernelPlan *plan) {
    if (plan->kernel->grid_rank != 2)
        return false;
    for (int i = 0; i < plan->num_ops; i++) {
        const OpPlan *p = &plan->ops[i];
        if (p->mma && p->op->parent && p->op->parent->parent_op && p->op->parent->parent_op->opcode == IR_FOR)
            return true;
    }
    return false;
}

/* --grid-order=heavy-first (KernelPlan.heavy_first): whether program id 0
   runs backwards, the last first. Where a loop with a dot runs more trips
   the higher program id 0 is (causal attention's key loop: every query
   block sees the keys up to it), the block scheduler, which starts blocks
   in the order of %ctaid.x, would otherwise start the heaviest blocks of
   the grid last and leave the multiprocessors that finish early idle
   behind them (FlashAttention-3's scheduler starts heavy tiles first).
   Programs run in no defined order (docs/language.md), so only the speed
   changes. */
static bool heavy_first_grid(const KernelPlan *plan) {
    if (!plan->heavy_first || plan->kernel->grid_rank < 1)
        return false;
    for (int i = 0; i < plan->num_ops; i++) {
        const OpPlan *loop = &plan->ops[i];
        if (loop->op->opcode != IR_FOR || ir_rises_with_program_id0(plan->kernel, loop->op->operands[0]) != 0 ||
            ir_rises_with_program_id0(plan->kernel, loop->op->operands[1]) != 1)
            continue;
        for (int k = loop->index + 1; k <= loop->end_index; k++)
            if (plan->ops[k].op->opcode == IR_DOT)
                return true;
    }
    return false;
}

/* Program ids (0, 1) of a grouped grid, computed once in the entry block
   from %ctaid: the block scheduler starts blocks in the order of
   x + y * nctaid.x, and that order runs PROGRAM_GROUP_ROWS values of
   program id 0 for every value of id 1 before the next rows, so that the
   blocks running at once share a few rows of one operand's blocks and
   the other's columns in L2 instead of sweeping all of the first operand
   for every column (Triton's GROUP_SIZE_M ordering). Every pair is run
   exactly once, and programs run in no defined order (docs/language.md),
   so only the speed changes. In i64: x + y * nctaid.x may pass 2^32. */
static void program_ids(Lowering *L) {
    LLVMBuilderRef saved = L->b;
    L->b = L->entry;
    LLVMValueRef x = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ctaid.x"), L->i64, "");
    LLVMValueRef y = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.ctaid.y"), L->i64, "");
    LLVMValueRef nx = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.nctaid.x"), L->i64, "");
    LLVMValueRef ny = LLVMBuildZExt(L->b, sreg(L, "llvm.nvvm.read.ptx.sreg.nctaid.y"), L->i64, "");
    LLVMValueRef rows = llvm_kernel_i64(L, PROGRAM_GROUP_ROWS);
    LLVMValueRef linear = LLVMBuildAdd(L->b, x, LLVMBuildMul(L->b, y, nx, ""), "");
    LLVMValueRef per_group = LLVMBuildMul(L->b, rows, ny, "");
    LLVMValueRef first = LLVMBuildMul(L->b, LLVMBuildUDiv(L->b, linear, per_group, ""), rows, "");
    LLVMValueRef left = LLVMBuildSub(L->b, nx, first, "");
    LLVMValueRef size = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntULT, left, rows, ""), left, rows, "");
    LLVMValueRef in_group = LLVMBuildURem(L->b, linear, per_group, "");
    LLVMValueRef i = LLVMBuildAdd(L->b, first, LLVMBuildURem(L->b, in_group, size, ""), "");
    LLVMValueRef j = LLVMBuildUDiv(L->b, in_group, size, "");
    L->program_ids[0] = LLVMBuildTrunc(L->b, i, L->i32, "pid0");
    L->program_ids[1] = LLVMBuildTrunc(L->b, j, L->i32, "pid1");
    L->b = saved;
}

/* program_id and num_programs: %ctaid and %nctaid (PTX ISA 10.8, 10.9),
   program ids in groups of rows for a grouped grid. */
static LLVMValueRef program_value(Lowering *L, IrOpcode opcode, int axis) {
    static const char *const ctaid[3] = {"llvm.nvvm.read.ptx.sreg.ctaid.x", "llvm.nvvm.read.ptx.sreg.ctaid.y",
                                         "llvm.nvvm.read.ptx.sreg.ctaid.z"};
    static const char *const nctaid[3] = {"llvm.nvvm.read.ptx.sreg.nctaid.x", "llvm.nvvm.read.ptx.sreg.nctaid.y",
                                          "llvm.nvvm.read.ptx.sreg.nctaid.z"};
    axis = axis >= 0 && axis < 3 ? axis : 0;
    bool grouped = opcode == IR_PROGRAM_ID && axis < 2 && L->grouped_grid;
    if (grouped && !L->program_ids[0])
        program_ids(L);
    if (opcode == IR_PROGRAM_ID && axis == 0 && L->heavy_first)   /* nctaid.x - 1 - ctaid.x */
        return LLVMBuildSub(L->b, LLVMBuildSub(L->b, sreg(L, nctaid[0]), sreg(L, ctaid[0]), ""),
                            llvm_kernel_i32(L, 1), "pid0");
    return grouped ? L->program_ids[axis] : sreg(L, opcode == IR_PROGRAM_ID ? ctaid[axis] : nctaid[axis]);
}

LLVMValueRef llvm_kernel_program_id(Lowering *L, int axis) { return program_value(L, IR_PROGRAM_ID, axis); }

static void lower_program_id(Lowering *L, IrOp *op) {
    LLVMValueRef v = program_value(L, op->opcode, op->axis);
    IrValue *r = op->results[0];
    llvm_kernel_set_tile(L, r, llvm_kernel_splat(L, layout_of(L->plan, r), &r->type, v));
}

static void lower_op(Lowering *L, IrOp *op) {
    if (layout_op_plan(L->plan, op)->elided)
        return;
    switch (op->opcode) {
    case IR_CONST: llvm_math_const(L, op); return;
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS: lower_program_id(L, op); return;
    case IR_IOTA: llvm_math_iota(L, op); return;
    case IR_BROADCAST:
    case IR_RESHAPE:
    case IR_PERMUTE:
    case IR_FLIP:
    case IR_TRANSPOSE:
    case IR_EXTRACT: llvm_convert_shape_op(L, op); return;
    case IR_REDUCE: llvm_reduce_op(L, op); return;
    case IR_SCAN: llvm_scan_op(L, op); return;
    case IR_PRINT: llvm_debug_print(L, op); return;
    case IR_ASSERT: llvm_debug_assert(L, op, ir_assert_index(L->kernel, op)); return;
    case IR_DOT: llvm_dot_op(L, op); return;
    case IR_VIEW: llvm_memory_view(L, op); return;
    case IR_LOAD: llvm_memory_load(L, op); return;
    case IR_STORE: llvm_memory_store(L, op); return;
    case IR_ATOMIC: llvm_memory_atomic(L, op); return;
    case IR_GATHER: llvm_memory_gather(L, op); return;
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC: llvm_memory_scatter(L, op); return;
    case IR_ALLOC: llvm_memory_alloc(L, op); return;
    case IR_ASYNC_COPY:
        if (L->plan->tma)
            llvm_tma_copy(L, op);
        else
            llvm_memory_async_copy(L, op);
        return;
    case IR_ASYNC_COMMIT:
        if (L->plan->tma)
            llvm_tma_commit(L);
        else
            llvm_kernel_intrinsic(L, "llvm.nvvm.cp.async.commit.group", NULL, 0, NULL, 0);
        return;
    case IR_ASYNC_WAIT: {
        if (L->plan->tma) {
            llvm_tma_wait(L, op);
            return;
        }
        /* cp.async.wait_group N (PTX ISA 9.7.9.25.3.3), then the barrier
           barrier.c placed after it; a carrying dot's wait is the dot's
           (llvm_dot.c) */
        if (layout_op_plan(L->plan, op)->carry_dot)
            return;
        llvm_kernel_async_wait(L, op);
        return;
    }
    case IR_FOR: lower_for(L, op); return;
    case IR_IF: lower_if(L, op); return;
    case IR_YIELD: return;   /* read by the parent for/if */
    default: break;
    }
    if (ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode) ||
        op->opcode == IR_SELECT || op->opcode == IR_CAST || op->opcode == IR_BITCAST) {
        llvm_math_elementwise(L, op);
        return;
    }
    INTERNAL_ERROR("kernel '%s': no LLVM lowering for op '%s'", L->kernel->name, ir_opcode_name(op->opcode));
}

static void lower_block(Lowering *L, IrBlock *block) {
    for (IrOp *op = block->first; op; op = op->next) {
        const OpPlan *p = layout_op_plan(L->plan, op);
        /* the producer has no dot to defer its copies past */
        if (L->producer_mode ? p->producer : !p->deferred_to) {
            if (!p->elided)
                llvm_dot_settle(L, op);
            lower_op(L, op);
        }
    }
    llvm_dot_settle(L, NULL);
    /* the block's loops' hoisted conversions: read after them in it (convert.c) */
    for (IrOp *op = block->first; op; op = op->next)
        if (op->opcode == IR_FOR)
            drop_hoisted(L, layout_op_plan(L->plan, op));
}

void llvm_kernel_lower_deferred(Lowering *L, const OpPlan *dot) {
    for (IrOp *op = dot->op->parent->first; op != dot->op; op = op->next)
        if (layout_op_plan(L->plan, op)->deferred_to == dot)
            lower_op(L, op);
}

/* ---- the kernel function ------------------------------------------------------------------ */

/* setmaxnreg.{inc,dec}.sync.aligned.u32 (PTX ISA 9.7.19.5): every warp of
   the warpgroup, before the registers are used. */
static void set_max_registers(Lowering *L, bool more, int registers) {
    if (registers == 0)
        return;
    LLVMValueRef n = llvm_kernel_i32(L, registers);
    llvm_kernel_intrinsic(L, more ? "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32" : "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32",
                          NULL, 0, &n, 1);
}

/* Warp specialization (--hopper-schedule producer, tma.c
   producer_schedule): the threads from plan->threads on are the producer
   warpgroup. It gives registers up, and its first warp runs the producer's
   slice of the body (OpPlan.producer: every async copy and commit, and the
   scalars, views and control flow they depend on; llvm_tma.c issues and
   arms them) and returns. The consumers take the registers and go on with
   the whole body, in which an async copy only counts its bytes and a
   commit counts each warp out of the slot (llvm_tma.c); their block
   barriers are their own from here on. The values the producer lowered
   are forgotten: the consumers lower every op afresh. */
static void split_producer(Lowering *L) {
    const KernelPlan *plan = L->plan;
    LLVMBasicBlockRef producer = llvm_kernel_block(L, "producer");
    LLVMBasicBlockRef issue = llvm_kernel_block(L, "producer.issue");
    LLVMBasicBlockRef idle = llvm_kernel_block(L, "producer.done");
    LLVMBasicBlockRef consumer = llvm_kernel_block(L, "consumer");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, L->tid, llvm_kernel_i32(L, plan->threads), ""), producer,
                    consumer);
    LLVMPositionBuilderAtEnd(L->b, producer);
    set_max_registers(L, false, plan->producer_registers);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, L->warp, llvm_kernel_i32(L, plan->threads / 32), ""), issue,
                    idle);
    LLVMPositionBuilderAtEnd(L->b, issue);
    size_t bytes = sizeof(Tile *) * (size_t)(plan->num_values + 1), ref_bytes = sizeof(Ref *) * (size_t)(plan->num_values + 1);
    Tile **tiles = ARENA_ARRAY(&L->kernel->arena, Tile *, plan->num_values + 1);
    Ref **refs = ARENA_ARRAY(&L->kernel->arena, Ref *, plan->num_values + 1);
    memcpy(tiles, L->tiles, bytes);
    memcpy(refs, L->refs, ref_bytes);
    L->producer_mode = true;
    lower_block(L, L->kernel->body);
    L->producer_mode = false;
    memcpy(L->tiles, tiles, bytes);
    memcpy(L->refs, refs, ref_bytes);
    LLVMBuildBr(L->b, idle);
    LLVMPositionBuilderAtEnd(L->b, idle);
    LLVMBuildRetVoid(L->b);
    LLVMPositionBuilderAtEnd(L->b, consumer);
    set_max_registers(L, true, plan->consumer_registers);
    L->consumers_only = true;
}

static LLVMTypeRef param_type(Lowering *L, const IrParam *p) {
    if (p->kind == PARAM_ARRAY)
        return L->ptr_global;
    if (p->kind == PARAM_SIZE)
        return L->i32;
    return llvm_kernel_mem_type(L, p->value->type.dtype);
}

static void add_enum_attribute(Lowering *L, LLVMValueRef fn, unsigned index, const char *name) {
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    if (kind == 0)
        INTERNAL_ERROR("LLVM has no attribute '%s'", name);
    LLVMAddAttributeAtIndex(fn, index, LLVMCreateEnumAttribute(L->ctx, kind, 0));
}

bool llvm_kernel_lower(KernelPlan *plan, LLVMContextRef ctx, LLVMModuleRef module, const char *entry,
                       char *error, size_t error_size) {
    IrKernel *kernel = plan->kernel;
    Lowering lowering = {.ctx = ctx, .module = module, .plan = plan, .kernel = kernel};
    Lowering *L = &lowering;
    L->grouped_grid = grouped_grid(plan);
    L->heavy_first = !L->grouped_grid && heavy_first_grid(plan);
    L->i1 = LLVMInt1TypeInContext(ctx);
    L->i8 = LLVMInt8TypeInContext(ctx);
    L->i16 = LLVMInt16TypeInContext(ctx);
    L->i32 = LLVMInt32TypeInContext(ctx);
    L->i64 = LLVMInt64TypeInContext(ctx);
    L->f16 = LLVMHalfTypeInContext(ctx);
    L->bf16 = LLVMBFloatTypeInContext(ctx);
    L->f32 = LLVMFloatTypeInContext(ctx);
    L->f64 = LLVMDoubleTypeInContext(ctx);
    L->ptr_global = LLVMPointerTypeInContext(ctx, 1);
    L->ptr_shared = LLVMPointerTypeInContext(ctx, 3);
    L->void_type = LLVMVoidTypeInContext(ctx);
    L->tiles = ARENA_ARRAY(&kernel->arena, Tile *, plan->num_values + 1);
    L->refs = ARENA_ARRAY(&kernel->arena, Ref *, plan->num_values + 1);
    L->converted = ARENA_ARRAY(&kernel->arena, Tile *, plan->num_converts + 1);

    /* a TMA plan's tensor maps (tma.c) after the kernel's parameters: each a
       CUtensorMap passed by value, `.param .align 64 .b8 [128]`, read in
       place (nvvm.grid_constant, toolchain.md) */
    int num_params = kernel->num_params + (plan->tma ? plan->num_tma_maps : 0);
    LLVMTypeRef *params = ARENA_ARRAY(&kernel->arena, LLVMTypeRef, num_params + 1);
    for (int i = 0; i < num_params; i++)
        params[i] = i < kernel->num_params ? param_type(L, &kernel->params[i]) : LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef fty = LLVMFunctionType(L->void_type, params, (unsigned)num_params, 0);
    L->fn = LLVMAddFunction(module, entry, fty);
    LLVMSetFunctionCallConv(L->fn, LLVMPTXKernelCallConv);
    char threads[32];
    snprintf(threads, sizeof threads, "%d,1,1", plan->threads + plan->producer_threads);
    /* A producer warpgroup's entry launched with fewer threads would have
       no producer, and its consumers would wait forever: `.reqntid` makes
       such a launch fail instead (CUDA_ERROR_INVALID_VALUE). */
    const char *ntid = plan->producer_threads ? "nvvm.reqntid" : "nvvm.maxntid";
    LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, ntid, 12, threads, (unsigned)strlen(threads)));
    /* .minnctapersm: ptxas then keeps the registers to fit; with a
       producer warpgroup one block a multiprocessor, as setmaxnreg's split
       of the registers assumes */
    int blocks = plan->producer_threads ? 1 : target_blocks_per_sm(plan);
    /* ... and with setmaxnreg, `.minnctapersm 1` says so: ptxas then gives
       the entry all of maxntid's registers (65536 / 384 = 168), which the
       consumers' setmaxnreg.inc takes from the block's own pool (PTX ISA
       9.7.19.5: it blocks until the pool has them). Without it ptxas may
       give fewer (76 on a D 32 attention), and the increase never returns. */
    if (blocks > 1 || plan->consumer_registers) {
        char text[16];
        snprintf(text, sizeof text, "%d", blocks);
        LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, "nvvm.minctasm", 13, text, (unsigned)strlen(text)));
    }
    add_enum_attribute(L, L->fn, LLVMAttributeFunctionIndex, "nounwind");
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        LLVMValueRef arg = LLVMGetParam(L->fn, (unsigned)i);
        LLVMSetValueName2(arg, p->name, strlen(p->name));
        if (p->kind == PARAM_ARRAY) {
            add_enum_attribute(L, L->fn, (unsigned)i + 1, "noalias");
            if (p->value->type.access == ACCESS_IN)
                add_enum_attribute(L, L->fn, (unsigned)i + 1, "readonly");
        }
    }

    for (int i = kernel->num_params; i < num_params; i++) {
        unsigned index = (unsigned)i + 1;
        unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5), align = LLVMGetEnumAttributeKindForName("align", 5);
        LLVMAddAttributeAtIndex(L->fn, index, LLVMCreateTypeAttribute(ctx, byval, LLVMArrayType2(L->i8, 128)));
        LLVMAddAttributeAtIndex(L->fn, index, LLVMCreateEnumAttribute(ctx, align, 64));
        LLVMAddAttributeAtIndex(L->fn, index, LLVMCreateStringAttribute(ctx, "nvvm.grid_constant", 18, "", 0));
        char name[32];
        snprintf(name, sizeof name, "tensor_map%d", i - kernel->num_params);
        LLVMSetValueName2(LLVMGetParam(L->fn, (unsigned)i), name, strlen(name));
    }

    /* The dynamic shared buffer: `extern .shared .align 16 .b8 smem[]` (PTX
       ISA 5.1.5); its size is the launch's dynamic shared bytes, so the
       allocator's total can pass 48 KB. With wgmma, .align 1024: the
       swizzled allocs' offsets are multiples of 1024 from it (shared_alloc.c),
       and the swizzle pattern counts from 1024-byte boundaries. */
    LLVMTypeRef smem_type = LLVMArrayType2(L->i8, 0);
    L->smem = LLVMGetNamedGlobal(module, "tessera_smem");   /* a module's second entry: the TMA one */
    if (!L->smem) {
        L->smem = LLVMAddGlobalInAddressSpace(module, smem_type, "tessera_smem", 3);
        LLVMSetLinkage(L->smem, LLVMExternalLinkage);
    }
    if (LLVMGetAlignment(L->smem) < (plan->wgmma ? 1024u : 16u))
        LLVMSetAlignment(L->smem, plan->wgmma ? 1024 : 16);

    L->b = LLVMCreateBuilderInContext(ctx);
    L->entry = LLVMCreateBuilderInContext(ctx);
    LLVMBasicBlockRef entry_bb = llvm_kernel_block(L, "entry");
    LLVMBasicBlockRef body_bb = llvm_kernel_block(L, "body");
    LLVMPositionBuilderAtEnd(L->b, entry_bb);
    L->tid = sreg(L, "llvm.nvvm.read.ptx.sreg.tid.x");
    L->lane = LLVMBuildAnd(L->b, L->tid, llvm_kernel_i32(L, 31), "lane");
    L->warp = LLVMBuildLShr(L->b, L->tid, llvm_kernel_i32(L, 5), "warp");
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        LLVMValueRef arg = LLVMGetParam(L->fn, (unsigned)i);
        if (p->kind == PARAM_ARRAY) {
            llvm_memory_param(L, p, arg);
        } else {
            LLVMValueRef v = arg;
            if (p->value->type.dtype == DT_BOOL)
                v = LLVMBuildICmp(L->b, LLVMIntNE, arg, LLVMConstInt(L->i8, 0, 0), "");
            IrType t = p->value->type;
            llvm_kernel_set_tile(L, p->value, llvm_kernel_splat(L, layout_blocked_default(kernel, &t, plan->threads), &t, v));
        }
    }
    LLVMValueRef branch = LLVMBuildBr(L->b, body_bb);
    LLVMPositionBuilderBefore(L->entry, branch);
    LLVMPositionBuilderAtEnd(L->b, body_bb);
    if (plan->tma)
        llvm_tma_begin(L);
    if (plan->producer_threads)
        split_producer(L);
    lower_block(L, kernel->body);
    if (plan->tma)
        llvm_tma_end(L);
    LLVMBuildRetVoid(L->b);
    LLVMDisposeBuilder(L->b);
    LLVMDisposeBuilder(L->entry);

    char *message = NULL;
    if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
        snprintf(error, error_size, "kernel '%s': invalid LLVM IR: %.400s", kernel->name, message ? message : "");
        LLVMDisposeMessage(message);
        return false;
    }
    LLVMDisposeMessage(message);
    return true;
}
