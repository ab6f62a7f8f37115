/*
 * device.c: which device a call goes to, and the interpreter device.
 *
 * Every public call that takes a device ordinal asks tessrt_device_route
 * first: TESSRT_DEVICE_INTERP, or any ordinal while the process's device
 * kind is the interpreter, goes here; the rest goes to driver.c. The kind
 * starts from $TESSRT_DEVICE (gpu, interp or auto), read once, and
 * tessrt_set_device_kind overrides it.
 *
 * The interpreter device keeps arrays in host memory (a "device pointer" is
 * a host address) and runs kernels through a table of entry points
 * (interp_device.h) that libtessinterp provides: registered by the program
 * (tessrt_register_interpreter), or else found with dlopen of
 * libtessinterp.so at the first load of a kernel: $TESSRT_INTERP_LIBRARY
 * when set, else beside the file that holds libtessrt (libtessrt.so in an
 * installed prefix's lib/, found with dladdr), else on the library path, else
 * in ../lib from there (a program in PREFIX/bin that links libtessrt.a). libtessrt itself contains no interpreter code, and the
 * interpreter path never opens libcuda.
 */
#define _GNU_SOURCE   /* dladdr */
#include "internal.h"
#include "interp_device.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the device kind --------------------------------------------------- */

enum { DEVICE_KIND_UNSET = -1 };

static atomic_int device_kind_chosen = DEVICE_KIND_UNSET;   /* by tessrt_set_device_kind */
static pthread_once_t device_env_once = PTHREAD_ONCE_INIT;
static tessrt_device_kind device_env_kind;
static char device_env_message[256];                         /* "" when TESSRT_DEVICE is fine */

static void device_read_env(void) {
    const char *value = getenv("TESSRT_DEVICE");
    device_env_kind = TESSRT_DEVICE_KIND_GPU;
    if (!value || value[0] == '\0' || strcmp(value, "gpu") == 0)
        return;
    if (strcmp(value, "interp") == 0) {
        device_env_kind = TESSRT_DEVICE_KIND_INTERP;
    } else if (strcmp(value, "auto") == 0) {
        /* the driver opens only when it finds at least one device */
        if (tessrt_driver_open() != TESSRT_OK)
            device_env_kind = TESSRT_DEVICE_KIND_INTERP;
    } else {
        snprintf(device_env_message, sizeof device_env_message,
                 "TESSRT_DEVICE is '%.100s'; expected gpu, interp or auto", value);
    }
}

tessrt_status tessrt_set_device_kind(tessrt_device_kind kind) {
    if (kind != TESSRT_DEVICE_KIND_GPU && kind != TESSRT_DEVICE_KIND_INTERP)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_set_device_kind: no device kind %d",
                           (int)kind);
    atomic_store(&device_kind_chosen, (int)kind);
    return TESSRT_OK;
}

tessrt_status tessrt_get_device_kind(tessrt_device_kind *kind) {
    if (!kind)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_get_device_kind: NULL argument");
    int chosen = atomic_load(&device_kind_chosen);
    if (chosen != DEVICE_KIND_UNSET) {
        *kind = (tessrt_device_kind)chosen;
        return TESSRT_OK;
    }
    pthread_once(&device_env_once, device_read_env);
    if (device_env_message[0])
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "%s", device_env_message);
    *kind = device_env_kind;
    return TESSRT_OK;
}

tessrt_status tessrt_device_route(int device, bool *interp) {
    *interp = false;
    if (device == TESSRT_DEVICE_INTERP) {
        *interp = true;
        return TESSRT_OK;
    }
    tessrt_device_kind kind;
    tessrt_status s = tessrt_get_device_kind(&kind);
    if (s != TESSRT_OK)
        return s;
    if (kind != TESSRT_DEVICE_KIND_INTERP)
        return TESSRT_OK;
    if (device != 0 && device != TESSRT_DEVICE_CURRENT)
        return tessrt_fail(TESSRT_ERROR_NO_DEVICE,
                           "no device %d: the interpreter (TESSRT_DEVICE=interp) is device 0", device);
    *interp = true;
    return TESSRT_OK;
}

/* ---- memory: host memory ------------------------------------------------- */

/* Every live allocation of the interpreter device, so that a free of a
   pointer it did not hand out (or already took back), a copy past an
   allocation's end and a launch whose arrays are larger than their memory
   are errors with a message, not heap corruption in the caller. */
typedef struct InterpBlock {
    uintptr_t start;
    size_t bytes;
} InterpBlock;

