"""Tessera's rand/randint/randn against Triton's tl.rand/tl.randint/tl.randn
(docs/language.md 9.13), on the GPU machine where Triton is installed.

check.py's random-bits and dropout cases hold Tessera (GPU and interpreter)
to a Python Philox 4x32-10, bit for bit; this holds Triton to the same
Python Philox, so the two agree with each other. Prints one line per check
and "N passed, N failed"; exits 0 when Triton or a GPU is missing (nothing
to compare with)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interp"))
from check import philox, uniform_of_bits  # noqa: E402

try:
    import torch
    import triton
    import triton.language as tl
except ImportError:
    print("skipped: no triton")
    sys.exit(0)
if not torch.cuda.is_available():
    print("skipped: no CUDA device")
    sys.exit(0)


@triton.jit
def triton_random(seed, offs_ptr, r_ptr, k_ptr, n_ptr, N, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    o = tl.load(offs_ptr + i, mask=m)
    tl.store(r_ptr + i, tl.rand(seed, o), mask=m)
    tl.store(k_ptr + i, tl.randint(seed, o.to(tl.uint32, bitcast=True)).to(tl.int32, bitcast=True), mask=m)
    tl.store(n_ptr + i, tl.randn(seed, o), mask=m)


passed = failed = 0
rng = np.random.default_rng(7)
n = 4096
for seed in (0, 1234, -5, 2 ** 31 - 1):
    offs = np.concatenate([[0, 1, -1, 2 ** 31 - 1, -2 ** 31], rng.integers(-2 ** 31, 2 ** 31, n - 5)]).astype(np.int32)
    o = torch.from_numpy(offs).cuda()
    r, k, nn = torch.empty(n, device="cuda"), torch.empty(n, dtype=torch.int32, device="cuda"), torch.empty(n, device="cuda")
    triton_random[(n // 256,)](seed, o, r, k, nn, n, BLOCK=256)
    four = [philox(seed, int(v)) for v in offs]
    bits = np.array([t[0] for t in four], dtype=np.int64)
    want_r = uniform_of_bits(bits)
    u1, u2 = uniform_of_bits(bits).astype(np.float64), uniform_of_bits([t[1] for t in four]).astype(np.float64)
    want_n = np.sqrt(-2.0 * np.log(np.maximum(1e-7, u1))) * np.cos(np.float32(6.283185307179586) * u2)
    got_k = k.cpu().numpy().astype(np.int64) & 0xFFFFFFFF
    for name, ok in (("randint", np.array_equal(got_k, bits)),
                     ("rand", np.array_equal(r.cpu().numpy().view(np.uint32), want_r.view(np.uint32))),
                     ("randn", np.allclose(nn.cpu().numpy(), want_n, rtol=1e-4, atol=1e-4))):
        print("%s: %s seed %d" % ("PASS" if ok else "FAIL", name, seed))
        passed += ok
        failed += not ok
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
