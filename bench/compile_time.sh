#!/bin/sh
# compile_time.sh: cold compile time of every benchmark kernel, tessc (the
# static one in the package) against Triton and Pallas where they import.
# Runs on the build machine (tessc only) and on the GPU machine (all three):
#
#   sh bench/compile_time.sh [--pkg build-benchpkg] [--trials 11] [--no-peers] [--json PATH]
#
# See bench/compile_time.py for what is timed. Writes $OUT/compile_time.json when OUT is set.
set -eu
PKG=build-benchpkg
ARGS=""
while [ $# -gt 0 ]; do
    case $1 in
        --pkg) PKG=$2; shift 2 ;;
        *) ARGS="$ARGS $1"; shift ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
LD_LIBRARY_PATH=$PKG${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
# shellcheck disable=SC2086
exec "$PY" "$HERE/compile_time.py" --tessc "$PKG/tessc" --pkg "$PKG" $ARGS
