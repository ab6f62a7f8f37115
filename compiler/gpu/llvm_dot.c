/*
 * llvm_dot.c: dot(a[m,k], b[k,n] [, acc]), on tensor cores or with FMAs.
 *
 * Tensor cores (plan->mma: f16 x f16 or bf16 x bf16 into f32, the tile
 * divisible into the warps' m16n8 tiles; layout.c's mma_layout): both
 * operands are staged in the op's shared scratch, A as [m][k + 8] and B as
 * [k][n + 8] (16-byte vector stores; the padding keeps ldmatrix free of
 * bank conflicts), then per k step of 16 each warp loads its A fragments
 * with ldmatrix.x4 and its B fragments with ldmatrix.x4.trans (PTX ISA
 * 9.7.14.5.15) and issues one mma.sync.aligned.m16n8k16.row.col.f32 per
 * m16n8 tile of its accumulator (9.7.14.5.14; fragment layouts in
 * 9.7.14.5.8). The accumulator registers are the result's own registers
 * in its blocked layout (layout.c says why that works), so nothing is
 * shuffled before or after. The products are exact and summed in f32, but
 * in the tensor core's order, not k by k: results can differ from the FMA
 * path and the interpreter in the last bits.
 *
 * fp8 tensor cores (plan->mma_fp8, sm_89 and up: dot(cast a8, cast b8),
 * layout.c's fp8_mma): mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}
 * x2.f32, whose 8-bit fragments are m16n8k16's of byte pairs (PTX ISA
 * 9.7.14.5.8: a register holds four consecutive k of one row of A, or of
 * one column of B). So the fp8 bytes are staged as b16 pairs, k halved:
 * A as [m][k + 16] bytes, B = x.T k-major as x's rows, [n][k + 16] (the
 * only B layout.c gives it), the same ldmatrix (B without .trans) and one
 * m16n8k32 per m16n8 tile and k step of 32. LLVM 22 has no
 * intrinsic for it: inline PTX, which needs PTX ISA 8.4 (emit.c). The
 * products are exact in f32 and summed in the tensor core's order.
 *
 * FMAs (every other dtype and shape): both operands are staged row-major in the op's shared scratch
 * (barrier, write, barrier); then a loop over k in which each thread loads
 * the a elements of its result rows and the b elements of its result
 * columns and does one fma per result register (PTX ISA 9.7.3.6 fma.rn).
 * Operands widen to the result dtype first: f16, bf16 and f32 accumulate in
 * f32 (f32 inputs in full f32, not tf32), integers in i32 (signed or not by
 * their dtype).
 */
#include "llvm_lower.h"

#include <string.h>

static int64_t dot_align16(int64_t v) { return (v + 15) & ~(int64_t)15; }

/* ---- tensor cores ------------------------------------------------------------------------- */

/* Writes a rank-2 f16/bf16 (or fp8) tile into shared memory as rows of
   `pitch` elements, runs of registers that are contiguous along the row as
   one vector store (up to 16 bytes; every run starts at a multiple of its
   length and the pitch is a multiple of 16 bytes, so each is aligned). */
static void mma_stage(Lowering *L, Tile *t, int64_t pitch, LLVMValueRef base) {
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    int eb = llvm_kernel_mem_bytes(t->type.dtype);
    int64_t run = layout_contiguous_run(t->map, 1);
    if (run > 16 / eb)
        run = 16 / eb;
    LLVMTypeRef elem = llvm_kernel_mem_type(L, t->type.dtype);
    LLVMTypeRef vec = LLVMVectorType(elem, (unsigned)run);
    for (int64_t r = 0; r < t->num_regs; r += run) {
        LLVMValueRef i = llvm_kernel_coord(L, t, ti, r, 0), j = llvm_kernel_coord(L, t, ti, r, 1);
        LLVMValueRef index = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, i, llvm_kernel_i32(L, pitch), ""), j, "");
        LLVMValueRef byte = LLVMBuildMul(L->b, index, llvm_kernel_i32(L, eb), "");
        LLVMValueRef value = t->regs[r];
        if (run > 1) {
            value = LLVMGetUndef(vec);
            for (int64_t e = 0; e < run; e++)
                value = LLVMBuildInsertElement(L->b, value, t->regs[r + e], llvm_kernel_i32(L, e), "");
        }
        LLVMValueRef st = LLVMBuildStore(L->b, value, LLVMBuildGEP2(L->b, L->i8, base, &byte, 1, ""));
        LLVMSetAlignment(st, (unsigned)(run * eb));
    }
}

/* ldmatrix.sync.aligned.m8n8.{x4,x2}[.trans].shared.b16: four (two) 8x8
   matrices, lane l giving the address of row l % 8 of matrix l / 8 (lanes
   16-31 unused by x2); returns this lane's 32-bit pieces (two b16 each). */
static void mma_ldmatrix(Lowering *L, LLVMValueRef base, LLVMValueRef byte, bool trans, int count, LLVMValueRef *out) {
    static const char *const names[2][2] = {
        {"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16", "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16"},
        {"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16", "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16"},
    };
    LLVMValueRef ptr = LLVMBuildGEP2(L->b, L->i8, base, &byte, 1, "");
    LLVMTypeRef ptr_type = L->ptr_shared;
    LLVMValueRef v = llvm_kernel_intrinsic(L, names[count == 4][trans], &ptr_type, 1, &ptr, 1);
    for (int i = 0; i < count; i++)
        out[i] = LLVMBuildExtractValue(L->b, v, (unsigned)i, "");
}

/* A's fragment of m tile mt at k step ks from a tile in the accumulator's
   layout (warps only along M): a0 = (row register 2 mt, k pair 2t of the
   step's first 8), a1 = (row register 2 mt + 1, same), a2, a3 = the second
   8; column registers 4 ks .. 4 ks + 3 hold the step's k 16ks + 2t, +1,
   16ks + 8 + 2t, +1 (PTX ISA 9.7.14.5.8). Each piece is two b16 in an i32. */
static void mma_fragment_from_registers(Lowering *L, Tile *a, int64_t mt, int64_t ks, LLVMValueRef out[4]) {
    int64_t cols = layout_dim_regs(a->map, 1);
    LLVMTypeRef half = llvm_kernel_reg_type(L, a->type.dtype);
    LLVMTypeRef pair = LLVMVectorType(half, 2);
    for (int i = 0; i < 4; i++) {
        int64_t row = 2 * mt + (i & 1), col = 4 * ks + 2 * (i >> 1);
        LLVMValueRef v = LLVMGetUndef(pair);
        v = LLVMBuildInsertElement(L->b, v, a->regs[row * cols + col], llvm_kernel_i32(L, 0), "");
        v = LLVMBuildInsertElement(L->b, v, a->regs[row * cols + col + 1], llvm_kernel_i32(L, 1), "");
        out[i] = LLVMBuildBitCast(L->b, v, L->i32, "");
    }
}

