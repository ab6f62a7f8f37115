/*
 * tessrt.h: the public interface of libtessrt, Tessera's runtime.
 *
 * A program loads the JSON manifest that tessc wrote beside its kernels
 * (docs/manifest.md), looks a kernel up by name and launches it with an
 * array of arguments. The runtime picks the artifact for the device's compute
 * capability (the exact-SM cubin, else a JIT of the best compatible PTX),
 * computes the grid from the manifest's expressions and the size arguments,
 * checks the argument kinds and the kernel's contracts, and launches on the
 * caller's stream.
 *
 * The CUDA driver (libcuda.so.1) is opened with dlopen at the first call that
 * needs it, so a program linked with libtessrt starts on a machine without
 * one; manifest loading, argument checking and grid computation work there.
 *
 * Kernels can also run on the CPU, on Tessera's tile-IR interpreter
 * (docs/interpreter.md): set TESSRT_DEVICE=interp in the environment, or call
 * tessrt_set_device_kind, and an unchanged program's allocations, copies and
 * launches go to host memory and the interpreter. See "devices" below.
 *
 * Every function returns a tessrt_status; on failure tessrt_last_error()
 * gives a readable message for the calling thread. Nothing here exits or
 * aborts. Handles are opaque; this header includes no CUDA header (a stream
 * is passed as void *, a CUstream or a cudaStream_t of the device's primary
 * context; NULL is the default stream).
 *
 * Thread safety: a manifest may be used from several threads at once
 * (modules load lazily, once per device, under a lock). Loading and freeing
 * a manifest must not race with its use.
 */
#ifndef TESSRT_H
#define TESSRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The schema tessc writes; the runtime also reads "tessera-manifest/1"
   (threads and shared bytes per kernel instead of per artifact). */
#define TESSRT_MANIFEST_SCHEMA "tessera-manifest/2"

typedef enum tessrt_status {
    TESSRT_OK = 0,
    TESSRT_ERROR_INVALID_ARGUMENT, /* a NULL handle, an index out of range */
    TESSRT_ERROR_IO,               /* a file could not be read */
    TESSRT_ERROR_MANIFEST,         /* malformed JSON or a field missing or wrong */
    TESSRT_ERROR_NOT_FOUND,        /* no kernel of that name */
    TESSRT_ERROR_LAUNCH_ARGUMENTS, /* argument count, kind, dtype or value wrong */
    TESSRT_ERROR_CONTRACT,         /* a contract of the kernel does not hold */
    TESSRT_ERROR_NO_DRIVER,        /* libcuda.so.1 could not be opened */
    TESSRT_ERROR_NO_DEVICE,        /* no CUDA device, or no such device ordinal */
    TESSRT_ERROR_NO_ARTIFACT,      /* no artifact runs on the device */
    TESSRT_ERROR_CUDA,             /* a driver call failed */
    TESSRT_ERROR_OUT_OF_MEMORY,    /* host allocation failed */
    TESSRT_ERROR_NO_INTERPRETER,   /* the interpreter is not linked in and libtessinterp.so
                                      could not be opened */
    TESSRT_ERROR_INTERPRETER,      /* the interpreter caught an error in the kernel (an
                                      unwritten shared read, an index out of bounds, ...) */
    TESSRT_ERROR_ASSERT,           /* an assert() of a kernel built with tessc -g failed on
                                      the GPU (the message names it and the program) */
} tessrt_status;

/* A fixed description of the status ("contract violated"). */
const char *tessrt_error_string(tessrt_status status);
/* The message of the last failure on the calling thread, naming the file,
   field, kernel or argument involved; "" if none. Valid until the thread's
   next failing call. */
const char *tessrt_last_error(void);

/* ---- dtypes ------------------------------------------------------------- */

typedef enum tessrt_dtype {
    TESSRT_BOOL, TESSRT_I8, TESSRT_I16, TESSRT_I32, TESSRT_I64,
    TESSRT_U8, TESSRT_U32, TESSRT_F16, TESSRT_BF16, TESSRT_F32, TESSRT_F64,
    TESSRT_U16, TESSRT_U64,      /* after the others: their values are ABI */
    TESSRT_F8E4M3, TESSRT_F8E5M2, /* fp8 arrays: the bits, a byte each (no scalars) */
    TESSRT_DTYPE_COUNT
} tessrt_dtype;

const char *tessrt_dtype_name(tessrt_dtype dtype);   /* "f32"; "?" if invalid */
size_t tessrt_dtype_bytes(tessrt_dtype dtype);        /* 0 if invalid */

