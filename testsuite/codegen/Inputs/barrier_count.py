"""barrier_count.py TESSC TMPDIR FILE...: for every kernel of every file, the
plan's barrier count (--dump-after=barrier, '// barriers: N') must equal the
number of bar.sync instructions in its sm_90 PTX."""
import os, re, subprocess, sys

tessc, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(tmp, exist_ok=True)
bad = checked = 0
for f in files:
    out = os.path.join(tmp, os.path.basename(f))
    r = subprocess.run([tessc, f, "--emit", "ptx", "--dump-after=barrier", "-o", out], capture_output=True, text=True)
    if r.returncode:
        sys.exit("%s: tessc failed: %s" % (f, r.stderr[-2000:]))
    plans = re.findall(r"// plan after barrier: kernel (\w+),.*?// barriers: (\d+)", r.stderr, re.S)
    if not plans:
        sys.exit("%s: no barrier plan in the dump" % f)
    stem = os.path.splitext(os.path.basename(f))[0]
    for kernel, n in plans:
        ptx = open(os.path.join(out, "%s.%s.sm_90.ptx" % (stem, kernel))).read()
        got = len(re.findall(r"\bbar\.sync\b", ptx))
        checked += 1
        if got != int(n):
            bad += 1
            print("MISMATCH %s %s: plan %s barriers, PTX %d bar.sync" % (f, kernel, n, got))
print("%d kernels, %d mismatches" % (checked, bad))
sys.exit(1 if bad or checked == 0 else 0)
