#!/bin/sh
# The GPU suite (make test-gpu): needs a CUDA device. Without one it says so
# and succeeds. With one, compiles every check.py case ahead of time
# (testsuite/gpu/build-artifacts.sh) and runs them on the GPU, each compared
# with numpy and with the interpreter (testsuite/gpu/run.sh), then builds the
# two consumer examples against an installed copy and runs them
# (testsuite/gpu/consumers.sh).
BUILD=${BUILD:-build}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "skipped: no CUDA device"
    exit 0
fi
sh testsuite/gpu/build-artifacts.sh --tessc "$BUILD/tessc" --out "$BUILD/gpu-artifacts" || exit 1
sh testsuite/gpu/run.sh --artifacts "$BUILD/gpu-artifacts" --build "$BUILD"
suite=$?
BUILD=$BUILD sh testsuite/gpu/consumers.sh --build "$BUILD"
consumers=$?
[ $suite -eq 0 ] && [ $consumers -eq 0 ]
