#!/bin/sh
# run.sh: the GPU suite. Runs on the GPU machine, from the repository root;
# needs python3 with numpy, the build directory (tessrun, tests/runtime_launch)
# and the artifacts build-artifacts.sh made. No LLVM, no tessc.
#
#   sh testsuite/gpu/run.sh [--artifacts DIR] [--build DIR] [--libs DIR] [--tmp DIR]
#                           [--case NAME]... [--device interp] [--sanitizer TOOL]
#                           [--timeout SECONDS]
#
# Every case of testsuite/interp/check.py runs through
#   check.py CASE --runner tessrun --device gpu --compare-interp
# (numpy float64 reference, and the interpreter on the same inputs must agree
# with the GPU), then build/tests/runtime_launch on testsuite/gpu/Inputs/kernels.json.
# A case build-artifacts.sh skipped (CASE/SKIPPED: its tiles fit other targets
# only) prints "SKIPPED: CASE (why)" and counts as neither.
# Prints "N passed, N failed" last and exits non-zero on a failure. Without a
# CUDA device (nvidia-smi -L fails) prints "skipped: no CUDA device" and exits 0.
# --libs DIR goes first on LD_LIBRARY_PATH (libcjson.so.1 when the machine lacks
# it). --device interp checks the harness itself on a machine with no GPU: the
# cases run on the interpreter and runtime_launch is left out.
# --sanitizer TOOL (racecheck, synccheck, memcheck, initcheck) runs each case's
# GPU launch under compute-sanitizer --tool TOOL; a report fails the case (the
# sanitizer's exit code 86), the interpreter runs stay as they are.
# --timeout SECONDS (default 300) bounds each case, its processes included: a
# kernel that hangs (a barrier never completed) fails its case, not the run.
# Defaults: --build build, --artifacts BUILD/gpu-artifacts, --tmp BUILD/gpu-run.
set -u
BUILD_DIR=${BUILD:-build}
ARTIFACTS=""
LIBS=""
TMP=""
CASES=""
DEVICE=gpu
SANITIZER=""
CASE_TIMEOUT=300
HERE=$(dirname "$0")
ROOT=$HERE/../..
while [ $# -gt 0 ]; do
    case $1 in
        --artifacts) ARTIFACTS=$2; shift 2 ;;
        --build) BUILD_DIR=$2; shift 2 ;;
        --libs) LIBS=$2; shift 2 ;;
        --tmp) TMP=$2; shift 2 ;;
        --case) CASES="$CASES $2"; shift 2 ;;
        --device) DEVICE=$2; shift 2 ;;
        --sanitizer) SANITIZER=$2; shift 2 ;;
        --timeout) CASE_TIMEOUT=$2; shift 2 ;;
        *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
ARTIFACTS=${ARTIFACTS:-$BUILD_DIR/gpu-artifacts}
TMP=${TMP:-$BUILD_DIR/gpu-run}
if [ "$DEVICE" = gpu ]; then
    if ! nvidia-smi -L >/dev/null 2>&1; then
        echo "skipped: no CUDA device"
        exit 0
    fi
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null |
        sed 's/^/device: /'
elif [ "$DEVICE" != interp ]; then
    echo "run.sh: --device is gpu or interp" >&2
    exit 2
fi
if [ -n "$LIBS" ]; then
    LD_LIBRARY_PATH=$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi
if [ -z "${PYTHON:-}" ]; then
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import numpy' 2>/dev/null; then PYTHON=$p; break; fi
    done
fi
if [ -z "${PYTHON:-}" ]; then echo "run.sh: no python3 with numpy (set PYTHON)" >&2; exit 2; fi
for f in "$BUILD_DIR/tessrun" "$ARTIFACTS"; do
    if [ ! -e "$f" ]; then echo "run.sh: $f is missing" >&2; exit 2; fi
done

TESSRUN=$BUILD_DIR/tessrun
if [ -n "$SANITIZER" ]; then
    # check.py runs tessrun for the GPU and again for the interpreter
    # (--compare-interp); only the first goes under the sanitizer.
    mkdir -p "$TMP"
    TESSRUN=$TMP/tessrun-$SANITIZER
    real=$(cd "$BUILD_DIR" && pwd)/tessrun
    cat > "$TESSRUN" <<EOF
