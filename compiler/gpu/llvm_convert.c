/*
 * llvm_convert.c: layout conversions and shape ops (broadcast, reshape,
 * transpose, extract).
 *
 * The free cases move registers: a splat is rematerialized in any layout; a
 * broadcast in its source's layout copies the source register with the
 * broadcast dims at register 0; a reshape that only adds or drops unit dims
 * keeps the registers in order (layout_assign mapped the layout). Every
 * other case goes through the op's shared scratch buffer: barrier, each
 * thread writes its registers row-major, barrier, each thread reads the
 * elements its new layout gives it, through the op's index map (a layout
 * conversion: at the row pitch and in the vectors convert.c chose, so that
 * both sides are as free of bank conflicts as its model found). The barrier
 * before the write keeps it from meeting an earlier phase's readers of the
 * same bytes (PTX ISA 9.7.13.1 bar.sync orders shared-memory accesses of
 * the block's threads).
 */
#include "llvm_lower.h"

LLVMValueRef llvm_convert_linear(Lowering *L, const IrType *type, LLVMValueRef *coords) {
    LLVMValueRef linear = llvm_kernel_i32(L, 0);
    for (int d = 0; d < type->rank; d++) {
        linear = LLVMBuildMul(L->b, linear, llvm_kernel_i32(L, type->dims[d].size), "");
        linear = LLVMBuildAdd(L->b, linear, coords[d], "");
    }
    return linear;
}

static LLVMValueRef shared_element(Lowering *L, DType dtype, int64_t offset, LLVMValueRef index) {
    LLVMValueRef base = llvm_kernel_smem(L, llvm_kernel_i32(L, offset));
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, dtype), base, &index, 1, "");
}

void llvm_convert_write_shared(Lowering *L, Tile *t, int64_t offset) {
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    for (int64_t r = 0; r < t->num_regs; r++) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < t->type.rank; d++)
            coords[d] = llvm_kernel_coord(L, t, ti, r, d);
        LLVMValueRef ptr = shared_element(L, t->type.dtype, offset, llvm_convert_linear(L, &t->type, coords));
        LLVMValueRef v = t->regs[r];
        if (t->type.dtype == DT_BOOL)
            v = LLVMBuildZExt(L->b, v, L->i8, "");
        LLVMValueRef st = LLVMBuildStore(L->b, v, ptr);
        LLVMSetAlignment(st, (unsigned)llvm_kernel_mem_bytes(t->type.dtype));
    }
}

LLVMValueRef llvm_convert_read_shared(Lowering *L, DType dtype, int64_t offset, LLVMValueRef index) {
    LLVMValueRef ptr = shared_element(L, dtype, offset, index);
    LLVMValueRef v = LLVMBuildLoad2(L->b, llvm_kernel_mem_type(L, dtype), ptr, "");
    LLVMSetAlignment(v, (unsigned)llvm_kernel_mem_bytes(dtype));
    if (dtype == DT_BOOL)
        v = LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(L->i8, 0, 0), "");
    return v;
}

/* The element of the source that result position `coords` reads. */
static LLVMValueRef source_index(Lowering *L, const IrOp *op, const IrType *src, const IrType *dst, LLVMValueRef *coords) {
    LLVMValueRef c[IR_MAX_RANK];
    if (!op)
        return llvm_convert_linear(L, src, coords);
    switch (op->opcode) {
    case IR_TRANSPOSE:
        for (int d = 0; d < dst->rank; d++)
            c[d] = coords[d];
        if (dst->rank >= 2) {
            c[dst->rank - 2] = coords[dst->rank - 1];
            c[dst->rank - 1] = coords[dst->rank - 2];
        }
        return llvm_convert_linear(L, src, c);
    case IR_FLIP:      /* the source's element at n - 1 - c along the axis */
        for (int d = 0; d < dst->rank; d++)
            c[d] = d != op->axis ? coords[d]
                                 : LLVMBuildSub(L->b, llvm_kernel_i32(L, dst->dims[d].size - 1), coords[d], "");
        return llvm_convert_linear(L, src, c);
    case IR_PERMUTE:   /* result dim d is the source's dim starts[d] */
        for (int d = 0; d < dst->rank; d++)
            c[op->starts[d]] = coords[d];
        return llvm_convert_linear(L, src, c);
    case IR_EXTRACT:
        for (int d = 0; d < dst->rank; d++)
            c[d] = LLVMBuildAdd(L->b, coords[d], llvm_kernel_i32(L, op->starts ? op->starts[d] : 0), "");
        return llvm_convert_linear(L, src, c);
    case IR_BROADCAST: {
        int shift = dst->rank - src->rank;
        for (int d = 0; d < src->rank; d++)
            c[d] = src->dims[d].size == 1 ? llvm_kernel_i32(L, 0) : coords[d + shift];
        return llvm_convert_linear(L, src, c);
    }
    default: return llvm_convert_linear(L, dst, coords);   /* reshape: same row-major order */
    }
}