/* One mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}: c[4] += a[4] x b[2]. */
static void mma_issue(Lowering *L, DType in, LLVMValueRef a[4], LLVMValueRef b[2], LLVMValueRef c[4]) {
    LLVMValueRef args[10];
    LLVMTypeRef h2 = LLVMVectorType(L->f16, 2);
    for (int i = 0; i < 4; i++)
        args[i] = in == DT_F16 ? LLVMBuildBitCast(L->b, a[i], h2, "") : a[i];
    for (int i = 0; i < 2; i++)
        args[4 + i] = in == DT_F16 ? LLVMBuildBitCast(L->b, b[i], h2, "") : b[i];
    for (int i = 0; i < 4; i++)
        args[6 + i] = c[i];
    LLVMValueRef d = llvm_kernel_intrinsic(L, in == DT_F16 ? "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
                                                           : "llvm.nvvm.mma.m16n8k16.row.col.bf16",
                                           NULL, 0, args, 10);
    for (unsigned i = 0; i < 4; i++)
        c[i] = LLVMBuildExtractValue(L->b, d, i, "");
}

/* One mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32:
   c[4] += a[4] x b[2], four fp8 in each a and b register. Inline PTX
   without side effects (no intrinsic in LLVM 22), so LLVM schedules it as
   the f16 one. */
static void mma_issue_fp8(Lowering *L, DType a_type, DType b_type, LLVMValueRef a[4], LLVMValueRef b[2],
                          LLVMValueRef c[4]) {
    char text[160];
    snprintf(text, sizeof text,
             "mma.sync.aligned.m16n8k32.row.col.f32.%s.%s.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, "
             "{$10,$11,$12,$13};",
             a_type == DT_F8E4M3 ? "e4m3" : "e5m2", b_type == DT_F8E4M3 ? "e4m3" : "e5m2");
    static const char constraints[] = "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
    LLVMTypeRef params[10], f = L->f32;
    LLVMValueRef args[10];
    for (int i = 0; i < 6; i++) {
        params[i] = L->i32;
        args[i] = i < 4 ? a[i] : b[i - 4];
    }
    for (int i = 0; i < 4; i++) {
        params[6 + i] = f;
        args[6 + i] = c[i];
    }
    LLVMTypeRef ret = LLVMStructTypeInContext(L->ctx, (LLVMTypeRef[]){f, f, f, f}, 4, 0);
    LLVMTypeRef fty = LLVMFunctionType(ret, params, 10, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), (char *)constraints, sizeof constraints - 1, 0, 0,
                                       LLVMInlineAsmDialectATT, 0);
    LLVMValueRef d = LLVMBuildCall2(L->b, fty, fn, args, 10, "");
    for (unsigned i = 0; i < 4; i++)
        c[i] = LLVMBuildExtractValue(L->b, d, i, "");
}

/* Where a warp's ldmatrix fragments are: its lanes' byte offsets into A's
   and B's rows, and the steps between k steps and tiles; for the fp8 mma,
   the operands' dtypes (else DT_F16 or DT_BF16 both). */
typedef struct MmaFragments {
    LLVMValueRef a_lane, b_lane;
    int64_t a_pitch, wm, b_k_step, b_n_step, m_tiles, n_tiles;
    bool b_t, fp8;
    DType a_type, b_type;
} MmaFragments;

/* The A and B fragments of k step `ks`: ldmatrix from shared memory, or
   A's from the registers of `a_regs` (A in the accumulator's layout). */
static void mma_load_step(Lowering *L, const MmaFragments *f, Tile *a_regs, LLVMValueRef a_base, LLVMValueRef b_base,
                          int64_t ks, LLVMValueRef *af, LLVMValueRef *bf) {
    for (int64_t mt = 0; mt < f->m_tiles && a_regs; mt++)
        mma_fragment_from_registers(L, a_regs, mt, ks, af + 4 * mt);
    for (int64_t mt = 0; mt < f->m_tiles && !a_regs; mt++)
        mma_ldmatrix(L, a_base, LLVMBuildAdd(L->b, f->a_lane, llvm_kernel_i32(L, (mt * 16 * f->wm * f->a_pitch + ks * 16) * 2), ""),
                     false, 4, af + 4 * mt);
    /* Two n tiles per ldmatrix.x4; a last odd one with x2 (lanes 0-15). */
    for (int64_t nt = 0; nt < f->n_tiles; nt += 2)
        mma_ldmatrix(L, b_base, LLVMBuildAdd(L->b, f->b_lane, llvm_kernel_i32(L, ks * f->b_k_step + nt * f->b_n_step), ""),
                     !f->b_t, nt + 1 < f->n_tiles ? 4 : 2, bf + 2 * nt);
}

/* The mmas of one k step into the accumulator registers. */
static void mma_step(Lowering *L, DType in, const MmaFragments *f, LLVMValueRef *af, LLVMValueRef *bf, Tile *out,
                     int64_t col_regs) {
    for (int64_t mt = 0; mt < f->m_tiles; mt++) {
        for (int64_t nt = 0; nt < f->n_tiles; nt++) {
            /* c0, c1: row register 2 mt, columns 2 nt, 2 nt + 1; c2, c3: row register 2 mt + 1. */
            int64_t lo = (2 * mt) * col_regs + 2 * nt, hi = (2 * mt + 1) * col_regs + 2 * nt;
            LLVMValueRef c[4] = {out->regs[lo], out->regs[lo + 1], out->regs[hi], out->regs[hi + 1]};
            if (f->fp8)
                mma_issue_fp8(L, f->a_type, f->b_type, af + 4 * mt, bf + 2 * nt, c);
            else
                mma_issue(L, in, af + 4 * mt, bf + 2 * nt, c);
            out->regs[lo] = c[0];
            out->regs[lo + 1] = c[1];
            out->regs[hi] = c[2];
            out->regs[hi + 1] = c[3];
        }
    }
}

/* The carry (layout.c plan_carry): k step 0's fragments come around the
   back edge; steps 1 .. K-1 load from this slot as usual; before the last
   step's mmas, the wait after the dot (cp.async.wait_group and its
   barrier) and then step 0 of the next slot, which the next iteration
   takes. In front of the loop (the builder is there, after the first
   wait's barrier) the first slot's step 0. So the mmas after every
   barrier have their fragments, and the next slot's ldmatrix runs under
   them (CUTLASS's MmaMultistage order). */
