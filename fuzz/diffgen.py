"""diffgen.py: random well-typed .tess kernels for differential testing.

A Csmith/YARPGen-style generator: every kernel it writes should pass sema
(difftest.py measures the acceptance rate and counts a rejection as a
finding), runs without an interpreter error (no out-of-range integer index,
no integer division by zero, no unwritten shared element, no element stored
by two programs), finishes fast in the interpreter (tiles of at most a few
hundred elements, a few programs, loops of a few iterations), and carries,
per output, how exactly two correct runs must agree:

- Between -O0 and -O2 on the interpreter, bit for bit, except where
  docs/language.md 7.2 and docs/ir.md (`fold`) document a rewrite that is not
  bit-exact:
  * the reciprocal rewrite `x / broadcast(s)` -> `x * (1 / s)` (f32, f64,
    bf16; within 1 ulp). The generator puts a division by a non-literal
    divisor of those dtypes only at the root of a stored expression (or under
    one float cast there), so the output's tolerance is that 1 ulp (plus the
    cast's rounding) and nothing downstream can amplify it;
  * `add(x, dot(a, b))` -> `dot(a, b, x)` (another summation order). A float
    dot on general values is never an operand of `+` (the generator uses
    `-`, `*`, `max` or a store instead); the `acc += dot(...)` recipe reads
    "integer-valued" inputs (small integers), on which every partial sum is
    exact in f32, so either order gives the same bits.
- Between the GPU and the interpreter (mode "gpu"): integer and bool results
  exactly; float results within a tolerance per output dtype
  (docs/reliability.md, "Differential fuzzing"). So that a discrete use
  cannot turn an allowed float difference into a different integer, in gpu
  mode float values that the GPU may compute differently (any arithmetic a
  fused multiply-add may contract, approximate math, float sums, dots) are
  never compared, cast to an integer or bool, used as a `%` operand, a
  mask, a `where` condition or a loop bound.

Feature classes (`--without NAME`, to keep a run clean of a known bug):
  prefetch-scalar-index  loads `w[k]` with a scalar index in a loop (stages >= 2)
  odd-steps              run-time loop steps that are zero, negative or huge
  index-weak             indexing a weak constant (`1.0[None]`)
  chained-ds             `x[ds(a, n)][ds(b, m)]`
  shape-fns              reshape, permute, flip, join, interleave, a run-time tile index
  scans                  cumsum/cumprod/cummax/cummin, reversed or not
  early-exit             `while` loops, and `break`/`continue` under a scalar condition
  dot, atomics, shared, loops, casts, math, masks, reductions  (the rest)

Usage: python3 fuzz/diffgen.py --seed S [--mode interp|gpu]  (prints one kernel)
"""
import argparse
import random

FLOATS = ["f16", "bf16", "f32", "f64"]
SINTS = ["i8", "i16", "i32", "i64"]
UINTS = ["u8", "u16", "u32", "u64"]
INTS = SINTS + UINTS
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ["bool"]
ATOMIC_ADD = ["i32", "u32", "i64", "f16", "bf16", "f32", "f64"]
ATOMIC_MINMAX = ["i32", "u32", "i64", "f32"]
MATH = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos"]
RECIP_DTYPES = ("f32", "f64", "bf16")

FEATURES = ["prefetch-scalar-index", "odd-steps", "index-weak", "chained-ds", "dot", "atomics",
            "shared", "loops", "casts", "math", "masks", "reductions", "shape-fns", "scans", "early-exit"]

INT_RANGE = {"i8": (-128, 127), "i16": (-32768, 32767), "i32": (-2**31, 2**31 - 1),
             "i64": (-2**63, 2**63 - 1), "u8": (0, 255), "u16": (0, 65535), "u32": (0, 2**32 - 1),
             "u64": (0, 2**64 - 1)}


class V:
    """A value: its source text, dtype, shape (a tuple of ints), whether it is
    weak (a compile-time number), and facts the comparison needs."""

    def __init__(self, text, dt, shape, weak=False, rawdot=False, gexact=True, prod=False,
                 recip=None):
        self.text, self.dt, self.shape, self.weak = text, dt, tuple(shape), weak
        self.rawdot = rawdot    # a float dot's result, unchanged: never an operand of '+'
        self.gexact = gexact    # the GPU computes it bit for bit as the interpreter does
        self.prod = prod        # a float product: a following + or - may become an FMA on the GPU
        self.recip = recip      # dtype of a root division that -O2 may compute as x * (1/s)
        self.made_prod = False  # a var: some update of it was a float `*=`
        self.used = 0


def pow2(rng, lo, hi):
    return rng.choice([1 << e for e in range(lo, hi + 1)])


