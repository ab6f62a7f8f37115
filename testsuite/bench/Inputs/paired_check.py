# paired_check.py BENCH_DIR SEED: bench.py's paired rounds and table without a
# GPU. A fake timer returns random times drawn here; the check recomputes from
# those draws which rows were timed (each side's sweep winner and its
# runner-up within 3%), the order of the rounds (forward, backward, ...),
# each row's median, the two headlines and the table's ratio; and that rows
# which must not be paired (one-output rows, a wrong output, no timing, no
# factory: Pallas) are not, that a timer error or a spent deadline pairs
# nothing, and that the table then falls back to the sweep's times.
import random, sys
sys.path.insert(0, sys.argv[1])
import bench as B

rng = random.Random(int(sys.argv[2]))
order, draws = [], {}

class FakeTimer:
    fail = False
    def run(self, call, wall=True):
        assert wall is False
        if FakeTimer.fail:
            raise RuntimeError("launch failed")
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

def row(impl, fw, ms, ok=True):
    return dict(case="c", group="g", impl=impl, framework=fw, unit="TF/s", ms=ms, ok=ok, rate=1.0, rel_err=1e-4)

def make_rows():
    t, p = rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5)
    near = rng.choice([1.02, 1.05])                 # a runner-up inside or outside the 3% margin
    rows = [row("tessera[a]", "tessera", t), row("tessera[b]", "tessera", t * near),
            row("tessera[c_sm80]", "tessera", t * 1.3), row("tessera[d]", "tessera", t * 0.5, ok=False),
            row("tessera[e]", "tessera", None), row("tessera[a] one output", "tessera-one-output", t * 0.4),
            row("torch eager, allocating", "torch-one-output", p * 0.4),
            row("cuDNN", "torch", p), row("Triton", "triton", p * rng.choice([1.01, 1.2])),
            row("flash", "torch", p * 1.5), row("JAX Pallas", "pallas", p * 0.9)]
    facs = {r["impl"]: fac(r["impl"]) for r in rows if r["framework"] != "pallas"}
    return rows, facs

# 1. the rounds
rows, facs = make_rows()
B.paired(None, FakeTimer(), rows, facs, deadline=float("inf"))
ms = {r["impl"]: r["ms"] for r in rows}
side_t = [n for n in ("tessera[a]", "tessera[b]") if ms[n] <= ms["tessera[a]"] * B.PAIRED_MARGIN]
side_p = [n for n in ("cuDNN", "Triton") if ms[n] <= ms["cuDNN"] * B.PAIRED_MARGIN]
cand = side_t + side_p
expect = []
for rnd in range(B.PAIRED_ROUNDS):
    expect += cand if rnd % 2 == 0 else cand[::-1]
assert order == expect, (order, expect)
med = {n: sorted(v)[len(v) // 2] for n, v in draws.items()}
head_t, head_p = min(side_t, key=med.get), min(side_p, key=med.get)
by = {r["impl"]: r for r in rows}
for r in rows:
    if r["impl"] in cand:
        assert r["paired_ms"] == med[r["impl"]] and r["paired_rounds_ms"] == draws[r["impl"]]
    else:
        assert "paired_ms" not in r and "paired_with" not in r and "paired_headline" not in r, r["impl"]
for n in cand:
    assert by[n]["paired_with"] == (head_p if n in side_t else head_t), (n, by[n]["paired_with"])
    assert by[n]["paired_headline"] == (n in (head_t, head_p)), n

def ratio_of(rows, impl):
    line = [l for l in B.table(rows, None).splitlines() if l.split()[1:2] == [impl] or l[35:].startswith(impl + " ")]
    return line[0][123:133].strip()

want = "%.2fx" % (med[head_p] / med[head_t])
assert ratio_of(rows, head_t) == want, (ratio_of(rows, head_t), want)
assert ratio_of(rows, "tessera[c_sm80]") == "%.2fx s" % (ms[head_p] / ms["tessera[c_sm80]"])

# 2. nothing paired: a timer that fails, a spent deadline; the table uses the sweep's times
for how in ("fail", "deadline"):
    rows, facs = make_rows()
    FakeTimer.fail = how == "fail"
    B.paired(None, FakeTimer(), rows, facs, deadline=float("inf") if how == "fail" else 0.0)
    FakeTimer.fail = False
    assert not any("paired_ms" in r or "paired_headline" in r for r in rows), how
    ms = {r["impl"]: r["ms"] for r in rows}
    best_peer = min(("cuDNN", "Triton", "flash", "JAX Pallas"), key=ms.get)
    assert ratio_of(rows, "tessera[a]") == "%.2fx s" % (ms[best_peer] / ms["tessera[a]"]), how
print("paired ok: %d rounds, %d timed, ratio %s" % (B.PAIRED_ROUNDS, len(cand), want))
