/*
 * driver.c: the CUDA driver, opened with dlopen, and what lives on devices.
 *
 * libcuda.so.1 is opened at the first call that needs it (pthread_once), so a
 * program linked with libtessrt starts on a machine with no driver; every
 * entry point is looked up by its exported, versioned name (cuda.h #defines
 * cuMemAlloc to cuMemAlloc_v2 and so on; the names below are the ones the
 * CUDA 13 libcuda exports), with its type taken from cuda.h's prototype.
 *
 * Work happens in each device's primary context, retained once and kept for
 * the life of the process. It is pushed around each call and popped after,
 * so the caller's current context is untouched (unless it already is the
 * primary context, when no push is needed). A kernel's module is loaded once
 * per device, under the manifest's lock; the loaded CUfunction is published
 * with an atomic store so later launches take no lock.
 *
 * This is the runtime's only file that includes cuda.h.
 */
#include "internal.h"

#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* field, exported symbol: the type comes from cuda.h's prototype of the symbol */
#define DRIVER_FUNCTIONS(X)                                   \
    X(init, cuInit)                                           \
    X(get_error_name, cuGetErrorName)                         \
    X(get_error_string, cuGetErrorString)                     \
    X(device_get_count, cuDeviceGetCount)                     \
    X(device_get, cuDeviceGet)                                \
    X(device_get_attribute, cuDeviceGetAttribute)             \
    X(primary_ctx_retain, cuDevicePrimaryCtxRetain)           \
    X(ctx_push, cuCtxPushCurrent_v2)                          \
    X(ctx_pop, cuCtxPopCurrent_v2)                            \
    X(ctx_get_current, cuCtxGetCurrent)                       \
    X(ctx_get_device, cuCtxGetDevice)                         \
    X(ctx_synchronize, cuCtxSynchronize)                      \
    X(module_load_data_ex, cuModuleLoadDataEx)                \
    X(module_get_function, cuModuleGetFunction)               \
    X(module_unload, cuModuleUnload)                          \
    X(func_set_attribute, cuFuncSetAttribute)                 \
    X(func_get_attribute, cuFuncGetAttribute)                 \
    X(launch_kernel, cuLaunchKernel)                          \
    X(occupancy_blocks, cuOccupancyMaxActiveBlocksPerMultiprocessor) \
    X(mem_alloc, cuMemAlloc_v2)                               \
    X(mem_free, cuMemFree_v2)                                 \
    X(memcpy_htod, cuMemcpyHtoD_v2)                           \
    X(memcpy_dtoh, cuMemcpyDtoH_v2)                           \
    X(module_get_global, cuModuleGetGlobal_v2)                \
    X(memset_d32_async, cuMemsetD32Async)                     \
    X(stream_synchronize, cuStreamSynchronize)

typedef struct Driver {
#define DRIVER_FIELD(field, symbol) __typeof__(&symbol) field;
    DRIVER_FUNCTIONS(DRIVER_FIELD)
#undef DRIVER_FIELD
} Driver;

static const struct {
    const char *symbol;
    size_t offset;
} driver_symbols[] = {
#define DRIVER_SYMBOL(field, symbol) {#symbol, offsetof(Driver, field)},
    DRIVER_FUNCTIONS(DRIVER_SYMBOL)
#undef DRIVER_SYMBOL
};

typedef struct DriverDevice {
    CUdevice device;
    int major, minor;
    int shared_optin;            /* max shared bytes per block with the opt-in */
    int sm_shared, sm_registers, sm_threads, sm_blocks, block_reserved; /* per multiprocessor; reserved per block */
    int sm_count;                /* multiprocessors (resident_blocks()); 0 where the driver does not say */
    _Atomic(CUcontext) context;  /* primary context, retained on first use */
} DriverDevice;

static Driver drv;
/* Optional: only drivers that know Hopper have it; without it every
   launch takes an artifact's plain entry. */
static __typeof__(&cuTensorMapEncodeTiled) drv_tensor_map_encode;
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static tessrt_status driver_status;
static char driver_message[512];
static int driver_device_count;
static DriverDevice driver_devices[TESSRT_MAX_DEVICES];
static pthread_mutex_t driver_retain_lock = PTHREAD_MUTEX_INITIALIZER;

