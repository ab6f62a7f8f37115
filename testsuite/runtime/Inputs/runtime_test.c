/*
 * runtime_test.c: drives libtessrt's GPU-free paths for the lit tests in
 * testsuite/runtime (built as $(BUILD)/tests/runtime_test).
 *
 *   runtime_test load MANIFEST            load it; print what the API reports
 *   runtime_test grid MANIFEST KERNEL     read size values from stdin, one launch a
 *                                         line (in the order of the size params);
 *                                         print "gx gy gz" or "error: MESSAGE"
 *   runtime_test check MANIFEST KERNEL ARG...
 *        ARG: a (array, pointer 1) | null (array, NULL) | size:V | DTYPE:V (scalar)
 *   runtime_test artifact MANIFEST KERNEL MAJOR.MINOR...
 *   runtime_test driver                   tessrt_device_count's answer
 *
 * Failures print "error: STATUS-DESCRIPTION: MESSAGE" and exit 1.
 */
#include "tessrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(tessrt_status s) {
    printf("error: %s: %s\n", tessrt_error_string(s), tessrt_last_error());
    return 1;
}

static const char *kind_name(tessrt_param_kind kind) {
    return kind == TESSRT_PARAM_ARRAY ? "array" : kind == TESSRT_PARAM_SCALAR ? "scalar" : "size";
}

static int cmd_load(const char *path) {
    tessrt_manifest *m;
    tessrt_status s = tessrt_manifest_load(path, &m);
    if (s != TESSRT_OK)
        return report(s);
    int n = tessrt_manifest_num_kernels(m);
    printf("ok: %d kernel%s\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        tessrt_kernel *k;
        tessrt_manifest_kernel_at(m, i, &k);
        printf("kernel %s threads %d params %d\n", tessrt_kernel_name(k), tessrt_kernel_threads(k),
               tessrt_kernel_num_params(k));
        for (int p = 0; p < tessrt_kernel_num_params(k); p++) {
            tessrt_param_info info;
            tessrt_kernel_param(k, p, &info);
            printf("  param %s %s %s", info.name, kind_name(info.kind), tessrt_dtype_name(info.dtype));
            if (info.kind == TESSRT_PARAM_ARRAY) {
                printf(" %s [", info.access == TESSRT_ACCESS_IN ? "in"
                                : info.access == TESSRT_ACCESS_OUT ? "out" : "inout");
                for (int d = 0; d < info.rank; d++) {
                    if (info.dim_names[d])
                        printf("%s%s", d ? ", " : "", info.dim_names[d]);
                    else
                        printf("%s%lld", d ? ", " : "", (long long)info.dims[d]);
                }
                printf("]");
            }
            printf("\n");
        }
        /* each artifact's launch: its own threads and shared bytes */
        int threads, shared;
        for (int a = 0; tessrt_kernel_artifact_launch(k, a, &threads, &shared) == TESSRT_OK; a++)
            printf("  artifact %d: %d threads, %d shared bytes\n", a, threads, shared);
    }
    tessrt_kernel *k;
    s = tessrt_kernel_get(m, "no_such_kernel", &k);
    printf("lookup of a missing kernel: %s\n", tessrt_last_error());
    tessrt_manifest_free(m);
    return 0;
}

static int load_kernel(const char *path, const char *name, tessrt_manifest **m, tessrt_kernel **k) {
    tessrt_status s = tessrt_manifest_load(path, m);
    if (s == TESSRT_OK)
        s = tessrt_kernel_get(*m, name, k);
    return s == TESSRT_OK ? 0 : report(s);
}

static int cmd_grid(const char *path, const char *name) {
    tessrt_manifest *m;
    tessrt_kernel *k;
    if (load_kernel(path, name, &m, &k))
        return 1;
    int n = tessrt_kernel_num_params(k);
    tessrt_arg *args = calloc((size_t)n + 1, sizeof *args);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *p = line;
        for (int i = 0; i < n; i++) {
            tessrt_param_info info;
            tessrt_kernel_param(k, i, &info);
            if (info.kind == TESSRT_PARAM_ARRAY) {
                args[i] = tessrt_arg_array(1);
            } else if (info.kind == TESSRT_PARAM_SIZE) {
                args[i] = tessrt_arg_size(strtoll(p, &p, 10));
            } else {
                args[i].kind = TESSRT_ARG_SCALAR;
                args[i].dtype = info.dtype;
                args[i].value.i64 = 0;
            }
        }
        uint32_t grid[3];
        tessrt_status s = tessrt_kernel_check(k, args, n, grid);
        if (s == TESSRT_OK)
            printf("%u %u %u\n", grid[0], grid[1], grid[2]);
        else
            printf("error: %s\n", tessrt_last_error());
    }
    free(args);
    tessrt_manifest_free(m);
    return 0;
}

