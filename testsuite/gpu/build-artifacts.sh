#!/bin/sh
# build-artifacts.sh: compiles every case of testsuite/interp/check.py ahead of
# time, for the GPU run (testsuite/gpu/run.sh). Runs on the build machine
# (it needs tessc, so LLVM); run it from the repository root.
#
#   sh testsuite/gpu/build-artifacts.sh [--tessc PATH] [--out DIR] [--arch LIST] [--case NAME]...
#                                       [--schedule lockstep|release|pingpong|producer|producer-pingpong] [--option OPT]...
#
# For each case: tessc FILE [-k KERNEL] [-D ...] --emit ptx,cubin,manifest,ir
# --arch LIST -o OUT/CASE, giving OUT/CASE/STEM.manifest.json with the PTX, the
# cubins and the tile IR (the manifest's "interp" entry) beside it. Defaults:
# build/tessc, build/gpu-artifacts, sm_80,sm_90, every case. --schedule passes
# --hopper-schedule to tessc (the sm_90a TMA entries' warpgroup schedule,
# docs/codegen.md), --option any other tessc option (--option
# --grid-order=heavy-first). A case whose ARCHS (check.py --list --arch) share none of
# --arch's targets is skipped: OUT/CASE/SKIPPED says why, and run.sh reports it.
# Prints one line per case and exits non-zero when any fails to compile.
set -u
TESSC=${BUILD:-build}/tessc
OUT=${BUILD:-build}/gpu-artifacts
ARCH=sm_80,sm_90
CASES=""
SCHEDULE=""
HERE=$(dirname "$0")
ROOT=$HERE/../..
while [ $# -gt 0 ]; do
    case $1 in
        --tessc) TESSC=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --arch) ARCH=$2; shift 2 ;;
        --case) CASES="$CASES $2"; shift 2 ;;
        --schedule) SCHEDULE="$SCHEDULE --hopper-schedule=$2"; shift 2 ;;
        --option) SCHEDULE="$SCHEDULE $2"; shift 2 ;;
        *) echo "build-artifacts.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
if [ -z "${PYTHON:-}" ]; then
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import numpy' 2>/dev/null; then PYTHON=$p; break; fi
    done
fi
if [ -z "${PYTHON:-}" ]; then echo "build-artifacts.sh: no python3 with numpy (set PYTHON)" >&2; exit 2; fi

list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$PYTHON" "$ROOT/testsuite/interp/check.py" --list --arch "$ARCH" > "$list" || exit 1
mkdir -p "$OUT"
built=0
failed=0
skipped=0
while read -r name file kernel defines archs; do
    if [ -n "$CASES" ]; then
        case " $CASES " in *" $name "*) ;; *) continue ;; esac
    fi
    if [ "$archs" != - ]; then   # check.py --list --arch: not for any of $ARCH
        rm -rf "${OUT:?}/$name"; mkdir -p "$OUT/$name"
        echo "compiles only for $archs, not for $ARCH" > "$OUT/$name/SKIPPED"
        echo "skipped $name (only for $archs)"
        skipped=$((skipped + 1))
        continue
    fi
    set -- "$TESSC" "$ROOT/$file" --emit ptx,cubin,manifest,ir --arch "$ARCH" -o "$OUT/$name" $SCHEDULE
    if [ "$kernel" != - ]; then set -- "$@" -k "$kernel"; fi
    if [ "$defines" != - ]; then
        for d in $(echo "$defines" | tr ',' ' '); do set -- "$@" -D "$d"; done
    fi
    rm -rf "${OUT:?}/$name"
    if "$@" && "$PYTHON" "$ROOT/testsuite/runtime/Inputs/interp/with_interp.py" "$OUT/$name"; then
        echo "built $name"
        built=$((built + 1))
    else
        echo "FAIL: $*"
        failed=$((failed + 1))
    fi
done < "$list"
# print and assert (tessc -g): testsuite/interp/debug_check.py's kernel
case " ${CASES:- debug } " in
*" debug "*)
    rm -rf "${OUT:?}/debug"
    if "$TESSC" "$ROOT/testsuite/interp/Inputs/debug.tess" -g --emit ptx,cubin,manifest,ir --arch "$ARCH" \
            -o "$OUT/debug" && "$PYTHON" "$ROOT/testsuite/runtime/Inputs/interp/with_interp.py" "$OUT/debug"; then
        echo "built debug"
        built=$((built + 1))
    else
        echo "FAIL: debug (tessc -g)"
        failed=$((failed + 1))
    fi
    ;;
esac
echo "$built built, $failed failed, $skipped skipped (in $OUT)"
[ "$failed" -eq 0 ]