/* "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" */
static const char *driver_describe(CUresult result, char *buf, size_t size) {
    const char *name = NULL, *text = NULL;
    if (drv.get_error_name && drv.get_error_name(result, &name) != CUDA_SUCCESS)
        name = NULL;
    if (drv.get_error_string && drv.get_error_string(result, &text) != CUDA_SUCCESS)
        text = NULL;
    if (result == CUDA_ERROR_STUB_LIBRARY && !name)
        name = "CUDA_ERROR_STUB_LIBRARY";
    if (name && text)
        snprintf(buf, size, "%s (%s)", name, text);
    else if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "CUDA error %d", (int)result);
    return buf;
}

static tessrt_status driver_fail(CUresult result, const char *what) {
    char desc[256];
    return tessrt_fail(TESSRT_ERROR_CUDA, "%s: %s", what, driver_describe(result, desc, sizeof desc));
}

static void driver_open_once(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        driver_status = TESSRT_ERROR_NO_DRIVER;
        snprintf(driver_message, sizeof driver_message, "no CUDA driver found (libcuda.so.1)");
        return;
    }
    for (size_t i = 0; i < sizeof driver_symbols / sizeof driver_symbols[0]; i++) {
        void *fn = dlsym(lib, driver_symbols[i].symbol);
        if (!fn) {
            driver_status = TESSRT_ERROR_NO_DRIVER;
            snprintf(driver_message, sizeof driver_message,
                     "libcuda.so.1 lacks %s (a driver too old for CUDA 13?)", driver_symbols[i].symbol);
            memset(&drv, 0, sizeof drv);
            return;
        }
        memcpy((char *)&drv + driver_symbols[i].offset, &fn, sizeof fn);
    }
    drv_tensor_map_encode = (__typeof__(&cuTensorMapEncodeTiled))dlsym(lib, "cuTensorMapEncodeTiled");
    char desc[256];
    CUresult r = drv.init(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        driver_status = TESSRT_ERROR_NO_DEVICE;
        snprintf(driver_message, sizeof driver_message, "no CUDA device: cuInit: %s",
                 driver_describe(r, desc, sizeof desc));
        return;
    }
    if (r != CUDA_SUCCESS) {
        driver_status = r == CUDA_ERROR_STUB_LIBRARY ? TESSRT_ERROR_NO_DRIVER : TESSRT_ERROR_CUDA;
        snprintf(driver_message, sizeof driver_message, "CUDA driver: cuInit: %s",
                 driver_describe(r, desc, sizeof desc));
        return;
    }
    int count = 0;
    r = drv.device_get_count(&count);
    if (r != CUDA_SUCCESS || count <= 0) {
        driver_status = TESSRT_ERROR_NO_DEVICE;
        snprintf(driver_message, sizeof driver_message, "no CUDA device (cuDeviceGetCount: %s)",
                 r == CUDA_SUCCESS ? "0 devices" : driver_describe(r, desc, sizeof desc));
        return;
    }
    if (count > TESSRT_MAX_DEVICES)
        count = TESSRT_MAX_DEVICES;
    for (int i = 0; i < count; i++) {
        DriverDevice *d = &driver_devices[i];
        if ((r = drv.device_get(&d->device, i)) != CUDA_SUCCESS ||
            (r = drv.device_get_attribute(&d->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                          d->device)) != CUDA_SUCCESS ||
            (r = drv.device_get_attribute(&d->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                          d->device)) != CUDA_SUCCESS ||
            (r = drv.device_get_attribute(&d->shared_optin,
                                          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                          d->device)) != CUDA_SUCCESS) {
            driver_status = TESSRT_ERROR_CUDA;
            snprintf(driver_message, sizeof driver_message, "CUDA device %d: %s", i,
                     driver_describe(r, desc, sizeof desc));
            return;
        }
    }
    /* For the carveout only (driver_set_carveout): 0 where the driver
       does not say, which leaves the carveout to the driver. */
    for (int i = 0; i < count; i++) {
        DriverDevice *d = &driver_devices[i];
        static const CUdevice_attribute attrs[5] = {
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
            CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
            CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK};
        int *fields[5] = {&d->sm_shared, &d->sm_registers, &d->sm_threads, &d->sm_blocks, &d->block_reserved};
        if (drv.device_get_attribute(&d->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->device) != CUDA_SUCCESS)
            d->sm_count = 0;
        for (int k = 0; k < 5; k++)
            if (drv.device_get_attribute(fields[k], attrs[k], d->device) != CUDA_SUCCESS)
                *fields[k] = 0;
    }
    driver_device_count = count;
    driver_status = TESSRT_OK;
}

tessrt_status tessrt_driver_open(void) {
    pthread_once(&driver_once, driver_open_once);
    if (driver_status != TESSRT_OK)
        return tessrt_fail(driver_status, "%s", driver_message);
    return TESSRT_OK;
}

