#!/bin/sh
# Builds devstage/ab44, the A/B package bench/experiments/device_s44.sh times:
# each attention variant by the tree's tessc (NAME: the stationary store
# behind the ring's prologue, pipeline.c stores_after_prologue) and by a
# base tessc (NAME_off; BASE, default /tmp/wt44/build-base/tessc: a worktree
# of the commit before it), so that ab_onoff.sh's functions compare them.
set -e
BASE=${BASE:-/tmp/wt44/build-base/tessc}
P=${P:-devstage/ab44}; rm -rf $P; mkdir -p $P
cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
. bench/experiments/ab_build.sh   # mk
mk a64 attention D=64 BQ=128 BK=64 W=4 --arch=sm_90a
mk a64s3 attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a
mk a64c attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a
mk a64t attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid=per-tile
mk a64t3 attention D=64 BQ=64 BK=128 W=4 NS=3 --arch=sm_90a --grid=per-tile
mk a128 attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a
mk a128t attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --grid=per-tile
du -sh $P
