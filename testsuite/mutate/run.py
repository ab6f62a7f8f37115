"""Random mutations of every example and test kernel, run through tessc.

usage: run.py --tessc TESSC --root ROOT [--count N] [--seed S] [--jobs J]
              [--timeout SECONDS] [--keep DIR]

Takes examples/*.tess and every .tess and .tir file under testsuite/,
applies one to three random mutations to each mutant (a truncation, byte
flips and inserted bytes, a token splice from another kernel, a deleted or
repeated token run, deep nesting of an expression or of blocks, a huge or
odd number in place of a number, and structure-aware edits: an index or
`.T` after an operand, another dtype, the operands of an operator swapped), and compiles it with a random --emit list
into an output directory that already holds one file from an "earlier run".

A mutant passes when tessc exits 0, or exits 1 with an "error:" diagnostic
and leaves the output directory exactly as it found it (no artifact, no
temporary file, the earlier file unchanged). It fails on anything else: a
signal, exit 2 or 3 (usage, internal error), a sanitizer report, a run
over --timeout (10 s) of CPU time, exit 1 without a diagnostic, or a file left
behind. Failing mutants are copied to --keep (if given) and listed.
The last line is "N mutants: A compiled, B rejected, F failures".
Docs: docs/reliability.md. The lit test (mutate.test) runs a small batch.
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z0-9_.]+|0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?|\.\.\.|\.\.|->|[<>=!]=|&&|\|\||[-+*/]=|\s+|.", re.S)
NUMBER = re.compile(rb"^(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9]+)?)$")
HUGE = [b"99999999999999999999", b"9223372036854775807", b"9223372036854775808", b"4294967296",
        b"2147483648", b"65536", b"65535", b"1048576", b"2097152", b"1e400", b"1e-400", b"0x" + b"f" * 20,
        b"1" + b"0" * 200, b"0", b"1", b"3", b"1.5", b"0.0", b"340282366920938463463374607431768211456.0",
        b"(-9223372036854775807 - 1)", b"(0 - 1)", b"4611686018427387904"]
WORD = re.compile(rb"^[A-Za-z_][A-Za-z0-9_]*$")
DTYPES = [b"bool", b"i8", b"i16", b"i32", b"i64", b"u8", b"u32", b"f16", b"bf16", b"f32", b"f64"]
SUFFIXES = [b"[...]", b"[None]", b"[0]", b"[ds(0, 4)]", b".T", b"[:, None]", b"[0:2]", b"[..., None]",
            b"[ds(0, 4)][0:2]", b"[-1]"]
EMITS_TESS = ["ptx,manifest", "ir,ir-opt", "ast,tokens", "llvm", "ir", "ptx"]
EMITS_TIR = ["ptx,manifest", "ir,ir-opt", "llvm", "ir-opt"]
EARLIER = "earlier-run.ptx"
EARLIER_TEXT = b"// a complete artifact from an earlier successful run\n"


def kernels(root):
    files = sorted(glob.glob(os.path.join(root, "examples", "*.tess")))
    for ext in ("tess", "tir"):
        files += sorted(glob.glob(os.path.join(root, "testsuite", "**", "*." + ext), recursive=True))
    return files


def tokens(data):
    return TOKEN.findall(data)


def mutate_once(rng, data, donors):
    kind = rng.choice(["truncate", "flip", "insert", "splice", "delete", "repeat", "nest", "blocks", "number",
                       "number", "index", "dtype", "swap"])
    toks = tokens(data)
    if kind == "truncate" and data:
        return data[:rng.randrange(len(data))]
    if kind == "flip" and data:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    if kind == "insert":
        i = rng.randint(0, len(data))
        junk = bytes(rng.choice([0, 0xff, 0xc3, 0x80, 0xe2, 0x0a, 0x7b, 0x7d, 0x28, 0x29, 0x3b, 0x5b])
                     for _ in range(rng.randint(1, 6)))
        return data[:i] + junk + data[i:]
    if not toks:
        return data
    i = rng.randrange(len(toks))
    if kind == "splice":
        donor = tokens(rng.choice(donors))
        if donor:
            a = rng.randrange(len(donor))
            b = min(len(donor), a + rng.randint(1, 40))
            return b"".join(toks[:i] + donor[a:b] + toks[i:])
    if kind == "delete":
        j = min(len(toks), i + rng.randint(1, 8))
        return b"".join(toks[:i] + toks[j:])
    if kind == "repeat":
        j = min(len(toks), i + rng.randint(1, 12))
        return b"".join(toks[:j] + toks[i:j] * rng.randint(2, 50) + toks[j:])
    if kind == "nest":
        # Deep nesting around one token: parentheses, unary minus, calls,
        # a long chain of '+', casts, transposes.
        n = rng.choice([10, 64, 255, 256, 257, 300, 1000, 5000, 20000])
        t = toks[i]
        style = rng.randrange(6)
        if style == 0:
            t = b"(" * n + t + b")" * n
        elif style == 1:
            t = b"-" * n + t
        elif style == 2:
            t = b"exp(" * n + t + b")" * n
        elif style == 3:
            t = b" + ".join([t] * n)
        elif style == 4:
            t = t + b" as f32" * n
        else:
            t = t + b".T" * n
        return b"".join(toks[:i] + [t] + toks[i + 1:])
    if kind == "blocks":
        n = rng.choice([8, 63, 64, 65, 200, 3000])
        opener = rng.choice([b"if true { ", b"for q in 0..2 { ", b"{ ", b"if 1 < 2 { } else "])
        closer = b"" if opener.endswith(b"else ") else b"} "
        j = min(len(toks), i + rng.randint(1, 20))
        tail = b"{}" if not closer else b""
        return b"".join(toks[:i]) + opener * n + tail + b"".join(toks[i:j]) + closer * n + b"".join(toks[j:])
    if kind == "index":
        # Structure-aware (as fuzz_frontend.c's custom mutator): an index or a
        # transpose after an operand, so that sema sees it, not the parser.
        ends = [k for k, t in enumerate(toks) if WORD.match(t) or NUMBER.match(t) or t in (b")", b"]")]
        if ends:
            k = rng.choice(ends)
            return b"".join(toks[:k + 1] + [rng.choice(SUFFIXES)] + toks[k + 1:])
    if kind == "dtype":
        dts = [k for k, t in enumerate(toks) if t in DTYPES]
        if dts:
            k = rng.choice(dts)
            return b"".join(toks[:k] + [rng.choice(DTYPES)] + toks[k + 1:])
    if kind == "swap":
        # the tokens on either side of a binary operator
        ops = [k for k, t in enumerate(toks) if t in (b"+", b"-", b"*", b"/", b"%", b"<", b"==", b"&&")
               and 1 < k < len(toks) - 2]
        if ops:
            k = rng.choice(ops)
            a = k - 1 if not toks[k - 1].isspace() else k - 2
            b = k + 1 if not toks[k + 1].isspace() else k + 2
            t = list(toks)
            t[a], t[b] = t[b], t[a]
            return b"".join(t)
    if kind == "number":
        nums = [k for k, t in enumerate(toks) if NUMBER.match(t)]
        if nums:
            k = rng.choice(nums)
            return b"".join(toks[:k] + [rng.choice(HUGE)] + toks[k + 1:])
    return data


def make_mutants(files, count, seed):
    rng = random.Random(seed)
    sources = {f: open(f, "rb").read() for f in files}
    donors = list(sources.values())
    mutants = []
    for n in range(count):
        f = files[n % len(files)] if n < len(files) else rng.choice(files)
        data = sources[f]
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data = mutate_once(rng, data, donors)
        ext = os.path.splitext(f)[1]
        emit = rng.choice(EMITS_TIR if ext == ".tir" else EMITS_TESS)
        mutants.append((n, f, ext, data, emit))
    return mutants


def run_one(tessc, timeout, workdir, mutant):
    n, origin, ext, data, emit = mutant
    src = os.path.join(workdir, "m%05d%s" % (n, ext))
    with open(src, "wb") as out:
        out.write(data)
    outdir = os.path.join(workdir, "out%05d" % n)
    os.mkdir(outdir)
    with open(os.path.join(outdir, EARLIER), "wb") as out:
        out.write(EARLIER_TEXT)
    cmd = [tessc, src, "--emit", emit, "--arch", "sm_80,sm_90", "-o", outdir]
    problem = None

    # The limit is on CPU time (SIGXCPU past it), so that a loaded machine
    # does not turn a slow compile into a "hang"; ptxas, which tessc runs for
    # cubins and manifests, inherits the same limit. Wall time (12 times the
    # limit) is only a backstop.
    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 1))

    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout * 12,
                           preexec_fn=limit_cpu)
        code, err = p.returncode, p.stderr.decode("utf-8", "replace")
        if code in (-signal.SIGXCPU, -signal.SIGKILL):
            problem = "used more than %g s of CPU time" % timeout
    except subprocess.TimeoutExpired:
        code, err, problem = None, "", "did not finish in %g s of wall time" % (timeout * 12)
    if problem is None:
        left = sorted(os.listdir(outdir))
        earlier_ok = EARLIER in left and open(os.path.join(outdir, EARLIER), "rb").read() == EARLIER_TEXT
        if "Sanitizer" in err or "runtime error:" in err:
            problem = "sanitizer report"
        elif code < 0:
            problem = "killed by signal %d" % -code
        elif code not in (0, 1):
            problem = "exit status %d" % code
        elif code == 1 and not re.search(r"^(\S.*: )?error: ", err, re.M):
            problem = "exit 1 without an error diagnostic"
        elif code == 1 and re.search(r"^tessc: internal error", err, re.M):
            problem = "internal error reported with exit 1"
        elif not earlier_ok:
            problem = "the earlier run's file was changed or removed"
        elif code == 1 and left != [EARLIER]:
            problem = "files left after a failed run: %s" % ", ".join(x for x in left if x != EARLIER)
    shutil.rmtree(outdir, ignore_errors=True)
    if problem is None:
        os.unlink(src)
    first = err.strip().splitlines()[:1]
    return n, origin, emit, code, problem, src, first[0][:300] if first else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tessc", required=True)
    ap.add_argument("--root", required=True, help="the repository (examples/ and testsuite/)")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--keep", help="copy failing mutants here")
    args = ap.parse_args()
    files = kernels(args.root)
    if not files:
        sys.exit("run.py: no kernels under %s" % args.root)
    mutants = make_mutants(files, args.count, args.seed)
    compiled = rejected = 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="tessc-mutate.") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for n, origin, emit, code, problem, src, first in pool.map(
                    lambda m: run_one(args.tessc, args.timeout, workdir, m), mutants):
                if problem:
                    failures.append((n, origin, emit, problem, first))
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        shutil.copy(src, args.keep)
                elif code == 0:
                    compiled += 1
                else:
                    rejected += 1
    for n, origin, emit, problem, first in failures:
        print("FAIL mutant %d of %s (--emit %s): %s" % (n, os.path.relpath(origin, args.root), emit, problem))
        if first:
            print("    " + first)
    print("%d mutants: %d compiled, %d rejected, %d failures" % (len(mutants), compiled, rejected, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
