#!/bin/sh
# The next session's first device call: the A/B of rotate_q_s38.patch (the
# persistent tile loop's stationary q stored at the end of the trip, one
# block barrier a tile less), which session 38 built and tested on the
# interpreter but could not run on a GPU (docs/performance.md "Session 38").
# Inputs, built on the build machine from the repository root:
#   git worktree add /tmp/wt-rot HEAD && (cd /tmp/wt-rot && git apply bench/experiments/rotate_q_s38.patch &&
#       make STATIC=1 BUILD=build -j2 build/tessc)
#   P=devstage/pk; mkdir -p $P/ab; cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
#   for w in base:build-dev/tessc new:/tmp/wt-rot/build/tessc; do t=${w#*:}; w=${w%%:*}
#     $t bench/kernels/attention.tess -D D=128 -D BQ=128 -D BK=128 -D W=8 --arch=sm_90a -o $P/ab/${w}_d128
#     $t bench/kernels/attention.tess -D D=64 -D BQ=128 -D BK=64 -D W=4 --arch=sm_90a -o $P/ab/${w}_d64
#     $t bench/kernels/attention.tess -D D=64 -D BQ=64 -D BK=128 -D W=4 --arch=sm_90a -o $P/ab/${w}_d64b; done
#   sh testsuite/gpu/build-artifacts.sh --tessc /tmp/wt-rot/build/tessc --arch sm_90a --out devstage/s90a
# then run this from the repository root on the device, carrying devstage
# and build-dev's tessrun, tests and libraries (everything lands under $OUT).
P=devstage/pk
ab() { shape=$1; shift; extra=$1; shift; E=""
       for v in "$@"; do for w in base new; do E="$E ${w}_$v=ab/${w}_$v/attention.manifest.json:$K"; done; done
       python3 bench/ab_pair.py --pkg $P --shape $shape $extra $E; }
( K=mha_fwd; ab 4,4096,16,128 "" d128
  K=mha_fwd_causal; ab 4,4096,16,128 --causal d128
  K=mha_fwd; ab 4,1024,8,64 "" d64 d64b
  K=mha_fwd_causal; ab 4,1024,8,64 --causal d64b
  K=mha_fwd; ab 4,4000,16,128 "" d128
  K=mha_fwd_causal; ab 2,1000,4,64 --causal d64 ) > "$OUT/ab.txt" 2>&1
timeout 240 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s90a --tmp /tmp/g1 \
    --timeout 100 > "$OUT/suite_s90a.txt" 2>&1
for t in synccheck racecheck; do
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s90a --tmp /tmp/g2 \
        --timeout 50 --case bench-attn-d128-bk128 --sanitizer $t 2>&1 | tail -1
done > "$OUT/sanitize.txt"
