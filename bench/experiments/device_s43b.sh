#!/bin/sh
# Session 43's second call, right after device_s43.sh on the same warm machine:
# the differential fuzzer against the GPU, then ncu's metrics (bench/ncu.sh) on
# the persistent attention kernels with and without TMA stores, for why they
# still lose (docs/performance.md "Session 43"). On the build machine first:
#   P=devstage/ab43; rm -rf $P; mkdir -p $P/artifacts; cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
#   for m in on off; do s=; [ $m = off ] && s=_off
#     build-dev/tessc bench/kernels/attention.tess --emit cubin,manifest --arch sm_90a -D D=128 -D BQ=128 -D BK=128 -D W=8 --tma-store=$m -o $P/artifacts/a128$s
#     build-dev/tessc bench/kernels/attention.tess --emit cubin,manifest --arch sm_90a -D D=64 -D BQ=128 -D BK=64 -D W=4 -D NS=3 --tma-store=$m -o $P/artifacts/a64$s; done
#   carry: devstage/ab43 build-dev/tessc build-dev/tessrun build-dev/libtessrt.so build-dev/libcjson.so.1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 fuzz/difftest.py --tessc build-dev/tessc --device gpu --seconds 150 --jobs 12 --seed 4301 \
    --gpu-runner tessc-run -q > "$OUT/fuzz.txt" 2>&1
tail -8 "$OUT/fuzz.txt"; date -u
TESS_BENCH_PKG=devstage/ab43 timeout 200 sh bench/ncu.sh metrics \
    "a128 attention mha_fwd attention 4 4096 16 128" "a128_off attention mha_fwd attention 4 4096 16 128" \
    "a64 attention mha_fwd attention 4 1024 8 64" "a64_off attention mha_fwd attention 4 1024 8 64" > "$OUT/ncu.txt" 2>&1
grep -vE "^\s*$" "$OUT/ncu.txt" | grep -E "===|maxerr|duration|tensor_op|stalled|bank|warps_active|registers|throughput" | head -80
date -u