static pthread_mutex_t interp_memory_lock = PTHREAD_MUTEX_INITIALIZER;
static InterpBlock *interp_blocks;
static size_t interp_num_blocks, interp_cap_blocks;

/* The block holding address p (under the lock), or -1. */
static ptrdiff_t interp_block_of(uintptr_t p) {
    for (size_t i = 0; i < interp_num_blocks; i++)
        if (p >= interp_blocks[i].start && p - interp_blocks[i].start < (interp_blocks[i].bytes ? interp_blocks[i].bytes : 1))
            return (ptrdiff_t)i;
    return -1;
}

tessrt_status tessrt_device_interp_alloc(size_t bytes, uint64_t *pointer) {
    if (!pointer)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "tessrt_device_alloc: NULL argument");
    /* 64-byte aligned, as cuMemAlloc's 256 would be overkill; aligned_alloc
       wants a multiple of the alignment. */
    size_t rounded = bytes ? (bytes + 63) / 64 * 64 : 64;
    void *p = rounded >= bytes ? aligned_alloc(64, rounded) : NULL;
    if (!p)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY,
                           "interpreter: cannot allocate %zu bytes of host memory", bytes);
    pthread_mutex_lock(&interp_memory_lock);
    if (interp_num_blocks == interp_cap_blocks) {
        size_t cap = interp_cap_blocks ? 2 * interp_cap_blocks : 64;
        InterpBlock *grown = realloc(interp_blocks, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&interp_memory_lock);
            free(p);
            return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "interpreter: out of memory");
        }
        interp_blocks = grown;
        interp_cap_blocks = cap;
    }
    interp_blocks[interp_num_blocks++] = (InterpBlock){(uintptr_t)p, bytes};
    pthread_mutex_unlock(&interp_memory_lock);
    *pointer = (uint64_t)(uintptr_t)p;
    return TESSRT_OK;
}

tessrt_status tessrt_device_interp_free(uint64_t pointer) {
    if (pointer == 0)
        return TESSRT_OK;
    pthread_mutex_lock(&interp_memory_lock);
    ptrdiff_t i = interp_block_of((uintptr_t)pointer);
    bool start = i >= 0 && interp_blocks[i].start == (uintptr_t)pointer;
    if (start)
        interp_blocks[i] = interp_blocks[--interp_num_blocks];
    pthread_mutex_unlock(&interp_memory_lock);
    if (!start)
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT,
                           "tessrt_device_free: 0x%llx is not %s on the interpreter (freed twice, or "
                           "never allocated with tessrt_device_alloc)",
                           (unsigned long long)pointer, i >= 0 ? "the start of an allocation" : "memory allocated");
    free((void *)(uintptr_t)pointer);
    return TESSRT_OK;
}

/* Checks that [pointer, pointer + bytes) lies in one live allocation; the
   message names `what`. */
static tessrt_status interp_check_range(uint64_t pointer, size_t bytes, const char *what,
                                        tessrt_status status) {
    pthread_mutex_lock(&interp_memory_lock);
    ptrdiff_t i = interp_block_of((uintptr_t)pointer);
    size_t room = i >= 0 ? interp_blocks[i].bytes - ((uintptr_t)pointer - interp_blocks[i].start) : 0;
    size_t size = i >= 0 ? interp_blocks[i].bytes : 0;
    pthread_mutex_unlock(&interp_memory_lock);
    if (i < 0)
        return tessrt_fail(status,
                           "%s: 0x%llx is not memory allocated on the interpreter (tessrt_device_alloc)", what,
                           (unsigned long long)pointer);
    if (bytes > room)
        return tessrt_fail(status,
                           "%s: %zu bytes at 0x%llx, but its allocation of %zu bytes has %zu from there", what,
                           bytes, (unsigned long long)pointer, size, room);
    return TESSRT_OK;
}

tessrt_status tessrt_device_interp_copy(void *dst, const void *src, size_t bytes, bool to_device) {
    if (bytes && (!dst || !src))
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT, "copy of %zu bytes with a NULL pointer",
                           bytes);
    if (!bytes)
        return TESSRT_OK;
    tessrt_status s = interp_check_range((uint64_t)(uintptr_t)(to_device ? dst : src), bytes,
                                         to_device ? "tessrt_copy_to_device" : "tessrt_copy_from_device",
                                         TESSRT_ERROR_INVALID_ARGUMENT);
    if (s != TESSRT_OK)
        return s;
    memmove(dst, src, bytes);
    return TESSRT_OK;
}

/* ---- the interpreter's entry points ---------------------------------------- */

