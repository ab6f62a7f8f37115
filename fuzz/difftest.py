"""difftest.py: differential testing of tessc on random kernels (fuzz/diffgen.py).

Each kernel is compiled once alone (`tessc FILE --emit ir`: a sema rejection
is a finding, a generator bug or a compiler bug), then run on the same
random inputs twice:

  --device interp (default): `tessc run FILE -O0 --device interp ...` against
      `-O2`. The passes must not change what a kernel computes: outputs are
      compared bit for bit, except an output the generator marks as coming
      from the documented reciprocal rewrite (docs/language.md 7.2,
      docs/ir.md `fold`): `x / s` with `s` broadcast may be `x * (1/s)`
      at -O1 and above, within 1 ulp of the division's dtype (plus the
      rounding of one float cast after it). A NaN equals any NaN (its sign
      and payload are unspecified, docs/language.md 7.2); -0 is not +0.
  --device gpu: `tessc run FILE --device gpu` (the GPU, through the tessrun
      beside tessc) against `tessc run FILE --device interp`, both at -O2.
      Integer and bool outputs exactly; float outputs whose value the GPU
      may compute differently (see diffgen.py: FMA contraction, approximate
      exp/exp2/rsqrt and libdevice math, tree-ordered float sums, tf32 and
      tensor-core dot order, float atomics in any order) within
      |gpu - interp| <= rtol * |interp| + rtol * max|interp| of that output,
      rtol per dtype: f64 2e-5 (an f64 output may hold a widened f32), f32 2e-5 (1e-2 with an f32 dot: tf32 keeps
      10 mantissa bits), f16 4e-3, bf16 3e-2 (check.py's, the GPU suite's);
      NaN where NaN, infinities of the same sign. A float output that the
      generator marks exact on the GPU too is compared bit for bit (a NaN
      equals any NaN there too; -0 is not +0).

Findings: a rejection, a disagreement, an exit status 2 or 3, a signal or a
timeout of either run, and an interpreter error in only one run. An
interpreter error in both runs is a generator bug (it wrote a kernel that
breaks a rule the interpreter checks). With --keep DIR, each finding is
saved as DIR/NNNN-SEED/: kernel.tess, the inputs, run.sh (the command
lines), out-A/ and out-B/ (both outputs), summary.txt (one line).

The last line: `N kernels: A agreed, R rejected by tessc (generator bug),
D disagreements, C crashes/internal errors/timeouts`, after one line per
finding and counts by cause.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

np.seterr(all="ignore")      # inputs may overflow to inf on purpose (65520 as f16)
import warnings              # noqa: E402
warnings.simplefilter("ignore")

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffgen  # noqa: E402

NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": np.uint16, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
      "u64": np.uint64,
      "bool": np.bool_}
GPU_RTOL = {"f64": 1e-9, "f32": 2e-5, "f16": 4e-3, "bf16": 3e-2}


def to_bf16(x):
    """float32 -> bf16 bits, rounding to nearest even (NaN stays a NaN)."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, np.float32))
    r[nan] = 0x7FC0
    return r


def from_bf16(u):
    return (np.asarray(u, np.uint16).astype(np.uint32) << 16).view(np.float32)


def random_array(rng, dt, shape, intvalued, mode):
    n = int(np.prod(shape)) if shape else 1
    if dt in diffgen.FLOATS:
        if intvalued:
            v = rng.integers(-3, 4, n).astype(np.float64)
        else:
            k = rng.random()
            v = rng.standard_normal(n) * (4.0 if k < 0.5 else 100.0)
            if k < 0.2:
                v = np.round(v)
            if mode != "gpu" and rng.random() < 0.3:
                specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 65520.0, 1e5])
                sel = rng.random(n) < 0.1
                v[sel] = rng.choice(specials, sel.sum())
        if dt == "bf16":
            return to_bf16(v.astype(np.float32)).reshape(shape)
        return v.astype(NP[dt]).reshape(shape)
    if dt == "bool":
        return (rng.random(n) < 0.5).reshape(shape)
    lo, hi = diffgen.INT_RANGE[dt]
    if rng.random() < 0.3:
        v = rng.integers(lo, hi, n, dtype=np.int64, endpoint=True) if dt not in ("u32", "u64") else \
            rng.integers(0, hi, n, dtype=np.uint64, endpoint=True)
    else:
        v = rng.integers(max(lo, -20), min(hi, 20), n, endpoint=True)
    return np.asarray(v).astype(NP[dt]).reshape(shape)


