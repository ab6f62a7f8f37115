#!/bin/sh
# build.sh: everything the benchmark needs on the GPU machine, built HERE (the
# build machine, with LLVM), into one self-contained folder to carry there:
#
#   sh bench/build.sh [--build DIR] [--pkg DIR]
#
#   --build DIR  a `make STATIC=1 BUILD=DIR` tree (default build-static); it
#                is built first if its tessc is missing or older than the sources
#   --pkg DIR    the folder to fill (default build-benchpkg; ignored by git)
#
# The folder gets: tessc (static LLVM, stripped), tessrun (fuzz/difftest.py
# --device gpu --gpu-runner tessc-run needs it beside tessc), libtessrt.so, libcjson.so.1,
# launch_overhead (bare cuLaunchKernel vs tessrt_launch), libdevice.10.bc (so
# the tessc cold compile also runs where CUDA's nvvm/ is missing), and
# artifacts/VARIANT/STEM.manifest.json + PTX + cubin for every variant below,
# compiled with `tessc --emit cubin,manifest --arch sm_90` (PTX too for the
# variants of another --arch, which the driver JIT-compiles). It prints one
# line per variant, the folder's size, and fails when anything fails or the
# folder is over 60 MiB (the device copy limit is 64 MiB in all).
set -eu
BUILD=build-static
PKG=build-benchpkg
while [ $# -gt 0 ]; do
    case $1 in
        --build) BUILD=$2; shift 2 ;;
        --pkg) PKG=$2; shift 2 ;;
        *) echo "build.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

make --no-print-directory STATIC=1 BUILD="$BUILD" -j"$(nproc 2>/dev/null || echo 2)" \
    "$BUILD/tessc" "$BUILD/tessrun" "$BUILD/libtessrt.so" "$BUILD/bench/launch_overhead" "$BUILD/libcjson.so.1" >/dev/null
if ldd "$BUILD/tessc" | grep -q libLLVM; then
    echo "build.sh: $BUILD/tessc is not the static one (make STATIC=1 BUILD=$BUILD)" >&2
    exit 1
fi