static _Atomic(const tessrt_interp_device *) interp_registered;
static pthread_once_t interp_open_once = PTHREAD_ONCE_INIT;
static const tessrt_interp_device *interp_opened;
static char interp_open_message[3072];

static bool interp_table_ok(const tessrt_interp_device *d) {
    return d && d->abi == TESSRT_INTERP_ABI && d->load && d->load_text && d->launch && d->unload;
}

tessrt_status tessrt_register_interpreter(const tessrt_interp_device *device) {
    if (!interp_table_ok(device))
        return tessrt_fail(TESSRT_ERROR_INVALID_ARGUMENT,
                           "tessrt_register_interpreter: %s",
                           device ? "an interpreter built for another libtessrt (ABI version differs)"
                                  : "NULL interpreter");
    atomic_store(&interp_registered, device);
    return TESSRT_OK;
}

/* The directory of the file that holds this code: PREFIX/lib for an
   installed libtessrt.so, the program's directory when it links libtessrt.a.
   "" when dladdr cannot say. */
static void interp_own_directory(char *dir, size_t size) {
    Dl_info info;
    dir[0] = '\0';
    if (!dladdr((void *)&interp_own_directory, &info) || !info.dli_fname || !strchr(info.dli_fname, '/'))
        return;
    snprintf(dir, size, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
}

static void *interp_dlopen(const char *name, char *why, size_t size) {
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, size, "%s", e ? e : "unknown error");
    }
    return lib;
}

static void interp_open(void) {
    const char *name = getenv("TESSRT_INTERP_LIBRARY");
    char why[2600] = "", dir[1024], beside[1100] = "", above[1100] = "";
    void *lib = NULL;
    if (name && name[0]) {
        lib = interp_dlopen(name, why, sizeof why);
    } else {
        name = "libtessinterp.so";
        interp_own_directory(dir, sizeof dir);
        if (dir[0]) {
            snprintf(beside, sizeof beside, "%s/libtessinterp.so", dir);
            snprintf(above, sizeof above, "%s/../lib/libtessinterp.so", dir);
        }
        char ignored[512];
        if (beside[0] && access(beside, F_OK) == 0)
            lib = interp_dlopen(beside, ignored, sizeof ignored);
        if (!lib)
            lib = interp_dlopen(name, why, sizeof why);
        if (!lib && above[0] && access(above, F_OK) == 0)
            lib = interp_dlopen(above, why, sizeof why);
        size_t used = strlen(why);
        if (!lib && dir[0] && used < sizeof why)
            snprintf(why + used, sizeof why - used, "; not in %s or %s/../lib either", dir, dir);
    }
    if (!lib) {
        snprintf(interp_open_message, sizeof interp_open_message,
                 "this program does not link libtessinterp and %s could not be "
                 "opened (%s); put libtessinterp.so on the library path or name it in "
                 "TESSRT_INTERP_LIBRARY",
                 name, why);
        return;
    }
    const tessrt_interp_device *(*get)(void);
    void *symbol = dlsym(lib, "tessinterp_device");
    memcpy(&get, &symbol, sizeof get);
    const tessrt_interp_device *d = symbol ? get() : NULL;
    if (!interp_table_ok(d)) {
        snprintf(interp_open_message, sizeof interp_open_message,
                 "%s %s", name,
                 symbol ? "was built for another libtessrt (ABI version differs)"
                        : "has no 'tessinterp_device'");
        dlclose(lib);
        return;
    }
    interp_opened = d;
}

static tessrt_status interp_table(const tessrt_interp_device **out) {
    const tessrt_interp_device *d = atomic_load(&interp_registered);
    if (!d) {
        pthread_once(&interp_open_once, interp_open);
        d = interp_opened;
    }
    if (!d)
        return tessrt_fail(TESSRT_ERROR_NO_INTERPRETER, "%s", interp_open_message);
    *out = d;
    return TESSRT_OK;
}

/* ---- kernels --------------------------------------------------------------- */

