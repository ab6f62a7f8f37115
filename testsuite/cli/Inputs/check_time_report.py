"""check_time_report.py REPORT: every line of a --time-report parses, the
times are not negative, and the phases plus "other" add up to the total."""
import sys

lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "tessc time report (wall clock, ms)", lines[0]
phases = {}
for line in lines[1:]:
    words = line.split()
    # "  NAME...  MS  PCT%  [(N runs)]" or "  total  MS"
    if "(" in words and words[-1] == "runs)":
        words = words[:-2]
    if words[-1].endswith("%"):
        name, ms = " ".join(words[:-2]), float(words[-2])
    else:
        name, ms = " ".join(words[:-1]), float(words[-1])
    assert name not in phases, "phase listed twice: " + name
    phases[name] = ms
total = phases.pop("total")
assert all(v >= 0 for k, v in phases.items() if k != "other"), phases
assert total > 0 and abs(sum(phases.values()) - total) <= 0.02 * len(phases) + 0.01, (sum(phases.values()), total)
print("ok: %d phases, %.2f ms" % (len(phases), total))
