# clocks_s40.py: session 39's clocks_s38.py (removed; in git at fe69fa5) found bench.py's Timer running
# Tessera's causal D 128 kernel at 1815-1830 MHz (cuDNN's at 1965). This one
# says why: NVML's clock, power and clock-event (throttle) reasons sampled
# every 2 ms, counted only inside the timed calls (the queued method's
# sleep kernel left out), in both orders (Tessera first, cuDNN first) and
# twice in a row for the same implementation (is it the previous run's heat?).
# From the repository root on the GPU machine:
#   python3 bench/experiments/clocks_s40.py --pkg build-benchpkg VARIANT
import argparse, collections, os, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import bench as B
from tessrt import TessRT

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--shape", default="4,4096,16,128")
ap.add_argument("variant")
a = ap.parse_args()
import pynvml
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(0)
reasons_fn = getattr(pynvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
    getattr(pynvml, "nvmlDeviceGetCurrentClocksThrottleReasons")
NAMES = {0x1: "idle", 0x2: "appclk", 0x4: "swpower", 0x8: "hwslow", 0x10: "sync",
         0x20: "swthermal", 0x40: "hwthermal", 0x80: "powerbrake", 0x100: "display"}

def sample():
    t = time.perf_counter()
    clk = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)
    pw = pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0
    rs = reasons_fn(h)
    tmp = pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU)
    return (t, clk, pw, rs, tmp)

class Sampler:
    def __init__(self):
        self.s, self.on = [], True
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()
    def loop(self):
        while self.on:
            self.s.append(sample())
            time.sleep(0.002)
    def stop(self, t0, t1):
        self.on = False
        self.t.join()
        s = [x for x in self.s if t0 <= x[0] <= t1] or self.s
        rs = collections.Counter()
        for x in s:
            names = [n for b, n in NAMES.items() if x[3] & b] or ["none"]
            for n in names:
                rs[n] += 1
        clks = [x[1] for x in s]
        return "SM %4.0f MHz (min %4.0f max %4.0f) %4.0f W %2d C  n=%3d  %s" % (
            statistics.median(clks), min(clks), max(clks), statistics.median(x[2] for x in s),
            max(x[4] for x in s), len(s), " ".join("%s:%d" % kv for kv in sorted(rs.items())))

def queued(call, n=200):
    for i in range(5):
        call(i)
    torch.cuda.synchronize()
    st = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    en = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    torch.cuda._sleep(int(0.4 * 2.0e9))
    for i in range(n):
        st[i].record(); call(i); en[i].record()
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    ms = statistics.median(x.elapsed_time(y) for x, y in zip(st, en))
    total = st[0].elapsed_time(en[-1]) / 1e3
    return ms, t1 - total, t1

rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
shape = tuple(int(x) for x in a.shape.split(","))
timer = B.Timer(torch, budget_ms=150, max_reps=300)
print("start", sample(), flush=True)
for causal in (True, False):
    c = dict(name="attention", group="attention", kind="attention", shape=shape, causal=causal)
    unit, amt = B.amount(c)
    sets = [B.make_inputs(torch, c, 1000)]
    impls = {x[0]: x for x in B.impls_for(torch, c, sets, a.pkg, rt)}
    ours, cudnn = impls["tessera[%s]" % a.variant], impls["torch SDPA cuDNN"]
    for order in ((ours, cudnn, ours, ours), (cudnn, ours, cudnn, cudnn)):
        for name, fw, fac in order:
            call = fac()
            for method in ("bench", "queued"):
                torch.cuda.synchronize(); time.sleep(0.3)
                smp = Sampler()
                if method == "bench":
                    t0 = time.perf_counter()
                    ms = timer.run(call, wall=False)["ms"]
                    t1 = time.perf_counter()
                else:
                    ms, t0, t1 = queued(call)
                print("%-6s %-6s %-40s %7.3f ms %6.1f TF/s  %s" % (
                    "causal" if causal else "full", method, name[:40], ms, amt / ms / 1e9, smp.stop(t0, t1)),
                    flush=True)
        print(flush=True)
