/*
 * runtime_interp.c: a user's host program, written for the GPU, that runs on
 * the interpreter when TESSRT_DEVICE=interp is set (built as
 * $(BUILD)/tests/runtime_interp, linked with libtessrt.a only).
 *
 *     runtime_interp MANIFEST N      relu2x1 (o = max(2x + 1, 0)) over N elements
 *     runtime_interp MANIFEST N api  the same, choosing the interpreter with
 *                                    tessrt_set_device_kind instead
 *     runtime_interp MANIFEST N misuse  frees, copies and launches that the
 *                                    interpreter device must refuse (a foreign
 *                                    pointer, a double free, buffers smaller
 *                                    than the shape), each printed
 *     runtime_interp MANIFEST N oom  out of memory inside the interpreter: with
 *                                    TESSRT_INTERP_DEBUG_FAIL_ALLOC=0, 1, 2, ...
 *                                    each load or launch fails in turn, until
 *                                    one gets through; then under a lowered
 *                                    RLIMIT_AS (N large, the manifest compiled
 *                                    with BLOCK=N); every failure must be
 *                                    TESSRT_ERROR_OUT_OF_MEMORY with a message
 *                                    and the program go on to a launch that
 *                                    works
 *
 * It allocates device memory, copies x in, poisons o with NaN, launches
 * the kernel from the manifest, synchronizes, copies o back and checks every
 * element. Prints the device kind, what ran, and "ok: N elements" or the
 * runtime's message (exit 1).
 */
#include "tessrt.h"

#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#define TRY(call)                                                                          \
    do {                                                                                   \
        tessrt_status s_ = (call);                                                         \
        if (s_ != TESSRT_OK) {                                                             \
            printf("error: %s: %s\n", tessrt_error_string(s_), tessrt_last_error());       \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

static tessrt_manifest *m;
static float *x, *o;

/* Each call must fail with a message, and the program go on. */
static int misuse(int n) {
    tessrt_kernel *k;
    TRY(tessrt_kernel_get(m, "relu2x1", &k));
    int local = 0;
    float *heap = malloc(16);
    printf("free of a stack pointer: %s\n", tessrt_device_free(0, (uint64_t)(uintptr_t)&local) == TESSRT_OK ? "accepted" : tessrt_last_error());
    printf("free of a malloc pointer: %s\n", tessrt_device_free(0, (uint64_t)(uintptr_t)heap) == TESSRT_OK ? "accepted" : tessrt_last_error());
    free(heap);
    uint64_t small, big;
    TRY(tessrt_device_alloc(0, 16, &small));
    TRY(tessrt_device_alloc(0, (size_t)n * sizeof(float), &big));
    printf("free inside an allocation: %s\n", tessrt_device_free(0, small + 4) == TESSRT_OK ? "accepted" : tessrt_last_error());
    float sixteen[16] = {0};
    printf("copy past the end: %s\n", tessrt_copy_to_device(0, small, sixteen, sizeof sixteen) == TESSRT_OK ? "accepted" : tessrt_last_error());
    printf("copy from past the end: %s\n", tessrt_copy_from_device(0, sixteen, small + 8, 16) == TESSRT_OK ? "accepted" : tessrt_last_error());
    tessrt_arg args[3] = {tessrt_arg_array(big), tessrt_arg_array(small), tessrt_arg_size(n)};
    printf("launch with a small output: %s\n", tessrt_launch(k, 0, args, 3, NULL) == TESSRT_OK ? "accepted" : tessrt_last_error());
    args[1] = tessrt_arg_array((uint64_t)(uintptr_t)sixteen);
    printf("launch with host memory: %s\n", tessrt_launch(k, 0, args, 3, NULL) == TESSRT_OK ? "accepted" : tessrt_last_error());
    TRY(tessrt_device_free(0, small));
    printf("double free: %s\n", tessrt_device_free(0, small) == TESSRT_OK ? "accepted" : tessrt_last_error());
    TRY(tessrt_device_free(0, big));
    printf("misuse: done\n");
    return 0;
}

/* Device buffers x (the inputs above) and o for n elements. */
static int setup(int n, uint64_t *dx, uint64_t *dout) {
    size_t bytes = (size_t)n * sizeof(float);
    x = malloc(bytes + 4);
    o = malloc(bytes + 4);
    if (!x || !o)
        return 1;
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i * 7919) % 2001 - 1000) / 250.0f;
        o[i] = NAN;
    }
    TRY(tessrt_device_alloc(0, bytes, dx));
    TRY(tessrt_device_alloc(0, bytes, dout));
    TRY(tessrt_copy_to_device(0, *dx, x, bytes));
    TRY(tessrt_copy_to_device(0, *dout, o, bytes));
    return 0;
}

