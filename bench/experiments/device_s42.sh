#!/bin/sh
# The first device call after session 42 (whose device starts were all
# refused): the stmatrix TMA stores on a GPU. On the build machine first:
#   (session 43: the stmatrix patch has landed) make STATIC=1 BUILD=build-dev -j2 all
#   (the patch updates testsuite/codegen/tma-store.tess and docs/codegen.md too)
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s42 \
#       --option --tma-store=on $(for c in tma-store-edges tma-store-narrow tma-store-bf16 matmul \
#       epilogue-whole-tiles bench-attn bench-attn-causal bench-attn-d128 bench-attn-d128-causal \
#       bench-attn-d128-bk128 bench-attn-d128-bk128-causal bench-attn-w8-causal bench-attn-w8-many \
#       bench-attn-d64-bq64-bk128 bench-attn-d64-bq64-bk128-causal pipe-two-loops pipe-k0; do printf -- '--case %s ' $c; done)
#   sh bench/experiments/build_ab42.sh   (the A/B package devstage/ab42: each variant
#       with --tma-store=on, NAME, and =off, NAME_off)
#   carry: devstage/s42 devstage/ab42 build-dev/tessrun build-dev/tests build-dev/libtessrt.so
#          build-dev/libcjson.so.1 build-dev/libtessinterp.so (7 paths; this script is tracked)
# Usage: sh bench/experiments/device_s42.sh [full|short|shortest]
#   full (~330 s of device time): 1. the GPU suite on those cases; 2. the A/B of
#     --tma-store=on against off, top-level and persistent matmul, persistent
#     attention, per-tile attention; 3. synccheck on two cases.
#   short (~250 s): the suite, the persistent A/Bs, one synccheck.
#   shortest (~150 s): the suite, the persistent matmul and D 128 A/Bs.
# If the persistent kernels are no longer slower, --tma-store=auto can take tile loops.
MODE=${1:-full}
case $MODE in full|short|shortest) ;; *) echo "usage: device_s42.sh [full|short|shortest]" >&2; exit 2 ;; esac
. bench/experiments/ab_onoff.sh   # mm, attn
synccheck() {
    timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g2 \
        --timeout 50 --case $1 --sanitizer synccheck > "$OUT/san_$1.txt" 2>&1
    echo "$1 synccheck: $(tail -n 1 "$OUT/san_$1.txt")"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g1 \
    --timeout 40 $(for c in $(ls devstage/s42); do [ -d devstage/s42/$c ] && printf -- '--case %s ' $c; done) > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
case $MODE in
    full)
        for S in 4096 8192; do mm $S mm_s3 mm_s3p; done
        for k in mha_fwd mha_fwd_causal; do attn 4,4096,16,128 $k a128; done
        attn 4,1024,8,64 mha_fwd a64
        attn 4,1024,8,64 mha_fwd_causal a64c
        for k in mha_fwd mha_fwd_causal; do attn 2,512,4,64 $k a64t a64t3; done
        synccheck tma-store-edges; synccheck bench-attn-w8-causal ;;
    short)
        mm 4096 mm_s3 mm_s3p
        attn 4,4096,16,128 mha_fwd a128
        attn 4,1024,8,64 mha_fwd a64
        attn 2,512,4,64 mha_fwd a64t
        synccheck tma-store-edges ;;
    shortest)
        mm 4096 mm_s3p
        attn 4,4096,16,128 mha_fwd a128 ;;
esac
date -u
