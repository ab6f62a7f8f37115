"""inplace_alloc.py TESSC FILE...: a tensor-core dot that reads an operand in
place from an alloc (its load '(elided)' in --dump-after=barrier) must read
what the load would have read: no store, atomic or async copy into that
alloc between the load and the dot, and the dot's own scratch (B or A
staging) not overlapping the alloc's bytes."""
import re, subprocess, sys, tempfile

tessc, files = sys.argv[1], sys.argv[2:]
bad = checked = 0
for f in files:
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([tessc, f, "--emit", "ptx", "--dump-after=barrier", "-o", out], capture_output=True, text=True)
    if "plan after barrier" not in r.stderr:
        sys.exit("%s: no barrier plan: %s" % (f, r.stderr[-1000:]))
    for plan in r.stderr.split("// plan after barrier: kernel ")[1:]:
        kernel = plan.split(",")[0]
        lines = plan.splitlines()
        root, smem, elided = {}, {}, {}
        order = []
        for i, line in enumerate(lines):
            m = re.match(r"\s*(%\w+) = (alloc|view|load) (%\w+)?", line)
            if m and m.group(2) == "alloc":
                root[m.group(1)] = m.group(1)
                s = re.match(r"\s*// smem\[(\d+), (\d+)\) alloc", lines[i + 1])
                smem[m.group(1)] = (int(s.group(1)), int(s.group(2)))
            elif m and m.group(3) in root:
                root[m.group(1)] = root[m.group(3)]
                if m.group(2) == "load" and i + 1 < len(lines) and "(elided)" in lines[i + 1]:
                    elided[m.group(1)] = (root[m.group(3)], i)
            d = re.match(r"\s*(%\w+) = dot (%\w+), (%\w+)", line)
            if d:
                scratch = None
                for j in range(i + 1, min(i + 4, len(lines))):
                    s = re.match(r"\s*// smem\[(\d+), (\d+)\) scratch", lines[j])
                    if s:
                        scratch = (int(s.group(1)), int(s.group(2)))
                operands = [d.group(2), d.group(3)]
                # a transposed B: the transpose's operand
                for k, v in enumerate(operands):
                    for l in lines[:i]:
                        t = re.match(r"\s*%s = transpose (%%\w+)" % re.escape(v), l)
                        if t:
                            operands[k] = t.group(1)
                for v in operands:
                    if v not in elided:
                        continue
                    alloc, at = elided[v]
                    checked += 1
                    lo, hi = smem[alloc]
                    if scratch and scratch[0] < hi and lo < scratch[1] and scratch[1] > scratch[0]:
                        bad += 1
                        print("BAD %s %s: dot %s reads %s in place at smem[%d, %d) but stages into smem[%d, %d)"
                              % (f, kernel, d.group(1), alloc, lo, hi, scratch[0], scratch[1]))
                    for l in lines[at + 1:i]:
                        w = re.match(r"\s*(store|atomic\w*|async_copy) (%\w+)", l)
                        if w and root.get(w.group(2)) == alloc:
                            bad += 1
                            print("BAD %s %s: %s into %s between the load %s and the dot that reads it in place"
                                  % (f, kernel, w.group(1), alloc, v))
print("%d in-place operands, %d bad" % (checked, bad))
sys.exit(1 if bad else 0)