#!/bin/sh
case " \$* " in *" --device interp "*) exec "$real" "\$@" ;; esac
exec compute-sanitizer --tool $SANITIZER --error-exitcode 86 --print-limit 10 "$real" "\$@"
EOF
    chmod +x "$TESSRUN"
fi

passed=0
failed=0
list=$(mktemp)
log=$(mktemp)
trap 'rm -f "$list" "$log"' EXIT
"$PYTHON" "$ROOT/testsuite/interp/check.py" --list > "$list" || exit 1
while read -r name file kernel defines archs; do
    if [ -n "$CASES" ]; then
        case " $CASES " in *" $name "*) ;; *) continue ;; esac
    fi
    if [ -f "$ARTIFACTS/$name/SKIPPED" ]; then   # build-artifacts.sh: not for these targets
        echo "SKIPPED: $name ($(cat "$ARTIFACTS/$name/SKIPPED"))"
        continue
    fi
    timeout -k 10 "$CASE_TIMEOUT" "$PYTHON" "$ROOT/testsuite/interp/check.py" "$name" --runner tessrun \
            --tessrun "$TESSRUN" --artifacts "$ARTIFACTS" --device "$DEVICE" \
            --compare-interp --tmp "$TMP/$name" > "$log" 2>&1
    status=$?
    if [ $status -eq 0 ]; then
        echo "PASS: $name"
        passed=$((passed + 1))
    else
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then
            echo "FAIL: $name (timed out after $CASE_TIMEOUT s: a hang?)"
        else
            echo "FAIL: $name"
        fi
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
    fi
done < "$list"
# print and assert (tessc -g) on the device, and the interpreter on the same
# artifacts: the same lines, the same failed assert.
case " ${CASES:- debug } " in
*" debug "*)
    for dev in $DEVICE interp; do
        if "$PYTHON" "$ROOT/testsuite/interp/debug_check.py" --tessrun "$TESSRUN" --artifacts "$ARTIFACTS/debug" \
                --device $dev --tmp "$TMP/debug-$dev" > "$log" 2>&1; then
            echo "PASS: debug ($dev)"
            passed=$((passed + 1))
        else
            echo "FAIL: debug ($dev)"
            sed 's/^/    /' "$log"
            failed=$((failed + 1))
        fi
        [ "$DEVICE" = interp ] && break
    done
    ;;
esac

# runtime_launch (kernels.json), then runtime_errors (out of memory, corrupt
# artifacts, a device below the kernel's capability; it writes into $TMP).
for prog in runtime_launch runtime_errors; do
    [ "$DEVICE" = gpu ] && [ -z "$CASES" ] && [ -z "$SANITIZER" ] || break
    if [ $prog = runtime_launch ]; then arg=$ROOT/testsuite/gpu/Inputs/kernels.json; else arg=$TMP/errors; fi
    [ $prog = runtime_errors ] && mkdir -p "$arg"
    "$BUILD_DIR/tests/$prog" "$arg" > "$log" 2>&1
    status=$?
    counts=$(sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p' "$log" | tail -1)
    if [ -n "$counts" ]; then
        set -- $counts
        passed=$((passed + $1))
        failed=$((failed + $2))
    fi
    if [ $status -ne 0 ] || [ -z "$counts" ] || [ "${2:-0}" -ne 0 ]; then
        echo "FAIL: $prog (exit $status)"
        sed 's/^/    /' "$log"
        if [ -z "$counts" ] || [ "${2:-0}" -eq 0 ]; then failed=$((failed + 1)); fi
    else
        echo "PASS: $prog ($1 checks)"
    fi
done
# Tessera's random numbers are Triton's (docs/language.md 9.13): where
# Triton is installed, its tl.rand/randint/randn against the Python Philox
# that check.py's random-bits case holds Tessera to.
if [ "$DEVICE" = gpu ] && [ -z "$CASES" ] && [ -z "$SANITIZER" ] && "$PYTHON" -c 'import triton' 2>/dev/null; then
    if "$PYTHON" "$ROOT/testsuite/gpu/triton_rand.py" > "$log" 2>&1; then
        echo "PASS: triton-rand ($(sed -n 's/^\([0-9]*\) passed.*/\1/p' "$log") checks)"
        passed=$((passed + 1))
    else
        echo "FAIL: triton-rand"
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