tessrt_status tessrt_driver_device(int device, int *ordinal) {
    tessrt_status s = tessrt_driver_open();
    if (s != TESSRT_OK)
        return s;
    if (device == TESSRT_DEVICE_CURRENT) {
        CUcontext current = NULL;
        CUdevice dev;
        *ordinal = 0;
        if (drv.ctx_get_current(&current) == CUDA_SUCCESS && current &&
            drv.ctx_get_device(&dev) == CUDA_SUCCESS) {
            for (int i = 0; i < driver_device_count; i++)
                if (driver_devices[i].device == dev)
                    *ordinal = i;
        }
        return TESSRT_OK;
    }
    if (device < 0 || device >= driver_device_count)
        return tessrt_fail(TESSRT_ERROR_NO_DEVICE, "no CUDA device %d (this machine has %d)", device,
                           driver_device_count);
    *ordinal = device;
    return TESSRT_OK;
}

/* The device's primary context, retained on first use. */
static tessrt_status driver_context(int ordinal, CUcontext *out) {
    DriverDevice *d = &driver_devices[ordinal];
    CUcontext ctx = atomic_load(&d->context);
    if (!ctx) {
        pthread_mutex_lock(&driver_retain_lock);
        ctx = atomic_load(&d->context);
        CUresult r = CUDA_SUCCESS;
        if (!ctx && (r = drv.primary_ctx_retain(&ctx, d->device)) == CUDA_SUCCESS)
            atomic_store(&d->context, ctx);
        pthread_mutex_unlock(&driver_retain_lock);
        if (r != CUDA_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "device %d: cuDevicePrimaryCtxRetain", ordinal);
            return driver_fail(r, what);
        }
    }
    *out = ctx;
    return TESSRT_OK;
}

/* Makes the device's primary context current; *pushed says whether to pop. */
static tessrt_status driver_enter(int ordinal, bool *pushed) {
    CUcontext ctx = NULL, current = NULL;
    *pushed = false;
    tessrt_status s = driver_context(ordinal, &ctx);
    if (s != TESSRT_OK)
        return s;
    if (drv.ctx_get_current(&current) == CUDA_SUCCESS && current == ctx)
        return TESSRT_OK;
    CUresult r = drv.ctx_push(ctx);
    if (r != CUDA_SUCCESS)
        return driver_fail(r, "cuCtxPushCurrent");
    *pushed = true;
    return TESSRT_OK;
}

static void driver_leave(bool pushed) {
    CUcontext popped;
    if (pushed)
        drv.ctx_pop(&popped);
}

/* ---- artifacts and modules ------------------------------------------------ */

static char *driver_read_file(const char *path, size_t *length) {
    bool not_regular;
    FILE *f = tessrt_open_input(path, &not_regular);
    if (!f) {
        if (not_regular)
            tessrt_fail(TESSRT_ERROR_IO, "artifact %s is not a regular file", path);
        else
            tessrt_fail(TESSRT_ERROR_IO, "cannot open artifact %s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        tessrt_fail(TESSRT_ERROR_IO, "cannot read artifact %s", path);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *length = (size_t)n;
    return buf;
}

/* The shared-memory carveout of a function that uses shared memory: as
   much of the unified L1/shared array as the blocks that its registers and
   threads let run at once on a multiprocessor need, the rest left to L1.
   Left to itself the driver may pick a carveout that fits fewer blocks than
   that; the attribute is a hint in percent of the most shared
   memory a multiprocessor has, and the driver rounds it up to a size it
   supports. Failing to set it only costs speed, so it is not an error. */
static void driver_set_carveout(const DriverDevice *d, CUfunction f, int threads, int shared) {
    int registers = 0, static_shared = 0;
    if (d->sm_shared <= 0 || d->sm_threads <= 0 || threads <= 0 ||
        drv.func_get_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS ||
        drv.func_get_attribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) != CUDA_SUCCESS)
        return;
    int warps = (threads + 31) / 32;
    long warp_registers = ((long)(registers > 0 ? registers : 1) * 32 + 255) / 256 * 256;
    long blocks = d->sm_threads / (warps * 32);
    if (d->sm_blocks > 0 && blocks > d->sm_blocks)
        blocks = d->sm_blocks;
    if (d->sm_registers > 0 && blocks > d->sm_registers / (warps * warp_registers))
        blocks = d->sm_registers / (warps * warp_registers);
    if (blocks < 1)
        blocks = 1;
    long need = blocks * ((long)shared + static_shared + d->block_reserved);
    long percent = (need * 100 + d->sm_shared - 1) / d->sm_shared;
    if (percent > 100)
        percent = 100;
    (void)drv.func_set_attribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, (int)percent);
}

