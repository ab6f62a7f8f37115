#!/usr/bin/python3
"""numeric_agree.py: constant folding, sema and the interpreter compute one
scalar the same way (compiler/ir/numeric.h), and as numpy does where numpy
rounds the same way.

    numeric_agree.py --tessc TESSC --tmp DIR [--seed N] [--per-case N]

Two kernels, from random values (and the edge values: zeros of both signs,
infinities, NaN, extremes, halfway points) of every dtype:

  ops.tir: for every dtype, every binary op (add sub mul div rem min max,
      the comparisons, and/or on bool) and unary op (neg abs, not on bool)
      on two constants, and every cast of a constant from every dtype to
      every dtype; each result stored to its own element. Run at -O0 (the
      interpreter executes each op) and at -O2 (fold makes each a constant
      first). The two outputs must agree bit for bit (a NaN equals any NaN:
      its sign and payload are unspecified, docs/language.md 7.2), and with
      numpy for f16, f32, f64 and the integers (bf16 has no numpy dtype;
      max/min of zeros of both signs and float -> int casts out of range or
      of NaN, where numpy's rules are not the language's, are checked
      against the language's rule written out here).
  sema.tess: weak (compile-time) values, which sema computes in i64 or f64:
      `A op B`, max(A, B), min(A, B) and `A as D` for every dtype D, stored
      beside the same operation on the same values loaded at run time.
      Run at -O0; the two must agree bit for bit.

Prints one line per disagreement and a last line `N values: agree` or
`N values: D disagreements`; exits 1 on any disagreement.
"""
import argparse
import math
import os
import random
import struct
import subprocess
import sys

import numpy as np

np.seterr(all="ignore")

FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["i8", "i16", "i32", "i64", "u8", "u32"]
DTYPES = ["bool"] + INTS + FLOATS
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": np.uint16, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u32": np.uint32, "bool": np.bool_}
RANGE = {"i8": (-2**7, 2**7 - 1), "i16": (-2**15, 2**15 - 1), "i32": (-2**31, 2**31 - 1),
         "i64": (-2**63, 2**63 - 1), "u8": (0, 255), "u32": (0, 2**32 - 1), "bool": (0, 1)}
BINARY = ["add", "sub", "mul", "div", "rem", "min", "max", "eq", "ne", "lt", "le", "gt", "ge"]
COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"}


def bf16_value(bits):
    return float(np.array([bits << 16], np.uint32).view(np.float32)[0])


def bf16_bits(x):
    """x (a double) rounded to nearest even in bf16, as bits (the reference
    for casts to bf16, from the f64 value: one rounding)."""
    if math.isnan(x):
        return 0x7fc0
    if math.isinf(x):
        return 0xff80 if x < 0 else 0x7f80
    sign = 0x8000 if math.copysign(1, x) < 0 else 0
    a = abs(x)
    if a == 0:
        return sign
    e = max(math.frexp(a)[1] - 1, -126)
    q = 2.0 ** (e - 7)
    r = a / q
    f = math.floor(r)
    if r - f > 0.5 or (r - f == 0.5 and f % 2 == 1):
        f += 1
    v = f * q
    if v > 3.3895313892515355e38:
        return sign | 0x7f80
    return sign | int(np.array([v], np.float32).view(np.uint32)[0] >> 16)


def rand_value(rng, dt):
    """A value of dtype `dt`: a Python int, or a float exactly representable."""
    if dt == "bool":
        return rng.randint(0, 1)
    if dt in INTS:
        lo, hi = RANGE[dt]
        pick = rng.random()
        if pick < 0.25:
            return rng.choice([lo, hi, 0, 1, -1 if lo < 0 else 2, lo + 1, hi - 1])
        if pick < 0.5:
            return rng.randint(max(lo, -100), min(hi, 100))
        return rng.randint(lo, hi)
    pick = rng.random()
    if pick < 0.2:
        x = rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, 65504.0, 65520.0,
                        3e38, -2.5, 1e-8, 6e-8, 2.0 ** -24, 2.0 ** -149, 1e300, 2147483648.0, -2147483904.0,
                        4294967296.0, 300.5, -129.0, 9.3e18, -9.3e18])
    elif pick < 0.5:
        x = rng.uniform(-300, 300)
    elif pick < 0.7:
        x = rng.choice([-1, 1]) * 2.0 ** rng.uniform(-30, 70)
    else:
        x = rng.choice([-1, 1]) * 2.0 ** rng.uniform(-150, 130)
    if dt == "f64":
        return x
    if dt == "bf16":
        return bf16_value(bf16_bits(x))
    return float(NP[dt](x))


