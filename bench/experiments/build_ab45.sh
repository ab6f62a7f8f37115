#!/bin/sh
# Builds devstage/ab45, the A/B package bench/experiments/device_s45.sh times:
# each variant by the tree's tessc (NAME: lockstep ring barriers without
# fence.proxy.async where the loop shares only the ring, tma.c
# unfenced_ring_barriers) and by a base tessc (NAME_off; BASE, default
# /tmp/tessc_s44p: the tree before it), so that ab_onoff.sh compares them.
set -e
# BASE: e.g. a worktree of HEAD with only stationary_after_prologue_s44.patch applied,
#   built with `make STATIC=1 BUILD=build-base build-base/tessc`, copied to /tmp/tessc_s44p.
BASE=${BASE:-/tmp/tessc_s44p}
P=${P:-devstage/ab45}; rm -rf $P; mkdir -p $P
cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
. bench/experiments/ab_build.sh   # mk
# a control: the fence change leaves the matmul's PTX as it is
mk mm_s3p matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --grid=persistent
mk a64 attention D=64 BQ=128 BK=64 W=4 --arch=sm_90a
mk a64s3 attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a
mk a64c attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a
mk a64t attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid=per-tile
mk a64t3 attention D=64 BQ=64 BK=128 W=4 NS=3 --arch=sm_90a --grid=per-tile
du -sh $P
