#!/bin/sh
# run.sh: the whole benchmark on the GPU machine, in one command, from the
# repository root. Builds nothing: the package (bench/build.sh, made on the
# build machine) holds tessc, libtessrt.so, libcjson.so.1, launch_overhead and
# the compiled kernels.
#
#   sh bench/run.sh [--pkg build-benchpkg] [--quick] [--only GROUP,...] [--no-pallas] [--no-compile-time]
#   sh bench/run.sh --dry     # no GPU: checks the package and the argument lists, times tessc
#
# Steps, each under a time limit so the whole fits in about 7 minutes on an H200:
#   1. the device (nvidia-smi) and SASS of the memory-bound kernels ($OUT/sass/)
#   2. bench/bench.py: launch overhead (C), copy roofline, every case for
#      Tessera, torch, Triton, cuBLAS / SDPA, then JAX Pallas in its own process
#   3. bench/compile_time.sh: tessc vs Triton vs Pallas cold compile
# With OUT set, writes $OUT/bench.json, $OUT/compile_time.json, $OUT/*.log.
set -u
PKG=build-benchpkg
QUICK=""
ONLY=""
NOPALLAS=""
COMPILE=1
DRY=0
while [ $# -gt 0 ]; do
    case $1 in
        --pkg) PKG=$2; shift 2 ;;
        --quick) QUICK=--quick; shift ;;
        --only) ONLY="--only $2"; shift 2 ;;
        --no-pallas) NOPALLAS=--no-pallas; shift ;;
        --no-compile-time) COMPILE=0; shift ;;
        --dry) DRY=1; shift ;;
        *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
OUTDIR=${OUT:-/tmp/tessera-bench}
mkdir -p "$OUTDIR"
for f in "$PKG/libtessrt.so" "$PKG/tessc" "$PKG/artifacts"; do
    if [ ! -e "$f" ]; then echo "run.sh: $f is missing (run bench/build.sh on the build machine and carry $PKG)" >&2; exit 2; fi
done
PKG=$(cd "$PKG" && pwd)
LD_LIBRARY_PATH=$PKG${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
t0=$(date +%s)
if [ "$DRY" = 1 ]; then
    "$PY" "$HERE/bench.py" --dry --pkg "$PKG" || exit 1
    exec sh "$HERE/compile_time.sh" --pkg "$PKG" --trials 1 --no-peers
fi

echo "== device"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv 2>&1 | head -3
"$PY" -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' 2>&1 | tail -1
command -v nvcc >/dev/null 2>&1 && nvcc --version | tail -2 | head -1

# SASS of the memory-bound kernels (issue 5: read the PTX and the SASS)
if command -v cuobjdump >/dev/null 2>&1; then
    mkdir -p "$OUTDIR/sass"
    for c in "$PKG"/artifacts/relu_*/*.cubin "$PKG"/artifacts/softmax_*/*.cubin "$PKG"/artifacts/layernorm_*/*.cubin \
             "$PKG"/artifacts/rowsum_*/*.cubin "$PKG"/artifacts/add2d_*/*.cubin; do
        [ -f "$c" ] || continue
        v=$(basename "$(dirname "$c")")
        cuobjdump --dump-sass "$c" > "$OUTDIR/sass/$v.$(basename "$c" .cubin).sass" 2>&1 || true
    done
    echo "SASS of $(ls "$OUTDIR/sass" | wc -l) cubins in $OUTDIR/sass"
fi

echo "== bench"
# shellcheck disable=SC2086
OUT=$OUTDIR timeout 470 "$PY" "$HERE/bench.py" --pkg "$PKG" --budget-s 270 --pallas-budget-s 110 $QUICK $ONLY $NOPALLAS \
    2>&1 | tee "$OUTDIR/bench.log" | grep -v '^  File \|^    ' 
echo "bench: $(( $(date +%s) - t0 )) s so far"

if [ "$COMPILE" = 1 ]; then
    echo "== compile time"
    OUT=$OUTDIR timeout 140 sh "$HERE/compile_time.sh" --pkg "$PKG" --trials 11 --whole-trials 3 --budget-s 100 \
        2>&1 | tee "$OUTDIR/compile_time.log"
fi
# the bench table last, so it is in the tail of the output
if [ -f "$OUTDIR/bench.json" ]; then
    echo "== table"
    "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["table"])' "$OUTDIR/bench.json"
fi
echo "run.sh: done in $(( $(date +%s) - t0 )) s; results in $OUTDIR"