static void dot_mma_carry(Lowering *L, IrOp *op, OpPlan *p, const MmaFragments *f, LLVMBasicBlockRef body_block,
                          LLVMValueRef a_base, LLVMValueRef b_base, Tile *out, int64_t col_regs, int64_t steps) {
    DType in = op->operands[0]->type.dtype;
    LoopLowering *loop = L->loop;
    const IrValue *a_view = layout_in_place_ref(p, 0), *b_view = layout_in_place_ref(p, 1);
    const IrValue *slot = a_view->def->operands[a_view->def->view_dims[0].offset_operand];
    IrBlock *body = op->parent;
    int arg = 1;
    while (body->args[arg] != slot)
        arg++;
    int64_t pitch;
    int64_t na = 4 * f->m_tiles, nb = 2 * f->n_tiles;
    LLVMValueRef *af = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, na + nb + 1), *bf = af + na;
    LLVMValueRef *next = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, na + nb + 1);
    LLVMValueRef *initial = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, na + nb + 1);
    /* In front of the loop (the builder is there): the first slot's step 0. */
    LLVMValueRef first = llvm_kernel_scalar(L, loop->op->operands[3 + arg - 1]);
    mma_load_step(L, f, NULL, llvm_memory_shared_rows_at(L, a_view, first, &pitch),
                  llvm_memory_shared_rows_at(L, b_view, first, &pitch), 0, initial, initial + na);
    LLVMValueRef header_first = LLVMGetFirstInstruction(loop->header);
    LLVMPositionBuilderBefore(L->b, header_first);
    for (int64_t i = 0; i < na + nb; i++) {
        af[i] = LLVMBuildPhi(L->b, LLVMTypeOf(initial[i]), "frag");
        LLVMAddIncoming(af[i], &initial[i], &loop->pre, 1);
    }
    LLVMPositionBuilderAtEnd(L->b, body_block);
    for (int64_t ks = 0; ks < steps; ks++) {
        if (ks > 0)
            mma_load_step(L, f, NULL, a_base, b_base, ks, af, bf);
        if (ks == steps - 1) {
            llvm_kernel_async_wait(L, p->mma_carry_wait);
            const IrValue *next_slot = body->last->operands[arg - 1];
            LLVMValueRef s = llvm_kernel_scalar(L, next_slot);
            mma_load_step(L, f, NULL, llvm_memory_shared_rows_at(L, a_view, s, &pitch),
                          llvm_memory_shared_rows_at(L, b_view, s, &pitch), 0, next, next + na);
        }
        mma_step(L, in, f, af, bf, out, col_regs);
        if (ks == 0)
            for (int64_t i = 0; i < na + nb; i++)
                ptrvec_push(&L->kernel->arena, &loop->phis, af[i]);
    }
    for (int64_t i = 0; i < na + nb; i++)
        ptrvec_push(&L->kernel->arena, &loop->nexts, next[i]);
}

