"""debug_check.py: print and assert (tessc -g) against lines computed here.

    debug_check.py --tessc TESSC --tmp DIR [--no-debug]        (the interpreter, tessc run)
    debug_check.py --tessrun TESSRUN --artifacts DIR --tmp DIR [--device gpu|interp]

Runs Inputs/debug.tess's debug_print on random inputs twice: with every k
non-negative, where the printed lines (in any order: GPU threads print in
no defined order) must be exactly the expected set and y = x + 1; then with
one k negative, where the run must fail naming the assert, its message and
the program that failed. --no-debug compiles without -g: nothing printed,
the negative k passes. --artifacts DIR holds debug.manifest.json built with
-g (testsuite/gpu/build-artifacts.sh). Prints "ok ..." and exits 0, or
"FAIL ..." and exits 1.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "Inputs", "debug.tess")
BM, BN = 4, 8


def expected_lines(x, k):
    m, n = x.shape
    lines = []
    for i in range(-(-m // BM)):
        for j in range(-(-n // BN)):
            pid = f"pid ({i}, {j}, 0)"
            bx = np.zeros((BM, BN), np.float32)
            bk = np.zeros((BM, BN), np.int64)
            rows, cols = min(BM, m - i * BM), min(BN, n - j * BN)
            bx[:rows, :cols] = x[i * BM:i * BM + rows, j * BN:j * BN + cols]
            bk[:rows, :cols] = k[i * BM:i * BM + rows, j * BN:j * BN + cols]
            for r in range(BM):
                for c in range(BN):
                    lines.append(f"{pid} idx ({r}, {c}) v: {float(bx[r, c]):.9g}")
                    lines.append(f"{pid} idx ({r}, {c}) k: {int(bk[r, c])}")
            lines.append(f"{pid} total: {float(bx.astype(np.float64).sum()):.9g}")
            lines.append(f"{pid} block")
    return sorted(lines)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessc")
    ap.add_argument("--tessrun")
    ap.add_argument("--artifacts")
    ap.add_argument("--device", default="gpu")
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--no-debug", action="store_true")
    opts = ap.parse_args()
    os.makedirs(opts.tmp, exist_ok=True)
    rng = np.random.default_rng(20261202)
    m, n = 6, 13   # partial blocks in both dims: the padding prints as 0
    # quarters: every value prints the same under %.9g on any printf
    x = (rng.integers(-400, 400, (m, n)) / 4).astype(np.float32)
    k = rng.integers(0, 1000, (m, n)).astype(np.int32)
    if opts.tessrun:
        cmd = [opts.tessrun, "--device", opts.device, os.path.join(opts.artifacts, "debug.manifest.json")]
    else:
        cmd = [opts.tessc, "run", SOURCE, "--device", "interp"] + ([] if opts.no_debug else ["-g"])
    paths = [os.path.join(opts.tmp, f) for f in ("x.npy", "k.npy", "y.npy")]
    np.save(paths[0], x)
    np.save(paths[1], k)
    code, out, err = run(cmd + paths)
    if code != 0:
        print(f"FAIL debug: the run failed (exit {code}): {err.strip()}")
        return 1
    got = sorted(l for l in out.splitlines() if l.startswith("pid "))
    want = [] if opts.no_debug else expected_lines(x, k)
    if got != want:
        missing = sorted(set(want) - set(got))[:5]
        extra = sorted(set(got) - set(want))[:5]
        print(f"FAIL debug: {len(got)} lines printed, {len(want)} expected; missing {missing}, unexpected {extra}")
        return 1
    y = np.load(paths[2])
    if not np.array_equal(y, x + np.float32(1)):
        print("FAIL debug: y != x + 1")
        return 1
    # one negative k, in program (1, 1): the assert fails there
    k[5, 9] = -3
    np.save(paths[1], k)
    code, out, err = run(cmd + paths)
    if opts.no_debug:
        if code != 0:
            print(f"FAIL debug: without -g the assert still ran (exit {code}): {err.strip()}")
            return 1
        print("ok debug (no -g): nothing printed, no assert")
        return 0
    if code != 1 or "assertion failed" not in err or "k is non-negative" not in err or \
            "(1, 1" not in err or "debug.tess:15:5" not in err:
        print(f"FAIL debug: a negative k should fail the assert at debug.tess:15:5 in program (1, 1, ...): "
              f"exit {code}, stderr {err.strip()!r}")
        return 1
    print(f"ok debug: {len(want)} lines printed, the assert failed as it should: {err.strip().splitlines()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