class Gen:
    def __init__(self, rng, mode="interp", without=()):
        self.rng, self.mode, self.without = rng, mode, set(without)
        self.n = 0
        self.lines = []
        self.indent = 1
        self.scopes = [[]]
        self.params = []      # dicts: name, kind (in/out/inout/scalar), dt, dims, block, values
        self.sizes = {}       # symbolic size -> value
        self.outputs = {}     # output name -> tolerance facts
        self.features = set()
        self.depth_limit = 3

    # ---- helpers -----------------------------------------------------------
    def has(self, feature):
        return feature not in self.without

    def fresh(self, prefix):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def emit(self, line):
        self.lines.append("    " * self.indent + line)

    def env(self):
        return [v for scope in self.scopes for v in scope]

    def bind(self, v):
        self.scopes[-1].append(v)

    def chance(self, p):
        return self.rng.random() < p

    def gpu(self):
        return self.mode == "gpu"

    def pick_dt(self):
        """A dtype, most often one that some value in scope has (so leaves can use it)."""
        have = [v.dt for v in self.env() if not v.weak]
        if have and self.chance(0.65):
            return self.rng.choice(have)
        return self.rng.choice(ALL)

    # ---- literals ----------------------------------------------------------
    def int_literal(self):
        r = self.rng
        v = r.choice([0, 1, 2, 3, 5, 7, 16, 100, 127, 128, 255, 256, 1000, 65535, 2**31 - 1,
                      2**32, 2**40 + 3, 2**62] + [r.randint(0, 20)] * 6)
        return ("-%d" % v) if r.random() < 0.25 and v else "%d" % v

    def float_literal(self):
        r = self.rng
        s = r.choice(["0.5", "1.0", "2.0", "0.0", "3.25", "1e-3", "0.1", "7.0", "1e30", "65504.0",
                      "1e-40", "inf", "1.5", "0.25", "100.0"])
        if s == "inf" and self.gpu():
            s = "4.0"
        return ("-" + s) if r.random() < 0.3 else s

    def weak(self, dt):
        if dt in FLOATS and self.chance(0.7):
            return V(self.float_literal(), dt, (), weak=True)
        return V(self.int_literal(), dt, (), weak=True)

    # ---- shapes ------------------------------------------------------------
    def embed(self, v, S):
        """Index v with None so that its shape broadcasts to S (None if it cannot)."""
        T = v.shape
        if len(T) == 0:
            return v
        if T == tuple(S[len(S) - len(T):]):
            return v
        # Place T's dims, in order, at positions of S where they fit.
        positions = []
        j = 0
        for i, d in enumerate(S):
            if j < len(T) and (T[j] == d or T[j] == 1):
                positions.append(i)
                j += 1
        if j < len(T):
            return None
        items = [":" if i in positions else "None" for i in range(len(S))]
        return V("%s[%s]" % (v.text, ", ".join(items)), v.dt, tuple(T[positions.index(i)]
                 if i in positions else 1 for i in range(len(S))), rawdot=False, gexact=v.gexact,
                 prod=v.prod)

    def leaf(self, S, dt):
        """An existing value (or a literal, iota, a constructor) broadcastable to S."""
        r = self.rng
        if self.chance(0.15):
            c = self.const_leaf(S, dt)
            if c is not None:
                return c
        cands = [v for v in self.env() if v.dt == dt and not v.weak]
        r.shuffle(cands)
        cands.sort(key=lambda v: v.used)      # unused values first: every load should matter
        if self.chance(0.3):
            r.shuffle(cands)
        for v in cands[:6]:
            if self.gpu() and not v.gexact and self._discrete:
                continue
            e = self.embed(v, S)
            if e is not None:
                v.used += 1
                return e
        if self.has("casts") and dt != "bool" and self.chance(0.7):
            src = [v for v in self.env() if not v.weak and v.dt != dt]
            r.shuffle(src)
            src.sort(key=lambda v: v.used)
            for v in src[:4]:
                if self.gpu() and not v.gexact and (dt in INTS or dt == "bool" or self._discrete):
                    continue
                e = self.embed(v, S)
                if e is not None:
                    v.used += 1
                    return V("(%s as %s)" % (e.text, dt), dt, e.shape, gexact=e.gexact)
        choice = r.random()
        if dt in FLOATS and self.has("index-weak") and choice < 0.08:
            # a weak constant indexed (docs/language.md 8.2 allows indexing any tile)
            self.features.add("index-weak")
            return V("(%s[%s] as %s)" % (self.float_literal().lstrip("-"), r.choice(["...", ""]) or "...", dt),
                     dt, ())
        if dt == "i32" and S and choice < 0.4:
            d = r.randrange(len(S))
            v = V("iota(%d)" % S[d], "i32", (S[d],))
            items = [":" if i == d else "None" for i in range(len(S))]
            return v if len(S) == 1 else V("iota(%d)[%s]" % (S[d], ", ".join(items)), "i32",
                                            tuple(S[d] if i == d else 1 for i in range(len(S))))
        if dt == "bool":
            if S and self.chance(0.5):
                d = r.randrange(len(S))
                v = V("iota(%d)" % S[d], "i32", (S[d],))
                e = self.embed(v, S) if len(S) > 1 else v
                if e is None:
                    e = v
                    return V("(%s < %d)" % (v.text, r.randint(0, S[d])), "bool", (S[d],)) \
                        if S[-1] == S[d] else V("full([%s], true, bool)" % ", ".join(map(str, S)), "bool", S)
                return V("(%s %s %d)" % (e.text, r.choice(["<", ">=", "!="]), r.randint(0, S[d])), "bool", e.shape)
            return V("full([%s], %s, bool)" % (", ".join(map(str, S)), r.choice(["true", "false"])), "bool", S) \
                if S else V(r.choice(["true", "false"]), "bool", ())
        if S and self.chance(0.5):
            lit = self.weak(dt)
            return V("full([%s], %s, %s)" % (", ".join(map(str, S)), lit.text, dt), dt, S)
        if not S:
            scal = [v for v in self.env() if v.dt == dt and v.shape == () and not v.weak]
            if scal:
                return r.choice(scal)
        return V("zeros([%s], %s)" % (", ".join(map(str, S)), dt), dt, S) if S else \
            V("(%s as %s)" % (self.weak("i32").text if dt not in FLOATS else self.weak(dt).text, dt), dt, ())

    def const_leaf(self, S, dt):
        """A constant tile, which -O2 folds and -O0 computes: a literal fill, a cast
        of one from another dtype (saturation, NaN, rounding to f16/bf16), iota."""
        r = self.rng
        shape = "[%s]" % ", ".join(map(str, S))
        k = r.random()
        if dt == "bool":
            return None
        if S and k < 0.3:
            d = r.randrange(len(S))
            it = "iota(%d)" % S[d]
            if len(S) > 1:
                it += "[%s]" % ", ".join(":" if i == d else "None" for i in range(len(S)))
            sh = tuple(S[d] if i == d else 1 for i in range(len(S)))
            return V("((%s %s %s) as %s)" % (it, r.choice(["*", "-", "+"]), self.int_literal(), dt), dt, sh)
        if k < 0.75 and self.has("casts"):
            src = r.choice([d for d in NUMERIC if d != dt])
            lit = self.weak(src)
            if src in INTS and "." in lit.text:
                lit = V(self.int_literal(), src, (), weak=True)
            if not S:
                return V("(full([1], %s, %s)[0] as %s)" % (lit.text, src, dt), dt, ())
            return V("(full(%s, %s, %s) as %s)" % (shape, lit.text, src, dt), dt, S)
        lit = self.weak(dt)
        if not S:
            return V("full([1], %s, %s)[0]" % (lit.text, dt), dt, ())
        return V("full(%s, %s, %s)" % (shape, lit.text, dt), dt, S)

    # ---- expressions ---------------------------------------------------------
    _discrete = False

    def expr(self, S, dt, depth=0, exact=True, root=False):
        """An expression of dtype dt whose shape is S (exact) or broadcasts to S."""
        r = self.rng
        S = tuple(S)
        if depth >= self.depth_limit or r.random() < 0.2 + 0.15 * depth:
            v = self.leaf(S, dt)
            return self.make_exact(v, S) if exact else v
        k = r.random()
        if dt == "bool":
            return self.bool_expr(S, depth, exact)
        if k < 0.40:
            return self.binary(S, dt, depth, exact, root)
        if k < 0.50:
            return self.unary(S, dt, depth, exact)
        if k < 0.58:
            c = self.cond(S, depth + 1)
            a = self.expr(S, dt, depth + 1, exact=True)
            b = self.expr(S, dt, depth + 1, exact=False) if self.chance(0.6) else self.weak(dt)
            if self.chance(0.5):
                a, b = b, a
            shape = S if exact or a.shape == S or b.shape == S else self.bshape(a.shape, b.shape, c.shape)
            return V("where(%s, %s, %s)" % (c.text, a.text, b.text), dt, shape,
                     gexact=a.gexact and b.gexact)
        if k < 0.66 and self.has("reductions") and len(S) < 3:
            return self.reduction(S, dt, depth)
        if k < 0.74 and self.has("casts"):
            src = self.pick_dt()
            if src == dt:
                src = r.choice([d for d in ALL if d != dt])
            if self.gpu() and (dt in INTS or dt == "bool") and src in FLOATS:
                self._discrete, old = True, self._discrete
                a = self.expr(S, src, depth + 1, exact)
                self._discrete = old
            else:
                a = self.expr(S, src, depth + 1, exact)
            if a.weak:
                a = self.make_exact(self.leaf(S, src), S)
            return V("(%s as %s)" % (a.text, dt), dt, a.shape, gexact=a.gexact)
        if k < 0.82:
            if self.has("shape-fns") and S and self.chance(0.6):
                return self.shape_fn(S, dt, depth)
            if self.has("scans") and S and dt != "bool" and self.chance(0.4):
                return self.scan(S, dt, depth)
            return self.index_expr(S, dt, depth, exact)
        if k < 0.88 and dt in FLOATS and self.has("math"):
            a = self.expr(S, dt, depth + 1, exact)
            if a.weak:
                a = self.make_exact(self.leaf(S, dt), S)
            f = r.choice(MATH + ["abs"])
            return V("%s(%s)" % (f, a.text), dt, a.shape,
                     gexact=a.gexact and f in ("abs", "sqrt") and not a.prod)
        if k < 0.94:
            f = r.choice(["min", "max"])
            a = self.expr(S, dt, depth + 1, exact=True)
            b = self.expr(S, dt, depth + 1, exact=False) if self.chance(0.7) else self.weak(dt)
            if self.chance(0.5):
                a, b = b, a
            return V("%s(%s, %s)" % (f, a.text, b.text), dt, S, gexact=a.gexact and b.gexact)
        v = self.leaf(S, dt)
        return self.make_exact(v, S) if exact else v

    def bshape(self, *shapes):
        n = max(len(s) for s in shapes)
        out = []
        for i in range(n):
            d = 1
            for s in shapes:
                j = i - (n - len(s))
                if j >= 0 and s[j] != 1:
                    d = s[j]
            out.append(d)
        return tuple(out)

    def make_exact(self, v, S):
        if v.shape == tuple(S):
            return v
        shape = "[%s]" % ", ".join(map(str, S))
        if v.dt == "bool":
            return V("(%s && full(%s, true, bool))" % (v.text, shape), "bool", S, gexact=v.gexact)
        if v.weak:
            return V("full(%s, %s, %s)" % (shape, v.text, v.dt), v.dt, S)
        return V("(%s + zeros(%s, %s))" % (v.text, shape, v.dt), v.dt, S, gexact=v.gexact and not v.prod)

    def binary(self, S, dt, depth, exact, root):
        r = self.rng
        ops = ["+", "-", "*", "/", "%"]
        op = r.choice(ops + ["+", "-", "*"])
        a = self.expr(S, dt, depth + 1, exact=True)
        if self.chance(0.3):
            b = self.weak(dt)
        else:
            b = self.expr(S, dt, depth + 1, exact=False)
        if self.chance(0.4) and not (op in "/%"):
            a, b = b, a
        if op == "+" and dt in FLOATS and (a.rawdot or b.rawdot):
            op = r.choice(["-", "*"])           # keep add(x, dot) -> dot(a, b, x) out (see top)
        if self.gpu() and op == "%" and dt in FLOATS and not (a.gexact and b.gexact):
            op = "-"
        if op in "/%" and dt in INTS:
            if b.weak:
                if b.text.lstrip("-") == "0" or (dt in UINTS and b.text.startswith("-")):
                    b = V("3", dt, (), weak=True)
                # a weak divisor that wraps to 0 in the dtype (256 for u8) is the same trap
                val = int(b.text)
                lo, hi = INT_RANGE[dt]
                w = (val - lo) % (hi - lo + 1) + lo
                if w == 0:
                    b = V("3", dt, (), weak=True)
            else:
                b = V("where(%s == 0, 1, %s)" % (b.text, b.text), dt, b.shape, gexact=b.gexact)
        gex = a.gexact and b.gexact
        recip = None
        if op == "/" and dt in RECIP_DTYPES and not b.weak:
            if root:
                recip = dt
            else:
                op = r.choice(["*", "-"])
        if dt in FLOATS and op in "+-" and (a.prod or b.prod):
            gex = False
        text = "(%s %s %s)" % (a.text, op, b.text)
        return V(text, dt, S if exact else self.bshape(a.shape, b.shape), gexact=gex,
                 prod=(op == "*" and dt in FLOATS), recip=recip)

    def unary(self, S, dt, depth, exact):
        a = self.expr(S, dt, depth + 1, exact)
        if a.weak:
            a = self.make_exact(self.leaf(S, dt), S)
        if self.chance(0.5):
            return V("(-%s)" % a.text, dt, a.shape, gexact=a.gexact, prod=a.prod)   # -(a*b) + c: fma(-a, b, c)
        return V("abs(%s)" % a.text, dt, a.shape, gexact=a.gexact)

    def cond(self, S, depth):
        return self.bool_expr(S, depth, exact=False)

    def bool_expr(self, S, depth, exact):
        r = self.rng
        k = r.random()
        if depth >= self.depth_limit or k < 0.2:
            v = self.leaf(S, "bool")
            return self.make_exact(v, S) if exact else v
        if k < 0.65:
            dt = self.pick_dt()
            if dt == "bool":
                dt = r.choice(NUMERIC)
            self._discrete, old = True, self._discrete
            a = self.expr(S, dt, depth + 1, exact=True)
            b = self.expr(S, dt, depth + 1, exact=False) if self.chance(0.6) else self.weak(dt)
            self._discrete = old
            if self.gpu() and dt in FLOATS and not (a.gexact and b.gexact):
                a = self.make_exact(self.leaf(S, dt), S)
                b = self.weak(dt)
            op = r.choice(["<", "<=", ">", ">=", "==", "!="])
            return V("(%s %s %s)" % (a.text, op, b.text), "bool", S)
        if k < 0.85:
            a = self.bool_expr(S, depth + 1, exact=True)
            b = self.bool_expr(S, depth + 1, exact=False)
            return V("(%s %s %s)" % (a.text, r.choice(["&&", "||", "==", "!="]), b.text), "bool", S)
        a = self.bool_expr(S, depth + 1, exact)
        return V("(!%s)" % a.text, "bool", a.shape)

    def reduction(self, S, dt, depth):
        r = self.rng
        if dt == "bool":
            return self.leaf(S, dt)
        ax = r.randint(0, len(S))
        n = pow2(r, 0, 4)
        big = S[:ax] + (n,) + S[ax:]
        f = r.choice(["sum", "max", "min"])
        a = self.expr(big, dt, depth + 1, exact=True)
        axis = ax if self.chance(0.6) else ax - len(big)
        if not S and self.chance(0.5):
            text = "%s(%s)" % (f, a.text)
        else:
            text = "%s(%s, axis = %d)" % (f, a.text, axis)
        gex = a.gexact and (f != "sum" or dt in INTS)
        return V(text, dt, S, gexact=gex)

    def shape_fn(self, S, dt, depth):
        """reshape, permute, flip, join, interleave, or a tile read at a
        run-time index (program_id(0) % n), of a value of another shape
        (docs/language.md 8.2, 9.2): data movement, exact on every path."""
        r = self.rng
        k = r.random()
        n = 1
        for d in S:
            n *= d
        if k < 0.2:
            dims, left = [], n
            while left > 1 and len(dims) < 2 and self.chance(0.7):
                f = pow2(r, 0, max(0, left.bit_length() - 1))
                dims.append(f)
                left //= f
            src = tuple(dims + [left]) if left > 1 or not dims else tuple(dims)
            a = self.expr(src, dt, depth + 1, exact=True)
            return V("reshape(%s, [%s])" % (a.text, ", ".join(map(str, S))), dt, S, gexact=a.gexact)
        if k < 0.4 and len(S) >= 2:
            perm = list(range(len(S)))
            r.shuffle(perm)
            src = [0] * len(S)
            for i, p in enumerate(perm):
                src[p] = S[i]
            a = self.expr(tuple(src), dt, depth + 1, exact=True)
            return V("permute(%s, [%s])" % (a.text, ", ".join(map(str, perm))), dt, S, gexact=a.gexact)
        if k < 0.6:
            ax = r.randrange(len(S))
            a = self.expr(S, dt, depth + 1, exact=True)
            if a.weak:
                a = self.make_exact(self.leaf(S, dt), S)
            axis = "" if len(S) == 1 and self.chance(0.5) else ", axis = %d" % ax
            return V("flip(%s%s)" % (a.text, axis), dt, S, gexact=a.gexact)
        if k < 0.75 and S[-1] == 2 and len(S) >= 2:
            a = self.expr(S[:-1], dt, depth + 1, exact=True)
            b = self.expr(S[:-1], dt, depth + 1, exact=True) if self.chance(0.8) else self.weak(dt)
            return V("join(%s, %s)" % (a.text, b.text), dt, S, gexact=a.gexact and b.gexact)
        if k < 0.85 and S[-1] >= 2:
            half = S[:-1] + (S[-1] // 2,)
            a = self.expr(half, dt, depth + 1, exact=True)
            b = self.expr(half, dt, depth + 1, exact=True) if self.chance(0.8) else self.weak(dt)
            return V("interleave(%s, %s)" % (a.text, b.text), dt, S, gexact=a.gexact and b.gexact)
        if len(S) < 3:
            d = r.randint(0, len(S))
            m = pow2(r, 1, 3)
            big = S[:d] + (m,) + S[d:]
            a = self.expr(big, dt, depth + 1, exact=True)
            if a.weak:
                a = self.make_exact(self.leaf(big, dt), big)
            items = [":"] * len(big)
            items[d] = "program_id(0) %% %d" % m
            return V("%s[%s]" % (self.paren(a.text), ", ".join(items)), dt, S, gexact=a.gexact)
        return self.make_exact(self.leaf(S, dt), S)

    def scan(self, S, dt, depth):
        r = self.rng
        f = r.choice(["cumsum", "cumprod", "cummax", "cummin"])
        a = self.expr(S, dt, depth + 1, exact=True)
        if a.weak:
            a = self.make_exact(self.leaf(S, dt), S)
        ax = r.randrange(len(S))
        args = a.text
        if len(S) > 1 or self.chance(0.5):
            args += ", axis = %d" % (ax if self.chance(0.7) else ax - len(S))
        if self.chance(0.5):
            args += ", reverse = %s" % r.choice(["true", "false"])
        gex = a.gexact and (f in ("cummax", "cummin") or dt in INTS)
        return V("%s(%s)" % (f, args), dt, S, gexact=gex)

    def index_expr(self, S, dt, depth, exact):
        """Index a tile expression: a slice, a constant index, None, or .T."""
        r = self.rng
        k = r.random()
        if len(S) >= 2 and k < 0.3:
            T = S[:-2] + (S[-1], S[-2])
            a = self.expr(T, dt, depth + 1, exact=True)
            return V("%s.T" % self.paren(a.text), dt, S, gexact=a.gexact, rawdot=False, prod=a.prod)
        if S and k < 0.6:
            d = r.randrange(len(S))
            big = S[:d] + (S[d] * 2,) + S[d + 1:]
            a = self.expr(big, dt, depth + 1, exact=True)
            off = r.choice([0, S[d]])
            items = [":"] * len(S)
            items[d] = "%d:%d" % (off, off + S[d])
            return V("%s[%s]" % (self.paren(a.text), ", ".join(items)), dt, S, gexact=a.gexact,
                     prod=a.prod)
        if len(S) < 3 and k < 0.85:
            d = r.randint(0, len(S))
            n = pow2(r, 0, 3)
            big = S[:d] + (n,) + S[d:]
            a = self.expr(big, dt, depth + 1, exact=True)
            items = [":"] * len(big)
            items[d] = str(r.randrange(n))
            return V("%s[%s]" % (self.paren(a.text), ", ".join(items)), dt, S, gexact=a.gexact,
                     prod=a.prod)
        if S and S[0] == 1 or (not S):
            # None on something smaller, or on a weak constant (index-weak)
            if not S:
                if self.has("index-weak") and dt in FLOATS and self.chance(0.5):
                    self.features.add("index-weak")
                    lit = self.weak(dt)
                    return V("((%s)[...] as %s)" % (lit.text, dt), dt, ())
                v = self.leaf(S, dt)
                return v
            a = self.expr(S[1:], dt, depth + 1, exact=True)
            if a.weak:
                a = self.make_exact(self.leaf(S[1:], dt), S[1:])
            return V("%s[None%s]" % (self.paren(a.text), ", ..." if S[1:] else ""), dt, S, gexact=a.gexact,
                     prod=a.prod)
        v = self.leaf(S, dt)
        return self.make_exact(v, S) if exact else v

    def paren(self, t):
        return t if t.isidentifier() else "(%s)" % t

    # ---- the kernel ----------------------------------------------------------
    def add_param(self, name, kind, dt, dims, block=None, values=None, intvalued=False):
        self.params.append(dict(name=name, kind=kind, dt=dt, dims=dims, block=block, values=values,
                                intvalued=intvalued))

    def generate(self):
        r = self.rng
        rank = r.choice([1, 1, 2, 2, 2])
        self.rank = rank
        if rank == 1:
            B = pow2(r, 0, 7)
            self.base = (B,)
            self.sizes["N"] = r.randint(1, 3 * B)
            grid = "cdiv(N, %d)" % B
            nprog = [-(-self.sizes["N"] // B)]
        else:
            BM, BN = pow2(r, 0, 4), pow2(r, 0, 4)
            while BM * BN > 256:
                BN //= 2
            self.base = (BM, BN)
            self.sizes["M"] = r.randint(1, 2 * BM + 1)
            self.sizes["N"] = r.randint(1, 2 * BN + 1)
            grid = "cdiv(M, %d), cdiv(N, %d)" % (BM, BN)
            nprog = [-(-self.sizes["M"] // BM), -(-self.sizes["N"] // BN)]
        self.nprog = nprog
        pmap = "(i)" if rank == 1 else "(i, j)"
        idx = "(i)" if rank == 1 else "(i, j)"
        dims = ["N"] if rank == 1 else ["M", "N"]
        bdims = ", ".join(map(str, self.base))
        # inputs
        for _ in range(r.randint(1, 3)):
            dt = r.choice(ALL)
            nm = self.fresh("x")
            self.add_param(nm, "in", dt, dims, "block %s[%s] %s -> %s" % (nm, bdims, pmap, idx))
        if rank == 2 and self.chance(0.5):
            dt = r.choice(NUMERIC)
            nm = self.fresh("row")
            self.add_param(nm, "in", dt, ["M"], "block %s[%d] (i, j) -> (i)" % (nm, self.base[0]))
            self.rowvec = (nm, dt)
        else:
            self.rowvec = None
        # a whole array for loops
        self.sizes["K"] = r.randint(1, 12)
        wdt = r.choice(NUMERIC)
        self.add_param("w", "in", wdt, ["K"])
        # scalars
        self.scalars = []
        for _ in range(r.randint(0, 2)):
            dt = r.choice(["i32", "f32", "i64", "f16", "u8"])
            nm = self.fresh("s")
            val = self.scalar_value(dt)
            self.add_param(nm, "scalar", dt, [], values=val)
            self.scalars.append(V(nm, dt, ()))
        # dot inputs
        self.dot = None
        if rank == 2 and self.has("dot") and self.chance(0.45):
            ddt = r.choice(["f16", "bf16", "f32", "i8", "f16"])
            BK = pow2(r, 0, 4)
            BM, BN = self.base
            self.sizes["KD"] = r.randint(1, 3 * BK)
            intv = ddt != "i8" and self.chance(0.6)
            self.add_param("da", "in", ddt, ["M", "KD"], "block da[%d, KD] (i, j) -> (i, 0)" % BM,
                           intvalued=intv)
            self.add_param("db", "in", ddt, ["KD", "N"], "block db[KD, %d] (i, j) -> (0, j)" % BN,
                           intvalued=intv)
            # a loop of two dots, the second adding into the accumulator (flash
            # attention's shape; what passes/overlap.c rotates), integer-valued so
            # that the sums are exact in any order
            self.two_dots = intv and ddt in ("f16", "bf16") and self.chance(0.5)
            if self.two_dots:
                self.sizes["KV"] = r.randint(1, 3 * BN)
                self.add_param("dv", "in", ddt, ["KV", "N"], "block dv[KV, %d] (i, j) -> (0, j)" % BN,
                               intvalued=True)
            self.dot = (ddt, BK, intv)
        # atomics target
        self.atom = None
        if self.has("atomics") and self.chance(0.35):
            f = r.choice(["atomic_add", "atomic_add", "atomic_max", "atomic_min"])
            adt = r.choice(ATOMIC_ADD if f == "atomic_add" else ATOMIC_MINMAX)
            if self.gpu() and adt in FLOATS and f == "atomic_add":
                adt = "i32" if self.chance(0.5) else adt
            C = pow2(r, 0, 4)
            self.add_param("acc", "inout", adt, [str(C)])
            self.atom = (f, adt, C)
        # outputs
        nout = r.randint(1, 3)
        self.outs = []
        for _ in range(nout):
            dt = r.choice(ALL)
            nm = self.fresh("o")
            masked = self.has("masks") and self.chance(0.3)
            kind = "inout" if masked else "out"
            self.add_param(nm, kind, dt, dims, "block %s[%s] %s -> %s" % (nm, bdims, pmap, idx))
            self.outs.append((nm, dt, masked))

        warps = r.choice([1, 2, 4, 4, 8])
        stages = r.choice([1, 2, 2, 3])
        self.stages = stages

        # body
        for p in self.params:
            if p["kind"] == "scalar":
                self.bind(V(p["name"], p["dt"], ()))
        self.bind(V("program_id(0)", "i32", ()))
        self.bind(V("N", "i32", ()))
        for p in list(self.params):
            if p["block"] and p["kind"] == "in" and p["name"].startswith("x"):
                nm = self.fresh("t")
                if self.has("masks") and self.chance(0.25) and p["dt"] != "bool":
                    m = self.cond(self.base, 1)
                    self.emit("let %s = load(%s[...], mask = %s, other = %s);" %
                              (nm, p["name"], m.text, self.weak(p["dt"]).text))
                elif self.chance(0.08) and self.has("chained-ds") and self.rank == 1:
                    self.features.add("chained-ds")
                    B = self.base[0]
                    self.emit("let %s = %s[ds(%d, %d)][ds(%d, %d)];" % (nm, p["name"], r.randint(-2, 2), 2 * B,
                                                                     r.randint(-2, B), B))
                else:
                    self.emit("let %s = %s[...];" % (nm, p["name"]))
                self.bind(V(nm, p["dt"], self.base))
        if self.rowvec:
            nm = self.fresh("t")
            self.emit("let %s = %s[...];" % (nm, self.rowvec[0]))
            self.bind(V(nm, self.rowvec[1], (self.base[0],)))
        self.depth_limit = r.choice([2, 3, 3, 4])
        for _ in range(r.randint(1, 6)):
            self.stmt()
        if self.dot:
            self.dot_stmt()
        if self.atom:
            self.atomic_stmt()
        for nm, dt, masked in self.outs:
            self.store_out(nm, dt, masked)

        header = "kernel k(%s)" % ", ".join(self.param_decl(p) for p in self.params)
        clauses = ["    grid (%s)" % grid] + ["    " + p["block"] for p in self.params if p["block"]]
        clauses.append("    warps %d stages %d" % (warps, stages))
        src = "// generated by fuzz/diffgen.py\n" + header + "\n" + "\n".join(clauses) + "\n{\n" + \
            "\n".join(self.lines) + "\n}\n"
        return src

    def param_decl(self, p):
        if p["kind"] == "scalar":
            return "%s: %s" % (p["name"], p["dt"])
        acc = "" if p["kind"] == "in" else p["kind"] + " "
        return "%s: %s%s[%s]" % (p["name"], acc, p["dt"], ", ".join(p["dims"]))

    def scalar_value(self, dt):
        r = self.rng
        if dt in FLOATS:
            return repr(r.choice([0.5, -1.25, 3.0, 0.0, 1e-3, -7.5, 100.0]))
        lo, hi = INT_RANGE[dt]
        return str(r.choice([0, 1, 2, 3, -1 if lo < 0 else 5, hi, lo, r.randint(max(lo, -50), min(hi, 50))]))

    # ---- statements ----------------------------------------------------------
    def rand_shape(self):
        r = self.rng
        opts = [self.base, self.base, ()]
        if self.rank == 2:
            opts += [(self.base[0],), (self.base[1],), (self.base[0], 1)]
        else:
            opts += [(self.base[0], pow2(r, 0, 2))]
        return r.choice(opts)

    def stmt(self):
        r = self.rng
        k = r.random()
        if k < 0.4 or not self.has("loops") and k < 0.7:
            S, dt = self.rand_shape(), self.pick_dt()
            v = self.expr(S, dt, 0, exact=True)
            nm = self.fresh("t")
            self.emit("let %s = %s;" % (nm, v.text))
            self.bind(V(nm, dt, v.shape if not v.weak else (), weak=v.weak, rawdot=v.rawdot,
                        gexact=v.gexact, prod=v.prod))
        elif k < 0.7 and self.has("loops"):
            self.loop_stmt()
        elif k < 0.8:
            self.if_stmt()
        elif k < 0.92 and self.has("shared"):
            self.shared_stmt()
        else:
            S, dt = self.rand_shape(), self.pick_dt()
            v = self.expr(S, dt, 0, exact=True)
            nm = self.fresh("t")
            self.emit("let %s = %s;" % (nm, v.text))
            self.bind(V(nm, dt, v.shape if not v.weak else (), weak=v.weak, gexact=v.gexact, prod=v.prod))

    def var_update(self, var, depth_extra=0):
        r = self.rng
        e = self.expr(var.shape, var.dt, 1, exact=False)
        if var.dt == "bool":
            self.emit("%s = (%s %s %s);" % (var.text, var.text, r.choice(["&&", "||", "!="]),
                                             self.make_exact(e, var.shape).text if e.weak else e.text))
        elif self.chance(0.5):
            op = r.choice(["+=", "-=", "*="])
            self.emit("%s %s %s;" % (var.text, op, e.text))
            # v -= e is v = v - e: a product on either side may contract
            # (var v = t * t; v -= t is one fma on the GPU)
            if op != "*=" and var.dt in FLOATS and (e.prod or var.prod):
                var.gexact = False
            if op == "*=" and var.dt in FLOATS:
                var.made_prod = True
        else:
            op = r.choice(["max", "min", "+", "-"])
            if op in "+-":
                self.emit("%s = (%s %s %s);" % (var.text, var.text, op, e.text))
                if var.dt in FLOATS and (e.prod or var.prod):
                    var.gexact = False
            else:
                self.emit("%s = %s(%s, %s);" % (var.text, op, var.text, e.text))
        if not e.gexact:
            var.gexact = False
        # var.prod stays as it was before the update: an if's else branch
        # (and a loop's first, possibly unrolled, iteration) sees the same
        # initializer. After the if or loop the caller sets it from
        # made_prod: a phi or select stops an fma, but an if on a constant
        # condition folds away and a loop of a known trip count may unroll,
        # so a branch's `v *= e` can be what a later `v + c` reads directly.

    def loop_bounds(self):
        """(lo, hi, step) texts: run-time bounds and steps from scalar parameters."""
        r = self.rng
        odd = self.has("odd-steps") and self.chance(0.25)
        lo = r.randint(0, 3)
        if odd:
            kind = r.choice(["zero", "neg", "huge"])
            if kind == "huge":
                step = r.choice([2**30, 2**31 - 1 - lo, 2**31 - 8])
                hi = lo + r.randint(1, 8)
            else:
                step = 0 if kind == "zero" else -r.randint(1, 3)
                hi = lo - r.randint(0, 3)          # lo >= hi: the loop never runs
            self.features.add("odd-steps")
        else:
            step = r.randint(1, 3)
            hi = lo + r.randint(0, 8)
        los, his, sts = self.fresh("lo"), self.fresh("hi"), self.fresh("st")
        texts = []
        for nm, val, static in ((los, lo, r.random() < 0.4), (his, hi, r.random() < 0.4),
                                (sts, step, r.random() < 0.3 and step > 0)):
            if static:
                texts.append(str(val))
            else:
                self.add_param(nm, "scalar", "i32", [], values=str(val))
                texts.append(nm)
        return texts

    def loop_stmt(self):
        r = self.rng
        S, dt = self.rand_shape(), self.pick_dt()
        init = self.expr(S, dt, 1, exact=True)
        var = V(self.fresh("v"), dt, S, gexact=init.gexact, prod=init.prod)
        self.emit("var %s = %s;" % (var.text, init.text))
        kv = self.fresh("k")
        scalar_index = self.has("prefetch-scalar-index") and self.chance(0.3)
        early = self.has("early-exit") and self.chance(0.3)
        as_while = early and self.chance(0.4)
        if scalar_index:
            # w[k] with k in 0 .. K: in range for the loop's own bounds
            self.features.add("prefetch-scalar-index")
            lo, hi, st = "0", "K", str(r.randint(1, 2))
        elif as_while:
            # a positive step: a while counts up to hi (odd steps are a for's)
            lo, hi, st = str(r.randint(0, 3)), self.fresh("hi"), str(r.randint(1, 3))
            self.add_param(hi, "scalar", "i32", [], values=str(int(lo) + r.randint(0, 8)))
        else:
            lo, hi, st = self.loop_bounds()
        if as_while:
            # the counter steps first, so that a continue cannot stall it
            cv = self.fresh("c")
            self.emit("var %s = %s;" % (cv, lo))
            self.emit("while %s < %s {" % (cv, hi))
            self.indent += 1
            self.emit("let %s = %s;" % (kv, cv))
            self.emit("%s += %s;" % (cv, st))
        else:
            self.emit("for %s in %s .. %s%s {" % (kv, lo, hi, "" if st == "1" and self.chance(0.5) else " step " + st))
            self.indent += 1
        if early:
            self.features.add("early-exit")
        self.scopes.append([V(kv, "i32", ())])
        wdt = next(p["dt"] for p in self.params if p["name"] == "w")
        if scalar_index:
            wn = self.fresh("wk")
            self.emit("let %s = w[%s];" % (wn, kv))
            self.bind(V(wn, wdt, ()))
        if self.chance(0.6):
            n = pow2(r, 0, 3)
            wn = self.fresh("wd")
            self.emit("let %s = w[ds(%s * %d %s %d, %d)];" % (wn, kv, r.randint(1, 3), r.choice(["+", "-"]),
                                                             r.randint(0, 3), n))
            self.bind(V(wn, wdt, (n,)))
        xs = [p for p in self.params if p["kind"] == "in" and p["name"].startswith("x")]
        if xs and self.chance(0.5):
            # a block input read at a place that moves with the loop: what prefetch pipelines
            p = r.choice(xs)
            xl = self.fresh("xl")
            start = "%s * %d %s %d" % (kv, r.randint(0, 3), r.choice(["+", "-"]), r.randint(0, 4))
            place = "%s[ds(%s, %d)%s]" % (p["name"], start, self.base[0], ", :" if self.rank == 2 else "")
            if p["dt"] != "bool" and self.chance(0.4):
                self.emit("let %s = load(%s, other = %s);" % (xl, place, self.weak(p["dt"]).text
                          if p["dt"] in FLOATS or self.chance(0.5) else "1"))
            else:
                self.emit("let %s = %s;" % (xl, place))
            self.bind(V(xl, p["dt"], self.base))
        if self.chance(0.3) and self.depth_ok():
            self.stmt()
        exit_after = early and self.chance(0.5)
        if early and not exit_after:
            self.early_exit()
        if self.chance(0.35):
            cnd = self.scalar_cond()
            self.emit("if %s {" % cnd)
            self.indent += 1
            self.scopes.append([])
            self.var_update(var)
            self.scopes.pop()
            self.indent -= 1
            self.emit("} else {")
            self.indent += 1
            self.scopes.append([])
            self.var_update(var)
            self.scopes.pop()
            self.indent -= 1
            self.emit("}")
        else:
            self.var_update(var)
        if exit_after:
            self.early_exit()
        self.scopes.pop()
        self.indent -= 1
        self.emit("}")
        var.prod = var.prod or var.made_prod
        self.bind(var)

    def early_exit(self):
        """`if COND { break; }` or `continue`, COND a scalar of the loop's trip."""
        self.emit("if %s {" % self.scalar_cond())
        self.emit("    %s;" % self.rng.choice(["break", "continue"]))
        self.emit("}")

    def depth_ok(self):
        return self.indent < 3

    def scalar_cond(self):
        r = self.rng
        k = r.random()
        ints = [v for v in self.env() if v.shape == () and v.dt in INTS and not v.weak]
        if ints and k < 0.7:
            v = r.choice(ints)
            return "(%s %% %s) %s %s" % (v.text, r.choice(["2", "3"]), r.choice(["==", "!="]), "0") \
                if v.dt in SINTS else "%s %s %s" % (v.text, r.choice(["<", ">", "=="]), r.randint(0, 5))
        return self.expr((), "bool", 1, exact=True).text

    def if_stmt(self):
        S, dt = self.rand_shape(), self.pick_dt()
        init = self.expr(S, dt, 1, exact=True)
        var = V(self.fresh("v"), dt, S, gexact=init.gexact, prod=init.prod)
        self.emit("var %s = %s;" % (var.text, init.text))
        self.emit("if %s {" % self.scalar_cond())
        self.indent += 1
        self.scopes.append([])
        self.var_update(var)
        self.scopes.pop()
        self.indent -= 1
        if self.chance(0.7):
            self.emit("} else {")
            self.indent += 1
            self.scopes.append([])
            self.var_update(var)
            self.scopes.pop()
            self.indent -= 1
        self.emit("}")
        var.prod = var.prod or var.made_prod
        self.bind(var)

    def shared_stmt(self):
        r = self.rng
        S = self.base if self.chance(0.7) else self.rand_shape()
        if not S:
            S = (1,)
        dt = r.choice(ALL)
        sm = self.fresh("sm")
        self.emit("let %s = alloc(%s[%s] @shared);" % (sm, dt, ", ".join(map(str, S))))
        v = self.expr(S, dt, 1, exact=False)
        if v.weak and dt in INTS and "." in v.text:
            v = self.leaf(S, dt)
        if len(S) == 2 and self.chance(0.3) and self.has("loops"):
            # written one row at a time, then read whole
            rv = self.fresh("r")
            self.emit("for %s in 0 .. %d {" % (rv, S[0]))
            row = self.expr((S[1],), dt, 2, exact=False)
            self.emit("    %s[%s, :] = %s;" % (sm, rv, row.text))
            self.emit("}")
            gex = row.gexact
        else:
            self.emit("%s[...] = %s;" % (sm, v.text))
            gex = v.gexact
        nm = self.fresh("t")
        if len(S) == 2 and S[0] == S[1] and self.chance(0.4):
            self.emit("let %s = %s[...].T;" % (nm, sm))
        elif self.chance(0.3) and dt != "bool":
            start = r.randint(-2, 2)
            self.emit("let %s = load(%s[ds(%d, %d)], other = %s);" % (nm, sm, start, S[0], self.weak(dt).text))
        else:
            self.emit("let %s = %s[...];" % (nm, sm))
        self.bind(V(nm, dt, S, gexact=gex))

    def dot_stmt(self):
        ddt, BK, intv = self.dot
        BM, BN = self.base
        rdt = "i32" if ddt == "i8" else "f32"
        acc = self.fresh("acc")
        if getattr(self, "two_dots", False):
            kk, sv = self.fresh("kk"), self.fresh("s")
            self.emit("var %s = zeros([%d, %d], %s);" % (acc, BM, BN, rdt))
            self.emit("for %s in 0 .. cdiv(KV, %d) {" % (kk, BN))
            self.emit("    let %s = dot(da[:, ds(%s * %d, %d)], db[ds(%s * %d, %d), :]);" %
                      (sv, kk, BK, BK, kk, BK, BK))
            self.emit("    %s = %s * 0.5 + dot((%s * 0.125) as %s, dv[ds(%s * %d, %d), :]);" %
                      (acc, acc, sv, ddt, kk, BN, BN))
            self.emit("}")
            self.bind(V(acc, rdt, (BM, BN), gexact=False, rawdot=False))
            self.features.add("dot")
            return
        if intv or ddt == "i8" or self.chance(0.5):
            self.emit("var %s = zeros([%d, %d], %s);" % (acc, BM, BN, rdt))
            kk = self.fresh("kk")
            self.emit("for %s in 0 .. cdiv(KD, %d) {" % (kk, BK))
            opn = "+=" if (intv or ddt == "i8") else "-="
            tr = self.chance(0.3)
            if tr:
                # the same product through a transposed load
                self.emit("    %s %s dot(da[:, ds(%s * %d, %d)], db[ds(%s * %d, %d), :].T.T);" %
                          (acc, opn, kk, BK, BK, kk, BK, BK))
            else:
                self.emit("    %s %s dot(da[:, ds(%s * %d, %d)], db[ds(%s * %d, %d), :]);" %
                          (acc, opn, kk, BK, BK, kk, BK, BK))
            self.emit("}")
            self.bind(V(acc, rdt, (BM, BN), gexact=(ddt == "i8"), rawdot=False))
        else:
            # a dot of computed operands (a cast from another dtype), not accumulated
            a = self.expr((BM, BK), ddt, 1, exact=True)
            b = self.expr((BK, BN), ddt, 1, exact=True)
            if a.weak:
                a = self.make_exact(self.leaf((BM, BK), ddt), (BM, BK))
            if b.weak:
                b = self.make_exact(self.leaf((BK, BN), ddt), (BK, BN))
            self.emit("let %s = dot(%s, %s);" % (acc, a.text, b.text))
            self.bind(V(acc, rdt, (BM, BN), gexact=False, rawdot=(rdt == "f32")))
        self.features.add("dot")

    def atomic_stmt(self):
        f, adt, C = self.atom
        S = (C,)
        v = self.expr(S, adt, 1, exact=False)
        if v.weak and adt in INTS and ("." in v.text or "inf" in v.text):
            v = self.leaf(S, adt)
        mask = ""
        if self.has("masks") and self.chance(0.4):
            mask = ", mask = %s" % self.cond(S, 1).text
        self.emit("%s(acc[...], %s%s);" % (f, v.text, mask))
        # order: a float sum's rounding depends on the order the programs add
        # in, which --grid=persistent changes on the interpreter too
        self.outputs["acc"] = dict(recip=None, gexact=v.gexact and not (adt in FLOATS and f == "atomic_add"),
                                   order=adt in FLOATS and f == "atomic_add")
        self.features.add("atomics")

    def store_out(self, nm, dt, masked):
        v = self.expr(self.base, dt, 0, exact=False, root=True)
        if v.weak and dt in INTS and ("." in v.text or "inf" in v.text or "nan" in v.text):
            v = self.leaf(self.base, dt)
        if v.weak and dt == "bool":
            v = self.leaf(self.base, dt)
        text = v.text
        recip = v.recip
        if self.chance(0.25) and dt in FLOATS:
            # a division by a broadcast divisor: what the reciprocal rewrite changes
            src = dt if dt in RECIP_DTYPES else self.rng.choice(RECIP_DTYPES)
            small = self.rng.choice([(), self.base[-1:]] + ([(self.base[0], 1)] if self.rank == 2 else []))
            a = self.expr(self.base, src, 1, exact=True)
            b = self.expr(small, src, 1, exact=True)
            if not a.weak and not b.weak:
                text = "(%s / %s)" % (a.text, b.text)
                if src != dt:
                    text = "(%s as %s)" % (text, dt)
                recip, v = src, V(text, dt, self.base, gexact=a.gexact and b.gexact)
        if self.rng.random() < 0.15 and dt in FLOATS and self.has("casts"):
            # the root division under one float cast
            src = self.rng.choice(RECIP_DTYPES)
            w = self.expr(self.base, src, 0, exact=False, root=True)
            if not w.weak:
                text, recip, v = "(%s as %s)" % (w.text, dt), w.recip, w
        if masked:
            m = self.cond(self.base, 1)
            self.emit("store(%s[...], %s, mask = %s);" % (nm, text, m.text))
        else:
            self.emit("%s[...] = %s;" % (nm, text))
        self.outputs[nm] = dict(recip=recip, gexact=v.gexact)


def generate(seed, mode="interp", without=()):
    """Returns (source, case): case has params, sizes, outputs (tolerances), features."""
    rng = random.Random(seed)
    g = Gen(rng, mode, without)
    src = g.generate()
    return src, dict(params=g.params, sizes=g.sizes, outputs=g.outputs, features=sorted(g.features),
                     stages=g.stages)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", default="interp", choices=["interp", "gpu"])
    ap.add_argument("--without", action="append", default=[])
    o = ap.parse_args()
    src, case = generate(o.seed, o.mode, o.without)
    print(src, end="")


if __name__ == "__main__":
    main()