static void dot_mma(Lowering *L, IrOp *op, OpPlan *p, Tile *a, Tile *b, Tile *acc_in) {
    IrValue *av = op->operands[0], *r = op->results[0];
    DType in = av->type.dtype;
    int64_t m = av->type.dims[0].size, k = av->type.dims[1].size, n = r->type.dims[1].size;
    /* fp8: byte pairs as b16 elements, k halved, B k-major (the header) */
    bool fp8 = p->mma_fp8;
    if (fp8)
        k /= 2;
    bool b_t = p->mma_b_transposed;
    int64_t a_pitch = layout_mma_pitch(k), b_pitch = layout_mma_pitch(b_t ? k : n);
    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    LayoutTerm warp_m_term, warp_n_term;
    int wm = layout_warps_along(out->map, 0, &warp_m_term), wn = layout_warps_along(out->map, 1, &warp_n_term);
    /* A in the accumulator's layout (layout.c): its fragments are registers. */
    bool a_in_registers = layout_mma_a_in_registers(L->plan, p);
    /* Each operand's rows: read in place from a ring (layout.c's
       mma_a_shared, mma_b_shared: the load's ref, at the alloc's pitch),
       or staged in the scratch at layout_mma_pitch, A first. */
    int64_t a_offset = p->scratch_offset;
    int64_t b_offset = a_offset + (p->mma_a_shared || a_in_registers ? 0 : dot_align16(m * a_pitch * 2));
    LLVMValueRef a_base = NULL, b_base = NULL;
    if (p->mma_a_shared)
        a_base = llvm_memory_shared_rows(L, layout_in_place_ref(p, 0), &a_pitch);
    else if (!a_in_registers)
        a_base = llvm_kernel_smem(L, llvm_kernel_i32(L, a_offset));
    if (p->mma_b_shared)
        b_base = llvm_memory_shared_rows(L, layout_in_place_ref(p, 1), &b_pitch);
    else
        b_base = llvm_kernel_smem(L, llvm_kernel_i32(L, b_offset));
    if (fp8) {   /* a ring's pitch is in bytes; the fragments count byte pairs */
        a_pitch = p->mma_a_shared ? a_pitch / 2 : a_pitch;
        b_pitch = p->mma_b_shared ? b_pitch / 2 : b_pitch;
    }
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
    /* pitches in elements: fp8's bytes are twice the byte pairs */
    if (!a_in_registers && !p->mma_a_shared)
        mma_stage(L, a, fp8 ? a_pitch * 2 : a_pitch, a_base);
    if (!p->mma_b_shared)
        mma_stage(L, b, fp8 ? b_pitch * 2 : b_pitch, b_base);
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_READ);
    int64_t row_regs = layout_dim_regs(out->map, 0), col_regs = layout_dim_regs(out->map, 1);
    for (int64_t reg = 0; reg < out->num_regs; reg++)
        out->regs[reg] = acc_in ? acc_in->regs[reg] : LLVMConstNull(L->f32);

    /* The rows and columns this warp's tiles cover (layout.c): row register
       i is row 8 * wm * i + 8 * warp_m + group, column pair j starts at
       8 * wn * j + 8 * warp_n + 2 * (lane % 4). Lane l addresses row l % 8 of
       ldmatrix matrix q = l / 8: for A, matrices (row half q % 2, k half
       q / 2) give a0..a3; for B (transposed on load), (k half q % 2,
       n tile q / 2) give b0, b1 of two n tiles. */
    /* A carrying dot (layout.c plan_carry) computes its lanes' offsets in
       front of the loop, where it loads the first slot's first k step. */
    bool carry = p->mma_carry_wait && L->loop && L->loop->op->body == op->parent;
    LLVMBasicBlockRef body_block = LLVMGetInsertBlock(L->b);
    if (carry)
        LLVMPositionBuilderBefore(L->b, LLVMGetBasicBlockTerminator(L->loop->pre));
    LLVMValueRef warp_m = llvm_kernel_term(L, &warp_m_term), warp_n = llvm_kernel_term(L, &warp_n_term);
    LLVMValueRef r8 = LLVMBuildURem(L->b, L->lane, llvm_kernel_i32(L, 8), "");
    LLVMValueRef q = LLVMBuildUDiv(L->b, L->lane, llvm_kernel_i32(L, 8), "");
    LLVMValueRef q_lo = LLVMBuildAnd(L->b, q, llvm_kernel_i32(L, 1), "");
    LLVMValueRef q_hi = LLVMBuildLShr(L->b, q, llvm_kernel_i32(L, 1), "");
    /* A: row = q_lo * 8 * wm + 8 * warp_m + r8, column = q_hi * 8. */
    LLVMValueRef a_row = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, q_lo, llvm_kernel_i32(L, 8 * wm), ""),
                                      LLVMBuildAdd(L->b, LLVMBuildMul(L->b, warp_m, llvm_kernel_i32(L, 8), ""), r8, ""), "");
    LLVMValueRef a_lane = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, a_row, llvm_kernel_i32(L, a_pitch), ""),
                                       LLVMBuildMul(L->b, q_hi, llvm_kernel_i32(L, 8), ""), "");
    a_lane = LLVMBuildShl(L->b, a_lane, llvm_kernel_i32(L, 1), "");
    /* B: k row = q_lo * 8 + r8, column = q_hi * 8 * wn + 8 * warp_n. B = x.T
       staged as x [n][k + 8]: x row (B column) = q_hi * 8 * wn + 8 * warp_n
       + r8, x column (k) = q_lo * 8, loaded without .trans. */
    LLVMValueRef n_row = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, q_hi, llvm_kernel_i32(L, 8 * wn), ""),
                                      LLVMBuildMul(L->b, warp_n, llvm_kernel_i32(L, 8), ""), "");
    LLVMValueRef k_row = LLVMBuildMul(L->b, q_lo, llvm_kernel_i32(L, 8), "");
    LLVMValueRef b_lane =
        b_t ? LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildAdd(L->b, n_row, r8, ""), llvm_kernel_i32(L, b_pitch), ""),
                          k_row, "")
           : LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildAdd(L->b, k_row, r8, ""), llvm_kernel_i32(L, b_pitch), ""),
                          n_row, "");
    b_lane = LLVMBuildShl(L->b, b_lane, llvm_kernel_i32(L, 1), "");
    /* Byte steps: one k step of 16 and one n tile. */
    int64_t b_k_step = b_t ? 16 * 2 : 16 * b_pitch * 2, b_n_step = b_t ? 8 * wn * b_pitch * 2 : 8 * wn * 2;

    int64_t m_tiles = row_regs / 2, n_tiles = col_regs / 2;
    LLVMValueRef *af = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, 4 * m_tiles);
    LLVMValueRef *bf = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, 2 * n_tiles + 2);
    MmaFragments frags = {.a_lane = a_lane, .b_lane = b_lane, .a_pitch = a_pitch, .wm = wm, .b_t = b_t,
                          .b_k_step = b_k_step, .b_n_step = b_n_step, .m_tiles = m_tiles, .n_tiles = n_tiles,
                          .fp8 = fp8, .a_type = fp8 ? layout_fp8_dtype(p, 0) : in,
                          .b_type = fp8 ? layout_fp8_dtype(p, 1) : in};
    if (carry) {
        dot_mma_carry(L, op, p, &frags, body_block, a_base, b_base, out, col_regs, k / 16);
        llvm_kernel_set_tile(L, r, out);
        return;
    }
    /* The k steps: up to LAYOUT_MMA_UNROLLED_STEPS straight-line (ptxas then
       overlaps one step's ldmatrix with the previous step's mma), beyond
       that a loop that stays rolled (llvm.loop.unroll.disable, PTX .pragma
       "nounroll"), since ptxas's time and the registers grow with the
       unrolled body. */
    int64_t steps = k / 16;
    bool rolled = steps > LAYOUT_MMA_UNROLLED_STEPS && !a_in_registers;   /* registers need a constant step */
    LLVMValueRef ks_byte = NULL;
    LLVMBasicBlockRef pre = NULL, loop = NULL;
    LLVMValueRef *phis = NULL;
    if (rolled) {
        pre = LLVMGetInsertBlock(L->b);
        loop = llvm_kernel_block(L, "mma.k");
        LLVMBuildBr(L->b, loop);
        LLVMPositionBuilderAtEnd(L->b, loop);
        ks_byte = LLVMBuildPhi(L->b, L->i32, "ks");
        LLVMValueRef zero = llvm_kernel_i32(L, 0);
        LLVMAddIncoming(ks_byte, &zero, &pre, 1);
        phis = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->num_regs + 1);
        for (int64_t reg = 0; reg < out->num_regs; reg++) {
            phis[reg] = LLVMBuildPhi(L->b, L->f32, "");
            LLVMAddIncoming(phis[reg], &out->regs[reg], &pre, 1);
            out->regs[reg] = phis[reg];
        }
        /* ks_byte counts A's bytes (32 a step); B moves 16 rows a step. */
        a_lane = LLVMBuildAdd(L->b, a_lane, ks_byte, "");
        b_lane = LLVMBuildAdd(L->b, b_lane, LLVMBuildMul(L->b, ks_byte, llvm_kernel_i32(L, b_k_step / 32), ""), "");
    }
    frags.a_lane = a_lane;
    frags.b_lane = b_lane;
    for (int64_t ks = 0; ks < (rolled ? 1 : steps); ks++) {
        mma_load_step(L, &frags, a_in_registers ? a : NULL, a_base, b_base, ks, af, bf);
        mma_step(L, in, &frags, af, bf, out, col_regs);
    }
    if (rolled) {
        LLVMValueRef next = LLVMBuildAdd(L->b, ks_byte, llvm_kernel_i32(L, 32), "");
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
        LLVMAddIncoming(ks_byte, &next, &latch, 1);
        for (int64_t reg = 0; reg < out->num_regs; reg++)
            LLVMAddIncoming(phis[reg], &out->regs[reg], &latch, 1);
        LLVMBasicBlockRef done = llvm_kernel_block(L, "mma.done");
        LLVMValueRef br = LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, next, llvm_kernel_i32(L, 32 * steps), ""),
                                          loop, done);
        llvm_kernel_no_unroll(L, br);
        LLVMPositionBuilderAtEnd(L->b, done);
    }
    llvm_kernel_set_tile(L, r, out);
}

/* ---- wgmma (sm_90a) --------------------------------------------------------------------------- */

/* Inline asm `text` (with side effects, so that it keeps its place among
   the wgmma fences, commits and waits) whose outputs are `values[count]`
   (f32 or i32 each), tied to them as inputs (undefined inputs where
   `undef_inputs`), after `num_extra` other inputs `extra` with constraints
   `extra_constraints` (",l,l,r"): operands $0 .. $count-1 are the values,
   then the extra ones. The values come back in place. */
