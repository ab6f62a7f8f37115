#!/bin/sh
# Builds devstage/ab45r, the A/B package of the rotated loop with its
# schedule anchor (bench/experiments/rotate_anchor_s45.patch, applies to
# 21a93f8 alone or after the session 44/45 patches): NAME is each variant built with --overlap=rotate,
# NAME_off the same variant without it (the default form), both by the
# tree's tessc, so that ab_onoff.sh's functions ask whether the rotation
# now beats the default at D 64 on one warpgroup. NAME_nopack: rotated
# with the anchor but p carried as f16 pairs (TESS_EXP_NOPACK=1, the
# patch's switch for this A/B). NAME_noanc: rotated by
# BASE (a tessc without the anchor: a worktree of the same commit, built
# with `make STATIC=1 BUILD=build-base build-base/tessc`), a third column.
set -e
BASE=${BASE:-/tmp/wt44/build-base/tessc}
P=${P:-devstage/ab45r}; rm -rf $P; mkdir -p $P
cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
. bench/experiments/ab_build.sh   # ab_tessc
mk() { name=$1 file=$2; shift 2
  ab_tessc build-dev/tessc "$name" "$file" --overlap=rotate "$@"
  ab_tessc build-dev/tessc "${name}_off" "$file" "$@"
  ab_tessc "$BASE" "${name}_noanc" "$file" --overlap=rotate "$@"
  (TESS_EXP_NOPACK=1 ab_tessc build-dev/tessc "${name}_nopack" "$file" --overlap=rotate "$@")
}
mk a64 attention D=64 BQ=128 BK=64 W=4 --arch=sm_90a
mk a64s3 attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a
mk a64c attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a
mk a64t attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid=per-tile
du -sh $P
