#!/bin/sh
# ab_producer.sh: on the GPU machine, from the repository root, with the bench package
# (bench/build.sh) carried: --hopper-schedule=producer and producer-pingpong (warp
# specialization, docs/codegen.md "Warpgroup schedules"), with and without
# --stationary=shared (q by descriptor), against lockstep, cuDNN and
# cuBLAS, interleaved and every output checked (ab_pair.py, ab_matmul.py), then ncu of
# the attention entries. Every log lands in $OUT. PARTS (default "ab ncu") picks the
# parts, so that two device calls can split them under the 10-minute limit of one.
set -u
PARTS=${PARTS:-ab ncu}
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
OUT=${OUT:-/tmp/ab}; mkdir -p "$OUT"
P=build-benchpkg
export PYTHONUNBUFFERED=1 LD_LIBRARY_PATH=$P
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A=artifacts/attn_d128_bq128_bk128_w8
if has ab; then
for causal in "" --causal; do
    k=mha_fwd; [ -n "$causal" ] && k=mha_fwd_causal
    echo "== attention (4,4096,16,128) $causal"
    python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 $causal \
      lock2=$A\_sm90a/attention.manifest.json:$k prod2=$A\_sm90a_prod/attention.manifest.json:$k \
      prodpp2=$A\_sm90a_prodpp/attention.manifest.json:$k ssq2=$A\_sm90a_prod_ssq/attention.manifest.json:$k \
      ppssq2=$A\_sm90a_prodpp_ssq/attention.manifest.json:$k lock3=$A\_s3_sm90a/attention.manifest.json:$k \
      prod3=$A\_s3_sm90a_prod/attention.manifest.json:$k prodpp3=$A\_s3_sm90a_prodpp/attention.manifest.json:$k \
      2>&1 | tee "$OUT/ab-attn$causal.log"
done
E=artifacts/attn_d64_bq128
echo "== attention (4,1024,8,64)"
python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 \
  lock8=$E\_w8_sm90a/attention.manifest.json:mha_fwd prod8=$E\_w8_sm90a_prod/attention.manifest.json:mha_fwd \
  prodpp8=$E\_w8_sm90a_prodpp/attention.manifest.json:mha_fwd lock4=$E\_w4_s3_sm90a/attention.manifest.json:mha_fwd \
  prod4=$E\_w4_s3_sm90a_prod/attention.manifest.json:mha_fwd 2>&1 | tee "$OUT/ab-attn-d64.log"
M=artifacts/matmul
for size in 4096 8192; do
    echo "== matmul $size"
    python3 bench/ab_matmul.py --pkg $P --size $size \
      l256s4=$M\_128x256x64_w8_s4_sm90a/matmul.manifest.json:matmul p256s4=$M\_128x256x64_w8_s4_sm90a_prod/matmul.manifest.json:matmul \
      l128s4=$M\_128x128x64_w8_s4_sm90a/matmul.manifest.json:matmul p128s4=$M\_128x128x64_w8_s4_sm90a_prod/matmul.manifest.json:matmul \
      2>&1 | tee "$OUT/ab-mm$size.log"
done
echo "== matmul bf16 8192"
python3 bench/ab_matmul.py --pkg $P --size 8192 --bf16 \
  l256s4=artifacts/mm_bf16_128x256x64_w8_s4_sm90a/matmul_bf16.manifest.json:matmul_bf16 \
  p256s4=artifacts/mm_bf16_128x256x64_w8_s4_sm90a_prod/matmul_bf16.manifest.json:matmul_bf16 2>&1 | tee "$OUT/ab-mm-bf16.log"
fi
if has ncu; then
date -u
echo "== ncu"
OUT=/tmp/ncu timeout 200 sh bench/ncu.sh metrics "attn_d128_bq128_bk128_w8_sm90a_prod attention mha_fwd attention 4 4096 16 128" \
  "attn_d128_bq128_bk128_w8_sm90a_prodpp attention mha_fwd attention 4 4096 16 128" \
  "attn_d128_bq128_bk128_w8_sm90a attention mha_fwd attention 4 4096 16 128" > "$OUT/ncu.log" 2>&1; tail -90 "$OUT/ncu.log"
fi
date -u