static void tied_asm(Lowering *L, const char *text, size_t text_len, LLVMValueRef *values, int count, bool undef_inputs,
                     const char *extra_constraints, LLVMValueRef *extra, int num_extra) {
    char *constraints = ARENA_ARRAY(&L->kernel->arena, char, (size_t)count * 8 + strlen(extra_constraints) + 8);
    size_t len = 0;
    for (int i = 0; i < count; i++)
        len += (size_t)sprintf(constraints + len, "%s=%s", i ? "," : "", LLVMTypeOf(values[i]) == L->f32 ? "f" : "r");
    len += (size_t)sprintf(constraints + len, "%s", extra_constraints);
    for (int i = 0; i < count; i++)
        len += (size_t)sprintf(constraints + len, ",%d", i);
    int num_args = num_extra + count;
    LLVMTypeRef *params = ARENA_ARRAY(&L->kernel->arena, LLVMTypeRef, num_args + 1);
    LLVMValueRef *args = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, num_args + 1);
    for (int i = 0; i < num_extra; i++) {
        params[i] = LLVMTypeOf(extra[i]);
        args[i] = extra[i];
    }
    for (int i = 0; i < count; i++) {
        params[num_extra + i] = LLVMTypeOf(values[i]);
        args[num_extra + i] = undef_inputs ? LLVMGetUndef(params[num_extra + i]) : values[i];
    }
    LLVMTypeRef ret = LLVMStructTypeInContext(L->ctx, params + num_extra, (unsigned)count, 0);
    LLVMTypeRef fty = LLVMFunctionType(ret, params, (unsigned)num_args, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(fty, text, text_len, constraints, len, 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMValueRef out = LLVMBuildCall2(L->b, fty, fn, args, (unsigned)num_args, "");
    for (int i = 0; i < count; i++)
        values[i] = LLVMBuildExtractValue(L->b, out, (unsigned)i, "");
}

/* An empty asm that takes and gives back `count` f32 (or i32) values: no
   code, but LLVM may move no computation of them past it nor any use above
   it, as CUTLASS's warpgroup_fence_operand. Around the wgmmas: the
   accumulator is final before wgmma.fence and read only after
   wgmma.wait_group. */
static void wgmma_pin(Lowering *L, LLVMValueRef *values, int count) {
    tied_asm(L, "", 0, values, count, false, "", NULL, 0);
}

/* Ping-pong (tma.c tma_schedule; docs/codegen.md "Warpgroup schedules"):
   warpgroup g takes its turn by waiting at named barrier 1 + g
   (bar.sync, 256 threads: its own 128 and the other's arrival), and passes
   it by arriving at the other's, 2 - g (bar.arrive). Each warpgroup
   branches to its own constant ids: a barrier id in a register makes ptxas
   reserve all 16 of the block's named barriers. Warp-uniform: every lane
   of a warp executes the same one (.aligned). */
static void named_barrier(Lowering *L, bool sync, int id) {
    LLVMValueRef args[2] = {llvm_kernel_i32(L, id), llvm_kernel_i32(L, 256)};
    llvm_kernel_intrinsic(L, sync ? "llvm.nvvm.barrier.cta.sync.aligned.count"
                                  : "llvm.nvvm.barrier.cta.arrive.aligned.count", NULL, 0, args, 2);
}

/* sync (or arrive) at id0 in warpgroup 0 and at id1 in warpgroup 1;
   0: nothing there. */
static void per_warpgroup(Lowering *L, bool sync0, int id0, bool sync1, int id1) {
    LLVMBasicBlockRef wg0 = llvm_kernel_block(L, "pingpong.wg0");
    LLVMBasicBlockRef wg1 = llvm_kernel_block(L, "pingpong.wg1");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "pingpong.done");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, L->warp, llvm_kernel_i32(L, 4), ""), wg0, wg1);
    LLVMPositionBuilderAtEnd(L->b, wg0);
    if (id0)
        named_barrier(L, sync0, id0);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, wg1);
    if (id1)
        named_barrier(L, sync1, id1);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

void llvm_dot_pingpong(Lowering *L, PingPongStep step) {
    if (step == PINGPONG_TAKE_BEFORE)
        per_warpgroup(L, true, 1, true, 2);
    else
        per_warpgroup(L, false, 2, false, 1);
}

/* In front of a ping-pong loop: the first turn is warpgroup 0's, which
   goes straight to its first q @ k.T; warpgroup 1 waits for warpgroup 0's
   first pass. In the loop each warpgroup takes the turn once a trip and
   passes it once. */
void llvm_dot_pingpong_enter(Lowering *L) {
    per_warpgroup(L, false, 0, true, 2);
}

/* After it: warpgroup 0 passes the turn for warpgroup 1's last p @ v, then
   the block meets at barrier 0. For n trips barrier 1 completes n phases
   (warpgroup 0's waits, warpgroup 1's arrivals) and barrier 2 n + 1
   (warpgroup 1's waits, the first in front of the loop; warpgroup 0's
   arrivals, the last here): 256 threads each, for any n, zero included.
   The block barrier closes both: past it, each warpgroup has done every
   wait and arrival of the loop, so no later arrival (a next ping-pong
   loop's) can complete a phase of this one, and whatever follows the loop
   starts with the two warpgroups together, as lockstep's loop ends. (An
   earlier form had warpgroup 0 arrive at its own barrier in front of the
   loop and meet warpgroup 1 at barrier 1 after it, one warpgroup waiting
   and the other arriving: equivalent.) */
void llvm_dot_pingpong_leave(Lowering *L) {
    per_warpgroup(L, false, 2, false, 0);
    llvm_kernel_block_barrier(L);
}

/* wgmma.wait_group.sync.aligned N: at most N groups still in flight. */
static void wgmma_wait(Lowering *L, int64_t pending) {
    LLVMValueRef n = llvm_kernel_i64(L, pending);
    llvm_kernel_intrinsic(L, "llvm.nvvm.wgmma.wait_group.sync.aligned", NULL, 0, &n, 1);
}

/* The out->regs index of wgmma D register 4 nt + i of m64 tile s: rows
   registers 2 s (i < 2) and 2 s + 1, column registers 2 nt + i % 2 (the
   mma layout's, col_regs of them a row). */
static int64_t wgmma_d_reg(int64_t s, int64_t nt, int i, int64_t col_regs) {
    return (2 * s + (i >> 1)) * col_regs + 2 * nt + (i & 1);
}

/* A shared-memory matrix descriptor (PTX ISA 9.7.15.5.1.2.2) without its
   start address: leading and stride byte offsets, the swizzle mode of a
   panel row of `panel_bytes` (128: 128-byte swizzle, 1; 64: 2; 32: 3),
   base offset 0 (the allocs start at 1024-byte boundaries). */