/* The number of elements of o (copied back from dout) that are wrong. */
static int check(int n, uint64_t dout) {
    if (tessrt_copy_from_device(0, o, dout, (size_t)n * sizeof(float)) != TESSRT_OK)
        return n;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float v = 2.0f * x[i] + 1.0f, want = v > 0.0f ? v : 0.0f;
        if (!(o[i] == want) && bad++ < 3)
            printf("  o[%d]: got %g, want %g\n", i, o[i], want);
    }
    return bad;
}

/* The process's address space in bytes now (/proc/self/statm), or 0. */
static size_t address_space(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * 4096;
}

static int oom(const char *path, int n) {
    TRY(tessrt_set_device_kind(TESSRT_DEVICE_KIND_INTERP));
    uint64_t dx, dout;
    if (setup(n, &dx, &dout))
        return 1;
    tessrt_arg args[3] = {tessrt_arg_array(dx), tessrt_arg_array(dout), tessrt_arg_size(n)};
    /* The knob: a fresh manifest each time, so that the load runs again too. */
    int failures = 0;
    char last[512] = "";
    for (int fail = 0; fail < 10000; fail++) {
        tessrt_kernel *k;
        TRY(tessrt_manifest_load(path, &m));
        TRY(tessrt_kernel_get(m, "relu2x1", &k));
        char value[32];
        snprintf(value, sizeof value, "%d", fail);
        setenv("TESSRT_INTERP_DEBUG_FAIL_ALLOC", value, 1);
        tessrt_status s = tessrt_launch(k, 0, args, 3, NULL);
        unsetenv("TESSRT_INTERP_DEBUG_FAIL_ALLOC");
        if (s == TESSRT_OK) {
            tessrt_manifest_free(m);
            m = NULL;
            break;
        }
        if (s != TESSRT_ERROR_OUT_OF_MEMORY) {
            printf("knob %d: %s: %s\n", fail, tessrt_error_string(s), tessrt_last_error());
            return 1;
        }
        if (strcmp(last, tessrt_last_error()) != 0) {   /* each kind of message once */
            snprintf(last, sizeof last, "%s", tessrt_last_error());
            printf("knob %d: %s: %s\n", fail, tessrt_error_string(s), last);
        }
        failures++;
        tessrt_manifest_free(m);
        m = NULL;
    }
    int bad = check(n, dout);
    printf("knob: %s after %d out of memory failures, %d elements wrong\n", failures ? "ran" : "never failed",
           failures, bad);

    /* A real limit: the plan of a large block does not fit. */
    tessrt_kernel *k;
    TRY(tessrt_manifest_load(path, &m));
    TRY(tessrt_kernel_get(m, "relu2x1", &k));
    char chosen[256];
    TRY(tessrt_kernel_prepare(k, 0, chosen, sizeof chosen));
    struct rlimit saved, low;
    if (getrlimit(RLIMIT_AS, &saved) != 0)
        return 1;
    low = saved;
    low.rlim_cur = address_space() + ((size_t)16 << 20);   /* the plan needs several 8 MiB tiles */
    if (setrlimit(RLIMIT_AS, &low) != 0)
        return 1;
    tessrt_status s = tessrt_launch(k, 0, args, 3, NULL);
    setrlimit(RLIMIT_AS, &saved);
    printf("limit: %s: %s\n", tessrt_error_string(s), s == TESSRT_OK ? "-" : tessrt_last_error());
    TRY(tessrt_copy_to_device(0, dout, o, 4));   /* one poisoned element, again */
    o[0] = NAN;
    TRY(tessrt_copy_to_device(0, dout, o, 4));
    TRY(tessrt_launch(k, 0, args, 3, NULL));
    printf("after the limit: %d elements wrong; still here\n", check(n, dout));
    return 0;
}

