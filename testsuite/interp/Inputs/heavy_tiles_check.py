"""Runs heavy_tiles.tess through `tessc run --device interp` with the given
options on a random `a` and a grid of G x H x L tiles, and checks every tile
against numpy: tile (i, j, l) holds (i + 1) a@a + 1000 i + 10 j + l.
usage: heavy_tiles_check.py TESSC KERNEL_FILE TMP G H L [tessc run options...]"""
import subprocess
import sys

import numpy as np

tessc, source, tmp = sys.argv[1:4]
g, h, l = (int(v) for v in sys.argv[4:7])
options = sys.argv[7:]
rng = np.random.default_rng(g * 100 + h * 10 + l)
a = rng.integers(-4, 5, size=(16, 16)).astype(np.float16) / 8   # exact in f16, sums exact in f32
np.save(tmp + ".a.npy", a)
np.save(tmp + ".o.npy", np.full((g, h, l, 16, 16), np.nan, np.float32))
subprocess.run([tessc, "run", source, "--device", "interp", *options, tmp + ".a.npy", tmp + ".o.npy",
                f"G={g}", f"H={h}", f"L={l}"], check=True)
o = np.load(tmp + ".o.npy")
p = a.astype(np.float32) @ a.astype(np.float32)
i, j, k = np.meshgrid(np.arange(g), np.arange(h), np.arange(l), indexing="ij")
ref = (i + 1)[..., None, None] * p + (1000 * i + 10 * j + k)[..., None, None]
bad = np.argwhere(~np.all(o == ref, axis=(3, 4)))
if len(bad):
    print(f"FAIL: {len(bad)} of {g * h * l} tiles wrong, first {tuple(bad[0])}")
    sys.exit(1)
print(f"ok: {g * h * l} tiles")