static uint64_t wgmma_desc_bits(int64_t leading, int64_t stride, int64_t panel_bytes) {
    uint64_t mode = panel_bytes == 128 ? 1 : panel_bytes == 64 ? 2 : 3;
    return (((uint64_t)leading >> 4) & 0x3FFF) << 16 | (((uint64_t)stride >> 4) & 0x3FFF) << 32 | mode << 62;
}

/* The descriptor's start-address field of shared pointer `p` plus `offset`
   (i64, 16-byte units: both fit in 32 bits), as lane 0 has it. Every lane
   computes the same value, but ptxas cannot see that through the address
   arithmetic and keeps it in vector registers, with an R2UR before each
   wgmma and the k steps' adds on the vector pipe; read through
   shfl.sync.idx it is warp-uniform and they move to the uniform datapath
   (about 80 fewer vector integer instructions a trip in the D 128
   attention loop; 1.006-1.09x on attention, matmul level, session 33).
   wgmma is .sync.aligned, so every lane is here. */
static LLVMValueRef wgmma_desc_address(Lowering *L, LLVMValueRef p, LLVMValueRef offset) {
    LLVMValueRef a = LLVMBuildPtrToInt(L->b, p, L->i32, "");
    LLVMValueRef field = LLVMBuildLShr(L->b, LLVMBuildAnd(L->b, a, llvm_kernel_i32(L, 0x3FFFF), ""),
                                       llvm_kernel_i32(L, 4), "");
    if (offset)
        field = LLVMBuildAdd(L->b, field, offset, "");
    return LLVMBuildZExt(L->b, llvm_kernel_lane0(L, field), L->i64, "");
}

/* wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}: acc[n / 2] += A x B
   (fp8: m64nNk32.f32.{e4m3,e5m2}.{e4m3,e5m2}, both operands k-major by
   descriptor: `in` DT_F16 with a_type/b_type the fp8 dtypes, else both
   `in`)
   (acc = A x B where the i32 `accumulate` is 0: scale-d 0, the
   accumulator's inputs unread; NULL: 1), A by descriptor or, when a_desc is NULL, from the four
   f16x2 registers a_regs (mma.sync's A fragment), B by descriptor, N-major
   when b_n_major (imm-trans-b 1). Inline asm (LLVM 22 has no intrinsic for
   it), with side effects, so that it keeps its place between wgmma.fence
   and commit_group. */