/* ---- manifests and kernels ---------------------------------------------- */

typedef struct tessrt_manifest tessrt_manifest;
typedef struct tessrt_kernel tessrt_kernel;   /* owned by its manifest */

/* Reads and validates a manifest. Artifact files are named relative to the
   manifest's directory; they must exist, and are read at first launch. */
tessrt_status tessrt_manifest_load(const char *path, tessrt_manifest **out);
/* An artifact held in memory: what tessc --emit source embeds. `file` is the
   name the manifest gives it ("relu.relu.sm_90.cubin"); `data` and `size` are
   its bytes (PTX need not end in a NUL). */
typedef struct tessrt_image {
    const char *file;
    const void *data;
    size_t size;
} tessrt_image;

/* Reads and validates a manifest held in memory (`json`, `json_size` bytes),
   whose artifacts are the `images` (every artifact the manifest names must be
   among them; others are ignored). Nothing is read from disk. `name` is used
   in messages only (NULL: "(memory)"). The images are not copied: they must
   stay valid until the manifest is freed. A kernel's "interp" file cannot be
   embedded: it is ignored, and the kernel does not run on the interpreter. */
tessrt_status tessrt_manifest_load_memory(const char *name, const char *json, size_t json_size,
                                          const tessrt_image *images, int num_images,
                                          tessrt_manifest **out);
/* Unloads the manifest's modules from every device and frees it; NULL is fine. */
void tessrt_manifest_free(tessrt_manifest *manifest);

int tessrt_manifest_num_kernels(const tessrt_manifest *manifest);
tessrt_status tessrt_manifest_kernel_at(const tessrt_manifest *manifest, int index,
                                        tessrt_kernel **out);
tessrt_status tessrt_kernel_get(const tessrt_manifest *manifest, const char *name,
                                tessrt_kernel **out);

const char *tessrt_kernel_name(const tessrt_kernel *kernel);
/* Threads per block: the most any of the kernel's artifacts launches with
   (each artifact has its own, tessrt_kernel_artifact_launch), 32 * warps
   when it has none. */
int tessrt_kernel_threads(const tessrt_kernel *kernel);
int tessrt_kernel_num_params(const tessrt_kernel *kernel);
/* Whether the kernel's grid is persistent (tessc --grid=persistent): its
   launch runs as many blocks as the device holds at once, each looping
   over the grid's tiles, and tessrt_kernel_check's grid is the tile count
   (docs/manifest.md, "resident_blocks()"). */
bool tessrt_kernel_persistent(const tessrt_kernel *kernel);

typedef enum tessrt_param_kind {
    TESSRT_PARAM_ARRAY, TESSRT_PARAM_SCALAR, TESSRT_PARAM_SIZE
} tessrt_param_kind;

typedef enum tessrt_access { TESSRT_ACCESS_IN, TESSRT_ACCESS_OUT, TESSRT_ACCESS_INOUT } tessrt_access;

#define TESSRT_MAX_RANK 8

typedef struct tessrt_param_info {
    const char *name;
    tessrt_param_kind kind;
    tessrt_dtype dtype;
    tessrt_access access;       /* arrays; TESSRT_ACCESS_IN for scalars and sizes */
    int rank;                   /* arrays; 0 for scalars and sizes */
    /* Per dimension: dim_names[d] is the symbolic size's name, or NULL when
       the dimension is static and dims[d] is its extent. */
    int64_t dims[TESSRT_MAX_RANK];
    const char *dim_names[TESSRT_MAX_RANK];
} tessrt_param_info;

tessrt_status tessrt_kernel_param(const tessrt_kernel *kernel, int index,
                                  tessrt_param_info *info);

/* An array parameter declared with strides (docs/language.md 4.3): *strided,
   and per dim the stride in elements (strides[d]) or, when names[d] is not
   NULL, the size parameter that gives it at launch. Its argument spans
   1 + sum (dim_d - 1) stride_d elements. Not strided: row-major, *strided
   false. */
tessrt_status tessrt_kernel_param_strides(const tessrt_kernel *kernel, int index,
                                          int64_t strides[TESSRT_MAX_RANK],
                                          const char *names[TESSRT_MAX_RANK], bool *strided);

/* ---- launch arguments --------------------------------------------------- */

