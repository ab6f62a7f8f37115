"""Checks fuzz/difftest.py's comparison rule on hand-made output pairs: a NaN
equals any NaN on a float output (bf16 and f16 as their raw bits too), in both
modes; -0 is not +0, inf is not -inf, and an integer output is compared bit for
bit even where its bits look like a NaN's. Prints one line per pair."""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "fuzz"))
import difftest  # noqa: E402

u16, f16, f32, f64 = np.uint16, np.float16, np.float32, np.float64


def bits(dtype, view, *words):
    return np.array(words, view).view(dtype)


PAIRS = [
    # (label, dtype, run A, run B)
    ("bf16 nan 7fff vs ffc0", "bf16", np.array([0x7FFF, 1], u16), np.array([0xFFC0, 1], u16)),
    ("bf16 nan 7fc0 vs ffc0", "bf16", np.array([0x7FC0], u16), np.array([0xFFC0], u16)),
    ("bf16 nan 7f81 vs 7fff", "bf16", np.array([0x7F81], u16), np.array([0x7FFF], u16)),
    ("bf16 inf vs nan", "bf16", np.array([0x7F80], u16), np.array([0x7FC0], u16)),
    ("bf16 +0 vs -0", "bf16", np.array([0x0000], u16), np.array([0x8000], u16)),
    ("f16 nan 7fff vs fe00", "f16", bits(f16, u16, 0x7FFF), bits(f16, u16, 0xFE00)),
    ("f16 inf vs nan", "f16", bits(f16, u16, 0x7C00), bits(f16, u16, 0x7E00)),
    ("f32 nan 7fffffff vs ffc00000", "f32", bits(f32, np.uint32, 0x7FFFFFFF), bits(f32, np.uint32, 0xFFC00000)),
    ("f32 inf vs -inf", "f32", np.array([np.inf], f32), np.array([-np.inf], f32)),
    ("f32 nan vs 1", "f32", np.array([np.nan], f32), np.array([1.0], f32)),
    ("f64 nan payloads", "f64", bits(f64, np.uint64, 0x7FF8000000000001), bits(f64, np.uint64, 0xFFF8000000000000)),
    ("f64 +0 vs -0", "f64", np.array([0.0], f64), np.array([-0.0], f64)),
    ("i32 with nan-like bits", "i32", np.array([0x7FC00000], np.int32), np.array([0x7FC00001], np.int32)),
    ("i16 with nan-like bits", "i16", np.array([0x7FFF], np.int16), np.array([0x7E00], np.int16)),
]

for label, dt, a, b in PAIRS:
    for mode, tol in (("interp", {}), ("gpu", {"gexact": True}), ("gpu", {})):
        why = difftest.compare(dt, a, b, tol, mode, False)
        print("%s [%s%s]: %s" % (label, mode, " exact" if tol else "", "agree" if why is None else "differ"))
