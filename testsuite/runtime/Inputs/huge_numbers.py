"""Writes variants of Inputs/valid/two.json into OUTDIR whose integer fields
hold numbers far outside int64 (manifest-huge-numbers.test).

usage: huge_numbers.py OUTDIR
"""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(here, "valid", "two.json")).read()
for name, field, value in [("warps", "warps", "6e49"), ("threads", "threads", "-1e400"),
                           ("shared", "shared_bytes", "1e19"),
                           ("big", "shared_bytes", "9007199254740993"), ("frac", "warps", "4.5")]:
    variant = re.sub(r'("%s":\s*)-?[0-9]+' % field, r"\g<1>" + value, text, count=1)
    assert variant != text
    with open(os.path.join(sys.argv[1], name + ".json"), "w") as out:
        out.write(variant)
