# ab_matmul.py: f16 (or bf16) matmuls of different artifacts at M = N = K = S, interleaved
# (7 rounds of 20 launches each, queued behind a sleeping kernel so that launch time is not
# timed, medians, warm L2), every output checked against a float32
# product, with torch.matmul (cuBLAS) in the same rounds. From the repository root on the GPU
# machine:
#   python3 bench/ab_matmul.py --pkg DIR --size S [--bf16] LABEL=MANIFEST:KERNEL ...
# DIR holds libtessrt.so (and libcjson.so.1); MANIFEST paths are relative to DIR. A kernel
# takes (a[M, K], b[K, N], c: out [M, N], M, N, K) as bench/kernels/matmul.tess does. The first
# entry is the base: each line gives its TFLOP/s, the relative error and the ratio to the base
# (for comparing --hopper-schedule builds of one variant: docs/codegen.md).
import argparse, os, statistics, sys
import torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tessrt import TessRT

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--size", type=int, default=4096)
ap.add_argument("--bf16", action="store_true")
ap.add_argument("entries", nargs="+")
a = ap.parse_args()
S = a.size
dt = torch.bfloat16 if a.bf16 else torch.float16
rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
st = torch.cuda.current_stream().cuda_stream
torch.manual_seed(0)
A = torch.randn(S, S, device="cuda", dtype=dt)
B = torch.randn(S, S, device="cuda", dtype=dt)
C = torch.empty(S, S, device="cuda", dtype=dt)
ref = A.float() @ B.float()
flops = 2 * S ** 3
calls = []
for e in a.entries:
    label, rest = e.split("=", 1)
    man, kname = rest.split(":")
    kern = rt.load(os.path.join(a.pkg, man)).kernel(kname)
    how = kern.prepare()
    calls.append((label, kern.bind(A.data_ptr(), B.data_ptr(), C.data_ptr(), S, S, S), how))


def timed(fn):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn(); torch.cuda.synchronize()
    if hasattr(torch.cuda, "_sleep"):   # the calls queue behind it: launch time is not timed
        torch.cuda._sleep(int(2e7))
    e0.record()
    for _ in range(20): fn()
    e1.record(); torch.cuda.synchronize()
    return e0.elapsed_time(e1) / 20 * 1e-3


times = {c[0]: [] for c in calls}
times["cublas"] = []
for rep in range(7):
    for label, call, _ in calls:
        times[label].append(timed(lambda: call(st)))
    times["cublas"].append(timed(lambda: A @ B))
base = statistics.median(times[calls[0][0]])
for label, call, how in calls:
    C.fill_(float("nan")); call(st); torch.cuda.synchronize()
    err = ((C.float() - ref).norm() / ref.norm()).item()
    t = statistics.median(times[label])
    print(f"{label:24s} {S}^3 {flops / t / 1e12:7.1f} TFLOP/s  rel err {err:.1e}  x{base / t:.3f}  ({how})", flush=True)
t = statistics.median(times["cublas"])
print(f"{'cublas':24s} {S}^3 {flops / t / 1e12:7.1f} TFLOP/s  x{base / t:.3f}")