/* The artifact's TMA entry (docs/manifest.md "tma") in its loaded module,
   with its shared memory raised like the plain one's; on any failure the
   slot says why and launches take the plain entry. */
static void driver_load_tma(const tessrt_kernel *kernel, const DriverDevice *d, const TessrtArtifact *a,
                            CUmodule module, TessrtLoaded *slot) {
    (void)kernel;
    if (!drv_tensor_map_encode) {
        slot->tma_unusable = "the driver has no cuTensorMapEncodeTiled";
        return;
    }
    if (a->tma->num_maps > TESSRT_MAX_TMA_MAPS) {
        slot->tma_unusable = "its TMA entry has more tensor maps than the runtime passes";
        return;
    }
    CUfunction f;
    if (drv.module_get_function(&f, module, a->tma->entry) != CUDA_SUCCESS) {
        slot->tma_unusable = "the module has no TMA entry";
        return;
    }
    int shared = a->tma->shared_bytes;
    if (shared > 48 * 1024 && (shared > d->shared_optin ||
                               drv.func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared) !=
                                   CUDA_SUCCESS)) {
        slot->tma_unusable = "the TMA entry's shared memory does not fit the device";
        return;
    }
    int max_threads = 0, registers = 0;
    if (drv.func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) != CUDA_SUCCESS ||
        max_threads < a->tma->threads) {
        slot->tma_unusable = "the TMA entry cannot run its block's threads on the device";
        return;
    }
    /* setmaxnreg.inc takes registers from the block's own pool and waits
       until it has them: an entry given fewer at launch (a PTX artifact
       the driver compiled otherwise than tessc's ptxas) would never end */
    if (a->tma->min_registers &&
        (drv.func_get_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS ||
         registers < a->tma->min_registers)) {
        slot->tma_unusable = "the TMA entry has fewer registers a thread than its producer warpgroup's split needs";
        return;
    }
    if (shared > 0)
        driver_set_carveout(d, f, a->tma->threads, shared);
    if (!slot->tma_cache && !(slot->tma_cache = calloc(TESSRT_TMA_CACHE, sizeof *slot->tma_cache))) {
        slot->tma_unusable = "out of memory for its tensor maps";
        return;
    }
    slot->tma_function = f;
    slot->tma_shared_bytes = shared;
}

/* TMA's rules for a tensor (CUDA driver API, cuTensorMapEncodeTiled): a
   16-byte aligned base, every stride but the innermost a multiple of 16
   bytes below 2^40, every extent from 1 to 2^32. */
static bool driver_tma_map(const tessrt_kernel *k, const TessrtTmaMap *m, const tessrt_arg *args,
                           const int64_t *sizes, CUtensorMap *out, char *why, size_t why_size) {
    const TessrtParam *p = &k->params[m->param];
    uint64_t base = args[m->param].value.pointer;
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], unit[5] = {1, 1, 1, 1, 1};
    uint64_t stride = 2;
    for (int i = 0; i < m->rank; i++) {   /* innermost first */
        int d = m->rank - 1 - i;
        int64_t extent = p->dim_params[d] >= 0 ? sizes[p->dim_params[d]] : p->dims[d];
        if (extent < 1 || extent > ((int64_t)1 << 32)) {
            snprintf(why, why_size, "array '%s' has %lld elements along dim %d (TMA needs 1 to 2^32)", p->name,
                     (long long)extent, d);
            return false;
        }
        dims[i] = (cuuint64_t)extent;
        box[i] = (cuuint32_t)m->box[d];
        if (i > 0) {
            if (stride % 16 != 0 || stride >= ((uint64_t)1 << 40)) {
                snprintf(why, why_size, "array '%s' has a stride of %llu bytes along dim %d (TMA needs a multiple "
                         "of 16 below 2^40)", p->name, (unsigned long long)stride, d);
                return false;
            }
            strides[i - 1] = stride;
        }
        stride *= (uint64_t)extent;
    }
    if (base % 16 != 0) {
        snprintf(why, why_size, "array '%s' at 0x%llx is not 16-byte aligned (TMA needs it)", p->name,
                 (unsigned long long)base);
        return false;
    }
    cuuint32_t rank = (cuuint32_t)m->rank;
    if (m->row_warps) {
        /* rows in wgmma order (docs/manifest.md "rows"): (columns, r7, j, q, R)
           with row strides (1, 8 W, 8, 32), R's extent M / 32 - W / 4 */
        int64_t block_rows = 16 * (int64_t)m->row_warps * m->row_slabs, rows = (int64_t)dims[1];
        if (rows % block_rows != 0) {
            snprintf(why, why_size, "array '%s' has %lld rows, not a multiple of %lld (the TMA entry reads them in "
                     "wgmma order, whole blocks only)", p->name, (long long)rows, (long long)block_rows);
            return false;
        }
        uint64_t row = strides[0];
        dims[1] = 8, dims[2] = 2, dims[3] = 4, dims[4] = (cuuint64_t)(rows / 32 - m->row_warps / 4);
        strides[0] = row, strides[1] = row * 8 * (uint64_t)m->row_warps, strides[2] = row * 8, strides[3] = row * 32;
        box[1] = 8, box[2] = 2, box[3] = 4, box[4] = 1;
        rank = 5;
    }
    CUtensorMapSwizzle swizzle = m->swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                 : m->swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                    : CU_TENSOR_MAP_SWIZZLE_32B;
    CUtensorMapDataType type = m->dtype == TESSRT_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                       : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    CUresult r = drv_tensor_map_encode(out, type, rank, (void *)(uintptr_t)base, dims, strides, box,
                                       unit, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        char desc[256];
        snprintf(why, why_size, "cuTensorMapEncodeTiled for array '%s': %s", p->name,
                 driver_describe(r, desc, sizeof desc));
        return false;
    }
    return true;
}

