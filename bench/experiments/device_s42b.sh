#!/bin/sh
# The whole bench after device_s42.sh, on a package of the tree as it is then:
#   sh bench/build.sh --build build-dev --pkg build-benchpkg42   (~10 min)
#   cp -al build-benchpkg42 devstage/pkl && rm devstage/pkl/tessc && a stub tessc
#   (the carry limit is 64 MiB with the tree; tessc is 37 MB and --no-compile-time needs none)
#   carry: devstage/pkl (this script is tracked)
rm -rf build-benchpkg; mv devstage/pkl build-benchpkg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; date -u
mkdir -p "$OUT/bench"
OUT=$OUT/bench timeout 400 sh bench/run.sh --pkg build-benchpkg --no-pallas --no-compile-time > "$OUT/bench.txt" 2>&1
rm -rf "$OUT/bench/sass"; date -u
tail -60 "$OUT/bench.txt"
