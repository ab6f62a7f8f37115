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
# On a compute capability 9.0 device, the suite again with sm_90a cubins
# (the runtime takes those first there): the wgmma path (docs/codegen.md,
# "wgmma") on every case whose dot qualifies.
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
if [ "$cc" = "9.0" ]; then
    sh testsuite/gpu/build-artifacts.sh --tessc "$BUILD/tessc" --arch sm_90a --out "$BUILD/gpu-artifacts-sm90a" || exit 1
    sh testsuite/gpu/run.sh --artifacts "$BUILD/gpu-artifacts-sm90a" --build "$BUILD" --tmp "$BUILD/gpu-run-sm90a" || suite=1
    # and with the experimental pingpong turns between the producer's two
    # consumer warpgroups, q kept in registers (the default on sm_90a stores
    # it in shared memory for wgmma's descriptor: --stationary, docs/ir.md);
    # a case that did not fit its shared memory this way would fail to
    # build and be left out (none does now)
    sh testsuite/gpu/build-artifacts.sh --tessc "$BUILD/tessc" --arch sm_90a --schedule producer-pingpong \
        --option --stationary=registers --out "$BUILD/gpu-artifacts-sm90a-ws" 2>/dev/null | tail -1
    sh testsuite/gpu/run.sh --artifacts "$BUILD/gpu-artifacts-sm90a-ws" --build "$BUILD" --tmp "$BUILD/gpu-run-sm90a-ws" \
        $(ls "$BUILD/gpu-artifacts-sm90a-ws" | sed 's/^/--case /') || suite=1
fi
BUILD=$BUILD sh testsuite/gpu/consumers.sh --build "$BUILD"
consumers=$?
[ $suite -eq 0 ] && [ $consumers -eq 0 ]
