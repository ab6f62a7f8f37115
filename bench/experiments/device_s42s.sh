#!/bin/sh
# device_s42m.sh cut to ~150 s (session 42's last device budget): the GPU
# suite's TMA-store cases with stmatrix, then two persistent A/Bs.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 80 sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts devstage/s42 --tmp /tmp/g1 \
    --timeout 30 $(for c in $(ls devstage/s42); do [ -d devstage/s42/$c ] && printf -- '--case %s ' $c; done) > "$OUT/suite.txt" 2>&1
grep -E "^FAIL|passed," "$OUT/suite.txt" | head -20; date -u
P=devstage/ab42
timeout 30 python3 bench/ab_matmul.py --pkg $P --size 4096 off_s3p=mm_s3p_off/matmul.manifest.json:matmul \
    on_s3p=mm_s3p/matmul.manifest.json:matmul 2>&1 | tail -3
timeout 30 python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 off=a128_off/attention.manifest.json:mha_fwd \
    on=a128/attention.manifest.json:mha_fwd 2>&1 | tail -3
date -u
