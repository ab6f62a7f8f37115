/*
 * launch_overhead.c: what libtessrt adds to a launch (built as
 * $(BUILD)/bench/launch_overhead; needs a GPU):
 *
 *     launch_overhead testsuite/gpu/Inputs/kernels.json [CALLS]
 *
 * The same cubin (the manifest's sm_90 relu, on 1024 elements) launched with
 * a bare cuLaunchKernel and with tessrt_launch (argument and contract checks,
 * grid evaluation, context push/pop when needed). Each call's wall time is
 * measured alone; the stream is drained every 64 calls so the queue never
 * fills. Prints the median and the 90th percentile in microseconds per call,
 * both with the primary context current (no push needed) and with no current
 * context (tessrt pushes and pops). Also checks that the caller's current
 * context is what it was.
 */
#include "tessrt.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, compare_double);
    printf("%-44s median %7.3f us   p90 %7.3f us\n", what, t[n / 2], t[n * 9 / 10]);
}

#define CU(call)                                                             \
    do {                                                                     \
        CUresult r_ = (call);                                                \
        if (r_ != CUDA_SUCCESS) {                                            \
            const char *name_ = "?";                                         \
            cuGetErrorName(r_, &name_);                                      \
            fprintf(stderr, "launch_overhead: %s: %s\n", #call, name_);      \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: launch_overhead MANIFEST [CALLS]\n");
        return 2;
    }
    int calls = argc > 2 ? atoi(argv[2]) : 20000;
    if (calls < 100)
        calls = 100;
    double *t = malloc(sizeof *t * (size_t)calls);

    tessrt_manifest *m;
    tessrt_kernel *k;
    char chosen[256];
    if (tessrt_manifest_load(argv[1], &m) != TESSRT_OK || tessrt_kernel_get(m, "relu", &k) != TESSRT_OK ||
        tessrt_kernel_prepare(k, 0, chosen, sizeof chosen) != TESSRT_OK) {
        fprintf(stderr, "launch_overhead: %s\n", tessrt_last_error());
        return 1;
    }
    printf("tessrt runs %s\n", chosen);

    /* the bare driver path, on the same image file */
    char path[4096];
    const char *slash = strrchr(argv[1], '/');
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - argv[1] + 1) : 0, argv[1],
             strstr(chosen, "cubin") ? "kernels.sm_90.cubin" : "kernels.sm_80.ptx");
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "launch_overhead: cannot open %s\n", path);
        return 1;
    }
    static char image[1 << 20];
    size_t len = fread(image, 1, sizeof image - 1, f);
    image[len] = '\0';
    fclose(f);
    CUdevice dev;
    CUcontext ctx, current;
    CUmodule module;
    CUfunction fn;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    CU(cuModuleLoadData(&module, image));
    CU(cuModuleGetFunction(&fn, module, "relu"));
    int n = 1024;
    float alpha = 0.5f;
    CUdeviceptr x, o;
    CU(cuMemAlloc(&x, n * sizeof(float)));
    CU(cuMemAlloc(&o, n * sizeof(float)));
    void *params[] = {&x, &o, &alpha, &n};
    tessrt_arg args[4] = {tessrt_arg_array(x), tessrt_arg_array(o), tessrt_arg_f32(alpha),
                          tessrt_arg_size(n)};

    for (int warm = 0; warm < 1000; warm++) {
        CU(cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
        tessrt_launch(k, 0, args, 4, NULL);
    }
    CU(cuCtxSynchronize());

    for (int i = 0; i < calls; i++) {
        double t0 = now_us();
        CU(cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
        t[i] = now_us() - t0;
        if (i % 64 == 63)
            CU(cuCtxSynchronize());
    }
    report("bare cuLaunchKernel", t, calls);

    for (int i = 0; i < calls; i++) {
        double t0 = now_us();
        tessrt_status s = tessrt_launch(k, 0, args, 4, NULL);
        t[i] = now_us() - t0;
        if (s != TESSRT_OK) {
            fprintf(stderr, "launch_overhead: %s\n", tessrt_last_error());
            return 1;
        }
        if (i % 64 == 63)
            CU(cuCtxSynchronize());
    }
    report("tessrt_launch (primary context current)", t, calls);
    CU(cuCtxGetCurrent(&current));
    printf("current context unchanged: %s\n", current == ctx ? "yes" : "NO");

    CU(cuCtxSetCurrent(NULL));
    for (int i = 0; i < calls; i++) {
        double t0 = now_us();
        tessrt_launch(k, 0, args, 4, NULL);
        t[i] = now_us() - t0;
        if (i % 64 == 63)
            tessrt_device_synchronize(0);
    }
    report("tessrt_launch (no current context: push/pop)", t, calls);
    CU(cuCtxGetCurrent(&current));
    printf("current context still none: %s\n", current == NULL ? "yes" : "NO");

    CU(cuCtxSetCurrent(ctx));
    /* the output is right, too */
    float host[1024], in[1024];
    for (int i = 0; i < n; i++)
        in[i] = (float)(i - 512);
    CU(cuMemcpyHtoD(x, in, sizeof in));
    tessrt_launch(k, 0, args, 4, NULL);
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(host, o, sizeof host));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += host[i] != (in[i] > 0 ? in[i] : alpha * in[i]);
    printf("outputs: %s\n", bad ? "WRONG" : "ok");
    cuMemFree(x);
    cuMemFree(o);
    cuModuleUnload(module);
    tessrt_manifest_free(m);
    free(t);
    return bad != 0;
}