bool tessrt_driver_tma(const tessrt_kernel *kernel, int ordinal, const tessrt_arg *args, const int64_t *sizes,
                       void **function, int *threads, int *shared_bytes, void *maps, char *why, size_t why_size) {
    const TessrtLoaded *slot = &kernel->loaded[ordinal];
    const TessrtArtifact *a = &kernel->artifacts[slot->artifact];
    if (!a->tma) {
        snprintf(why, why_size, "artifact %s has no TMA entry", a->file);
        return false;
    }
    if (!slot->tma_function) {
        snprintf(why, why_size, "%s", slot->tma_unusable ? slot->tma_unusable : "no TMA entry loaded");
        return false;
    }
    const char *env = getenv("TESSRT_TMA");   /* read at each launch: a switch for A/B runs and debugging */
    if (env && strcmp(env, "0") == 0) {
        snprintf(why, why_size, "TESSRT_TMA=0");
        return false;
    }
    /* The maps of the last few (array, pointer, extents), under the
       manifest's lock: a map depends on nothing else, and encoding costs
       more than the lookup. */
    TessrtLoaded *cached = (TessrtLoaded *)slot;
    bool pushed;   /* cuTensorMapEncodeTiled wants a current context */
    if (driver_enter(ordinal, &pushed) != TESSRT_OK) {
        snprintf(why, why_size, "%s", tessrt_last_error());
        return false;
    }
    pthread_mutex_lock(&kernel->manifest->lock);
    bool ok = true;
    for (int i = 0; ok && i < a->tma->num_maps; i++) {
        const TessrtTmaMap *m = &a->tma->maps[i];
        const TessrtParam *p = &kernel->params[m->param];
        int64_t dims[5] = {0};
        for (int d = 0; d < m->rank; d++)
            dims[d] = p->dim_params[d] >= 0 ? sizes[p->dim_params[d]] : p->dims[d];
        uint64_t base = args[m->param].value.pointer;
        TessrtTmaCached *hit = NULL;
        for (int c = 0; c < TESSRT_TMA_CACHE && !hit; c++) {
            TessrtTmaCached *e = &cached->tma_cache[c];
            if (e->used && e->map == i && e->base == base && memcmp(e->dims, dims, sizeof dims) == 0)
                hit = e;
        }
        if (!hit) {
            TessrtTmaCached fresh = {.used = true, .map = i, .base = base};
            memcpy(fresh.dims, dims, sizeof dims);
            ok = driver_tma_map(kernel, m, args, sizes, (CUtensorMap *)(void *)fresh.bytes, why, why_size);
            if (ok) {
                hit = &cached->tma_cache[cached->tma_cache_next];
                cached->tma_cache_next = (cached->tma_cache_next + 1) % TESSRT_TMA_CACHE;
                *hit = fresh;
            }
        }
        if (ok)
            memcpy((unsigned char *)maps + 128 * i, hit->bytes, 128);
    }
    pthread_mutex_unlock(&kernel->manifest->lock);
    driver_leave(pushed);
    if (!ok)
        return false;
    *function = slot->tma_function;
    *threads = a->tma->threads;
    *shared_bytes = slot->tma_shared_bytes;
    return true;
}

