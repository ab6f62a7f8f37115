#!/usr/bin/python3
"""check.py: a kernel through `tessc run --device interp` (or tessrun) against numpy.

    check.py CASE --tessc TESSC --examples DIR --tmp DIR [--seed N] [-O N]
    check.py CASE --runner tessrun --tessrun TESSRUN --artifacts DIR --tmp DIR
                  [--device gpu|interp] [--compare-interp] [--seed N]
    check.py --list [--arch LIST]

The first form compiles the case in memory and runs it on the interpreter.
The second runs what `testsuite/gpu/build-artifacts.sh` compiled ahead of
time: `tessrun --device gpu DIR/CASE/*.manifest.json` (--device interp runs
the manifest's tile IR instead); --compare-interp runs `tessrun --device
interp` on the same inputs as well and requires the two results to agree
within the output dtype's tolerance. `--list` prints one line per case,
sorted by name, for build scripts:

    NAME FILE KERNEL DEFINES ARCHS

FILE relative to the repository root; KERNEL the kernel's name or "-" when
the file has one; DEFINES the -D values joined by "," or "-"; ARCHS the
targets the case compiles for at all, joined by ",", or "-" for any (a case
whose tiles fit only sm_90a's shared memory). With `--arch LIST` (tessc's
--arch), ARCHS is "-" for every case that compiles for one of LIST's
targets, so that a build script skips exactly the cases whose ARCHS is not
"-" (build-artifacts.sh, bench/ptxdiff.sh).

Each case draws random inputs with numpy, runs one kernel on them through
`tessc run`, and compares every output with a float64 numpy reference, with
a tolerance per output dtype. `tessc run` fills `out` arrays with NaN (floats)
or 0xA5 bytes (integers) before the run, and the inputs of `inout` arrays are
random, so an element that no program writes fails the comparison.

bf16 arrays travel as uint16 raw bits (the upper half of an f32).
"""
import argparse
import json
import os
import subprocess
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "Inputs")
ROOT = os.path.dirname(os.path.dirname(HERE))

# Relative tolerance per output dtype, and absolute tolerance as a fraction
# of the largest reference magnitude (sums of many terms cancel).
TOLERANCE = {
    "f64": (1e-12, 1e-12),
    "f32": (2e-5, 2e-6),
    "f16": (4e-3, 2e-3),
    "bf16": (3e-2, 1.6e-2),
    "f8e4m3": (1.3e-1, 6.3e-2),
    "f8e5m2": (2.5e-1, 1.3e-1),
}


# ---- bf16 and dtypes ------------------------------------------------------------

def to_bf16_bits(x):
    """float array -> uint16 bits of bf16, rounded to nearest even."""
    f = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (f + 0x7FFF + ((f >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(x, np.float32))
    out = rounded.astype(np.uint16)
    out[nan] = 0x7FC0
    return out


def from_bf16_bits(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


NUMPY_DTYPE = {
    "bool": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "f16": np.float16, "bf16": np.uint16,
    "f8e4m3": np.uint8, "f8e5m2": np.uint8,
    "f32": np.float32, "f64": np.float64,
}


# fp8 (docs/language.md 3.1), written here from the formats' definitions and
# exact rational rounding, not from the compiler's code: 1-4-3 bias 7 with no
# infinity and S.1111.111 NaN; 1-5-2 bias 15, IEEE-like. Casts round to
# nearest even and saturate (infinity too); .npy holds the bits as |u1.
FP8 = {"f8e4m3": (3, 7, 448.0), "f8e5m2": (2, 15, 57344.0)}


def fp8_decode_table(dtype):
    mant, bias, _ = FP8[dtype]
    out = []
    for code in range(256):
        mag, e, m = code & 0x7f, (code & 0x7f) >> mant, code & ((1 << mant) - 1)
        if dtype == "f8e4m3" and mag == 0x7f:
            v = float("nan")
        elif dtype == "f8e5m2" and e == 31:
            v = float("nan") if m else float("inf")
        elif e == 0:
            v = m * 2.0 ** (1 - bias - mant)
        else:
            v = (m + (1 << mant)) * 2.0 ** (e - bias - mant)
        out.append(-v if code & 0x80 else v)
    return np.array(out)


def fp8_exact(v, dtype):
    """The fp8 value a cast of the exact number v gives (a Python int or float)."""
    from fractions import Fraction
    mant, bias, top = FP8[dtype]
    if isinstance(v, float) and v != v:
        return float("nan")
    negative = (v < 0) or (isinstance(v, float) and v == 0 and np.signbit(v))
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return -top if v < 0 else top
    a = abs(Fraction(v))
    if a == 0:
        return -0.0 if negative else 0.0
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, 1 - bias)
    quantum = Fraction(2) ** (e - mant)
    r = min(round(a / quantum) * quantum, Fraction(top))
    return -float(r) if negative else float(r)


def fp8_bits(values, dtype):
    """The codes of fp8 values (NaN: 0x7f)."""
    table = fp8_decode_table(dtype)
    code = {(float(table[c]), bool(np.signbit(table[c]))): c for c in range(256) if table[c] == table[c]}
    return np.array([0x7f if v != v else code[(float(v), bool(np.signbit(v)))] for v in values], np.uint8)


class Arg:
    """One kernel argument: an input, output or inout array, a scalar, or a size."""

    def __init__(self, kind, name, dtype=None, value=None, shape=None):
        self.kind, self.name, self.dtype, self.value, self.shape = kind, name, dtype, value, shape

    def as_float64(self):
        if self.dtype == "bf16":
            return from_bf16_bits(self.value).astype(np.float64)
        if self.dtype in FP8:
            return fp8_decode_table(self.dtype)[self.value]
        return np.asarray(self.value).astype(np.float64)


def array_in(name, dtype, value):
    if dtype in FP8:
        flat = np.asarray(value, np.float64)
        value = fp8_bits([fp8_exact(float(v), dtype) for v in flat.ravel()], dtype).reshape(flat.shape)
    elif dtype == "bf16":
        value = to_bf16_bits(value)
    else:
        value = np.asarray(value).astype(NUMPY_DTYPE[dtype])
    return Arg("in", name, dtype, value)


def array_inout(name, dtype, value):
    a = array_in(name, dtype, value)
    a.kind = "inout"
    return a


def array_out(name, dtype):
    return Arg("out", name, dtype)


def scalar(name, value):
    return Arg("scalar", name, value=value)


def size(name, value):
    return Arg("size", name, value=value)


# ---- the cases --------------------------------------------------------------------

CASES = {}


# tma: on a GPU whose artifact has a TMA entry (sm_90a, docs/manifest.md
# "tma"), whether the launch must take it ("yes": the arrays meet TMA's
# rules) or the plain entry ("no": one breaks a rule, the fallback); the
# entry that ran is what `tessrun -v` says.
TMA_EXPECT = {}


# The targets a case compiles for at all (--list's ARCHS), where not every one.
CASE_ARCHS = {}


def case(name, file, kernel=None, defines=(), tma=None, archs=None):
    def register(fn):
        CASES[name] = (file, kernel, list(defines), fn)
        if tma:
            TMA_EXPECT[name] = tma
        if archs:
            CASE_ARCHS[name] = archs
        return fn
    return register


def example(name):
    return os.path.join("%examples", name)


def inputs(name):
    return os.path.join(INPUTS, name)


def f(a):
    """float64 view of an input for the references."""
    return a.as_float64()


def f16(x):
    return np.asarray(x, np.float64).astype(np.float16).astype(np.float64)


@case("relu2x1", example("relu2x1.tess"))
def relu2x1(rng):
    n = 1537
    x = array_in("x", "f32", rng.standard_normal(n))
    return [x, array_out("o", "f32")], lambda: {"o": np.maximum(f(x) * 2 + 1, 0)}


@case("relu2x1-1M", example("relu2x1.tess"))
def relu2x1_big(rng):
    n = 1 << 20
    x = array_in("x", "f32", rng.standard_normal(n))
    return [x, array_out("o", "f32")], lambda: {"o": np.maximum(f(x) * 2 + 1, 0)}


@case("add2d", example("add2d.tess"))
def add2d(rng):
    a = array_in("a", "f32", rng.standard_normal((37, 300)))
    b = array_in("b", "f32", rng.standard_normal((37, 300)))
    return [a, b, array_out("c", "f32")], lambda: {"c": f(a) + f(b)}


def softmax_ref(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@case("softmax", example("softmax.tess"))
def softmax(rng):
    x = array_in("x", "f32", rng.standard_normal((13, 777)) * 3)
    return [x, array_out("y", "f32")], lambda: {"y": softmax_ref(f(x))}


@case("softmax-small-block", example("softmax.tess"), defines=["BN=64"])
def softmax_small(rng):
    x = array_in("x", "f32", rng.standard_normal((5, 61)) * 3)
    return [x, array_out("y", "f32")], lambda: {"y": softmax_ref(f(x))}


@case("layernorm", example("layernorm.tess"))
def layernorm(rng):
    m, n = 7, 1000
    x = array_in("x", "f32", rng.standard_normal((m, n)) * 2 + 0.5)
    w = array_in("w", "f32", rng.standard_normal(n))
    b = array_in("b", "f32", rng.standard_normal(n))
    eps = 1e-5

    def ref():
        v = f(x)
        mean = v.mean(axis=1, keepdims=True)
        var = ((v - mean) ** 2).mean(axis=1, keepdims=True)
        return {"y": (v - mean) / np.sqrt(var + eps) * f(w) + f(b)}
    return [x, w, b, array_out("y", "f32"), scalar("eps", eps)], ref


# c = a @ b (b: k x n) or, bt, a @ b.T (b: n x k), into f32.
def matmul_f32_case(rng, dt, bt, m, k, n):
    a = array_in("a", dt, rng.standard_normal((m, k)))
    b = array_in("b", dt, rng.standard_normal((n, k) if bt else (k, n)))
    return [a, b, array_out("c", "f32")], lambda: {"c": f(a) @ (f(b).T if bt else f(b))}


def matmul_case(rng, m, k, n):
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))
    return [a, b, array_out("c", "f16")], lambda: {"c": f(a) @ f(b)}


@case("matmul", example("matmul.tess"))
def matmul(rng):
    return matmul_case(rng, 100, 333, 70)


@case("matmul-small-blocks", example("matmul.tess"), defines=["BM=32", "BN=16", "BK=32"])
def matmul_small(rng):
    return matmul_case(rng, 100, 333, 70)


# Program ids in groups of 8 rows (docs/codegen.md, "Program order"): 13
# row blocks (a full group and one of 5) by 6 column blocks, edges in both.
@case("matmul-grouped-grid", example("matmul.tess"), defines=["BM=16", "BN=16", "BK=32"])
def matmul_grouped(rng):
    return matmul_case(rng, 205, 81, 40)


# Epilogue stores through shared memory (docs/codegen.md, "Epilogue
# stores"): whole 128 x 128 tiles (every thread's 16-byte stores), and
# edges in M and N with rows 16-byte aligned (N % 8 == 0) and not.
@case("epilogue-whole-tiles", example("matmul.tess"))
def epilogue_whole(rng):
    return matmul_case(rng, 256, 96, 256)


@case("epilogue-edges", inputs("pipeline.tess"), kernel="pipe_matmul")
def epilogue_edges(rng):
    return matmul_case(rng, 130, 40, 136)


# The pipeline pass's rings (testsuite/interp/Inputs/pipeline.tess): K = 0 (no
# iteration), K < BK (one, masked), trip counts 1 and NS - 1, K not a multiple
# of BK, edges in M and N, ring depths 2 to 4, B transposed, bf16.
@case("pipe-k0", inputs("pipeline.tess"), kernel="pipe_matmul")
def pipe_k0(rng):
    return matmul_case(rng, 64, 0, 64)


@case("pipe-k-below-bk", inputs("pipeline.tess"), kernel="pipe_matmul")
def pipe_k_below_bk(rng):
    return matmul_case(rng, 70, 20, 64)


@case("pipe-trip-stages-minus-1", inputs("pipeline.tess"), kernel="pipe_matmul")
def pipe_trip_short(rng):
    return matmul_case(rng, 64, 64, 96)


@case("pipe-odd-s2", inputs("pipeline.tess"), kernel="pipe_matmul", defines=["NS=2"])
def pipe_odd_s2(rng):
    return matmul_case(rng, 100, 333, 70)


@case("pipe-odd-s4", inputs("pipeline.tess"), kernel="pipe_matmul", defines=["NS=4", "BM=32", "BN=32", "BK=16"])
def pipe_odd_s4(rng):
    return matmul_case(rng, 45, 250, 77)


@case("pipe-two-loops", inputs("pipeline.tess"), kernel="pipe_two_loops")
def pipe_two_loops(rng):
    return matmul_case(rng, 100, 300, 70)


def blocks_ref(a, b, weights, bk=32):
    """sum of w * a[:, j-block] @ b[j-block, :] over (j, w) in weights."""
    ap, bp = f(a), f(b)
    out = np.zeros((ap.shape[0], bp.shape[1]))
    for j, w in weights:
        out = out + w * (ap[:, j * bk:(j + 1) * bk] @ bp[j * bk:(j + 1) * bk])
    return out


def blocks_case(rng, m, k, n, weights, scalars=()):
    """a[m, k], b[k, n] f16 in, c f32 out = blocks_ref(weights), then the scalars (name, value)."""
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))
    return [a, b, array_out("c", "f32")] + [scalar(name, v) for name, v in scalars], \
        lambda: {"c": blocks_ref(a, b, weights)}


def chain_case(rng, m, k, n, lo, mid, hi):
    weights = [(j, 1.0) for j in range(lo, mid)] + [(j, 2.0) for j in range(mid, hi)]
    return blocks_case(rng, m, k, n, weights, [("lo", lo), ("mid", mid), ("hi", hi)])


# A ring chained through two loops (pipe_chain): both loops run, the first
# runs none (mid == lo, and mid < lo: its range reversed), the second none
# (hi < mid), one trip each (fewer than NS - 1), K not a multiple of BK
# (the last tile masked), and NS 2 and 4.
@case("pipe-chain-both", inputs("pipeline.tess"), kernel="pipe_chain")
def pipe_chain_both(rng):
    return chain_case(rng, 70, 200, 90, 1, 3, 7)


@case("pipe-chain-first-empty", inputs("pipeline.tess"), kernel="pipe_chain")
def pipe_chain_first_empty(rng):
    return chain_case(rng, 64, 200, 64, 2, 2, 6)


@case("pipe-chain-first-reversed", inputs("pipeline.tess"), kernel="pipe_chain")
def pipe_chain_first_reversed(rng):
    return chain_case(rng, 64, 200, 64, 5, 1, 4)


@case("pipe-chain-second-empty", inputs("pipeline.tess"), kernel="pipe_chain")
def pipe_chain_second_empty(rng):
    return chain_case(rng, 64, 200, 64, 0, 5, 3)


@case("pipe-chain-one-trip-each", inputs("pipeline.tess"), kernel="pipe_chain")
def pipe_chain_one_trip_each(rng):
    return chain_case(rng, 64, 100, 64, 1, 2, 3)


@case("pipe-chain-s2", inputs("pipeline.tess"), kernel="pipe_chain", defines=["NS=2"])
def pipe_chain_s2(rng):
    return chain_case(rng, 100, 150, 70, 0, 2, 5)


@case("pipe-chain-s4", inputs("pipeline.tess"), kernel="pipe_chain", defines=["NS=4"])
def pipe_chain_s4(rng):
    return chain_case(rng, 64, 250, 64, 0, 1, 8)


