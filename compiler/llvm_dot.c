/*
 * llvm_dot.c: dot(a[m,k], b[k,n] [, acc]) with FMAs.
 *
 * The correct-for-every-dtype path that tensor-core layouts will replace
 * for the pairs they cover (mma.sync m16n8k16 for f16/bf16 on sm_80+, wgmma
 * on sm_90a). Both operands are staged row-major in the op's shared scratch
 * (barrier, write, barrier); then a loop over k in which each thread loads
 * the a elements of its result rows and the b elements of its result
 * columns and does one fma per result register (PTX ISA 9.7.3.6 fma.rn).
 * Operands widen to the result dtype first: f16, bf16 and f32 accumulate in
 * f32 (f32 inputs in full f32, not tf32), integers in i32 (signed or not by
 * their dtype).
 */
#include "llvm_lower.h"

static int64_t dot_align16(int64_t v) { return (v + 15) & ~(int64_t)15; }

void llvm_dot_op(Lowering *L, IrOp *op) {
    IrValue *av = op->operands[0], *bv = op->operands[1], *r = op->results[0];
    if (av->type.rank != 2 || bv->type.rank != 2 || r->type.rank != 2)
        INTERNAL_ERROR("kernel '%s': dot of rank %d and %d", L->kernel->name, av->type.rank, bv->type.rank);
    int64_t m = av->type.dims[0].size, k = av->type.dims[1].size, n = bv->type.dims[1].size;
    DType rt = r->type.dtype;
    bool is_float = dtype_is_float(rt);
    OpPlan *p = layout_op_plan(L->plan, op);

    Tile *acc_in = op->num_operands > 2 ? llvm_kernel_operand(L, op, 2) : NULL;
    Tile *a = llvm_kernel_operand(L, op, 0), *b = llvm_kernel_operand(L, op, 1);
    int64_t a_offset = p->scratch_offset;
    int64_t b_offset = a_offset + dot_align16(m * k * llvm_kernel_mem_bytes(av->type.dtype));
    llvm_kernel_barrier(L);
    llvm_convert_write_shared(L, a, a_offset);
    llvm_convert_write_shared(L, b, b_offset);
    llvm_kernel_barrier(L);

    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    ThreadInfo *ti = llvm_kernel_thread(L, out->layout, &out->type);
    int64_t rows = out->map.dims[0].regs, cols = out->map.dims[1].regs;
    LLVMValueRef *row = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, rows + 1);
    LLVMValueRef *col = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, cols + 1);
    for (int64_t i = 0; i < rows; i++)
        row[i] = llvm_kernel_coord(L, out, ti, i * cols, 0);
    for (int64_t j = 0; j < cols; j++)
        col[j] = llvm_kernel_coord(L, out, ti, j, 1);

    LLVMTypeRef rtype = llvm_kernel_reg_type(L, rt);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef loop = llvm_kernel_block(L, "dot.k");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "dot.done");
    LLVMBuildBr(L->b, loop);
    LLVMPositionBuilderAtEnd(L->b, loop);
    LLVMValueRef kk = LLVMBuildPhi(L->b, L->i32, "k");
    LLVMValueRef zero = llvm_kernel_i32(L, 0);
    LLVMAddIncoming(kk, &zero, &pre, 1);
    LLVMValueRef *phis = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->map.num_regs + 1);
    for (int64_t reg = 0; reg < out->map.num_regs; reg++) {
        phis[reg] = LLVMBuildPhi(L->b, rtype, "");
        LLVMValueRef init = acc_in ? acc_in->regs[reg] : LLVMConstNull(rtype);
        LLVMAddIncoming(phis[reg], &init, &pre, 1);
    }
    LLVMValueRef *av_k = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, rows + 1);
    LLVMValueRef *bv_k = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, cols + 1);
    for (int64_t i = 0; i < rows; i++) {
        LLVMValueRef idx = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, row[i], llvm_kernel_i32(L, k), ""), kk, "");
        av_k[i] = llvm_math_cast(L, llvm_convert_read_shared(L, av->type.dtype, a_offset, idx), av->type.dtype, rt);
    }
    for (int64_t j = 0; j < cols; j++) {
        LLVMValueRef idx = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, kk, llvm_kernel_i32(L, n), ""), col[j], "");
        bv_k[j] = llvm_math_cast(L, llvm_convert_read_shared(L, bv->type.dtype, b_offset, idx), bv->type.dtype, rt);
    }
    LLVMValueRef *next = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->map.num_regs + 1);
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++) {
            int64_t reg = i * cols + j;
            if (is_float) {
                LLVMValueRef args[3] = {av_k[i], bv_k[j], phis[reg]};
                next[reg] = llvm_kernel_intrinsic(L, "llvm.fma", &rtype, 1, args, 3);
            } else {
                next[reg] = LLVMBuildAdd(L->b, phis[reg], LLVMBuildMul(L->b, av_k[i], bv_k[j], ""), "");
            }
        }
    }
    LLVMValueRef k_next = LLVMBuildAdd(L->b, kk, llvm_kernel_i32(L, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
    LLVMAddIncoming(kk, &k_next, &latch, 1);
    for (int64_t reg = 0; reg < out->map.num_regs; reg++)
        LLVMAddIncoming(phis[reg], &next[reg], &latch, 1);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, k_next, llvm_kernel_i32(L, k), ""), loop, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    for (int64_t reg = 0; reg < out->map.num_regs; reg++)
        out->regs[reg] = next[reg];
    llvm_kernel_set_tile(L, r, out);
}
