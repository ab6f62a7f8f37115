#!/usr/bin/env python3
"""compile_time.py: cold compile time of each benchmark kernel (bench/compile_time.sh runs it).

1. tessc, whole process: process start to PTX + cubin + manifest on disk
   (`tessc FILE -k KERNEL -D ... --emit ptx,cubin,manifest --arch sm_90 -o FRESH_DIR`),
   median of --trials runs per kernel; ptxas included (tessc spawns it).
2. Triton (where `import triton` works): a fresh python process with an empty
   TRITON_CACHE_DIR that imports torch + triton, compiles the same kernel and
   runs it once (process start to exit), and, in one process after a dummy
   kernel has paid Triton's one-time launcher build, the first call
   (compile + launch + sync) of each kernel with an empty cache: "in-process cold".
3. JAX Pallas (where `import jax` works): the same two, with
   JAX_ENABLE_COMPILATION_CACHE=false; in-process is `jax.jit(f).lower(...).compile()`.

Writes JSON to --json (default $OUT/compile_time.json when OUT is set) and
prints a table. Needs no GPU for part 1.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name, file, kernel, -D list: the primary variant of each benchmark (bench/build.sh)
KERNELS = [
    ("relu2x1", "relu2x1", "relu2x1", ["BLOCK=4096"]),
    ("softmax", "softmax", "softmax", ["BN=4096", "W=16"]),
    ("layernorm", "layernorm", "layernorm", ["BN=4096", "W=16"]),
    ("rowsum", "rowsum", "rowsum", ["BN=2048", "W=8"]),
    ("add2d", "add2d", "add2d", ["BM=8", "BN=512", "W=8"]),
    ("matmul", "matmul", "matmul", ["BM=128", "BN=128", "BK=64", "W=8"]),
    ("attention", "attention", "mha_fwd", ["D=64", "BQ=128", "BK=64", "W=8"]),
]


def find_ptxas():
    if os.environ.get("PTXAS"):
        return os.environ["PTXAS"]
    p = shutil.which("ptxas")
    if p:
        return p
    for c in ["/usr/local/cuda/bin/ptxas"]:
        if os.path.exists(c):
            return c
    try:   # Triton's own copy
        import importlib.util
        spec = importlib.util.find_spec("triton")
        if spec and spec.origin:
            c = os.path.join(os.path.dirname(spec.origin), "backends", "nvidia", "bin", "ptxas")
            if os.path.exists(c):
                return c
    except Exception:
        pass
    return None


def tessc_times(tessc, pkg, trials):
    env = dict(os.environ)
    ptxas = find_ptxas()
    if ptxas:
        env["PTXAS"] = ptxas
    # libdevice: the package's copy (so the same bytes are linked on both machines)
    if pkg and os.path.exists(os.path.join(pkg, "nvvm", "libdevice", "libdevice.10.bc")):
        env["CUDA_HOME"] = pkg
    rows = []
    for name, f, kern, defs in KERNELS:
        cmd = [tessc, os.path.join(ROOT, "bench", "kernels", f + ".tess"), "-k", kern, "--emit", "ptx,cubin,manifest",
               "--arch", "sm_90"]
        for d in defs:
            cmd += [d] if d.startswith("-") else ["-D", d]
        ts = []
        err = None
        for _ in range(trials):
            out = tempfile.mkdtemp(prefix="tessc-ct-")
            t0 = time.perf_counter()
            r = subprocess.run(cmd + ["-o", out], capture_output=True, text=True, env=env)
            t = time.perf_counter() - t0
            files = os.listdir(out)
            ok = (r.returncode == 0 and any(x.endswith(".ptx") for x in files) and any(x.endswith(".cubin") for x in files)
                  and any(x.endswith(".manifest.json") for x in files))
            shutil.rmtree(out, ignore_errors=True)
            if not ok:
                err = "FAILED (rc %d): %s %s" % (r.returncode, r.stderr.strip()[:300], files)
                break
            ts.append(t * 1e3)
        # one more run with --time-report: where the time goes, phase by phase
        phases = {}
        if not err:
            out = tempfile.mkdtemp(prefix="tessc-ct-")
            r = subprocess.run(cmd + ["-o", out, "--time-report"], capture_output=True, text=True, env=env)
            shutil.rmtree(out, ignore_errors=True)
            for line in r.stderr.splitlines()[1:]:
                parts = line.rsplit(None, 2) if "%" in line else line.rsplit(None, 1)
                try:
                    phases[parts[0].strip()] = float(parts[1])
                except (IndexError, ValueError):
                    pass
        rows.append(dict(tool="tessc", kernel=name, mode="whole process", ms=statistics.median(ts) if ts else None,
                         trials=[round(t, 1) for t in ts], error=err, ptxas=ptxas, phases_ms=phases))
        print("tessc      %-10s %s" % (name, err or "%.1f ms (median of %d: %s)" % (
            statistics.median(ts), len(ts), ", ".join("%.1f" % t for t in ts))), flush=True)
        if phases:
            print("           %-10s phases: %s" % ("", ", ".join("%s %.1f" % (k, v) for k, v in phases.items()
                                                                if v >= 1.0 or k == "total")), flush=True)
    return rows


# The snippets run in fresh processes; each prints "T <seconds>" for the part it times.
TRITON_SETUP = r"""
import sys, time, math
sys.path.insert(0, %(here)r)
import torch, triton
import peers_triton as pt
dev = "cuda"
def case(name):
    if name == "relu2x1":
        x = torch.randn(1 << 20, device=dev); o = torch.empty_like(x); return lambda: pt.run_relu(x, o)
    if name == "softmax":
        x = torch.randn(64, 4096, device=dev); y = torch.empty_like(x); return lambda: pt.run_softmax(x, y)
    if name == "layernorm":
        x = torch.randn(64, 4096, device=dev); w = torch.randn(4096, device=dev); b = torch.randn(4096, device=dev)
        y = torch.empty_like(x); return lambda: pt.run_layernorm(x, w, b, y, 1e-5)
    if name == "rowsum":
        x = torch.randn(64, 4096, device=dev); s = torch.empty(64, device=dev); return lambda: pt.run_rowsum(x, s)
    if name == "add2d":
        a = torch.randn(64, 4096, device=dev); b = torch.randn(64, 4096, device=dev); c = torch.empty_like(a)
        return lambda: pt.run_add2d(a, b, c)
    if name == "matmul":
        a = torch.randn(1024, 1024, device=dev).half(); b = torch.randn(1024, 1024, device=dev).half()
        c = torch.empty(1024, 1024, device=dev).half(); return lambda: pt.run_matmul(a, b, c)
    if name == "attention":
        q, k, v = (torch.randn(4, 1024, 8, 64, device=dev).half() for _ in range(3)); o = torch.empty_like(q)
        return lambda: pt.run_attention(q, k, v, o, 0.125, False)
