/*
 * runtime_errors.c: libtessrt's errors that need a real GPU (built as
 * $(BUILD)/tests/runtime_errors; run it on the GPU machine):
 *
 *     runtime_errors [TMPDIR]
 *
 * On every device, each failure must return its status and a message that
 * names the file, kernel or size involved, and leave the caller's CUDA
 * context as it was (checked with cuCtxGetCurrent through dlopen):
 *   - out of device memory: a 4 PiB tessrt_device_alloc is TESSRT_ERROR_CUDA
 *     naming the size; a small allocation works afterwards;
 *   - a corrupt cubin (random bytes) for the device's exact arch, and a
 *     truncated PTX: TESSRT_ERROR_CUDA naming the artifact file;
 *   - a device below the kernel's capability (only artifacts for a newer
 *     major): TESSRT_ERROR_NO_ARTIFACT naming the device's capability;
 *   - a missing artifact file after load: TESSRT_ERROR_IO naming it.
 * The manifests are written into TMPDIR (default /tmp). Prints one PASS or
 * FAIL line per check and "N passed, N failed" last; without a driver or a
 * device prints "skipped: no CUDA device" and exits 0. The statuses and
 * messages are listed in docs/errors.md ("The runtime").
 */
#include "tessrt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

static void check(bool ok, const char *what, const char *detail) {
    printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", what, ok || !detail ? "" : ": ", ok || !detail ? "" : detail);
    if (ok)
        passed++;
    else
        failed++;
}

/* The caller's current context, through the driver (NULL when none). */
typedef int (*CtxGetCurrent)(void **);
static CtxGetCurrent ctx_get_current;

static void *current_context(void) {
    void *ctx = NULL;
    if (ctx_get_current)
        ctx_get_current(&ctx);
    return ctx;
}

