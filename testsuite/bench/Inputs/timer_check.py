# timer_check.py BENCH_DIR SEED: bench.py's Timer sizes its sleep kernel by the
# CPU's measured issue time per call, without a GPU: a fake torch whose events
# report a random GPU time, and calls that spend a random CPU time. The sleep
# must cover n calls' CPU time whenever the CPU side is the slower one, and a
# call much faster on the CPU than on the GPU (over 0.2 ms) gets none.
import random, sys, time
sys.path.insert(0, sys.argv[1])
import bench as B

rng = random.Random(int(sys.argv[2]))
slept = []

class Event:
    gpu_ms = 0.1
    def __init__(self, enable_timing=True): pass
    def record(self): pass
    def elapsed_time(self, other): return Event.gpu_ms

class Cuda:
    Event = Event
    @staticmethod
    def synchronize(): pass
    @staticmethod
    def _sleep(cycles): slept.append(cycles)

class Torch:
    cuda = Cuda

for trial in range(4):
    cpu_s = rng.uniform(0.5e-3, 2e-3)
    Event.gpu_ms = rng.uniform(0.05, 0.3) if trial % 2 == 0 else rng.uniform(5.0, 8.0)
    def call(i):
        t = time.perf_counter()
        while time.perf_counter() - t < cpu_s:
            pass
    del slept[:]
    t = B.Timer(Torch, budget_ms=20, max_reps=50)
    r = t.run(call, wall=False)
    n = r["reps"]
    if cpu_s * 1e3 > Event.gpu_ms:
        assert len(slept) == 1 and slept[0] >= n * cpu_s * 2.0e9, (trial, slept, n, cpu_s)
    else:
        assert slept == [], (trial, slept, cpu_s, Event.gpu_ms)
print("timer ok")
