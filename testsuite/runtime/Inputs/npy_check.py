"""The .npy reader and writer (runtime/npy.c) against numpy.

usage: npy_check.py NPY_TOOL OUTDIR roundtrip|pattern|malformed
  roundtrip: random arrays of every dtype and several shapes, saved by numpy as
             format 1.0, 2.0 and 3.0, copied by npy_tool; the copy must load in
             numpy equal bit for bit and be byte-identical to numpy's 1.0 file.
  pattern:   npy_tool writes a known pattern in every dtype; numpy checks it.
  malformed: broken files; prints what npy_tool says about each.
"""
import os
import subprocess
import sys

import numpy as np

tool, outdir, mode = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(outdir, exist_ok=True)
rng = np.random.default_rng(1234)
DTYPES = ["bool", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "f2", "f4", "f8"]
SHAPES = [(), (0,), (7,), (3, 5), (2, 3, 4), (1, 1, 1, 1, 9)]


def random_array(dtype, shape):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    # floats: any bit pattern, NaNs and infinities included
    bits = rng.integers(0, 2 ** (8 * dt.itemsize), size=shape, dtype=np.uint64)
    return bits.astype(f"u{dt.itemsize}").view(dt)


def tool_run(*args):
    return subprocess.run([tool, *args], capture_output=True, text=True)


def path(name):
    return os.path.join(outdir, name)


if mode == "roundtrip":
    checked = failed = 0
    for dtype in DTYPES:
        for shape in SHAPES:
            a = random_array(dtype, shape)
            for version in [(1, 0), (2, 0), (3, 0)]:
                src = path(f"src-{dtype}-{len(shape)}-{version[0]}.npy")
                with open(src, "wb") as f:
                    np.lib.format.write_array(f, a, version=version)
                dst = src.replace("src-", "dst-")
                r = tool_run("copy", src, dst)
                b = np.load(dst)
                ref = path("ref.npy")
                np.save(ref, a)
                same_bits = (b.dtype == a.dtype and b.shape == a.shape and
                             a.tobytes() == b.tobytes())
                same_file = open(dst, "rb").read() == open(ref, "rb").read()
                checked += 1
                if r.returncode != 0 or not same_bits or not same_file:
                    failed += 1
                    print(f"FAIL {dtype} {shape} v{version}: {r.stdout.strip()} "
                          f"bits={same_bits} file={same_file}")
    print(f"roundtrip: {checked} files, {failed} failed")

elif mode == "pattern":
    failed = 0
    for name, dtype in [("bool", "bool"), ("i8", "i1"), ("i16", "i2"), ("i32", "i4"),
                        ("i64", "i8"), ("u8", "u1"), ("u16", "u2"), ("bf16", "u2"),
                        ("u32", "u4"), ("f16", "f2"), ("f32", "f4"), ("f64", "f8")]:
        out = path(f"pattern-{name}.npy")
        r = tool_run("make", name, out, "4", "25")
        a = np.load(out)
        i = np.arange(100, dtype=np.int64)
        v = (i * 37 + 11) % 251 - 100
        want = {"bool": i % 3 == 0, "i1": v, "i2": v * 100, "i4": v * 100000,
                "i8": v * 10000000000, "u1": v + 100, "u2": (v + 100) * 200,
                "u4": (v + 100) * 10000000, "f2": v, "f4": v / 4, "f8": v / 8}[dtype]
        want = np.asarray(want).astype(dtype).reshape(4, 25)
        ok = r.returncode == 0 and a.dtype == np.dtype(dtype) and np.array_equal(a, want)
        failed += not ok
        print(f"pattern {name}: {'ok' if ok else 'FAIL ' + r.stdout.strip()}")
    print(f"pattern: {failed} failed")

elif mode == "malformed":
    good = path("good.npy")
    np.save(good, np.arange(12, dtype="<f4").reshape(3, 4))
    data = open(good, "rb").read()
    header_len = int.from_bytes(data[8:10], "little")

    def with_header(text, version=1, payload=b"\0" * 48):
        h = text.encode("latin1")
        pad = (-(10 + len(h) + 1)) % 64
        h = h + b" " * pad + b"\n"
        if version == 1:
            prefix = b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little")
        else:
            prefix = b"\x93NUMPY" + bytes([version, 0]) + len(h).to_bytes(4, "little")
        return prefix + h + payload

    cases = {
        "bad-magic": b"\x93NUMPZ" + data[6:],
        "tiny": data[:7],
        "truncated-header": data[: 10 + header_len // 2],
        "truncated-data": data[:-5],
        "not-dict": with_header("['descr', '<f4']"),
        "fortran": with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 4), }"),
        "big-endian": with_header("{'descr': '>f4', 'fortran_order': False, 'shape': (3, 4), }"),
        "complex": with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 4), }"),
        "structured": with_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }"),
        "huge-shape": with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }"),
        "huge-dim": with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }"),
        "negative-dim": with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }"),
        "missing-shape": with_header("{'descr': '<f4', 'fortran_order': False, }"),
        "extra-key": with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1, }"),
        "version-4": with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 4),
        "v2-ok": with_header("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", 2, b"\1\0" * 6),
        "v3-ok": with_header("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }", 3, b"\7" * 5),
        "garbage-after": with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x"),
        "unterminated": with_header("{'descr': '<f4"),
    }
    for name, content in cases.items():
        with open(path(name + ".npy"), "wb") as f:
            f.write(content)
    names = [path(n + ".npy") for n in cases] + [path("no-such-file.npy"), outdir]
    r = tool_run("info", *names)
    print(r.stdout.replace(outdir + "/", "").replace(outdir, "OUTDIR"), end="")
    print("exit", r.returncode)