static int run(int argc, char **argv) {
    int n = atoi(argv[2]);
    if (argc > 3 && strcmp(argv[3], "misuse") == 0) {
        TRY(tessrt_set_device_kind(TESSRT_DEVICE_KIND_INTERP));
        TRY(tessrt_manifest_load(argv[1], &m));
        return misuse(n);
    }
    if (argc > 3 && strcmp(argv[3], "oom") == 0)
        return oom(argv[1], n);
    if (argc > 3 && strcmp(argv[3], "api") == 0)
        TRY(tessrt_set_device_kind(TESSRT_DEVICE_KIND_INTERP));
    tessrt_device_kind kind;
    TRY(tessrt_get_device_kind(&kind));
    int count = 0, major = -1, minor = -1;
    TRY(tessrt_device_count(&count));
    TRY(tessrt_device_capability(0, &major, &minor));
    printf("device kind %s, %d device(s), capability %d.%d\n",
           kind == TESSRT_DEVICE_KIND_INTERP ? "interp" : "gpu", count, major, minor);

    tessrt_kernel *k;
    TRY(tessrt_manifest_load(argv[1], &m));
    TRY(tessrt_kernel_get(m, "relu2x1", &k));
    char chosen[256];
    TRY(tessrt_kernel_prepare(k, 0, chosen, sizeof chosen));
    printf("chosen: %s\n", chosen);

    size_t bytes = (size_t)n * sizeof(float);
    x = malloc(bytes + 4);
    o = malloc(bytes + 4);
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i * 7919) % 2001 - 1000) / 250.0f;
        o[i] = NAN;
    }
    uint64_t dx, dout;
    TRY(tessrt_device_alloc(0, bytes, &dx));
    TRY(tessrt_device_alloc(0, bytes, &dout));
    TRY(tessrt_copy_to_device(0, dx, x, bytes));
    TRY(tessrt_copy_to_device(0, dout, o, bytes));
    tessrt_arg args[3] = {tessrt_arg_array(dx), tessrt_arg_array(dout), tessrt_arg_size(n)};
    TRY(tessrt_launch(k, TESSRT_DEVICE_CURRENT, args, 3, NULL));
    TRY(tessrt_device_synchronize(0));
    TRY(tessrt_copy_from_device(0, o, dout, bytes));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float v = 2.0f * x[i] + 1.0f, want = v > 0.0f ? v : 0.0f;
        if (!(o[i] == want) && bad++ < 3)
            printf("  o[%d]: got %g, want %g\n", i, o[i], want);
    }
    TRY(tessrt_device_free(0, dx));
    TRY(tessrt_device_free(0, dout));
    /* A wrong argument is still refused before anything runs. */
    tessrt_status s = tessrt_launch(k, 0, args, 2, NULL);
    printf("two arguments: %s\n", s == TESSRT_OK ? "accepted" : tessrt_last_error());
    if (bad) {
        printf("FAIL: %d of %d elements differ\n", bad, n);
        return 1;
    }
    printf("ok: %d elements\n", n);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: runtime_interp MANIFEST N [api]\n");
        return 2;
    }
    int code = run(argc, argv);
    tessrt_manifest_free(m);
    free(x);
    free(o);
    return code;
}