static bool parse_dtype(const char *name, tessrt_dtype *out) {
    for (int i = 0; i < TESSRT_DTYPE_COUNT; i++)
        if (strcmp(tessrt_dtype_name((tessrt_dtype)i), name) == 0) {
            *out = (tessrt_dtype)i;
            return true;
        }
    return false;
}

static int cmd_check(const char *path, const char *name, int argc, char **argv) {
    tessrt_manifest *m;
    tessrt_kernel *k;
    if (load_kernel(path, name, &m, &k))
        return 1;
    tessrt_arg *args = calloc((size_t)argc + 1, sizeof *args);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *colon = strchr(a, ':');
        tessrt_dtype dtype;
        char prefix[32] = "";
        if (colon && (size_t)(colon - a) < sizeof prefix)
            memcpy(prefix, a, (size_t)(colon - a));
        if (strcmp(a, "a") == 0) {
            args[i] = tessrt_arg_array(1);
        } else if (strcmp(a, "null") == 0) {
            args[i] = tessrt_arg_array(0);
        } else if (strcmp(prefix, "size") == 0) {
            args[i] = tessrt_arg_size(strtoll(colon + 1, NULL, 10));
        } else if (colon && parse_dtype(prefix, &dtype)) {
            args[i].kind = TESSRT_ARG_SCALAR;
            args[i].dtype = dtype;
            if (dtype == TESSRT_F32)
                args[i].value.f32 = strtof(colon + 1, NULL);
            else if (dtype == TESSRT_F64)
                args[i].value.f64 = strtod(colon + 1, NULL);
            else
                args[i].value.i64 = strtoll(colon + 1, NULL, 10);
        } else {
            fprintf(stderr, "runtime_test: bad argument '%s'\n", a);
            return 2;
        }
    }
    uint32_t grid[3];
    tessrt_status s = tessrt_kernel_check(k, args, argc, grid);
    int code = 0;
    if (s == TESSRT_OK)
        printf("grid %u %u %u\n", grid[0], grid[1], grid[2]);
    else
        code = report(s);
    free(args);
    tessrt_manifest_free(m);
    return code;
}

static int cmd_artifact(const char *path, const char *name, int argc, char **argv) {
    tessrt_manifest *m;
    tessrt_kernel *k;
    if (load_kernel(path, name, &m, &k))
        return 1;
    for (int i = 0; i < argc; i++) {
        int major, minor, index;
        char desc[256];
        if (sscanf(argv[i], "%d.%d", &major, &minor) != 2)
            return 2;
        tessrt_status s = tessrt_kernel_artifact_for(k, major, minor, &index, desc, sizeof desc);
        if (s == TESSRT_OK)
            printf("%d.%d: %s\n", major, minor, desc);
        else
            printf("%d.%d: error: %s\n", major, minor, tessrt_last_error());
    }
    tessrt_manifest_free(m);
    return 0;
}

static int cmd_driver(void) {
    int count = 0;
    tessrt_status s = tessrt_device_count(&count);
    if (s == TESSRT_OK)
        printf("devices: %d\n", count);
    else
        report(s);
    /* a second call gives the same answer (the driver is opened once) */
    tessrt_status again = tessrt_device_count(&count);
    printf("again: %s: %s\n", tessrt_error_string(again), again == TESSRT_OK ? "" : tessrt_last_error());
    return s == TESSRT_OK ? 0 : 1;
}

/* tessrt_kernel_check with args NULL and num_args N. */
static int cmd_check_null(const char *path, const char *name, int num_args) {
    tessrt_manifest *m;
    tessrt_kernel *k;
    if (load_kernel(path, name, &m, &k))
        return 1;
    uint32_t grid[3];
    tessrt_status s = tessrt_kernel_check(k, NULL, num_args, grid);
    int code = s == TESSRT_OK ? 0 : report(s);
    tessrt_manifest_free(m);
    return code;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "load") == 0)
        return cmd_load(argv[2]);
    if (argc == 4 && strcmp(argv[1], "grid") == 0)
        return cmd_grid(argv[2], argv[3]);
    if (argc >= 4 && strcmp(argv[1], "check") == 0)
        return cmd_check(argv[2], argv[3], argc - 4, argv + 4);
    if (argc == 5 && strcmp(argv[1], "check-null") == 0)
        return cmd_check_null(argv[2], argv[3], atoi(argv[4]));
    if (argc >= 4 && strcmp(argv[1], "artifact") == 0)
        return cmd_artifact(argv[2], argv[3], argc - 4, argv + 4);
    if (argc == 2 && strcmp(argv[1], "driver") == 0)
        return cmd_driver();
    fprintf(stderr, "usage: runtime_test load|grid|check|check-null|artifact|driver ...\n");
    return 2;
}