static void wgmma_issue(Lowering *L, DType in, DType a_type, DType b_type, int64_t n, LLVMValueRef a_desc,
                        LLVMValueRef *a_regs, LLVMValueRef b_desc, bool b_n_major, LLVMValueRef accumulate,
                        LLVMValueRef *acc) {
    int count = (int)(n / 2), num_a = a_desc ? 1 : 4;
    int b_arg = count + num_a, scale_arg = b_arg + 1;
    bool fp8 = dtype_is_fp8(a_type);
    const char *ta = fp8 ? (a_type == DT_F8E4M3 ? "e4m3" : "e5m2") : in == DT_F16 ? "f16" : "bf16";
    const char *tb = fp8 ? (b_type == DT_F8E4M3 ? "e4m3" : "e5m2") : ta;
    size_t cap = (size_t)count * 16 + 320;
    char *text = ARENA_ARRAY(&L->kernel->arena, char, cap);
    size_t len = (size_t)snprintf(text, cap, "{\n.reg .pred p;\nsetp.ne.b32 p, $%d, 0;\n"
                                             "wgmma.mma_async.sync.aligned.m64n%lldk%d.f32.%s.%s {", scale_arg, (long long)n,
                                  fp8 ? 32 : 16, ta, tb);
    for (int i = 0; i < count; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s$%d", i ? ", " : "", i);
    if (fp8)   /* no transpose operands: 8-bit operands are k-major */
        len += (size_t)snprintf(text + len, cap - len, "}, $%d, $%d, p, 1, 1;\n}", count, b_arg);
    else if (a_desc)
        len += (size_t)snprintf(text + len, cap - len, "}, $%d, $%d, p, 1, 1, 0, %d;\n}", count, b_arg, b_n_major ? 1 : 0);
    else
        len += (size_t)snprintf(text + len, cap - len, "}, {$%d, $%d, $%d, $%d}, $%d, p, 1, 1, %d;\n}", count, count + 1,
                                count + 2, count + 3, b_arg, b_n_major ? 1 : 0);
    LLVMValueRef extra[6];
    int num_extra = 0;
    if (a_desc)
        extra[num_extra++] = a_desc;
    else
        for (int i = 0; i < 4; i++)
            extra[num_extra++] = a_regs[i];
    extra[num_extra++] = b_desc;
    extra[num_extra++] = accumulate ? accumulate : llvm_kernel_i32(L, 1);
    bool never = accumulate && LLVMIsAConstantInt(accumulate) && LLVMConstIntGetZExtValue(accumulate) == 0;
    tied_asm(L, text, len, acc, count, never, a_desc ? ",l,l,r" : ",r,r,r,r,l,r", extra, num_extra);
}

/* The dot on wgmma (layout.c plan_wgmma): per k step of 16 and per m64
   tile s of this thread's warpgroup g, one wgmma.mma_async.m64nNk16 into
   the accumulator registers of row registers 2 s and 2 s + 1: A's
   descriptor at the tile's rows 64 (g S + s) of the k step's panel, or A's
   fragments from the registers of row registers 2 s, 2 s + 1 (A in the
   accumulator's layout); B's descriptor at the k step's rows (N-major: in
   every 64-column panel; B = x.T: x K-major as A). wgmma.fence before,
   commit_group and wait_group 0 after: the dot is done when its op is (the
   ring's next copy may overwrite the slot). Without an accumulator operand
   the first k step does not read the registers (scale-d 0). */
static void dot_wgmma(Lowering *L, IrOp *op, OpPlan *p, Tile *a, Tile *acc_in) {
    IrValue *r = op->results[0];
    DType in = op->operands[0]->type.dtype;
    int64_t m = r->type.dims[0].size, k = op->operands[0]->type.dims[1].size, n = r->type.dims[1].size;
    /* The barrier barrier.c put before the in-place reads (plain writes of
       an operand's alloc since the last one), after a proxy fence: wgmma
       reads shared memory through the async proxy (PTX ISA 9.7.15.3). */
    if (p->barriers & (1u << BARRIER_BEFORE_WRITE))
        llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
    const IrValue *b_ref = layout_in_place_ref(p, 1);
    const SharedSwizzle *bs = &layout_op_plan(L->plan, layout_alloc_of(b_ref))->alloc_swizzle;
    int64_t pitch;
    LLVMValueRef b_base = llvm_memory_shared_rows(L, b_ref, &pitch);
    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    for (int64_t reg = 0; reg < out->num_regs; reg++)
        out->regs[reg] = acc_in ? acc_in->regs[reg] : LLVMConstNull(L->f32);
    int64_t col_regs = layout_dim_regs(out->map, 1), slabs = layout_dim_regs(out->map, 0) / 2;
    int64_t b_row_bytes = bs->panel * bs->elem_bytes;
    bool b_n_major = !p->mma_b_transposed;
    /* fp8: k32 steps of the same 32 bytes as f16's k16 */
    DType a_type = in, b_type = in;
    if (p->mma_fp8) {
        a_type = layout_fp8_dtype(p, 0);
        b_type = layout_fp8_dtype(p, 1);
    }
    int eb = bs->elem_bytes, k_step = 32 / eb;
    /* A in place: this warpgroup's first m64 tile; K-major panels of m rows. */
    const SharedSwizzle *as = NULL;
    LLVMValueRef a_desc0 = NULL;
    int64_t a_row_bytes = 0;
    if (p->mma_a_shared) {
        const IrValue *a_ref = layout_in_place_ref(p, 0);
        as = &layout_op_plan(L->plan, layout_alloc_of(a_ref))->alloc_swizzle;
        a_row_bytes = as->panel * as->elem_bytes;
        LLVMValueRef a_base = llvm_memory_shared_rows(L, a_ref, &pitch);
        LLVMValueRef wg = LLVMBuildLShr(L->b, L->warp, llvm_kernel_i32(L, 2), "");
        LLVMValueRef a_wg = LLVMBuildMul(L->b, wg, llvm_kernel_i32(L, slabs * 64 * a_row_bytes >> 4), "");
        a_desc0 = LLVMBuildOr(L->b, wgmma_desc_address(L, a_base, a_wg),
                              llvm_kernel_i64(L, (int64_t)wgmma_desc_bits(16, 8 * a_row_bytes, a_row_bytes)), "");
    }
    /* B: N-major panels of k rows (leading offset: one panel), or x K-major. */
    int64_t b_leading = b_n_major ? bs->rows * b_row_bytes : 16;
    LLVMValueRef b_desc0 = LLVMBuildOr(L->b, wgmma_desc_address(L, b_base, NULL),
                                       llvm_kernel_i64(L, (int64_t)wgmma_desc_bits(b_leading, 8 * b_row_bytes, b_row_bytes)), "");
    int count = (int)(n / 2);
    LLVMValueRef *acc = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)count * (size_t)slabs + 1);
    for (int64_t s = 0; s < slabs; s++)
        for (int64_t nt = 0; nt < n / 8; nt++)
            for (int i = 0; i < 4; i++)
                acc[s * count + 4 * nt + i] = out->regs[wgmma_d_reg(s, nt, i, col_regs)];
    /* The first k step accumulates (scale-d 1) onto acc_in; without one it
       does not (0); an accumulator that a loop starts as zeros (async, left
       undefined in front of it: llvm_kernel.c) not on the first trip. */
    LLVMValueRef accumulate = llvm_kernel_i32(L, acc_in ? 1 : 0);
    if (p->wgmma_async && L->loop && L->loop->op->body == op->parent) {
        IrBlock *body = op->parent;
        for (int i = 1; i < body->num_args; i++)
            if (body->args[i] == op->operands[2] && L->loop->zero_start[i - 1])
                accumulate = LLVMBuildZExt(L->b, LLVMBuildNot(L->b, L->loop->first, ""), L->i32, "");
    }
    if (acc_in)
        wgmma_pin(L, acc, count * (int)slabs);
    /* A from registers: every fragment packed before wgmma.fence (ptxas
       would insert a warpgroup.arrive before each wgmma otherwise, C7519). */
    int64_t steps = k / k_step;
    LLVMValueRef *a_frags = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, (size_t)(4 * steps * slabs) + 1);
    if (!as) {
        for (int64_t ks = 0; ks < steps; ks++)
            for (int64_t s = 0; s < slabs; s++)
                mma_fragment_from_registers(L, a, s, ks, a_frags + 4 * (ks * slabs + s));
        wgmma_pin(L, a_frags, (int)(4 * steps * slabs));
    }
    if (p->pingpong & (1u << PINGPONG_TAKE_BEFORE))   /* the operands ready, then the turn */
        llvm_dot_pingpong(L, PINGPONG_TAKE_BEFORE);
    llvm_kernel_intrinsic(L, "llvm.nvvm.wgmma.fence.sync.aligned", NULL, 0, NULL, 0);
    for (int64_t ks = 0; ks < steps; ks++) {
        int64_t kk = ks * k_step;
        int64_t b_step = b_n_major ? kk * b_row_bytes : kk / bs->panel * (n * b_row_bytes) + kk % bs->panel * eb;
        LLVMValueRef b_desc = LLVMBuildAdd(L->b, b_desc0, llvm_kernel_i64(L, b_step >> 4), "");
        for (int64_t s = 0; s < slabs; s++) {
            LLVMValueRef a_desc = NULL;
            if (as) {
                int64_t a_off = kk / as->panel * (m * a_row_bytes) + kk % as->panel * eb + s * 64 * a_row_bytes;
                a_desc = LLVMBuildAdd(L->b, a_desc0, llvm_kernel_i64(L, a_off >> 4), "");
            }
            wgmma_issue(L, in, a_type, b_type, n, a_desc, a_frags + 4 * (ks * slabs + s), b_desc, b_n_major,
                        ks > 0 ? NULL : accumulate, acc + s * count);
        }
    }
    llvm_kernel_intrinsic(L, "llvm.nvvm.wgmma.commit_group.sync.aligned", NULL, 0, NULL, 0);
    if (p->pingpong & (1u << PINGPONG_PASS_AFTER))   /* issued: the other warpgroup's turn */
        llvm_dot_pingpong(L, PINGPONG_PASS_AFTER);
    if (p->wgmma_async) {
        /* The previous iteration's group done in this warpgroup, then in
           every one (the barrier): its slot is free for the deferred
           copies. This group runs on under them, the ring's wait and the
           next iteration's issue; the loop's exit waits for the last one. */
        wgmma_wait(L, 1);
        if (p->ring_release)   /* or each warp counts itself out, the last issues (llvm_tma.c) */
            llvm_tma_release(L);
        else if (!L->plan->producer_threads || p->consumer_barrier)   /* or each warp's commit counts it out */
            llvm_kernel_block_barrier(L);
        wgmma_pin(L, acc, count * (int)slabs);   /* as CUTLASS's warpgroup_fence_operand after its wait */
        llvm_kernel_lower_deferred(L, p);
    } else if (L->plan->tma && L->kernel->rotated_dots && L->num_in_flight < LOWERING_MAX_IN_FLIGHT &&
               !p->pingpong) {
        /* in flight until an op reads the result (llvm_dot_settle): a rotated
           loop's second dot runs beside the softmax (passes/overlap.c) */
        L->in_flight[L->num_in_flight].value = r;
        L->in_flight[L->num_in_flight++].tile = out;
    } else {
        wgmma_wait(L, 0);
        wgmma_pin(L, acc, count * (int)slabs);
    }
    for (int64_t s = 0; s < slabs; s++)
        for (int64_t nt = 0; nt < n / 8; nt++)
            for (int i = 0; i < 4; i++)
                out->regs[wgmma_d_reg(s, nt, i, col_regs)] = acc[s * count + 4 * nt + i];
    llvm_kernel_set_tile(L, r, out);
}

