"""Checks tessc's stable diagnostic codes (diagnostic-codes.test).

1. Every message format passed to a diagnostic function in compiler/ and
   grammar/ has an entry in diag.c's table (diag_codes), codes are unique,
   and no format has two codes.
   A format whose first conversion names the option (driver/main.c's
   option_choice: "unknown %s '%s' (known: %s)") is covered by the table's
   formats it renders as, one an option; those options' bad values must
   come out with the option's own code.
2. Every negative test (testsuite/{lexer,parser,sema,ir,cli}) that fails to
   compile reports, in --diagnostics-format=json, only codes from the table
   (never E0000), and the JSON document parses.
usage: diagnostic_codes.py ROOT TESSC
"""
import glob
import json
import os
import re
import subprocess
import sys

root, tessc = sys.argv[1], sys.argv[2]
CALL = re.compile(r'\b(diag_error|diag_error_plain|diag_warning|diag_warning_plain|usage_error|lex_error|parse_error'
                  r'|fail(?=\(V,))\s*\(')   # fail(V, ...): the tile-IR verifier's messages
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def formats(path):
    """The format strings of the diagnostic calls in a file (adjacent literals joined)."""
    text = open(path, encoding="utf-8").read()
    for call in CALL.finditer(text):
        at = text.find('"', call.end())
        if at < 0 or at - call.end() > 120 or ";" in text[call.end():at]:
            continue
        parts = []
        while True:
            m = STRING.match(text, at)
            if not m:
                break
            parts.append(m.group(1))
            at = m.end()
            at += len(text[at:]) - len(text[at:].lstrip())
            if not text.startswith('"', at):
                break
        yield call.group(1), "".join(parts)


table_text = open(os.path.join(root, "compiler/support/diag.c"), encoding="utf-8").read()
table = re.findall(r'^\s*\{"([EW]\d{4})", "((?:[^"\\]|\\.)*)"\},$', table_text, re.M)
codes = [c for c, _ in table]
problems = []
if len(set(codes)) != len(codes):
    problems.append("duplicate codes: %s" % sorted({c for c in codes if codes.count(c) > 1}))
by_format = {}
for code, fmt in table:
    if fmt in by_format:
        problems.append("format has two codes %s and %s: %s" % (by_format[fmt], code, fmt))
    by_format[fmt] = code

sources = glob.glob(os.path.join(root, "compiler/**/*.c"), recursive=True)
sources += glob.glob(os.path.join(root, "grammar/*.l")) + glob.glob(os.path.join(root, "grammar/*.y"))

def specializations(fmt):
    """The table's formats that FMT renders as when its first %s is filled in."""
    head, _, tail = fmt.partition("%s")
    pattern = re.compile(re.escape(head) + r"(--[a-z-]+)" + re.escape(tail).replace(re.escape("%s"), ".*") + "$")
    return [(f, c) for f, c in by_format.items() if pattern.match(f)]


generic_options = []
for path in sorted(sources):
    if path.endswith("diag.c"):
        continue
    for function, fmt in formats(path):
        if fmt in ("%s", "") or fmt in by_format:
            continue
        if fmt.startswith("unknown %s") and specializations(fmt):
            generic_options += [(re.match(r"unknown (--[a-z-]+)", f).group(1), c) for f, c in specializations(fmt)]
            continue
        problems.append("%s: %s(\"%s\") has no code in compiler/support/diag.c's diag_codes"
                        % (os.path.relpath(path, root), function, fmt))

checked = 0
for pattern in ("lexer/*.tess", "parser/*.tess", "sema/*.tess", "ir/*.tir", "cli/*.tess"):
    for path in sorted(glob.glob(os.path.join(root, "testsuite", pattern))):
        run = subprocess.run([tessc, path, "--emit", "ir", "-o", "-", "--diagnostics-format=json"],
                             capture_output=True, text=True)
        if run.returncode == 0:
            continue
        try:
            document = json.loads(run.stderr)
        except ValueError as error:
            problems.append("%s: the JSON does not parse: %s" % (path, error))
            continue
        for d in document["diagnostics"]:
            checked += 1
            if d["code"] not in codes:
                problems.append("%s: no code for '%s'" % (os.path.relpath(path, root), d["message"]))

# The options parsed by a generic format: a bad value gets the option's code.
for option, code in generic_options:
    run = subprocess.run([tessc, "--diagnostics-format=json", option + "=no-such-value", "x.tess"],
                         capture_output=True, text=True)
    got = [d["code"] for d in json.loads(run.stderr)["diagnostics"]] if run.stderr.startswith("{") else []
    checked += 1
    if run.returncode != 2 or got != [code]:
        problems.append("%s=no-such-value: exit %d, codes %s, expected exit 2 and %s" % (option, run.returncode, got, code))

for p in problems:
    print(p)
print("%d codes, %d diagnostics checked, %d problems" % (len(codes), checked, len(problems)))
sys.exit(1 if problems else 0)