def text(v, dt):
    if dt == "bool":
        return "true" if v else "false"
    if dt in INTS:
        return str(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(float(v))


# ---- the language's rules, for numpy's gaps --------------------------------

def wrap(v, dt):
    if dt == "bool":
        return int(v != 0)
    lo, hi = RANGE[dt]
    span = hi - lo + 1
    return (v - lo) % span + lo


def float_to_int(x, dt):
    if dt == "bool":
        return int(x != 0)
    if math.isnan(x):
        return 0
    lo, hi = RANGE[dt]
    if math.isinf(x):
        return lo if x < 0 else hi
    return max(lo, min(hi, math.trunc(x)))


def reference(op, dt, a, b):
    """numpy's (or the rule's) result of `a op b` in dtype dt, or None where
    there is no reference (bf16 arithmetic)."""
    if op in COMPARE:
        if dt in FLOATS or dt == "bool":
            return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[op])
        return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[op])
    if dt in INTS or dt == "bool":
        if op in ("and", "or"):
            return int(bool(a) and bool(b)) if op == "and" else int(bool(a) or bool(b))
        if op == "div":
            q = abs(a) // abs(b)
            return wrap(q if (a < 0) == (b < 0) else -q, dt)
        if op == "rem":
            r = abs(a) % abs(b)
            return wrap(r if a >= 0 else -r, dt)
        return wrap({"add": a + b, "sub": a - b, "mul": a * b, "min": min(a, b), "max": max(a, b)}[op], dt)
    if dt == "bf16":
        return None
    t = NP[dt]
    x, y = t(a), t(b)
    if op in ("min", "max"):
        if x == 0 and y == 0:   # -0 < +0 for the language; numpy keeps an operand
            neg = math.copysign(1, a) < 0, math.copysign(1, b) < 0
            pick_neg = (neg[0] or neg[1]) if op == "min" else (neg[0] and neg[1])
            return -0.0 if pick_neg else 0.0
        return float((np.minimum if op == "min" else np.maximum)(x, y))
    f = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "rem": np.fmod}[op]
    return float(f(np.array([x], t), np.array([y], t))[0])


def cast_reference(v, src, dst):
    if src == "bool" or src in INTS:
        if dst == "bool" or dst in INTS:
            return wrap(v, dst)
        if dst == "bf16":
            return bf16_value(bf16_bits(float(v))) if abs(v) < 2 ** 53 else None
        return float(np.array([v], np.int64).astype(NP[dst])[0])
    if dst == "bool" or dst in INTS:
        return float_to_int(v, dst)
    if dst == "bf16":
        return bf16_value(bf16_bits(v))
    return float(np.array([v], np.float64).astype(NP[dst])[0])


def unary_reference(op, dt, a):
    if op == "not":
        return int(not a)
    if dt in FLOATS:
        return -a if op == "neg" else abs(a)
    return wrap(-a if op == "neg" else abs(a), dt)


# ---- comparing ---------------------------------------------------------------

def bits_of(v, dt):
    """A comparable key: NaN is one value, -0 is not +0."""
    if dt in FLOATS:
        v = float(v)
        if math.isnan(v):
            return "nan"
        return struct.pack("<d", v)
    return int(v)


def load(path, dt):
    a = np.load(path)
    if dt == "bf16":
        return [bf16_value(int(b)) for b in a]
    if dt in FLOATS:
        return [float(x) for x in a]
    return [int(x) for x in a]


