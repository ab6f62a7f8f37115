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
 *
 * It allocates device memory, copies x in, poisons o with NaN, launches
 * the kernel from the manifest, synchronizes, copies o back and checks every
 * element. Prints the device kind, what ran, and "ok: N elements" or the
 * runtime's message (exit 1).
 */
#include "tessrt.h"

#include <math.h>
#include <stdio.h>
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

static int run(int argc, char **argv) {
    int n = atoi(argv[2]);
    if (argc > 3 && strcmp(argv[3], "misuse") == 0) {
        TRY(tessrt_set_device_kind(TESSRT_DEVICE_KIND_INTERP));
        TRY(tessrt_manifest_load(argv[1], &m));
        return misuse(n);
    }
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