static Tile *through_shared(Lowering *L, const IrOp *op, Tile *t, const Layout *to, const IrType *dst,
                            int64_t offset, unsigned barriers) {
    llvm_kernel_barrier_at(L, barriers, BARRIER_BEFORE_WRITE);
    llvm_convert_write_shared(L, t, offset);
    llvm_kernel_barrier_at(L, barriers, BARRIER_BEFORE_READ);
    Tile *out = llvm_kernel_tile_new(L, to, dst);
    ThreadInfo *ti = llvm_kernel_thread(L, to, dst);
    for (int64_t r = 0; r < out->num_regs; r++) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < dst->rank; d++)
            coords[d] = llvm_kernel_coord(L, out, ti, r, d);
        out->regs[r] = llvm_convert_read_shared(L, t->type.dtype, offset, source_index(L, op, &t->type, dst, coords));
    }
    return out;
}

/* The free moves of registers (layout_assign chose layouts that make them
   free): a reshape that adds or drops unit dims keeps the registers in
   order; a same-rank broadcast in its source's layout reads the source
   register with the broadcast dims at 0. Fills out's registers from src's. */
static void move_registers(Lowering *L, IrOpcode opcode, Tile *out, const Tile *src) {
    if (opcode == IR_RESHAPE) {
        if (out->num_regs != src->num_regs)
            INTERNAL_ERROR("kernel '%s': reshape maps %lld registers to %lld", L->kernel->name,
                           (long long)src->num_regs, (long long)out->num_regs);
        for (int64_t i = 0; i < out->num_regs; i++)
            out->regs[i] = src->regs[i];
        return;
    }
    for (int64_t i = 0; i < out->num_regs; i++) {
        int64_t rest = i, idx[IR_MAX_RANK];
        for (int d = out->type.rank - 1; d >= 0; d--) {
            idx[d] = rest % layout_dim_regs(out->map, d);
            rest /= layout_dim_regs(out->map, d);
            if (idx[d] >= layout_dim_regs(src->map, d))
                idx[d] = 0;   /* a broadcast dim: one register */
        }
        out->regs[i] = src->regs[layout_reg_index(src->map, idx)];
    }
}

/* ---- rematerialization ---------------------------------------------------------------------- */

/* Rematerialization: convert.c decides which values are index
   expressions (iota, splats, and elementwise binary ops, selects, casts,
   same-rank broadcasts and unit-dim insertions over them, like a mask
   (j * BK + iota(BK))[None, :] < T); here they are recomputed, a few integer
   instructions per register, in the layout a user wants. */
/* A splat or single element (a value not lowered yet, the shape op being
   lowered itself, is neither: its op decides). */
static bool remat_scalar(Lowering *L, const IrValue *v) {
    Tile *t = L->tiles[v->id];
    return t && (t->splat || ir_type_elements(&v->type) == 1);
}

static Tile *remat(Lowering *L, const IrValue *v, const Layout *to) {
    if (remat_scalar(L, v)) {
        Tile *t = llvm_kernel_tile(L, v);
        return llvm_kernel_splat(L, to, &v->type, t->splat ? t->splat : t->regs[0]);
    }
    const IrOp *op = v->def;
    Tile *out = llvm_kernel_tile_new(L, to, &v->type);
    if (op->opcode == IR_IOTA) {
        ThreadInfo *ti = llvm_kernel_thread(L, to, &v->type);
        for (int64_t r = 0; r < out->num_regs; r++)
            out->regs[r] = llvm_kernel_coord(L, out, ti, r, 0);
        return out;
    }
    if (op->opcode == IR_RESHAPE || op->opcode == IR_BROADCAST) {
        const Layout *from = op->opcode == IR_RESHAPE
                                 ? layout_slice(L->kernel, to, ir_type_inserted_unit_dim(&op->operands[0]->type, &v->type))
                                 : to;
        move_registers(L, op->opcode, out, remat(L, op->operands[0], from));
        return out;
    }
    Tile *args[3] = {NULL, NULL, NULL};
    for (int i = 0; i < op->num_operands && i < 3; i++)
        args[i] = remat(L, op->operands[i], to);
    DType in = op->operands[op->opcode == IR_SELECT ? 1 : 0]->type.dtype;
    for (int64_t r = 0; r < out->num_regs; r++) {
        if (op->opcode == IR_SELECT)
            out->regs[r] = LLVMBuildSelect(L->b, args[0]->regs[r], args[1]->regs[r], args[2]->regs[r], "");
        else if (op->opcode == IR_CAST)
            out->regs[r] = llvm_math_cast(L, args[0]->regs[r], in, v->type.dtype);
        else if (op->opcode == IR_BITCAST)
            out->regs[r] = LLVMBuildBitCast(L->b, args[0]->regs[r], llvm_kernel_reg_type(L, v->type.dtype), "");
        else
            out->regs[r] = llvm_math_binary(L, op->opcode, in, args[0]->regs[r], args[1]->regs[r]);
    }
    return out;
}

Tile *llvm_convert_remat(Lowering *L, const IrValue *v, const Layout *to) {
    return remat(L, v, to);
}

