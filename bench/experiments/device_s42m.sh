#!/bin/sh
# device_s42.sh cut to what ~250 s of device time holds (session 42 lost its
# budget to refused starts): the GPU suite's TMA-store cases under
# --tma-store=on with stmatrix, the persistent forms' A/B, one synccheck.
# Same build steps and carry as device_s42.sh.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 100 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g1 \
    --timeout 40 $(for c in $(ls devstage/s42); do [ -d devstage/s42/$c ] && printf -- '--case %s ' $c; done) > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
P=devstage/ab42
timeout 40 python3 bench/ab_matmul.py --pkg $P --size 4096 off=mm_s3_off/matmul.manifest.json:matmul \
    on=mm_s3/matmul.manifest.json:matmul off_s3p=mm_s3p_off/matmul.manifest.json:matmul \
    on_s3p=mm_s3p/matmul.manifest.json:matmul 2>&1 | tail -5
timeout 30 python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 off=a128_off/attention.manifest.json:mha_fwd \
    on=a128/attention.manifest.json:mha_fwd 2>&1 | tail -3
timeout 25 python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 off=a64_off/attention.manifest.json:mha_fwd \
    on=a64/attention.manifest.json:mha_fwd 2>&1 | tail -3
timeout 25 python3 bench/ab_pair.py --pkg $P --shape 2,512,4,64 off=a64t_off/attention.manifest.json:mha_fwd \
    on=a64t/attention.manifest.json:mha_fwd 2>&1 | tail -3
date -u
timeout 40 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g2 \
    --timeout 35 --case tma-store-edges --sanitizer synccheck > "$OUT/san.txt" 2>&1
echo "synccheck: $(tail -n 1 "$OUT/san.txt")"; date -u