tessrt_status tessrt_driver_load(const tessrt_kernel *kernel, int ordinal, void **function,
                                 int *threads, int *shared_bytes) {
    TessrtLoaded *slot = (TessrtLoaded *)&kernel->loaded[ordinal];
    void *fn = atomic_load(&slot->function);
    if (fn) {
        *function = fn;
        *threads = slot->threads;
        *shared_bytes = slot->shared_bytes;
        return TESSRT_OK;
    }
    tessrt_manifest *m = kernel->manifest;
    pthread_mutex_lock(&m->lock);
    tessrt_status s = TESSRT_OK;
    bool pushed = false;
    char *image = NULL;
    CUmodule module = NULL;
    fn = atomic_load(&slot->function);
    if (fn)
        goto done;
    DriverDevice *d = &driver_devices[ordinal];
    int index;
    if ((s = tessrt_kernel_artifact_for(kernel, d->major, d->minor, &index, NULL, 0)) != TESSRT_OK)
        goto done;
    const TessrtArtifact *a = &kernel->artifacts[index];
    size_t length;
    if (a->data) {   /* in memory; copied so that PTX ends in a NUL */
        if (!(image = malloc(a->size + 1))) {
            s = tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "kernel '%s': out of memory", kernel->name);
            goto done;
        }
        memcpy(image, a->data, a->size);
        image[a->size] = '\0';
    } else if (!(image = driver_read_file(a->path, &length))) {
        s = TESSRT_ERROR_IO;
        goto done;
    }
    if ((s = driver_enter(ordinal, &pushed)) != TESSRT_OK)
        goto done;
    char log[4096] = "";
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    CUresult r = drv.module_load_data_ex(&module, image, 2, options, values);
    if (r != CUDA_SUCCESS) {
        char desc[256];
        s = tessrt_fail(TESSRT_ERROR_CUDA, "kernel '%s': loading %s (%s %s) on device %d: %s%s%s",
                        kernel->name, a->file, a->arch,
                        a->kind == TESSRT_ARTIFACT_PTX ? "PTX" : "cubin", ordinal,
                        driver_describe(r, desc, sizeof desc), log[0] ? "\n" : "", log);
        module = NULL;
        goto done;
    }
    CUfunction f;
    if ((r = drv.module_get_function(&f, module, kernel->entry)) != CUDA_SUCCESS) {
        char what[300];
        snprintf(what, sizeof what, "kernel '%s': no entry '%s' in %s", kernel->name, kernel->entry,
                 a->file);
        s = driver_fail(r, what);
        goto done;
    }
    int shared = a->shared_bytes;
    if (shared > 48 * 1024) {
        if (shared > d->shared_optin) {
            s = tessrt_fail(TESSRT_ERROR_NO_ARTIFACT,
                            "kernel '%s' needs %d bytes of shared memory; device %d allows %d",
                            kernel->name, shared, ordinal, d->shared_optin);
            goto done;
        }
        r = drv.func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
        if (r != CUDA_SUCCESS) {
            char what[160];
            snprintf(what, sizeof what, "kernel '%s': cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, %d)",
                     kernel->name, shared);
            s = driver_fail(r, what);
            goto done;
        }
    }
    if (shared > 0)
        driver_set_carveout(d, f, a->threads, shared);
    slot->tma_function = NULL;
    slot->tma_unusable = NULL;
    if (a->tma)
        driver_load_tma(kernel, d, a, module, slot);
    slot->assert_word = 0;
    if (kernel->num_asserts > 0) {
        CUdeviceptr word;
        size_t bytes;
        CUresult got = drv.module_get_global(&word, &bytes, module, "tessera_assert");
        if (got != CUDA_SUCCESS || bytes < 16) {
            s = tessrt_fail(TESSRT_ERROR_MANIFEST, "kernel '%s': the manifest lists asserts, but artifact %d "
                            "has no 16-byte 'tessera_assert' (not built by tessc -g?)", kernel->name, index);
            goto done;
        }
        slot->assert_word = (uint64_t)word;
    }
    slot->module = module;
    slot->artifact = index;
    slot->threads = a->threads;
    slot->shared_bytes = shared;
    module = NULL;
    fn = f;
    atomic_store(&slot->function, fn);
