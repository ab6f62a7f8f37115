/*
 * fuzz_runtime.c: libFuzzer target for what libtessrt and tessrun read.
 *
 * One input is given to both readers:
 *
 *   - the manifest loader, from memory (tessrt_manifest_load_memory), with
 *     an image for every quoted name in the input that ends in .ptx, .cubin
 *     or .tir (so that valid manifests get past the artifact check; an odd
 *     input length drops the last image to reach the "missing artifact"
 *     path), and one input in 16 from a file (tessrt_manifest_load), which
 *     adds the file reading and the "line L, column C" of JSON errors;
 *   - the .npy reader (npy_parse).
 *
 * A manifest that loads is then used as a program would without a GPU:
 * every kernel looked up by index and by name, every parameter described,
 * the artifact chosen for a few compute capabilities, and the arguments
 * checked (with sizes taken from the input's bytes, and with one argument
 * too few), which evaluates the grid and contract expressions. Nothing here
 * needs the CUDA driver. A bug is a sanitizer report, a leak or a hang.
 * Built by `make fuzz` (docs/reliability.md).
 */
#include "npy.h"
#include "tessrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_IMAGES = 64 };

static char fuzz_manifest_path[64];

static bool fuzz_has_suffix(const char *s, size_t n, const char *suffix) {
    size_t m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Images for the quoted artifact names in the text; returns the count. */
static int fuzz_images(const char *text, size_t size, tessrt_image *images, char **names) {
    int n = 0;
    for (size_t i = 0; i < size && n < FUZZ_MAX_IMAGES; i++) {
        if (text[i] != '"')
            continue;
        size_t j = i + 1;
        while (j < size && text[j] != '"' && text[j] != '\\' && j - i < 200)
            j++;
        if (j >= size || text[j] != '"')
            continue;
        size_t len = j - i - 1;
        const char *s = text + i + 1;
        if (fuzz_has_suffix(s, len, ".ptx") || fuzz_has_suffix(s, len, ".cubin") || fuzz_has_suffix(s, len, ".tir")) {
            names[n] = strndup(s, len);
            if (!names[n])
                break;
            images[n] = (tessrt_image){names[n], "// fuzz image\n", 14};
            n++;
        }
        i = j;
    }
    return n;
}

static void fuzz_use_kernel(const tessrt_kernel *k, const tessrt_manifest *m, const uint8_t *data, size_t size) {
    const char *name = tessrt_kernel_name(k);
    tessrt_kernel *again = NULL;
    if (name)
        tessrt_kernel_get(m, name, &again);
    tessrt_kernel_threads(k);
    int n = tessrt_kernel_num_params(k);
    if (n < 0 || n > 256)
        return;
    tessrt_arg *args = calloc((size_t)n + 1, sizeof *args);
    if (!args)
        return;
    for (int i = 0; i < n; i++) {
        tessrt_param_info info;
        if (tessrt_kernel_param(k, i, &info) != TESSRT_OK)
            continue;
        /* Sizes from the input: small ones, and now and then huge ones. */
        int64_t v = size ? data[(size_t)i % size] : 1;
        if (v == 0xff)
            v = INT32_MAX;
        else if (v == 0xfe)
            v = -1;
        switch (info.kind) {
        case TESSRT_PARAM_ARRAY: args[i] = tessrt_arg_array(0x10000); break;
        case TESSRT_PARAM_SIZE: args[i] = tessrt_arg_size(v); break;
        case TESSRT_PARAM_SCALAR:
            args[i] = (tessrt_arg){.kind = TESSRT_ARG_SCALAR, .dtype = info.dtype};
            args[i].value.i64 = v;
            break;
        }
    }
    uint32_t grid[3];
    tessrt_kernel_check(k, args, n, grid);
    if (n > 0)
        tessrt_kernel_check(k, args, n - 1, grid);
    free(args);
    static const int caps[][2] = {{8, 0}, {8, 6}, {9, 0}, {7, 5}};
    for (int c = 0; c < 4; c++) {
        int index;
        char desc[128];
        tessrt_kernel_artifact_for(k, caps[c][0], caps[c][1], &index, desc, sizeof desc);
    }
}

static void fuzz_manifest(const uint8_t *data, size_t size) {
    tessrt_image images[FUZZ_MAX_IMAGES];
    char *names[FUZZ_MAX_IMAGES];
    int num_images = fuzz_images((const char *)data, size, images, names);
    int given = num_images > 0 && size % 2 ? num_images - 1 : num_images;
    tessrt_manifest *m = NULL;
    if (size % 16 == 5 && fuzz_manifest_path[0]) {
        FILE *f = fopen(fuzz_manifest_path, "wb");
        if (f) {
            fwrite(data, 1, size, f);
            fclose(f);
            tessrt_manifest_load(fuzz_manifest_path, &m);
        }
    } else {
        tessrt_manifest_load_memory("fuzz.json", (const char *)data, size, images, given, &m);
    }
    tessrt_last_error();
    if (m) {
        int n = tessrt_manifest_num_kernels(m);
        for (int i = 0; i < n; i++) {
            tessrt_kernel *k = NULL;
            if (tessrt_manifest_kernel_at(m, i, &k) == TESSRT_OK && k)
                fuzz_use_kernel(k, m, data, size);
        }
        tessrt_kernel *none = NULL;
        tessrt_kernel_get(m, "no such kernel", &none);
        tessrt_manifest_free(m);
    }
    for (int i = 0; i < num_images; i++)
        free(names[i]);
}

static void fuzz_npy(const uint8_t *data, size_t size) {
    NpyArray array;
    char err[256];
    if (npy_parse("fuzz.npy", data, size, &array, err, sizeof err))
        npy_free(&array);
}

static void fuzz_cleanup(void) { unlink(fuzz_manifest_path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!fuzz_manifest_path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_manifest_path, sizeof fuzz_manifest_path, "%s/fuzz_runtime.%d.json",
                 tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp", (int)getpid());
        atexit(fuzz_cleanup);
    }
    fuzz_manifest(data, size);
    fuzz_npy(data, size);
    return 0;
}
