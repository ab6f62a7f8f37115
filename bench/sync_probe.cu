// sync_probe.cu: what a trip of a TMA ring's synchronisation costs on the
// GPU it runs on, with no work between (docs/performance.md, "Session 18":
// why per-slot "empty" mbarriers and a producer warp were slower than the
// block barrier they replaced). On the GPU machine:
//   nvcc -O3 -arch=sm_90a -o /tmp/sync_probe bench/sync_probe.cu && /tmp/sync_probe
// One block of 8 consumer warps (+ 1 producer warp where the pattern has
// one), ITERS trips, clock64 around the loop; cycles a trip:
//   bar        every thread: bar.sync 0 (the TMA entry's ring barrier)
//   split      warp 0 bar.sync N, 256 then arms a "full" mbarrier; the
//              others wait for the previous trip's and bar.arrive N, 256
//   empty      the consumers' lane 0 arrive on an "empty" mbarrier (count
//              8); the producer waits for it (try_wait.parity) and arrives
//              on a "full" one (count 1) that the consumers wait for: the
//              release -> producer -> consumers round trip, without the TMA
//   empty+tx   as empty, but the producer's arrival is arrive.expect_tx of
//              0 bytes (what arming a group costs)
#include <cstdio>
#include <cuda_runtime.h>

enum { ITERS = 4096, CONSUMERS = 256 };

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
    asm volatile("{ .reg .b64 s; mbarrier.arrive.shared.b64 s, [%0]; }" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive_tx(unsigned bar, unsigned bytes) {
    asm volatile("{ .reg .b64 s; mbarrier.arrive.expect_tx.shared.b64 s, [%0], %1; }" ::"r"(bar), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1; @!p bra W; }" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}

template <int MODE>
__global__ void probe(long long *cycles) {
    __shared__ __align__(8) unsigned long long bars[2];
    unsigned full = (unsigned)__cvta_generic_to_shared(&bars[0]);
    unsigned empty = (unsigned)__cvta_generic_to_shared(&bars[1]);
    unsigned tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    if (tid == 0) {
        mbar_init(full, 1);
        mbar_init(empty, CONSUMERS / 32);
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < ITERS; i++) {
        if (MODE == 0) {
            asm volatile("bar.sync 0;" ::: "memory");
        } else if (MODE == 1) {
            /* the others are held one trip behind by a "full" mbarrier that
               warp 0 arms after its wait, as the ring's data holds them in a
               kernel (without it a warp could arrive twice on one barrier) */
            unsigned id = 1 + (i & 1);
            if (warp == 0) {
                asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(CONSUMERS) : "memory");
                if (lane == 0)
                    mbar_arrive(full);
                __syncwarp();
            } else {
                if (i > 0)
                    mbar_wait(full, (i - 1) & 1);
                asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(CONSUMERS) : "memory");
            }
        } else if (tid >= CONSUMERS) {   /* the producer warp */
            if (i > 0)
                mbar_wait(empty, (i - 1) & 1);   /* the consumers released trip i - 1 */
            if (lane == 0) {
                if (MODE == 3)
                    mbar_arrive_tx(full, 0);
                else
                    mbar_arrive(full);
            }
            __syncwarp();
        } else {                         /* a consumer */
            mbar_wait(full, i & 1);
            __syncwarp();
            if (lane == 0)
                mbar_arrive(empty);
        }
    }
    long long t1 = clock64();
    if (tid == 0)
        cycles[0] = (t1 - t0) / ITERS;
}

template <int MODE>
static long long run(int threads) {
    long long *d, h = 0;
    cudaMalloc(&d, sizeof *d);
    probe<MODE><<<1, threads>>>(d);
    probe<MODE><<<1, threads>>>(d);   /* the first launch warms the instruction cache */
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return h;
}

int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    printf("bar       %lld cycles a trip\n", run<0>(CONSUMERS));
    printf("split     %lld cycles a trip\n", run<1>(CONSUMERS));
    printf("empty     %lld cycles a trip\n", run<2>(CONSUMERS + 32));
    printf("empty+tx  %lld cycles a trip\n", run<3>(CONSUMERS + 32));
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
