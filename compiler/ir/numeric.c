/*
 * numeric.c: the scalar operations of numeric.h on one typed value, for
 * constant folding (passes/fold.c) and sema's compile-time values.
 *
 * In: Scalars of one dtype. Out: the Scalar the interpreter would compute
 * for one element, built from numeric.h's per-element functions (so the
 * interpreter, fold and sema cannot drift apart), or false where the result
 * is not defined (integer division by zero) or the op does not apply.
 * Whether a defined result may be folded is the caller's policy: fold leaves
 * the math functions and division by zero alone (docs/ir.md, `fold`).
 */
#include "numeric.h"

static double f16_values[65536];
static bool f16_values_ready;

const double *numeric_f16_values(void) {
    if (!f16_values_ready) {
        for (uint32_t h = 0; h < 65536; h++) {
            uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
            double v;
            if (exponent == 0)
                v = ldexp((double)mantissa, -24);
            else if (exponent == 31)
                v = mantissa ? NAN : INFINITY;
            else
                v = ldexp((double)(mantissa | 0x400), (int)exponent - 25);
            f16_values[h] = (h & 0x8000) ? -v : v;
        }
        f16_values_ready = true;
    }
    return f16_values;
}

Scalar numeric_int(DType dtype, int64_t v) {
    if (dtype_is_float(dtype))
        return (Scalar){.dtype = dtype, .f = numeric_int_to_float(dtype, DT_I64, v)};
    return (Scalar){.dtype = dtype, .i = numeric_wrap(dtype, v)};
}

Scalar numeric_float(DType dtype, double v) {
    if (dtype_is_float(dtype))
        return (Scalar){.dtype = dtype, .f = numeric_round(dtype, v)};
    return (Scalar){.dtype = dtype, .i = numeric_float_to_int(dtype, v)};
}

static Scalar bool_scalar(bool v) { return (Scalar){.dtype = DT_BOOL, .i = v}; }

bool numeric_binary(IrOpcode opcode, Scalar a, Scalar b, Scalar *out) {
    DType dtype = a.dtype;
    if (ir_opcode_is_compare(opcode)) {
        *out = bool_scalar(dtype_is_float(dtype) ? numeric_float_compare(opcode, a.f, b.f)
                                                 : numeric_int_op(opcode, dtype, a.i, b.i));
        return true;
    }
    if (dtype_is_float(dtype)) {
        if (opcode == IR_AND || opcode == IR_OR || opcode == IR_XOR || opcode == IR_SHL || opcode == IR_SHR)
            return false;
        *out = (Scalar){.dtype = dtype, .f = numeric_round(dtype, numeric_float_op(opcode, a.f, b.f))};
        return true;
    }
    if ((opcode == IR_DIV || opcode == IR_REM) && b.i == 0)
        return false;
    if (opcode == IR_SHL || opcode == IR_SHR) {
        if (dtype == DT_BOOL)
            return false;
        *out = (Scalar){.dtype = dtype, .i = numeric_wrap(dtype, numeric_int_shift(opcode, dtype, a.i, b.i))};
        return true;
    }
    *out = (Scalar){.dtype = dtype, .i = numeric_wrap(dtype, numeric_int_op(opcode, dtype, a.i, b.i))};
    return true;
}

bool numeric_unary(IrOpcode opcode, Scalar a, Scalar *out) {
    if (dtype_is_float(a.dtype)) {
        if (!numeric_float_unary_defined(opcode))
            return false;
        *out = (Scalar){.dtype = a.dtype, .f = numeric_round(a.dtype, numeric_float_unary(opcode, a.f))};
        return true;
    }
    if (opcode != IR_NEG && opcode != IR_ABS && opcode != IR_NOT)
        return false;
    *out = (Scalar){.dtype = a.dtype, .i = numeric_wrap(a.dtype, numeric_int_unary(opcode, a.dtype, a.i))};
    return true;
}

Scalar numeric_cast(Scalar a, DType to) {
    if (dtype_is_float(a.dtype))
        return numeric_float(to, a.f);   /* float -> float rounds once: every dtype's values are doubles */
    if (dtype_is_float(to))
        return (Scalar){.dtype = to, .f = numeric_int_to_float(to, a.dtype, a.i)};
    return numeric_int(to, a.i);
}
