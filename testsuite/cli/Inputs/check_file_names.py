"""check_file_names.py TESSC EXAMPLE DIR INCLUDE: compiles EXAMPLE under file
names that C and JSON cannot take as they are, and checks what comes out.

- '"', '\\', '*', a newline, '??' (a trigraph), a control byte (a name
  cannot hold '/', so '*/' cannot come from one; embed.c escapes it too): --emit header,source must give C that gcc accepts
  (-fsyntax-only, and compiled to an object whose only symbols are the
  launch functions' and the manifest's: no code from the name), and a
  manifest and JSON/SARIF diagnostics that are UTF-8 JSON.
- a byte that is not UTF-8 (0xff): JSON and SARIF diagnostics are valid
  UTF-8 JSON (the byte is U+FFFD), and a manifest is refused (exit 1, the
  runtime could not open artifacts named through JSON).
Prints one line per check."""
import json
import os
import subprocess
import sys

tessc, example, top, include = sys.argv[1:5]
os.makedirs(top, exist_ok=True)
source = open(example, "rb").read()


def strict_json(data, what):
    return json.loads(data.decode("utf-8", errors="strict"))  # raises on invalid UTF-8


def run(args, cwd):
    return subprocess.run([tessc] + args, cwd=cwd, capture_output=True)


names = {
    "quote": b'a"b',
    "inject": b'c"; int injected_code; char *s = "',
    "newline": b"n\nm",
    "all": b'q"\\* int injected_code; \n??=x\x01',
}
for key, stem in names.items():
    d = os.path.join(top, key).encode()
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, stem + b".tess")
    open(path, "wb").write(source)
    r = run([stem + b".tess", b"--emit", b"header,source,manifest", b"-o", b"out"], d)
    assert r.returncode == 0, (key, r.returncode, r.stderr)
    out = os.path.join(d, b"out")
    strict_json(open(os.path.join(out, stem + b".manifest.json"), "rb").read(), key)
    c = os.path.join(out, stem + b".c")
    text = open(c, "rb").read()
    assert all(b < 0x80 for b in text), key
    g = subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I", include, "-I", out, c],
                       capture_output=True)
    assert g.returncode == 0, (key, g.stderr.decode(errors="replace"))
    h = subprocess.run(["gcc", "-std=c11", "-fsyntax-only", "-I", include, "-x", "c",
                        os.path.join(out, stem + b".h")], capture_output=True)
    assert h.returncode == 0, (key, h.stderr.decode(errors="replace"))
    o = os.path.join(out, b"k.o")
    subprocess.run(["gcc", "-std=c11", "-c", "-I", include, "-I", out, c, "-o", o], check=True)
    symbols = subprocess.run(["nm", "--defined-only", "-g", o], capture_output=True, check=True).stdout
    assert b"injected_code" not in [line.split()[-1] for line in symbols.splitlines()], (key, symbols)
    print("%s: C compiles, no injected symbol, manifest is UTF-8 JSON" % key)

# An error in a file whose name is not UTF-8: the diagnostics documents.
d = os.path.join(top, "bad").encode()
os.makedirs(d, exist_ok=True)
stem = b"caf\xe9\xff"
open(os.path.join(d, stem + b".tess"), "wb").write(b"kernel k(o: out f32[16]) { o[...] = y; }\n")
for fmt in ("json", "sarif"):
    r = run([stem + b".tess", b"--emit", b"ir", b"-o", b"out", b"--diagnostics-format=" + fmt.encode()], d)
    assert r.returncode == 1, (fmt, r.returncode)
    doc = strict_json(r.stderr, fmt)
    if fmt == "json":
        place = doc["diagnostics"][0]["file"]
    else:
        place = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    print("%s: valid UTF-8, file %s" % (fmt, ascii(place)))
# The same name compiles when no manifest is asked for, and refuses one.
open(os.path.join(d, stem + b".tess"), "wb").write(source)
r = run([stem + b".tess", b"--emit", b"ir", b"-o", b"out"], d)
assert r.returncode == 0, r.stderr
for emit in (b"manifest", b"source"):
    r = run([stem + b".tess", b"--emit", emit, b"-o", b"out2", b"--diagnostics-format=json"], d)
    doc = strict_json(r.stderr, "refusal")
    print("--emit %s: exit %d, %s %s" % (emit.decode(), r.returncode, doc["diagnostics"][0]["code"],
                                          ascii(doc["diagnostics"][0]["message"])))
    assert not os.path.exists(os.path.join(d, b"out2"))
