"""Unit checks of fuzz/diffgen.py's gpu-mode exactness marking around
contraction: a float value that may be one fma on the GPU (docs/language.md
7.2, "Contraction") must not be marked as computed exactly (gexact). The
generator's random choices are scripted so each case builds one statement.
Found by the GPU fuzz run (seed 2850): `var v5 = t4 * t4; if c { v5 -= t4; }`
was one fma.rn.f16 on the GPU, then cast to u32, compared exactly."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "fuzz"))
import diffgen  # noqa: E402
from diffgen import V  # noqa: E402


class Script:
    """random.Random stand-in: random() gives 0.0 (every chance() is true),
    choice() takes the next scripted value when it is among the options."""

    def __init__(self, picks):
        self.picks = list(picks)

    def random(self):
        return 0.0

    def choice(self, options):
        if self.picks and self.picks[0] in options:
            return self.picks.pop(0)
        return options[0]


failures = []


def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def update(var, e, picks, emitted_form):
    g = diffgen.Gen(Script(picks), "gpu", ())
    g.expr = lambda *a, **k: e
    if emitted_form == "compound":
        # chance(0.5) is true: the `v op= e` form
        g.var_update(var)
    else:
        # the `v = (v op e)` form: the first chance() false, then scripted
        answers = iter([False] + [True] * 10)
        g.chance = lambda p: next(answers)
        g.var_update(var)
    return g.lines[-1].strip()


plain = V("t2", "f32", (4,))
prod = V("(t2 * t3)", "f32", (4,), prod=True)

# 1. the var's initializer is a product, the update subtracts a plain value
var = V("v1", "f32", (4,), prod=True)
line = update(var, plain, ["-="], "compound")
check("var v = a * b; %s  -> not exact" % line, not var.gexact)

# 2. the `v = (v + e)` form with a product e
var = V("v1", "f32", (4,))
line = update(var, prod, ["+"], "assign")
check("%s  (e a product) -> not exact" % line, not var.gexact)

# 3. the `v = (v - e)` form with a product initializer
var = V("v1", "f32", (4,), prod=True)
line = update(var, plain, ["-"], "assign")
check("var v = a * b; %s  -> not exact" % line, not var.gexact)

# 4. an update does not forget the initializer's product: the else branch
#    of an if reads the same initializer as the then branch
var = V("v1", "f32", (4,), prod=True)
update(var, plain, ["max"], "assign")
check("after a max update, the initializer's product is kept for the next branch", var.prod)

# 5. `v *= e` leaves a product (an if on a constant condition folds away)
var = V("v1", "f32", (4,))
update(var, plain, ["*="], "compound")
check("v *= e makes a product for what reads v afterwards", var.made_prod)

# 6. an integer var is exact whatever the update
var = V("v1", "i32", (4,), prod=True)
update(var, V("t2", "i32", (4,)), ["-="], "compound")
check("integer var stays exact", var.gexact)

# 7. -(a * b) is still a product (fneg of an fmul feeds an fma) and so is a
#    broadcast of one
g = diffgen.Gen(Script([]), "gpu", ())
e = g.embed(V("p", "f32", (4,), prod=True), (2, 4))
check("a broadcast of a product is a product", e is not None and e.prod)
g.expr = lambda *a, **k: V("(t2 * t3)", "f32", (4,), prod=True)
n = g.unary((4,), "f32", 1, True)
check("%s is a product" % n.text, n.text.startswith("(-") and n.prod)

if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
print("all passed")
