#!/bin/sh
# Session 41's first device call (run s41-1, docs/performance.md), prepared in session 40 (which spent
# its device time before it could run these). From the repository root on the
# device, carrying build-benchpkg (sh bench/build.sh --build build-dev), the
# GPU suite's artifacts for the new cases and the build folder's programs:
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s41 \
#       --case bench-attn-d64-bq256-w16 --case bench-attn-d64-bq256-w16-s3-causal --case bench-attn-d64-bq256-w8
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s41rel \
#       --schedule release --case bench-attn-d64-bq256-w16
#   carry: build-benchpkg devstage/s41 devstage/s41rel build-dev/tessrun build-dev/tests build-dev/libtessrt.so
#          build-dev/libcjson.so.1 build-dev/libtessinterp.so (8 paths; this script is tracked)
# 1. the GPU suite on session 40's D 64 candidates (256 query rows a block)
#    and compute-sanitizer synccheck on the 16-warp one, before any timing;
# 2. the whole bench (they are among its D 64 variants, with the paired rounds);
# 3. energy per call with 3 s windows (run s40-4's 80-400 ms were too coarse).
P=build-benchpkg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; date -u
timeout 120 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s41 --tmp /tmp/g41 \
    --timeout 60 > "$OUT/suite.txt" 2>&1
timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s41 --tmp /tmp/g42 \
    --timeout 50 --case bench-attn-d64-bq256-w16 --sanitizer synccheck > "$OUT/synccheck.txt" 2>&1
timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s41rel --tmp /tmp/g43 \
    --timeout 50 > "$OUT/suite_rel.txt" 2>&1
tail -2 "$OUT/suite.txt" "$OUT/synccheck.txt" "$OUT/suite_rel.txt"; date -u
mkdir -p "$OUT/bench"
OUT=$OUT/bench timeout 330 sh bench/run.sh --pkg $P --no-pallas --no-compile-time > "$OUT/bench.txt" 2>&1
rm -rf "$OUT/bench/sass"; date -u
timeout 100 python3 bench/experiments/energy_s40.py --pkg $P \
    "matmul_f16_4096^3=matmul_128x256x64_w8_s3_sm90a" \
    "attention_f16_(4,4096,16,128)=attn_d128_bq128_bk128_w8_s3_sm90a" > "$OUT/energy.txt" 2>&1
date -u
