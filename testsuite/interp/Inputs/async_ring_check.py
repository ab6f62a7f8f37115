"""async_ring_check.py TESSC RING.tir TMP KERNEL STAGES [TESSC-OPTIONS...]

Runs a cp.async ring kernel of async-ring.tir (x in f32[R, N], y inout
f32[R, N], s out f32[R], L scalar) on the interpreter for several (N, L) and
compares with numpy. The loop runs cdiv(L, 8) blocks of 8 columns; each
landed block is stored to y and summed into s. Column c of a landed block is
x[:, c] where c < L and c < N, else 0 (masked off, or past the array).
"""
import subprocess
import sys

import numpy as np

tessc, tir, tmp, kernel, stages = sys.argv[1:6]
options = sys.argv[6:]
stages = int(stages)
rng = np.random.default_rng(14)
R = 3
# (N, L): trips 0; 1 with L < N; 2 with N not a multiple of 8 (fewer than
# 3 stages); 3 with L < N; 5 with L > N (blocks partly and wholly past the
# array, whose elements must land as 0); 8 with N = L not a multiple of 8.
cases = [(20, 0), (13, 5), (13, 13), (24, 19), (21, 37), (61, 61)]
trips = []
for n, limit in cases:
    x = rng.standard_normal((R, n)).astype(np.float32)
    y = rng.standard_normal((R, n)).astype(np.float32)
    np.save("%s/x.npy" % tmp, x)
    np.save("%s/y.npy" % tmp, y)
    subprocess.run([tessc, "run", tir, "-k", kernel, "--device", "interp"] + options +
                   ["%s/x.npy" % tmp, "%s/y.npy" % tmp, "%s/s.npy" % tmp, str(limit)], check=True)
    got_y = np.load("%s/y.npy" % tmp)
    got_s = np.load("%s/s.npy" % tmp)
    blocks = (limit + 7) // 8
    want_y = y.copy()
    landed = min(blocks * 8, n)
    cols = np.arange(landed)
    want_y[:, :landed] = np.where(cols < limit, x[:, :landed], 0)
    want_s = x[:, :min(limit, n)].astype(np.float64).sum(axis=1)
    assert (got_y == want_y).all(), (kernel, n, limit, got_y, want_y)
    assert np.allclose(got_s, want_s, rtol=1e-5, atol=1e-5), (kernel, n, limit, got_s, want_s)
    trips.append(blocks)
print("trips", *trips)
print("ok")