typedef enum tessrt_arg_kind {
    TESSRT_ARG_ARRAY,   /* value.pointer: a device address (CUdeviceptr) */
    TESSRT_ARG_SCALAR,  /* dtype and the value member of that dtype */
    TESSRT_ARG_SIZE,    /* value.size: a symbolic size, >= 0 and within i32 */
} tessrt_arg_kind;

typedef struct tessrt_arg {
    tessrt_arg_kind kind;
    tessrt_dtype dtype;          /* TESSRT_ARG_SCALAR */
    union {
        uint64_t pointer;
        int64_t size;
        bool b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        uint16_t bits16;         /* f16 and bf16: the raw bits */
        float f32;
        double f64;
    } value;
} tessrt_arg;

static inline tessrt_arg tessrt_arg_array(uint64_t device_pointer) {
    tessrt_arg a = {TESSRT_ARG_ARRAY, TESSRT_U8, {0}};
    a.value.pointer = device_pointer;
    return a;
}
static inline tessrt_arg tessrt_arg_size(int64_t size) {
    tessrt_arg a = {TESSRT_ARG_SIZE, TESSRT_I32, {0}};
    a.value.size = size;
    return a;
}
static inline tessrt_arg tessrt_arg_f32(float v) {
    tessrt_arg a = {TESSRT_ARG_SCALAR, TESSRT_F32, {0}};
    a.value.f32 = v;
    return a;
}
static inline tessrt_arg tessrt_arg_f64(double v) {
    tessrt_arg a = {TESSRT_ARG_SCALAR, TESSRT_F64, {0}};
    a.value.f64 = v;
    return a;
}
static inline tessrt_arg tessrt_arg_i32(int32_t v) {
    tessrt_arg a = {TESSRT_ARG_SCALAR, TESSRT_I32, {0}};
    a.value.i32 = v;
    return a;
}
static inline tessrt_arg tessrt_arg_i64(int64_t v) {
    tessrt_arg a = {TESSRT_ARG_SCALAR, TESSRT_I64, {0}};
    a.value.i64 = v;
    return a;
}

/* Checks the arguments (count, kinds, scalar dtypes, sizes) and the kernel's
   contracts, and computes the grid. Needs no driver. A grid dimension may be
   0 (nothing to launch). */
tessrt_status tessrt_kernel_check(const tessrt_kernel *kernel, const tessrt_arg *args,
                                  int num_args, uint32_t grid[3]);

/* The device of the calling thread's current context, or device 0. */
#define TESSRT_DEVICE_CURRENT (-1)

/* Checks as tessrt_kernel_check does, loads the kernel's module on `device`
   (once) and launches it on `stream` in the device's primary context. The
   caller's current context is left as it was. Asynchronous, like
   cuLaunchKernel. A grid with a 0 dimension launches nothing. On the
   interpreter (see "devices" below) the kernel's tile IR runs over the whole
   grid before the call returns, and `stream` is ignored. */
tessrt_status tessrt_launch(const tessrt_kernel *kernel, int device, const tessrt_arg *args,
                            int num_args, void *stream);

/* Loads the kernel's module on `device` without launching; says which
   artifact was chosen ("sm_90 cubin relu.sm_90.cubin", or on the interpreter
   "interp relu.tir") if `chosen` is not NULL. */
tessrt_status tessrt_kernel_prepare(const tessrt_kernel *kernel, int device, char *chosen,
                                    size_t chosen_size);

/* Which entry of the artifact chosen on `device` a launch with these
   arguments runs, loading it like tessrt_kernel_prepare: an artifact may
   have a second entry that copies through TMA (docs/manifest.md "tma"),
   taken when every array it maps meets TMA's rules. `desc` gets "entry
   matmul_BM128 (TMA, 2 tensor maps)", or the plain entry and why the TMA
   one is not taken ("...: array 'a' at 0x7f02 is not 16-byte aligned ..."). */
tessrt_status tessrt_kernel_entry_for(const tessrt_kernel *kernel, int device, const tessrt_arg *args,
                                      int num_args, char *desc, size_t desc_size);

/* Which artifact runs on a device of compute capability major.minor: the
   cubin of exactly that SM, else a JIT of the newest PTX whose arch is not
   above it (an arch-specific "sm_90a" PTX only on exactly 9.0), else a cubin
   of the same major and a lower minor. *index is the artifact's position in
   the manifest; `desc` (may be NULL) gets "sm_90 cubin relu.sm_90.cubin".
   TESSRT_ERROR_NO_ARTIFACT names the capability and what the manifest has. */
