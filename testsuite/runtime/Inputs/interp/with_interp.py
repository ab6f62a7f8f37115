"""with_interp.py DIR: adds "interp": "STEM.tir" to every kernel of each
STEM.manifest.json in DIR that lacks one, when DIR/STEM.tir exists.

`tessc --emit manifest,ir` is to write that entry itself (issue 3's
emission); until it does, the tests that run tessc's manifests on the
interpreter pass them through here. It leaves a manifest that already has
the entry untouched, so it is harmless afterwards.
"""
import json
import os
import sys

directory = sys.argv[1]
for name in sorted(os.listdir(directory)):
    if not name.endswith(".manifest.json"):
        continue
    stem = name[: -len(".manifest.json")]
    if not os.path.exists(os.path.join(directory, stem + ".tir")):
        continue
    path = os.path.join(directory, name)
    with open(path) as f:
        manifest = json.load(f)
    changed = False
    for kernel in manifest["kernels"]:
        if "interp" not in kernel:
            kernel["interp"] = stem + ".tir"
            changed = True
    if changed:
        with open(path, "w") as f:
            json.dump(manifest, f, indent="\t")
