"""Writes malformed variants of Inputs/valid/two.json (schema 1) and
two-v2.json (schema 2) into OUTDIR and prints what `runtime_test load` says
about each: every field missing, every field of the wrong type, bad values,
broken JSON, a missing artifact file.

usage: manifest_errors.py RUNTIME_TEST OUTDIR
"""
import copy
import json
import os
import shutil
import subprocess
import sys

runtime_test, outdir = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
valid = os.path.join(here, "valid")
os.makedirs(outdir, exist_ok=True)
for name in os.listdir(valid):
    if not name.endswith(".json"):
        shutil.copy(os.path.join(valid, name), outdir)
base = json.load(open(os.path.join(valid, "two.json")))
base_v2 = json.load(open(os.path.join(valid, "two-v2.json")))

# a value of the wrong type for each JSON type
WRONG = {str: 7, int: "7", float: "7", list: {"a": 1}, dict: [1], type(None): True}


def run(case, text):
    path = os.path.join(outdir, case + ".json")
    with open(path, "w") as f:
        f.write(text)
    out = subprocess.run([runtime_test, "load", case + ".json"], cwd=outdir,
                         capture_output=True, text=True)
    first = (out.stdout.splitlines() or ["(no output)"])[0]
    print(f"{case}: exit {out.returncode}: {first}")


def variant(case, edit, start=None):
    m = copy.deepcopy(base if start is None else start)
    edit(m)
    run(case, json.dumps(m, indent="\t"))


def each_field(prefix, get, keys, start=None):
    for key in keys:
        def drop(m, key=key):
            del get(m)[key]
        def retype(m, key=key):
            obj = get(m)
            obj[key] = WRONG[type(obj[key])]
        variant(f"{prefix}-missing-{key}", drop, start)
        variant(f"{prefix}-wrongtype-{key}", retype, start)


each_field("top", lambda m: m, ["schema", "source", "source_sha256", "tessc_version", "kernels"])
each_field("kernel", lambda m: m["kernels"][0],
           ["name", "entry", "cparams", "params", "grid", "warps", "stages", "threads",
            "shared_bytes", "contracts", "artifacts", "compute_capability"])
each_field("array", lambda m: m["kernels"][0]["params"][0],
           ["name", "kind", "dtype", "shape", "space", "access"])
each_field("scalar", lambda m: m["kernels"][0]["params"][2], ["name", "kind", "dtype", "shape"])
each_field("artifact", lambda m: m["kernels"][0]["artifacts"][1],
           ["arch", "kind", "file", "ptx_version", "registers", "spills", "shared_bytes"])
each_field("cc", lambda m: m["kernels"][0]["compute_capability"], ["min", "max"])


def setter(path, value):
    def edit(m):
        obj = m
        for p in path[:-1]:
            obj = obj[p]
        obj[path[-1]] = value
    return edit


K = ["kernels", 0]
variant("bad-schema", setter(["schema"], "tessera-manifest/3"))
variant("bad-sha", setter(["source_sha256"], "abc"))
variant("bad-kind", setter(K + ["params", 0, "kind"], "tensor"))
variant("bad-dtype", setter(K + ["params", 0, "dtype"], "f4e2m1"))
variant("bad-access", setter(K + ["params", 0, "access"], "read"))
variant("bad-space", setter(K + ["params", 0, "space"], "local"))
variant("bad-dim", setter(K + ["params", 0, "shape"], [-3]))
variant("unknown-dim", setter(K + ["params", 0, "shape"], ["Q"]))
variant("scalar-shape", setter(K + ["params", 2, "shape"], [4]))
variant("size-dtype", setter(K + ["params", 3, "dtype"], "f32"))
variant("duplicate-param", setter(K + ["params", 1, "name"], "x"))
variant("grid-empty", setter(K + ["grid"], []))
variant("grid-syntax", setter(K + ["grid"], ["cdiv(N 256)"]))
variant("grid-unknown-size", setter(K + ["grid"], ["cdiv(M, 256)"]))
variant("grid-trailing", setter(K + ["grid"], ["N )"]))
variant("grid-resident-arguments", setter(K + ["grid"], ["min(N, resident_blocks(N))"]))
variant("contract-no-compare", setter(K + ["contracts"], ["N % 4"]))
variant("contract-resident", setter(K + ["contracts"], ["N <= resident_blocks()"]))
variant("contract-not-string", setter(K + ["contracts"], [4]))
variant("warps-range", setter(K + ["warps"], 0))
variant("warps-fraction", setter(K + ["warps"], 2.5))
variant("threads-mismatch", setter(K + ["threads"], 96))
variant("bad-arch", setter(K + ["artifacts", 0, "arch"], "compute_80"))
variant("bad-artifact-kind", setter(K + ["artifacts", 0, "kind"], "fatbin"))
variant("bad-ptx-version", setter(K + ["artifacts", 0, "ptx_version"], "8"))
variant("negative-registers", setter(K + ["artifacts", 1, "registers"], -1))
variant("absolute-file", setter(K + ["artifacts", 0, "file"], "/tmp/relu.ptx"))
variant("missing-artifact-file", setter(K + ["artifacts", 0, "file"], "gone.sm_80.ptx"))
variant("bad-cc-min", setter(K + ["compute_capability", "min"], "eight"))


def no_artifacts(m):
    k = m["kernels"][0]
    k["artifacts"] = []
    del k["interp"]


variant("no-artifacts", no_artifacts)
variant("duplicate-kernel", setter(["kernels", 1, "name"], "relu"))
variant("kernel-not-object", setter(["kernels", 1], "matmul"))
variant("bad-cparam", setter(K + ["cparams", "BLOCK"], "256"))
# Schema 2: threads per artifact (required, 1 to 1024, a whole number); the
# kernel's own "threads" and "shared_bytes" are schema 1's and not needed.
each_field("v2-artifact", lambda m: m["kernels"][0]["artifacts"][3],
           ["arch", "kind", "file", "ptx_version", "threads", "registers", "spills", "shared_bytes"], base_v2)
each_field("v2-kernel", lambda m: m["kernels"][0], ["warps", "artifacts"], base_v2)
variant("v2-threads-zero", setter(K + ["artifacts", 3, "threads"], 0), base_v2)
variant("v2-threads-range", setter(K + ["artifacts", 3, "threads"], 2048), base_v2)
variant("v2-threads-fraction", setter(K + ["artifacts", 3, "threads"], 96.5), base_v2)
variant("v2-shared-negative", setter(K + ["artifacts", 0, "shared_bytes"], -16), base_v2)


def v2_kernel_threads_only(m):
    """A schema 2 manifest with schema 1's per-kernel threads: still an error."""
    k = m["kernels"][0]
    k["threads"] = 128
    del k["artifacts"][3]["threads"]


variant("v2-kernel-threads-only", v2_kernel_threads_only, base_v2)


def v1_per_artifact_threads(m):
    """Schema 1 ignores an artifact's "threads": the kernel's is what it launches with."""
    m["kernels"][0]["artifacts"][0]["threads"] = "anything"


variant("v1-artifact-threads-ignored", v1_per_artifact_threads)
text = json.dumps(base, indent="\t")
run("truncated", text[: len(text) // 2])
run("empty", "")
run("top-array", "[1, 2]")
run("trailing-garbage", text + "\n}")
run("bad-token", text.replace('"warps":', '"warps" -', 1))
out = subprocess.run([runtime_test, "load", "does-not-exist.json"], cwd=outdir,
                     capture_output=True, text=True)
print("no-file: exit", out.returncode, out.stdout.strip())
