#!/bin/sh
# Session 43's check of the stmatrix TMA stores as landed (f3e566b): the whole
# sm_90a GPU suite (auto's top-level TMA stores in every case that has one),
# synccheck on two of them, then the whole bench. On the build machine first:
#   make STATIC=1 BUILD=build-dev -j2 all
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s43
#   sh bench/build.sh --build build-dev --pkg build-benchpkg43
#   rm -rf devstage/pkl && cp -al build-benchpkg43 devstage/pkl && rm devstage/pkl/tessc && a stub tessc (run.sh checks it exists)
#   carry: devstage/s43 devstage/pkl build-dev/tessrun build-dev/tests build-dev/libtessrt.so
#          build-dev/libcjson.so.1 build-dev/libtessinterp.so (this script is tracked)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; date -u
timeout 200 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s43 --tmp /tmp/g1 \
    --timeout 60 > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
for c in tma-store-edges matmul; do
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s43 --tmp /tmp/g2 \
        --timeout 50 --case $c --sanitizer synccheck > "$OUT/san_$c.txt" 2>&1
    echo "$c synccheck: $(tail -n 1 "$OUT/san_$c.txt")"
done
rm -rf build-benchpkg; mv devstage/pkl build-benchpkg
mkdir -p "$OUT/bench"
OUT=$OUT/bench timeout 330 sh bench/run.sh --pkg build-benchpkg --no-pallas --no-compile-time > "$OUT/bench.txt" 2>&1
rm -rf "$OUT/bench/sass"; date -u
tail -60 "$OUT/bench.txt"
