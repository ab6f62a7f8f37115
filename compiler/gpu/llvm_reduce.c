/*
 * llvm_reduce.c: reductions over one axis (sum, max, min) and scans along one
 * (cumsum, cumprod, cummax, cummin; llvm_scan_op below).
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
    case COMBINE_MUL: return llvm_math_binary(L, IR_MUL, dtype, a, b);
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
        /* In register order, a chain. A balanced tree for max (exact in any
           order) measured 0.977-0.989x on D 128 flash attention on the
           H200 (docs/performance.md, session 39), with the same count of
           instructions; the chain holds one register a row, the tree up to
           half the row's. */
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

/* ---- scans ---------------------------------------------------------------------------------- */

/* The value that a combine leaves the other operand unchanged by: -0.0 for
   a float sum (-0.0 + x is x for every x, -0.0 included), 1 for a product,
   the dtype's lowest (highest) value for max (min). */
static LLVMValueRef scan_identity(Lowering *L, IrCombine combine, DType dtype) {
    LLVMTypeRef t = llvm_kernel_reg_type(L, dtype);
    if (dtype_is_float(dtype)) {
        double v = combine == COMBINE_ADD ? -0.0 : combine == COMBINE_MUL ? 1.0 :
                   combine == COMBINE_MAX ? -__builtin_inf() : __builtin_inf();
        return LLVMConstReal(t, v);
    }
    int bits = dtype_bytes(dtype) * 8;
    bool is_signed = dtype_is_signed(dtype);
    uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t v = combine == COMBINE_ADD ? 0 : combine == COMBINE_MUL ? 1 :
                 combine == COMBINE_MAX ? (is_signed ? 1ull << (bits - 1) : 0) :
                 (is_signed ? all >> 1 : all);
    return LLVMConstInt(t, v, 0);
}

/* An inclusive scan along one axis (IR_SCAN), in the layout layout.c chose
   (OpPlan.scan_*): along the axis a thread holds `reps` runs of `chunk`
   consecutive elements, lanes and then warps take consecutive runs.
   Four steps, each combining what lies before an element, in order:
    1. within the thread: each run scanned in registers;
    2. within the warp: a hypercube scan of the runs' totals over the lane
       bits of the axis (shfl.sync.bfly, smallest first): at each bit a
       lane with the bit set adds its partner's subcube total in front of
       its exclusive prefix; every lane ends with its subcube's total;
    3. across warps: each warp's totals to the op's scratch, a barrier,
       every thread combines the totals of the warps before its own;
    4. across repeats: the totals of the runs before, in registers.
   Float sums and products combine in another order than the
   interpreter's, which goes element by element. */
