# energy_s40.py: energy per call of Tessera's kernel and the peer's, to test
# session 40's reading of the paired rounds (docs/performance.md, "Session
# 40"): under the power cap a kernel that spends more energy per FLOP is
# clocked lower, so a kernel level with its peer in a short burst falls
# behind under sustained load. For each implementation: 3 rounds, each 400
# calls queued behind a sleep kernel (all back to back on the GPU), NVML's
# total energy counter read before the first and after the last call (the
# sleep's share subtracted at the idle-spin power measured just before),
# the SM clock sampled meanwhile. Prints mJ a call, TFLOP/s, TFLOP/J.
# Run s40-4 (H100) found NVML's energy counter too coarse for windows of
# 80-400 ms (the same kernel read 102-167 mJ a call across rounds), so each
# window is now at least --window-ms long (default 3000): not yet run so.
# From the repository root on the GPU machine:
#   python3 bench/experiments/energy_s40.py --pkg build-benchpkg CASE=VARIANT...
# CASE is "matmul f16 4096^3" style (bench.py's case names, '_' for ' ').
import argparse, os, statistics, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import bench as B
from tessrt import TessRT
import pynvml

ap = argparse.ArgumentParser()
ap.add_argument("--pkg", required=True)
ap.add_argument("--calls", type=int, default=400)
ap.add_argument("--window-ms", type=float, default=3000.0)
ap.add_argument("pairs", nargs="+")
a = ap.parse_args()
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(0)
energy = lambda: pynvml.nvmlDeviceGetTotalEnergyConsumption(h)   # mJ since driver load

def clocks(stop, out):
    while not stop:
        out.append(pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM))
        time.sleep(0.005)

def measure(call, n):
    for i in range(5):
        call(i)
    torch.cuda.synchronize()
    time.sleep(0.5)
    # the sleep kernel's own energy: spin alone first, same length
    spin_s = 0.3
    e0 = energy(); torch.cuda._sleep(int(spin_s * 2.0e9)); torch.cuda.synchronize(); e1 = energy()
    spin_mj = e1 - e0
    time.sleep(0.5)
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    cl = []
    stop = []
    t = threading.Thread(target=clocks, args=(stop, cl)); t.start()
    e0 = energy()
    torch.cuda._sleep(int(spin_s * 2.0e9))
    st.record()
    for i in range(n):
        call(i)
    en.record()
    torch.cuda.synchronize()
    e1 = energy()
    stop.append(1); t.join()
    ms = st.elapsed_time(en) / n
    return (e1 - e0 - spin_mj) / n, ms, statistics.median(cl) if cl else 0

rt = TessRT(os.path.join(a.pkg, "libtessrt.so"))
cases = {c["name"]: c for c in B.case_list()}
for pair in a.pairs:
    cname, variant = pair.split("=")
    c = cases[cname.replace("_", " ")]
    unit, amt = B.amount(c)
    sets = [B.make_inputs(torch, c, 1000 + i) for i in range(4)]
    impls = {x[0]: x for x in B.impls_for(torch, c, sets, a.pkg, rt)}
    peer = "cuBLAS (torch.matmul)" if c["kind"] == "matmul" else "torch SDPA cuDNN"
    for rnd in range(3):
        for name in ("tessera[%s]" % variant, peer):
            call = impls[name][2]()
            st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            call(0); st.record(); call(1); en.record(); torch.cuda.synchronize()
            n = max(a.calls, int(a.window_ms / max(st.elapsed_time(en), 1e-3)))
            mj, ms, clk = measure(call, n)
            tf = amt / ms / 1e9
            print("%-22s round %d %-48s %8.2f mJ/call %7.4f ms %6.1f TF/s %5.2f TFLOP/J  SM %4.0f MHz" % (
                c["name"], rnd, name[:48], mj, ms, tf, amt / (mj * 1e-3) / 1e12, clk), flush=True)
    del sets
    torch.cuda.empty_cache()
