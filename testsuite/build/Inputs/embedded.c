/* Uses the functions tessc --emit source generated for relu2x1 (header-source.test):
   the manifest loads from memory (run from an empty directory), once, and
   a launch fails cleanly with a status on a machine without a GPU. */
#include "relu2x1.h"

#include <stdio.h>
#include <string.h>

int main(void) {
    tessrt_manifest *m, *again;
    if (relu2x1_manifest(&m) != TESSRT_OK || relu2x1_manifest(&again) != TESSRT_OK) {
        printf("load failed: %s\n", tessrt_last_error());
        return 1;
    }
    printf("kernels: %d\n", tessrt_manifest_num_kernels(m));
    tessrt_kernel *k;
    tessrt_kernel_get(m, "relu2x1", &k);
    char desc[256];
    int index;
    tessrt_kernel_artifact_for(k, 8, 0, &index, desc, sizeof desc);
    printf("relu2x1 on 8.0: %s\n", desc);
    tessrt_kernel_artifact_for(k, 9, 0, &index, desc, sizeof desc);
    printf("relu2x1 on 9.0: %s\n", desc);
    printf("same manifest twice: %s\n", m == again ? "yes" : "no");
    tessrt_status s = relu2x1_launch(NULL, 0, 0, -1);
    printf("bad size: %s\n", tessrt_error_string(s));
    /* On a machine with a GPU the null pointers would be launched on; only
       check the status where there is none. */
    int devices = 0;
    if (tessrt_device_count(&devices) != TESSRT_OK || devices == 0) {
        s = relu2x1_launch(NULL, 4096, 8192, 16);
        bool clean = s == TESSRT_ERROR_NO_DRIVER || s == TESSRT_ERROR_NO_DEVICE;
        printf("launch without a driver or device: %s\n", clean ? "ok" : tessrt_error_string(s));
    } else {
        printf("launch without a driver or device: ok\n");
    }
    return 0;
}
