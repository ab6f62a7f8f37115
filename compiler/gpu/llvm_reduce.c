/*
 * llvm_reduce.c: reductions over one axis (sum, max, min).
 *
 * The result has the slice layout of the operand's (layout_assign). Three
 * steps, as in Triton:
 *  1. within a thread: combine the registers along the axis;
 *  2. within a warp: a butterfly over the lane bits of the axis,
 *     shfl.sync.bfly (PTX ISA 9.7.8.6), after which every lane of a group
 *     holds the group's value;
 *  3. across warps (only when the axis spans several warps): each warp
 *     writes its partial to the op's shared scratch, barrier, every thread
 *     reads all partials of its elements and combines them (which is also
 *     the broadcast of the result: no further barrier). The scratch has two
 *     slots; a reduction writes the one no thread has accessed since the
 *     last barrier, so back-to-back reductions (softmax's max then sum)
 *     need one barrier each instead of two (barrier.c chooses the slot).
 * Threads that hold copies of the same elements (replicated layouts) take
 * part in every step with equal values, so every thread ends with the
 * result for the elements its slice layout gives it.
 */
#include "llvm_lower.h"

LLVMValueRef llvm_reduce_combine(Lowering *L, IrCombine combine, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    switch (combine) {
    case COMBINE_ADD: return llvm_math_binary(L, IR_ADD, dtype, a, b);
    case COMBINE_MAX: return llvm_math_binary(L, IR_MAX, dtype, a, b);
    case COMBINE_MIN: return llvm_math_binary(L, IR_MIN, dtype, a, b);
    }
    return a;
}

/* shfl.sync.bfly.b32 moves 32 bits; narrower types widen, 64-bit ones go
   as two halves. */
static LLVMValueRef shuffle_xor(Lowering *L, LLVMValueRef v, int mask) {
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMTypeKind kind = LLVMGetTypeKind(t);
    unsigned bits = kind == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) :
                    kind == LLVMDoubleTypeKind ? 64 : kind == LLVMFloatTypeKind ? 32 : 16;
    LLVMTypeRef ibits = LLVMIntTypeInContext(L->ctx, bits);
    LLVMValueRef x = kind == LLVMIntegerTypeKind ? v : LLVMBuildBitCast(L->b, v, ibits, "");
    LLVMValueRef out;
    if (bits == 64) {
        LLVMValueRef lo = LLVMBuildTrunc(L->b, x, L->i32, "");
        LLVMValueRef hi = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, x, llvm_kernel_i64(L, 32), ""), L->i32, "");
        LLVMValueRef a1[4] = {llvm_kernel_i32(L, -1), lo, llvm_kernel_i32(L, mask), llvm_kernel_i32(L, 31)};
        LLVMValueRef a2[4] = {llvm_kernel_i32(L, -1), hi, llvm_kernel_i32(L, mask), llvm_kernel_i32(L, 31)};
        lo = llvm_kernel_intrinsic(L, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, a1, 4);
        hi = llvm_kernel_intrinsic(L, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, a2, 4);
        out = LLVMBuildOr(L->b, LLVMBuildZExt(L->b, lo, L->i64, ""),
                          LLVMBuildShl(L->b, LLVMBuildZExt(L->b, hi, L->i64, ""), llvm_kernel_i64(L, 32), ""), "");
    } else {
        LLVMValueRef w = bits == 32 ? x : LLVMBuildZExt(L->b, x, L->i32, "");
        LLVMValueRef args[4] = {llvm_kernel_i32(L, -1), w, llvm_kernel_i32(L, mask), llvm_kernel_i32(L, 31)};
        out = llvm_kernel_intrinsic(L, "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, args, 4);
        if (bits != 32)
            out = LLVMBuildTrunc(L->b, out, ibits, "");
    }
    return kind == LLVMIntegerTypeKind ? out : LLVMBuildBitCast(L->b, out, t, "");
}

