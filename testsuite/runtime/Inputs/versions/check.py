"""Checks a schema 2 manifest tessc wrote for --arch ARCHS (comma-separated):
threads and shared bytes per artifact, none per kernel, artifacts in --arch
order; then writes OUT, the same manifest in schema 1 (per-kernel threads and
shared bytes, as tessc wrote it before schema 2), for the runtime to read.

usage: check.py MANIFEST ARCHS OUT
"""
import json
import sys

path, archs, out = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
m = json.load(open(path))
assert m["schema"] == "tessera-manifest/2", m["schema"]
for k in m["kernels"]:
    assert "threads" not in k and "shared_bytes" not in k, k["name"]
    arts = k["artifacts"]
    assert [a["arch"] for a in arts if a["kind"] == "ptx"] == archs, [a["arch"] for a in arts]
    for a in arts:
        # today's plans: 32 threads a warp, and every target's plan the same
        assert a["threads"] == 32 * k["warps"], (k["name"], a)
        assert a["shared_bytes"] == arts[0]["shared_bytes"], (k["name"], a)
    print("%s: %d artifacts, %d threads, %d shared bytes" % (k["name"], len(arts), arts[0]["threads"],
                                                          arts[0]["shared_bytes"]))
    k["threads"] = arts[0]["threads"]
    k["shared_bytes"] = max(a["shared_bytes"] for a in arts)
    for a in arts:
        del a["threads"]
m["schema"] = "tessera-manifest/1"
json.dump(m, open(out, "w"), indent="\t")
