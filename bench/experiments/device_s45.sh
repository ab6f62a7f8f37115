#!/bin/sh
# Session 45's first device call: session 44's stationary-store check
# (device_s44.sh full), then the GPU check and A/B of the lockstep ring
# barriers without fence.proxy.async (tma.c unfenced_ring_barriers). On the
# build machine first: what device_s44.sh lists, then
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s45
#     and copy the 15 cases whose PTX lost a fence into devstage/s45c;
#   sh bench/experiments/build_ab45.sh   (BASE: tessc before the change)
#   carry: device_s44.sh's, devstage/s45c, devstage/ab45
sh bench/experiments/device_s44.sh full
CASES="bench-attn-causal bench-attn-d64-bq256-w16-s3-causal bench-attn-d64-bq256-w16 bench-attn-d64-bq64-bk128-causal bench-attn-d64-bq64-bk128 bench-attn pipe-chain-both pipe-chain-first-empty pipe-chain-first-reversed pipe-chain-hi-in-loop-none pipe-chain-hi-in-loop pipe-chain-one-trip-each pipe-chain-s2 pipe-chain-s4 pipe-chain-second-empty"
# shellcheck disable=SC2046
timeout 200 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s45c --tmp /tmp/g5 \
    --timeout 60 $(for c in $CASES; do printf -- '--case %s ' $c; done) > "$OUT/suite45.txt" 2>&1
echo "unfenced: $(grep -E "^FAIL|passed," "$OUT/suite45.txt" | head -20)"
for c in bench-attn pipe-chain-s2; do
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s45c --tmp /tmp/g6 \
        --timeout 50 --case $c --sanitizer synccheck > "$OUT/san45_$c.txt" 2>&1
    echo "$c synccheck: $(tail -n 1 "$OUT/san45_$c.txt")"
done
date -u
P=devstage/ab45; . bench/experiments/ab_onoff.sh
attn 4,1024,8,64 mha_fwd a64 a64s3
attn 4,1024,8,64 mha_fwd_causal a64c
attn 2,512,4,64 mha_fwd a64t a64t3 a64c
attn 2,512,4,64 mha_fwd_causal a64t a64t3
mm 4096 mm_s3p
date -u
