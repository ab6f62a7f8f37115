// mma_probe.cu: the mma.sync ceiling of the GPU it runs on (docs/performance.md,
// "Carry, program order, epilogue"). On the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/mma_probe bench/mma_probe.cu && /tmp/mma_probe
// W warps a block, B blocks an SM, C independent
// m16n8k16 accumulators a warp, optional ldmatrix.x4 per 4 mma (as a 64x64 warp tile's k step).
#include <cstdio>
#include <cuda_runtime.h>
template <int C, int LDSM>
__global__ void probe(float *out, int iters) {
    __shared__ __align__(16) unsigned short smem[20480];   /* 40 KB: every ldmatrix address below fits */
    float acc[C][4];
    for (int c = 0; c < C; c++) for (int e = 0; e < 4; e++) acc[c][e] = 0.f;
    unsigned a[4] = {threadIdx.x, threadIdx.x * 3u, 7u, 9u}, b[2] = {threadIdx.x ^ 5u, 11u};
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned saddr = (unsigned)__cvta_generic_to_shared(smem) + ((lane & 15) * 80 + (lane >> 4) * 16 + warp * 1280) % 16000;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int c = 0; c < C; c++) {
            if (LDSM && c % 4 == 0) {
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "+r"(a[0]), "+r"(a[1]), "+r"(a[2]), "+r"(a[3]) : "r"(saddr + (c & 7) * 2560));
            }
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
    }
    float s = 0;
    for (int c = 0; c < C; c++) for (int e = 0; e < 4; e++) s += acc[c][e];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int C, int LDSM>
void run(int warps, int blocks_per_sm) {
    int sms = 132, iters = 4096;
    float *out; cudaMalloc(&out, sizeof(float) * sms * blocks_per_sm * warps * 32);
    dim3 grid(sms * blocks_per_sm), block(warps * 32);
    probe<C, LDSM><<<grid, block>>>(out, 16);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0);
    probe<C, LDSM><<<grid, block>>>(out, iters);
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    double flops = 2.0 * 16 * 8 * 16 * C * (double)iters * warps * grid.x;
    printf("C=%2d ldsm=%d warps/block=%2d blocks/SM=%d warps/SMSP=%d: %7.1f TFLOP/s (%s)\n", C, LDSM, warps, blocks_per_sm,
           warps * blocks_per_sm / 4, flops / ms / 1e9, cudaGetErrorString(cudaGetLastError()));
    cudaFree(out);
}
int main() {
    run<32, 0>(4, 1); run<32, 0>(4, 2); run<32, 0>(8, 1); run<32, 0>(8, 2); run<32, 0>(16, 1);
    run<16, 0>(4, 2); run<16, 0>(8, 2); run<16, 0>(16, 2);
    run<8, 0>(8, 2); run<8, 0>(16, 2); run<4, 0>(16, 2);
    run<32, 1>(4, 1); run<32, 1>(4, 2); run<32, 1>(8, 1); run<32, 1>(8, 2);
    return 0;
}
