# paired_check.py BENCH_DIR SEED: bench.py's paired rounds and table without a
# GPU. A fake timer returns random times drawn here; the check recomputes each
# row's median of rounds and the table's ratio from those draws, and that the
# rounds alternate (a b, b a, ...).
import random, sys
sys.path.insert(0, sys.argv[1])
import bench as B

rng = random.Random(int(sys.argv[2]))
order, draws = [], {}

class FakeTimer:
    def run(self, call, wall=True):
        assert wall is False
        ms = rng.uniform(0.5, 1.5)
        order.append(call.name)
        draws.setdefault(call.name, []).append(ms)
        return {"ms": ms}

def fac(name):
    def make():
        f = lambda i: None
        f.name = name
        return f
    return make

def row(impl, fw, ms):
    return dict(case="c", group="g", impl=impl, framework=fw, unit="TF/s", ms=ms, ok=True, rate=1.0, rel_err=1e-4)

names = ["tessera[a]", "tessera[b]", "cuDNN", "Triton"]
fws = ["tessera", "tessera", "torch", "triton"]
sweep = [rng.uniform(0.5, 1.5) for _ in names]
rows = [row(n, f, ms) for n, f, ms in zip(names, fws, sweep)]
facs = {n: fac(n) for n in names}
B.paired(None, FakeTimer(), rows, facs, deadline=float("inf"))

best_t = min(rows[:2], key=lambda r: r["ms"])["impl"]
best_p = min(rows[2:], key=lambda r: r["ms"])["impl"]
expect = []
for rnd in range(B.PAIRED_ROUNDS):
    expect += [best_t, best_p] if rnd % 2 == 0 else [best_p, best_t]
assert order == expect, (order, expect)
med = {n: sorted(v)[len(v) // 2] for n, v in draws.items()}
for r in rows:
    if r["impl"] in med:
        assert r["paired_ms"] == med[r["impl"]] and r["paired_with"] in (best_t, best_p)
    else:
        assert "paired_ms" not in r
want = "%.2fx" % (med[best_p] / med[best_t])
line = [l for l in B.table(rows, None).splitlines() if l.split()[1:2] == [best_t]][0]
assert line.split()[-3] == want, (line, want)
# a row paired with someone else is compared by the sweep's times
rows2 = [dict(r) for r in rows]
for r in rows2:
    if r.get("paired_with"):
        r["paired_with"] = "someone else"
line = [l for l in B.table(rows2, None).splitlines() if l.split()[1:2] == [best_t]][0]
sw = {r["impl"]: r["ms"] for r in rows}
assert line.split()[-3] == "%.2fx" % (sw[best_p] / sw[best_t]), line
print("paired ok: %d rounds, ratio %s" % (B.PAIRED_ROUNDS, want))
