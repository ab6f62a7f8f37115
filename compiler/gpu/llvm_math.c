/*
 * llvm_math.c: constants, iota, elementwise arithmetic, comparisons, math
 * functions and casts, one register at a time.
 *
 * f16 and bf16 are LLVM half and bfloat: + - * / and comparisons act on them
 * directly (each result correctly rounded), and the math functions compute
 * in f32 and round back: exp and exp2 on ex2.approx.f32 (exp2_ftz on
 * ex2.approx.ftz.f32) and rsqrt on
 * rsqrt.approx.f32 (below), the rest through libdevice. Float +, - and *
 * carry LLVM's `contract` flag, so a*b+c may become one fma (as with nvcc's
 * default). Float min and max propagate NaN
 * (llvm.minimum/maximum: PTX min.NaN/max.NaN on sm_80+, PTX ISA 9.7.3.10).
 * Float-to-integer casts saturate and send NaN to 0 (llvm.fpto[su]i.sat,
 * PTX cvt.rzi.sat); integer division by zero gives the dividend rather than
 * LLVM's undefined behaviour. A flexible (splat) result is computed once
 * from its operands' scalars.
 */
#include "llvm_lower.h"
#include "numeric.h"

#include <math.h>

#include <string.h>

static LLVMValueRef scalar_const(Lowering *L, DType dtype, const IrOp *op) {
    LLVMTypeRef t = llvm_kernel_reg_type(L, dtype);
    if (dtype_is_fp8(dtype))   /* its bits: fp8 lives in i8 registers */
        return LLVMConstInt(t, numeric_double_to_fp8(dtype, op->float_value), 0);
    if (dtype_is_float(dtype))
        return LLVMConstReal(t, op->float_value);
    if (dtype == DT_BOOL)
        return LLVMConstInt(t, op->int_value != 0, 0);
    return LLVMConstInt(t, (unsigned long long)op->int_value, dtype_is_signed(dtype));
}

void llvm_math_const(Lowering *L, IrOp *op) {
    IrValue *r = op->results[0];
    llvm_kernel_set_tile(L, r, llvm_kernel_splat(L, layout_of(L->plan, r), &r->type, scalar_const(L, r->type.dtype, op)));
}

void llvm_math_iota(Lowering *L, IrOp *op) {
    IrValue *r = op->results[0];
    Tile *t = llvm_kernel_tile_new(L, layout_of(L->plan, r), &r->type);
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    for (int64_t reg = 0; reg < t->num_regs; reg++)
        t->regs[reg] = r->type.rank > 0 ? llvm_kernel_coord(L, t, ti, reg, 0) : llvm_kernel_i32(L, 0);
    llvm_kernel_set_tile(L, r, t);
}

/* ---- casts ----------------------------------------------------------------------------- */

static int float_rank(DType d) { return d == DT_F16 || d == DT_BF16 ? 16 : d == DT_F32 ? 32 : 64; }

/* f64 -> f32 rounded to odd: truncate toward zero, and set the last bit when
   anything was dropped. A value rounded to odd with 24 bits rounds to a
   format of at most 22 bits exactly as the f64 would in one step, so
   f64 -> (odd) f32 -> bf16 is one correct rounding. (sm_80 has no f64 ->
   bf16 conversion, and LLVM lowers one through a nearest-rounded f32.) */
static LLVMValueRef f32_round_to_odd(Lowering *L, LLVMValueRef d) {
    LLVMValueRef nearest = LLVMBuildFPTrunc(L->b, d, L->f32, "");
    LLVMValueRef back = LLVMBuildFPExt(L->b, nearest, L->f64, "");
    LLVMValueRef inexact = LLVMBuildFCmp(L->b, LLVMRealONE, back, d, "");
    /* |nearest| > |d|: it rounded away from zero; step its bits back by one
       (the bits of a float are monotonic in its magnitude). */
    LLVMTypeRef f64_type = L->f64;
    LLVMValueRef abs_back = llvm_kernel_intrinsic(L, "llvm.fabs", &f64_type, 1, &back, 1);
    LLVMValueRef abs_d = llvm_kernel_intrinsic(L, "llvm.fabs", &f64_type, 1, &d, 1);
    LLVMValueRef away = LLVMBuildFCmp(L->b, LLVMRealOGT, abs_back, abs_d, "");
    LLVMValueRef bits = LLVMBuildBitCast(L->b, nearest, L->i32, "");
    LLVMValueRef one = LLVMConstInt(L->i32, 1, 0);
    LLVMValueRef toward_zero = LLVMBuildSelect(L->b, away, LLVMBuildSub(L->b, bits, one, ""), bits, "");
    LLVMValueRef odd = LLVMBuildOr(L->b, toward_zero, one, "");
    LLVMValueRef result = LLVMBuildSelect(L->b, inexact, odd, bits, "");
    return LLVMBuildBitCast(L->b, result, L->f32, "");
}