def run(tessc, args):
    p = subprocess.run([tessc, "run"] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("tessc run %s failed (%d):\n%s" % (" ".join(args), p.returncode, p.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessc", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--per-case", type=int, default=6)
    o = ap.parse_args()
    rng = random.Random(o.seed)
    os.makedirs(o.tmp, exist_ok=True)
    problems = []
    total = 0

    # ---- ops.tir: fold at -O2 against the interpreter at -O0 ----
    cases = {dt: [] for dt in DTYPES}   # result dtype -> [(description, reference)]
    lines = []
    n = [0]

    def emit_store(dt, value_name, what, ref):
        k = len(cases[dt])
        cases[dt].append((what, ref))
        lines.append("  %%k%d = const %d : i32" % (n[0], k))
        lines.append("  %%v%d = view %%o_%s[%%k%d] : ref<%s[] @global out>" % (n[0], dt, n[0], dt))
        lines.append("  store %%v%d, %s" % (n[0], value_name))
        n[0] += 1

    def const(v, dt):
        name = "%%c%d" % n[0]
        n[0] += 1
        lines.append("  %s = const %s : %s" % (name, text(v, dt), dt))
        return name

    for dt in DTYPES:
        ops = ["and", "or", "eq", "ne"] if dt == "bool" else BINARY
        for op in ops:
            for _ in range(o.per_case):
                a, b = rand_value(rng, dt), rand_value(rng, dt)
                if op in ("div", "rem") and dt not in FLOATS and b == 0:
                    b = 1   # an interpreter error, never folded
                ca, cb = const(a, dt), const(b, dt)
                r = "%%r%d" % n[0]
                n[0] += 1
                rdt = "bool" if op in COMPARE or dt == "bool" else dt
                lines.append("  %s = %s %s, %s : %s" % (r, op, ca, cb, rdt))
                emit_store(rdt, r, "%s %s %s : %s" % (text(a, dt), op, text(b, dt), dt), reference(op, dt, a, b))
        for op in (["not"] if dt == "bool" else ["neg", "abs"]):
            for _ in range(o.per_case):
                a = rand_value(rng, dt)
                r = "%%r%d" % n[0]
                n[0] += 1
                lines.append("  %s = %s %s : %s" % (r, op, const(a, dt), dt))
                emit_store(dt, r, "%s %s : %s" % (op, text(a, dt), dt), unary_reference(op, dt, a))
        for to in DTYPES:
            if to == dt:
                continue
            for _ in range(o.per_case):
                a = rand_value(rng, dt)
                r = "%%r%d" % n[0]
                n[0] += 1
                lines.append("  %s = cast %s : %s" % (r, const(a, dt), to))
                emit_store(to, r, "%s as %s (from %s)" % (text(a, dt), to, dt), cast_reference(a, dt, to))
    params = ", ".join("%%o_%s: array ref<%s[%d] @global out>" % (dt, dt, len(cases[dt])) for dt in DTYPES)
    with open(os.path.join(o.tmp, "ops.tir"), "w") as f:
        f.write('module "ops.tir"\nkernel ops(%s) grid (1) {\n%s\n}\n' % (params, "\n".join(lines)))
    outs = {}
    for level in ("0", "2"):
        files = [os.path.join(o.tmp, "o%s_%s.npy" % (level, dt)) for dt in DTYPES]
        run(o.tessc, [os.path.join(o.tmp, "ops.tir"), "-O" + level, "--device", "interp"] + files)
        outs[level] = {dt: load(f, dt) for dt, f in zip(DTYPES, files)}
    for dt in DTYPES:
        for k, (what, ref) in enumerate(cases[dt]):
            total += 1
            interp, folded = outs["0"][dt][k], outs["2"][dt][k]
            if bits_of(interp, dt) != bits_of(folded, dt):
                problems.append("fold: %s: interpreter (-O0) %r, folded (-O2) %r" % (what, interp, folded))
            elif ref is not None and bits_of(interp, dt) != bits_of(ref, dt):
                problems.append("numpy: %s: interpreter %r, numpy %r" % (what, interp, ref))

    # ---- sema.tess: compile-time values against run-time ones ----
    stores, xs, ys = {dt: [] for dt in DTYPES}, {"f64": [], "i64": []}, {"f64": [], "i64": []}
    body = []

    def operand(src, v, side):
        arr = xs if side == 0 else ys
        arr[src].append(v)
        return "%s[%d]" % ("x" if side == 0 else "y", len(arr[src]) - 1) + ("" if src == "f64" else "")

    for src in ("f64", "i64"):
        pick = (lambda: rand_value(rng, "f64")) if src == "f64" else (lambda: rand_value(rng, "i64"))
        ops = [("+", "f"), ("-", "f"), ("*", "f"), ("/", "f"), ("%", "f"), ("max", "c"), ("min", "c"),
               ("<", "b"), ("==", "b")]
        edges = [(-0.0, 0.0), (0.0, -0.0), (math.nan, 1.0), (2.0, math.nan), (-math.inf, -0.0)]
        for op, kind in ops:
            for t in range(o.per_case + (len(edges) if src == "f64" else 0)):
                a, b = edges[t - o.per_case] if t >= o.per_case else (pick(), pick())
                if src == "i64":
                    a, b = max(-2**62, min(2**62, a)), max(-2**62, min(2**62, b))
                    if op in ("/", "%") and b == 0:
                        b = 3
                la, lb = text(a, src), text(b, src)
                rdt = "bool" if kind == "b" else src
                xa = ("xf" if src == "f64" else "xi") + "[%d]" % len(xs[src])
                yb = ("yf" if src == "f64" else "yi") + "[%d]" % len(ys[src])
                xs[src].append(a)
                ys[src].append(b)
                if kind == "c":
                    weak, live = "%s(%s, %s)" % (op, la, lb), "%s(%s, %s)" % (op, xa, yb)
                else:
                    weak, live = "(%s) %s (%s)" % (la, op, lb), "%s %s %s" % (xa, op, yb)
                k = len(stores[rdt])
                stores[rdt].append("%s : %s" % (weak, src))
                # A weak value becomes the output's dtype (i64 / f64) when stored.
                body.append("    c_%s[%d] = %s;" % (rdt, k, weak if kind != "b" else weak))
                body.append("    r_%s[%d] = %s;" % (rdt, k, live))
        for to in DTYPES:
            for _ in range(o.per_case):
                a = pick()
                if src == "i64":
                    a = max(-2**63 + 1, a)   # -2^63 is no literal
                xa = ("xf" if src == "f64" else "xi") + "[%d]" % len(xs[src])
                xs[src].append(a)
                ys[src].append(0 if src == "i64" else 0.0)
                k = len(stores[to])
                stores[to].append("(%s) as %s : %s" % (text(a, src), to, src))
                body.append("    c_%s[%d] = (%s) as %s;" % (to, k, text(a, src), to))
                body.append("    r_%s[%d] = %s as %s;" % (to, k, xa, to))
    used = [dt for dt in DTYPES if stores[dt]]
    params = ["xf: f64[%d]" % len(xs["f64"]), "yf: f64[%d]" % len(ys["f64"]),
              "xi: i64[%d]" % len(xs["i64"]), "yi: i64[%d]" % len(ys["i64"])]
    params += ["c_%s: out %s[%d]" % (dt, dt, len(stores[dt])) for dt in used]
    params += ["r_%s: out %s[%d]" % (dt, dt, len(stores[dt])) for dt in used]
    with open(os.path.join(o.tmp, "sema.tess"), "w") as f:
        f.write("kernel sema(%s)\n    grid (1)\n{\n%s\n}\n" % (", ".join(params), "\n".join(body)))
    inputs = []
    for name, arr, dt in (("xf", xs, "f64"), ("yf", ys, "f64"), ("xi", xs, "i64"), ("yi", ys, "i64")):
        path = os.path.join(o.tmp, name + ".npy")
        np.save(path, np.array(arr[dt], NP[dt]))
        inputs.append(path)
    cfiles = [os.path.join(o.tmp, "c_%s.npy" % dt) for dt in used]
    rfiles = [os.path.join(o.tmp, "r_%s.npy" % dt) for dt in used]
    run(o.tessc, [os.path.join(o.tmp, "sema.tess"), "-O0", "--device", "interp"] + inputs + cfiles + rfiles)
    for dt, cf, rf in zip(used, cfiles, rfiles):
        for k, (what, c, r) in enumerate(zip(stores[dt], load(cf, dt), load(rf, dt))):
            total += 1
            if bits_of(c, dt) != bits_of(r, dt):
                problems.append("sema: %s -> %s: compile time %r, run time %r" % (what, dt, c, r))

    for p in problems:
        print(p)
    print("%d values: %s" % (total, "%d disagreements" % len(problems) if problems else "agree"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