done:
    if (module)
        drv.module_unload(module);
    driver_leave(pushed);
    pthread_mutex_unlock(&m->lock);
    free(image);
    if (s == TESSRT_OK) {
        *function = fn;
        *threads = slot->threads;
        *shared_bytes = slot->shared_bytes;
    }
    return s;
}

tessrt_status tessrt_driver_resident(const tessrt_kernel *kernel, int ordinal, void *function, int threads,
                                     int shared_bytes, int64_t *blocks) {
    TessrtLoaded *slot = (TessrtLoaded *)&kernel->loaded[ordinal];
    _Atomic int *cached = function == slot->tma_function ? &slot->tma_resident : &slot->resident;
    int known = *cached;
    if (known > 0) {
        *blocks = known;
        return TESSRT_OK;
    }
    bool pushed;
    tessrt_status s = driver_enter(ordinal, &pushed);
    if (s != TESSRT_OK)
        return s;
    int per_sm = 0;
    CUresult r = drv.occupancy_blocks(&per_sm, (CUfunction)function, threads, (size_t)shared_bytes);
    driver_leave(pushed);
    if (r != CUDA_SUCCESS) {
        char what[200];
        snprintf(what, sizeof what, "kernel '%s': cuOccupancyMaxActiveBlocksPerMultiprocessor on device %d",
                 kernel->name, ordinal);
        return driver_fail(r, what);
    }
    int sms = driver_devices[ordinal].sm_count;
    known = (per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
    *cached = known;
    *blocks = known;
    return TESSRT_OK;
}

tessrt_status tessrt_driver_launch(const tessrt_kernel *kernel, int ordinal, void *function,
                                   const uint32_t grid[3], int threads, int shared_bytes, void *stream,
                                   void **params) {
    bool pushed;
    tessrt_status s = driver_enter(ordinal, &pushed);
    if (s != TESSRT_OK)
        return s;
    /* A kernel with asserts (tessc -g): its word zeroed before, read after
       the launch, which then completes before this call returns. */
    CUdeviceptr word = (CUdeviceptr)kernel->loaded[ordinal].assert_word;
    CUresult r = word ? drv.memset_d32_async(word, 0, 4, (CUstream)stream) : CUDA_SUCCESS;
    if (r == CUDA_SUCCESS)
        r = drv.launch_kernel((CUfunction)function, grid[0], grid[1], grid[2], (unsigned)threads, 1, 1,
                              (unsigned)shared_bytes, (CUstream)stream, params, NULL);
    uint32_t claimed[4] = {0, 0, 0, 0};
    const char *step = "cuLaunchKernel";
    if (r == CUDA_SUCCESS && word) {
        step = "the assert check after the launch";
        r = drv.stream_synchronize((CUstream)stream);
        if (r == CUDA_SUCCESS)
            r = drv.memcpy_dtoh(claimed, word, sizeof claimed);
    }
    driver_leave(pushed);
    if (r != CUDA_SUCCESS) {
        char what[200];
        snprintf(what, sizeof what, "kernel '%s': %s on device %d", kernel->name, step, ordinal);
        return driver_fail(r, what);
    }
    if (claimed[0]) {
        int n = (int)claimed[0] - 1;
        const TessrtAssert *a = n < kernel->num_asserts ? &kernel->asserts[n] : NULL;
        return tessrt_fail(TESSRT_ERROR_ASSERT, "kernel '%s': assertion failed at %s:%d:%d in program (%u, %u, %u)%s%s",
                           kernel->name, kernel->manifest->source ? kernel->manifest->source : "?", a ? a->line : 0,
                           a ? a->column : 0, claimed[1], claimed[2], claimed[3], a && *a->message ? ": " : "",
                           a ? a->message : "");
    }
    return TESSRT_OK;
}

void tessrt_driver_unload(tessrt_manifest *m) {
    if (driver_status != TESSRT_OK || driver_device_count == 0)
        return;
    for (int i = 0; i < m->num_kernels; i++) {
        for (int dev = 0; dev < driver_device_count; dev++) {
            TessrtLoaded *slot = &m->kernels[i].loaded[dev];
            if (!atomic_load(&slot->function))
                continue;
            bool pushed;
            if (driver_enter(dev, &pushed) == TESSRT_OK) {
                drv.module_unload((CUmodule)slot->module);
                driver_leave(pushed);
            }
            atomic_store(&slot->function, NULL);
            free(slot->tma_cache);
            slot->tma_cache = NULL;
            slot->tma_function = NULL;
        }
    }
}

/* ---- devices and memory ---------------------------------------------------- */

/* Each public call below asks device.c first whether `device` means the
   interpreter, which keeps its arrays in host memory; only then the driver. */
#define DEVICE_ROUTE(device, interp_call)                            \
    do {                                                            \
        bool interp_;                                               \
        tessrt_status route_ = tessrt_device_route((device), &interp_); \
        if (route_ != TESSRT_OK)                                    \
            return route_;                                          \
        if (interp_)                                                \
            return (interp_call);                                   \
    } while (0)

static tessrt_status device_interp_count(int *count) {
    *count = 1;
    return TESSRT_OK;
}

static tessrt_status device_interp_capability(int *major, int *minor) {
    *major = 0;
    *minor = 0;
    return TESSRT_OK;
}

tessrt_status tessrt_device_count(int *count) {
    if (!count)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_device_count: NULL argument");
    *count = 0;
    DEVICE_ROUTE(TESSRT_DEVICE_CURRENT, device_interp_count(count));
    tessrt_status s = tessrt_driver_open();
    if (s == TESSRT_OK)
        *count = driver_device_count;
    return s;
}

tessrt_status tessrt_device_capability(int device, int *major, int *minor) {
    if (!major || !minor)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_device_capability: NULL argument");
    DEVICE_ROUTE(device, device_interp_capability(major, minor));
    int ordinal;
    tessrt_status s = tessrt_driver_device(device, &ordinal);
    if (s != TESSRT_OK)
        return s;
    *major = driver_devices[ordinal].major;
    *minor = driver_devices[ordinal].minor;
    return TESSRT_OK;
}

/* Runs one driver call in the device's primary context. */
#define DRIVER_IN_CONTEXT(device, what, call)                       \
    do {                                                            \
        int ordinal_;                                               \
        bool pushed_ = false;                                             \
        tessrt_status s_ = tessrt_driver_device((device), &ordinal_); \
        if (s_ == TESSRT_OK)                                        \
            s_ = driver_enter(ordinal_, &pushed_);                  \
        if (s_ != TESSRT_OK)                                        \
            return s_;                                              \
        CUresult r_ = (call);                                       \
        driver_leave(pushed_);                                      \
        return r_ == CUDA_SUCCESS ? TESSRT_OK : driver_fail(r_, (what)); \
    } while (0)

tessrt_status tessrt_device_alloc(int device, size_t bytes, uint64_t *device_pointer) {
    DEVICE_ROUTE(device, tessrt_device_interp_alloc(bytes, device_pointer));
    if (!device_pointer)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_device_alloc: NULL argument");
    CUdeviceptr p = 0;
    int ordinal;
    bool pushed = false;
    tessrt_status s = tessrt_driver_device(device, &ordinal);
    if (s == TESSRT_OK)
        s = driver_enter(ordinal, &pushed);
    if (s != TESSRT_OK)
        return s;
    CUresult r = drv.mem_alloc(&p, bytes ? bytes : 1);
    driver_leave(pushed);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "cuMemAlloc of %zu bytes on device %d", bytes, ordinal);
        return driver_fail(r, what);
    }
    *device_pointer = (uint64_t)p;
    return TESSRT_OK;
}