/* Ops that touch nothing but registers (unless their plan gives them
   shared scratch): a wgmma group may stay in flight across them unless
   they read its result. */
static bool registers_only(const IrOp *op) {
    switch (op->opcode) {
    case IR_CONST: case IR_IOTA: case IR_BROADCAST: case IR_RESHAPE: case IR_PERMUTE: case IR_TRANSPOSE:
    case IR_EXTRACT: case IR_REDUCE: case IR_DOT: case IR_VIEW: case IR_SELECT: case IR_CAST: case IR_BITCAST:
        return true;
    default:
        return ir_opcode_is_elementwise_binary(op->opcode) || ir_opcode_is_elementwise_unary(op->opcode);
    }
}

/* Whether `op` reads `v`, itself or through an operand it lowers as part
   of itself (an elided transpose). */
static bool reads_value(const Lowering *L, const IrOp *op, const IrValue *v) {
    for (int k = 0; k < op->num_operands; k++) {
        const IrOp *def = op->operands[k]->def;
        if (op->operands[k] == v || (def && layout_op_plan(L->plan, def)->elided && reads_value(L, def, v)))
            return true;
    }
    return false;
}

/* Before `op` (NULL: the end of a block): wait for the in-flight wgmma
   groups it needs, every one unless it touches registers only, else the
   oldest through the newest whose result it reads (groups complete in
   order: wait_group N leaves the N newest in flight; groups not tracked
   here, an async wgmma's, only make it wait for more), and pin their
   results after the wait, as a dot that waits at once does. */
void llvm_dot_settle(Lowering *L, const IrOp *op) {
    if (!L->num_in_flight)
        return;
    int need = -1;
    /* scratch (a conversion or reduction through shared memory) may lie
       where an in-flight group's operand alloc was, its lifetime over */
    if (!op || !registers_only(op) || layout_op_plan(L->plan, op)->scratch_bytes > 0)
        need = L->num_in_flight - 1;
    else
        for (int i = 0; i < L->num_in_flight; i++)
            if (reads_value(L, op, L->in_flight[i].value))
                need = i;
    if (need < 0)
        return;
    wgmma_wait(L, L->num_in_flight - 1 - need);
    for (int i = 0; i <= need; i++)
        wgmma_pin(L, L->in_flight[i].tile->regs, (int)L->in_flight[i].tile->num_regs);
    for (int i = need + 1; i < L->num_in_flight; i++)
        L->in_flight[i - need - 1] = L->in_flight[i];
    L->num_in_flight -= need + 1;
}

void llvm_dot_wgmma_drain(Lowering *L, Tile *result) {
    wgmma_wait(L, 0);
    wgmma_pin(L, result->regs, (int)result->num_regs);
    /* copies in registers of their own: the accumulator is read once, here */
    LLVMTypeRef f = L->f32;
    LLVMTypeRef fty = LLVMFunctionType(f, &f, 1, 0);
    LLVMValueRef mov = LLVMGetInlineAsm(fty, "mov.b32 $0, $1;", 15, "=f,f", 4, 1, 0, LLVMInlineAsmDialectATT, 0);
    for (int64_t r = 0; r < result->num_regs; r++)
        result->regs[r] = LLVMBuildCall2(L->b, fty, mov, &result->regs[r], 1, "");
}

/* ---- FMAs ----------------------------------------------------------------------------------- */

void llvm_dot_op(Lowering *L, IrOp *op) {
    IrValue *av = op->operands[0], *bv = op->operands[1], *r = op->results[0];
    if (av->type.rank != 2 || bv->type.rank != 2 || r->type.rank != 2)
        INTERNAL_ERROR("kernel '%s': dot of rank %d and %d", L->kernel->name, av->type.rank, bv->type.rank);
    int64_t m = av->type.dims[0].size, k = av->type.dims[1].size, n = bv->type.dims[1].size;
    DType rt = r->type.dtype;
    bool is_float = dtype_is_float(rt);
    OpPlan *p = layout_op_plan(L->plan, op);

    Tile *acc_in = op->num_operands > 2 ? llvm_kernel_operand(L, op, 2) : NULL;
    Tile *a, *b;
    if (p->mma_fp8) {   /* the elided casts' fp8 tiles: a8, and x of B = x.T (or neither: in place) */
        a = p->mma_a_shared ? NULL : llvm_kernel_tile(L, av->def->operands[0]);
        b = p->mma_b_shared ? NULL : llvm_kernel_tile(L, bv->def->operands[0]->def->operands[0]);
    } else {
        a = p->mma_a_shared ? NULL : llvm_kernel_operand(L, op, 0);
        b = p->mma_b_shared ? NULL
            : p->mma_b_transposed ? llvm_kernel_tile(L, bv->def->operands[0]) : llvm_kernel_operand(L, op, 1);
    }
    if (p->wgmma) {
        dot_wgmma(L, op, p, a, acc_in);
        return;
    }
    if (p->mma) {
        dot_mma(L, op, p, a, b, acc_in);
        return;
    }
    int64_t a_offset = p->scratch_offset;
    int64_t b_offset = a_offset + dot_align16(m * k * llvm_kernel_mem_bytes(av->type.dtype));
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
    llvm_convert_write_shared(L, a, a_offset);
    llvm_convert_write_shared(L, b, b_offset);
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_READ);

    Tile *out = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    ThreadInfo *ti = llvm_kernel_thread(L, out->layout, &out->type);
    int64_t rows = layout_dim_regs(out->map, 0), cols = layout_dim_regs(out->map, 1);
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
    LLVMValueRef *phis = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->num_regs + 1);
    for (int64_t reg = 0; reg < out->num_regs; reg++) {
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
    LLVMValueRef *next = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, out->num_regs + 1);
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
    for (int64_t reg = 0; reg < out->num_regs; reg++)
        LLVMAddIncoming(phis[reg], &next[reg], &latch, 1);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, k_next, llvm_kernel_i32(L, k), ""), loop, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    for (int64_t reg = 0; reg < out->num_regs; reg++)
        out->regs[reg] = next[reg];
    llvm_kernel_set_tile(L, r, out);
}
