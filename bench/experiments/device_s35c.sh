#!/bin/sh
# session 35 run 2: the persist pass with the epilogue store converted in the tile loop:
# A/B, the GPU suite at --grid=persistent, sanitizers, GPU fuzzer --persistent.
# Not run (session 35 had no device time left). Build its inputs on the build machine:
#   P=devstage/p35; mkdir -p $P; cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
#   A=bench/kernels/attention.tess; M=bench/kernels/matmul.tess; T=build-dev/tessc
#   $T $A -k mha_fwd -D D=128 -D BQ=128 -D BK=128 -D W=8 --arch sm_90a -o $P/ref128
#   $T $A -k mha_fwd -D D=128 -D BQ=128 -D BK=128 -D W=8 --arch sm_90a --grid=persistent -o $P/g128
#   $T $A -k mha_fwd_causal -D D=128 -D BQ=128 -D BK=128 -D W=8 -D NS=3 --arch sm_90a --grid-order=heavy-first [--grid=persistent] -o $P/ref128c3hf ($P/g128c3hf)
#   $T $A -D D=64 -D BQ=64 -D BK=128 -D W=4 --arch sm_90a [--grid=persistent --grid-order=heavy-first] -o $P/ref64 ($P/g64)
#   $T $M -D BM=128 -D BN=256 -D BK=64 -D W=8 -D NS=3 --arch sm_90a [--grid=persistent] -o $P/refmm3 ($P/gmm3)
#   sh testsuite/gpu/build-artifacts.sh --tessc $T --arch sm_90a --option --grid=persistent --out /tmp/suite/persist
#   tar -C /tmp/suite -cJf devstage/suites.tar.xz persist
# then run it from the repository root on the device, carrying devstage and build-dev's
# tessc, tessrun, tests, libcjson.so.1, libtessrt.so, libtessinterp.so.
P=${P:-devstage/p35}   # the artifacts: see docs/performance.md "Session 35"
e() { echo "$1=$1/$3.manifest.json:$2"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 $(e ref128 mha_fwd attention) $(e g128 mha_fwd attention)
python3 bench/ab_pair.py --pkg $P --shape 4,4096,16,128 --causal $(e ref128c3hf mha_fwd_causal attention) $(e g128c3hf mha_fwd_causal attention)
python3 bench/ab_pair.py --pkg $P --shape 4,1024,8,64 $(e ref64 mha_fwd attention) $(e g64 mha_fwd attention)
python3 bench/ab_matmul.py --pkg $P --size 4096 refmm3=refmm3/matmul.manifest.json:matmul gmm3=gmm3/matmul.manifest.json:matmul
date -u
mkdir -p /tmp/s && tar -C /tmp/s -xJf devstage/suites.tar.xz
sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts /tmp/s/persist --tmp /tmp/g2 --timeout 120 > $OUT/gpersist.log 2>&1; grep -v "^PASS" $OUT/gpersist.log | tail -8
date -u
for tool in synccheck racecheck; do
  sh testsuite/gpu/run.sh --build build-dev --libs build-dev --artifacts /tmp/s/persist --tmp /tmp/g3 --timeout 200 --sanitizer $tool \
    --case bench-attn-d128-bk128 --case wg-tma-mm-edges 2>&1 | tail -5
  date -u
done
python3 fuzz/difftest.py --tessc build-dev/tessc --device gpu --seconds 45 --jobs 12 --seed 3502 --gpu-runner tessc-run --persistent -q 2>&1 | tail -4
date -u
