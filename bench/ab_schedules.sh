#!/bin/sh
# ab_schedules.sh: on the GPU machine, from the repository root, with the bench package
# (bench/build.sh) carried: the A/B of --hopper-schedule and --grid-order variants
# (docs/codegen.md "Warpgroup schedules") against cuDNN and cuBLAS, ncu of attention's
# pingpong and lockstep entries, then the quick bench. Every log lands in $OUT.
# PARTS (default "ab ncu bench") picks the parts, so that two device calls can
# split them under the 10-minute limit of one. PARTS=prod: --hopper-schedule=
# producer (the default, auto, for two-warpgroup attention: the plain _sm90a
# variants) and producer-pingpong, with and without --stationary=shared (q by
# descriptor), against lockstep (the _lock variants; for matmuls the plain
# ones), cuDNN and cuBLAS, then ncu of their attention entries.
set -u
PARTS=${PARTS:-ab ncu bench}
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
OUT=${OUT:-/tmp/ab}; mkdir -p "$OUT"
P=build-benchpkg
export PYTHONUNBUFFERED=1 LD_LIBRARY_PATH=$P
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A=artifacts/attn_d128_bq128_bk128_w8
if has ab; then
echo "== attention non-causal"
python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 \
  lock3=$A\_s3_sm90a/attention.manifest.json:mha_fwd rel3=$A\_s3_sm90a_rel/attention.manifest.json:mha_fwd \
  pp3=$A\_s3_sm90a_pp/attention.manifest.json:mha_fwd lock2=$A\_sm90a/attention.manifest.json:mha_fwd \
  rel2=$A\_sm90a_rel/attention.manifest.json:mha_fwd pp2=$A\_sm90a_pp/attention.manifest.json:mha_fwd 2>&1 | tee $OUT/ab-attn.log
echo "== attention causal"
python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 --causal \
  lock3=$A\_s3_sm90a/attention.manifest.json:mha_fwd_causal rel3=$A\_s3_sm90a_rel/attention.manifest.json:mha_fwd_causal \
  pp3=$A\_s3_sm90a_pp/attention.manifest.json:mha_fwd_causal hf3=$A\_s3_sm90a_hf/attention.manifest.json:mha_fwd_causal \
  pphf3=$A\_s3_sm90a_pp_hf/attention.manifest.json:mha_fwd_causal lock2=$A\_sm90a/attention.manifest.json:mha_fwd_causal \
  pp2=$A\_sm90a_pp/attention.manifest.json:mha_fwd_causal pphf2=$A\_sm90a_pp_hf/attention.manifest.json:mha_fwd_causal 2>&1 | tee $OUT/ab-attn-causal.log
M=artifacts/matmul
echo "== matmul 4096"
python3 bench/ab_matmul.py --pkg $P --size 4096 \
  l256s3=$M\_128x256x64_w8_s3_sm90a/matmul.manifest.json:matmul r256s3=$M\_128x256x64_w8_s3_sm90a_rel/matmul.manifest.json:matmul \
  l256s4=$M\_128x256x64_w8_s4_sm90a/matmul.manifest.json:matmul r256s4=$M\_128x256x64_w8_s4_sm90a_rel/matmul.manifest.json:matmul \
  l128s4=$M\_128x128x64_w8_s4_sm90a/matmul.manifest.json:matmul r128s4=$M\_128x128x64_w8_s4_sm90a_rel/matmul.manifest.json:matmul \
  r128s6=$M\_128x128x64_w8_s6_sm90a_rel/matmul.manifest.json:matmul 2>&1 | tee $OUT/ab-mm4096.log
echo "== matmul 1024"
python3 bench/ab_matmul.py --pkg $P --size 1024 \
  a4=$M\_128x64x64_w4_s4_sm90a/matmul.manifest.json:matmul a6=$M\_128x64x64_w4_s6_sm90a/matmul.manifest.json:matmul \
  a8=$M\_128x64x64_w4_s8_sm90a/matmul.manifest.json:matmul b4=$M\_64x128x64_w4_s4_sm90a/matmul.manifest.json:matmul \
  b6=$M\_64x128x64_w4_s6_sm90a/matmul.manifest.json:matmul b8=$M\_64x128x64_w4_s8_sm90a/matmul.manifest.json:matmul \
  l128s4=$M\_128x128x64_w8_s4_sm90a/matmul.manifest.json:matmul r128s4=$M\_128x128x64_w8_s4_sm90a_rel/matmul.manifest.json:matmul 2>&1 | tee $OUT/ab-mm1024.log
fi
if has ncu; then
date -u
echo "== ncu"
OUT=/tmp/ncu timeout 150 sh bench/ncu.sh metrics "attn_d128_bq128_bk128_w8_s3_sm90a_pp attention mha_fwd attention 4 4096 16 128" \
  "attn_d128_bq128_bk128_w8_s3_sm90a attention mha_fwd attention 4 4096 16 128" > $OUT/ncu.log 2>&1; tail -70 $OUT/ncu.log
fi
if has bench; then
date -u
echo "== bench quick"
mkdir -p /tmp/bo; OUT=/tmp/bo timeout 330 sh bench/run.sh --pkg $P --quick --only matmul,attention --no-pallas --no-compile-time > $OUT/bench-quick.log 2>&1; cp /tmp/bo/bench.json $OUT/ 2>/dev/null
tail -60 $OUT/bench-quick.log
fi
if has prod; then
A=artifacts/attn_d128_bq128_bk128_w8
for causal in "" --causal; do
    k=mha_fwd; [ -n "$causal" ] && k=mha_fwd_causal
    echo "== attention (4,4096,16,128) $causal"
    python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 $causal \
      lock2=$A\_sm90a_lock/attention.manifest.json:$k prod2=$A\_sm90a/attention.manifest.json:$k \
      prodpp2=$A\_sm90a_prodpp/attention.manifest.json:$k ssq2=$A\_sm90a_prod_ssq/attention.manifest.json:$k \
      ppssq2=$A\_sm90a_prodpp_ssq/attention.manifest.json:$k lock3=$A\_s3_sm90a_lock/attention.manifest.json:$k \
      prod3=$A\_s3_sm90a/attention.manifest.json:$k prodpp3=$A\_s3_sm90a_prodpp/attention.manifest.json:$k \
      2>&1 | tee "$OUT/ab-attn$causal.log"
done
E=artifacts/attn_d64_bq128
echo "== attention (4,1024,8,64)"
python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 \
  lock8=$E\_w8_sm90a_lock/attention.manifest.json:mha_fwd prod8=$E\_w8_sm90a/attention.manifest.json:mha_fwd \
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
date -u
echo "== ncu (producer)"
OUT=/tmp/ncu timeout 200 sh bench/ncu.sh metrics "attn_d128_bq128_bk128_w8_sm90a_lock attention mha_fwd attention 4 4096 16 128" \
  "attn_d128_bq128_bk128_w8_sm90a_prodpp attention mha_fwd attention 4 4096 16 128" \
  "attn_d128_bq128_bk128_w8_sm90a attention mha_fwd attention 4 4096 16 128" > "$OUT/ncu-producer.log" 2>&1; tail -90 "$OUT/ncu-producer.log"
fi
date -u
