"""The reciprocal rewrite's latitude in fuzz/difftest.py's -O0 vs -O2 rule:
an output marked as x / s (s broadcast) agrees within 1 ulp, and where 1 / s
overflowed at -O2: inf for a finite quotient, NaN for a zero dividend
(0 * inf); anything else still differs, and unmarked outputs are exact."""
import os
import sys
import numpy as np
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "fuzz"))
import difftest  # noqa: E402

f = np.float32
cases = [
    ("one ulp", [f(1.0)], [np.nextafter(f(1.0), f(2.0))]),
    ("two quotients apart", [f(1.0)], [f(1.5)]),
    ("0 vs nan (0 * inf)", [f(0.0)], [f(np.nan)]),
    ("-0 vs nan (0 * inf)", [f(-0.0)], [f(np.nan)]),
    ("1 vs nan", [f(1.0)], [f(np.nan)]),
    ("finite vs inf", [f(3e38)], [f(np.inf)]),
]
for name, a, b in cases:
    for tol, label in (({"recip": "f32"}, "marked"), ({}, "unmarked")):
        r = difftest.compare("f32", np.array(a, f), np.array(b, f), tol, "interp", False)
        print("%s [%s]: %s" % (name, label, "agree" if r is None else "differ"))
