# timer_check.py BENCH_DIR SEED: bench.py's Timer sizes its sleep kernel by the
# CPU's measured issue time per call, without a GPU: a fake torch whose events
# report a random GPU time (the single timed call's also counting the CPU's
# part, as events around a call into an empty queue do), and calls that spend
# a random CPU time, slower or faster than the GPU's. Every call gets a sleep
# of at least 1.5 x n x its issue time, at least 40 us a call, at most 1 s.
import random, sys, time
sys.path.insert(0, sys.argv[1])
import bench as B

rng = random.Random(int(sys.argv[2]))
slept = []

class Event:
    gpu_ms = 0.1
    cpu_ms = 0.0
    first = True
    def __init__(self, enable_timing=True): pass
    def record(self): pass
    def elapsed_time(self, other):
        if Event.first:            # the Timer's single-call estimate: CPU and GPU
            Event.first = False
            return Event.gpu_ms + Event.cpu_ms
        return Event.gpu_ms

class Cuda:
    Event = Event
    @staticmethod
    def synchronize(): pass
    @staticmethod
    def _sleep(cycles): slept.append(cycles)

class Torch:
    cuda = Cuda

for trial in range(6):
    cpu_s = [rng.uniform(0.3e-3, 2e-3), 0.0][trial % 2]
    Event.gpu_ms = [rng.uniform(0.05, 0.3), rng.uniform(0.5, 1.5), rng.uniform(5.0, 8.0)][trial % 3]
    Event.cpu_ms, Event.first = cpu_s * 1e3, True
    def call(i):
        t = time.perf_counter()
        while time.perf_counter() - t < cpu_s:
            pass
    del slept[:]
    t = B.Timer(Torch, budget_ms=20, max_reps=50)
    n = t.run(call, wall=False)["reps"]
    assert len(slept) == 1, (trial, slept)
    s = slept[0] / 2.0e9
    assert s >= min(n * max(1.5 * cpu_s, 40e-6), 1.0) and s <= 1.0, (trial, s, n, cpu_s)
print("timer ok")
