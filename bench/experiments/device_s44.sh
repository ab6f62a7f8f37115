#!/bin/sh
# Session 44's device call: the stationary store behind the ring's prologue
# (pipeline.c stores_after_prologue, barrier.c barrier_before_guard). The
# sm_90a GPU suite's cases it changes, the sm_80 attention and pipeline cases, synccheck,
# and the A/B of the tree's tessc against the commit before it on the
# attention variants it changes. On the build machine first:
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s44
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_80 --out devstage/s44_80 --case CASE...
#     (attention, attention-d128-stationary, bench-attn*, pipe-stationary*, ...: session 44 took 18)
#   sh bench/experiments/build_ab44.sh   (BASE: a tessc built at the commit before)
#   carry: devstage/s44 devstage/s44_80 devstage/ab44 build-dev/tessrun build-dev/tests
#          build-dev/libtessrt.so build-dev/libcjson.so.1 build-dev/libtessinterp.so
# Usage: sh bench/experiments/device_s44.sh [full|short]; short (~90 s): the
# 17 cases and four A/Bs, no sm_80 cases, no synccheck.
MODE=${1:-full}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
# The 17 sm_90a cases whose PTX the change moved (every other case's PTX is
# the same as the base tessc's: compared on the build machine).
CASES="attention-d128-stationary attention-odd attention bench-attn-causal-odd bench-attn-causal-short bench-attn-causal bench-attn-d64-bq64-bk128-causal bench-attn-d64-bq64-bk128 bench-attn-even-s3 bench-attn-one-block-s3 bench-attn-s3-trips bench-attn-short bench-attn-tail bench-attn causal-attention pipe-stationary-tail pipe-stationary"
# shellcheck disable=SC2046
timeout 240 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s44 --tmp /tmp/g1 \
    --timeout 60 $(for c in $CASES; do printf -- '--case %s ' $c; done) > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
P=devstage/ab44; . bench/experiments/ab_onoff.sh   # mm, attn
if [ "$MODE" = short ]; then
    attn 4,1024,8,64 mha_fwd a64
    attn 4,1024,8,64 mha_fwd_causal a64c
    attn 2,512,4,64 mha_fwd a64t a64c
    attn 4,4096,16,128 mha_fwd a128
    date -u
    exit 0
fi
timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s44_80 --tmp /tmp/g2 \
    --timeout 30 > "$OUT/suite80.txt" 2>&1
echo "sm_80: $(grep -E "^FAIL|passed," "$OUT/suite80.txt" | head -5)"
for c in bench-attn pipe-stationary-tail; do
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s44 --tmp /tmp/g3 \
        --timeout 50 --case $c --sanitizer synccheck > "$OUT/san_$c.txt" 2>&1
    echo "$c synccheck: $(tail -n 1 "$OUT/san_$c.txt")"
done
attn 4,1024,8,64 mha_fwd a64 a64s3
attn 4,1024,8,64 mha_fwd_causal a64c
attn 2,512,4,64 mha_fwd a64t a64t3 a64c
attn 2,512,4,64 mha_fwd_causal a64t a64t3 a64c
attn 4,4096,16,128 mha_fwd a128 a128t
attn 4,4096,16,128 mha_fwd_causal a128
date -u