static bool write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* A one-kernel manifest (relu's parameters) whose one artifact is `file`
   for `arch` ("sm_90"). */
static bool write_manifest(const char *path, const char *arch, const char *kind, const char *file) {
    int sm = atoi(arch + 3);
    char text[4096];
    snprintf(text, sizeof text,
             "{\"schema\": \"tessera-manifest/1\", \"source\": \"errors.tess\", \"source_sha256\": "
             "\"0000000000000000000000000000000000000000000000000000000000000000\", \"tessc_version\": "
             "\"0.1.0\", \"kernels\": [{\"name\": \"relu\", \"entry\": \"relu\", \"cparams\": {}, \"params\": ["
             "{\"name\": \"x\", \"kind\": \"array\", \"dtype\": \"f32\", \"shape\": [\"N\"], \"space\": "
             "\"global\", \"access\": \"in\"}, {\"name\": \"o\", \"kind\": \"array\", \"dtype\": \"f32\", "
             "\"shape\": [\"N\"], \"space\": \"global\", \"access\": \"out\"}, {\"name\": \"N\", \"kind\": "
             "\"size\", \"dtype\": \"i32\", \"shape\": []}], \"grid\": [\"cdiv(N, 128)\"], \"warps\": 4, "
             "\"stages\": 1, \"threads\": 128, \"shared_bytes\": 0, \"contracts\": [], \"artifacts\": [{"
             "\"arch\": \"%s\", \"kind\": \"%s\", \"file\": \"%s\", \"ptx_version\": \"8.0\", \"registers\": "
             "null, \"spills\": null, \"shared_bytes\": 0}], \"compute_capability\": {\"min\": \"%d.%d\", "
             "\"max\": null}}]}\n",
             arch, kind, file, sm / 10, sm % 10);
    return write_file(path, text, strlen(text));
}

static void expect_failure(tessrt_status got, tessrt_status want, const char *needle, void *ctx_before,
                           const char *what) {
    const char *message = tessrt_last_error();
    char detail[1200];
    snprintf(detail, sizeof detail, "status %s, message '%s'", tessrt_error_string(got), message);
    check(got == want && strstr(message, needle) != NULL, what, detail);
    check(current_context() == ctx_before, "the caller's context is unchanged", NULL);
}

static void device_errors(int device, const char *tmp) {
    int major = 0, minor = 0;
    tessrt_device_capability(device, &major, &minor);
    printf("device %d: compute capability %d.%d\n", device, major, minor);
    void *ctx = current_context();
    char what[256], path[1024], file[256];

    /* out of memory */
    uint64_t p = 0;
    tessrt_status s = tessrt_device_alloc(device, (size_t)1 << 52, &p);
    snprintf(what, sizeof what, "device %d: a 4 PiB allocation fails", device);
    expect_failure(s, TESSRT_ERROR_CUDA, "cuMemAlloc of 4503599627370496 bytes", ctx, what);
    s = tessrt_device_alloc(device, 1 << 20, &p);
    check(s == TESSRT_OK && tessrt_device_free(device, p) == TESSRT_OK, "a 1 MiB allocation works afterwards",
          tessrt_last_error());

    struct {
        const char *name, *kind, *bytes;
        size_t size;
    } corrupt[] = {
        {"corrupt", "cubin", "\x7f\x45\x4c\x46 this is not a cubin \x01\x02\x03", 31},
        {"truncated", "ptx", "//\n.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry relu(", 58},
    };
    for (int i = 0; i < 2; i++) {
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", i == 0 ? major : 8, i == 0 ? minor : 0);
        snprintf(file, sizeof file, "%s.%s.%s", corrupt[i].name, arch, corrupt[i].kind);
        snprintf(path, sizeof path, "%s/%s", tmp, file);
        write_file(path, corrupt[i].bytes, corrupt[i].size);
        snprintf(path, sizeof path, "%s/%s.json", tmp, corrupt[i].name);
        tessrt_manifest *m = NULL;
        tessrt_kernel *k = NULL;
        if (!write_manifest(path, arch, corrupt[i].kind, file) || tessrt_manifest_load(path, &m) != TESSRT_OK ||
            tessrt_kernel_get(m, "relu", &k) != TESSRT_OK) {
            check(false, "load a manifest with a bad artifact", tessrt_last_error());
            tessrt_manifest_free(m);
            continue;
        }
        s = tessrt_kernel_prepare(k, device, NULL, 0);
        snprintf(what, sizeof what, "device %d: a %s %s is an error naming it", device, corrupt[i].name,
                 corrupt[i].kind);
        expect_failure(s, TESSRT_ERROR_CUDA, file, ctx, what);
        tessrt_manifest_free(m);
    }

    /* below the kernel's capability: a PTX for the next major only */
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d0", major + 1);
    snprintf(file, sizeof file, "newer.%s.ptx", arch);
    snprintf(path, sizeof path, "%s/%s", tmp, file);
    write_file(path, "// newer\n", 9);
    snprintf(path, sizeof path, "%s/newer.json", tmp);
    tessrt_manifest *m = NULL;
    tessrt_kernel *k = NULL;
    if (write_manifest(path, arch, "ptx", file) && tessrt_manifest_load(path, &m) == TESSRT_OK &&
        tessrt_kernel_get(m, "relu", &k) == TESSRT_OK) {
        char cap[64];
        snprintf(cap, sizeof cap, "compute capability %d.%d", major, minor);
        s = tessrt_kernel_prepare(k, device, NULL, 0);
        snprintf(what, sizeof what, "device %d: only a %s PTX is NO_ARTIFACT naming %s", device, arch, cap);
        expect_failure(s, TESSRT_ERROR_NO_ARTIFACT, cap, ctx, what);
        /* the artifact deleted between load and first launch */
        snprintf(arch, sizeof arch, "sm_%d%d", major, minor);
        snprintf(file, sizeof file, "gone.%s.ptx", arch);
        snprintf(path, sizeof path, "%s/%s", tmp, file);
        write_file(path, "// gone\n", 8);
        tessrt_manifest_free(m);
        m = NULL;
        snprintf(path, sizeof path, "%s/gone.json", tmp);
        if (write_manifest(path, arch, "ptx", file) && tessrt_manifest_load(path, &m) == TESSRT_OK &&
            tessrt_kernel_get(m, "relu", &k) == TESSRT_OK) {
            snprintf(path, sizeof path, "%s/%s", tmp, file);
            unlink(path);
            s = tessrt_kernel_prepare(k, device, NULL, 0);
            snprintf(what, sizeof what, "device %d: an artifact removed after load is IO naming it", device);
            expect_failure(s, TESSRT_ERROR_IO, file, ctx, what);
        } else {
            check(false, "load the manifest of a removed artifact", tessrt_last_error());
        }
    } else {
        check(false, "load a manifest for a newer arch", tessrt_last_error());
    }
    tessrt_manifest_free(m);
}

int main(int argc, char **argv) {
    const char *tmp = argc > 1 ? argv[1] : "/tmp";
    int devices = 0;
    tessrt_status s = tessrt_device_count(&devices);
    if (s != TESSRT_OK || devices == 0) {
        printf("skipped: no CUDA device (%s)\n", tessrt_last_error());
        return 0;
    }
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (cuda)
        ctx_get_current = (CtxGetCurrent)dlsym(cuda, "cuCtxGetCurrent");
    for (int device = 0; device < devices; device++)
        device_errors(device, tmp);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