def dims_of(p, sizes):
    return tuple(sizes[d] if d in sizes else int(d) for d in p["dims"])


def make_inputs(case, seed, mode, d):
    """Writes the inputs into d; returns the argument list (paths relative to d's parent run)."""
    rng = np.random.default_rng(seed)
    args = []
    for p in case["params"]:
        if p["kind"] == "scalar":
            args.append(p["values"])
            continue
        path = os.path.join(d, p["name"] + ".npy")
        if p["kind"] in ("in", "inout"):
            np.save(path, random_array(rng, p["dt"], dims_of(p, case["sizes"]), p.get("intvalued"), mode))
        args.append(p["name"] + ".npy")
    args += ["%s=%d" % kv for kv in sorted(case["sizes"].items())]
    return args


def run(cmd, cwd, timeout):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def ulp(dt, x):
    """The spacing of dtype dt at |x| (as float64)."""
    x = np.abs(np.asarray(x, np.float64))
    if dt == "bf16":
        m, emin = 8, -126
    else:
        fi = np.finfo(NP[dt])
        m, emin = fi.nmant + 1, fi.minexp
    e = np.floor(np.log2(np.maximum(x, 2.0 ** emin)))
    return 2.0 ** (e - (m - 1))


def as_float(dt, a):
    return from_bf16(a).astype(np.float64) if dt == "bf16" else a.astype(np.float64)


UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# (the bits without the sign, the bits of +inf) per float dtype: a NaN is
# above inf. bf16 travels as uint16 raw bits, so the dtype comes from the
# kernel's parameter, never from the array.
NAN_ABOVE = {"bf16": (0x7FFF, 0x7F80), "f16": (0x7FFF, 0x7C00), "f32": (0x7FFFFFFF, 0x7F800000),
             "f64": (0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000)}


def is_nan(dt, a):
    """Which elements of a dt array (as stored in its .npy) are NaN, by their bits."""
    mag, inf = NAN_ABOVE[dt]
    return (a.reshape(-1).view(UINT[a.dtype.itemsize]) & mag) > inf


def differ(dt, a, b):
    """Flat indices where a and b differ bit for bit, except that on a float
    dtype a NaN equals any NaN: a NaN's sign and payload are unspecified
    (docs/language.md 7.2), and they do differ (the GPU's cvt gives bf16
    0x7FFF, x86 0xFFC0; fold and the IR text print every NaN as nan).
    -0 and +0 still differ."""
    bits = a.reshape(-1).view(UINT[a.dtype.itemsize]) != b.reshape(-1).view(UINT[b.dtype.itemsize])
    if dt in NAN_ABOVE:
        bits &= ~(is_nan(dt, a) & is_nan(dt, b))
    return np.flatnonzero(bits)