void llvm_scan_op(Lowering *L, IrOp *op) {
    IrValue *r = op->results[0];
    Tile *src = llvm_kernel_operand(L, op, 0);
    const OpPlan *p = layout_op_plan(L->plan, op);
    DType dtype = r->type.dtype;
    IrCombine combine = op->combine;
    int axis = op->axis, rank = r->type.rank;
    int64_t chunk = p->scan_chunk, lanes = p->scan_lanes, warps = p->scan_warps, reps = p->scan_reps;
    int64_t reach = chunk * lanes * warps, axis_regs = layout_dim_regs(src->map, axis);
    if (axis_regs != chunk * reps)
        INTERNAL_ERROR("kernel '%s': scan with %lld registers along its axis, not %lld x %lld", L->kernel->name,
                       (long long)axis_regs, (long long)reps, (long long)chunk);
    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    LLVMValueRef identity = scan_identity(L, combine, dtype);
    int masks[LAYOUT_MAX_LANE_MASKS];
    int num_masks = layout_reduce_lane_masks(src->map, axis, masks);
    if ((1 << num_masks) != lanes)
        INTERNAL_ERROR("kernel '%s': scan over %d lane bits for %lld lanes", L->kernel->name, num_masks,
                       (long long)lanes);
    LayoutTerm warp_term;
    LLVMValueRef warp = NULL;
    if (warps > 1) {
        if (layout_reduce_warps(src->map, axis, &warp_term) != warps)
            INTERNAL_ERROR("kernel '%s': scan across warps that the layout does not give", L->kernel->name);
        warp = llvm_kernel_term(L, &warp_term);
    }
    /* The rows: every register index with the axis index 0. */
    int64_t rows = src->num_regs / axis_regs;
    int64_t row_elements = ir_type_elements(&r->type) / r->type.dims[axis].size;
    IrType row_type = r->type;   /* the tile without the axis: the scratch's row index */
    for (int d = axis; d + 1 < rank; d++)
        row_type.dims[d] = row_type.dims[d + 1];
    row_type.rank--;
    ThreadInfo *ti = warps > 1 ? llvm_kernel_thread(L, src->layout, &src->type) : NULL;
    LLVMValueRef *totals = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)(rows * reps) + 1);
    LLVMValueRef *row_index = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)rows + 1);
    int64_t *reg_of = ARENA_ARRAY(&L->kernel->arena, int64_t, (size_t)(rows * axis_regs) + 1);
    for (int64_t row = 0; row < rows; row++) {
        /* the registers of this row, by (rep, e) from their offsets */
        int64_t idx[IR_MAX_RANK], rest = row;
        for (int d = rank - 1; d >= 0; d--) {
            if (d == axis)
                continue;
            int64_t n = layout_dim_regs(src->map, d);
            idx[d] = rest % n;
            rest /= n;
        }
        for (int64_t k = 0; k < axis_regs; k++) {
            idx[axis] = k;
            int64_t reg = layout_reg_index(src->map, idx), offsets[IR_MAX_RANK];
            layout_reg_offsets(src->map, reg, offsets);
            int64_t rep = offsets[axis] / reach, e = offsets[axis] % reach;
            if (e >= chunk || rep >= reps)
                INTERNAL_ERROR("kernel '%s': scan register at offset %lld outside its runs", L->kernel->name,
                               (long long)offsets[axis]);
            reg_of[row * axis_regs + rep * chunk + e] = reg;
        }
        /* 1. each run in registers */
        for (int64_t rep = 0; rep < reps; rep++) {
            LLVMValueRef acc = NULL;
            for (int64_t e = 0; e < chunk; e++) {
                int64_t reg = reg_of[row * axis_regs + rep * chunk + e];
                acc = acc ? llvm_reduce_combine(L, combine, dtype, acc, src->regs[reg]) : src->regs[reg];
                out->regs[reg] = acc;
            }
            totals[row * reps + rep] = acc;
        }
        if (warps > 1) {
            LLVMValueRef coords[IR_MAX_RANK];
            int64_t reg0 = reg_of[row * axis_regs];
            for (int d = 0, k = 0; d < rank; d++)
                if (d != axis)
                    coords[k++] = llvm_kernel_coord(L, src, ti, reg0, d);
            row_index[row] = row_type.rank ? llvm_convert_linear(L, &row_type, coords) : llvm_kernel_i32(L, 0);
        }
    }
    /* 2. the lanes: exclusive prefix of each run (lane_prefix) and the
       warp's total of it (totals) */
    LLVMValueRef *lane_prefix = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)(rows * reps) + 1);
    for (int64_t i = 0; i < rows * reps; i++)
        lane_prefix[i] = NULL;
    for (int m = 0; m < num_masks; m++) {
        LLVMValueRef bit = LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildAnd(L->b, L->lane, llvm_kernel_i32(L, masks[m]), ""),
                                         llvm_kernel_i32(L, 0), "");
        for (int64_t i = 0; i < rows * reps; i++) {
            LLVMValueRef partner = shuffle_xor(L, totals[i], masks[m]);
            LLVMValueRef before = lane_prefix[i] ? llvm_reduce_combine(L, combine, dtype, partner, lane_prefix[i]) : partner;
            lane_prefix[i] = LLVMBuildSelect(L->b, bit, before, lane_prefix[i] ? lane_prefix[i] : identity, "");
            LLVMValueRef low_first = llvm_reduce_combine(L, combine, dtype, totals[i], partner);
            LLVMValueRef high_first = llvm_reduce_combine(L, combine, dtype, partner, totals[i]);
            totals[i] = LLVMBuildSelect(L->b, bit, high_first, low_first, "");
        }
    }
    /* 3. the warps: warp_prefix (totals of the warps before) and the run's
       total over all warps */
    LLVMValueRef *warp_prefix = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)(rows * reps) + 1);
    for (int64_t i = 0; i < rows * reps; i++)
        warp_prefix[i] = NULL;
    if (warps > 1) {
        int64_t offset = p->scratch_offset;
        llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
        LLVMTypeRef mem = llvm_kernel_mem_type(L, dtype);
        LLVMValueRef base = llvm_kernel_smem(L, llvm_kernel_i32(L, offset));
        for (int64_t row = 0; row < rows; row++)
            for (int64_t rep = 0; rep < reps; rep++) {
                LLVMValueRef slot = LLVMBuildAdd(
                    L->b, LLVMBuildMul(L->b, LLVMBuildAdd(L->b, warp, llvm_kernel_i32(L, rep * warps), ""),
                                       llvm_kernel_i32(L, row_elements), ""),
                    row_index[row], "");
                LLVMValueRef ptr = LLVMBuildGEP2(L->b, mem, base, &slot, 1, "");
                LLVMSetAlignment(LLVMBuildStore(L->b, totals[row * reps + rep], ptr), (unsigned)dtype_bytes(dtype));
            }
        llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_READ);
        for (int64_t row = 0; row < rows; row++)
            for (int64_t rep = 0; rep < reps; rep++) {
                LLVMValueRef before = identity, all = NULL;
                for (int64_t w = 0; w < warps; w++) {
                    LLVMValueRef slot = LLVMBuildAdd(L->b, llvm_kernel_i32(L, (rep * warps + w) * row_elements),
                                                     row_index[row], "");
                    LLVMValueRef v = llvm_convert_read_shared(L, dtype, offset, slot);
                    LLVMValueRef earlier = LLVMBuildICmp(L->b, LLVMIntULT, llvm_kernel_i32(L, w), warp, "");
                    before = LLVMBuildSelect(L->b, earlier, w ? llvm_reduce_combine(L, combine, dtype, before, v) : v,
                                             before, "");
                    all = all ? llvm_reduce_combine(L, combine, dtype, all, v) : v;
                }
                warp_prefix[row * reps + rep] = before;
                totals[row * reps + rep] = all;
            }
    }
    /* 4. the repeats, and every element's prefix in front of its run's */
    for (int64_t row = 0; row < rows; row++) {
        LLVMValueRef carry = NULL;
        for (int64_t rep = 0; rep < reps; rep++) {
            int64_t i = row * reps + rep;
            LLVMValueRef prefix = carry;
            if (warp_prefix[i])
                prefix = prefix ? llvm_reduce_combine(L, combine, dtype, prefix, warp_prefix[i]) : warp_prefix[i];
            if (lane_prefix[i])
                prefix = prefix ? llvm_reduce_combine(L, combine, dtype, prefix, lane_prefix[i]) : lane_prefix[i];
            for (int64_t e = 0; prefix && e < chunk; e++) {
                int64_t reg = reg_of[row * axis_regs + rep * chunk + e];
                out->regs[reg] = llvm_reduce_combine(L, combine, dtype, prefix, out->regs[reg]);
            }
            carry = carry ? llvm_reduce_combine(L, combine, dtype, carry, totals[i]) : totals[i];
        }
    }
    llvm_kernel_set_tile(L, r, out);
}