tessrt_status tessrt_device_free(int device, uint64_t device_pointer) {
    DEVICE_ROUTE(device, tessrt_device_interp_free(device_pointer));
    DRIVER_IN_CONTEXT(device, "cuMemFree", drv.mem_free((CUdeviceptr)device_pointer));
}

tessrt_status tessrt_copy_to_device(int device, uint64_t dst, const void *src, size_t bytes) {
    DEVICE_ROUTE(device, tessrt_device_interp_copy((void *)(uintptr_t)dst, src, bytes, true));
    DRIVER_IN_CONTEXT(device, "cuMemcpyHtoD", bytes ? drv.memcpy_htod((CUdeviceptr)dst, src, bytes) : CUDA_SUCCESS);
}

tessrt_status tessrt_copy_from_device(int device, void *dst, uint64_t src, size_t bytes) {
    DEVICE_ROUTE(device, tessrt_device_interp_copy(dst, (const void *)(uintptr_t)src, bytes, false));
    DRIVER_IN_CONTEXT(device, "cuMemcpyDtoH", bytes ? drv.memcpy_dtoh(dst, (CUdeviceptr)src, bytes) : CUDA_SUCCESS);
}

tessrt_status tessrt_device_synchronize(int device) {
    DEVICE_ROUTE(device, TESSRT_OK);   /* interpreter launches finish before they return */
    DRIVER_IN_CONTEXT(device, "cuCtxSynchronize", drv.ctx_synchronize());
}
