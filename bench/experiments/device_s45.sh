#!/bin/sh
# Session 45's device call (not run in session 45: every start refused):
# session 44's stationary-store check (device_s44.sh), the GPU check and A/B
# of the lockstep ring barriers without fence.proxy.async (tma.c
# unfenced_ring_barriers), and the rotated loop's (rot, below). On the
# build machine first: what device_s44.sh lists, then
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s45
#     and copy the 15 cases whose PTX lost a fence into devstage/s45c;
#   sh bench/experiments/build_ab45.sh   (BASE: tessc before the change)
#   sh bench/experiments/build_ab45r.sh, and devstage/s45r (rot, below)
#   carry: devstage (s44, s44_80, ab44, s45c, ab45, s45r, ab45r, pkl) and
#          build-dev/{tessrun,tests,libtessrt.so,libcjson.so.1,libtessinterp.so}
# Usage: sh bench/experiments/device_s45.sh [full|short|bench|mini]; short
# (~300 s): device_s44.sh short, then the fence change's cases and A/B and
# rot; bench: the same with rot's short step, then the whole bench on
# devstage/pkl (bench/build.sh's package, tessc left out) in the same call
# (~550 s); mini (~180 s): only the suite cases and the (4,1024,8,64) A/Bs.

# The rotated loop with its schedule anchor (rotate_anchor_s45.patch):
# devstage/s45r (build-artifacts.sh --option --overlap=rotate, the attention
# cases), devstage/ab45r (build_ab45r.sh: NAME rotated, NAME_off the default
# form, NAME_nopack anchored with p as f16 pairs, NAME_noanc rotated
# without the anchor).
rot() {
    # shellcheck disable=SC2046
    timeout 150 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s45r --tmp /tmp/g7 \
        --timeout 60 $(for c in devstage/s45r/*/; do printf -- '--case %s ' "$(basename "$c")"; done) > "$OUT/suite45r.txt" 2>&1
    echo "rotate+anchor: $(grep -E "^FAIL|passed," "$OUT/suite45r.txt" | head -20)"
    P=devstage/ab45r; . bench/experiments/ab_onoff.sh
    echo "== rotated (NAME) against the default (NAME_off)"
    attn 4,1024,8,64 mha_fwd a64 a64s3
    [ "$1" = mini ] && return 0
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s45r --tmp /tmp/g8 \
        --timeout 50 --case bench-attn --sanitizer synccheck > "$OUT/san45r.txt" 2>&1
    echo "bench-attn rotated synccheck: $(tail -n 1 "$OUT/san45r.txt")"
    attn 4,1024,8,64 mha_fwd_causal a64c
    attn 2,512,4,64 mha_fwd a64t
    echo "== rotated: no anchor, anchor with p as f16 pairs, anchor with p packed"
    for v in a64 a64c; do
        timeout 60 python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 noanc=${v}_noanc/attention.manifest.json:mha_fwd \
            nopack=${v}_nopack/attention.manifest.json:mha_fwd anc=$v/attention.manifest.json:mha_fwd 2>&1 | tail -5
    done
}
MODE=${1:-full}
if [ "$MODE" = mini ]; then   # ~150 s: both changes' cases, the (4,1024,8,64) A/Bs
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
    for d in s44 s45c; do
        # shellcheck disable=SC2046
        timeout 100 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/$d --tmp /tmp/m$d \
            --timeout 60 $(for c in devstage/$d/*/; do printf -- '--case %s ' "$(basename "$c")"; done) > "$OUT/mini_$d.txt" 2>&1
        echo "$d: $(grep -E "^FAIL|passed," "$OUT/mini_$d.txt" | head -20)"
    done
    for P in devstage/ab44 devstage/ab45; do
        . bench/experiments/ab_onoff.sh
        echo "== $P"; attn 4,1024,8,64 mha_fwd a64; attn 4,1024,8,64 mha_fwd_causal a64c
    done
    rot mini
    date -u; exit 0
fi
if [ "$MODE" != full ]; then sh bench/experiments/device_s44.sh short; else sh bench/experiments/device_s44.sh full; fi
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
if [ "$MODE" = bench ]; then rot mini; else rot; fi   # bench: keep the call under 600 s
date -u
if [ "$MODE" = bench ]; then
    OUT=$OUT/bench timeout 330 sh bench/run.sh --pkg devstage/pkl --no-pallas --no-compile-time > "$OUT/bench.txt" 2>&1
    echo "bench rc $?"; tail -n 40 "$OUT/bench.txt"; date -u
fi
