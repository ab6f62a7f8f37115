#!/bin/sh
# bench/ncu.sh [metrics|source|sanitize] SPEC...: the ncu and compute-sanitizer
# runs behind docs/performance.md's "Why the targets are missed". Run on the GPU
# machine from the repository root with build-benchpkg carried; OUT= keeps the
# reports. SPEC is ncu_one.py's arguments in one word each quoted, e.g.
#   sh bench/ncu.sh metrics "matmul_128x128x32_w4_s4 matmul matmul matmul 4096"
#   sh bench/ncu.sh source "attn_d128_bq128_w8_s3 attention mha_fwd attention 4 4096 16 128"
#   sh bench/ncu.sh sanitize "matmul_128x128x32_w8_s3 matmul matmul matmul 200"
set -u
P=${TESS_BENCH_PKG:-build-benchpkg}
OUT=${OUT:-/tmp/ncu}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/$P${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mode=$1; shift
M="sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed"
M="$M,gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
M="$M,smsp__inst_executed_op_ldsm.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait not_selected selected \
         dispatch_stall lg_throttle no_instruction; do
    M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
n=0
for spec in "$@"; do
    n=$((n + 1))
    echo "=== $mode $spec"
    # shellcheck disable=SC2086
    case $mode in
    metrics)
        ncu -k regex:'matmul_BM|mha_fwd' --launch-skip 2 --launch-count 1 --metrics "$M" --print-summary none \
            python3 bench/ncu_one.py $spec 2>&1 | grep -vE '^==PROF==' ;;
    source)
        ncu -k regex:'matmul_BM|mha_fwd' --launch-skip 2 --launch-count 1 --section SourceCounters \
            --section WarpStateStats -o "$OUT/report$n" -f python3 bench/ncu_one.py $spec > /dev/null 2>&1
        ncu -i "$OUT/report$n.ncu-rep" --page source --csv --print-source sass > "$OUT/source$n.csv"
        ncu -i "$OUT/report$n.ncu-rep" --page details --print-details all > "$OUT/details$n.txt"
        grep -E 'Stall|Warp Cycles Per Issued|Issued Warp' "$OUT/details$n.txt" | head -20
        echo "per-instruction stall samples: $OUT/source$n.csv" ;;
    sanitize)
        for tool in memcheck racecheck synccheck; do
            printf '%s: ' "$tool"
            compute-sanitizer --tool $tool --print-limit 5 python3 bench/ncu_one.py $spec 2>&1 |
                grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Error:' | head -3 | tr '\n' ' '
            echo
        done ;;
    *) echo "bench/ncu.sh: mode is metrics, source or sanitize" >&2; exit 2 ;;
    esac
done
