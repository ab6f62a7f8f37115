# fp8_pair.py: fp8 matmuls of different artifacts at M = N = K = S, interleaved (7 rounds of 20
# launches each, queued behind a sleeping kernel so that launch time is not timed, medians,
# warm L2), every output checked against a float32 product of the same
# fp8 values; torch._scaled_mm (cuBLASLt fp8, B column-major) and torch.matmul in f16 for scale.
# From the repository root on the GPU machine:
#   python3 bench/fp8_pair.py --pkg DIR --size S LABEL=MANIFEST:KERNEL[:bt] ...
# A kernel takes (a: f8e4m3[M, K], b: f8e5m2[K, N], c: out f32[M, N]), or with ':bt'
# (a: f8e5m2[M, K], x: f8e4m3[N, K], c) (testsuite/interp/Inputs/fp8_dot.tess, fp8_mm and fp8_bt).
import argparse, os, statistics, sys
import torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tessrt import TessRT

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--size", type=int, default=4096)
ap.add_argument("entries", nargs="+")
a = ap.parse_args()
S = a.size
rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
st = torch.cuda.current_stream().cuda_stream
torch.manual_seed(0)
A = (torch.randn(S, S, device="cuda") * 4).to(torch.float8_e4m3fn)
A5 = (torch.randn(S, S, device="cuda") * 4).to(torch.float8_e5m2)
B5 = (torch.randn(S, S, device="cuda") * 4).to(torch.float8_e5m2)
X4 = (torch.randn(S, S, device="cuda") * 4).to(torch.float8_e4m3fn)   # [N, K]
C = torch.empty(S, S, device="cuda", dtype=torch.float32)
ref_mm = A.float() @ B5.float()
ref_bt = A5.float() @ X4.float().T
flops = 2 * S ** 3
calls = []
for e in a.entries:
    label, rest = e.split("=", 1)
    parts = rest.split(":")
    kern = rt.load(os.path.join(a.pkg, parts[0])).kernel(parts[1])
    bt = len(parts) > 2 and parts[2] == "bt"
    how = kern.prepare()
    other = X4 if bt else B5
    calls.append((label, kern.bind((A5 if bt else A).data_ptr(), other.data_ptr(), C.data_ptr(), S, S, S), how, bt))
one = torch.ones((), device="cuda")
peers = [("cublas fp8 (scaled_mm, b col-major)",
          lambda: torch._scaled_mm(A, X4.T, scale_a=one, scale_b=one, out_dtype=torch.float32)),
         ("cublas f16", (lambda a16, b16: (lambda: a16 @ b16))(A.half(), B5.half()))]


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
times.update({p[0]: [] for p in peers})
for rep in range(7):
    for label, call, _, _ in calls:
        times[label].append(timed(lambda: call(st)))
    for label, fn in peers:
        times[label].append(timed(fn))
for label, call, how, bt in calls:
    C.fill_(float("nan")); call(st); torch.cuda.synchronize()
    ref = ref_bt if bt else ref_mm
    err = ((C - ref).norm() / ref.norm()).item()
    t = statistics.median(times[label])
    print(f"{label:32s} {flops / t / 1e12:7.1f} TFLOP/s  rel err {err:.2e}  ({how})")
for label, _ in peers:
    t = statistics.median(times[label])
    print(f"{label:32s} {flops / t / 1e12:7.1f} TFLOP/s")