"""

TRITON_WHOLE = TRITON_SETUP + r"""
f = case(%(kernel)r); f(); torch.cuda.synchronize()
"""

TRITON_INPROC = TRITON_SETUP + r"""
import triton.language as tl
@triton.jit
def dummy(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1.0)
z = torch.zeros(128, device=dev); t0 = time.perf_counter(); dummy[(1,)](z, BLOCK=128); torch.cuda.synchronize()
print("DUMMY %%.4f" %% (time.perf_counter() - t0))
for name in %(kernels)r:
    f = case(name); torch.cuda.synchronize()
    t0 = time.perf_counter(); f(); torch.cuda.synchronize(); t1 = time.perf_counter()
    f(); torch.cuda.synchronize(); t2 = time.perf_counter()
    print("K %%s %%.4f %%.4f" %% (name, t1 - t0, t2 - t1), flush=True)
# ptxas alone on the PTX Triton made for matmul and attention (from its fresh
# cache), timed the way tessc runs it: the part of both compilers' time that
# is the same program doing the same job.
import glob, os, statistics, subprocess, tempfile
ptxas = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
if not os.path.exists(ptxas):
    ptxas = "/usr/local/cuda/bin/ptxas"
for kname, name in (("matmul_kernel", "matmul"), ("attn_kernel", "attention")):
    for ptx in glob.glob(os.path.join(os.environ["TRITON_CACHE_DIR"], "*", kname + ".ptx"))[:1]:
        text = open(ptx).read()
        target = [l.split()[1] for l in text.splitlines() if l.startswith(".target")][0].rstrip(",")
        out = tempfile.mkdtemp()
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = subprocess.run([ptxas, "-arch=" + target, "-v", "-o", os.path.join(out, "k.cubin"), ptx],
                               capture_output=True, text=True)
            ts.append(time.perf_counter() - t0)
        print("PTXAS %%s %%.4f %%s %%d" %% (name, statistics.median(ts), target, r.returncode), flush=True)
