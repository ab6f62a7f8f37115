#!/bin/sh
# Session 42's second device call: the whole bench on the package built at
# this session's tree (sh bench/build.sh --build build-dev --pkg build-benchpkg42,
# carried as devstage/pkl without its tessc: the carry limit is 64 MiB).
#   carry: devstage/pkl (this script is tracked)
rm -rf build-benchpkg; mv devstage/pkl build-benchpkg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; date -u
mkdir -p "$OUT/bench"
OUT=$OUT/bench timeout 400 sh bench/run.sh --pkg build-benchpkg --no-pallas --no-compile-time > "$OUT/bench.txt" 2>&1
rm -rf "$OUT/bench/sass"; date -u
tail -60 "$OUT/bench.txt"
