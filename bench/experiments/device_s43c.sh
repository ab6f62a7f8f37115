#!/bin/sh
# Session 43's third call: the TMA stores' scratch address through shfl.sync.idx
# (llvm_tma.c uniform_scratch), which keeps ptxas's shared base uniform and the
# key loops as long as without TMA stores (local SASS: 462 instructions a trip
# at D 128, against 540). The whole sm_90a GPU suite with --tma-store=on (every
# persistent tile loop's store too), the on/off A/B (device_s42.sh full's) and
# synccheck. On the build machine first:
#   git apply bench/experiments/uniform_scratch_s43.patch (unless it has landed) && make STATIC=1 BUILD=build-dev -j2 all
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s43c --option --tma-store=on
#   sh bench/experiments/build_ab42.sh
#   carry: devstage/s43c devstage/ab42 build-dev/tessrun build-dev/tests build-dev/libtessrt.so
#          build-dev/libcjson.so.1 build-dev/libtessinterp.so (this script is tracked)
# Usage: sh bench/experiments/device_s43c.sh [full|short]; short (~60 s, for a
# device budget under ~450 s): device_s42.sh's 17 TMA-store cases, no synccheck,
# the persistent A/Bs only.
MODE=${1:-full}
CASES=
[ "$MODE" = short ] && CASES=$(for c in tma-store-edges tma-store-narrow tma-store-bf16 matmul \
    epilogue-whole-tiles bench-attn bench-attn-causal bench-attn-d128 bench-attn-d128-causal \
    bench-attn-d128-bk128 bench-attn-d128-bk128-causal bench-attn-w8-causal bench-attn-w8-many \
    bench-attn-d64-bq64-bk128 bench-attn-d64-bq64-bk128-causal pipe-two-loops pipe-k0; do printf -- '--case %s ' $c; done)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
# shellcheck disable=SC2086
timeout 220 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s43c --tmp /tmp/g1 \
    --timeout 60 $CASES > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
[ "$MODE" = short ] || for c in tma-store-edges bench-attn-w8-causal; do
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s43c --tmp /tmp/g2 \
        --timeout 50 --case $c --sanitizer synccheck > "$OUT/san_$c.txt" 2>&1
    echo "$c synccheck: $(tail -n 1 "$OUT/san_$c.txt")"
done
. bench/experiments/ab_onoff.sh   # mm, attn
if [ "$MODE" = short ]; then
    mm 4096 mm_s3p
    attn 4,4096,16,128 mha_fwd a128
    attn 4,1024,8,64 mha_fwd a64
else
    for S in 4096 8192; do mm $S mm_s3 mm_s3p; done
    for k in mha_fwd mha_fwd_causal; do attn 4,4096,16,128 $k a128; done
    attn 4,1024,8,64 mha_fwd a64
    attn 4,1024,8,64 mha_fwd_causal a64c
    for k in mha_fwd mha_fwd_causal; do attn 2,512,4,64 $k a64t a64t3; done
fi
date -u
