"""Loads a manifest whose sm_90a artifact has a "tma" record (tessc's, in
DIR/wgmma.manifest.json) and malformed variants of that record, and prints
what `runtime_test load` says about each (the first line).

usage: manifest_tma.py RUNTIME_TEST DIR
"""
import copy
import json
import os
import subprocess
import sys

runtime_test, outdir = sys.argv[1], sys.argv[2]
base = json.load(open(os.path.join(outdir, "wgmma.manifest.json")))


def run(case, edit):
    m = copy.deepcopy(base)
    edit(m["kernels"][0]["artifacts"][0]["tma"])
    path = os.path.join(outdir, case + ".json")
    with open(path, "w") as f:
        json.dump(m, f)
    out = subprocess.run([runtime_test, "load", case + ".json"], cwd=outdir, capture_output=True, text=True)
    first = (out.stdout.splitlines() or ["(no output)"])[0]
    print(f"{case}: exit {out.returncode}: {first}")


def setter(path, value):
    def edit(t):
        obj = t
        for key in path[:-1]:
            obj = obj[key]
        if value is DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
    return edit


DELETE = object()
run("valid", lambda t: None)
run("version-3", setter(["version"], 3))
run("no-entry", setter(["entry"], DELETE))
run("entry-not-symbol", setter(["entry"], "a b"))
run("maps-not-list", setter(["maps"], {}))
run("unknown-param", setter(["maps", 0, "param"], "zz"))
run("size-param", setter(["maps", 0, "param"], "M"))
run("dtype-f32", setter(["maps", 0, "dtype"], "f32"))
run("dtype-not-array", setter(["maps", 1, "dtype"], "bf16"))
run("box-rank", setter(["maps", 1, "box"], [64]))
run("box-zero", setter(["maps", 1, "box"], [0, 64]))
run("box-257", setter(["maps", 1, "box"], [257, 64]))
run("inner-too-wide", setter(["maps", 1, "box"], [64, 128]))
run("inner-not-16-bytes", setter(["maps", 1, "box"], [64, 4]))
run("swizzle-48", setter(["maps", 1, "swizzle"], 48))
run("rows-order", setter(["maps", 0, "rows", "order"], "plain"))
run("rows-warps-6", setter(["maps", 0, "rows", "warps"], 6))
run("rows-box", setter(["maps", 0, "box"], [32, 64]))


def version2(threads):
    def edit(t):
        t["version"] = 2
        t["threads"] = threads
    return edit


run("v2-threads", version2(1024))
run("v2-threads-fewer", version2(32))
run("v2-threads-1025", version2(1025))
run("v2-threads-not-warps", version2(200))
run("v2-no-threads", setter(["version"], 2))
run("v1-threads", setter(["threads"], 256))


def min_registers(n):
    def edit(t):
        version2(384)(t)
        t["min_registers"] = n
    return edit


run("v2-min-registers", min_registers(168))
run("v2-min-registers-0", min_registers(0))
run("v2-min-registers-256", min_registers(256))
# "store" (a TMA store's map, tma.c): a boolean, encoded as any map
run("store-true", setter(["maps", 1, "store"], True))
run("store-not-bool", setter(["maps", 1, "store"], "yes"))