def compare(dt, a, b, tol, mode, f32dot):
    """None when outputs a (run A) and b (run B) agree under tol; else a reason."""
    if a.shape != b.shape:
        return "shape %s vs %s" % (a.shape, b.shape)
    diff = differ(dt, a, b)
    if not len(diff):
        return None
    first = int(diff[0])
    fa, fb = a.reshape(-1)[first], b.reshape(-1)[first]
    where = "%d of %d elements differ, first at flat index %d: %r vs %r" % (len(diff), a.size, first, fa, fb)
    if dt not in diffgen.FLOATS:
        return where
    x, y = as_float(dt, a).reshape(-1), as_float(dt, b).reshape(-1)
    nan_ok = np.isnan(x) == np.isnan(y)
    if mode == "interp":
        if not tol.get("recip"):
            return where
        # docs/language.md 7.2: within 1 ulp of the division's dtype while 1/s is
        # normal; a reciprocal that overflows may give inf where the quotient is
        # finite, and NaN where the dividend is 0 (0 * inf; -O0's 0 / s is 0:
        # seeds 7553 and 37737 of the 2026-12-01 hour-long run); plus the
        # rounding of a cast to the output's dtype.
        bound = ulp(tol["recip"], y) + ulp(dt, y)
        zero_times_inf = (x == 0) & np.isnan(y)
        nan_ok = nan_ok | zero_times_inf
        fin = np.isfinite(x) & np.isfinite(y)
        ok = nan_ok & zero_times_inf | nan_ok & np.where(fin, np.abs(x - y) <= bound, (x == y) | np.isinf(x) | np.isinf(y) |
                               (np.isnan(x) & np.isnan(y)))
        return None if ok.all() else where + " (beyond the reciprocal rewrite's 1 ulp)"
    if tol.get("gexact"):
        return where + " (an output the GPU computes exactly)"
    rtol = GPU_RTOL[dt] if not (f32dot and dt in ("f32", "f64")) else 1e-2
    if dt == "f64":
        # An f64 output may hold an f32 value computed with the GPU's
        # approximate functions and widened (seed 6444 of the 2026-12-01 GPU
        # run: sigmoid in f32, `as f64`, 6e-8 apart): f32's tolerance.
        rtol = max(rtol, GPU_RTOL["f32"])
    fin = np.isfinite(x) & np.isfinite(y)
    scale = np.max(np.abs(y[fin])) if fin.any() else 0.0
    ok = nan_ok & np.where(fin, np.abs(x - y) <= rtol * np.abs(y) + rtol * scale, (x == y) |
                           (np.isnan(x) & np.isnan(y)))
    return None if ok.all() else where + " (beyond rtol %g)" % rtol


