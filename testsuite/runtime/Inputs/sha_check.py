"""compiler/driver/sha256.c against Python's hashlib on random files of every length
from 0 to 300 bytes and a few large ones (block boundaries at 55, 56, 64...).

usage: sha_check.py MANIFEST_WRITE_TEST OUTDIR
"""
import hashlib
import os
import random
import subprocess
import sys

tool, outdir = sys.argv[1], sys.argv[2]
os.makedirs(outdir, exist_ok=True)
rng = random.Random(7)
failed = 0
lengths = list(range(301)) + [1000, 4095, 4096, 65537, 1 << 20]
for n in lengths:
    data = bytes(rng.randrange(256) for _ in range(n)) if n < 5000 else os.urandom(n)
    p = os.path.join(outdir, f"f{n}")
    with open(p, "wb") as f:
        f.write(data)
    got = subprocess.run([tool, "sha256-file", p], capture_output=True, text=True).stdout.strip()
    if got != hashlib.sha256(data).hexdigest():
        failed += 1
        print(f"FAIL length {n}: {got}")
print(f"sha256: {len(lengths)} lengths, {failed} failed")
