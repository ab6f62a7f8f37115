/*
 * A user's program: launches relu2x1 and softmax through the functions that
 * tessc --emit header,source generated (build/relu2x1.h, build/softmax.h) and
 * checks the results against the same math done here on the CPU.
 *
 * Exit status: 0 when the results match, or when there is no CUDA device (it
 * says "no CUDA device" and still checks that the embedded kernels load);
 * 1 on a mismatch or an error; 1 also without a device when run with
 * --require-device (testsuite/gpu/consumers.sh does).
 */
#include "relu2x1.h"
#include "softmax.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, tessrt_status s) {
    fprintf(stderr, "consumer: %s: %s: %s\n", what, tessrt_error_string(s), tessrt_last_error());
    return 1;
}

/* Without a GPU: the embedded manifest loads, and names the image a 9.0
   device would get. */
static int check_embedded(void) {
    tessrt_manifest *m;
    tessrt_kernel *k;
    tessrt_status s = relu2x1_manifest(&m);
    if (s != TESSRT_OK)
        return fail("loading the embedded manifest", s);
    if ((s = tessrt_kernel_get(m, "relu2x1", &k)) != TESSRT_OK)
        return fail("relu2x1", s);
    char desc[256];
    int index;
    if ((s = tessrt_kernel_artifact_for(k, 9, 0, &index, desc, sizeof desc)) != TESSRT_OK)
        return fail("choosing an artifact", s);
    printf("embedded: relu2x1 on a 9.0 device runs %s\n", desc);
    return 0;
}

int main(int argc, char **argv) {
    bool require = argc > 1 && strcmp(argv[1], "--require-device") == 0;
    if (check_embedded() != 0)
        return 1;
    int devices = 0;
    tessrt_status s = tessrt_device_count(&devices);
    if (s != TESSRT_OK || devices == 0) {
        printf("no CUDA device: nothing launched\n");
        return require ? 1 : 0;
    }

    /* relu2x1: o = max(2x + 1, 0) over N elements (N not a multiple of the block) */
    enum { N = 100003, ROWS = 37, COLS = 1000 };
    float *x = malloc(sizeof(float) * N), *o = malloc(sizeof(float) * N);
    float *a = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS * COLS);
    if (!x || !o || !a || !y)
        return 1;
    for (int i = 0; i < N; i++)
        x[i] = (float)((i * 7919L) % 2001 - 1000) / 250.0f;
    for (int i = 0; i < ROWS * COLS; i++)
        a[i] = (float)((i * 104729L) % 1999 - 999) / 100.0f;
    uint64_t dx, dout, da, dy;
    if ((s = tessrt_device_alloc(0, sizeof(float) * N, &dx)) || (s = tessrt_device_alloc(0, sizeof(float) * N, &dout)) ||
        (s = tessrt_device_alloc(0, sizeof(float) * ROWS * COLS, &da)) ||
        (s = tessrt_device_alloc(0, sizeof(float) * ROWS * COLS, &dy)))
        return fail("tessrt_device_alloc", s);
    if ((s = tessrt_copy_to_device(0, dx, x, sizeof(float) * N)) ||
        (s = tessrt_copy_to_device(0, da, a, sizeof(float) * ROWS * COLS)))
        return fail("copy to device", s);
    if ((s = relu2x1_launch(NULL, dx, dout, N)) != TESSRT_OK)
        return fail("relu2x1_launch", s);
    if ((s = softmax_launch(NULL, da, dy, ROWS, COLS)) != TESSRT_OK)
        return fail("softmax_launch", s);
    if ((s = tessrt_device_synchronize(0)) || (s = tessrt_copy_from_device(0, o, dout, sizeof(float) * N)) ||
        (s = tessrt_copy_from_device(0, y, dy, sizeof(float) * ROWS * COLS)))
        return fail("copy from device", s);

    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = 2.0f * x[i] + 1.0f > 0.0f ? 2.0f * x[i] + 1.0f : 0.0f;
        if (fabsf(o[i] - want) > 1e-6f * (1.0f + fabsf(want)) && bad++ < 5)
            fprintf(stderr, "relu2x1: o[%d] = %g, want %g\n", i, o[i], want);
    }
    for (int r = 0; r < ROWS; r++) {
        double max = -INFINITY, sum = 0;
        for (int c = 0; c < COLS; c++)
            max = fmax(max, a[r * COLS + c]);
        for (int c = 0; c < COLS; c++)
            sum += exp(a[r * COLS + c] - max);
        for (int c = 0; c < COLS; c++) {
            double want = exp(a[r * COLS + c] - max) / sum;
            double got = y[r * COLS + c];
            if (fabs(got - want) > 1e-5 * (1.0 + fabs(want)) + 1e-7 && bad++ < 10)
                fprintf(stderr, "softmax: y[%d, %d] = %g, want %g\n", r, c, got, want);
        }
    }
    tessrt_device_free(0, dx);
    tessrt_device_free(0, dout);
    tessrt_device_free(0, da);
    tessrt_device_free(0, dy);
    free(x), free(o), free(a), free(y);
    if (bad) {
        printf("FAILED: %d values differ\n", bad);
        return 1;
    }
    printf("relu2x1 (%d elements) and softmax (%d x %d) match the CPU\n", N, ROWS, COLS);
    return 0;
}
