/*
 * numeric.h: what one element of each dtype computes. The one home of the
 * scalar semantics of docs/language.md (3.1 dtypes, 3.4 weak values, 7.2
 * operators and float rounding) and docs/interpreter.md ("Casts"): the
 * interpreter calls the per-element functions below in its loops, constant
 * folding (passes/fold.c) and sema's compile-time values (front/sema.c,
 * front/lower.c) call the Scalar functions of numeric.c, which are built
 * from the same per-element functions. The interpreter defines what a kernel
 * means, so these are its rules; the GPU lowering implements them.
 *
 * Representation: a value of a float dtype is a double that holds a value of
 * that dtype exactly; a value of an integer dtype or bool is an int64 that
 * holds its canonical value (signed dtypes sign-extended, unsigned ones
 * zero-extended, bool 0 or 1; u64 its bits, so that one above INT64_MAX is
 * negative as an int64 and the ops that order or divide read it unsigned). An operation computes in double or int64 and
 * then rounds (numeric_round) or wraps (numeric_wrap) once to the result's
 * dtype; for + - * / and sqrt computing in double and rounding once is exact
 * because double has more than 2p+2 significand bits for every p here.
 *
 * The per-element functions are static inline: the interpreter calls them
 * with a constant opcode or dtype inside a loop per op, so each collapses
 * to the one operation it names (no per-element dispatch).
 */
#ifndef TESSERA_NUMERIC_H
#define TESSERA_NUMERIC_H

#include "ir.h"

#include <math.h>
#include <string.h>

/* ---- rounding and wrapping to a dtype ---------------------------------------- */

/* `v` wrapped to an integer dtype: two's complement for signed dtypes,
   modulo 2^w for unsigned ones; bool is v != 0. i64 and u64 are their bits. */
static inline int64_t numeric_wrap(DType dtype, int64_t v) {
    switch (dtype) {
    case DT_BOOL: return v != 0;
    case DT_I8: return (int8_t)(uint8_t)(uint64_t)v;
    case DT_I16: return (int16_t)(uint16_t)(uint64_t)v;
    case DT_I32: return (int32_t)(uint32_t)(uint64_t)v;
    case DT_U8: return (int64_t)((uint64_t)v & 0xff);
    case DT_U16: return (int64_t)((uint64_t)v & 0xffff);
    case DT_U32: return (int64_t)((uint64_t)v & 0xffffffffu);
    default: return v;
    }
}

/* `x` rounded to nearest even in a binary format with `digits` significand
   bits (the implicit one included), normal exponents [emin, emax] and
   subnormals below; overflow gives infinity, as cvt.rn does. NaN stays NaN
   (its payload is unspecified, docs/language.md 7.2). Integer arithmetic on
   the bits, so it does not depend on the FPU's rounding mode. */
static inline double numeric_round_binary(double x, int digits, int emin, int emax, double max_finite) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int biased = (int)((bits >> 52) & 0x7ff);
    bool negative = bits >> 63;
    if (biased == 0x7ff)
        return x;
    if (biased == 0)
        return negative ? -0.0 : 0.0;   /* zero, or a double subnormal: far below half an ulp */
    int e = biased - 1023;
    if (e > emax)
        return negative ? -INFINITY : INFINITY;
    int quantum = (e < emin ? emin : e) - (digits - 1);
    int shift = quantum - (e - 52);    /* low significand bits to drop */
    if (shift <= 0)
        return x;
    uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    uint64_t q = 0;
    if (shift < 64) {
        q = m >> shift;
        uint64_t rest = m & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
        if (rest > half || (rest == half && (q & 1)))
            q++;
    }
    uint64_t scale_bits = (uint64_t)(quantum + 1023) << 52;
    double scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    double r = (double)q * scale;
    if (r > max_finite)
        r = INFINITY;
    return negative ? -r : r;
}

#define NUMERIC_F16_MAX 65504.0
#define NUMERIC_BF16_MAX 3.3895313892515355e38
#define NUMERIC_E4M3_MAX 448.0
#define NUMERIC_E5M2_MAX 57344.0