Tile *llvm_convert_rebroadcast(Lowering *L, IrOp *bcast, const Layout *to, int64_t scratch_offset, unsigned barriers) {
    Tile *src = llvm_kernel_tile(L, bcast->operands[0]);
    return through_shared(L, bcast, src, to, &bcast->results[0]->type, scratch_offset, barriers);
}

/* Element index of `coords` in a conversion's buffer: row-major, rows
   `pitch` elements apart (the same arithmetic as llvm_convert_linear when
   the rows are unpadded). */
static LLVMValueRef pitched_index(Lowering *L, const IrType *type, int64_t pitch, LLVMValueRef *coords) {
    LLVMValueRef linear = llvm_kernel_i32(L, 0);
    for (int d = 0; d < type->rank; d++) {
        linear = LLVMBuildMul(L->b, linear, llvm_kernel_i32(L, d == type->rank - 1 ? pitch : type->dims[d].size), "");
        linear = LLVMBuildAdd(L->b, linear, coords[d], "");
    }
    return linear;
}

/* A shared conversion as convert.c planned it (ConvertRecord: pitch,
   write_vec, read_vec): barrier, each thread writes its registers at the
   pitch, write_vec a store, barrier, each thread reads its new layout's
   registers, read_vec a load. */
Tile *llvm_convert_tile(Lowering *L, Tile *t, const ConvertRecord *c) {
    const IrType *type = &t->type;
    DType dtype = type->dtype;
    LLVMTypeRef elem = llvm_kernel_mem_type(L, dtype);
    unsigned bytes = (unsigned)llvm_kernel_mem_bytes(dtype);
    llvm_kernel_barrier_at(L, c->barriers, BARRIER_BEFORE_WRITE);
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, type);
    for (int64_t r = 0; r < t->num_regs; r += c->write_vec) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < type->rank; d++)
            coords[d] = llvm_kernel_coord(L, t, ti, r, d);
        LLVMValueRef ptr = shared_element(L, dtype, c->smem_lo, pitched_index(L, type, c->pitch, coords));
        LLVMValueRef v = NULL;
        for (int e = 0; e < c->write_vec; e++) {
            LLVMValueRef x = t->regs[r + e];
            if (dtype == DT_BOOL)
                x = LLVMBuildZExt(L->b, x, L->i8, "");
            v = c->write_vec == 1 ? x
                : LLVMBuildInsertElement(L->b, v ? v : LLVMGetUndef(LLVMVectorType(elem, (unsigned)c->write_vec)), x,
                                         llvm_kernel_i32(L, e), "");
        }
        LLVMValueRef st = LLVMBuildStore(L->b, v, ptr);
        LLVMSetAlignment(st, bytes * (unsigned)c->write_vec);
    }
    llvm_kernel_barrier_at(L, c->barriers, BARRIER_BEFORE_READ);
    Tile *out = llvm_kernel_tile_new(L, c->to, type);
    ti = llvm_kernel_thread(L, c->to, type);
    for (int64_t r = 0; r < out->num_regs; r += c->read_vec) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < type->rank; d++)
            coords[d] = llvm_kernel_coord(L, out, ti, r, d);
        LLVMValueRef ptr = shared_element(L, dtype, c->smem_lo, pitched_index(L, type, c->pitch, coords));
        LLVMTypeRef vt = c->read_vec == 1 ? elem : LLVMVectorType(elem, (unsigned)c->read_vec);
        LLVMValueRef v = LLVMBuildLoad2(L->b, vt, ptr, "");
        LLVMSetAlignment(v, bytes * (unsigned)c->read_vec);
        for (int e = 0; e < c->read_vec; e++) {
            LLVMValueRef x = c->read_vec == 1 ? v : LLVMBuildExtractElement(L->b, v, llvm_kernel_i32(L, e), "");
            if (dtype == DT_BOOL)
                x = LLVMBuildICmp(L->b, LLVMIntNE, x, LLVMConstInt(L->i8, 0, 0), "");
            out->regs[r + e] = x;
        }
    }
    return out;
}

void llvm_convert_shape_op(Lowering *L, IrOp *op) {
    IrValue *r = op->results[0];
    const Layout *layout = layout_of(L->plan, r);
    Tile *src = llvm_kernel_tile(L, op->operands[0]);
    OpPlan *p = layout_op_plan(L->plan, op);
    if (src->splat || ir_type_elements(&src->type) == 1) {
        llvm_kernel_set_tile(L, r, llvm_kernel_splat(L, layout, &r->type, src->splat ? src->splat : src->regs[0]));
        return;
    }
    if (p->via_shared) {
        llvm_kernel_set_tile(L, r, p->remat ? remat(L, r, layout) :
                                   through_shared(L, op, src, layout, &r->type, p->scratch_offset, p->barriers));
        return;
    }
    Tile *out = llvm_kernel_tile_new(L, layout, &r->type);
    if (op->opcode == IR_RESHAPE || (op->opcode == IR_BROADCAST && src->type.rank == r->type.rank)) {
        move_registers(L, op->opcode, out, src);
    } else {
        INTERNAL_ERROR("kernel '%s': %s without shared memory", L->kernel->name, ir_opcode_name(op->opcode));
    }
    llvm_kernel_set_tile(L, r, out);
}