/* An i64 as an f32 rounded to odd (as f32_round_to_odd): cvt.rz.f32.s64
   truncates toward zero, and when the truncation lost bits (converting back
   gives another integer) the lowest bit is set. f64 would not do here: above
   2^53 it rounds the integer to nearest first, and a second rounding to bf16
   can then miss by one unit. */
static LLVMValueRef i64_to_f32_round_to_odd(Lowering *L, LLVMValueRef v, bool is_unsigned) {
    LLVMValueRef truncated = llvm_kernel_intrinsic(L, is_unsigned ? "llvm.nvvm.ull2f.rz" : "llvm.nvvm.ll2f.rz", NULL, 0, &v, 1);
    LLVMValueRef back = llvm_kernel_intrinsic(L, is_unsigned ? "llvm.nvvm.f2ull.rz" : "llvm.nvvm.f2ll.rz", NULL, 0, &truncated, 1);
    LLVMValueRef inexact = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntNE, back, v, ""), L->i32, "");
    LLVMValueRef bits = LLVMBuildBitCast(L->b, truncated, L->i32, "");
    return LLVMBuildBitCast(L->b, LLVMBuildOr(L->b, bits, inexact, ""), L->f32, "");
}

/* ---- fp8 (docs/language.md 3.1): i8 bits in registers, converted in
   integer arithmetic on every target, so that sm_80 and sm_89+ give the
   interpreter's (numeric.h) results bit for bit. */

/* fp8 bits (i8) -> f32, exactly. e5m2 is f16's upper byte; e4m3 is
   rebiased (7 -> 127) into an f32's fields, its subnormals m 2^-9, its
   S.1111.111 NaN. */
static LLVMValueRef fp8_to_f32(Lowering *L, LLVMValueRef b, DType dtype) {
    if (dtype == DT_F8E5M2) {
        LLVMValueRef h = LLVMBuildShl(L->b, LLVMBuildZExt(L->b, b, L->i16, ""), LLVMConstInt(L->i16, 8, 0), "");
        return LLVMBuildFPExt(L->b, LLVMBuildBitCast(L->b, h, L->f16, ""), L->f32, "");
    }
    LLVMValueRef x = LLVMBuildZExt(L->b, b, L->i32, "");
    LLVMValueRef mag = LLVMBuildAnd(L->b, x, llvm_kernel_i32(L, 0x7f), "");
    LLVMValueRef sign = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, x, llvm_kernel_i32(L, 0x80), ""), llvm_kernel_i32(L, 24), "");
    LLVMValueRef normal = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, mag, llvm_kernel_i32(L, 20), ""),
                                       llvm_kernel_i32(L, 120 << 23), "");
    LLVMValueRef m = LLVMBuildAnd(L->b, mag, llvm_kernel_i32(L, 7), "");
    LLVMValueRef sub = LLVMBuildFMul(L->b, LLVMBuildUIToFP(L->b, m, L->f32, ""), LLVMConstReal(L->f32, 1.0 / 512), "");
    LLVMValueRef is_sub = LLVMBuildICmp(L->b, LLVMIntULT, mag, llvm_kernel_i32(L, 8), "");
    LLVMValueRef bits = LLVMBuildSelect(L->b, is_sub, LLVMBuildBitCast(L->b, sub, L->i32, ""), normal, "");
    LLVMValueRef is_nan = LLVMBuildICmp(L->b, LLVMIntEQ, mag, llvm_kernel_i32(L, 0x7f), "");
    bits = LLVMBuildSelect(L->b, is_nan, llvm_kernel_i32(L, 0x7fc00000), bits, "");
    return LLVMBuildBitCast(L->b, LLVMBuildOr(L->b, bits, sign, ""), L->f32, "");
}

/* f32 -> fp8 bits, rounded to nearest even and saturated to the largest
   finite value (infinity too), NaN -> S.1111111 (numeric.h
   numeric_double_to_fp8). A normal result is the f32's exponent and top
   mantissa bits shifted down, rebiased and rounded on the bits shifted out
   (a carry runs into the exponent, as it should); a subnormal one is
   |x| 2^(bias - 1 + M) rounded to an integer, cvt.rni. */
