"""Validates tessc's --diagnostics-format output (diagnostics-format.test):
the document parses as JSON and has the documented shape; prints a summary
line per diagnostic for FileCheck. usage: check_diagnostics.py json|sarif < doc"""
import json
import re
import sys

kind = sys.argv[1]
doc = json.load(sys.stdin)
CODE = re.compile(r"^[EW]\d{4}$")
if kind == "json":
    assert doc["version"] == 1 and doc["tool"] == "tessc", doc
    for d in doc["diagnostics"]:
        assert set(d) == {"level", "code", "message", "file", "line", "column", "end_column", "notes"}, d
        assert CODE.match(d["code"]) and d["level"] in ("error", "warning"), d
        print("%s %s %s:%s:%s: %s" % (d["level"], d["code"], d["file"], d["line"], d["column"], d["message"]))
        for n in d["notes"]:
            print("  note %s:%s:%s: %s" % (n["file"], n["line"], n["column"], n["message"]))
    print("%d diagnostics" % len(doc["diagnostics"]))
else:
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1, doc
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["name"] == "tessc"
    for r in run["results"]:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"] and CODE.match(r["ruleId"]), r
        loc = r["locations"][0]["physicalLocation"]
        region = loc.get("region", {})
        print("%s %s %s:%s:%s: %s" % (r["level"], r["ruleId"], loc["artifactLocation"]["uri"],
                                     region.get("startLine"), region.get("startColumn"), r["message"]["text"]))
        for rel in r.get("relatedLocations", []):
            print("  note %s:%s: %s" % (rel["physicalLocation"]["artifactLocation"]["uri"],
                                       rel["physicalLocation"]["region"]["startLine"], rel["message"]["text"]))
    print("%d results, %d rules" % (len(run["results"]), len(rules)))
