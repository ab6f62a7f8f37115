#!/bin/sh
# The next session's first device call (session 36 had no device time left):
# matmul persistent with the rings' allocs hoisted out of the tile loop
# (bench/experiments/hoist_rings_s36.patch, TESS_EXP_HOIST_RINGS=1: the
# epilogue's scratch gets bytes of its own, so the next tile's prologue copies
# need no barrier each; the persistent 64x128x64 NS 8 TMA entry has 8 bar.sync
# instead of 13, per-tile 5). Build its inputs on the build machine:
#   P=devstage/p36; mkdir -p $P; cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
#   git worktree add -f /tmp/wt-hoist HEAD && (cd /tmp/wt-hoist && git apply bench/experiments/hoist_rings_s36.patch \
#     && make STATIC=1 BUILD=build -j2 build/tessc)
#   M=bench/kernels/matmul.tess; T=build-dev/tessc; X=/tmp/wt-hoist/build/tessc
#   for c in "1k:-D BM=64 -D BN=128 -D BK=64 -D W=4 -D NS=8" "4k:-D BM=128 -D BN=256 -D BK=64 -D W=8 -D NS=3" \
#            "8k:-D BM=128 -D BN=256 -D BK=64 -D W=8 -D NS=4"; do n=${c%%:*}; d=${c#*:}
#     $T $M $d --arch sm_90a -o $P/ref$n; $T $M $d --arch sm_90a --grid=persistent -o $P/g$n
#     TESS_EXP_HOIST_RINGS=1 $X $M $d --arch sm_90a --grid=persistent -o $P/x$n; done
# then run it from the repository root on the device, carrying devstage.
P=${P:-devstage/p36}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
for s in 1k:1024 4k:4096 8k:8192; do n=${s%%:*}; size=${s#*:}
  python3 bench/ab_matmul.py --pkg $P --size $size ref$n=ref$n/matmul.manifest.json:matmul \
    g$n=g$n/matmul.manifest.json:matmul x$n=x$n/matmul.manifest.json:matmul
done
date -u