static LLVMValueRef f32_to_fp8(Lowering *L, LLVMValueRef v, DType dtype) {
    int mant = dtype == DT_F8E4M3 ? 3 : 2, bias = dtype == DT_F8E4M3 ? 7 : 15;
    int64_t max_code = dtype == DT_F8E4M3 ? 0x7e : 0x7b, shift = 23 - mant;
    LLVMValueRef bits = LLVMBuildBitCast(L->b, v, L->i32, "");
    LLVMValueRef sign = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, bits, llvm_kernel_i32(L, 24), ""), llvm_kernel_i32(L, 0x80), "");
    LLVMValueRef abs = LLVMBuildAnd(L->b, bits, llvm_kernel_i32(L, 0x7fffffff), "");
    LLVMValueRef kept = LLVMBuildLShr(L->b, abs, llvm_kernel_i32(L, shift), "");
    LLVMValueRef rest = LLVMBuildAnd(L->b, abs, llvm_kernel_i32(L, (1 << shift) - 1), "");
    LLVMValueRef half = llvm_kernel_i32(L, 1 << (shift - 1));
    LLVMValueRef odd = LLVMBuildTrunc(L->b, kept, L->i1, "");
    LLVMValueRef up = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntUGT, rest, half, ""),
                                  LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, rest, half, ""), odd, ""), "");
    LLVMValueRef normal = LLVMBuildAdd(L->b, LLVMBuildSub(L->b, kept, llvm_kernel_i32(L, (127 - bias) << mant), ""),
                                       LLVMBuildZExt(L->b, up, L->i32, ""), "");
    LLVMTypeRef f32 = L->f32;
    LLVMValueRef scaled = LLVMBuildFMul(L->b, LLVMBuildBitCast(L->b, abs, L->f32, ""),
                                        LLVMConstReal(L->f32, ldexp(1.0, bias - 1 + mant)), "");
    LLVMValueRef rounded = llvm_kernel_intrinsic(L, "llvm.roundeven", &f32, 1, &scaled, 1);
    LLVMValueRef sub = LLVMBuildFPToUI(L->b, rounded, L->i32, "");
    LLVMValueRef is_sub = LLVMBuildICmp(L->b, LLVMIntULT, abs, llvm_kernel_i32(L, (int64_t)(128 - bias) << 23), "");
    LLVMValueRef code = LLVMBuildSelect(L->b, is_sub, sub, normal, "");
    LLVMValueRef over = LLVMBuildICmp(L->b, LLVMIntUGT, code, llvm_kernel_i32(L, max_code), "");
    code = LLVMBuildSelect(L->b, over, llvm_kernel_i32(L, max_code), code, "");
    LLVMValueRef is_nan = LLVMBuildICmp(L->b, LLVMIntUGT, abs, llvm_kernel_i32(L, 0x7f800000), "");
    code = LLVMBuildSelect(L->b, is_nan, llvm_kernel_i32(L, 0x7f), code, "");
    return LLVMBuildTrunc(L->b, LLVMBuildOr(L->b, code, sign, ""), L->i8, "");
}

