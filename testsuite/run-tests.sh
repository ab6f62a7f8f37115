#!/bin/sh
# Runs the lit suite and prints the one line CI reads: "N passed, N failed".
BUILD=${BUILD:-build}
LIT=${LIT:-lit-22}
mkdir -p "$BUILD"
log="$BUILD/lit.log"
BUILD=$BUILD "$LIT" -v testsuite > "$log" 2>&1
status=$?
grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$log" || true
if [ $status -ne 0 ]; then sed -n '/^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*/,$p' "$log" | head -200; fi
passed=$(grep -E '^\s*(Passed|Expectedly Failed)\s*:' "$log" | awk -F: '{s+=$2} END {print s+0}')
failed=$(grep -E '^\s*(Failed|Unexpectedly Passed|Unresolved|Timed Out)\s*:' "$log" | awk -F: '{s+=$2} END {print s+0}')
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ] && [ $status -ne 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ $status -eq 0 ]