rm -rf "$PKG"
mkdir -p "$PKG/artifacts" "$PKG/nvvm/libdevice"
cp "$BUILD/tessc" "$BUILD/tessrun" "$BUILD/libtessrt.so" "$BUILD/libcjson.so.1" "$BUILD/bench/launch_overhead" "$PKG/"
LIBDEVICE=${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc
cp "$LIBDEVICE" "$PKG/nvvm/libdevice/"

# VARIANT  FILE  -D ... [tessc options]   (the harness, bench/bench.py, knows these names)
VARIANTS='
relu_b4096_w8         relu2x1    BLOCK=4096
relu_b1024_w4         relu2x1    BLOCK=1024 W=4
relu_b2048_w4         relu2x1    BLOCK=2048 W=4
relu_b2048_w8         relu2x1    BLOCK=2048 W=8
relu_b8192_w8         relu2x1    BLOCK=8192 W=8
softmax_bn4096_w16    softmax    BN=4096 W=16
softmax_bn4096_w8     softmax    BN=4096 W=8
softmax_bn1024_w4     softmax    BN=1024 W=4
softmax_bn1024_w8     softmax    BN=1024 W=8
softmax_bn1024_w2     softmax    BN=1024 W=2
softmax_rows_r1_bn4096_w16 softmax BN=4096 W=16 R=1
softmax_rows_r1_bn4096_w8  softmax BN=4096 W=8 R=1
softmax_rows_r1_bn1024_w1  softmax BN=1024 W=1 R=1
softmax_rows_r1_bn1024_w2  softmax BN=1024 W=2 R=1
softmax_rows_r1_bn1024_w4  softmax BN=1024 W=4 R=1
softmax_rows_r2_bn1024_w2  softmax BN=1024 W=2 R=2
softmax_rows_r2_bn1024_w4  softmax BN=1024 W=4 R=2
softmax_rows_r2_bn1024_w8  softmax BN=1024 W=8 R=2
softmax_rows_r4_bn1024_w2  softmax BN=1024 W=2 R=4
softmax_rows_r4_bn1024_w4  softmax BN=1024 W=4 R=4
softmax_rows_r4_bn1024_w8  softmax BN=1024 W=8 R=4
softmax_rows_r8_bn1024_w8  softmax BN=1024 W=8 R=8
layernorm_bn4096_w16  layernorm  BN=4096 W=16
layernorm_bn4096_w8   layernorm  BN=4096 W=8
layernorm_bn4096_w4   layernorm  BN=4096 W=4
layernorm_wb_bn4096_w16       layernorm BN=4096 W=16
layernorm_wb_bn4096_w8        layernorm BN=4096 W=8
layernorm_wb_bn4096_w4        layernorm BN=4096 W=4
layernorm_rows_r2_bn4096_w8   layernorm BN=4096 W=8 R=2
layernorm_rows_r2_bn4096_w16  layernorm BN=4096 W=16 R=2
layernorm_rows_r4_bn4096_w16  layernorm BN=4096 W=16 R=4
layernorm_2rows_bn4096_w8     layernorm BN=4096 W=8
layernorm_2rows_bn4096_w16    layernorm BN=4096 W=16
rowsum_bn2048_w8      rowsum     BN=2048 W=8
rowsum_bn1024_w4      rowsum     BN=1024 W=4
add2d_bm8_bn512_w8    add2d      BM=8 BN=512 W=8
add2d_bm16_bn256_w8   add2d      BM=16 BN=256 W=8
add2d_bm4_bn1024_w8   add2d      BM=4 BN=1024 W=8
add2d_bm8_bn512_w4    add2d      BM=8 BN=512 W=4
add2d_bm2_bn1024_w4   add2d      BM=2 BN=1024 W=4
add2d_bm1_bn512_w4    add2d      BM=1 BN=512 W=4
add2d_bm1_bn256_w2    add2d      BM=1 BN=256 W=2
add2d_bm1_bn512_w2    add2d      BM=1 BN=512 W=2
add2d_bm1_bn4096_w8   add2d      BM=1 BN=4096 W=8
add2d_bm1_bn4096_w4   add2d      BM=1 BN=4096 W=4
add2d_bm1_bn2048_w4   add2d      BM=1 BN=2048 W=4
add2d_bm2_bn2048_w8   add2d      BM=2 BN=2048 W=8
add2d_bm2_bn4096_w8   add2d      BM=2 BN=4096 W=8
add2d_bm4_bn2048_w8   add2d      BM=4 BN=2048 W=8
add2d_bm1_bn1024_w2   add2d      BM=1 BN=1024 W=2
add2d_bm1_bn1024_w4   add2d      BM=1 BN=1024 W=4
add2d_bm2_bn1024_w2   add2d      BM=2 BN=1024 W=2
add2d_bm4_bn1024_w4   add2d      BM=4 BN=1024 W=4
add2d_bm8_bn1024_w8   add2d      BM=8 BN=1024 W=8
matmul_128x128x64_w8  matmul     BM=128 BN=128 BK=64 W=8
matmul_64x64x32_w4    matmul     BM=64 BN=64 BK=32 W=4
matmul_128x128x32_w8  matmul     BM=128 BN=128 BK=32 W=8
matmul_128x64x64_w4   matmul     BM=128 BN=64 BK=64 W=4
matmul_128x128x64_w8_s3 matmul   BM=128 BN=128 BK=64 W=8 NS=3
matmul_128x128x64_w8_s2 matmul   BM=128 BN=128 BK=64 W=8 NS=2
matmul_128x128x64_w8_s4 matmul   BM=128 BN=128 BK=64 W=8 NS=4
matmul_128x128x32_w8_s3 matmul   BM=128 BN=128 BK=32 W=8 NS=3
matmul_128x128x32_w8_s4 matmul   BM=128 BN=128 BK=32 W=8 NS=4
matmul_128x256x32_w8_s3 matmul   BM=128 BN=256 BK=32 W=8 NS=3
matmul_128x64x64_w4_s3  matmul   BM=128 BN=64 BK=64 W=4 NS=3
matmul_64x64x32_w4_s4   matmul   BM=64 BN=64 BK=32 W=4 NS=4
matmul_128x128x64_w8_s3_sm80 matmul BM=128 BN=128 BK=64 W=8 NS=3 --arch=sm_80
matmul_128x128x32_w4_s3 matmul   BM=128 BN=128 BK=32 W=4 NS=3
matmul_128x128x32_w4_s4 matmul   BM=128 BN=128 BK=32 W=4 NS=4
matmul_128x128x64_w4_s3 matmul   BM=128 BN=128 BK=64 W=4 NS=3
matmul_256x128x32_w8_s3 matmul   BM=256 BN=128 BK=32 W=8 NS=3
matmul_128x256x64_w8_s3 matmul   BM=128 BN=256 BK=64 W=8 NS=3
matmul_256x128x64_w8_s3 matmul   BM=256 BN=128 BK=64 W=8 NS=3
matmul_128x256x32_w8_s4 matmul   BM=128 BN=256 BK=32 W=8 NS=4
matmul_128x256x32_w8_s3_sm80 matmul BM=128 BN=256 BK=32 W=8 NS=3 --arch=sm_80
matmul_128x128x32_w4_s4_sm80 matmul BM=128 BN=128 BK=32 W=4 NS=4 --arch=sm_80
matmul_128x256x64_w8_s3_sm90a matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a
matmul_128x256x64_w8_s4_sm90a matmul BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a
matmul_256x128x64_w8_s3_sm90a matmul BM=256 BN=128 BK=64 W=8 NS=3 --arch=sm_90a
matmul_128x128x64_w8_s4_sm90a matmul BM=128 BN=128 BK=64 W=8 NS=4 --arch=sm_90a
matmul_128x64x64_w4_s4_sm90a  matmul BM=128 BN=64 BK=64 W=4 NS=4 --arch=sm_90a
matmul_128x128x64_w8_s3_sm90a matmul BM=128 BN=128 BK=64 W=8 NS=3 --arch=sm_90a
matmul_128x128x64_w4_s3_sm90a matmul BM=128 BN=128 BK=64 W=4 NS=3 --arch=sm_90a
matmul_64x128x64_w4_s4_sm90a  matmul BM=64 BN=128 BK=64 W=4 NS=4 --arch=sm_90a
matmul_64x64x64_w4_s4_sm90a   matmul BM=64 BN=64 BK=64 W=4 NS=4 --arch=sm_90a
matmul_128x64x128_w4_s3_sm90a matmul BM=128 BN=64 BK=128 W=4 NS=3 --arch=sm_90a
attn_d64_bq128_w8     attention  D=64 BQ=128 BK=64 W=8
attn_d64_bq64_w4      attention  D=64 BQ=64 BK=64 W=4
attn_d128_bq64_w8     attention  D=128 BQ=64 BK=64 W=8
attn_d128_bq128_w8    attention  D=128 BQ=128 BK=64 W=8
attn_d64_bq128_w8_s1  attention  D=64 BQ=128 BK=64 W=8 NS=1
attn_d64_bq128_w8_s3  attention  D=64 BQ=128 BK=64 W=8 NS=3
attn_d128_bq128_w8_s3 attention  D=128 BQ=128 BK=64 W=8 NS=3
attn_d128_bq64_w4     attention  D=128 BQ=64 BK=64 W=4
attn_d128_bq128_w8_s1 attention  D=128 BQ=128 BK=64 W=8 NS=1
attn_d128_bq128_w8_sm80 attention D=128 BQ=128 BK=64 W=8 --arch=sm_80
attn_d64_bq128_w8_sm80 attention D=64 BQ=128 BK=64 W=8 --arch=sm_80
attn_d128_bq128_bk32_w4 attention D=128 BQ=128 BK=32 W=4
attn_d128_bq128_bk32_w4_s3 attention D=128 BQ=128 BK=32 W=4 NS=3
attn_d64_bq128_w4     attention  D=64 BQ=128 BK=64 W=4
attn_d64_bq128_bk32_w4_s3 attention D=64 BQ=128 BK=32 W=4 NS=3
mm_bf16_128x128x32_w4_s4 matmul_bf16 BM=128 BN=128 BK=32 W=4 NS=4
mm_bf16_128x256x64_w8_s3_sm90a matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a
mm_bf16_128x128x64_w4_s3_sm90a matmul_bf16 BM=128 BN=128 BK=64 W=4 NS=3 --arch=sm_90a
mm_bf16_64x128x64_w4_s4_sm90a  matmul_bf16 BM=64 BN=128 BK=64 W=4 NS=4 --arch=sm_90a
mm_bf16_64x128x64_w4_s6_sm90a  matmul_bf16 BM=64 BN=128 BK=64 W=4 NS=6 --arch=sm_90a
mm_bf16_128x256x64_w8_s4_sm90a matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a
mm_bf16_64x128x128_w4_s4_sm90a matmul_bf16 BM=64 BN=128 BK=128 W=4 NS=4 --arch=sm_90a
mm_bf16_64x128x128_w4_s3_sm90a matmul_bf16 BM=64 BN=128 BK=128 W=4 NS=3 --arch=sm_90a
attn_d128_bq128_w8_sm90a attention D=128 BQ=128 BK=64 W=8 --arch=sm_90a
attn_d128_bq128_w8_s3_sm90a attention D=128 BQ=128 BK=64 W=8 NS=3 --arch=sm_90a
attn_d128_bq128_bk128_w8_sm90a attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a
attn_d128_bq64_w4_sm90a attention D=128 BQ=64 BK=64 W=4 --arch=sm_90a
attn_d64_bq128_w8_sm90a attention D=64 BQ=128 BK=64 W=8 --arch=sm_90a
attn_d64_bq128_w4_sm90a attention D=64 BQ=128 BK=64 W=4 --arch=sm_90a
attn_d64_bq64_w4_sm90a attention D=64 BQ=64 BK=64 W=4 --arch=sm_90a
attn_d64_bq128_bk128_w8_sm90a attention D=64 BQ=128 BK=128 W=8 --arch=sm_90a
attn_d64_bq64_w4_s3_sm90a attention D=64 BQ=64 BK=64 W=4 NS=3 --arch=sm_90a
attn_d64_bq64_bk128_w4_sm90a attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a
attn_d64_bq64_bk128_w4_s3_sm90a attention D=64 BQ=64 BK=128 W=4 NS=3 --arch=sm_90a
attn_d64_bq128_w4_s3_sm90a attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a
attn_d64_bq256_w16_sm90a attention D=64 BQ=256 BK=64 W=16 --arch=sm_90a
attn_d64_bq256_w16_s3_sm90a attention D=64 BQ=256 BK=64 W=16 NS=3 --arch=sm_90a
attn_d64_bq256_w8_sm90a attention D=64 BQ=256 BK=64 W=8 --arch=sm_90a
attn_d64_bq256_w16_sm90a_rel attention D=64 BQ=256 BK=64 W=16 --arch=sm_90a --hopper-schedule=release
attn_d128_bq128_bk128_w8_s3_sm90a attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a
matmul_128x64x64_w4_s6_sm90a  matmul BM=128 BN=64 BK=64 W=4 NS=6 --arch=sm_90a
matmul_128x64x64_w4_s8_sm90a  matmul BM=128 BN=64 BK=64 W=4 NS=8 --arch=sm_90a
matmul_64x128x64_w4_s6_sm90a  matmul BM=64 BN=128 BK=64 W=4 NS=6 --arch=sm_90a
matmul_64x128x64_w4_s8_sm90a  matmul BM=64 BN=128 BK=64 W=4 NS=8 --arch=sm_90a
matmul_64x128x128_w4_s4_sm90a matmul BM=64 BN=128 BK=128 W=4 NS=4 --arch=sm_90a
matmul_64x128x128_w4_s3_sm90a matmul BM=64 BN=128 BK=128 W=4 NS=3 --arch=sm_90a
matmul_128x128x64_w8_s6_sm90a_rel matmul BM=128 BN=128 BK=64 W=8 NS=6 --arch=sm_90a --hopper-schedule=release
matmul_128x256x64_w8_s3_sm90a_rel matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --hopper-schedule=release
matmul_128x256x64_w8_s4_sm90a_rel matmul BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a --hopper-schedule=release
matmul_256x128x64_w8_s3_sm90a_rel matmul BM=256 BN=128 BK=64 W=8 NS=3 --arch=sm_90a --hopper-schedule=release
matmul_128x128x64_w8_s4_sm90a_rel matmul BM=128 BN=128 BK=64 W=8 NS=4 --arch=sm_90a --hopper-schedule=release
mm_bf16_128x256x64_w8_s3_sm90a_rel matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --hopper-schedule=release
attn_d128_bq128_bk128_w8_sm90a_rel attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=release
attn_d128_bq128_bk128_w8_sm90a_pp attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=pingpong
attn_d128_bq128_bk128_w8_s3_sm90a_rel attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --hopper-schedule=release
attn_d128_bq128_bk128_w8_s3_sm90a_pp attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --hopper-schedule=pingpong
attn_d128_bq128_bk128_w8_sm90a_lock attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=lockstep
attn_d128_bq128_bk128_w8_s3_sm90a_lock attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --hopper-schedule=lockstep
attn_d128_bq128_bk128_w8_sm90a_prodpp attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=producer-pingpong
attn_d128_bq128_bk128_w8_s3_sm90a_prodpp attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --hopper-schedule=producer-pingpong
attn_d64_bq128_w8_sm90a_prodpp attention D=64 BQ=128 BK=64 W=8 --arch=sm_90a --hopper-schedule=producer-pingpong
attn_d128_bq128_bk128_w8_sm90a_prod_ssq attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=producer --stationary=shared
attn_d128_bq128_bk128_w8_sm90a_prodpp_ssq attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=producer-pingpong --stationary=shared
attn_d64_bq128_w8_sm90a_lock attention D=64 BQ=128 BK=64 W=8 --arch=sm_90a --hopper-schedule=lockstep
attn_d64_bq128_w4_s3_sm90a_prod attention D=64 BQ=128 BK=64 W=4 NS=3 --arch=sm_90a --hopper-schedule=producer
matmul_128x256x64_w8_s4_sm90a_prod matmul BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a --hopper-schedule=producer
matmul_128x128x64_w8_s4_sm90a_prod matmul BM=128 BN=128 BK=64 W=8 NS=4 --arch=sm_90a --hopper-schedule=producer
mm_bf16_128x256x64_w8_s4_sm90a_prod matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a --hopper-schedule=producer
attn_d128_bq128_w8_s3_sm90a_pp attention D=128 BQ=128 BK=64 W=8 NS=3 --arch=sm_90a --hopper-schedule=pingpong
attn_d128_bq128_bk128_w8_s3_sm90a_hf attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --grid-order=heavy-first
attn_d128_bq128_bk128_w8_sm90a_hf attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --grid-order=heavy-first
attn_d64_bq64_bk128_w4_sm90a_hf attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid-order=heavy-first
attn_d64_bq64_bk128_w4_sm90a_tile attention D=64 BQ=64 BK=128 W=4 --arch=sm_90a --grid=per-tile
attn_d64_bq64_bk128_w4_s3_sm90a_tile attention D=64 BQ=64 BK=128 W=4 NS=3 --arch=sm_90a --grid=per-tile
attn_d128_bq128_bk128_w8_sm90a_pp_hf attention D=128 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=pingpong --grid-order=heavy-first
attn_d128_bq128_bk128_w8_s3_sm90a_pp_hf attention D=128 BQ=128 BK=128 W=8 NS=3 --arch=sm_90a --hopper-schedule=pingpong --grid-order=heavy-first
attn_d64_bq128_w8_sm90a_pp attention D=64 BQ=128 BK=64 W=8 --arch=sm_90a --hopper-schedule=pingpong
attn_d64_bq128_bk128_w8_sm90a_pp attention D=64 BQ=128 BK=128 W=8 --arch=sm_90a --hopper-schedule=pingpong
matmul_128x256x64_w8_s3_sm90a_pers matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --grid=persistent
matmul_128x256x64_w8_s4_sm90a_pers matmul BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a --grid=persistent
matmul_128x256x64_w8_s3_sm90a_rel_pers matmul BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --hopper-schedule=release --grid=persistent
mm_bf16_128x256x64_w8_s3_sm90a_pers matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=3 --arch=sm_90a --grid=persistent
mm_bf16_128x256x64_w8_s4_sm90a_pers matmul_bf16 BM=128 BN=256 BK=64 W=8 NS=4 --arch=sm_90a --grid=persistent
'
fail=0
count=0
echo "$VARIANTS" | while read -r name file defs; do
    [ -n "$name" ] || continue
    # A cubin for sm_90 or sm_90a is what the H200 runs; the PTX beside it
    # (several hundred KB for an attention kernel) stays out of the package,
    # which must fit the device's 64 MiB. Other archs' variants keep their
    # PTX: the driver JIT-compiles it there (an sm_80 cubin does not run on 9.0).
    emit=cubin,manifest
    case " $defs " in *" --arch=sm_8"*) emit=ptx,cubin,manifest ;; esac
    set -- "$PKG/tessc" "bench/kernels/$file.tess" --emit $emit --arch sm_90 -o "$PKG/artifacts/$name"
    for d in $defs; do
        case $d in
            -*) set -- "$@" "$d" ;;     # a tessc option (-Xptxas=...)
            *) set -- "$@" -D "$d" ;;
        esac
    done
    if "$@"; then
        info=$(python3 - "$PKG/artifacts/$name/$file.manifest.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
out = []
for k in m["kernels"]:
    c = [a for a in k["artifacts"] if a["kind"] == "cubin"] or k["artifacts"]
    c = c[0] if c else {}
    # threads and shared bytes: per artifact in schema 2, per kernel in 1
    out.append("%s: %s thr, %s regs, %s spill B, %s smem B" % (k["entry"], c.get("threads", k.get("threads")),
               c.get("registers"), c.get("spills"), c.get("shared_bytes", k.get("shared_bytes"))))
print("; ".join(out))
EOF
)
        echo "built $name ($info)"
    else
        echo "FAIL: $*"
        exit 1
    fi
done || fail=1
[ "$fail" -eq 0 ] || { echo "build.sh: a variant failed" >&2; exit 1; }

bytes=$(du -sb "$PKG" | cut -f1)
echo "$PKG: $bytes bytes ($(ls "$PKG/artifacts" | wc -l) variants)"
if [ "$bytes" -gt 62914560 ]; then
    echo "build.sh: $PKG is over 60 MiB" >&2
    exit 1
fi