LLVMValueRef llvm_math_cast(Lowering *L, LLVMValueRef v, DType from, DType to) {
    if (from == to)
        return v;
    if (dtype_is_fp8(from))   /* exact in f32; then as an f32 (exact again for every float) */
        return llvm_math_cast(L, fp8_to_f32(L, v, from), DT_F32, to);
    if (dtype_is_fp8(to)) {
        /* an f32 that rounds to fp8 as the source would: itself, exact
           widenings, or one rounded to odd (24 bits >= 4 + 2) */
        LLVMValueRef f;
        if (from == DT_F32)
            f = v;
        else if (from == DT_F16 || from == DT_BF16)
            f = LLVMBuildFPExt(L->b, v, L->f32, "");
        else if (from == DT_F64)
            f = f32_round_to_odd(L, v);
        else if (from == DT_I64 || from == DT_U64)
            f = i64_to_f32_round_to_odd(L, v, from == DT_U64);
        else if (from == DT_BOOL)
            f = LLVMBuildUIToFP(L->b, v, L->f32, "");
        else
            f = f32_round_to_odd(L, dtype_is_signed(from) ? LLVMBuildSIToFP(L->b, v, L->f64, "")
                                                           : LLVMBuildUIToFP(L->b, v, L->f64, ""));
        return f32_to_fp8(L, f, to);
    }
    LLVMTypeRef tt = llvm_kernel_reg_type(L, to);
    if (to == DT_BOOL) {
        if (dtype_is_float(from))
            return LLVMBuildFCmp(L->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    }
    if (from == DT_BOOL)
        return dtype_is_float(to) ? LLVMBuildUIToFP(L->b, v, tt, "") : LLVMBuildZExt(L->b, v, tt, "");
    if (dtype_is_float(from) && dtype_is_float(to)) {
        if ((from == DT_F16 && to == DT_BF16) || (from == DT_BF16 && to == DT_F16))
            return LLVMBuildFPTrunc(L->b, LLVMBuildFPExt(L->b, v, L->f32, ""), tt, "");
        if (from == DT_F64 && to == DT_BF16)
            return LLVMBuildFPTrunc(L->b, f32_round_to_odd(L, v), tt, "");
        return float_rank(to) > float_rank(from) ? LLVMBuildFPExt(L->b, v, tt, "") : LLVMBuildFPTrunc(L->b, v, tt, "");
    }
    if (dtype_is_float(from)) {
        if (from == DT_F16 || from == DT_BF16) {
            v = LLVMBuildFPExt(L->b, v, L->f32, "");
            from = DT_F32;
        }
        LLVMTypeRef types[2] = {tt, llvm_kernel_reg_type(L, from)};
        return llvm_kernel_intrinsic(L, dtype_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", types, 2, &v, 1);
    }
    if (dtype_is_float(to)) {
        /* The 16-bit floats go through a wider float so that every target
           can convert. f16 through f32: an integer that f16 does not turn
           into infinity is exact in f32, so it rounds once. bf16 through f64:
           integers above 2^24 are not exact in f32, and rounding twice
           (int -> f32 -> bf16) can land on the wrong bf16; f64 holds every
           i32 and u32 exactly, and i64 and u64 go through an f32 rounded to odd. */
        if (to == DT_BF16 && (from == DT_I64 || from == DT_U64))
            return LLVMBuildFPTrunc(L->b, i64_to_f32_round_to_odd(L, v, from == DT_U64), tt, "");
        LLVMTypeRef via = to == DT_F16 ? L->f32 : to == DT_BF16 ? L->f64 : tt;
        LLVMValueRef f = dtype_is_signed(from) ? LLVMBuildSIToFP(L->b, v, via, "") : LLVMBuildUIToFP(L->b, v, via, "");
        if (to == DT_BF16)
            return LLVMBuildFPTrunc(L->b, f32_round_to_odd(L, f), tt, "");
        return via == tt ? f : LLVMBuildFPTrunc(L->b, f, tt, "");
    }
    int fb = dtype_bytes(from), tb = dtype_bytes(to);
    if (tb == fb)
        return v;
    if (tb < fb)
        return LLVMBuildTrunc(L->b, v, tt, "");
    return dtype_is_signed(from) ? LLVMBuildSExt(L->b, v, tt, "") : LLVMBuildZExt(L->b, v, tt, "");
}

/* ---- binary ---------------------------------------------------------------------------- */

static LLVMValueRef nonzero_divisor(Lowering *L, LLVMValueRef b) {
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(b));
    LLVMValueRef is_zero = LLVMBuildICmp(L->b, LLVMIntEQ, b, zero, "");
    return LLVMBuildSelect(L->b, is_zero, LLVMConstInt(LLVMTypeOf(b), 1, 0), b, "");
}

static LLVMValueRef minmax(Lowering *L, bool is_max, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    if (dtype == DT_BOOL)
        return is_max ? LLVMBuildOr(L->b, a, b, "") : LLVMBuildAnd(L->b, a, b, "");
    const char *name;
    if (dtype_is_float(dtype))
        name = is_max ? "llvm.maximum" : "llvm.minimum";
    else if (dtype_is_signed(dtype))
        name = is_max ? "llvm.smax" : "llvm.smin";
    else
        name = is_max ? "llvm.umax" : "llvm.umin";
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[2] = {a, b};
    return llvm_kernel_intrinsic(L, name, &t, 1, args, 2);
}

static LLVMValueRef compare(Lowering *L, IrOpcode opcode, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    if (dtype_is_float(dtype)) {
        LLVMRealPredicate p = opcode == IR_EQ ? LLVMRealOEQ : opcode == IR_NE ? LLVMRealUNE :
                              opcode == IR_LT ? LLVMRealOLT : opcode == IR_LE ? LLVMRealOLE :
                              opcode == IR_GT ? LLVMRealOGT : LLVMRealOGE;
        return LLVMBuildFCmp(L->b, p, a, b, "");
    }
    bool s = dtype_is_signed(dtype);
    LLVMIntPredicate p = opcode == IR_EQ ? LLVMIntEQ : opcode == IR_NE ? LLVMIntNE :
                         opcode == IR_LT ? (s ? LLVMIntSLT : LLVMIntULT) : opcode == IR_LE ? (s ? LLVMIntSLE : LLVMIntULE) :
                         opcode == IR_GT ? (s ? LLVMIntSGT : LLVMIntUGT) : (s ? LLVMIntSGE : LLVMIntUGE);
    return LLVMBuildICmp(L->b, p, a, b, "");
}

/* The `contract` flag on float +, - and *: LLVM may fuse a*b+c (and a*b-c,
   c-a*b) into one fma.rn, rounding once instead of twice, as nvcc does by
   default (-fmad=true) and Triton does. docs/language.md ("Floating-point
   contraction") documents it; the interpreter rounds twice, so the two can
   differ by the rounding error of the product. Constants fold to constants
   (no flag to set). */
static LLVMValueRef contract(LLVMValueRef v) {
    if (LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
        LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
    return v;
}

/* A two-argument libdevice function (__nv_<name>f on f32, __nv_<name> on
   f64), declared here; emit.c links libdevice when any is called. */
static LLVMValueRef libdevice2(Lowering *L, const char *name, DType work, LLVMValueRef a, LLVMValueRef b) {
    char full[64];
    snprintf(full, sizeof full, "__nv_%s%s", name, work == DT_F64 ? "" : "f");
    LLVMTypeRef t = work == DT_F64 ? L->f64 : L->f32;
    LLVMTypeRef params[2] = {t, t};
    LLVMTypeRef fty = LLVMFunctionType(t, params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->module, full);
    if (!fn)
        fn = LLVMAddFunction(L->module, full, fty);
    LLVMValueRef args[2] = {a, b};
    return LLVMBuildCall2(L->b, fty, fn, args, 2, "");
}

/* Float % is C's fmod, which is exact (the interpreter calls fmod). LLVM's
   NVPTX backend expands `frem` as x - trunc(x / y) * y with a rounded
   quotient, which is wrong whenever x / y rounds to or across an integer
   (9 % (1/3) gives -1.2e-7 for 0.33333334, 1e30 % 0.1 gives -1e23). So call
   libdevice's __nv_fmodf / __nv_fmod (exact, CUDA math API: 0 ulp). f16 and
   bf16 compute in f32: the operands widen exactly, and the exact remainder
   of two f16 (bf16) values is itself an f16 (bf16), so rounding back is
   exact too. Both are forward declared here; emit.c links libdevice when
   any __nv_ function is called. The result also takes the dividend's sign
   with copysign: fmod's sign is always the dividend's, a zero result
   included (-3 % 1.5 = -0, so 1 / (-3 % 1.5) = -inf); the frem expansion
   gave +0 there, and copysign makes that hold whatever libdevice does with
   zeros (a NaN's sign is unspecified, docs/language.md 7.2). */
static LLVMValueRef float_rem(Lowering *L, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    DType work = dtype == DT_F64 ? DT_F64 : DT_F32;
    LLVMTypeRef t = work == DT_F64 ? L->f64 : L->f32;
    LLVMValueRef x = llvm_math_cast(L, a, dtype, work);
    LLVMValueRef sign_args[2] = {libdevice2(L, "fmod", work, x, llvm_math_cast(L, b, dtype, work)), x};
    LLVMValueRef r = llvm_kernel_intrinsic(L, "llvm.copysign", &t, 1, sign_args, 2);
    return llvm_math_cast(L, r, work, dtype);
}

/* pow: libdevice's __nv_powf / __nv_pow (CUDA math API error bounds, the
   C99 special cases: pow(x, 0) = 1 even for NaN, pow(1, y) = 1, a negative
   x to a non-integer y is NaN). f16 and bf16 compute in f32 and round once. */
static LLVMValueRef float_pow(Lowering *L, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    DType work = dtype == DT_F64 ? DT_F64 : DT_F32;
    LLVMValueRef r = libdevice2(L, "pow", work, llvm_math_cast(L, a, dtype, work), llvm_math_cast(L, b, dtype, work));
    return llvm_math_cast(L, r, work, dtype);
}

/* x << n and x >> n as docs/language.md 7.5 defines them: n is unsigned,
   and n >= the width gives 0 (or -1 for an arithmetic shift of a negative
   x), where LLVM's shl/lshr/ashr would be poison. PTX's shl/shr clamp the
   amount the same way, so the selects can fold into the instruction. */
static LLVMValueRef shift(Lowering *L, IrOpcode opcode, bool is_signed, LLVMValueRef x, LLVMValueRef n) {
    LLVMTypeRef t = LLVMTypeOf(x);
    unsigned bits = LLVMGetIntTypeWidth(t);
    LLVMValueRef width = LLVMConstInt(t, bits, 0);
    LLVMValueRef in_range = LLVMBuildICmp(L->b, LLVMIntULT, n, width, "");
    LLVMValueRef amount = LLVMBuildSelect(L->b, in_range, n, LLVMConstInt(t, bits - 1, 0), "");
    if (opcode == IR_SHL)
        return LLVMBuildSelect(L->b, in_range, LLVMBuildShl(L->b, x, amount, ""), LLVMConstNull(t), "");
    if (is_signed)
        return LLVMBuildAShr(L->b, x, amount, "");   /* by bits - 1 past the width: the sign */
    return LLVMBuildSelect(L->b, in_range, LLVMBuildLShr(L->b, x, amount, ""), LLVMConstNull(t), "");
}

LLVMValueRef llvm_math_binary(Lowering *L, IrOpcode opcode, DType dtype, LLVMValueRef a, LLVMValueRef b) {
    bool f = dtype_is_float(dtype), s = dtype_is_signed(dtype);
    switch (opcode) {
    case IR_ADD: return f ? contract(LLVMBuildFAdd(L->b, a, b, "")) : dtype == DT_BOOL ? LLVMBuildXor(L->b, a, b, "") : LLVMBuildAdd(L->b, a, b, "");
    case IR_SUB: return f ? contract(LLVMBuildFSub(L->b, a, b, "")) : dtype == DT_BOOL ? LLVMBuildXor(L->b, a, b, "") : LLVMBuildSub(L->b, a, b, "");
    case IR_MUL: return f ? contract(LLVMBuildFMul(L->b, a, b, "")) : dtype == DT_BOOL ? LLVMBuildAnd(L->b, a, b, "") : LLVMBuildMul(L->b, a, b, "");
    case IR_DIV:
        if (f)
            return LLVMBuildFDiv(L->b, a, b, "");
        if (dtype == DT_BOOL)
            return a;
        return s ? LLVMBuildSDiv(L->b, a, nonzero_divisor(L, b), "") : LLVMBuildUDiv(L->b, a, nonzero_divisor(L, b), "");
    case IR_REM:
        if (f)
            return float_rem(L, dtype, a, b);
        if (dtype == DT_BOOL)
            return LLVMConstInt(L->i1, 0, 0);
        return s ? LLVMBuildSRem(L->b, a, nonzero_divisor(L, b), "") : LLVMBuildURem(L->b, a, nonzero_divisor(L, b), "");
    case IR_MIN: return minmax(L, false, dtype, a, b);
    case IR_MAX: return minmax(L, true, dtype, a, b);
    case IR_POW:
        if (!f)
            break;
        return float_pow(L, dtype, a, b);
    case IR_AND: return LLVMBuildAnd(L->b, a, b, "");
    case IR_OR: return LLVMBuildOr(L->b, a, b, "");
    case IR_XOR: return LLVMBuildXor(L->b, a, b, "");
    case IR_SHL: case IR_SHR: return shift(L, opcode, s, a, b);
    case IR_EQ: case IR_NE: case IR_LT: case IR_LE: case IR_GT: case IR_GE: return compare(L, opcode, dtype, a, b);
    default: break;
    }
    INTERNAL_ERROR("kernel '%s': binary op '%s'", L->kernel->name, ir_opcode_name(opcode));
}

/* ---- unary ----------------------------------------------------------------------------- */

/* A libdevice function (CUDA libdevice users guide): __nv_<name>f on f32,
   __nv_<name> on f64; emit.c links libdevice.10.bc when any is called. */
static LLVMValueRef libdevice(Lowering *L, const char *name, DType dtype, LLVMValueRef x) {
    char full[64];
    snprintf(full, sizeof full, "__nv_%s%s", name, dtype == DT_F64 ? "" : "f");
    LLVMTypeRef t = dtype == DT_F64 ? L->f64 : L->f32;
    LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->module, full);
    if (!fn)
        fn = LLVMAddFunction(L->module, full, fty);
    return LLVMBuildCall2(L->b, fty, fn, &x, 1, "");
}

/* exp and exp2 in f32 (also the f16/bf16 ones, which compute in f32) on
   ex2.approx.f32 (PTX ISA 9.7.3.20 ex2; not .ftz: subnormal inputs and
   results are kept), about 2 SASS instructions (MUFU.EX2 and a scale)
   against libdevice's __nv_expf range reduction and polynomial.

   exp(x) = 2^(x log2 e). The product x*log2e is rounded to t, and its
   rounding error is carried as a correction: with log2e = hi + lo (hi the
   f32 nearest log2 e, lo the rest), c = fma(x, hi, -t) + x*lo is
   x*log2e - t to about 2^-48 relative, and
       exp(x) = 2^t * 2^c ~= ex2(t) * (1 + c ln 2) = fma(e, c ln 2, e),
   with |c| <= 2^-17 (half an ulp of t <= 128), so the linear term is exact
   to 2^-35. What is left is ex2.approx's own error on t (t is exact).
   Outside -150 < t < 128 (x = +-inf, overflow, underflow to 0) the result
   is ex2(t) alone: the correction would make NaN of an infinite 2^t. docs/codegen.md ("Math functions") gives the resulting
   error bound and the edge cases; bench/exp_ulp.c checks it. */
static LLVMValueRef ex2_approx(Lowering *L, LLVMValueRef t) {
    LLVMTypeRef f32 = L->f32;
    return llvm_kernel_intrinsic(L, "llvm.nvvm.ex2.approx", &f32, 1, &t, 1);
}

/* exp2_ftz in f32 (f16/bf16 through f32): ex2.approx.ftz.f32, one MUFU.EX2
   with no range handling around it. Its meaning (docs/language.md 9.6) is
   exp2's with results below 2^-126 as +0 and subnormal inputs as 0, which
   is what .ftz does to ex2.approx.f32 (PTX ISA 9.7.3.20); the interpreter
   computes exactly that (compiler/ir/numeric.h). */
static LLVMValueRef ex2_approx_ftz(Lowering *L, LLVMValueRef t) {
    LLVMTypeRef f32 = L->f32;
    return llvm_kernel_intrinsic(L, "llvm.nvvm.ex2.approx.ftz", &f32, 1, &t, 1);
}

static LLVMValueRef fma_f32(Lowering *L, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
    LLVMTypeRef f32 = L->f32;
    LLVMValueRef args[3] = {a, b, c};
    return llvm_kernel_intrinsic(L, "llvm.fma", &f32, 1, args, 3);
}

static LLVMValueRef exp_f32(Lowering *L, LLVMValueRef x) {
    LLVMValueRef hi = LLVMConstReal(L->f32, (double)1.44269502162933349609375f);   /* 0x3fb8aa3b */
    LLVMValueRef lo = LLVMConstReal(L->f32, (double)1.925963033500011e-08f);       /* log2(e) - hi */
    LLVMValueRef ln2 = LLVMConstReal(L->f32, (double)0.693147182464599609375f);
    LLVMValueRef t = LLVMBuildFMul(L->b, x, hi, "");
    LLVMValueRef c = fma_f32(L, x, hi, LLVMBuildFNeg(L->b, t, ""));
    c = fma_f32(L, x, lo, c);
    LLVMTypeRef f32 = L->f32;
    LLVMValueRef e = ex2_approx(L, t);
    LLVMValueRef r = fma_f32(L, e, LLVMBuildFMul(L->b, c, ln2, ""), e);
    /* Outside -150 < t < 128 (and for NaN): 2^t alone, which is inf or 0
       there (or NaN); the correction would make NaN of it (inf * c + inf
       with c < 0, or c = inf - inf for x = +-inf). */
    (void)f32;
    LLVMValueRef below = LLVMBuildFCmp(L->b, LLVMRealOLT, t, LLVMConstReal(L->f32, 128.0), "");
    LLVMValueRef above = LLVMBuildFCmp(L->b, LLVMRealOGT, t, LLVMConstReal(L->f32, -150.0), "");
    return LLVMBuildSelect(L->b, LLVMBuildAnd(L->b, below, above, ""), r, e, "");
}

/* rsqrt of f32 and f64: rsqrt.approx.f32 (not .ftz) and rsqrt.approx.f64
   (PTX ISA, "rsqrt"), which is all that libdevice's __nv_rsqrtf (with
   nvvm-reflect-ftz = 0) and __nv_rsqrt are: the same instruction, without
   linking and optimizing libdevice for it (about 100 ms of compile time for
   a layer norm). f16/bf16 compute in f32 and round once. */
static LLVMValueRef rsqrt_approx(Lowering *L, DType work, LLVMValueRef x) {
    return llvm_kernel_intrinsic(L, work == DT_F64 ? "llvm.nvvm.rsqrt.approx.d" : "llvm.nvvm.rsqrt.approx.f", NULL, 0,
                                 &x, 1);
}

static LLVMValueRef math_function(Lowering *L, IrOpcode opcode, DType dtype, LLVMValueRef x) {
    if (!dtype_is_float(dtype))
        INTERNAL_ERROR("kernel '%s': %s of %s", L->kernel->name, ir_opcode_name(opcode), dtype_name(dtype));
    DType work = dtype == DT_F64 ? DT_F64 : DT_F32;
    LLVMValueRef v = llvm_math_cast(L, x, dtype, work);
    LLVMValueRef r;
    switch (opcode) {
    case IR_EXP: r = work == DT_F32 ? exp_f32(L, v) : libdevice(L, "exp", work, v); break;
    case IR_EXP2: r = work == DT_F32 ? ex2_approx(L, v) : libdevice(L, "exp2", work, v); break;
    case IR_EXP2_FTZ:
        if (work != DT_F32)   /* the verifier allows f16, bf16 and f32 only */
            INTERNAL_ERROR("kernel '%s': exp2_ftz of %s", L->kernel->name, dtype_name(dtype));
        r = ex2_approx_ftz(L, v);
        break;
    case IR_LOG: r = libdevice(L, "log", work, v); break;
    case IR_LOG2: r = libdevice(L, "log2", work, v); break;
    case IR_SQRT: {
        /* llvm.sqrt is sqrt.rn (correctly rounded, as the interpreter and
           nvcc's default are); libdevice's __nv_sqrtf picks sqrt.approx
           unless __CUDA_PREC_SQRT is reflected as 1. */
        LLVMTypeRef t = LLVMTypeOf(v);
        r = llvm_kernel_intrinsic(L, "llvm.sqrt", &t, 1, &v, 1);
        break;
    }
    case IR_RSQRT: r = rsqrt_approx(L, work, v); break;
    case IR_TANH: r = libdevice(L, "tanh", work, v); break;
    case IR_SIN: r = libdevice(L, "sin", work, v); break;
    case IR_COS: r = libdevice(L, "cos", work, v); break;
    case IR_ERF: r = libdevice(L, "erf", work, v); break;
    /* exact: cvt.rmi / rpi / rzi / rni (PTX ISA, cvt with integer rounding
       to a float); llvm.roundeven is half to even, as the interpreter's
       nearbyint in the default rounding mode */
    case IR_FLOOR: case IR_CEIL: case IR_TRUNC: case IR_ROUND: {
        const char *name = opcode == IR_FLOOR ? "llvm.floor" : opcode == IR_CEIL ? "llvm.ceil"
                           : opcode == IR_TRUNC ? "llvm.trunc" : "llvm.roundeven";
        LLVMTypeRef t = LLVMTypeOf(v);
        r = llvm_kernel_intrinsic(L, name, &t, 1, &v, 1);
        break;
    }
    case IR_SIGMOID: {
        /* 1 / (1 + exp(-x)) */
        LLVMValueRef one = LLVMConstReal(LLVMTypeOf(v), 1.0);
        LLVMValueRef nv = LLVMBuildFNeg(L->b, v, "");
        LLVMValueRef e = work == DT_F32 ? exp_f32(L, nv) : libdevice(L, "exp", work, nv);
        r = LLVMBuildFDiv(L->b, one, LLVMBuildFAdd(L->b, one, e, ""), "");
        break;
    }
    default: INTERNAL_ERROR("kernel '%s': math op '%s'", L->kernel->name, ir_opcode_name(opcode));
    }
    return llvm_math_cast(L, r, work, dtype);
}

static LLVMValueRef unary(Lowering *L, IrOpcode opcode, DType dtype, LLVMValueRef x) {
    switch (opcode) {
    case IR_NEG:
        if (dtype_is_float(dtype))
            return LLVMBuildFNeg(L->b, x, "");
        return dtype == DT_BOOL ? x : LLVMBuildSub(L->b, LLVMConstNull(LLVMTypeOf(x)), x, "");
    case IR_NOT: return LLVMBuildNot(L->b, x, "");
    case IR_ABS: {
        LLVMTypeRef t = LLVMTypeOf(x);
        if (dtype_is_float(dtype))
            return llvm_kernel_intrinsic(L, "llvm.fabs", &t, 1, &x, 1);
        if (!dtype_is_signed(dtype))
            return x;
        LLVMValueRef args[2] = {x, LLVMConstInt(L->i1, 0, 0)};
        return llvm_kernel_intrinsic(L, "llvm.abs", &t, 1, args, 2);
    }
    default: return math_function(L, opcode, dtype, x);
    }
}

/* One element of op from its operands' elements. */
static LLVMValueRef element(Lowering *L, IrOp *op, LLVMValueRef *args) {
    DType in = op->operands[op->opcode == IR_SELECT ? 1 : 0]->type.dtype;
    if (op->opcode == IR_SELECT)
        return LLVMBuildSelect(L->b, args[0], args[1], args[2], "");
    if (op->opcode == IR_CAST)
        return llvm_math_cast(L, args[0], in, op->results[0]->type.dtype);
    if (op->opcode == IR_BITCAST)   /* half/bfloat/float/double and the integers of their widths */
        return LLVMBuildBitCast(L->b, args[0], llvm_kernel_reg_type(L, op->results[0]->type.dtype), "");
    if (ir_opcode_is_elementwise_binary(op->opcode))
        return llvm_math_binary(L, op->opcode, in, args[0], args[1]);
    return unary(L, op->opcode, in, args[0]);
}

void llvm_math_elementwise(Lowering *L, IrOp *op) {
    IrValue *r = op->results[0];
    const Layout *layout = layout_of(L->plan, r);
    LLVMValueRef args[3];
    if (op->num_operands > 3)
        INTERNAL_ERROR("kernel '%s': %s with %d operands", L->kernel->name, ir_opcode_name(op->opcode), op->num_operands);
    if (L->plan->values[r->id].flexible || r->type.rank == 0) {
        for (int i = 0; i < op->num_operands; i++)
            args[i] = llvm_kernel_scalar(L, op->operands[i]);
        llvm_kernel_set_tile(L, r, llvm_kernel_splat(L, layout, &r->type, element(L, op, args)));
        return;
    }
    Tile *ops[3];
    for (int i = 0; i < op->num_operands; i++)
        ops[i] = llvm_kernel_operand(L, op, i);
    Tile *t = llvm_kernel_tile_new(L, layout, &r->type);
    for (int64_t reg = 0; reg < t->num_regs; reg++) {
        for (int i = 0; i < op->num_operands; i++)
            args[i] = ops[i]->regs[reg];
        t->regs[reg] = element(L, op, args);
    }
    llvm_kernel_set_tile(L, r, t);
}