/* `x` rounded to nearest even in fp8, saturating: a value past the largest
   finite one (infinity too) becomes it, with its sign, as PTX's
   cvt.rn.satfinite does; NaN stays NaN. */
static inline double numeric_round_fp8(DType dtype, double x) {
    double max = dtype == DT_F8E4M3 ? NUMERIC_E4M3_MAX : NUMERIC_E5M2_MAX;
    double r = dtype == DT_F8E4M3 ? numeric_round_binary(x, 4, -6, 8, max) : numeric_round_binary(x, 3, -14, 15, max);
    if (isinf(r))
        return r > 0 ? max : -max;
    return r;
}

/* `x` rounded to nearest even in a float dtype (f64: itself). */
static inline double numeric_round(DType dtype, double x) {
    switch (dtype) {
    case DT_F16: return numeric_round_binary(x, 11, -14, 15, NUMERIC_F16_MAX);
    case DT_BF16: return numeric_round_binary(x, 8, -126, 127, NUMERIC_BF16_MAX);
    case DT_F8E4M3:
    case DT_F8E5M2: return numeric_round_fp8(dtype, x);
    case DT_F32: return (double)(float)x;
    default: return x;
    }
}

/* ---- floats ------------------------------------------------------------------ */

/* maxnum / minnum, as the GPU's float atomics compute them (LLVM's atomicrmw
   fmax / fmin): a NaN operand is ignored unless both are NaN; -0 < +0. */
