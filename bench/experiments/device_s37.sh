#!/bin/sh
# The next session's first device call (session 37 measured the D 128 gap
# with `ncu --metrics` only: Tessera's persistent producer entry issues 25%
# fewer instructions a cycle than cuDNN's kernel of the same structure, with
# barrier stalls 2.06 a issue against 1.37; docs/performance.md "Session
# 37"). This takes the per-instruction stall samples of both, to find where
# the barrier, wait and MIO-throttle stalls fall. Inputs, built on the build
# machine from the repository root:
#   P=devstage/pk; mkdir -p $P/artifacts; cp build-dev/libtessrt.so build-dev/libcjson.so.1 $P/
#   build-dev/tessc bench/kernels/attention.tess -D D=128 -D BQ=128 -D BK=128 -D W=8 --arch sm_90a -o $P/artifacts/d128
# then run this from the repository root on the device, carrying devstage
# (and write everything under $OUT: the call's output keeps only its tail).
export TESS_BENCH_PKG=devstage/pk LD_LIBRARY_PATH=$PWD/devstage/pk
mkdir -p "$OUT/ncu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ncu sh bench/ncu.sh source "d128 attention mha_fwd attention 4 4096 16 128" > "$OUT/ncu/tessera.txt" 2>&1
ncu -k regex:'cudnn|sdpa|fmha|flash|sm90' --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section WarpStateStats -o "$OUT/ncu/cudnn" -f python3 bench/peer_one.py attention 4 4096 16 128 > /dev/null 2>&1
ncu -i "$OUT/ncu/cudnn.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu/cudnn_source.csv" 2>&1
rm -f "$OUT"/ncu/*.ncu-rep
ls -la "$OUT/ncu"; date -u
