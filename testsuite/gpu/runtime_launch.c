/*
 * runtime_launch.c: libtessrt on a real GPU (built as
 * $(BUILD)/tests/runtime_launch; run it on the GPU machine):
 *
 *     runtime_launch testsuite/gpu/Inputs/kernels.json
 *
 * On every device: relu through the exact-SM cubin (when the device is 9.0)
 * and through a JIT of the sm_80 PTX, on random data of an odd size, compared
 * with a reference computed here; smem_reverse, whose 64 KiB of dynamic
 * shared memory needs the raised limit; a contract violation refused before
 * launch; an empty launch (N = 0); and four threads loading and launching
 * the same kernels at once. Outputs are poisoned (NaN) before each launch so
 * an element the kernel never wrote fails. Prints "N passed, N failed";
 * without a driver or device prints "skipped: no CUDA device" and exits 0.
 */
#include "tessrt.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void check(bool ok, const char *what) {
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (ok)
        passed++;
    else
        failed++;
}

#define TRY(call)                                                                          \
    do {                                                                                   \
        tessrt_status s_ = (call);                                                         \
        if (s_ != TESSRT_OK) {                                                             \
            printf("FAIL: %s: %s: %s\n", #call, tessrt_error_string(s_), tessrt_last_error()); \
            failed++;                                                                      \
            return false;                                                                  \
        }                                                                                  \
    } while (0)

static uint64_t rng_state = 12345;
static float random_float(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((int)(rng_state >> 40) % 20001 - 10000) / 1000.0f;
}

static float nan_value(void) { return NAN; }

/* relu of n elements on `device` through `kernel_name`; checks every output */
static bool run_relu(tessrt_manifest *m, const char *kernel_name, int device, int n, float alpha,
                     char *chosen, size_t chosen_size) {
    tessrt_kernel *k;
    TRY(tessrt_kernel_get(m, kernel_name, &k));
    TRY(tessrt_kernel_prepare(k, device, chosen, chosen_size));
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes + 4), *o = malloc(bytes + 4);
    for (int i = 0; i < n; i++) {
        x[i] = random_float();
        o[i] = nan_value();
    }
    uint64_t dx, dout;
    TRY(tessrt_device_alloc(device, bytes, &dx));
    TRY(tessrt_device_alloc(device, bytes, &dout));
    TRY(tessrt_copy_to_device(device, dx, x, bytes));
    TRY(tessrt_copy_to_device(device, dout, o, bytes));
    tessrt_arg args[4] = {tessrt_arg_array(dx), tessrt_arg_array(dout), tessrt_arg_f32(alpha),
                          tessrt_arg_size(n)};
    TRY(tessrt_launch(k, device, args, 4, NULL));
    TRY(tessrt_device_synchronize(device));
    TRY(tessrt_copy_from_device(device, o, dout, bytes));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float want = x[i] > 0 ? x[i] : alpha * x[i];
        if (!(o[i] == want) && bad++ < 3)
            printf("  %s[%d]: got %g, want %g\n", kernel_name, i, o[i], want);
    }
    tessrt_device_free(device, dx);
    tessrt_device_free(device, dout);
    free(x);
    free(o);
    return bad == 0;
}