"""

PALLAS_SETUP = r"""
import sys, time, os
sys.path.insert(0, %(here)r)
import jax, jax.numpy as jnp
import peers_pallas as pp
def case(name):
    f32, f16 = jnp.float32, jnp.float16
    if name == "relu2x1":
        return pp.make_relu(1 << 20), (jnp.ones((1 << 20,), f32),)
    if name == "softmax":
        return pp.make_softmax(64, 4096, f32), (jnp.ones((64, 4096), f32),)
    if name == "layernorm":
        return pp.make_layernorm(64, 4096, 1e-5), (jnp.ones((64, 4096), f32), jnp.ones((4096,), f32), jnp.ones((4096,), f32))
    if name == "rowsum":
        return pp.make_rowsum(64, 4096), (jnp.ones((64, 4096), f32),)
    if name == "add2d":
        return pp.make_add2d(64, 4096), (jnp.ones((64, 4096), f32), jnp.ones((64, 4096), f32))
    if name == "matmul":
        return pp.make_matmul(1024, 1024, 1024), (jnp.ones((1024, 1024), f16), jnp.ones((1024, 1024), f16))
    if name == "attention":
        q = jnp.ones((4, 1024, 8, 64), f16); return pp.make_attention(False, 0.125), (q, q, q)
"""

PALLAS_WHOLE = PALLAS_SETUP + r"""
f, a = case(%(kernel)r); jax.block_until_ready(f(*a))
"""

PALLAS_INPROC = PALLAS_SETUP + r"""
f = pp.make_relu(1 << 10); t0 = time.perf_counter(); f.lower(jnp.ones((1 << 10,), jnp.float32)).compile()
print("DUMMY %%.4f" %% (time.perf_counter() - t0))
for name in %(kernels)r:
    try:
        f, a = case(name)
        t0 = time.perf_counter(); low = f.lower(*a); t1 = time.perf_counter(); low.compile(); t2 = time.perf_counter()
        print("K %%s %%.4f %%.4f" %% (name, t2 - t0, t1 - t0), flush=True)
    except Exception as e:
        print("E %%s %%s: %%s" %% (name, type(e).__name__, str(e).splitlines()[0][:200] if str(e) else ""), flush=True)