tessrt_status tessrt_kernel_artifact_for(const tessrt_kernel *kernel, int major, int minor,
                                         int *index, char *desc, size_t desc_size);
/* What a launch of artifact `index` uses: threads per block and dynamic
   shared-memory bytes (either pointer may be NULL). */
tessrt_status tessrt_kernel_artifact_launch(const tessrt_kernel *kernel, int index, int *threads,
                                            int *shared_bytes);

/* ---- devices: the GPU or the interpreter --------------------------------
 * Every function below that takes a `device` sends it either to a CUDA
 * device (through the driver) or to the interpreter, which runs a kernel's
 * tile IR (the manifest's "interp" file) on the CPU with GPU semantics. On
 * the interpreter, "device memory" is host memory (a device pointer is a host
 * address), copies are memcpy, launches run the whole grid before they
 * return, and streams are ignored. It is one device, ordinal 0, of compute
 * capability 0.0.
 *
 * Which one a device ordinal (0, 1, ... or TESSRT_DEVICE_CURRENT) means is
 * the process's device kind. Its first value comes from the environment:
 *   TESSRT_DEVICE=gpu     CUDA devices (also when the variable is unset)
 *   TESSRT_DEVICE=interp  the interpreter
 *   TESSRT_DEVICE=auto    CUDA devices when there is one, else the interpreter
 * Any other value makes the first call that needs a device fail with a
 * message. TESSRT_DEVICE_INTERP names the interpreter whatever the kind is.
 * Memory belongs to the kind it was allocated on: set the kind before the
 * first allocation.
 *
 * libtessrt itself does not contain the interpreter. It comes from
 * libtessinterp: a program linked with libtessinterp.a registers it with
 * tessrt_register_interpreter(tessinterp_device()) (tessrt_interp.h);
 * otherwise the first use of the interpreter opens libtessinterp.so with
 * dlopen: the file $TESSRT_INTERP_LIBRARY when set, else beside the file
 * holding libtessrt (PREFIX/lib for an installed libtessrt.so), else the
 * usual library search path, else ../lib from libtessrt's directory.
 * The interpreter owns its memory: tessrt_device_free of a pointer it did
 * not allocate (or freed already), a copy past an allocation and a launch
 * whose arrays do not fit their allocations fail with a message.
 * $TESSRT_INTERP_MAX_PROGRAMS limits the programs of one launch (default
 * 2^24; docs/interpreter.md).
 * A program that never uses the interpreter never loads it, and the
 * interpreter never loads libcuda.
 */

/* The interpreter, as a device ordinal. */
#define TESSRT_DEVICE_INTERP (-2)

typedef enum tessrt_device_kind {
    TESSRT_DEVICE_KIND_GPU,      /* ordinals are CUDA devices */
    TESSRT_DEVICE_KIND_INTERP,   /* every ordinal is the interpreter */
} tessrt_device_kind;

/* Sets the process's device kind (overrides TESSRT_DEVICE). */
tessrt_status tessrt_set_device_kind(tessrt_device_kind kind);
/* The process's device kind; resolves TESSRT_DEVICE (for "auto", by opening
   the driver) the first time. Fails on a TESSRT_DEVICE it does not know. */
tessrt_status tessrt_get_device_kind(tessrt_device_kind *kind);

/* The interpreter's entry points, as libtessinterp provides them
   (tessrt_interp.h); opaque here. */
typedef struct tessrt_interp_device tessrt_interp_device;
/* Uses `device` as the interpreter from now on, instead of opening
   libtessinterp.so. Call it before the interpreter's first use; NULL or an
   interpreter built against another version of this header is an error. */
tessrt_status tessrt_register_interpreter(const tessrt_interp_device *device);

/* ---- memory (primary context on a GPU; helpers for tools and tests) ---- */

/* TESSRT_ERROR_NO_DRIVER when libcuda.so.1 is missing; 1 on the interpreter. */
tessrt_status tessrt_device_count(int *count);
tessrt_status tessrt_device_capability(int device, int *major, int *minor);
tessrt_status tessrt_device_alloc(int device, size_t bytes, uint64_t *device_pointer);
tessrt_status tessrt_device_free(int device, uint64_t device_pointer);
tessrt_status tessrt_copy_to_device(int device, uint64_t dst, const void *src, size_t bytes);
tessrt_status tessrt_copy_from_device(int device, void *dst, uint64_t src, size_t bytes);
tessrt_status tessrt_device_synchronize(int device);

#ifdef __cplusplus
}
#endif

#endif
