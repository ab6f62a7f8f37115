# ab_pair.py: attention kernels of different artifacts on one shape, interleaved (7 rounds of 20
# launches each, queued behind a sleeping kernel so that launch time is not timed, medians), every
# output checked against torch SDPA in f32. From the repository
# root on the GPU machine:
#   python3 bench/ab_pair.py --pkg DIR --shape B,S,H,D [--causal] LABEL=MANIFEST:KERNEL ...
# DIR holds libtessrt.so (and libcjson.so.1); MANIFEST paths are relative to DIR. The first
# entry is the base: each line gives its TFLOP/s, the largest error and the ratio to the base;
# a last line times torch SDPA's cuDNN back end in the same rounds (the peer).
import argparse, os, statistics, sys
import torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tessrt import TessRT

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--shape", required=True)
ap.add_argument("--causal", action="store_true")
ap.add_argument("entries", nargs="+")
a = ap.parse_args()
B, S, H, D = [int(x) for x in a.shape.split(",")]
rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
st = torch.cuda.current_stream().cuda_stream
torch.manual_seed(0)
q, k, v = [torch.randn(B, S, H, D, device="cuda", dtype=torch.float16) for _ in range(3)]
o = torch.empty_like(q)
ref = torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2).float(), k.transpose(1, 2).float(),
      v.transpose(1, 2).float(), is_causal=a.causal, scale=D ** -0.5).transpose(1, 2)
flops = 4 * B * H * S * S * D * (0.5 if a.causal else 1)
calls = []
for e in a.entries:
    label, rest = e.split("=", 1)
    man, kname = rest.split(":")
    kern = rt.load(os.path.join(a.pkg, man)).kernel(kname)
    how = kern.prepare()
    calls.append((label, kern.bind(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), D ** -0.5, B, S, H, S), how))
from torch.nn.attention import sdpa_kernel, SDPBackend
qt, kt, vt = [x.transpose(1, 2).contiguous() for x in (q, k, v)]
checking = False  # the check launches copy cuDNN's output into o; the timed ones do not


def cudnn(_st):
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        out = torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, is_causal=a.causal, scale=D ** -0.5)
    if checking:
        o.copy_(out.transpose(1, 2))


calls.append(("cudnn", cudnn, "torch SDPA cuDNN"))
times = {c[0]: [] for c in calls}
errs = {}
for rep in range(7):
    for label, call, _ in calls:
        o.zero_()
        checking = True
        for _ in range(2): call(st)
        torch.cuda.synchronize()
        checking = False
        errs[label] = float((o.float() - ref).abs().max())
        e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
        if hasattr(torch.cuda, "_sleep"):   # the calls queue behind it: launch time is not timed
            torch.cuda._sleep(int(2e7))
        e0.record()
        for _ in range(20): call(st)
        e1.record(); torch.cuda.synchronize(); times[label].append(e0.elapsed_time(e1) / 20)
base = statistics.median(times[calls[0][0]])
for label, _, how in calls:
    t = statistics.median(times[label])
    print("%-14s (%d,%d,%d,%d)%s %7.1f TF/s err %.1e  x%.3f  [%s]" % (label, B, S, H, D, " causal" if a.causal else "",
          flops / t / 1e9, errs[label], base / t, how), flush=True)
