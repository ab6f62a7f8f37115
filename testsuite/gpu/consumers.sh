#!/bin/sh
# consumers.sh: builds examples/make-consumer and examples/cmake-consumer as a
# user would, against a copy of Tessera installed into a fresh prefix
# (make install), and runs them. Each program checks its kernels' results
# against the same math done on the CPU (docs/build-integration.md).
#
#   sh testsuite/gpu/consumers.sh [--build DIR] [--out DIR]   build, then run (GPU)
#   sh testsuite/gpu/consumers.sh --build-only [...]           build only (a machine with tessc)
#   sh testsuite/gpu/consumers.sh --run-only [--out DIR] [--libs DIR]
#                                   run what --build-only made (the GPU machine)
#
# Building needs make, a C and C++ compiler, pkg-config and cmake >= 3.20,
# and the build directory (tessc and the runtime built). Running needs a CUDA
# device: without one it prints "skipped: no CUDA device" and exits 0, unless
# --build-only. --libs DIR goes first on LD_LIBRARY_PATH (libcjson.so.1 when
# the GPU machine lacks it). Defaults: --build build, --out BUILD/consumers.
# Exits non-zero when a build or a program fails.
set -u
BUILD_DIR=${BUILD:-build}
OUT=""
LIBS=""
MODE=all
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
while [ $# -gt 0 ]; do
    case $1 in
        --build) BUILD_DIR=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --libs) LIBS=$2; shift 2 ;;
        --build-only) MODE=build; shift ;;
        --run-only) MODE=run; shift ;;
        *) echo "consumers.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
OUT=${OUT:-$BUILD_DIR/consumers}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac

if [ "$MODE" != run ]; then
    rm -rf "$OUT/prefix" "$OUT/make-consumer" "$OUT/cmake-consumer"
    # -o all: install what is built, without remaking it
    make -s -C "$ROOT" -o all install BUILD="$BUILD_DIR" PREFIX="$OUT/prefix" >"$OUT/install.log" 2>&1 ||
        { cat "$OUT/install.log"; echo "consumers.sh: make install failed" >&2; exit 1; }
    # The command line form that the example's Makefile documents, with no
    # PKG_CONFIG_PATH in the environment (GNU make < 4.4 does not pass it to $(shell)).
    env -u PKG_CONFIG_PATH make -s -C "$ROOT/examples/make-consumer" \
        PKG_CONFIG_PATH="$OUT/prefix/lib/pkgconfig" OUT="$OUT/make-consumer" >"$OUT/make-consumer.log" 2>&1 ||
        { cat "$OUT/make-consumer.log"; echo "consumers.sh: make-consumer failed to build" >&2; exit 1; }
    { cmake -S "$ROOT/examples/cmake-consumer" -B "$OUT/cmake-consumer" -DCMAKE_PREFIX_PATH="$OUT/prefix" &&
      cmake --build "$OUT/cmake-consumer"; } >"$OUT/cmake-consumer.log" 2>&1 ||
        { cat "$OUT/cmake-consumer.log"; echo "consumers.sh: cmake-consumer failed to build" >&2; exit 1; }
    echo "built: $OUT/make-consumer/consumer $OUT/cmake-consumer/attention_consumer"
    [ "$MODE" = build ] && exit 0
fi

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "skipped: no CUDA device"
    exit 0
fi
LD_LIBRARY_PATH="$OUT/prefix/lib${LIBS:+:$LIBS}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
failed=0
for program in "$OUT/make-consumer/consumer" "$OUT/cmake-consumer/attention_consumer"; do
    if "$program" --require-device; then
        echo "PASS: $program"
    else
        echo "FAIL: $program"
        failed=$((failed + 1))
    fi
done
[ $failed -eq 0 ] && echo "consumers: 2 passed" || echo "consumers: $failed failed"
exit $failed
