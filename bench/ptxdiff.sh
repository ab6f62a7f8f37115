#!/bin/sh
# ptxdiff.sh NEW_TESSC BASE_TESSC [OUTDIR]: compiles every bench variant, GPU-suite case and
# example to PTX (sm_80, sm_90, or ARCH) with NEW_TESSC and with BASE_TESSC (a build of
# the commit before a refactoring: `make BUILD=/tmp/base` in a checkout of it),
# and diffs the PTX: the check that a structural change leaves the generated
# code alone (docs/performance.md). Needs LLVM (run it on the build machine),
# from the repository root. Prints "PTX identical (N files)" or the diff
# summary; the full diff is in OUTDIR/ptx.diff. Exit 0 iff identical.
set -u
ARCH=${ARCH:-sm_80,sm_90}   # ARCH=sm_90a: the Hopper entries (wgmma, TMA)
NEW_FLAGS=${NEW_FLAGS:-}     # options for NEW_TESSC only (NEW_FLAGS=--hopper-schedule=pingpong)
NEW=$1
BASE=$2
OUT=${3:-/tmp/ptxdiff.$$}
rm -rf "$OUT"; mkdir -p "$OUT/base" "$OUT/new"
list="$OUT/list"
: > "$list"
# bench variants: name file defs...
sed -n "/^VARIANTS='/,/^'/p" bench/build.sh | grep -v "VARIANTS\|^'" | while read -r name file defs; do
    [ -n "$name" ] || continue
    d=""; for x in $defs; do case $x in -*) d="$d $x";; *) d="$d -D $x";; esac; done
    echo "bench_$name bench/kernels/$file.tess $d" >> "$list"
done
/usr/bin/python3 testsuite/interp/check.py --list --arch "$ARCH" | while read -r name file kernel defines archs; do
    # a case for other targets only (check.py --list --arch) is left out, as build-artifacts.sh skips it
    if [ "$archs" != - ]; then continue; fi
    d=""; [ "$kernel" != - ] && d="-k $kernel"
    if [ "$defines" != - ]; then for x in $(echo "$defines" | tr ',' ' '); do d="$d -D $x"; done; fi
    echo "gpu_$name $file $d" >> "$list"
done
for f in examples/*.tess; do n=$(basename "$f" .tess); echo "ex_$n $f" >> "$list"; done
n=0
while read -r name file args; do
    for which in base new; do
        t=$BASE; f=""; [ $which = new ] && t=$NEW && f=$NEW_FLAGS
        mkdir -p "$OUT/$which/$name"
        # shellcheck disable=SC2086
        "$t" "$file" $args $f --emit ptx --arch "$ARCH" -o "$OUT/$which/$name" > "$OUT/$which/$name.log" 2>&1 || echo "FAIL($which): $name" 
    done
    n=$((n + 1))
done < "$list"
if diff -r "$OUT/base" "$OUT/new" > "$OUT/ptx.diff"; then
    echo "PTX identical ($(find "$OUT/new" -name '*.ptx' | wc -l) files)"; exit 0
else
    echo "PTX differs: $(grep -c '^diff' "$OUT/ptx.diff") files; see $OUT/ptx.diff"; grep '^diff' "$OUT/ptx.diff" | head -20; exit 1
fi
