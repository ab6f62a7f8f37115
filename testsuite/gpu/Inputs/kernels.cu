// Two small kernels for testsuite/gpu/runtime_launch.c and
// bench/launch_overhead.c, standing in for tessc's output until the backend
// emits real kernels. Regenerate the committed images with:
//   nvcc -ptx -arch=sm_80 kernels.cu -o kernels.sm_80.ptx
//   ptxas -arch=sm_90 kernels.sm_80.ptx -o kernels.sm_90.cubin
extern "C" __global__ void relu(const float *x, float *o, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = x[i] > 0.0f ? x[i] : alpha * x[i];
}

// Reverses each block of 16384 floats through 64 KiB of dynamic shared
// memory (more than the default 48 KiB: the runtime must raise the limit).
extern "C" __global__ void smem_reverse(const float *x, float *y, int n) {
    extern __shared__ float buf[];
    const int block = 16384;
    const float *src = x + (long)blockIdx.x * block;
    float *dst = y + (long)blockIdx.x * block;
    for (int j = threadIdx.x; j < block; j += blockDim.x)
        buf[j] = src[j];
    __syncthreads();
    for (int j = threadIdx.x; j < block; j += blockDim.x)
        dst[j] = buf[block - 1 - j];
}
