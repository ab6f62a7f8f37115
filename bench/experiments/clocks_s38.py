# clocks_s38.py: why bench.py times Tessera's D 128 attention 7-9% slower than
# bench/ab_pair.py does while cuDNN's kernel times the same in both (run
# s38-1). Suspect: duty cycle. bench.py times each implementation with n
# back-to-back calls (no sleep kernel for calls over 0.2 ms): Tessera's
# launches keep the GPU busy the whole 150 ms, torch SDPA's cuDNN calls cost
# about as much CPU time as GPU time, so the GPU idles between them and runs
# at a higher clock. This times both with bench.py's own Timer (method
# "bench") and queued behind one long sleep kernel so that every call runs
# back to back (method "queued"), sampling the SM clock and power with NVML
# in a thread meanwhile. From the repository root on the GPU machine:
#   python3 bench/experiments/clocks_s38.py --pkg build-benchpkg VARIANT...
import argparse, os, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import bench as B
from tessrt import TessRT

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--shape", default="4,4096,16,128")
ap.add_argument("variants", nargs="+")
a = ap.parse_args()
try:
    import pynvml
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    def sample():
        return (pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM), pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0)
except Exception as e:
    print("no pynvml:", e)
    sample = None

class Sampler:
    def __init__(self):
        self.s, self.on = [], True
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()
    def loop(self):
        while self.on:
            if sample:
                self.s.append(sample())
            time.sleep(0.01)
    def stop(self):
        self.on = False
        self.t.join()
        if not self.s:
            return "-"
        return "SM %4.0f MHz (min %4.0f), %5.0f W" % (statistics.median(x[0] for x in self.s),
                                                    min(x[0] for x in self.s), statistics.median(x[1] for x in self.s))

def queued(call, n=200):
    for i in range(5):
        call(i)
    torch.cuda.synchronize()
    st = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    torch.cuda._sleep(int(0.4 * 2.0e9))    # 0.2-0.4 s: the CPU queues all n calls meanwhile
    for i in range(n):
        st[i].record(); call(i); en[i].record()
    torch.cuda.synchronize()
    return statistics.median(x.elapsed_time(y) for x, y in zip(st, en))

rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
shape = tuple(int(x) for x in a.shape.split(","))
timer = B.Timer(torch, budget_ms=150, max_reps=300)
for causal in (False, True):
    c = dict(name="attention", group="attention", kind="attention", shape=shape, causal=causal)
    unit, amt = B.amount(c)
    sets = [B.make_inputs(torch, c, 1000)]
    impls = [x for x in B.impls_for(torch, c, sets, a.pkg, rt)
             if x[0] == "torch SDPA cuDNN" or any(x[0] == "tessera[%s]" % v for v in a.variants)]
    for rnd in range(2):
        for name, fw, fac in impls:
            call = fac()
            for method in ("bench", "queued"):
                torch.cuda.synchronize(); time.sleep(0.3)
                smp = Sampler()
                ms = timer.run(call, wall=False)["ms"] if method == "bench" else queued(call)
                print("%-7s round %d %-6s %-45s %7.3f ms %6.1f TF/s  %s" % (
                    "causal" if causal else "full", rnd, method, name, ms, amt / ms / 1e9, smp.stop()), flush=True)
