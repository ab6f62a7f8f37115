#!/bin/sh
# Builds devstage/ab42, the A/B package bench/experiments/device_s42.sh times:
# each variant with --tma-store=on (NAME) and --tma-store=off (NAME_off).
set -e
P=devstage/ab42; rm -rf $P; mkdir -p $P
cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
mk() { name=$1; file=$2; shift 2
  for mode in on off; do
    d=$P/$name; [ $mode = off ] && d=${name}_off && d=$P/$d
    args=""; for x in "$@"; do case $x in -*) args="$args $x";; *) args="$args -D $x";; esac; done
    build-dev/tessc bench/kernels/$file.tess --emit cubin,manifest --arch sm_90 -o $d --tma-store=$mode $args
  done; }
mk mm_s3 matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a
mk mm_s3p matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --grid=persistent
mk a128 attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a
mk a64 attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a
mk a64c attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a
mk a64t attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid=per-tile
mk a64t3 attention D=64 BQ=64 BK=128 W=4 NS=3 --arch=sm_90a --grid=per-tile
du -sh $P
