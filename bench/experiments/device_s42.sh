#!/bin/sh
# The next session's first device call, prepared in session 41 (whose device
# budget ran out before its stmatrix patch could run on a GPU). On the build
# machine first:
#   git apply bench/experiments/stmatrix_s42.patch && make STATIC=1 BUILD=build-dev -j2 all
#   (the patch updates testsuite/codegen/tma-store.tess and docs/codegen.md too)
#   sh testsuite/gpu/build-artifacts.sh --tessc build-dev/tessc --arch sm_90a --out devstage/s42 \
#       --option --tma-store=on $(for c in tma-store-edges tma-store-narrow tma-store-bf16 matmul \
#       epilogue-whole-tiles bench-attn bench-attn-causal bench-attn-d128 bench-attn-d128-causal \
#       bench-attn-d128-bk128 bench-attn-d128-bk128-causal bench-attn-w8-causal bench-attn-w8-many \
#       bench-attn-d64-bq64-bk128 bench-attn-d64-bq64-bk128-causal pipe-two-loops pipe-k0; do printf -- '--case %s ' $c; done)
#   the A/B package devstage/ab42 as session 41's devstage/ab41 (each variant built with
#   --tma-store=on and with --tma-store=off; libtessrt.so, libcjson.so.1 beside them):
#   (sh bench/experiments/build_ab42.sh builds it)
#   mm_s3 (matmul BM=128 BN=256 BK=64 W=8 NS=3), mm_s3p (the same, --grid=persistent),
#   mm_1k (BM=64 BN=128 BK=128 W=4 NS=4), a128 (attention D=128 BQ=128 BK=128 W=8),
#   a64 (D=64 BQ=128 BK=64 W=4 NS=3), a64c (D=64 BQ=64 BK=128 W=4), all --arch=sm_90a
#   carry: devstage/s42 devstage/ab42 build-dev/tessrun build-dev/tests build-dev/libtessrt.so
#          build-dev/libcjson.so.1 build-dev/libtessinterp.so (7 paths; this script is tracked)
# 1. the GPU suite on the stmatrix TMA stores;
# 2. the A/B of --tma-store=on against off (docs/performance.md "Session 41");
# 3. synccheck on two cases;
# if persistent kernels are no longer slower, --tma-store=auto can take tile loops.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g1 \
    --timeout 60 $(for c in $(ls devstage/s42); do [ -d devstage/s42/$c ] && printf -- '--case %s ' $c; done) > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
P=devstage/ab42
for S in 4096 8192; do
    timeout 60 python3 bench/ab_matmul.py --pkg $P --size $S off=mm_s3_off/matmul.manifest.json:matmul \
        on=mm_s3/matmul.manifest.json:matmul off_s3p=mm_s3p_off/matmul.manifest.json:matmul \
        on_s3p=mm_s3p/matmul.manifest.json:matmul 2>&1 | tail -5
done
for causal in "" --causal; do
    k=mha_fwd; [ -n "$causal" ] && k=mha_fwd_causal
    timeout 60 python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 $causal off=a128_off/attention.manifest.json:$k \
        on=a128/attention.manifest.json:$k 2>&1 | tail -3
done
timeout 40 python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 off=a64_off/attention.manifest.json:mha_fwd \
    on=a64/attention.manifest.json:mha_fwd 2>&1 | tail -3
timeout 40 python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 --causal off=a64c_off/attention.manifest.json:mha_fwd_causal \
    on=a64c/attention.manifest.json:mha_fwd_causal 2>&1 | tail -3
for causal in "" --causal; do
    k=mha_fwd; [ -n "$causal" ] && k=mha_fwd_causal
    timeout 50 python3 bench/ab_pair.py --pkg $P --shape 2,512,4,64 $causal off=a64t_off/attention.manifest.json:$k \
        on=a64t/attention.manifest.json:$k off3=a64t3_off/attention.manifest.json:$k on3=a64t3/attention.manifest.json:$k 2>&1 | tail -5
done
for c in tma-store-edges bench-attn-w8-causal; do
    for s in synccheck; do
        timeout 60 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g2 \
            --timeout 50 --case $c --sanitizer $s > "$OUT/san_${c}_$s.txt" 2>&1
        echo "$c $s: $(tail -n 1 "$OUT/san_${c}_$s.txt")"
    done
done
date -u