/* The kernel's interpreter copy, loaded once under the manifest's lock. */
static tessrt_status interp_kernel(const tessrt_kernel *k, const tessrt_interp_device **table,
                                   void **out) {
    tessrt_status s = interp_table(table);
    if (s != TESSRT_OK)
        return s;
    tessrt_kernel *kernel = (tessrt_kernel *)k;   /* the loaded copy is a cache */
    void *loaded = atomic_load(&kernel->interp_kernel);
    if (loaded) {
        *out = loaded;
        return TESSRT_OK;
    }
    if (!k->interp && !k->interp_tir)
        return tessrt_fail(TESSRT_ERROR_NO_ARTIFACT,
                           "kernel '%s': the manifest has no tile IR for the interpreter (no "
                           "'interp_tir' or 'interp' entry; it was written by an older tessc or by "
                           "hand: compile the kernel again)",
                           k->name);
    tessrt_param_info small[16];
    tessrt_param_info *params = k->num_params <= 16 ? small
                                                    : malloc(sizeof *params * (size_t)k->num_params);
    if (!params)
        return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < k->num_params; i++)
        tessrt_kernel_param(k, i, &params[i]);
    char err[2048] = "";
    tessrt_status status = TESSRT_ERROR_NO_ARTIFACT;
    pthread_mutex_lock(&k->manifest->lock);
    loaded = atomic_load(&kernel->interp_kernel);
    if (!loaded) {
        /* the file, when the manifest names one (what the user can see and
           edit), else the IR the manifest holds */
        if (k->interp)
            loaded = (*table)->load(k->interp, k->name, params, k->num_params, &status, err, sizeof err);
        else
            loaded = (*table)->load_text(k->interp_tir, strlen(k->interp_tir), "the manifest's interp_tir",
                                         k->name, params, k->num_params, &status, err, sizeof err);
        if (loaded)
            atomic_store(&kernel->interp_kernel, loaded);
    }
    pthread_mutex_unlock(&k->manifest->lock);
    if (params != small)
        free(params);
    if (!loaded)
        return tessrt_fail(status == TESSRT_OK ? TESSRT_ERROR_NO_ARTIFACT : status, "kernel '%s': %s", k->name,
                           err);
    *out = loaded;
    return TESSRT_OK;
}

tessrt_status tessrt_device_interp_prepare(const tessrt_kernel *k, char *chosen, size_t chosen_size) {
    const tessrt_interp_device *table;
    void *loaded;
    tessrt_status s = interp_kernel(k, &table, &loaded);
    if (s == TESSRT_OK && chosen && chosen_size)
        snprintf(chosen, chosen_size, "interp %s",
                 k->interp ? (k->interp_file ? k->interp_file : k->interp) : "(tile IR in the manifest)");
    return s;
}

tessrt_status tessrt_device_interp_launch(const tessrt_kernel *k, const tessrt_arg *args,
                                          int num_args) {
    const tessrt_interp_device *table;
    void *loaded;
    tessrt_status s = interp_kernel(k, &table, &loaded);
    if (s != TESSRT_OK)
        return s;
    /* every array must fit in the memory its pointer is in: the interpreter
       reads and writes as many elements as the shape says */
    for (int i = 0; i < k->num_params; i++) {
        const TessrtParam *p = &k->params[i];
        if (p->kind != TESSRT_PARAM_ARRAY)
            continue;
        size_t bytes = tessrt_dtype_bytes(p->dtype);
        int64_t *sizes = calloc((size_t)k->num_params + 1, sizeof *sizes);
        if (!sizes)
            return tessrt_fail(TESSRT_ERROR_OUT_OF_MEMORY, "out of memory");
        for (int j = 0; j < k->num_params; j++)
            sizes[j] = k->params[j].kind == TESSRT_PARAM_SIZE ? args[j].value.size : 0;
        int64_t elements = tessrt_param_elements(p, sizes);
        free(sizes);
        if (__builtin_mul_overflow(bytes, (size_t)elements, &bytes))
            bytes = SIZE_MAX;
        if (bytes == 0)
            continue;
        char what[300];
        snprintf(what, sizeof what, "kernel '%s', argument %d ('%.200s')", k->name, i, p->name);
        s = interp_check_range(args[i].value.pointer, bytes, what, TESSRT_ERROR_LAUNCH_ARGUMENTS);
        if (s != TESSRT_OK)
            return s;
    }
    char err[2048] = "";
    s = table->launch(loaded, args, num_args, err, sizeof err);
    if (s != TESSRT_OK)
        return tessrt_fail(s, "%s", err);
    return TESSRT_OK;
}

void tessrt_device_interp_unload(tessrt_manifest *m) {
    const tessrt_interp_device *d = atomic_load(&interp_registered);
    if (!d)
        d = interp_opened;
    for (int i = 0; i < m->num_kernels; i++) {
        void *loaded = atomic_load(&m->kernels[i].interp_kernel);
        if (loaded && d)
            d->unload(loaded);
        atomic_store(&m->kernels[i].interp_kernel, NULL);
    }
}