"""


def run_py(code, env_extra, timeout):
    # From a file, not `python -c`: Triton's @jit reads its kernels' source
    # with inspect, which needs one ("@jit functions should be defined in a
    # Python file").
    env = dict(os.environ)
    env.update(env_extra)
    fd, path = tempfile.mkstemp(prefix="ct-", suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(code)
    try:
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=timeout, env=env)
        return time.perf_counter() - t0, r
    finally:
        os.unlink(path)


def framework_times(fw, whole_trials, deadline):
    rows = []
    names = [k[0] for k in KERNELS]
    setup = {"here": HERE}
    if fw == "triton":
        whole, inproc = TRITON_WHOLE, TRITON_INPROC
        fresh = lambda: {"TRITON_CACHE_DIR": tempfile.mkdtemp(prefix="triton-ct-"), "CUDA_CACHE_DISABLE": "1"}
    else:
        whole, inproc = PALLAS_WHOLE, PALLAS_INPROC
        fresh = lambda: {"JAX_ENABLE_COMPILATION_CACHE": "false", "XLA_PYTHON_CLIENT_PREALLOCATE": "false",
                         "CUDA_CACHE_DISABLE": "1"}
    # in-process cold compile of every kernel (one process, after a dummy compile)
    try:
        t, r = run_py(inproc % dict(setup, kernels=names), fresh(), 240)
        for line in r.stdout.splitlines():
            p = line.split()
            if p[0] == "DUMMY":
                rows.append(dict(tool=fw, kernel="(first kernel of the process)", mode="in-process", ms=float(p[1]) * 1e3))
            elif p[0] == "K":
                rows.append(dict(tool=fw, kernel=p[1], mode="in-process cold", ms=float(p[2]) * 1e3,
                                 second_call_or_lower_ms=float(p[3]) * 1e3))
            elif p[0] == "PTXAS":
                rows.append(dict(tool=fw, kernel=p[1], mode="ptxas on its PTX", ms=float(p[2]) * 1e3, target=p[3],
                                 error=None if p[4] == "0" else "ptxas exit %s" % p[4]))
            elif p[0] == "E":
                rows.append(dict(tool=fw, kernel=p[1], mode="in-process cold", ms=None, error="FAILED: " + " ".join(p[2:])))
        if r.returncode != 0:
            rows.append(dict(tool=fw, kernel="*", mode="in-process cold", ms=None,
                             error="FAILED (rc %d): %s" % (r.returncode, r.stderr.strip().splitlines()[-1:] )))
    except Exception as e:
        rows.append(dict(tool=fw, kernel="*", mode="in-process cold", ms=None, error="FAILED: %s" % e))
    # whole cold process per kernel: whole_trials for relu2x1, matmul and attention, 1 for the rest
    for name in names:
        n = whole_trials if name in ("relu2x1", "matmul", "attention") else 1
        ts, err = [], None
        for _ in range(n):
            if time.time() > deadline:
                err = "SKIPPED: time budget"
                break
            try:
                t, r = run_py(whole % dict(setup, kernel=name), fresh(), 120)
                if r.returncode != 0:
                    err = "FAILED (rc %d): %s" % (r.returncode, (r.stderr.strip().splitlines() or [""])[-1][:300])
                    break
                ts.append(t * 1e3)
            except Exception as e:
                err = "FAILED: %s" % e
                break
        rows.append(dict(tool=fw, kernel=name, mode="whole process", ms=statistics.median(ts) if ts else None,
                         trials=[round(t) for t in ts], error=err))
    for r in rows:
        print("%-10s %-30s %-16s %s" % (fw, r["kernel"], r["mode"], r.get("error") or "%.1f ms %s" % (
            r["ms"], r.get("trials", ""))), flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessc", default=os.path.join(ROOT, "build-benchpkg", "tessc"))
    ap.add_argument("--pkg", default="")
    ap.add_argument("--trials", type=int, default=11)
    ap.add_argument("--whole-trials", type=int, default=3)
    ap.add_argument("--budget-s", type=float, default=150)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    t_start = time.time()
    deadline = t_start + args.budget_s
    pkg = args.pkg or os.path.dirname(os.path.abspath(args.tessc))
    res = {"host": os.uname().nodename, "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
           "tessc": args.tessc, "rows": []}
    res["rows"] += tessc_times(args.tessc, pkg, args.trials)
    if not args.no_peers:
        for fw, mod in [("triton", "triton"), ("pallas", "jax")]:
            probe = subprocess.run([sys.executable, "-c", "import %s" % mod], capture_output=True, text=True)
            if probe.returncode != 0:
                print("%-10s not available here: %s" % (fw, (probe.stderr.strip().splitlines() or [""])[-1]))
                continue
            res["rows"] += framework_times(fw, args.whole_trials, deadline)
    # ratios: peer / tessc per kernel and mode
    tess = {r["kernel"]: r["ms"] for r in res["rows"] if r["tool"] == "tessc" and r["ms"]}
    print("\ncompile time, cold (ms): tessc whole process vs peers")
    print("%-10s %10s %16s %16s %16s %16s" % ("kernel", "tessc", "triton process", "triton in-proc", "pallas process",
                                            "pallas in-proc"))
    for name, *_ in KERNELS:
        def get(tool, mode):
            for r in res["rows"]:
                if r["tool"] == tool and r["kernel"] == name and r["mode"] == mode and r.get("ms"):
                    return r["ms"]
            return None
        cells = []
        for tool, mode in [("triton", "whole process"), ("triton", "in-process cold"), ("pallas", "whole process"),
                           ("pallas", "in-process cold")]:
            v = get(tool, mode)
            cells.append("%7.0f (%5.1fx)" % (v, v / tess[name]) if v and tess.get(name) else "%16s" % "-")
        t = tess.get(name)
        print("%-10s %10s %s" % (name, "%.1f" % t if t else "FAILED", " ".join(cells)))
    print("(x: the peer's time over tessc's; targets: >= 20x for whole process, tessc <= 0.2x of the in-process "
          "cold compile for matmul and attention, i.e. >= 5x)")
    path = args.json or (os.path.join(os.environ["OUT"], "compile_time.json") if os.environ.get("OUT") else "")
    if path:
        with open(path, "w") as f:
            json.dump(res, f, indent=1)
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