static inline double numeric_maxnum(double x, double y) {
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

static inline double numeric_minnum(double x, double y) {
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}

/* The elementwise and reduction max and min (LLVM's maximum / minimum, PTX
   max.NaN / min.NaN): as above, but a NaN operand makes the result NaN. */
static inline double numeric_maximum(double x, double y) { return x != x || y != y ? x + y : numeric_maxnum(x, y); }
static inline double numeric_minimum(double x, double y) { return x != x || y != y ? x + y : numeric_minnum(x, y); }

/* A float binary op (add sub mul div rem min max) before rounding to the
   dtype. `%` is C's fmod: exact, with the sign of the dividend. Division by
   zero is IEEE's (+-inf, or NaN for 0/0 and x % 0). */
static inline double numeric_float_op(IrOpcode opcode, double x, double y) {
    switch (opcode) {
    case IR_ADD: return x + y;
    case IR_SUB: return x - y;
    case IR_MUL: return x * y;
    case IR_DIV: return x / y;
    case IR_REM: return fmod(x, y);
    case IR_MIN: return numeric_minimum(x, y);
    case IR_MAX: return numeric_maximum(x, y);
    case IR_POW: return pow(x, y);
    default: return NAN;
    }
}

/* A float comparison; NaN compares unordered (only != is true). */
static inline bool numeric_float_compare(IrOpcode opcode, double x, double y) {
    switch (opcode) {
    case IR_EQ: return x == y;
    case IR_NE: return x != y;
    case IR_LT: return x < y;
    case IR_LE: return x <= y;
    case IR_GT: return x > y;
    case IR_GE: return x >= y;
    default: return false;
    }
}

/* A float unary op before rounding to the dtype. The math functions are
   libm's in double (correctly rounded or nearly); the GPU's are approximate
   (docs/language.md 9.6), which is why fold leaves them alone. */
static inline double numeric_float_unary(IrOpcode opcode, double x) {
    switch (opcode) {
    case IR_NEG: return -x;
    case IR_ABS: return fabs(x);
    case IR_EXP: return exp(x);
    case IR_EXP2: return exp2(x);
    /* 2^x is below 2^-126, the smallest normal f32, exactly when x < -126:
       those results are +0 (docs/language.md 9.6). A subnormal x would
       count as 0, which changes nothing (2^x rounds to 1 either way). */
    case IR_EXP2_FTZ: return x < -126.0 ? 0.0 : exp2(x);
    case IR_LOG: return log(x);
    case IR_LOG2: return log2(x);
    case IR_SQRT: return sqrt(x);
    case IR_RSQRT: return 1.0 / sqrt(x);
    case IR_TANH: return tanh(x);
    case IR_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case IR_SIN: return sin(x);
    case IR_COS: return cos(x);
    case IR_ERF: return erf(x);
    case IR_FLOOR: return floor(x);
    case IR_CEIL: return ceil(x);
    case IR_TRUNC: return trunc(x);
    /* half to even, as numpy's round and PTX's cvt.rni; the default
       rounding mode is round-to-nearest-even */
    case IR_ROUND: return nearbyint(x);
    default: return NAN;
    }
}

static inline bool numeric_float_unary_defined(IrOpcode opcode) {
    return opcode == IR_NEG || opcode == IR_ABS || (opcode >= IR_EXP && opcode <= IR_ROUND);
}

/* ---- integers ------------------------------------------------------------------ */

/* An integer binary op on canonical values of `dtype`, before wrapping to
   it: + - * wrap, / and % truncate toward zero as in C, x / -1 is -x (which
   wraps for the most negative x) and x % -1 is 0, min, max and the
   comparisons order canonical values (unsigned ones below u64 are
   non-negative, so signed order is right; u64's bits are read unsigned, as
   are its / and %), and, or and xor on the bits (of two's complement: on canonical
   values, sign-extended or non-negative, the result is canonical; on bools
   they are && || !=), comparisons give 0 or 1. Shifts need the dtype:
   numeric_int_shift. A zero divisor is
   the caller's to reject first (the interpreter reports it, fold and sema
   leave the op alone or report it); here it gives 0. */
static inline int64_t numeric_int_op(IrOpcode opcode, DType dtype, int64_t x, int64_t y) {
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    if (dtype == DT_U64) {
        switch (opcode) {
        case IR_DIV: return uy == 0 ? 0 : (int64_t)(ux / uy);
        case IR_REM: return uy == 0 ? 0 : (int64_t)(ux % uy);
        case IR_MIN: return ux < uy ? x : y;
        case IR_MAX: return ux > uy ? x : y;
        case IR_LT: return ux < uy;
        case IR_LE: return ux <= uy;
        case IR_GT: return ux > uy;
        case IR_GE: return ux >= uy;
        default: break;
        }
    }
    switch (opcode) {
    case IR_ADD: return (int64_t)(ux + uy);
    case IR_SUB: return (int64_t)(ux - uy);
    case IR_MUL: return (int64_t)(ux * uy);
    case IR_DIV: return y == 0 ? 0 : y == -1 ? (int64_t)(0 - ux) : x / y;
    case IR_REM: return y == 0 || y == -1 ? 0 : x % y;
    case IR_MIN: return x < y ? x : y;
    case IR_MAX: return x > y ? x : y;
    case IR_AND: return x & y;
    case IR_OR: return x | y;
    case IR_XOR: return x ^ y;
    case IR_EQ: return x == y;
    case IR_NE: return x != y;
    case IR_LT: return x < y;
    case IR_LE: return x <= y;
    case IR_GT: return x > y;
    case IR_GE: return x >= y;
    default: return 0;
    }
}

/* shl and shr of x by n in `dtype` (docs/language.md 7.5), before
   wrapping: n is read as an unsigned number of the dtype (a negative n is
   a large one); n >= the dtype's bits gives 0, or for shr of a negative
   signed x -1 (the sign shifted in), as PTX's shl/shr clamp the amount.
   shr is arithmetic for signed dtypes and logical for unsigned ones; on
   canonical values (sign-extended or non-negative, u64's bits read
   unsigned) the i64 shifts are the dtype's. */
static inline int64_t numeric_int_shift(IrOpcode opcode, DType dtype, int64_t x, int64_t n) {
    int bits = 8 * dtype_bytes(dtype);
    uint64_t amount = bits == 64 ? (uint64_t)n : (uint64_t)n & ((UINT64_C(1) << bits) - 1);
    bool negative = x < 0 && dtype != DT_U64;
    if (amount >= (uint64_t)bits)
        return opcode == IR_SHR && negative ? -1 : 0;
    if (opcode == IR_SHL)
        return (int64_t)((uint64_t)x << amount);
    return negative ? -(int64_t)((~(uint64_t)x) >> amount) - 1 : (int64_t)((uint64_t)x >> amount);
}

/* neg, abs (both wrap: abs of the most negative value is itself) and not
   (! on a bool, the bits flipped on an integer: ~x of a canonical value
   is canonical before wrapping to an unsigned dtype). */
static inline int64_t numeric_int_unary(IrOpcode opcode, DType dtype, int64_t x) {
    switch (opcode) {
    case IR_NEG: return (int64_t)(0 - (uint64_t)x);
    case IR_ABS: return x < 0 && dtype != DT_U64 ? (int64_t)(0 - (uint64_t)x) : x;
    case IR_NOT: return dtype == DT_BOOL ? !x : ~x;
    default: return 0;
    }
}

/* ---- casts ------------------------------------------------------------------- */

/* float -> integer as PTX cvt.rzi.sat: truncate, saturate to the dtype's
   range, NaN -> 0; float -> bool is x != 0 (so NaN is true). */
static inline int64_t numeric_float_to_int(DType to, double x) {
    if (to == DT_BOOL)
        return x != 0;
    if (x != x)
        return 0;
    double lo, hi;
    switch (to) {
    case DT_I8: lo = -128; hi = 127; break;
    case DT_I16: lo = -32768; hi = 32767; break;
    case DT_I32: lo = -2147483648.0; hi = 2147483647.0; break;
    case DT_U8: lo = 0; hi = 255; break;
    case DT_U16: lo = 0; hi = 65535; break;
    case DT_U32: lo = 0; hi = 4294967295.0; break;
    case DT_U64:
        if (x >= 18446744073709551616.0)
            return -1;   /* UINT64_MAX's bits */
        if (x <= 0)
            return 0;
        return (int64_t)(uint64_t)x;
    default:
        if (x >= 9223372036854775808.0)
            return INT64_MAX;
        if (x < -9223372036854775808.0)
            return INT64_MIN;
        return (int64_t)x;
    }
    x = trunc(x);
    return (int64_t)(x < lo ? lo : x > hi ? hi : x);
}

/* An integer as a double, rounded once even beyond 2^53: the bits shifted
   out are folded into a sticky bit (round to odd), so a rounding to a
   narrower format after it is still correct. For f64 itself use (double)v. */
static inline double numeric_int_to_double_odd(int64_t v) {
    if (v > -(INT64_C(1) << 53) && v < (INT64_C(1) << 53))
        return (double)v;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    int shift = 0;
    while ((u >> shift) >= (UINT64_C(1) << 53))
        shift++;
    uint64_t kept = (u >> shift) | ((u & ((UINT64_C(1) << shift) - 1)) != 0);
    double d = ldexp((double)kept, shift);
    return v < 0 ? -d : d;
}

/* integer or bool of dtype `from` -> float dtype `to`, rounded once to
   nearest even (a u64's bits read unsigned). */
static inline double numeric_int_to_float(DType to, DType from, int64_t v) {
    if (from == DT_U64 && v < 0) {
        /* 2^63 and up: halve with the lost bit kept sticky (round to odd),
           convert, double back; exact, since 2x is a power-of-two scaling */
        uint64_t u = (uint64_t)v;
        if (to == DT_F64)
            return (double)u;
        double half = numeric_int_to_double_odd((int64_t)((u >> 1) | (u & 1)));
        return numeric_round(to, half * 2.0);
    }
    if (to == DT_F64)
        return (double)v;
    return numeric_round(to, numeric_int_to_double_odd(v));
}

/* ---- 16-bit float bits ---------------------------------------------------------- */

/* Every f16 bit pattern as a double (numeric.c fills it on first use). */
const double *numeric_f16_values(void);

static inline double numeric_f16_to_double(uint16_t bits) { return numeric_f16_values()[bits]; }

static inline double numeric_bf16_to_double(uint16_t bits) {
    uint32_t b = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* `value` rounded to f16 / bf16 (nearest even), as bits. A NaN keeps its
   sign and becomes the quiet NaN x86 gives (f16 0x7e00, bf16 0x7fc0, with
   the sign bit); the GPU's canonical NaN may differ (docs/language.md 7.2). */
static inline uint16_t numeric_double_to_f16(double value) {
    double r = numeric_round(DT_F16, value);
    uint64_t bits;
    memcpy(&bits, &r, sizeof bits);
    uint16_t sign = (uint16_t)((bits >> 48) & 0x8000);
    if (r != r)
        return sign | 0x7e00;
    double a = fabs(r);
    if (isinf(a))
        return sign | 0x7c00;
    if (a < 6.103515625e-05)   /* 2^-14: subnormal or zero, a multiple of 2^-24 */
        return sign | (uint16_t)(a * 16777216.0);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((bits >> 42) & 0x3ff);
}

static inline uint16_t numeric_double_to_bf16(double value) {
    float f = (float)numeric_round(DT_BF16, value);   /* exact: bf16 values are floats */
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    if (f != f)
        return (uint16_t)((b >> 16) | 0x40);
    return (uint16_t)(b >> 16);
}

/* fp8 bits as a double, and a double (an fp8 value, or rounded to one) as
   bits: e4m3 is 1-4-3 with bias 7, no infinity, S.1111.111 NaN (0x7f with
   the sign); e5m2 is 1-5-2 with bias 15, f16's upper byte (its infinities
   and NaNs; 0x7f the NaN given). */
static inline double numeric_fp8_to_double(DType dtype, uint8_t bits) {
    int mant_bits = dtype == DT_F8E4M3 ? 3 : 2, bias = dtype == DT_F8E4M3 ? 7 : 15;
    int e = (bits & 0x7f) >> mant_bits, m = bits & ((1 << mant_bits) - 1), top = (1 << (7 - mant_bits)) - 1;
    double v;
    if (dtype == DT_F8E4M3 && e == top && m == (1 << mant_bits) - 1)
        v = NAN;
    else if (dtype == DT_F8E5M2 && e == top)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mant_bits);
    else
        v = ldexp((double)(m | 1 << mant_bits), e - bias - mant_bits);
    return (bits & 0x80) ? -v : v;
}

static inline uint8_t numeric_double_to_fp8(DType dtype, double value) {
    /* the bits of an fp8 value (a store, a bitcast): an e5m2 infinity, which
       loads can give, is itself; anything else rounds as a cast does */
    if (dtype == DT_F8E5M2 && isinf(value))
        return value < 0 ? 0xfc : 0x7c;
    double r = numeric_round_fp8(dtype, value);
    uint8_t sign = signbit(r) ? 0x80 : 0;
    if (r != r)
        return sign | 0x7f;
    double a = fabs(r);
    int mant_bits = dtype == DT_F8E4M3 ? 3 : 2, bias = dtype == DT_F8E4M3 ? 7 : 15;
    double min_normal = ldexp(1.0, 1 - bias);
    if (a < min_normal)   /* subnormal or zero: a multiple of the quantum */
        return sign | (uint8_t)(a / ldexp(1.0, 1 - bias - mant_bits));
    int e;
    double frac = frexp(a, &e);   /* a = frac 2^e, frac in [0.5, 1) */
    int m = (int)(frac * (1 << (mant_bits + 1))) - (1 << mant_bits);
    return sign | (uint8_t)((e - 1 + bias) << mant_bits | m);
}

/* ---- scalars: constant folding and compile-time values ------------------------------ */

/* One value of a dtype: `f` for float dtypes, `i` (canonical) otherwise. */
typedef struct Scalar {
    DType dtype;
    int64_t i;
    double f;
} Scalar;

/* A scalar of `dtype` from an int64 (wrapped) or a double (rounded). */
Scalar numeric_int(DType dtype, int64_t v);
Scalar numeric_float(DType dtype, double v);
/* a op b, both of one dtype; a comparison gives a bool. False when the
   result is not defined: integer / or % by zero, or an op the dtype lacks. */
bool numeric_binary(IrOpcode opcode, Scalar a, Scalar b, Scalar *out);
/* op a; false for an op the dtype lacks (math functions on integers). */
bool numeric_unary(IrOpcode opcode, Scalar a, Scalar *out);
/* a as `to` (any dtype to any dtype; docs/interpreter.md "Casts"). */
Scalar numeric_cast(Scalar a, DType to);

#endif
