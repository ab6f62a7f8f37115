/*
 * npy_tool.c: drives runtime/npy.c for the lit tests (built as
 * $(BUILD)/tests/npy_tool).
 *
 *   npy_tool info FILE...            "FILE: <f4 (3, 4) 12" or "FILE: error: MESSAGE"
 *   npy_tool copy IN OUT             read IN, write it to OUT
 *   npy_tool make DTYPE OUT DIM...   write a DTYPE array whose element i holds
 *                                    the pattern value of i (see pattern below)
 */
#include "npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_info(int argc, char **argv) {
    int code = 0;
    for (int i = 0; i < argc; i++) {
        NpyArray a;
        char err[512];
        if (!npy_read(argv[i], &a, err, sizeof err)) {
            printf("error: %s\n", err);
            code = 1;
            continue;
        }
        printf("%s: %s (", argv[i], npy_dtype_descr(a.dtype));
        for (int d = 0; d < a.rank; d++)
            printf("%s%lld", d ? ", " : "", (long long)a.shape[d]);
        printf("%s) %zu\n", a.rank == 1 ? "," : "", a.count);
        npy_free(&a);
    }
    return code;
}

static int cmd_copy(const char *in, const char *out) {
    NpyArray a;
    char err[512];
    if (!npy_read(in, &a, err, sizeof err) || !npy_write(out, &a, err, sizeof err)) {
        printf("error: %s\n", err);
        return 1;
    }
    npy_free(&a);
    return 0;
}

/* Element i: (i * 37 + 11) % 251 - 100, cast to the dtype (bool: i % 3 == 0;
   unsigned: the value + 100; f16: the IEEE half of the integer value). */
static int cmd_make(const char *dtype_name, const char *out, int argc, char **argv) {
    NpyDtype dtype;
    if (!npy_dtype_from_name(dtype_name, &dtype)) {
        printf("error: unknown dtype %s\n", dtype_name);
        return 1;
    }
    int64_t shape[NPY_MAX_RANK];
    for (int d = 0; d < argc && d < NPY_MAX_RANK; d++)
        shape[d] = strtoll(argv[d], NULL, 10);
    NpyArray a;
    char err[512];
    if (!npy_alloc(&a, dtype, argc, shape, err, sizeof err)) {
        printf("error: %s\n", err);
        return 1;
    }
    for (size_t i = 0; i < a.count; i++) {
        int v = (int)((i * 37 + 11) % 251) - 100;
        switch (dtype) {
        case NPY_DT_BOOL: ((unsigned char *)a.data)[i] = i % 3 == 0; break;
        case NPY_DT_I8: ((int8_t *)a.data)[i] = (int8_t)v; break;
        case NPY_DT_I16: ((int16_t *)a.data)[i] = (int16_t)(v * 100); break;
        case NPY_DT_I32: ((int32_t *)a.data)[i] = v * 100000; break;
        case NPY_DT_I64: ((int64_t *)a.data)[i] = (int64_t)v * 10000000000LL; break;
        case NPY_DT_U8: ((uint8_t *)a.data)[i] = (uint8_t)(v + 100); break;
        case NPY_DT_U16: ((uint16_t *)a.data)[i] = (uint16_t)((v + 100) * 200); break;
        case NPY_DT_U32: ((uint32_t *)a.data)[i] = (uint32_t)(v + 100) * 10000000u; break;
        case NPY_DT_F16: {
            /* integers up to 2048 are exact in half: build the bits by hand */
            uint16_t bits = 0;
            int m = v < 0 ? -v : v;
            if (m) {
                int e = 0;
                while ((m >> e) > 1)
                    e++;
                bits = (uint16_t)(((e + 15) << 10) | (((m << 10) >> e) & 0x3ff));
            }
            if (v < 0)
                bits |= 0x8000;
            ((uint16_t *)a.data)[i] = bits;
            break;
        }
        case NPY_DT_F32: ((float *)a.data)[i] = (float)v / 4; break;
        case NPY_DT_F64: ((double *)a.data)[i] = (double)v / 8; break;
        default: break;
        }
    }
    bool ok = npy_write(out, &a, err, sizeof err);
    npy_free(&a);
    if (!ok) {
        printf("error: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "copy") == 0)
        return cmd_copy(argv[2], argv[3]);
    if (argc >= 4 && strcmp(argv[1], "make") == 0)
        return cmd_make(argv[2], argv[3], argc - 4, argv + 4);
    fprintf(stderr, "usage: npy_tool info|copy|make ...\n");
    return 2;
}
