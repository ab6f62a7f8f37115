/* tessrt_manifest_load_memory (manifest-memory.test): a manifest and its
   artifacts from memory; the same checks as a file, and errors for a
   missing or empty image, bad JSON and NULL arguments.
   usage: manifest_memory_test MANIFEST.json */
#include "tessrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *size = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static void show(const char *what, tessrt_status s) {
    printf("%s: %s%s%s\n", what, tessrt_error_string(s), s ? ": " : "", s ? tessrt_last_error() : "");
}

int main(int argc, char **argv) {
    size_t size = 0;
    char *json = argc > 1 ? read_all(argv[1], &size) : NULL;
    if (!json)
        return 1;
    static const char ptx[] = ".version 7.0\n.target sm_80\n";   /* not NUL-terminated below */
    static const unsigned char cubin[] = {0x7f, 'E', 'L', 'F'};
    tessrt_image images[] = {
        {"unused.ptx", "x", 1},
        {"kernels.sm_80.ptx", ptx, sizeof ptx - 1},
        {"kernels.sm_90.cubin", cubin, sizeof cubin},
    };
    tessrt_manifest *m = NULL;
    tessrt_status s = tessrt_manifest_load_memory("kernels.json (embedded)", json, size, images, 3, &m);
    show("load", s);
    if (s == TESSRT_OK) {
        printf("kernels: %d\n", tessrt_manifest_num_kernels(m));
        tessrt_kernel *k;
        char desc[200];
        int index;
        tessrt_kernel_get(m, "relu", &k);
        tessrt_kernel_artifact_for(k, 9, 0, &index, desc, sizeof desc);
        printf("relu on 9.0: %s\n", desc);
        tessrt_kernel_artifact_for(k, 8, 6, &index, desc, sizeof desc);
        printf("relu on 8.6: %s\n", desc);
    }
    tessrt_manifest_free(m);

    m = NULL;
    show("missing image", tessrt_manifest_load_memory("kernels.json (embedded)", json, size, images, 2, &m));
    printf("left nothing: %s\n", m ? "no" : "yes");
    tessrt_image empty[] = {{"kernels.sm_80.ptx", ptx, 0}, {"kernels.sm_90.cubin", cubin, sizeof cubin}};
    show("empty image", tessrt_manifest_load_memory(NULL, json, size, empty, 2, &m));
    show("bad json", tessrt_manifest_load_memory(NULL, "{\"schema\": ", 11, NULL, 0, &m));
    show("null json", tessrt_manifest_load_memory(NULL, NULL, 0, NULL, 0, &m));
    show("null images", tessrt_manifest_load_memory(NULL, json, size, NULL, 2, &m));
    free(json);
    return 0;
}
