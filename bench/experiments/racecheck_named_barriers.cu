// racecheck_named_barriers.cu: does racecheck follow named barriers used as turns (bar.arrive / bar.sync)?
// Build and run on an sm_90 GPU: nvcc -arch=sm_90a -o probe racecheck_named_barriers.cu;
// compute-sanitizer --tool racecheck --racecheck-report all ./probe 0   (no turns: 0 hazards)
// compute-sanitizer --tool racecheck --racecheck-report all ./probe 1   (turns: 257 on the H100, run s27-1)
// Two warpgroups take turns (the ping-pong protocol of tessc's pingpong schedule), then
// exchange values through shared memory across a full __syncthreads: race-free by construction.
#include <cstdio>
__device__ __forceinline__ void bsync(int id) { asm volatile("bar.sync %0, 256;" :: "r"(id) : "memory"); }
__device__ __forceinline__ void barrive(int id) { asm volatile("bar.arrive %0, 256;" :: "r"(id) : "memory"); }
__global__ void probe(int *out, int n, int turns) {
    __shared__ int buf[256];
    int tid = threadIdx.x, wg = tid / 128;
    int acc = 0;
    if (turns) {
        if (wg == 1) bsync(2);
        for (int j = 0; j < n; j++) {
            acc += j;                              // "q @ k.T"
            if (wg == 0) barrive(2); else barrive(1);
            acc *= 3;                              // "softmax"
            if (wg == 0) bsync(1); else bsync(2);
            acc += 1;                              // "p @ v"
        }
        if (wg == 0) barrive(2);
    }
    __syncthreads();
    buf[tid] = acc + tid;
    __syncthreads();
    out[blockIdx.x * 256 + tid] = buf[255 - tid];
}
#include <cstdlib>
int main(int argc, char **argv) {
    int turns = argc > 1 ? atoi(argv[1]) : 1;
    int *d; cudaMalloc(&d, 4 * 256 * 4);
    probe<<<4, 256>>>(d, 5, turns);
    cudaError_t e = cudaDeviceSynchronize();
    printf("turns=%d: %s\n", turns, cudaGetErrorString(e));
    return 0;
}
