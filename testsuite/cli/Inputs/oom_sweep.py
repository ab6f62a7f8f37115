"""oom_sweep.py FIRST_KB LAST_KB STEP_KB NAME -- COMMAND...: runs COMMAND
under address-space limits (ulimit -v) from FIRST_KB to LAST_KB and checks
each run: exit 0, or exit 1 with "error: out of memory" (or "error:
FILE: out of memory" for an input too large to read, or "error: WHAT:
out of memory" naming what ran out, such as a kernel; never an abort,
134 or a signal, nor an internal error, 3). A limit too low for the dynamic
loader to map tessc's libraries (exit 127, before tessc runs) is skipped.
Prints NAME and whether out of memory was seen at all, so that a sweep
whose limits all pass or all fail to load cannot pass unnoticed."""
import re
import resource
import subprocess
import sys

first, last, step, name = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
command = sys.argv[sys.argv.index("--") + 1:]
oom = ok = 0
bad = []
for kb in range(first, last + 1, step):
    def limit(kb=kb):
        resource.setrlimit(resource.RLIMIT_AS, (kb * 1024, kb * 1024))
    r = subprocess.run(command, preexec_fn=limit, capture_output=True)
    err = r.stderr.decode(errors="replace")
    if r.returncode == 127 and "error while loading shared libraries" in err:
        continue
    if r.returncode == 0:
        ok += 1
    elif r.returncode == 1 and re.search(r"error: (.*: )?out of memory", err):
        oom += 1
    else:
        bad.append("%d KiB: exit %d: %s" % (kb, r.returncode, err.strip()[-300:]))
for b in bad:
    print(b)
print("%s: %s, %s" % (name, "out of memory seen" if oom else "no out of memory", "all clean" if not bad else
                      "%d bad exits" % len(bad)))