static bool run_reverse(tessrt_manifest *m, int device) {
    tessrt_kernel *k;
    TRY(tessrt_kernel_get(m, "smem_reverse", &k));
    const int block = 16384, n = 3 * block;
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    for (int i = 0; i < n; i++) {
        x[i] = random_float();
        y[i] = nan_value();
    }
    uint64_t dx, dy;
    TRY(tessrt_device_alloc(device, bytes, &dx));
    TRY(tessrt_device_alloc(device, bytes, &dy));
    TRY(tessrt_copy_to_device(device, dx, x, bytes));
    TRY(tessrt_copy_to_device(device, dy, y, bytes));
    tessrt_arg args[3] = {tessrt_arg_array(dx), tessrt_arg_array(dy), tessrt_arg_size(n)};
    TRY(tessrt_launch(k, device, args, 3, NULL));
    TRY(tessrt_device_synchronize(device));
    TRY(tessrt_copy_from_device(device, y, dy, bytes));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int b = i / block, j = i % block;
        float want = x[b * block + block - 1 - j];
        if (!(y[i] == want) && bad++ < 3)
            printf("  smem_reverse[%d]: got %g, want %g\n", i, y[i], want);
    }
    /* a contract violation is refused before any launch */
    tessrt_arg odd[3] = {tessrt_arg_array(dx), tessrt_arg_array(dy), tessrt_arg_size(1000)};
    tessrt_status s = tessrt_launch(k, device, odd, 3, NULL);
    check(s == TESSRT_ERROR_CONTRACT, "smem_reverse with N = 1000 violates 'N % 16384 == 0'");
    printf("  (%s)\n", tessrt_last_error());
    tessrt_device_free(device, dx);
    tessrt_device_free(device, dy);
    free(x);
    free(y);
    return bad == 0;
}

typedef struct ThreadJob {
    tessrt_manifest *manifest;
    int device;
    bool ok;
} ThreadJob;

static void *thread_main(void *p) {
    ThreadJob *job = p;
    char chosen[256];
    job->ok = true;
    for (int i = 0; i < 20 && job->ok; i++)
        job->ok = run_relu(job->manifest, i % 2 ? "relu" : "relu_jit", job->device, 4097 + i, 0.25f,
                           chosen, sizeof chosen);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: runtime_launch MANIFEST\n");
        return 2;
    }
    int devices = 0;
    tessrt_status s = tessrt_device_count(&devices);
    if (s != TESSRT_OK || devices == 0) {
        printf("skipped: no CUDA device (%s)\n", tessrt_last_error());
        return 0;
    }
    for (int device = 0; device < devices; device++) {
        int major, minor;
        tessrt_device_capability(device, &major, &minor);
        printf("device %d: compute capability %d.%d\n", device, major, minor);
        tessrt_manifest *m;
        if (tessrt_manifest_load(argv[1], &m) != TESSRT_OK) {
            printf("FAIL: %s\n", tessrt_last_error());
            return 1;
        }
        char chosen[256], what[512];
        bool ok = run_relu(m, "relu", device, 1000003, 0.1f, chosen, sizeof chosen);
        snprintf(what, sizeof what, "device %d: relu of 1000003 elements via %s", device, chosen);
        check(ok, what);
        if (major == 9 && minor == 0)
            check(strstr(chosen, "cubin") != NULL, "the 9.0 device runs the exact sm_90 cubin");
        ok = run_relu(m, "relu_jit", device, 777, -0.5f, chosen, sizeof chosen);
        snprintf(what, sizeof what, "device %d: relu of 777 elements via %s (JIT)", device, chosen);
        check(ok && strstr(chosen, "ptx"), what);
        check(run_reverse(m, device), "smem_reverse through 64 KiB of dynamic shared memory");

        tessrt_kernel *k;
        tessrt_kernel_get(m, "relu", &k);
        tessrt_arg empty[4] = {tessrt_arg_array(0), tessrt_arg_array(0), tessrt_arg_f32(1),
                               tessrt_arg_size(0)};
        check(tessrt_launch(k, device, empty, 4, NULL) == TESSRT_OK, "N = 0 launches nothing");
        tessrt_manifest_free(m);

        /* four threads race to load the same modules of a fresh manifest */
        if (tessrt_manifest_load(argv[1], &m) != TESSRT_OK)
            return 1;
        pthread_t threads[4];
        ThreadJob jobs[4];
        for (int t = 0; t < 4; t++) {
            jobs[t] = (ThreadJob){m, device, false};
            pthread_create(&threads[t], NULL, thread_main, &jobs[t]);
        }
        bool all = true;
        for (int t = 0; t < 4; t++) {
            pthread_join(threads[t], NULL);
            all = all && jobs[t].ok;
        }
        check(all, "4 threads loading and launching at once");
        tessrt_manifest_free(m);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