def one(opts, index, seed):
    """Generates, runs and compares one kernel. Returns (status, detail, files)."""
    src, case = diffgen.generate(seed, opts.gen_mode or opts.device, opts.without)
    d = tempfile.mkdtemp(prefix="difftest-", dir=opts.tmp)
    tessc = os.path.abspath(opts.tessc)
    try:
        with open(os.path.join(d, "kernel.tess"), "w") as f:
            f.write(src)
        rc, err = run([tessc, "kernel.tess", "--emit", "ir", "-o", "-"], d, opts.timeout)
        if rc == 1:
            msg = next((ln for ln in err.splitlines() if "error:" in ln), err.strip()[:200])
            return finish(opts, index, seed, d, "rejected", msg, case)
        if rc != 0:
            return finish(opts, index, seed, d, "crash", "compile: exit %s: %s" % (rc, err.strip()[-300:]), case)
        args = make_inputs(case, seed, opts.device, d)
        prog = {}
        if opts.device == "gpu" and opts.gpu_runner == "tessrun":
            # PTX only (the driver JITs it: no ptxas needed on the GPU machine), then tessrun
            persistent = ["--grid=persistent"] if opts.persistent else []
            rc, err = run([tessc, "kernel.tess", "--emit", "ptx,manifest", "--arch", "sm_80", "-o", "art"] + persistent,
                          d, opts.timeout)
            if rc != 0:
                return finish(opts, index, seed, d, "crash", "compile for the GPU: exit %s: %s" % (
                    rc, err.strip()[-300:]), case)
            tessrun = os.path.abspath(opts.tessrun or os.path.join(os.path.dirname(tessc), "tessrun"))
            prog["A"] = tessrun
            runs = [("A", ["--device", "gpu", "../art/kernel.manifest.json"]),
                    ("B", ["run", "../kernel.tess", "-O2", "--device", "interp"])]
        elif opts.device == "gpu":
            runs = [("A", ["run", "../kernel.tess", "-O2", "--device", "gpu"] +
                     (["--grid=persistent"] if opts.persistent else [])),
                    ("B", ["run", "../kernel.tess", "-O2", "--device", "interp"])]
        else:
            runs = [("A", ["run", "../kernel.tess", "-O0", "--device", "interp"]),
                    ("B", ["run", "../kernel.tess", "-O%d" % opts.opt, "--device", "interp"] +
                     (["--overlap=rotate"] if opts.overlap else []) +
                     (["--grid=persistent"] if opts.persistent else []))]
        results = {}
        cmds = []
        for tag, base in runs:
            out = os.path.join(d, "out-" + tag)
            os.mkdir(out)
            # inputs and inout arrays are copied into each run's folder: an inout array is overwritten
            for p in case["params"]:
                if p["kind"] in ("in", "inout"):
                    shutil.copy(os.path.join(d, p["name"] + ".npy"), out)
            cmd = [prog.get(tag, tessc)] + base + args
            cmds.append("cd out-%s && %s" % (tag, " ".join(["$TESSRUN" if tag in prog else "$TESSC"] + base + args)))
            results[tag] = run(cmd, out, opts.timeout)
        with open(os.path.join(d, "run.sh"), "w") as f:
            f.write("# TESSC=path/to/tessc sh run.sh (from this folder); inputs are *.npy here\n")
            f.write("set -x\nTESSC=${TESSC:-tessc}\nTESSRUN=${TESSRUN:-tessrun}\n")
            if prog:
                f.write("$TESSC kernel.tess --emit ptx,manifest --arch sm_80 -o art%s\n" %
                        (" --grid=persistent" if opts.persistent else ""))
            for tag, _ in runs:
                f.write("rm -rf out-%s && mkdir out-%s && cp *.npy out-%s/\n" % (tag, tag, tag))
            for c in cmds:
                f.write("(%s)\n" % c)
        (ra, ea), (rb, eb) = results["A"], results["B"]
        for tag, (rc_, e_) in results.items():
            if rc_ == "timeout" or rc_ not in (0, 1):
                return finish(opts, index, seed, d, "crash", "run %s: exit %s: %s" % (
                    tag, rc_, e_.strip()[-300:]), case)
        if opts.device == "gpu" and ra == 1 and ("no CUDA" in ea or "CUDA_ERROR" in ea or "no device" in ea):
            return finish(opts, index, seed, d, "nogpu", ea.strip().splitlines()[-1], case)
        if ra == 1 or rb == 1:
            ma = next((ln for ln in ea.splitlines() if "error" in ln), "")
            mb = next((ln for ln in eb.splitlines() if "error" in ln), "")
            if ra == rb == 1 and ma == mb:
                return finish(opts, index, seed, d, "progerror", ma, case)
            return finish(opts, index, seed, d, "disagree", "exit %s vs %s: %s | %s" % (ra, rb, ma or "ok", mb or "ok"), case)
        within = False
        f32dot = any(p["name"] == "da" and p["dt"] == "f32" for p in case["params"])
        for p in case["params"]:
            if p["kind"] not in ("out", "inout"):
                continue
            a = np.load(os.path.join(d, "out-A", p["name"] + ".npy"))
            b = np.load(os.path.join(d, "out-B", p["name"] + ".npy"))
            tol = case["outputs"].get(p["name"], {})
            # a float atomic sum in another program order: the GPU's tolerance
            mode = "gpu" if opts.persistent and tol.get("order") else opts.device
            why = compare(p["dt"], a, b, tol, mode, f32dot)
            if why:
                return finish(opts, index, seed, d, "disagree", "%s: %s" % (p["name"], why), case)
            if len(differ(p["dt"], a, b)):
                within = True
        return finish(opts, index, seed, d, "agree", "within" if within else "", case)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def finish(opts, index, seed, d, status, detail, case):
    detail = " ".join(detail.split("\n")[:1]).strip()   # one line: tessc's "please report" line goes
    feats = ",".join(case["features"]) if case else ""
    if opts.keep and status not in ("agree", "nogpu"):
        dest = os.path.join(opts.keep, "%04d-%d" % (index, seed))
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(d, dest)
        with open(os.path.join(dest, "summary.txt"), "w") as f:
            f.write("%s seed %d [%s]: %s\n" % (status, seed, feats, detail))
    return status, detail, feats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tessc", default="build/tessc")
    ap.add_argument("--device", default="interp", choices=["interp", "gpu"])
    ap.add_argument("--gpu-runner", default="tessc-run", choices=["tessc-run", "tessrun"],
                    help="gpu: `tessc run --device gpu` (needs ptxas), or tessc --emit ptx,manifest + "
                    "tessrun --device gpu (the driver JITs the PTX)")
    ap.add_argument("--gen-mode", default="", choices=["", "interp", "gpu"],
                    help="the generator's mode (default: --device's); gpu mode kernels also run -O0 vs -O2")
    ap.add_argument("--tessrun", default="", help="default: the tessrun beside --tessc")
    ap.add_argument("--opt", type=int, default=2, choices=[1, 2, 3],
                    help="interp: the level compared with -O0 (default 2)")
    ap.add_argument("--overlap", action="store_true",
                    help="interp: the optimized run also with --overlap=rotate (passes/overlap.c)")
    ap.add_argument("--persistent", action="store_true",
                    help="the optimized run (interp) or the GPU run (gpu, tessc-run) with --grid=persistent "
                         "(passes/persist.c), against the per-tile one")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", default="")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--without", action="append", default=[],
                    help="a feature class the generator leaves out (diffgen.FEATURES)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no line per finding")
    opts = ap.parse_args()
    for w in opts.without:
        if w not in diffgen.FEATURES:
            ap.error("unknown feature '%s' (known: %s)" % (w, ", ".join(diffgen.FEATURES)))
    if not opts.count and not opts.seconds:
        opts.count = 100
    if opts.keep:
        os.makedirs(opts.keep, exist_ok=True)
    counts = {}
    causes = {}
    start = time.time()
    n = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
        pending = set()
        i = 0

        def more():
            if opts.count and i >= opts.count:
                return False
            if opts.seconds and time.time() - start >= opts.seconds:
                return False
            return True

        while True:
            while len(pending) < opts.jobs and more():
                fut = ex.submit(one, opts, i, opts.seed + i)
                fut.seed = opts.seed + i
                pending.add(fut)
                i += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                status, detail, feats = fut.result()
                n += 1
                counts[status] = counts.get(status, 0) + 1
                if status == "agree" and detail == "within":
                    counts["within"] = counts.get("within", 0) + 1
                if status != "agree":
                    key = status + ": " + cause_key(detail)
                    causes[key] = causes.get(key, 0) + 1
                    if not opts.quiet:
                        print("%s seed %d [%s]: %s" % (status, fut.seed, feats, detail), flush=True)
    for key, c in sorted(causes.items(), key=lambda kv: -kv[1]):
        print("  %5d  %s" % (c, key))
    extra = ""
    if counts.get("within"):
        extra += ", %d of the agreements within a documented tolerance, not bit for bit" % counts["within"]
    if counts.get("progerror"):
        extra += ", %d interpreter errors in both runs (generator bug)" % counts["progerror"]
    if counts.get("nogpu"):
        extra += ", %d not run (no GPU)" % counts["nogpu"]
    print("%d kernels: %d agreed, %d rejected by tessc (generator bug), %d disagreements, "
          "%d crashes/internal errors/timeouts%s" % (n, counts.get("agree", 0), counts.get("rejected", 0),
                                                   counts.get("disagree", 0), counts.get("crash", 0), extra))
    bad = sum(counts.get(k, 0) for k in ("rejected", "disagree", "crash", "progerror", "nogpu"))
    return 1 if bad else 0


def cause_key(detail):
    """A finding's detail without file names, positions and values, to count by cause."""
    import re
    s = re.sub(r"^[^ ]*kernel\.tess:\d+:\d+: ", "", detail)
    s = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", s)
    s = re.sub(r"'[^']*'", "'X'", s)
    return s[:110]


if __name__ == "__main__":
    sys.exit(main())