void llvm_reduce_op(Lowering *L, IrOp *op) {
    IrValue *src_value = op->operands[0], *r = op->results[0];
    Tile *src = llvm_kernel_operand(L, op, 0);
    DType dtype = src_value->type.dtype;
    int axis = op->axis;
    if (axis < 0 || axis >= src->type.rank)
        INTERNAL_ERROR("kernel '%s': reduce over axis %d of rank %d", L->kernel->name, axis, src->type.rank);
    /* The result in the slice layout: its registers are the source's with
       the axis removed, in the same order. */
    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    /* 1. within the thread */
    for (int64_t o = 0; o < out->num_regs; o++) {
        int64_t idx[IR_MAX_RANK], rest = o;
        for (int d = src->type.rank - 1; d >= 0; d--) {
            if (d == axis) {
                idx[d] = 0;
                continue;
            }
            int64_t regs = layout_dim_regs(src->map, d);
            idx[d] = rest % regs;
            rest /= regs;
        }
        LLVMValueRef acc = NULL;
        for (int64_t k = 0; k < layout_dim_regs(src->map, axis); k++) {
            idx[axis] = k;
            LLVMValueRef v = src->regs[layout_reg_index(src->map, idx)];
            acc = acc ? llvm_reduce_combine(L, op->combine, dtype, acc, v) : v;
        }
        out->regs[o] = acc;
    }
    /* 2. across the lanes along the axis */
    int masks[LAYOUT_MAX_LANE_MASKS];
    int num_masks = layout_reduce_lane_masks(src->map, axis, masks);
    for (int i = 0; i < num_masks; i++)
        for (int64_t o = 0; o < out->num_regs; o++)
            out->regs[o] = llvm_reduce_combine(L, op->combine, dtype, out->regs[o], shuffle_xor(L, out->regs[o], masks[i]));
    /* 3. across the warps along the axis */
    LayoutTerm warp_index;
    int warps = layout_reduce_warps(src->map, axis, &warp_index);
    if (warps > 1) {
        OpPlan *p = layout_op_plan(L->plan, op);
        int64_t offset = p->scratch_offset;
        int64_t elements = ir_type_elements(&r->type);
        /* Two slots of warps x elements partials; barrier_plan chose
           the slot and whether a barrier goes before the writes. */
        int64_t slot_bytes = (int64_t)warps * elements * llvm_kernel_mem_bytes(dtype);
        offset += p->reduce_slot * slot_bytes;
        llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
        ThreadInfo *ti = llvm_kernel_thread(L, out->layout, &out->type);
        LLVMValueRef warp = llvm_kernel_term(L, &warp_index);
        LLVMValueRef *linear = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->num_regs + 1);
        for (int64_t o = 0; o < out->num_regs; o++) {
            LLVMValueRef coords[IR_MAX_RANK];
            for (int d = 0; d < r->type.rank; d++)
                coords[d] = llvm_kernel_coord(L, out, ti, o, d);
            linear[o] = llvm_convert_linear(L, &r->type, coords);
        }
        for (int64_t o = 0; o < out->num_regs; o++) {
            LLVMValueRef slot = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, warp, llvm_kernel_i32(L, elements), ""), linear[o], "");
            LLVMValueRef base = llvm_kernel_smem(L, llvm_kernel_i32(L, offset));
            LLVMValueRef ptr = LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, dtype), base, &slot, 1, "");
            LLVMValueRef v = dtype == DT_BOOL ? LLVMBuildZExt(L->b, out->regs[o], L->i8, "") : out->regs[o];
            LLVMSetAlignment(LLVMBuildStore(L->b, v, ptr), (unsigned)llvm_kernel_mem_bytes(dtype));
        }
        /* The partials are read by every thread: a barrier between the
           writes and the reads. */
        llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_READ);
        for (int64_t o = 0; o < out->num_regs; o++) {
            LLVMValueRef acc = NULL;
            for (int w = 0; w < warps; w++) {
                LLVMValueRef slot = LLVMBuildAdd(L->b, llvm_kernel_i32(L, (int64_t)w * elements), linear[o], "");
                LLVMValueRef v = llvm_convert_read_shared(L, dtype, offset, slot);
                acc = acc ? llvm_reduce_combine(L, op->combine, dtype, acc, v) : v;
            }
            out->regs[o] = acc;
        }
    }
    if (r->type.rank == 0)
        out->splat = out->regs[0];
    llvm_kernel_set_tile(L, r, out);
}