@case("pipe-no-chain", inputs("pipeline.tess"), kernel="pipe_no_chain")
def pipe_no_chain(rng):
    nk = -(-200 // 32)
    return blocks_case(rng, 64, 200, 64, [(j, 1.0) for j in range(nk // 2)] + [(j + 1, 1.0) for j in range(nk // 2, nk - 1)])


def tail_case(rng, m, k, n, other=False):
    whole = k // 32
    weights = [(j, 1.0) for j in range(whole)]
    if other and whole > 0:
        weights.append((whole - 1, 2.0))
    elif not other and k % 32:
        weights.append((whole, 2.0))
    return blocks_case(rng, m, k, n, weights)


# The ring run on into a tail block (pipe_tail): the block taken after
# several trips, after one, after none (K < BK), not taken (K a multiple of
# BK), NS 2 and 4; and a block that reads another tile (pipe_tail_other).
@case("pipe-tail", inputs("pipeline.tess"), kernel="pipe_tail")
def pipe_tail(rng):
    return tail_case(rng, 70, 200, 90)


@case("pipe-tail-one-trip", inputs("pipeline.tess"), kernel="pipe_tail")
def pipe_tail_one_trip(rng):
    return tail_case(rng, 64, 40, 64)


@case("pipe-tail-no-trip", inputs("pipeline.tess"), kernel="pipe_tail")
def pipe_tail_no_trip(rng):
    return tail_case(rng, 64, 24, 64)


@case("pipe-tail-not-taken", inputs("pipeline.tess"), kernel="pipe_tail")
def pipe_tail_not_taken(rng):
    return tail_case(rng, 64, 128, 64)


@case("pipe-tail-s2", inputs("pipeline.tess"), kernel="pipe_tail", defines=["NS=2"])
def pipe_tail_s2(rng):
    return tail_case(rng, 100, 150, 70)


@case("pipe-tail-s4", inputs("pipeline.tess"), kernel="pipe_tail", defines=["NS=4"])
def pipe_tail_s4(rng):
    return tail_case(rng, 64, 250, 64)


@case("pipe-tail-other", inputs("pipeline.tess"), kernel="pipe_tail_other")
def pipe_tail_other(rng):
    return tail_case(rng, 64, 200, 64, other=True)


# Review's findings (session 33): the tail's condition carried out of the
# loop (taken, and not: no trip), the second loop's hi carried out of the
# first (mid 0 and 2), a tail block at hi = INT32_MAX, and a hoisted
# conversion next to an if's yield (both branches).
@case("pipe-tail-cond-in-loop", inputs("pipeline.tess"), kernel="pipe_tail_cond_in_loop")
def pipe_tail_cond_in_loop(rng):
    k = 200
    return blocks_case(rng, 64, k, 64, [(j, 1.0) for j in range(k // 32)] + [(k // 32, 2.0)])


@case("pipe-tail-cond-in-loop-no-trip", inputs("pipeline.tess"), kernel="pipe_tail_cond_in_loop")
def pipe_tail_cond_in_loop_no_trip(rng):
    return blocks_case(rng, 64, 20, 64, [])


def chain_hi_case(rng, mid):
    k = 200
    hi = -(-k // 32) if mid > 0 else 0
    return blocks_case(rng, 64, k, 64, [(j, 1.0) for j in range(mid)] + [(j, 2.0) for j in range(mid, hi)],
                       [("mid", mid)])


@case("pipe-chain-hi-in-loop", inputs("pipeline.tess"), kernel="pipe_chain_hi_in_loop")
def pipe_chain_hi_in_loop(rng):
    return chain_hi_case(rng, 2)


@case("pipe-chain-hi-in-loop-none", inputs("pipeline.tess"), kernel="pipe_chain_hi_in_loop")
def pipe_chain_hi_in_loop_none(rng):
    return chain_hi_case(rng, 0)


@case("pipe-tail-wrap", inputs("pipeline.tess"), kernel="pipe_tail_wrap")
def pipe_tail_wrap(rng):
    return blocks_case(rng, 64, 100, 64, [(0, 1.0), (1, 1.0), (2, 2.0)],
                       [("base", 2147483645), ("hi", 2147483647), ("t", 1)])


def conv_yield_case(rng, t):
    m, k, n = 64, 100, 64
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))
    x = array_in("x", "f32", rng.standard_normal((m, n)))

    def ref():
        if t:
            return {"c": blocks_ref(a, b, [(0, 1.0)])}
        whole = k // 32
        return {"c": f(x) + blocks_ref(a, b, [(j, 1.0) for j in range(whole)]) + whole * f(x)}
    return [a, b, x, array_out("c", "f32"), scalar("t", t)], ref


@case("pipe-conv-yield", inputs("pipeline.tess"), kernel="pipe_conv_yield")
def pipe_conv_yield(rng):
    return conv_yield_case(rng, 0)


@case("pipe-conv-yield-then", inputs("pipeline.tess"), kernel="pipe_conv_yield")
def pipe_conv_yield_then(rng):
    return conv_yield_case(rng, 1)


def stationary_case(rng):
    T = 150
    q = array_in("q", "f16", rng.standard_normal((128, 128)))
    k = array_in("k", "f16", rng.standard_normal((T, 128)))
    kp = np.zeros((5 * 32, 128))
    kp[:T] = f(k)
    ref = sum(f(q) @ kp[j * 32:(j + 1) * 32].T for j in range(5))
    return [q, k, array_out("o", "f32")], lambda: {"o": ref}


@case("pipe-stationary", inputs("pipeline.tess"), kernel="pipe_stationary")
def pipe_stationary(rng):
    return stationary_case(rng)


@case("pipe-stationary-tail", inputs("pipeline.tess"), kernel="pipe_stationary_tail")
def pipe_stationary_tail(rng):
    return stationary_case(rng)   # the same sum, its last block after the loop


@case("attention-d128-stationary", example("attention.tess"), defines=["D=128", "BK=32"])
def attention_d128(rng):
    return attention_case(rng, 1, 150, 150, 2, 128, scale=0.09)


@case("pipe-bt-bf16", inputs("pipeline.tess"), kernel="pipe_matmul_bt")
def pipe_bt(rng):
    return matmul_f32_case(rng, "bf16", True, 90, 200, 50)


# wgmma (docs/codegen.md, "wgmma"; Inputs/wgmma.tess): on sm_90a cubins
# (the GPU suite's second pass) every swizzle mode, K panels, m64 tiles and
# warpgroups; elsewhere mma.sync. Edges in M, N and K.
@case("wg-bt-k-panels", inputs("wgmma.tess"), kernel="wg_bt", defines=["BM=128", "BN=64", "BK=128", "W=8"])
def wg_bt_k_panels(rng):
    return matmul_f32_case(rng, "f16", True, 300, 333, 200)


@case("wg-bt-bf16-swizzle32", inputs("wgmma.tess"), kernel="wg_bt_bf16", defines=["BM=256", "BN=32", "BK=16"])
def wg_bt_swizzle32(rng):
    return matmul_f32_case(rng, "bf16", True, 300, 333, 200)


@case("wg-bt-n256", inputs("wgmma.tess"), kernel="wg_bt", defines=["BM=64", "BN=256", "BK=64"])
def wg_bt_n256(rng):
    return matmul_f32_case(rng, "f16", True, 130, 100, 300)


@case("wg-mm-n16", inputs("wgmma.tess"), kernel="wg_mm", defines=["BM=64", "BN=16", "BK=64"])
def wg_mm_n16(rng):
    return matmul_f32_case(rng, "f16", False, 300, 333, 200)


@case("wg-mm-bf16-swizzle64", inputs("wgmma.tess"), kernel="wg_mm_bf16", defines=["BM=128", "BN=32", "BK=32"])
def wg_mm_swizzle64(rng):
    return matmul_f32_case(rng, "bf16", False, 64, 16, 16)


@case("wg-mm-four-warpgroups", inputs("wgmma.tess"), kernel="wg_mm", defines=["BM=256", "BN=128", "BK=32", "W=16"])
def wg_mm_four_warpgroups(rng):
    return matmul_f32_case(rng, "f16", False, 300, 333, 200)


@case("wg-mm-k-panels", inputs("wgmma.tess"), kernel="wg_mm", defines=["BM=128", "BN=128", "BK=128", "W=8", "NS=2"])
def wg_mm_k_panels(rng):
    return matmul_f32_case(rng, "f16", False, 200, 300, 150)


@case("wg-mixed", inputs("wgmma.tess"), kernel="wg_mixed")
def wg_mixed(rng):
    a = array_in("a", "f16", rng.standard_normal((150, 100)))
    b = array_in("b", "f16", rng.standard_normal((100, 70)))
    a2 = array_in("a2", "f16", rng.standard_normal((40, 100)))
    b2 = array_in("b2", "f16", rng.standard_normal((100, 50)))
    return [a, b, a2, b2, array_out("c", "f32"), array_out("c2", "f32")], \
        lambda: {"c": f(a) @ f(b), "c2": f(a2) @ f(b2)}


# prev = acc: one trip (K < BK: d is 0) and three (d: the first two k tiles).
def wgmma_prev_case(rng, m, k, n, bk=64):
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))
    last = (max(k - 1, 0) // bk) * bk
    return [a, b, array_out("c", "f32"), array_out("d", "f32")], \
        lambda: {"c": f(a) @ f(b), "d": f(a)[:, :last] @ f(b)[:last, :]}


@case("wg-prev-one-trip", inputs("wgmma.tess"), kernel="wg_prev")
def wg_prev_one_trip(rng):
    return wgmma_prev_case(rng, 130, 40, 70)


@case("wg-prev-three-trips", inputs("wgmma.tess"), kernel="wg_prev")
def wg_prev_three_trips(rng):
    return wgmma_prev_case(rng, 130, 150, 70)


# TMA (docs/codegen.md "TMA"; the sm_90a artifacts' second entry): the
# shapes above with rows that meet TMA's 16-byte rule (K and N multiples of
# 8) and M a multiple of BM (A's rows come in wgmma order, whole blocks), so
# that on an H100/H200 the TMA entry runs them, with edges in N and K (zero
# fill), K not a multiple of BK, one trip, 4-dim maps (attention). K = 0 (an
# extent of 0), M not a multiple of BM and an odd K break a rule and must
# fall back to the plain entry.
@case("wg-tma-mm-edges", inputs("wgmma.tess"), kernel="wg_mm", tma="yes")
def wg_tma_mm_edges(rng):
    return matmul_f32_case(rng, "f16", False, 256, 328, 200)


@case("wg-tma-mm-four-warpgroups", inputs("wgmma.tess"), kernel="wg_mm", defines=["BM=256", "BN=128", "BK=32", "W=16"],
      tma="yes")
def wg_tma_mm_four_warpgroups(rng):
    return matmul_f32_case(rng, "f16", False, 512, 200, 136)


@case("wg-tma-bt-k-panels", inputs("wgmma.tess"), kernel="wg_bt", defines=["BM=128", "BN=64", "BK=128", "W=8"],
      tma="yes")
def wg_tma_bt_k_panels(rng):
    return matmul_f32_case(rng, "f16", True, 256, 336, 200)


@case("wg-tma-bt-bf16-swizzle32", inputs("wgmma.tess"), kernel="wg_bt_bf16", defines=["BM=256", "BN=32", "BK=16"],
      tma="yes")
def wg_tma_bt_swizzle32(rng):
    return matmul_f32_case(rng, "bf16", True, 256, 328, 200)


@case("wg-tma-mm-bf16-swizzle64", inputs("wgmma.tess"), kernel="wg_mm_bf16", defines=["BM=128", "BN=32", "BK=32"],
      tma="yes")
def wg_tma_mm_swizzle64(rng):
    return matmul_f32_case(rng, "bf16", False, 128, 96, 40)


@case("wg-tma-k-panels-s2", inputs("wgmma.tess"), kernel="wg_mm", defines=["BM=128", "BN=128", "BK=128", "W=8", "NS=2"],
      tma="yes")
def wg_tma_k_panels(rng):
    return matmul_f32_case(rng, "f16", False, 256, 392, 152)


@case("wg-tma-prev-one-trip", inputs("wgmma.tess"), kernel="wg_prev", tma="yes")
def wg_tma_prev_one_trip(rng):
    return wgmma_prev_case(rng, 128, 40, 72)


@case("wg-tma-prev-three-trips", inputs("wgmma.tess"), kernel="wg_prev", tma="yes")
def wg_tma_prev_three_trips(rng):
    return wgmma_prev_case(rng, 256, 152, 72)


@case("wg-tma-k0-falls-back", inputs("wgmma.tess"), kernel="wg_mm", tma="no")
def wg_tma_k0(rng):
    return matmul_f32_case(rng, "f16", False, 130, 0, 72)


@case("wg-tma-two-loops", inputs("wgmma.tess"), kernel="wg_two_loops", tma="yes")
def wg_tma_two_loops(rng):
    return wgmma_two_loops_case(rng, 256, 392, 128)


# Short loops through the TMA entry: 1 and 2 trips, two loops of 1 and 1 or
# 3 and 2 trips, and (pipe_two_loops, 64-row blocks) a first loop of no trip
# or of 1 before a second of 2.
@case("wg-tma-one-trip", inputs("wgmma.tess"), kernel="wg_mm", tma="yes")
def wg_tma_one_trip(rng):
    return matmul_f32_case(rng, "f16", False, 256, 64, 136)


@case("wg-tma-two-trips", inputs("wgmma.tess"), kernel="wg_mm", tma="yes")
def wg_tma_two_trips(rng):
    return matmul_f32_case(rng, "f16", False, 256, 128, 136)


def wgmma_two_loops_case(rng, m, k, n):
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))
    half = min(((k + 127) // 128) * 64, k)   # the second loop's k tiles: cdiv(K, 2 BK) of BK
    return [a, b, array_out("c", "f32"), array_out("r", "f32")], \
        lambda: {"c": f(a)[:, :half] @ f(b)[:half], "r": (f(a) @ f(b)).sum(axis=1)}


@case("wg-tma-two-loops-one-trip", inputs("wgmma.tess"), kernel="wg_two_loops", tma="yes")
def wg_tma_two_loops_one_trip(rng):
    return wgmma_two_loops_case(rng, 128, 64, 128)


@case("wg-tma-two-loops-short", inputs("wgmma.tess"), kernel="wg_two_loops", tma="yes")
def wg_tma_two_loops_short(rng):
    return wgmma_two_loops_case(rng, 256, 136, 128)


@case("pipe-tma-first-loop-empty", inputs("pipeline.tess"), kernel="pipe_two_loops", tma="yes")
def pipe_tma_first_loop_empty(rng):
    return matmul_case(rng, 128, 32, 64)


@case("pipe-tma-first-loop-short", inputs("pipeline.tess"), kernel="pipe_two_loops", tma="yes")
def pipe_tma_first_loop_short(rng):
    return matmul_case(rng, 128, 96, 64)


@case("wg-shifted", inputs("wgmma.tess"), kernel="wg_shifted")
def wg_shifted(rng):
    m, k, n = 288, 200, 136   # the last block's tile runs 32 rows past M: zeros there
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    b = array_in("b", "f16", rng.standard_normal((k, n)))

    def ref():
        ap = np.zeros((((m + 127) // 128) * 128 + 32, k))
        ap[:m] = f(a)
        return {"c": (ap[32:32 + m] @ f(b))}
    return [a, b, array_out("c", "f32")], ref


@case("wg-tma-m-edge-falls-back", inputs("wgmma.tess"), kernel="wg_mm", tma="no")
def wg_tma_m_edge(rng):
    return matmul_f32_case(rng, "f16", False, 300, 328, 200)


@case("wg-tma-odd-k-falls-back", inputs("wgmma.tess"), kernel="wg_mm", tma="no")
def wg_tma_odd_k(rng):
    return matmul_f32_case(rng, "f16", False, 130, 333, 72)


@case("rowsum", example("rowsum.tess"))
def rowsum(rng):
    x = array_in("x", "f32", rng.standard_normal((37, 1000)))
    return [x, array_out("s", "f32")], lambda: {"s": f(x).sum(axis=1)}


@case("histogram", example("histogram.tess"))
def histogram(rng):
    n = 5001
    x = array_in("x", "u8", rng.integers(0, 256, n))
    counts = array_inout("counts", "i32", rng.integers(0, 1000, 256))
    return [x, counts], lambda: {"counts": f(counts) + np.bincount(f(x).astype(np.int64), minlength=256)}


@case("dropout", example("dropout.tess"))
def dropout(rng):
    # the mask from Philox on (seed, index) as Triton's tl.rand, the kept
    # values scaled by 1 / (1 - p) computed in f32 as the kernel does; bit for
    # bit (N not a multiple of the block)
    n = 5000
    x = array_in("x", "f32", rng.standard_normal(n))
    seed, p = int(rng.integers(0, 2 ** 31)), 0.3
    y = array_out("y", "f32")
    y.exact = True

    def ref():
        u = uniform_of_bits([philox(seed, i)[0] for i in range(n)])
        scale = np.float32(1) / (np.float32(1) - np.float32(p))
        return {"y": np.where(u > np.float32(p), (x.value.astype(np.float32) * scale), 0.0)}
    return [x, y, scalar("seed", seed), scalar("p", p)], ref


@case("int4-matmul", example("int4_matmul.tess"))
def int4_matmul(rng):
    # W's rows k < KH in the low nibbles of wq, KH + k in the high ones, an
    # f16 scale per group of 64 rows; M and N not multiples of the blocks
    m, kh, n, g = 100, 128, 96, 64
    k = 2 * kh
    a = array_in("a", "f16", rng.standard_normal((m, k)))
    lo, hi = rng.integers(0, 16, (kh, n)), rng.integers(0, 16, (kh, n))
    wq = array_in("wq", "u8", lo | (hi << 4))
    sc = array_in("s", "f16", rng.uniform(0.01, 0.1, (k // g, n)))

    def ref():
        rows = np.concatenate([lo, hi]).astype(np.float64) - 8
        # the kernel rounds each dequantized weight to f16 before the dot
        w = (rows.astype(np.float16) * np.repeat(sc.value, g, axis=0)).astype(np.float64)
        return {"c": f(a) @ w}
    return [a, wq, sc, array_out("c", "f16")], ref


def fp8_matmul_case(rng, b_dtype, tn=False, m=100, k=80, n=72):
    # Quantized as a user would: x / scale into the format's range, M, N and
    # K not multiples of the blocks (the edges read 0). tn: B given as
    # bt [N, K] (fp8_matmul_tn).
    top_a, top_b = FP8["f8e4m3"][2], FP8[b_dtype][2]
    xa, xb = rng.standard_normal((m, k)), rng.standard_normal((n, k) if tn else (k, n))
    sa, sb = float(np.abs(xa).max() / top_a), float(np.abs(xb).max() / top_b)
    a, b = array_in("a", "f8e4m3", xa / sa), array_in("bt" if tn else "b", b_dtype, xb / sb)

    def ref():
        return {"c": (f(a) @ (f(b).T if tn else f(b))) * float(np.float32(np.float32(sa) * np.float32(sb)))}
    return [a, b, array_out("c", "f16"), scalar("scale_a", sa), scalar("scale_b", sb)], ref


@case("fp8-matmul", example("fp8_matmul.tess"), kernel="fp8_matmul")
def fp8_matmul(rng):
    return fp8_matmul_case(rng, "f8e4m3")


@case("fp8-matmul-e5m2", example("fp8_matmul.tess"), kernel="fp8_matmul_e5m2")
def fp8_matmul_e5m2(rng):
    return fp8_matmul_case(rng, "f8e5m2")


@case("fp8-matmul-tn", example("fp8_matmul.tess"), kernel="fp8_matmul_tn")
def fp8_matmul_tn(rng):
    return fp8_matmul_case(rng, "f8e4m3", tn=True, m=200, k=330, n=150)


# fp8 dots (Inputs/fp8_dot.tess): fp8 tensor cores on sm_89 and up (the
# bytes staged; B k-major), f16 ones on sm_80. Values drawn in each format's
# range; f32 outputs, so the check sees the accumulation itself.
def fp8_wgmma_bound(a, b):
    """How far an fp8 dot on sm_90a's wgmma may be from the exact sum,
    applied only where an sm_90a artifact ran
    (docs/language.md 3.1): the tensor core adds fp8 products with fewer
    bits than f32 (about 13 below the largest term: on the H200, errors up
    to 1.55 where the sum of magnitudes was about 12,000). 2^-11 x
    (|a| @ |b|) bounds that with room, while a wrong fragment, descriptor or
    k step is off by whole products (hundreds here)."""
    return 2.0 ** -11 * (np.abs(a) @ np.abs(b))


def fp8_dot_case(rng, m, k, n, a_dtype, b_dtype, b_transposed):
    xa = rng.standard_normal((m, k)) * 8
    xb = rng.standard_normal((n, k) if b_transposed else (k, n)) * 8
    a = array_in("a", a_dtype, xa)
    b = array_in("x" if b_transposed else "b", b_dtype, xb)
    c = array_out("c", "f32")
    bm = f(b).T if b_transposed else f(b)
    c.bound = fp8_wgmma_bound(f(a), bm)
    return [a, b, c], lambda: {"c": f(a) @ bm}


@case("fp8-dot-mm", inputs("fp8_dot.tess"), kernel="fp8_mm")
def fp8_dot_mm(rng):
    return fp8_dot_case(rng, 100, 200, 72, "f8e4m3", "f8e5m2", False)


@case("fp8-dot-mm-warps-mn", inputs("fp8_dot.tess"), kernel="fp8_mm", defines=["BM=128", "BN=128", "BK=32", "W=8"])
def fp8_dot_mm_warps(rng):
    return fp8_dot_case(rng, 150, 100, 200, "f8e4m3", "f8e5m2", False)


@case("fp8-dot-bt-rolled", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=64", "BN=32", "BK=256", "W=4"])
def fp8_dot_bt_rolled(rng):
    return fp8_dot_case(rng, 70, 300, 90, "f8e5m2", "f8e4m3", True)


@case("fp8-dot-bt-w8", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=128", "BN=64", "BK=64", "W=8", "NS=4"])
def fp8_dot_bt_w8(rng):
    return fp8_dot_case(rng, 130, 64, 100, "f8e5m2", "f8e4m3", True)


@case("fp8-dot-bt-staged", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=64", "BN=128", "BK=32", "W=4", "NS=1"])
def fp8_dot_bt_staged(rng):
    return fp8_dot_case(rng, 100, 260, 130, "f8e5m2", "f8e4m3", True)


@case("fp8-dot-bt-ring3", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=64", "BN=64", "BK=64", "W=4", "NS=3"])
def fp8_dot_bt_ring3(rng):
    return fp8_dot_case(rng, 64, 64 * 5 + 32, 64, "f8e5m2", "f8e4m3", True)   # K: 6 trips, the last half


# on sm_90a: wgmma's k32 form, 32-byte panels, two m64 tiles a warpgroup
@case("fp8-dot-bt-swizzle32", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=64", "BN=64", "BK=32", "W=4", "NS=2"])
def fp8_dot_bt_swizzle32(rng):
    return fp8_dot_case(rng, 100, 150, 70, "f8e5m2", "f8e4m3", True)


@case("fp8-dot-bt-slabs", inputs("fp8_dot.tess"), kernel="fp8_bt", defines=["BM=256", "BN=64", "BK=64", "W=8", "NS=3"])
def fp8_dot_bt_slabs(rng):
    return fp8_dot_case(rng, 300, 400, 130, "f8e5m2", "f8e4m3", True)


@case("fp8-dot-rows", inputs("fp8_dot.tess"), kernel="fp8_rows")
def fp8_dot_rows(rng):
    q = array_in("q", "f8e4m3", rng.standard_normal((100, 64)) * 4)
    k = array_in("k", "f8e4m3", rng.standard_normal((50, 64)) * 4)

    def ref():   # k's rows past N read 0: columns of s that are 0
        kp = np.zeros((64, 64))
        kp[:50] = f(k)
        s = f(q) @ kp.T
        return {"mx": s.max(axis=1), "sm": s.sum(axis=1)}
    return [q, k, array_out("mx", "f32"), array_out("sm", "f32")], ref


@case("strided-transpose", example("strided_transpose.tess"), kernel="transpose")
def strided_transpose(rng):
    # x is the transpose of a row-major [M, N] buffer; N, M not multiples of the blocks
    n, m = 70, 45
    buf = rng.standard_normal((m, n))
    x = array_in("x", "f32", buf.reshape(-1))
    y = array_out("y", "f32")
    y.exact = True

    def ref():
        return {"y": f(x).reshape(m, n).T}
    return [x, y, size("N", n), size("M", m)], ref


@case("strided-sub-scale", example("strided_transpose.tess"), kernel="sub_scale")
def strided_sub_scale(rng):
    # x: rows of R x C inside a wider buffer (row stride ldx); y likewise
    # (ldy): written as its memory, a flat array of its strides' reach,
    # elements past each row's C never written (poisoned, so compared as NaN)
    r, c, ldx, ldy = 37, 100, 132, 104
    buf = rng.standard_normal(ldx * (r - 1) + c)
    x = array_in("x", "f32", buf)
    y = array_out("y", "f32")
    y.exact = True
    alpha = 1.75

    def ref():
        out = np.full(ldy * (r - 1) + c, np.nan)
        for i in range(r):
            out[i * ldy:i * ldy + c] = (np.float32(alpha) * f(x)[i * ldx:i * ldx + c].astype(np.float32)).astype(np.float64)
        return {"y": out}
    return [x, y, scalar("alpha", alpha), size("R", r), size("C", c), size("ldx", ldx), size("ldy", ldy)], ref


@case("shared-gather-scatter", inputs("shared_gather.tess"), kernel="shared_hist")
def shared_gather_scatter(rng):
    # N not a multiple of the block: the last block's missing values read -1 and count nowhere
    n, block, bins = 1000, 256, 16
    g = (n + block - 1) // block
    xv = rng.integers(0, 1000, n)
    tv = rng.standard_normal(64)
    x, table = array_in("x", "i32", xv), array_in("table", "f32", tv)
    outs = [array_out("h", "i32"), array_out("y", "f32"), array_out("r", "i32")]
    for o in outs:
        o.exact = True

    def ref():
        h = np.zeros((g, bins), np.int64)
        for i, v in enumerate(xv):
            h[i // block, v & (bins - 1)] += 1
        padded = np.concatenate([xv, np.full(g * block - n, -1)])
        r = np.concatenate([padded[k * block:(k + 1) * block][::-1] for k in range(g)])[:n]
        return {"h": h, "y": f(table)[(xv * 7) & 63], "r": r}
    return [x, table] + outs + [size("G", g)], ref


def attention_case(rng, B, S, T, H, D, causal=False, scale=None):
    """Random q [B,S,H,D], k and v [B,T,H,D] in f16, o out, and the reference
    (scale: 1 / sqrt(D) unless given)."""
    q = array_in("q", "f16", rng.standard_normal((B, S, H, D)))
    k = array_in("k", "f16", rng.standard_normal((B, T, H, D)))
    v = array_in("v", "f16", rng.standard_normal((B, T, H, D)))
    scale = 1 / np.sqrt(D) if scale is None else scale
    args = [q, k, v, array_out("o", "f16"), scalar("scale", scale)]
    return args, lambda: {"o": attention_ref(f(q), f(k), f(v), scale, causal=causal)}


def attention_ref(q, k, v, scale, causal=False):
    """q [B,S,H,D], k and v [B,T,H,D] in float64; p is rounded to f16 as the kernel does
    before its second dot, so the reference keeps that rounding too."""
    s = np.einsum("bshd,bthd->bhst", q, k) * scale
    if causal:
        S, T = s.shape[-2], s.shape[-1]
        s = np.where(np.arange(T)[None, :] <= np.arange(S)[:, None], s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    o = np.einsum("bhst,bthd->bshd", e, v) / e.sum(axis=-1)[..., None].transpose(0, 2, 1, 3)
    return o


@case("attention", example("attention.tess"))
def attention(rng):
    return attention_case(rng, 2, 200, 200, 3, 64, scale=0.125)


@case("attention-odd", example("attention.tess"), defines=["D=32", "BQ=32", "BK=16"])
def attention_odd(rng):
    return attention_case(rng, 1, 77, 133, 2, 32, scale=0.2)


@case("causal-attention", inputs("loops.tess"), kernel="causal_attn")
def causal_attention(rng):
    S, D = 200, 32
    q = array_in("q", "f16", rng.standard_normal((S, D)))
    k = array_in("k", "f16", rng.standard_normal((S, D)))
    v = array_in("v", "f16", rng.standard_normal((S, D)))
    scale = 1 / np.sqrt(D)
    args = [q, k, v, array_out("o", "f16"), scalar("scale", scale)]

    def ref():
        o = attention_ref(f(q)[None, :, None], f(k)[None, :, None], f(v)[None, :, None], scale, causal=True)
        return {"o": o[0, :, 0]}
    return args, ref


def bench_kernel(name):
    return os.path.join(ROOT, "bench", "kernels", name)


# TMA stores (tma.c, on sm_90a): the epilogue's boxes clipped at the array's
# edge in N (M a multiple of BM: the TMA entry reads A's rows in wgmma order,
# whole blocks only), K not a multiple of BK; a 32-column tile (one box, the
# 64-byte swizzle); bf16.
@case("tma-store-edges", bench_kernel("matmul.tess"), defines=["NS=3"], tma="yes")
def tma_store_edges(rng):
    return matmul_case(rng, 256, 200, 200)


@case("tma-store-narrow", bench_kernel("matmul.tess"), defines=["BM=64", "BN=32", "BK=64", "W=4", "NS=3"], tma="yes")
def tma_store_narrow(rng):
    return matmul_case(rng, 128, 96, 72)


@case("tma-store-bf16", bench_kernel("matmul_bf16.tess"), defines=["NS=3"], tma="yes")
def tma_store_bf16(rng):
    a = array_in("a", "bf16", rng.standard_normal((256, 136)))
    b = array_in("b", "bf16", rng.standard_normal((136, 88)))
    return [a, b, array_out("c", "bf16")], lambda: {"c": f(a) @ f(b)}


def bench_attention(rng, B, S, T, H, D, causal):
    """bench/kernels/attention.tess on random inputs: its key loop is split into
    unmasked whole blocks and masked ones, so the cases below cover T < BK, T a
    multiple of BK (no masked block), T one past and one short of a multiple,
    and trip counts 1 and stages - 1 of the pipelined loops."""
    return attention_case(rng, B, S, T, H, D, causal=causal)


BENCH_ATTN_SMALL = ["D=32", "BQ=32", "BK=16"]


@case("bench-attn-tail", bench_kernel("attention.tess"), kernel="mha_fwd", defines=BENCH_ATTN_SMALL)
def bench_attn_tail(rng):
    return bench_attention(rng, 1, 45, 77, 2, 32, False)       # 4 whole blocks and 13 keys


@case("bench-attn-short", bench_kernel("attention.tess"), kernel="mha_fwd", defines=BENCH_ATTN_SMALL)
def bench_attn_short(rng):
    return bench_attention(rng, 2, 40, 7, 1, 32, False)        # T < BK: the masked block only


@case("bench-attn-even-s3", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_SMALL + ["NS=3"])
def bench_attn_even(rng):
    return bench_attention(rng, 1, 33, 64, 2, 32, False)       # BK divides T: no masked block


@case("bench-attn-s3-trips", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_SMALL + ["NS=3"])
def bench_attn_trips(rng):
    return bench_attention(rng, 1, 20, 33, 2, 32, False)       # 2 = stages - 1 whole blocks, 1 key


@case("bench-attn-one-block-s3", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_SMALL + ["NS=3"])
def bench_attn_one(rng):
    return bench_attention(rng, 1, 20, 31, 1, 32, False)       # 1 whole block, 15 keys


@case("bench-attn", bench_kernel("attention.tess"), kernel="mha_fwd", defines=["D=64", "BQ=128", "BK=64"], tma="yes")
def bench_attn(rng):
    return bench_attention(rng, 1, 130, 200, 2, 64, False)     # the bench's tiles, 3 blocks and 8 keys


@case("bench-attn-causal-odd", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=BENCH_ATTN_SMALL)
def bench_attn_causal_odd(rng):
    return bench_attention(rng, 1, 77, 77, 2, 32, True)


@case("bench-attn-causal-short", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=BENCH_ATTN_SMALL + ["NS=3"])
def bench_attn_causal_short(rng):
    return bench_attention(rng, 2, 9, 9, 1, 32, True)          # S = T < BK


@case("bench-attn-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=["D=64", "BQ=128", "BK=64"], tma="yes")
def bench_attn_causal(rng):
    return bench_attention(rng, 1, 200, 200, 2, 64, True)


# Two warpgroups on small tiles (D 32, 128 query rows, 16 keys a block): on
# sm_90a each loop's ring barrier can be a release and its two wgmma dots
# take turns (tessc --hopper-schedule, docs/codegen.md "Warpgroup schedules";
# the GPU suite runs them built with it: testsuite/gpu/build-artifacts.sh
# --schedule). Edges of the turns: no trip, one, stages - 1, many with a
# masked block after, and causal's two loops with a partial query block.
BENCH_ATTN_W8 = ["D=32", "BQ=128", "BK=16", "W=8"]


@case("bench-attn-w8-no-trip", bench_kernel("attention.tess"), kernel="mha_fwd", defines=BENCH_ATTN_W8, tma="yes")
def bench_attn_w8_no_trip(rng):
    return bench_attention(rng, 1, 130, 9, 2, 32, False)       # T < BK: the loop runs no trip


@case("bench-attn-w8-one-trip", bench_kernel("attention.tess"), kernel="mha_fwd", defines=BENCH_ATTN_W8, tma="yes")
def bench_attn_w8_one_trip(rng):
    return bench_attention(rng, 1, 128, 16, 1, 32, False)      # one whole block, no masked one


@case("bench-attn-w8-s3-trips", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_W8 + ["NS=3"], tma="yes")
def bench_attn_w8_s3_trips(rng):
    return bench_attention(rng, 1, 100, 37, 2, 32, False)      # 2 = stages - 1 whole blocks, 5 keys


@case("bench-attn-w8-many", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_W8 + ["NS=3"], tma="yes")
def bench_attn_w8_many(rng):
    return bench_attention(rng, 2, 257, 203, 1, 32, False)     # 12 blocks and 11 keys, 3 query blocks


@case("bench-attn-w8-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal", defines=BENCH_ATTN_W8,
      tma="yes")
def bench_attn_w8_causal(rng):
    return bench_attention(rng, 1, 200, 200, 2, 32, True)


# The bench's D = 128 tiles (8 warps): K and V through 4-dim tensor maps of
# two 128-byte panels on sm_90a.
@case("bench-attn-d128", bench_kernel("attention.tess"), kernel="mha_fwd", defines=["D=128", "BQ=128", "W=8"],
      tma="yes")
def bench_attn_d128(rng):
    return bench_attention(rng, 2, 150, 200, 2, 128, False)


@case("bench-attn-d128-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=["D=128", "BQ=128", "W=8", "NS=3"], tma="yes")
def bench_attn_d128_causal(rng):
    return bench_attention(rng, 1, 270, 270, 2, 128, True)


# The bench's own sm_90a tiles (D 128, BQ 128, BK 128, 8 warps, 3 stages), with
# several trips of the pipelined loop: ptxas 13.0 once put p's A fragments in q's
# registers under a ping-pong variant at exactly these tiles (q @ k.T read p from
# the second trip on; docs/performance.md, run s27-1), which the smaller tiles
# above did not show. Only sm_90a's plan fits these tiles (229,472 bytes of shared
# memory; sm_80's and sm_90's plain plans need 241,664).
BENCH_ATTN_D128_BK128 = ["D=128", "BQ=128", "BK=128", "W=8", "NS=3"]


@case("bench-attn-d128-bk128", bench_kernel("attention.tess"), kernel="mha_fwd", defines=BENCH_ATTN_D128_BK128,
      tma="yes", archs=("sm_90a",))
def bench_attn_d128_bk128(rng):
    return bench_attention(rng, 1, 200, 700, 2, 128, False)     # 5 whole blocks and 60 keys, 2 query blocks


@case("bench-attn-d128-bk128-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=BENCH_ATTN_D128_BK128, tma="yes", archs=("sm_90a",))
def bench_attn_d128_bk128_causal(rng):
    return bench_attention(rng, 1, 520, 520, 1, 128, True)      # the last query block: 4 trips below the diagonal


BENCH_ATTN_D64_BQ64_BK128 = ["D=64", "BQ=64", "BK=128", "W=4"]


@case("bench-attn-d64-bq64-bk128", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=BENCH_ATTN_D64_BQ64_BK128, tma="yes", archs=("sm_90a",))
def bench_attn_d64_bq64_bk128(rng):
    return bench_attention(rng, 2, 150, 300, 1, 64, False)      # 2 whole key blocks and 44 keys, 3 query blocks (the last partial)


@case("bench-attn-d64-bq64-bk128-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=BENCH_ATTN_D64_BQ64_BK128, tma="yes", archs=("sm_90a",))
def bench_attn_d64_bq64_bk128_causal(rng):
    return bench_attention(rng, 1, 330, 330, 2, 64, True)       # BK 2 BQ: query blocks whose diagonal block starts before them


# D 64 with 256 query rows a block (bench's attn_d64_bq256_*: session 40's
# candidates for (4,1024,8,64)): four consumer warpgroups in lockstep at
# 16 warps, two of 128 rows under the producer at 8; partial query and key
# blocks, and stages 3.
@case("bench-attn-d64-bq256-w16", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=["D=64", "BQ=256", "BK=64", "W=16"], tma="yes", archs=("sm_90a",))
def bench_attn_d64_bq256_w16(rng):
    return bench_attention(rng, 1, 300, 200, 2, 64, False)      # 2 query blocks (the last partial), 3 key blocks and 8 keys


@case("bench-attn-d64-bq256-w16-s3-causal", bench_kernel("attention.tess"), kernel="mha_fwd_causal",
      defines=["D=64", "BQ=256", "BK=64", "W=16", "NS=3"], tma="yes", archs=("sm_90a",))
def bench_attn_d64_bq256_w16_s3_causal(rng):
    return bench_attention(rng, 1, 520, 520, 2, 64, True)       # 3 query blocks, the diagonal inside each


@case("bench-attn-d64-bq256-w8", bench_kernel("attention.tess"), kernel="mha_fwd",
      defines=["D=64", "BQ=256", "BK=64", "W=8"], tma="yes", archs=("sm_90a",))
def bench_attn_d64_bq256_w8(rng):
    return bench_attention(rng, 2, 260, 330, 1, 64, False)      # 2 query blocks, 5 key blocks and 10 keys


@case("loops", inputs("loops.tess"), kernel="loops")
def loops(rng):
    n, n_iter = 101, 9
    x = array_in("x", "f32", rng.standard_normal(n))

    def ref():
        acc = np.zeros(n, np.float32)
        t = x.value.copy()
        count = 0
        for k in range(0, n_iter, 2):
            if k % 4 == 0:
                acc = acc + t
            else:
                acc = acc - t * np.float32(0.5)
                count += 1
            t = t * np.float32(0.9)
        return {"y": acc.astype(np.float64), "z": count + np.arange(n) // 32}
    return [x, array_out("y", "f32"), array_out("z", "i32"), scalar("n_iter", n_iter)], ref


def wrap_i32(x):
    return (int(x) + 2**31) % 2**32 - 2**31


@case("loop-steps", inputs("loops.tess"), kernel="loop_steps")
def loop_steps(rng):
    i32_min, i32_max = -2**31, 2**31 - 1
    # (lo, hi, step): counting down, step 0, steps that pass i32's end, ...
    rows = [(10, 0, -1), (0, 10, -1), (0, 10, 0), (10, 0, 0), (5, 5, 0), (5, 5, 1), (4, 5, 1),
            (0, 0, 3), (0, 1, 3), (0, 2, 1), (-7, 9, 4), (-7, 10, 4), (-7, 11, 4),
            (2147483000, i32_max, 1000000000), (i32_min, i32_max, i32_max), (i32_max - 1, i32_max, 2),
            (0, i32_max, 2**30), (i32_min, i32_min + 5, i32_max), (i32_max, i32_min, -1),
            (i32_min, i32_max, -i32_max), (-3, 2147483600, 999999999), (1, 0, i32_max)]
    for _ in range(12):
        lo, hi = sorted(rng.integers(-3000, 3000, 2))
        if rng.random() < 0.3:
            lo, hi = hi, lo
        rows.append((int(lo), int(hi), int(rng.integers(-5, 60))))
    los, his, steps = (np.array(c, np.int64) for c in zip(*rows))

    def ref():
        trips, sums, lasts = (np.zeros((len(rows), 3), np.int64) for _ in range(3))
        for t, (lo, hi, step) in enumerate(rows):
            loops = [(lo, hi, step), (max(lo, wrap_i32(hi - 1000)), hi, 1), (lo, hi, 1000000000)]
            for j, (a, b, s) in enumerate(loops):
                iters = range(a, b, s) if s > 0 else range(0)   # nothing for a step <= 0
                trips[t, j] = len(iters)
                h = 0
                for i in iters:
                    h = wrap_i32(h * 31 + i)
                sums[t, j] = h
                lasts[t, j] = iters[-1] if iters else -1
        return {"trips": trips, "sums": sums, "lasts": lasts}
    return [array_in("los", "i32", los), array_in("his", "i32", his), array_in("steps", "i32", steps),
            array_out("trips", "i32"), array_out("sums", "i32"), array_out("lasts", "i32")], ref


@case("dot-i8", inputs("loops.tess"), kernel="dot_i8")
def dot_i8(rng):
    a = array_in("a", "i8", rng.integers(-128, 128, (45, 77)))
    b = array_in("b", "i8", rng.integers(-128, 128, (77, 29)))
    return [a, b, array_out("c", "i32")], lambda: {"c": f(a) @ f(b)}


@case("math-f32", inputs("elementwise.tess"), kernel="math_f32")
def math_f32(rng):
    x = array_in("x", "f32", rng.standard_normal(301) * 2)

    def ref():
        v = f(x)
        y = np.exp(v) * 0.5 + np.tanh(v) - 1 / (1 + np.exp(-v)) * np.sin(v) + np.cos(v) / 3 + np.abs(v)
        z = (np.sqrt(np.abs(v)) + 1 / np.sqrt(np.abs(v) + 1) + np.log(np.abs(v) + 1) + np.exp2(v)
             - np.log2(np.abs(v) + 2))
        return {"y": y, "z": z}
    return [x, array_out("y", "f32"), array_out("z", "f32")], ref


@case("exp2-ftz", inputs("exp2_ftz.tess"), kernel="exp2_ftz_edges")
def exp2_ftz(rng):
    # exp2_ftz is exp2 with results below 2^-126 (f32's smallest normal) as +0
    # (docs/language.md 9.6). The reference flushes by the result, the
    # interpreter by the input (x < -126): the same set, computed another way.
    # Outputs near 2^-126 are scaled by 2^100 so that the tolerance, a
    # fraction of the largest magnitude, stays far below a flushed value.
    edges = [-np.inf, np.nan, -1000, -150, -149, -140, -127, -126.5, -126.00002, -126, -125.99998,
             -125.5, -125, -110]
    n = 300
    x = array_in("x", "f32", np.concatenate([edges, rng.uniform(-130, -120, n - len(edges))]))
    special = [-1e-40, 1e-40, 0.0, -0.0, 1.5, 20, np.inf, np.nan]   # subnormal inputs count as 0
    g = array_in("g", "f32", np.concatenate([special, rng.uniform(-20, 20, n - len(special))]))
    # f16: computed in f32, so f16's own subnormals (2^-24 .. 2^-14) are kept
    h = array_in("h", "f16", np.concatenate([[-np.inf, -30, -24, -20, -14.5, -14, 0, 3.25, 15],
                                             rng.uniform(-26, 15, n - 9)]))
    # bf16 has f32's exponent range: its subnormals are flushed
    b = array_in("b", "bf16", np.concatenate([[-np.inf, -133, -127, -126.5, -126, -125.5, -125, -118],
                                              rng.uniform(-134, -118, n - 8)]))
    big = 2.0 ** 100

    def flushed(v):
        e = np.exp2(v)
        return np.where(e < 2.0 ** -126, 0.0, e)

    def ref():
        xf = f(x)
        plain = np.exp2(xf.astype(np.float32)).astype(np.float64)   # subnormals kept
        return {"y": flushed(xf) * big, "z": plain * big, "yg": flushed(f(g)), "hy": np.exp2(f(h)),
                "by": flushed(f(b)) * big, "w": np.full(n, np.exp2(-126.5) * big + 2.0 ** -126)}
    return [x, g, h, b, array_out("y", "f32"), array_out("z", "f32"), array_out("yg", "f32"),
            array_out("hy", "f16"), array_out("by", "bf16"), array_out("w", "f32")], ref


@case("half-ops", inputs("elementwise.tess"), kernel="half_ops")
def half_ops(rng):
    n = 200
    a = array_in("a", "f16", rng.standard_normal(n) * 4)
    b = array_in("b", "f16", rng.standard_normal(n) * 4)

    def ref():
        # numpy's float16 arithmetic rounds after every op, as the kernel must
        x, y = a.value, b.value
        one = np.float16(1)
        c = x * y + x / (np.abs(y) + one) - np.maximum(x, y)
        xb, yb = from_bf16_bits(to_bf16_bits(x)), from_bf16_bits(to_bf16_bits(y))
        d = from_bf16_bits(to_bf16_bits(from_bf16_bits(to_bf16_bits(xb * yb)) + 1))
        e = (x - y).astype(np.float64) * 0.25
        return {"c": c.astype(np.float64), "d": d.astype(np.float64), "e": e}
    return [a, b, array_out("c", "f16"), array_out("d", "bf16"), array_out("e", "f32")], ref


@case("float-rem", inputs("elementwise.tess"), kernel="float_rem")
def float_rem(rng):
    # Operands where x / y rounds to (or past) an integer, which a remainder
    # computed as x - trunc(x / y) * y gets wrong (by up to |y|, or far more
    # for a huge x): integers over rounded thirds (9 % (1/3) is 0.333333,
    # not -1.2e-7), 1e30 % 0.1, and random values of both signs. np.fmod is
    # C's fmod, which is exact, so every output must match bit for bit.
    n = 300

    def operands(dtype, big):
        k = np.arange(n)
        x = rng.standard_normal(n) * 100
        y = rng.standard_normal(n) * 3
        x[:100] = -(k[:100] % 64 - 128)                          # 128 .. 65
        y[:100] = (rng.integers(1, 256, 100).astype(dtype) / dtype(3)).astype(np.float64)
        x[100:110] = [big, -big, big / 7, big / 3, -big / 5, 7, -7, 0.0, -0.0, 5.5]
        y[100:110] = [0.1, 0.1, -0.3, 0.7, 1e-3, -2, 2, 3, -3, 2.75]
        return x.astype(dtype), y.astype(dtype)
    xa, ya = operands(np.float32, 1e30)
    xc, yc = operands(np.float64, 1e300)
    xh, yh = operands(np.float16, 6e4)
    a, b = array_in("a", "f32", xa), array_in("b", "f32", ya)
    c, d = array_in("c", "f64", xc), array_in("d", "f64", yc)
    h, g = array_in("h", "f16", xh), array_in("g", "f16", yh)
    outs = [array_out("r", "f32"), array_out("s", "f64"), array_out("t", "f16")]
    for o in outs:
        o.exact = True

    def ref():
        # fmod is exact: computing it in f64 gives the f32/f16 result exactly
        return {"r": np.fmod(f(a), f(b)), "s": np.fmod(c.value, d.value),
                "t": np.fmod(f(h), f(g))}
    return [a, b, c, d, h, g] + outs, ref


@case("round-ops", inputs("elementwise.tess"), kernel="round_ops")
def round_ops(rng):
    # floor, ceil, trunc, round (half to even), sign, clamp and the float
    # classes are exact on every target: bit for bit, signs of zero included.
    # Halves (ties), values near and past 2^23 (every f32 there is an
    # integer), +-0, +-inf, NaN, tiny values, then random ones.
    n = 320
    special = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40,
               8388607.5, -8388607.5, 8388608.0, 16777217.0, 3.4e38, -3.4e38, 0.49999997, -0.49999997,
               1.0, -1.0, 2.0000002]
    x = np.concatenate([special, np.round(rng.standard_normal(100) * 8) / 2,
                        rng.standard_normal(n - len(special) - 100) * 50]).astype(np.float32)
    lo = (rng.standard_normal(n) * 2).astype(np.float32)
    lo[:5] = [np.nan, -np.inf, 3.0, -0.0, 0.0]
    hx = np.concatenate([[0.5, 1.5, 2.5, -0.5, -2.5, 1023.5, 2047.0, -0.0, np.inf, np.nan],
                         rng.standard_normal(n - 10) * 30]).astype(np.float16)
    dx = np.concatenate([[0.5, -0.5, 2.5, 4503599627370495.5, -4503599627370497.0, -0.0, np.inf, np.nan],
                         rng.standard_normal(n - 8) * 1e6]).astype(np.float64)
    a, lo_ = array_in("a", "f32", x), array_in("lo", "f32", lo)
    h, d = array_in("h", "f16", hx), array_in("d", "f64", dx)
    floats = [array_out(k, "f32") for k in ("fl", "ce", "tr", "ro", "sg", "cl")]
    bools = [array_out(k, "bool") for k in ("nan_", "inf_", "fin")]
    rest = [array_out("rh", "f16"), array_out("fh", "f16"), array_out("rd", "f64"), array_out("cd", "f64"),
            array_out("si", "i32"), array_out("ci", "i32")]
    for o in floats + rest:
        o.exact = True

    def ref():
        with np.errstate(invalid="ignore"):
            v, hv, dv = x.astype(np.float64), hx.astype(np.float64), dx
            sign = np.where(v > 0, 1.0, np.where(v < 0, -1.0, np.where(np.isnan(v), v, 0.0)))
            # clamp = min(max(x, lo), hi) with NaN propagating through both
            m = np.maximum(v, lo.astype(np.float64))
            clamp = np.minimum(m, 2.5)
            k = np.clip(np.nan_to_num(np.trunc(v), nan=0.0), -2 ** 31, 2 ** 31 - 1).astype(np.int64)
            return {"fl": np.floor(v), "ce": np.ceil(v), "tr": np.trunc(v), "ro": np.rint(v), "sg": sign,
                    "cl": clamp, "nan_": np.isnan(v), "inf_": np.isinf(v), "fin": np.isfinite(v),
                    "rh": np.rint(hv).astype(np.float16).astype(np.float64),
                    "fh": (np.floor(hv) + (np.ceil(hv) * 0.5).astype(np.float16)).astype(np.float16),
                    "rd": np.rint(dv) - np.trunc(dv), "cd": np.ceil(dv) + np.floor(-dv),
                    "si": np.sign(k) * 10 - 1, "ci": np.clip(k, -3, 4)}
    return [a, h, d, lo_] + floats + bools + rest, ref


@case("math-more", inputs("elementwise.tess"), kernel="math_more")
def math_more(rng):
    # erf (exact GELU's) and pow, of both signs, integer and fractional
    # exponents; pow(t, 2.0) of a negative t is t*t, pow(2.0, t) any t.
    n = 301
    x = array_in("x", "f32", rng.standard_normal(n) * 3)
    e = array_in("e", "f32", rng.uniform(-3, 3, n))
    d = array_in("d", "f64", rng.standard_normal(n) * 3)
    h = array_in("h", "f16", rng.standard_normal(n) * 2)

    def ref():
        from math import erf
        verf = np.vectorize(erf)
        t = f(x)
        return {"y": verf(t) + 0.5 * t * (1 + verf(t * 0.7071067811865476)),
                "z": np.power(np.abs(t) + np.float32(0.01), f(e)) + t ** 2 - np.power(2.0, t),
                "w": verf(d.value) + np.abs(d.value) ** 1.5,
                "v": verf(f(h)) + np.sqrt(np.abs(f(h)))}
    return [x, e, d, h, array_out("y", "f32"), array_out("z", "f32"), array_out("w", "f64"),
            array_out("v", "f16")], ref


@case("bit-ops", inputs("elementwise.tess"), kernel="bit_ops")
def bit_ops(rng):
    # & | ^ ~ on two's complement bits and shifts with the amount read as an
    # unsigned number of the dtype, clamped to the width (docs/language.md
    # 7.5): computed here with Python integers, compared bit for bit. The
    # amounts include 0, the width - 1, the width, past it and negatives.
    n = 200
    i32 = rng.integers(-2 ** 31, 2 ** 31, n)
    i32[:6] = [0, -1, 2 ** 31 - 1, -2 ** 31, 1, -2]
    j32 = rng.integers(-2 ** 31, 2 ** 31, n)
    amounts = np.concatenate([[0, 1, 31, 32, 33, 64, -1, -32, 2 ** 31 - 1, 7, 16, 30],
                              rng.integers(-40, 70, n - 12)])
    u32 = rng.integers(0, 2 ** 32, n)
    u8 = rng.integers(0, 256, n)
    s8 = rng.integers(-128, 128, n)
    s64 = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64)
    x, y, sh = array_in("x", "i32", i32), array_in("y", "i32", j32), array_in("s", "i32", amounts)
    u, m = array_in("u", "u32", u32), array_in("m", "u8", u8)
    q, l = array_in("q", "i8", s8), array_in("l", "i64", s64)
    outs = [array_out("a", "i32"), array_out("b", "i32"), array_out("c", "i32"), array_out("d", "u32"),
            array_out("e", "u32"), array_out("g", "u8"), array_out("h", "i8"), array_out("k", "i64"),
            array_out("z", "bool")]

    def wrap(v, bits, signed):
        v &= (1 << bits) - 1
        return v - (1 << bits) if signed and v >> (bits - 1) else v

    def shl(v, amount, bits, signed):
        a = amount & ((1 << bits) - 1)          # the amount as an unsigned number of the dtype
        return 0 if a >= bits else wrap(v << a, bits, signed)

    def shr(v, amount, bits, signed):
        a = amount & ((1 << bits) - 1)
        if a >= bits:
            return -1 if signed and v < 0 else 0
        return v >> a                           # Python's >> is arithmetic; v is canonical

    def ref():
        A, B, C, D, E, G, H, K, Z = ([] for _ in range(9))
        for i in range(n):
            v, w, a = int(i32[i]), int(j32[i]), int(amounts[i])
            A.append(wrap((v & w) + (v | w) * 3 - (v ^ w) + ~v, 32, True))
            B.append(shl(v, a, 32, True))
            C.append(shr(v, a, 32, True))
            t, au = int(u32[i]), wrap(a, 32, False)
            D.append((shr(t, au, 32, False) ^ wrap(t << 3, 32, False)) | (t & 0xF0F0F0F0))
            E.append(shr(wrap(~t, 32, False), 7, 32, False))
            mm = int(u8[i])
            G.append(shl(mm, 3, 8, False) | shr(mm, 5, 8, False))
            qq = int(s8[i])
            H.append(wrap(shr(qq, 2, 8, True) ^ ~qq, 8, True))
            ll = int(s64[i])
            K.append(wrap(shl(ll, a, 64, True) ^ (shr(ll, 40, 64, True) & ll), 64, True))
            Z.append(bool(((v > 0) & (w > 0)) | (((v & 1) == 1) ^ (a < 0))))
        return {"a": np.array(A), "b": np.array(B), "c": np.array(C), "d": np.array(D), "e": np.array(E),
                "g": np.array(G), "h": np.array(H), "k": np.array(K, dtype=object), "z": np.array(Z)}
    return [x, y, sh, u, m, q, l] + outs, ref


@case("bit-cast", inputs("elementwise.tess"), kernel="bit_cast")
def bit_cast(rng):
    # bitcast is numpy's view: the same bits as another dtype of their width.
    # Signs of zero, infinities, subnormals and random values; no NaN (the
    # interpreter's NaN payloads are the host's, docs/language.md 7.5).
    n = 150
    xs = np.concatenate([[0.0, -0.0, np.inf, -np.inf, 1e-45, -3e-39, 1.0, -2.5],
                         rng.standard_normal(n - 8) * 1e3]).astype(np.float32)
    hs = np.concatenate([[0.0, -0.0, np.inf, 6e-8, -65504.0], rng.standard_normal(n - 5) * 10]).astype(np.float16)
    ds = np.concatenate([[0.0, -0.0, 5e-324, np.inf, -1.5], rng.standard_normal(n - 5) * 1e100]).astype(np.float64)
    x, h, d = array_in("x", "f32", xs), array_in("h", "f16", hs), array_in("d", "f64", ds)
    outs = [array_out("a", "u32"), array_out("b", "f32"), array_out("c", "i16"), array_out("e", "bf16"),
            array_out("g", "i64"), array_out("k", "f64")]
    for o in outs:
        o.exact = True

    def ref():
        bits = xs.view(np.uint32)
        flipped = (hs.view(np.int16) ^ np.int16(-32768)).view(np.uint16)
        return {"a": bits, "b": ((bits & np.uint32(0x807fffff)) | np.uint32(0x3f800000)).view(np.float32),
                "c": hs.view(np.int16), "e": from_bf16_bits(flipped),
                "g": ds.view(np.int64) >> 52, "k": (ds.view(np.int64) + 1).view(np.float64)}
    return [x, h, d] + outs, ref


def philox(seed, offset, rounds=10):
    """Philox 4x32-10 as Triton's random.py: counter (offset, 0, 0, 0), key
    the seed's low and high 32 bits (the seed sign-extended to 64 bits)."""
    M = 0xFFFFFFFF
    k0, k1 = seed & M, (seed >> 32) & M
    c0, c1, c2, c3 = offset & M, 0, 0, 0
    for _ in range(rounds):
        n0 = ((0xCD9E8D57 * c2) >> 32) ^ c1 ^ k0
        n2 = ((0xD2511F53 * c0) >> 32) ^ c3 ^ k1
        c0, c1, c2, c3 = n0, (0xCD9E8D57 * c2) & M, n2, (0xD2511F53 * c0) & M
        k0, k1 = (k0 + 0x9E3779B9) & M, (k1 + 0xBB67AE85) & M
    return c0, c1, c2, c3


def uniform_of_bits(b):
    """Triton's uint32_to_uniform_float: as i32, negatives to -x - 1, times
    4.6566127342e-10, each step in f32."""
    x = np.asarray(b, np.int64)
    x = np.where(x >= 2 ** 31, x - 2 ** 32, x)
    x = np.where(x < 0, -x - 1, x)
    return (x.astype(np.float32) * np.float32(4.6566127342e-10)).astype(np.float32)


@case("random-bits", inputs("elementwise.tess"), kernel="random_bits")
def random_bits(rng):
    n = 200
    offs = np.concatenate([[0, 1, 2, -1, 2 ** 31 - 1, -2 ** 31], rng.integers(-2 ** 31, 2 ** 31, n - 6)])
    seed, big_seed = int(rng.integers(-2 ** 31, 0)), int(rng.integers(2 ** 40, 2 ** 62))
    o = array_in("offs", "i32", offs)
    outs = [array_out("r", "f32"), array_out("k", "u32"), array_out("n", "f32"), array_out("w", "u32"),
            array_out("c", "f32")]
    for x in outs:
        x.exact = x.name != "n"

    def ref():
        four = [philox(seed, int(v)) for v in offs]
        bits = np.array([t[0] for t in four])
        u1, u2 = uniform_of_bits(bits), uniform_of_bits([t[1] for t in four])
        normal = np.sqrt(-2.0 * np.log(np.maximum(1e-7, u1.astype(np.float64)))) * np.cos(
            np.float32(6.283185307179586) * u2.astype(np.float64))
        return {"r": uniform_of_bits(bits), "k": bits, "n": normal,
                "w": np.array([philox(big_seed, int(v))[0] for v in offs]),
                "c": uniform_of_bits([philox(1234, i)[0] for i in range(n)])}
    return [scalar("seed", seed), scalar("big_seed", big_seed), o] + outs, ref


@case("grid-scalar", inputs("elementwise.tess"), kernel="grid_scalar")
def grid_scalar(rng):
    # count = 150, B = 64: 3 programs cover elements 0..191 of 300
    n, count, b = 300, 150, 64
    x = array_in("x", "f32", rng.standard_normal(n))
    y0 = rng.standard_normal(n)
    y = array_inout("y", "f32", y0)
    y.exact = True

    def ref():
        want = y0.astype(np.float32).astype(np.float64)
        covered = -(-count // b) * b
        want[:covered] = f(x)[:covered] * 2
        return {"y": want}
    return [x, y, scalar("count", count)], ref


@case("shape-ops", inputs("elementwise.tess"), kernel="shape_ops")
def shape_ops(rng):
    R, C = 8, 16
    v, w = array_in("v", "f32", rng.standard_normal(C)), array_in("w", "f32", rng.standard_normal(R))
    outs = [array_out("o", "f32"), array_out("p", "f32"), array_out("q", "f32")]

    def ref():
        return {"o": np.broadcast_to(f(v), (R, C)) + np.broadcast_to(f(w)[:, None], (R, C)) * 10,
                "p": 3 + np.broadcast_to(np.expand_dims(f(v), 0), (R, C)), "q": np.expand_dims(f(v), -1)}
    return [v, w] + outs, ref


@case("reshape-ops", inputs("reshape.tess"), kernel="reshape_ops")
def reshape_ops(rng):
    R, BR = 12, 4
    xv, yv = rng.standard_normal((R, 32)), rng.standard_normal((R, 32))
    hv, kv = rng.standard_normal((R, 32)) * 3, rng.integers(-1000, 1000, (R, 32))
    args = [array_in("x", "f32", xv), array_in("y", "f32", yv), array_in("h", "f16", hv), array_in("k", "i32", kv)]
    outs = [array_out("p", "f32"), array_out("j", "f32"), array_out("q", "f16"), array_out("w", "i32"),
            array_out("t", "f32"), array_out("s", "i32"), array_out("e", "f32"), array_out("o", "f32")]
    for o in outs:
        o.exact = True   # only data movement (and one subtraction, the same in f32 on both sides)

    def ref():
        a, b = f(args[0]), f(args[1])
        hh, kk = args[2].value.astype(np.float64), args[3].value.astype(np.int64)
        blocks = lambda m: [m[i:i + BR] for i in range(0, R, BR)]
        p = np.concatenate([blk.reshape(BR, 4, 8).transpose(2, 0, 1).reshape(BR, 32) for blk in blocks(a)])
        pairs = a.reshape(R, 16, 2)
        return {"p": p, "j": np.stack([a, b], -1).reshape(R, 64), "q": np.stack([hh, -hh], -1).reshape(R, 64),
                "w": np.stack([kk, np.full_like(kk, 7)], -1).reshape(R, 64), "t": a.T,
                "s": (kk * 2).reshape(-1), "e": pairs[:, :, 0],
                "o": (pairs[:, :, 1].astype(np.float32) - pairs[:, :, 0].astype(np.float32)).astype(np.float64)}
    return args + outs + [size("N", R * 32)], ref


@case("tile-index-runtime", inputs("tile_index.tess"), kernel="pick")
def tile_index_runtime(rng):
    R, BR, k, m = 20, 4, int(rng.integers(0, 16)), int(rng.integers(0, 16))
    G = R // BR
    xv, hv, nv = rng.standard_normal((R, 16)), rng.standard_normal((R, 16)), rng.integers(-999, 999, (R, 16))
    xv[0, k] = -0.0   # a -0.0 read out stays -0.0
    args = [array_in("x", "f32", xv), array_in("h", "f16", hv), array_in("n", "i32", nv)]
    outs = [array_out("col", "f32"), array_out("hc", "f16"), array_out("nc", "i32"), array_out("row", "f32"),
            array_out("both", "f32"), array_out("far", "f32")]
    for o in outs:
        o.exact = True

    def ref():
        a = f(args[0])
        rows = [g * BR + g % BR for g in range(G)]
        both = [(np.float32(a[g * BR + g % BR, k]) + np.float32(a[g * BR + BR - 1 - g % BR, m])) for g in range(G)]
        return {"col": a[:, k], "hc": args[1].value[:, m].astype(np.float64), "nc": args[2].value[:, k] * 3,
                "row": a[rows, :], "both": np.array(both, np.float64), "far": np.full(R, -0.0)}
    return args + outs + [scalar("k", k), scalar("m", m), size("G", G)], ref


@case("flip-scan-reverse", inputs("flip.tess"), kernel="flips")
def flip_scan_reverse(rng):
    R, BR = 12, 4
    xv, kv, hv = rng.standard_normal((R, 32)), rng.integers(-1000, 1000, (R, 32)), rng.standard_normal((R, 32))
    args = [array_in("x", "f32", xv), array_in("k", "i32", kv), array_in("h", "f16", hv)]
    outs = [array_out("f1", "f32"), array_out("f0", "f32"), array_out("rc", "f32"), array_out("rm", "f32"),
            array_out("ri", "i32"), array_out("rh", "f16"), array_out("v", "f32")]
    for o in outs[:2] + outs[3:5] + outs[6:]:
        o.exact = True   # data movement, max and integer sums

    def ref():
        a, kk, hh = f(args[0]), args[1].value.astype(np.int64), f(args[2])
        blocks = lambda m: [m[i:i + BR] for i in range(0, R, BR)]
        f0 = np.concatenate([blk[::-1] for blk in blocks(a)])
        rm = np.concatenate([np.maximum.accumulate(blk[::-1], axis=0)[::-1] for blk in blocks(a)])
        v = np.concatenate([blk[::-1, 0] for blk in blocks(a)])
        rev = lambda m: np.cumsum(m[:, ::-1], axis=1)[:, ::-1]
        return {"f1": a[:, ::-1], "f0": f0, "rc": rev(a), "rm": rm, "ri": rev(kk), "rh": rev(hh), "v": v}
    return args + outs, ref


@case("early-exit", inputs("early_exit.tess"), kernel="exits")
def early_exit(rng):
    R, C, t = 12, 37, 2.0
    xv = rng.standard_normal((R, C))
    xv[1, :] = 3.0          # passes t at once
    xv[2, :] = -1.0         # never passes t, no positives
    args = [array_in("x", "f32", xv), scalar("t", t)]
    outs = [array_out("first", "i32"), array_out("partial", "f32"), array_out("blocks", "i32"),
            array_out("upto", "f32"), array_out("positive", "f32"), array_out("early", "f32")]
    for o in outs:
        o.exact = o.dtype != "f32"

    def ref():
        a = f(args[0])
        first, partial, blocks, upto, positive, early = [], [], [], [], [], []
        for r in range(R):
            row = a[r]
            running = np.cumsum(row)
            over = np.nonzero(running > t)[0]
            k = over[0] if len(over) else -1
            first.append(k)
            partial.append(running[k] if k >= 0 else running[-1])
            sums = [row[b:b + 16].sum() for b in range(0, C, 16)]
            n = next((i + 1 for i, v in enumerate(sums) if v > t), len(sums))
            blocks.append(n)
            upto.append(sum(sums[:n]))
            positive.append(row[row > 0].sum())
            hits = np.nonzero(row > 1.5)[0]
            early.append(float(hits[0]) if r % 3 == 0 and len(hits) else -1.0)
        return {"first": np.array(first), "partial": np.array(partial), "blocks": np.array(blocks),
                "upto": np.array(upto), "positive": np.array(positive), "early": np.array(early)}
    return args + outs, ref


@case("early-exit-dot", inputs("early_exit.tess"), kernel="partial_matmul")
def early_exit_dot(rng):
    M, K, N, BK = 100, 200, 70, 32
    last, evens = int(rng.integers(2, 6)), int(rng.integers(0, 2))
    a = array_in("a", "f16", rng.standard_normal((M, K)))
    b = array_in("b", "f16", rng.standard_normal((K, N)))

    def ref():
        aa, bb = f(a), f(b)
        c = np.zeros((M, N))
        for kb in range(-(-K // BK)):
            if evens and kb % 2:
                continue
            c += aa[:, kb * BK:(kb + 1) * BK] @ bb[kb * BK:(kb + 1) * BK, :]
            if kb >= last:
                break
        return {"c": c}
    return [a, b, array_out("c", "f32"), scalar("last", last), scalar("evens", evens)], ref


@case("weak-index", inputs("elementwise.tess"), kernel="weak_index")
def weak_index(rng):
    n = 150
    x = array_in("x", "f32", rng.standard_normal(n))
    h = array_in("h", "f16", rng.standard_normal(n) * 4)

    def ref():
        y = f(x) * 2.5 + np.float32(np.e) + 1.0 - 2
        z = h.value * np.float16(2.5) + np.float16(3)  # f16 all the way, rounded per op
        w = np.arange(n) % 64 * 3 + 3 + 7
        return {"y": y, "z": z.astype(np.float64), "w": w}
    return [x, h, array_out("y", "f32"), array_out("z", "f16"), array_out("w", "i32")], ref


@case("int-ops", inputs("elementwise.tess"), kernel="int_ops")
def int_ops(rng):
    n = 77
    a = array_in("a", "i32", rng.integers(-2**31, 2**31, n))
    bv = rng.integers(-1000, 1000, n)
    bv[bv == 0] = 7
    b = array_in("b", "i32", bv)
    fv = rng.standard_normal(n) * 3e9
    fv[:4] = [np.nan, np.inf, -np.inf, -0.5]
    fl = array_in("f", "f32", fv)

    def ref():
        x, y = a.value.astype(np.int64), b.value.astype(np.int64)
        q = np.trunc(x / y).astype(np.int64)   # exact for these magnitudes
        q = np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))
        r = x - q * y
        w = ((x * 3 + y) & 0xFF).astype(np.uint8).view(np.int8).astype(np.int64)
        u = ((x - y) & 0xFF).astype(np.int64)
        fv32 = fl.value.astype(np.float64)
        s = np.nan_to_num(np.clip(np.trunc(fv32), -2**31, 2**31 - 1), nan=0, posinf=2**31 - 1,
                          neginf=-2**31)
        t = np.nan_to_num(np.clip(np.trunc(fv32), 0, 2**32 - 1), nan=0, posinf=2**32 - 1, neginf=0)
        return {"q": q, "r": r, "w": w, "u": u, "s": s, "t": t}
    outs = [array_out(nm, dt) for nm, dt in
            [("q", "i32"), ("r", "i32"), ("w", "i8"), ("u", "u8"), ("s", "i32"), ("t", "u32")]]
    return [a, b, fl] + outs, ref


def bf16_exact(v):
    """The bf16 nearest to the exact value v (ties to even), by rational
    arithmetic: no float rounding on the way."""
    from fractions import Fraction
    f = Fraction(v)
    if f == 0:
        return 0.0
    a = abs(f)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (e - 7)          # bf16 keeps 8 significant bits
    r = round(a / quantum) * quantum          # round() of a Fraction: ties to even
    return float(r if f > 0 else -r)


def binary_exact(v, digits):
    """The nearest binary float with `digits` significant bits to the
    non-negative integer v (ties to even; normal range), by integer
    arithmetic."""
    if v == 0:
        return 0.0
    shift = max(v.bit_length() - digits, 0)
    q, rest = v >> shift, v & ((1 << shift) - 1)
    half = (1 << (shift - 1)) if shift else 0
    if shift and (rest > half or (rest == half and q & 1)):
        q += 1
    return float(q << shift)


@case("uint-ops", inputs("unsigned.tess"), kernel="uint_ops")
def uint_ops(rng):
    n = 83
    av = rng.integers(0, 2**64, n, dtype=np.uint64)
    av[:6] = [0, 1, 2**63, 2**64 - 1, 2**63 - 1, 2**53 + 1]
    bv = rng.integers(0, 2**64, n, dtype=np.uint64)
    bv[n // 2:] = rng.integers(1, 5000, n - n // 2, dtype=np.uint64)
    bv[:6] = [7, 2**64 - 1, 3, 2**63, 2**63 + 5, 1]
    bv[bv == 0] = 11
    cv = rng.integers(0, 2**16, n, dtype=np.uint16)
    dv = rng.integers(1, 2**16, n, dtype=np.uint16)
    dv[:3] = [1, 65535, 300]
    fv = rng.standard_normal(n) * 2.0**rng.integers(0, 70, n)
    fv[:8] = [np.nan, np.inf, -np.inf, -0.5, 2.0**64, 2.0**64 - 2048, 2.0**63, 0.99]
    args = [array_in("a", "u64", av), array_in("b", "u64", bv), array_in("c", "u16", cv),
            array_in("d", "u16", dv), array_in("f", "f64", fv)]

    def ref():
        M = 2**64
        xs, ys = [int(t) for t in av], [int(t) for t in bv]
        us, vs = [int(t) for t in cv], [int(t) for t in dv]
        u64 = lambda vals: np.array([t % M for t in vals], dtype=np.uint64)
        u16 = lambda vals: np.array([t % 2**16 for t in vals], dtype=np.uint16)

        def to_u64(t):
            if t != t or t <= 0:
                return 0
            return M - 1 if t >= 2.0**64 else int(t)
        return {
            "q": u64(x // y for x, y in zip(xs, ys)), "r": u64(x % y for x, y in zip(xs, ys)),
            "lo": u64(min(x, y) for x, y in zip(xs, ys)), "hi": u64(max(x, y) for x, y in zip(xs, ys)),
            "lt": np.array([x < y for x, y in zip(xs, ys)]),
            "sh": u64((x >> 7) ^ (y << 3) for x, y in zip(xs, ys)),
            "bits": u64(~x & (x | y) for x, y in zip(xs, ys)),
            "x64": np.array([binary_exact(x, 53) for x in xs]),
            "x32": np.array([binary_exact(x, 24) for x in xs]),
            "x16": np.array([binary_exact(x, 8) for x in xs]),
            "g": u64(to_u64(t) for t in fv),
            "cq": u16(u // v for u, v in zip(us, vs)), "cs": u16(u * v + u for u, v in zip(us, vs)),
            "cw": u16((u >> 3) | (v << 5) for u, v in zip(us, vs)),
            "cf": np.array([float(u) for u in us]),
            "cl": u64(u * 65537 + x % 2**16 for u, x in zip(us, xs)),
            "fb": np.asarray(fv, np.float64).view(np.uint64) >> np.uint64(52),
            "hb": (cv & np.uint16(0x7bff)).view(np.float16).astype(np.float64),
            "sx": u64((x ^ (2**64 - 3)) + 65534 for x in xs),
        }
    outs = [array_out(nm, dt) for nm, dt in
            [("q", "u64"), ("r", "u64"), ("lo", "u64"), ("hi", "u64"), ("lt", "bool"), ("sh", "u64"),
             ("bits", "u64"), ("x64", "f64"), ("x32", "f32"), ("x16", "bf16"), ("g", "u64"), ("cq", "u16"),
             ("cs", "u16"), ("cw", "u16"), ("cf", "f32"), ("cl", "u64"), ("fb", "u64"), ("hb", "f16"), ("sx", "u64")]]
    for o in outs:
        if o.dtype in ("f64", "f32", "bf16", "f16"):
            o.exact = True
    return args + outs + [scalar("big", 2**64 - 3), scalar("small", 65534)], ref


@case("fp8-casts", inputs("fp8.tess"), kernel="fp8_casts")
def fp8_casts(rng):
    n = 300
    edges = [448.0, 464.0, 465.0, 479.9, 480.0, 500.0, 1e10, np.inf, -np.inf, np.nan, -0.0, 0.0,
             2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -11, 3 * 2.0 ** -10, 2.0 ** -6, 15 * 2.0 ** -10, 57344.0,
             61440.0, 61439.0, 2.0 ** -16, 2.0 ** -17, 3 * 2.0 ** -17, 1.0625, 1.1875, -1.0625, 240.0, 248.0]
    xv = rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)
    xv[:len(edges)] = edges
    xv = xv.astype(np.float32)
    dv = rng.standard_normal(n) * 2.0 ** rng.integers(-12, 12, n)
    dv[:4] = [1.0625 + 2.0 ** -40, 1.0625 - 2.0 ** -40, 448 + 2.0 ** -30, 2.0 ** -10 + 2.0 ** -60]  # past f32's bits
    hv = (rng.standard_normal(n) * 2.0 ** rng.integers(-14, 15, n)).astype(np.float16)
    nv = rng.integers(-600, 600, n)
    nv[:3] = [2 ** 31 - 1, -2 ** 31, 17]
    args = [array_in("x", "f32", xv), array_in("d", "f64", dv), array_in("h", "f16", hv), array_in("n", "i32", nv)]
    outs = [array_out("a", "f8e4m3"), array_out("b", "f8e5m2"), array_out("ad", "f8e4m3"), array_out("bh", "f8e5m2"),
            array_out("an", "f8e4m3"), array_out("back", "f32"), array_out("bits", "u8"), array_out("ab", "f8e5m2")]
    for o in outs:
        o.exact = True

    def ref():
        e4 = [fp8_exact(float(v), "f8e4m3") for v in xv]
        e5 = [fp8_exact(float(v), "f8e5m2") for v in xv]
        back = (np.array(e5, np.float32) + np.array(e4, np.float32)).astype(np.float64)
        return {"a": np.array(e4), "b": np.array(e5),
                "ad": np.array([fp8_exact(float(v), "f8e4m3") for v in dv]),
                "bh": np.array([fp8_exact(float(v), "f8e5m2") for v in hv.astype(np.float64)]),
                "an": np.array([fp8_exact(int(v), "f8e4m3") for v in nv]), "back": back,
                "bits": fp8_bits(e4, "f8e4m3").astype(np.int64),
                "ab": np.array([fp8_exact(v, "f8e5m2") for v in e4])}
    return args + outs, ref


@case("to-bf16", inputs("elementwise.tess"), kernel="to_bf16")
def to_bf16(rng):
    # Halfway cases above 2^24, where int -> f32 -> bf16 rounds twice.
    hard = [2**24 + 2**16 + 1, -(2**24 + 2**16 + 1), 2**25 + 2**17 + 3, 2**30 + 2**22 + 1,
            2**31 - 1, -2**31, 3, 0]
    n = 100
    iv = rng.integers(-2**31, 2**31, n)
    iv[:len(hard)] = hard
    lv = rng.integers(-2**53, 2**53, n)
    lv[:len(hard)] = hard
    # Above 2^53, where int -> f64 -> bf16 rounds twice: x rounds to the
    # nearest f64 (a tie to even, upwards here), which is then exactly halfway
    # between two bf16 and goes to even, past the bf16 nearest to x. And
    # random magnitudes up to 2^63.
    big = [2**60 + 2**52 + 2**7, -(2**60 + 2**52 + 2**7), 2**62 + 2**54 + 2**9 - 1, 2**63 - 1, -2**63,
           2**55 + 2**47 + 3]
    lv[len(hard):len(hard) + len(big)] = big
    lv[40:70] = rng.integers(-2**63, 2**63 - 1, 30, dtype=np.int64)
    dv = rng.standard_normal(n) * np.exp2(rng.integers(-20, 40, n))
    dv[:3] = [1 + 2.0**-8 + 2.0**-30, 1 + 2.0**-8, -(1 + 3 * 2.0**-8 + 2.0**-40)]
    i = array_in("i", "i32", iv)
    l = array_in("l", "i64", lv)
    d = array_in("d", "f64", dv)

    def ref():
        return {k: np.array([bf16_exact(int(x) if k != "e" else float(x)) for x in src.value])
                for k, src in (("a", i), ("c", l), ("e", d))}
    outs = [array_out(nm, "bf16") for nm in ("a", "c", "e")]
    for o in outs:
        o.exact = True
    return [i, l, d] + outs, ref


@case("rem-sign", inputs("elementwise.tess"), kernel="rem_sign")
def rem_sign(rng):
    # fmod keeps the dividend's sign, also on a zero result: -3 % 1.5 is -0
    # and 1 / (-3 % 1.5) is -inf (the GPU gave +0 and +inf before
    # 2026-12-01: NVPTX expands frem as x - trunc(x / y) * y). The quotients
    # a / b are exact (k + 0, 0.25 or 0.5 times a small b), so every output is
    # exact on the GPU too and is compared bit for bit, signs of zero included.
    n = 150
    bs = np.array([1.5, 2.0, 0.75, 3.0, 0.5])
    bv = bs[rng.integers(0, len(bs), n)] * rng.choice([-1.0, 1.0], n)
    av = (rng.integers(-6, 7, n) + rng.choice([0.0, 0.0, 0.25, 0.5], n)) * bv * rng.choice([-1.0, 1.0], n)
    av[:8] = [-0.0, 0.0, -0.0, 0.0, -3.0, 3.0, -2.0, -0.0]
    bv[:8] = [1.5, -1.5, np.inf, -np.inf, 1.5, -1.5, -np.inf, 0.0]
    a, b = array_in("a", "f32", av), array_in("b", "f32", bv)
    h, hb = array_in("h", "f16", av), array_in("hb", "f16", bv)
    g, gb = array_in("g", "bf16", av), array_in("gb", "bf16", bv)
    d, db = array_in("d", "f64", av), array_in("db", "f64", bv)

    def ref():
        r32 = np.fmod(a.value, b.value)
        return {"r": r32, "q": np.float32(1) / r32, "rh": np.fmod(f(h), f(hb)),
                "rg": np.fmod(f(g), f(gb)), "rd": np.fmod(d.value, db.value),
                "qd": 1.0 / np.fmod(d.value, -1.5)}
    outs = [array_out(nm, dt) for nm, dt in
            [("r", "f32"), ("q", "f32"), ("rh", "f16"), ("rg", "bf16"), ("rd", "f64"), ("qd", "f64")]]
    for o in outs:
        o.exact = True
    return [a, b, h, hb, g, gb, d, db] + outs, ref


@case("reduce-rows", inputs("reduce.tess"), kernel="reduce_rows")
def reduce_rows(rng):
    m, n = 29, 100
    x = array_in("x", "f32", rng.standard_normal((m, n)))
    csum = array_inout("csum", "f32", rng.standard_normal(n))

    def ref():
        v = f(x)
        return {"rsum": v.sum(axis=1), "rmax": v.max(axis=1), "rmin": v.min(axis=1),
                "csum": f(csum) + v.sum(axis=0)}
    outs = [array_out("rsum", "f32"), array_out("rmax", "f32"), array_out("rmin", "f32")]
    return [x] + outs + [csum], ref


@case("minmax-nan", inputs("reduce.tess"), kernel="minmax_nan")
def minmax_nan(rng):
    m, n, bm = 29, 64, 4
    def with_nans(shape, frac):
        v = rng.standard_normal(shape)
        v[rng.random(shape) < frac] = np.nan
        return v
    xv = with_nans((m, n), 0.02)
    xv[:, 5] = np.nan                  # a column NaN everywhere
    av, bv = with_nans((m, n), 0.1), with_nans((m, n), 0.1)
    av[0, :4], bv[0, :4] = [0.0, -0.0, np.nan, 1.0], [-0.0, 0.0, np.nan, np.nan]
    x, a, b = array_in("x", "f32", xv), array_in("a", "f32", av), array_in("b", "f32", bv)
    cmax = array_inout("cmax", "f32", with_nans(n, 0.1))
    cmin = array_inout("cmin", "f32", with_nans(n, 0.1))

    def ref():
        v = f(x)
        # each program's column max/min over its BM rows propagates NaN; the
        # atomics then ignore a NaN operand (np.fmax / np.fmin)
        cm, cn = f(cmax), f(cmin)
        for r in range(0, m, bm):
            cm = np.fmax(cm, v[r:r + bm].max(axis=0))
            cn = np.fmin(cn, v[r:r + bm].min(axis=0))
        return {"emax": np.maximum(f(a), f(b)), "emin": np.minimum(f(a), f(b)),
                "rmax": v.max(axis=1), "rmin": v.min(axis=1), "cmax": cm, "cmin": cn}
    outs = [array_out("emax", "f32"), array_out("emin", "f32"), array_out("rmax", "f32"),
            array_out("rmin", "f32")]
    return [x, a, b] + outs + [cmax, cmin], ref


@case("arg-reduce", inputs("reduce.tess"), kernel="arg_reduce")
def arg_reduce(rng):
    # values drawn from a few levels so that ties are common (the first index
    # must win), NaNs in some rows and columns (numpy: the first NaN), +-inf
    m, n = 16, 64
    x = rng.integers(-3, 4, (m, n)).astype(np.float64)
    x[2, [5, 9]] = np.nan
    x[7, 0] = np.inf
    x[9, :] = -np.inf
    x[11, 40] = np.nan
    x[:, 3] = np.where(np.arange(m) % 4 == 0, np.nan, x[:, 3])
    ks = rng.integers(-5, 5, (m, n))
    hs = rng.integers(-4, 4, (m, n)).astype(np.float16)
    args = [array_in("x", "f32", x), array_in("k", "i32", ks), array_in("h", "f16", hs)]
    names = ["amax1", "amin1", "amax0", "kmax1", "kmin0", "hmin1", "v"]
    outs = [array_out(nm, "i32") for nm in names]

    def ref():
        return {"amax1": np.argmax(x, axis=1), "amin1": np.argmin(x, axis=1), "amax0": np.argmax(x, axis=0),
                "kmax1": np.argmax(ks, axis=1), "kmin0": np.argmin(ks, axis=0),
                "hmin1": np.argmin(hs.astype(np.float64), axis=1),
                "v": np.full(m, np.argmax(np.arange(16) % 5))}
    return args + outs, ref


@case("row-argmax", example("argmax.tess"))
def row_argmax(rng):
    # V not a multiple of the block (the padding must never win), rows of
    # negatives only, ties across blocks (the first block's index wins), a
    # NaN after the maximum (it wins, as in numpy)
    m, v = 10, 2500
    x = np.round(rng.standard_normal((m, v)) * 4) / 4
    x[0] = -np.abs(x[0]) - 1
    x[1, [10, 1500, 2400]] = 100.0
    x[2, 2499] = 50.0
    x[3, [7, 2000]] = [np.nan, np.nan]
    x[4, 2100] = np.nan
    logits = array_in("logits", "f32", x)

    def ref():
        i = np.argmax(x, axis=1)
        return {"idx": i, "best": x[np.arange(m), i]}
    return [logits, array_out("idx", "i32"), array_out("best", "f32")], ref


@case("row-cumsum", example("row_cumsum.tess"))
def row_cumsum(rng):
    # N not a multiple of BN (the carry crosses a partial block), M not a
    # multiple of BM
    m, n = 10, 700
    x = array_in("x", "f32", rng.standard_normal((m, n)))
    return [x, array_out("y", "f32")], lambda: {"y": np.cumsum(f(x), axis=1)}


@case("scan-long", inputs("scan.tess"), kernel="scan_long")
def scan_long(rng):
    # a partial last block; cummax/cummin exact, cumsum within f32's rounding
    n = 5000
    xa = array_in("x", "f32", rng.standard_normal(n))

    def ref():
        blocks = [f(xa)[i:i + 2048] for i in range(0, n, 2048)]
        return {"s": np.concatenate([np.cumsum(b) for b in blocks]),
                "mx": np.concatenate([np.maximum.accumulate(b) for b in blocks]),
                "mn": np.concatenate([np.minimum.accumulate(b) for b in blocks])}
    return [xa, array_out("s", "f32"), array_out("mx", "f32"), array_out("mn", "f32")], ref


@case("scan-cols", inputs("scan.tess"), kernel="scan_cols")
def scan_cols(rng):
    # i32 along axis 0 over 64-row blocks: sums and products wrap (products
    # of values in -3..3 overflow within a block), exact
    m, n = 150, 13
    x = rng.integers(-3, 4, (m, n)).astype(np.int64)
    x[rng.random((m, n)) < 0.1] = 1 << 20

    def ref():
        blocks = [x[i:i + 64] for i in range(0, m, 64)]
        wrap = lambda a: ((a + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int64)
        prod = []
        for b in blocks:
            acc = np.ones(n, np.int64)
            rows = []
            for row in b:
                acc = wrap(acc * row)
                rows.append(acc)
            prod.append(np.array(rows))
        return {"s": wrap(np.concatenate([np.cumsum(b, axis=0) for b in blocks])),
                "p": np.concatenate(prod),
                "mx": np.concatenate([np.maximum.accumulate(b, axis=0) for b in blocks])}
    return [array_in("x", "i32", x), array_out("s", "i32"), array_out("p", "i32"), array_out("mx", "i32")], ref


@case("scan-rows", inputs("scan.tess"), kernel="scan_rows")
def scan_rows(rng):
    # f16 sums in f32, rounded once an element; u8 sums wrap; a product in f32
    m, n = 37, 4
    x = array_in("x", "f16", rng.standard_normal((m, n)))
    u = rng.integers(0, 256, (m, n))

    def ref():
        return {"s": np.cumsum(f(x), axis=1), "us": np.cumsum(u, axis=1) % 256,
                "mn": np.minimum.accumulate(u, axis=1), "pr": np.cumprod(f(x), axis=1)}
    return [x, array_in("u", "u8", u), array_out("s", "f16"), array_out("us", "u8"),
            array_out("mn", "u8"), array_out("pr", "f32")], ref


@case("reduce-half", inputs("reduce.tess"), kernel="reduce_half")
def reduce_half(rng):
    m, n = 11, 50
    x = array_in("x", "f16", rng.standard_normal((m, n)))
    xi = array_in("xi", "i32", rng.integers(-10**6, 10**6, (m, n)))
    cmax = array_inout("cmax", "i32", rng.integers(-10**6, 10**6, n))
    cmin = array_inout("cmin", "i32", rng.integers(-10**6, 10**6, n))

    def ref():
        v = f(xi)
        return {"s": f(x).sum(axis=1), "cmax": np.maximum(f(cmax), v.max(axis=0)),
                "cmin": np.minimum(f(cmin), v.min(axis=0))}
    return [x, xi, array_out("s", "f16"), cmax, cmin], ref


@case("masked", inputs("memory.tess"), kernel="masked")
def masked(rng):
    n = 150
    x = array_in("x", "f32", rng.standard_normal(n))
    y = array_inout("y", "f32", rng.standard_normal(n))
    lim = 0.25

    def ref():
        v = np.where(f(x) > lim, f(x), -1.0) * 2
        keep = (np.arange(n) % 64) % 3 != 0
        return {"y": np.where(keep, v, f(y))}
    return [x, y, scalar("lim", lim)], ref


@case("gather-scatter", inputs("memory.tess"), kernel="gather_scatter")
def gather_scatter(rng):
    # indices from -5 to past each array: outside reads 0 (or other), a view
    # bounds its own reads (d), a scatter through a permutation writes every
    # element of e once, scatter_atomic max combines repeated keys
    B, N, R, C = 64, 50, 30, 6
    src = rng.standard_normal(N)
    m = rng.standard_normal((R, C))
    idx = rng.integers(-5, 60, B)
    idx[:4] = [0, N - 1, N, -1]
    perm = rng.permutation(B)
    keys = rng.integers(0, 8, B)
    best0 = rng.standard_normal(8) - 3
    args = [array_in("src", "f32", src), array_in("m", "f32", m), array_in("idx", "i32", idx),
            array_in("perm", "i32", perm), array_in("keys", "i32", keys), array_out("a", "f32"),
            array_out("b", "f32"), array_out("c", "f32"), array_out("d", "f32"), array_out("e", "f32"),
            array_inout("best", "f32", best0)]
    for o in args[5:]:
        o.exact = True

    def ref():
        s32, m32 = src.astype(np.float32).astype(np.float64), m.astype(np.float32).astype(np.float64)
        at = lambda arr, k: arr[k] if 0 <= k < len(arr) else 0.0
        a = np.array([at(s32, k) for k in idx])
        b = np.array([at(s32, k) if 0 <= k < N and np.fmod(k, 2) == 0 else -1.0 for k in idx])
        c = np.array([[m32[k, 2 * j] if 0 <= k < R and 2 * j < C else 0.0 for j in range(4)] for k in idx])
        d = np.array([s32[4 + k] if 0 <= k < 16 else 0.0 for k in idx])
        e = np.zeros(B)
        e[perm] = (a.astype(np.float32) * np.float32(2)).astype(np.float64)
        best = best0.astype(np.float32).astype(np.float64)
        for key, v in zip(keys, a):
            best[key] = max(best[key], v)
        return {"a": a, "b": b, "c": c, "d": d, "e": e, "best": best}
    return args, ref


@case("scatter-order", inputs("memory.tess"), kernel="scatter_order")
def scatter_order(rng):
    # a permutation that moves every element to another thread's position
    B = 256
    perm = (np.arange(B) * 37 + 11) % B
    x = array_in("x", "f32", rng.standard_normal(B))
    y, z = array_out("y", "f32"), array_out("z", "f32")
    y.exact = z.exact = True

    def ref():
        v = (f(x).astype(np.float32) + np.float32(1)).astype(np.float64)
        yy = np.zeros(B)
        yy[perm] = v
        return {"y": yy, "z": yy[perm]}
    return [x, array_in("perm", "i32", perm), y, z], ref


@case("embedding", example("embedding.tess"))
def embedding(rng):
    # tokens in range, and a few outside [0, V) (rows of zeros); T not a
    # multiple of the block
    T, V, D = 300, 1000, 128
    tokens = rng.integers(0, V, T)
    tokens[[5, 77, 299]] = [-1, V, 10 ** 6]
    table = rng.standard_normal((V, D))
    tk, tb = array_in("tokens", "i32", tokens), array_in("table", "f16", table)
    out = array_out("out_", "f16")
    out.exact = True

    def ref():
        t16 = tb.value.astype(np.float16).astype(np.float64) if tb.value.dtype != np.float16 else tb.value.astype(np.float64)
        return {"out_": np.array([t16[k] if 0 <= k < V else np.zeros(D) for k in tokens])}
    return [tk, tb, out], ref


@case("histogram-scatter", example("histogram_scatter.tess"))
def histogram_scatter(rng):
    # values inside [lo, hi) and past both ends (clamped into the end bins);
    # N not a multiple of the block, counts added to what was there
    n, bins, lo, hi = 10000, 64, -2.0, 3.0
    x = np.concatenate([rng.uniform(lo, hi, n - 6), [-10, 10, lo, hi, 2.99, -1.999]]).astype(np.float32)
    counts0 = rng.integers(0, 100, bins)

    def ref():
        scale = np.float32(np.float32(bins) / (np.float32(hi) - np.float32(lo)))
        b = np.clip(np.floor((x - np.float32(lo)) * scale), 0, bins - 1).astype(np.int64)
        return {"counts": counts0 + np.bincount(b, minlength=bins)}
    return [array_in("x", "f32", x), scalar("lo", lo), scalar("hi", hi),
            array_inout("counts", "i32", counts0)], ref


@case("stencil", inputs("memory.tess"), kernel="stencil")
def stencil(rng):
    n = 100
    x = array_in("x", "f32", rng.standard_normal(n))

    def ref():
        p = np.pad(f(x), 1)
        return {"y": p[:-2] + 2 * p[1:-1] + p[2:]}
    return [x, array_out("y", "f32")], ref


@case("shifted", inputs("memory.tess"), kernel="shifted")
def shifted(rng):
    n = 45
    x = array_in("x", "f32", rng.standard_normal(n))

    def ref():
        i = np.arange(n)
        src = i + 5
        ok = (i % 16 + 5 < 16) & (src < n)
        return {"y": np.where(ok, f(x)[np.minimum(src, n - 1)], 0.0)}
    return [x, array_out("y", "f32")], ref


@case("chained", inputs("memory.tess"), kernel="chained")
def chained(rng):
    n = 100
    x = array_in("x", "f32", rng.standard_normal(n))

    def ref():
        xs, y = f(x), np.full(n, np.nan)
        for base in range(0, n, 64):
            def xl(i):  # x at block index i: 0 outside the block or the array
                return xs[base + i] if 0 <= i < 64 and base + i < n else 0.0
            yl = [0.0] * 64
            for t in range(16):
                yl[16 + t] = xl(32 + t)
                yl[t] = xl(32 + t) if t < 8 else 0.0
                yl[32 + t] = xl(56 + t) if 56 + t < 64 else 0.0
                if t < 8:
                    yl[56 + t] = xl(t)
                    yl[48 + t] += 1.0
            yl[42] = xl(61)
            for j in range(min(64, n - base)):
                y[base + j] = yl[j]
        return {"y": y}
    return [x, array_out("y", "f32")], ref


@case("shared-transpose", inputs("memory.tess"), kernel="shared_transpose")
def shared_transpose(rng):
    x = array_in("x", "f32", rng.standard_normal((37, 50)))
    return [x, array_out("y", "f32")], lambda: {"y": f(x).T}


@case("shared-loop", inputs("memory.tess"), kernel="shared_loop")
def shared_loop(rng):
    x = array_in("x", "f32", rng.standard_normal((13, 70)))
    return [x, array_out("s", "f32")], lambda: {"s": f(x).sum(axis=1)}


# Prefetched loops (prefetch.tess) at trip counts 0, 1, 2 and more: the
# prefetch of the iteration after the last must not read past the array.
PREFETCH_TRIPS = (0, 1, 2, 9)


def prefetch_cases(k):
    @case(f"prefetch-scalar-{k}", inputs("prefetch.tess"), kernel="scalar_sum")
    def scalar_sum(rng):
        w = array_in("w", "f32", rng.standard_normal(k))
        return [w, array_out("y", "f32")], lambda: {"y": [f(w).sum()]}

    @case(f"prefetch-paged-{k}", inputs("prefetch.tess"), kernel="paged_sum")
    def paged_sum(rng):
        # Rows with every length from 0 to k (k, the table's width, last).
        n_pages, width = 11, 16
        lens = np.array(list(range(k + 1)) + list(rng.integers(0, k + 1, 4)))
        table = array_in("table", "i32", rng.integers(0, n_pages, (len(lens), k)))
        pages = array_in("pages", "f32", rng.standard_normal((n_pages, width)))

        def ref():
            t, p = f(table).astype(np.int64), f(pages)
            return {"o": np.array([p[t[b, :n]].sum(axis=0) for b, n in enumerate(lens)])}
        return [table, array_in("lens", "i32", lens), pages, array_out("o", "f32")], ref

    @case(f"prefetch-taps-{k}", inputs("prefetch.tess"), kernel="tap_stencil")
    def tap_stencil(rng):
        n = 77
        x = array_in("x", "f32", rng.standard_normal(n))
        taps = array_in("taps", "f32", rng.standard_normal(k))

        def ref():
            padded = np.pad(f(x), k)
            y = np.zeros(n)
            for t in range(k):
                start = k + t - k // 2
                y += f(taps)[t] * padded[start:start + n]
            return {"y": y}
        return [x, taps, array_out("y", "f32")], ref


for _trips in PREFETCH_TRIPS:
    prefetch_cases(_trips)


@case("prefetch-strided", inputs("prefetch.tess"), kernel="strided_sum")
def prefetch_strided(rng):
    i32_max = 2**31 - 1
    rows = [(2147482748, i32_max, 100), (2147483000, i32_max, 1000000000), (0, 10, 0), (5, 0, -1),
            (0, 9, 1), (3, 30, 3), (-20, -2, 2), (i32_max - 1, i32_max, 5)]
    los, his, steps = (np.array(c) for c in zip(*rows))
    w = array_in("w", "f32", rng.standard_normal(9))

    def ref():
        return {"y": [f(w)[:len(range(lo, hi, s)) if s > 0 else 0].sum() for lo, hi, s in rows]}
    return [w, array_in("los", "i32", los), array_in("his", "i32", his), array_in("steps", "i32", steps),
            array_out("y", "f32")], ref


# ---- the driver --------------------------------------------------------------------

def compare(name, dtype, got, want, exact=False, bound=None):
    """True when `got` (as written) matches the float64 reference (bit for
    bit when `exact`); `bound`, an array of want's shape, widens the
    tolerance of each element by it (fp8 dots on wgmma, fp8_wgmma_bound)."""
    if dtype == "bf16":
        got = from_bf16_bits(got)
    if dtype in FP8:
        got = fp8_decode_table(dtype)[np.asarray(got)]
    if dtype in ("bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"):
        # integers exactly (an i64 past 2^53 has no float64 of its own; a u64
        # past 2^63 compares by its bits)
        got, want = np.asarray(got).astype(np.int64), np.asarray(want).astype(np.int64)
    else:
        got, want = np.asarray(got).astype(np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape:
        print(f"FAIL {name}: shape {got.shape}, expected {want.shape}")
        return False
    if dtype in TOLERANCE and not exact:
        rtol, afrac = TOLERANCE[dtype]
        finite = np.isfinite(want)
        scale = np.abs(want[finite]).max() if finite.any() else 1.0
        atol = afrac * max(scale, 1e-30)
        bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        if bound is not None:
            bad &= ~(np.abs(got - want) <= np.asarray(bound, np.float64) + atol)
        bad |= np.isnan(got) & ~np.isnan(want)
    else:
        # bit for bit on the value: a float -0 is not +0 (signbit; an integer
        # reference may hold -0.0), a NaN is any NaN (its sign and payload are
        # unspecified, docs/language.md 7.2)
        bad = got != want
        if dtype in TOLERANCE:
            bad = ~(np.isnan(got) & np.isnan(want)) & (bad | (np.signbit(got) != np.signbit(want)))
    if bad.any():
        idx = tuple(int(i[0]) for i in np.nonzero(bad))
        err = np.abs(got - want)
        print(f"FAIL {name} ({dtype}): {int(bad.sum())} of {bad.size} elements differ; "
              f"first at {idx}: got {got[idx]!r}, expected {want[idx]!r}; "
              f"max abs error {np.nanmax(np.where(np.isfinite(err), err, 0)):.3g}")
        return False
    return True


def case_file(name, examples):
    return CASES[name][0].replace("%examples", examples)


def list_cases(build_archs=None):
    for name in sorted(CASES):
        file, kernel, defines, _ = CASES[name]
        path = os.path.relpath(case_file(name, os.path.join(ROOT, "examples")), ROOT)
        archs = CASE_ARCHS.get(name, ())
        if build_archs is not None and set(archs) & build_archs:
            archs = ()   # compiles for one of the build's targets
        print(f"{name} {path} {kernel or '-'} {','.join(defines) or '-'} {','.join(archs) or '-'}")
    return 0


def write_inputs(args, directory):
    """Saves the inputs into `directory`; returns the run's ARG words."""
    os.makedirs(directory, exist_ok=True)
    words = []
    for a in args:
        if a.kind in ("in", "inout", "out"):
            path = os.path.join(directory, a.name + ".npy")
            if a.kind == "out" and os.path.exists(path):
                os.unlink(path)
            if a.kind != "out":
                np.save(path, a.value)
            words.append(path)
        elif a.kind == "scalar":
            words.append(repr(float(a.value)) if isinstance(a.value, float) else str(a.value))
        else:
            words.append(f"{a.name}={a.value}")
    return words


def read_outputs(args, directory):
    return {a.name: np.load(os.path.join(directory, a.name + ".npy"))
            for a in args if a.kind in ("out", "inout")}


def run(cmd, said=None):
    """True when the command succeeds; prints why not. `said` (a list)
    gets its stderr."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} exited with {done.returncode}\n{done.stderr}")
        return False
    if said is not None:
        said.append(done.stderr)
    return True


def producer_entries(manifest):
    """Whether an sm_90a artifact of the manifest has a TMA entry with a
    producer warpgroup (its tma record's own threads, version 2)."""
    try:
        kernels = json.load(open(manifest))["kernels"]
    except (OSError, ValueError, KeyError):
        return False
    return any((a.get("tma") or {}).get("threads") for k in kernels for a in k.get("artifacts", [])
               if a.get("arch") == "sm_90a")


def store_entries(manifest):
    """Whether an sm_90a artifact of the manifest has a TMA entry that
    stores through a tensor map ("store": true, tma.c "TMA stores")."""
    try:
        kernels = json.load(open(manifest))["kernels"]
    except (OSError, ValueError, KeyError):
        return False
    return any(m.get("store") for k in kernels for a in k.get("artifacts", []) if a.get("arch") == "sm_90a"
               for m in (a.get("tma") or {}).get("maps", []))


def tma_entry_ok(name, said, manifest=None):
    """Checks the entry `tessrun -v` says ran against TMA_EXPECT, and that a
    TMA entry with a producer warpgroup ran with its threads; returns
    (ok, what ran)."""
    line = next((l for l in said.splitlines() if l.startswith("tessrun: ran")), "")
    ran = line.split(" with ", 1)[1] if " with " in line else line
    expect = TMA_EXPECT.get(name)
    fell_back = "not the TMA entry" in ran
    took = not fell_back and "(TMA," in ran
    offered = took or fell_back
    if expect and offered and took != (expect == "yes"):
        print(f"FAIL {name}: expected the {'TMA' if expect == 'yes' else 'plain'} entry, but tessrun ran {ran}")
        return False, ran
    if took and "sm_90a" in ran and manifest and producer_entries(manifest) and "a producer warpgroup" not in ran:
        print(f"FAIL {name}: the TMA entry has a producer warpgroup, but tessrun ran {ran}")
        return False, ran
    if took and "sm_90a" in ran and manifest and store_entries(manifest) and "for stores" not in ran:
        print(f"FAIL {name}: the TMA entry stores through a tensor map, but tessrun ran {ran}")
        return False, ran
    return True, ran


def find_manifest(artifacts, name):
    directory = os.path.join(artifacts, name)
    found = sorted(f for f in os.listdir(directory) if f.endswith(".manifest.json")) \
        if os.path.isdir(directory) else []
    if len(found) != 1:
        print(f"FAIL: expected one *.manifest.json in {directory}, found {len(found) or 'none'}"
              " (run testsuite/gpu/build-artifacts.sh)")
        return None
    return os.path.join(directory, found[0])


def main():
    if "--list" in sys.argv[1:]:
        lp = argparse.ArgumentParser()
        lp.add_argument("--list", action="store_true")
        lp.add_argument("--arch")
        la = lp.parse_args()
        return list_cases(set(la.arch.split(",")) if la.arch else None)
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--runner", choices=["tessc", "tessrun"], default="tessc")
    ap.add_argument("--tessc")
    ap.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    ap.add_argument("--tessrun")
    ap.add_argument("--artifacts")
    ap.add_argument("--device", choices=["gpu", "interp"], default="gpu",
                    help="tessrun's device for the checked run (default gpu)")
    ap.add_argument("--compare-interp", action="store_true",
                    help="also run tessrun --device interp and require it to agree")
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int)
    ap.add_argument("-O", dest="opt", default=None)
    ap.add_argument("--overlap", action="store_true", help="tessc run --overlap=rotate (passes/overlap.c)")
    ap.add_argument("--persistent", action="store_true", help="tessc run --grid=persistent (passes/persist.c)")
    ap.add_argument("--handoff", action="store_true",
                    help="tessc run --grid=persistent-handoff (passes/persist.c, passes/handoff.c)")
    ap.add_argument("--heavy-first", action="store_true", help="tessc run --grid-order=heavy-first")
    ap.add_argument("--stationary-shared", action="store_true",
                    help="tessc run --stationary=shared (passes/pipeline.c stationary_operands)")
    opts = ap.parse_args()
    if opts.runner == "tessc" and not opts.tessc:
        ap.error("--runner tessc needs --tessc")
    if opts.runner == "tessrun" and not (opts.tessrun and opts.artifacts):
        ap.error("--runner tessrun needs --tessrun and --artifacts")
    if opts.compare_interp and opts.runner != "tessrun":
        ap.error("--compare-interp needs --runner tessrun")

    file, kernel, defines, make = CASES[opts.case]
    file = case_file(opts.case, opts.examples)
    seed = opts.seed if opts.seed is not None else zlib.crc32(opts.case.encode())
    rng = np.random.default_rng(seed)
    args, reference = make(rng)

    manifest = None
    if opts.runner == "tessc":
        cmd = [opts.tessc, "run", file, "--device", "interp"]
        if kernel:
            cmd += ["-k", kernel]
        for d in defines:
            cmd += ["-D", d]
        if opts.opt is not None:
            cmd += ["-O" + opts.opt]
        if opts.overlap:
            cmd += ["--overlap=rotate"]
        if opts.handoff:
            cmd += ["--grid=persistent-handoff"]
        elif opts.persistent:
            cmd += ["--grid=persistent"]
        if opts.heavy_first:
            cmd += ["--grid-order=heavy-first"]
        if opts.stationary_shared:
            cmd += ["--stationary=shared"]
    else:
        manifest = find_manifest(opts.artifacts, opts.case)
        if not manifest:
            return 1
        cmd = [opts.tessrun, "--device", opts.device, manifest]
        if kernel:
            cmd += ["-k", kernel]
    said = []
    verbose = ["-v"] if opts.runner == "tessrun" and opts.device == "gpu" else []
    if not run(cmd[:1] + verbose + cmd[1:] + write_inputs(args, opts.tmp), said):
        return 1
    entry_ok, ran = tma_entry_ok(opts.case, said[0], manifest) if verbose else (True, "")
    got = read_outputs(args, opts.tmp)
    want = reference()
    ok = entry_ok
    # an output's `bound` (fp8 dots: fp8_wgmma_bound) only where an sm_90a
    # artifact ran (wgmma); everywhere else the dtype's tolerance alone
    wgmma_ran = "sm_90a" in ran

    def bound_of(a):
        return getattr(a, "bound", None) if wgmma_ran else None
    for a in args:
        if a.kind in ("out", "inout"):
            ok &= compare(a.name, a.dtype, got[a.name], want[a.name], getattr(a, "exact", False), bound_of(a))
    what = f"{sum(a.kind in ('out', 'inout') for a in args)} outputs match"
    if ok and opts.compare_interp:
        interp_dir = os.path.join(opts.tmp, "interp")
        interp_cmd = [opts.tessrun, "--device", "interp"] + cmd[3:]
        if not run(interp_cmd + write_inputs(args, interp_dir)):
            return 1
        interp = read_outputs(args, interp_dir)
        for a in args:
            if a.kind in ("out", "inout"):
                if a.dtype == "bf16":
                    device = from_bf16_bits(got[a.name]).astype(np.float64)
                elif a.dtype in FP8:
                    device = fp8_decode_table(a.dtype)[got[a.name]]
                elif a.dtype in TOLERANCE:
                    device = got[a.name].astype(np.float64)
                else:
                    device = got[a.name]   # integers exactly (compare), not through float64
                ok &= compare(a.name + " (interpreter vs " + opts.device + ")", a.dtype,
                              interp[a.name], device, getattr(a, "exact", False), bound_of(a))
        what += ", interpreter == " + opts.device
    if not ok:
        print(f"(case {opts.case}, seed {seed}; command: {' '.join(cmd)})")
        return 1
    if "TMA" in ran:
        what += "; " + ("TMA entry" if "(TMA," in ran and "not the TMA" not in ran else "plain entry: " + ran.split(": ", 1)[-1])
    print(f"ok {opts.case}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
