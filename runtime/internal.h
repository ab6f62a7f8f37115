/*
 * internal.h: what the runtime's files share and users never see.
 *
 * A loaded manifest is a tree of plain structs allocated from one pool and
 * freed in one call. Expressions (grid dimensions, contracts) are parsed once
 * at load into small trees whose leaves name size parameters by index, and
 * evaluated at each launch. Driver state (the dlopen'ed libcuda, primary
 * contexts, per-device modules) lives in driver.c; no CUDA type appears here,
 * so only driver.c includes cuda.h.
 *
 * Internal names carry "tessrt_" and their file's name (tessrt_expr_*,
 * tessrt_driver_*) so that the static library does not collide with a user's
 * symbols.
 */
#ifndef TESSRT_INTERNAL_H
#define TESSRT_INTERNAL_H

#include "expr.h"
#include "tessrt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/* ---- errors (tessrt.c) ----------------------------------------------------- */

/* Records the calling thread's message and returns `status`. */
tessrt_status tessrt_fail(tessrt_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Opens a file the runtime reads (a manifest, an artifact) without
   waiting in open(): a FIFO with no writer would block there, so it is
   opened O_NONBLOCK and must be a regular file. NULL with errno set; errno
   0 and *not_regular for a FIFO, a device, a directory. */
FILE *tessrt_open_input(const char *path, bool *not_regular);

/* ---- a pool: every allocation of one manifest, freed together (manifest_load.c) */

typedef struct TessrtPoolChunk TessrtPoolChunk;
typedef struct TessrtPool {
    TessrtPoolChunk *chunks;
} TessrtPool;

void *tessrt_pool_alloc(TessrtPool *pool, size_t size);     /* zeroed; NULL when out of memory */
char *tessrt_pool_strdup(TessrtPool *pool, const char *s);
void tessrt_pool_free(TessrtPool *pool);

/* ---- expressions (expr.c) ------------------------------------------------
 * Grammar (docs/manifest.md):
 *   contract := expr ('==' | '!=' | '<' | '<=' | '>' | '>=') expr
 *   expr     := term (('+' | '-') term)*
 *   term     := unary (('*' | '/' | '%') unary)*
 *   unary    := '-' unary | primary
 *   primary  := INT | NAME | ('cdiv' | 'min' | 'max') '(' expr ',' expr ')' | '(' expr ')'
 * Arithmetic is on int64; overflow and division by zero are errors.        */

/* Maps a name to a parameter index, or -1 when it names no size parameter. */
typedef int (*TessrtExprResolve)(void *context, const char *name);

bool tessrt_expr_parse(TessrtPool *pool, const char *text, TessrtExprResolve resolve,
                       void *context, TessrtExpr **out, char *err, size_t errsize);
bool tessrt_expr_parse_contract(TessrtPool *pool, const char *text, TessrtExprResolve resolve,
                                void *context, TessrtExpr **lhs, TessrtCompare *op,
                                TessrtExpr **rhs, char *err, size_t errsize);

/* ---- the loaded manifest ---------------------------------------------- */

typedef struct TessrtParam {
    const char *name;
    tessrt_param_kind kind;
    tessrt_dtype dtype;
    bool space_shared;
    tessrt_access access;
    int rank;
    int64_t dims[TESSRT_MAX_RANK];
    const char *dim_names[TESSRT_MAX_RANK];
    int dim_params[TESSRT_MAX_RANK];     /* the size param of a symbolic dim, else -1 */
    bool strided;                        /* "strides" given: element i at sum i_d strides_d */
    int64_t strides[TESSRT_MAX_RANK];    /* strided: a constant stride, or -1 */
    const char *stride_names[TESSRT_MAX_RANK];
    int stride_params[TESSRT_MAX_RANK];  /* the size param of a symbolic stride, else -1 */
} TessrtParam;

/* The elements an array argument spans, from the sizes of a launch
   (sizes[i]: parameter i's value): the product of its dims, or for a
   strided one 1 + sum (dim - 1) stride (0 when a dim is 0). */
int64_t tessrt_param_elements(const TessrtParam *p, const int64_t *sizes);

typedef enum TessrtArtifactKind { TESSRT_ARTIFACT_PTX, TESSRT_ARTIFACT_CUBIN } TessrtArtifactKind;

/* A tensor map of an artifact's TMA entry (docs/manifest.md "tma"). A
   launch passes at most TESSRT_MAX_TMA_MAPS of them. */
enum { TESSRT_MAX_TMA_MAPS = 16 };
typedef struct TessrtTmaMap {
    int param;                   /* the array parameter */
    tessrt_dtype dtype;
    int rank;                    /* the array's */
    int64_t box[TESSRT_MAX_RANK];   /* per array dim, outermost first */
    int swizzle;                 /* bytes: 32, 64 or 128 */
    int row_warps, row_slabs;    /* > 0: rows in wgmma order, a 5-dim map ("rows") */
    bool store;                  /* the entry stores through it ("store"; encoded as any map) */
} TessrtTmaMap;

/* An encoded CUtensorMap and what it was encoded from. */
enum { TESSRT_TMA_CACHE = 8 };
typedef struct TessrtTmaCached {
    bool used;
    int map;
    uint64_t base;
    int64_t dims[5];
    _Alignas(64) unsigned char bytes[128];
} TessrtTmaCached;

typedef struct TessrtTma {
    const char *entry;
    int shared_bytes;
    int threads;                 /* per block: the artifact's, or more (a producer warpgroup) */
    int min_registers;           /* a thread at launch, for its setmaxnreg split; 0: any */
    TessrtTmaMap *maps;
    int num_maps;
} TessrtTma;

typedef struct TessrtArtifact {
    const char *arch;            /* "sm_90a" */
    int major, minor;            /* 9, 0 */
    bool arch_specific;          /* the 'a' suffix: runs only on exactly major.minor */
    TessrtArtifactKind kind;
    const char *file;            /* as in the manifest */
    const char *path;            /* resolved against the manifest's directory */
    const void *data;            /* in memory (tessrt_manifest_load_memory): the image, */
    size_t size;                 /* not owned; path is NULL then */
    int threads;                 /* per block (schema 1: the kernel's) */
    int shared_bytes;            /* dynamic, per block */
    const TessrtTma *tma;        /* its TMA entry, or NULL */
} TessrtArtifact;

typedef struct TessrtContract {
    const char *text;
    TessrtExpr *lhs, *rhs;
    TessrtCompare op;
} TessrtContract;

/* An assert() of a kernel built with tessc -g ('asserts'): where it is. */
typedef struct TessrtAssert {
    int line, column;
    const char *message;
} TessrtAssert;

/* Array param's dim (a size) must be at most `block` (docs/manifest.md). */
typedef struct TessrtCover {
    int param, dim;
    int64_t block;
} TessrtCover;

enum { TESSRT_MAX_DEVICES = 64 };

/* One device's loaded module of a kernel. `function` is set last, so a
   non-NULL function means the rest is valid. */
typedef struct TessrtLoaded {
    _Atomic(void *) function;    /* CUfunction */
    void *module;                /* CUmodule */
    int artifact;
    int threads, shared_bytes;   /* the artifact's launch */
    void *tma_function;          /* CUfunction of its TMA entry, or NULL (set before `function`) */
    struct TessrtTmaCached *tma_cache;   /* encoded tensor maps, TESSRT_TMA_CACHE of them (driver.c) */
    int tma_cache_next;
    int tma_shared_bytes;
    const char *tma_unusable;    /* why there is no tma_function although the artifact has one */
    _Atomic int resident, tma_resident;  /* resident_blocks() of function and tma_function; 0: not asked yet */
    uint64_t assert_word;        /* CUdeviceptr of the module's tessera_assert (kernels with asserts), or 0 */
} TessrtLoaded;

struct tessrt_kernel {
    struct tessrt_manifest *manifest;
    const char *name;
    const char *entry;
    TessrtParam *params;
    int num_params;
    TessrtExpr *grid[3];         /* missing dims are NULL (1) */
    bool persistent;             /* a grid names resident_blocks() (tessrt.c resident_grid) */
    int grid_rank;
    const char *grid_text[3];
    int warps, stages;
    int threads;                 /* the most of the artifacts' (tessrt_kernel_threads) */
    TessrtContract *contracts;
    int num_contracts;
    TessrtCover *covers;         /* 'covers': which array dim a contract "N <= B" is about */
    int num_covers;
    TessrtAssert *asserts;       /* 'asserts' (tessc -g), in the GPU's numbering */
    int num_asserts;
    TessrtArtifact *artifacts;
    int num_artifacts;
    const char *interp;          /* path of the .tir file, or NULL */
    const char *interp_file;     /* as in the manifest */
    const char *interp_tir;      /* the tile IR text the manifest holds ('interp_tir'), or NULL */
    TessrtLoaded loaded[TESSRT_MAX_DEVICES];
    _Atomic(void *) interp_kernel; /* the interpreter's loaded kernel (device.c), or NULL */
};

struct tessrt_manifest {
    TessrtPool pool;
    const char *path;
    const char *source;
    const char *source_sha256;
    const char *tessc_version;
    struct tessrt_kernel *kernels;
    int num_kernels;
    pthread_mutex_t lock;        /* module loading */
};

/* ---- the driver (driver.c) ---------------------------------------------- */

/* Opens libcuda.so.1 and initializes it, once per process. */
tessrt_status tessrt_driver_open(void);
/* Resolves TESSRT_DEVICE_CURRENT and checks the ordinal. */
tessrt_status tessrt_driver_device(int device, int *ordinal);
/* Loads (once) the kernel's module on the device; returns the CUfunction
   and the chosen artifact's threads per block and dynamic shared bytes. */
tessrt_status tessrt_driver_load(const tessrt_kernel *kernel, int device, void **function,
                                 int *threads, int *shared_bytes);
/* The TMA entry of the kernel's loaded artifact on the device and the
   tensor maps for these arguments (`maps`: 128-byte CUtensorMaps, one per
   map of the artifact's tma record): true when it can run them; false, and
   `why` says why not (the argument or rule that fails), when the plain
   entry must; `threads` is then its block's. Needs tessrt_driver_load first. */
bool tessrt_driver_tma(const tessrt_kernel *kernel, int device, const tessrt_arg *args, const int64_t *sizes,
                       void **function, int *threads, int *shared_bytes, void *maps, char *why, size_t why_size);
/* resident_blocks() for `function` (the loaded artifact's entry or its TMA
   entry) at `threads` and `shared_bytes`: the device's multiprocessors
   times the blocks one holds at once (cuOccupancyMaxActiveBlocksPerMultiprocessor),
   at least 1; asked once per entry and remembered. */
tessrt_status tessrt_driver_resident(const tessrt_kernel *kernel, int device, void *function, int threads,
                                     int shared_bytes, int64_t *blocks);
tessrt_status tessrt_driver_launch(const tessrt_kernel *kernel, int device, void *function,
                                   const uint32_t grid[3], int threads, int shared_bytes, void *stream,
                                   void **params);
/* Unloads every module of the manifest. */
void tessrt_driver_unload(tessrt_manifest *manifest);

/* ---- which device a call goes to; the interpreter device (device.c) ----- */

/* Sets *interp when `device` means the interpreter (TESSRT_DEVICE_INTERP, or
   ordinal 0 / current under the interpreter kind); fails on a bad
   TESSRT_DEVICE or an interpreter ordinal other than 0. Never opens libcuda
   unless TESSRT_DEVICE=auto asks it to. */
tessrt_status tessrt_device_route(int device, bool *interp);
tessrt_status tessrt_device_interp_alloc(size_t bytes, uint64_t *pointer);
/* Fails (and frees nothing) on a pointer that is not the start of a live
   interpreter allocation: a double free, or memory from elsewhere. */
tessrt_status tessrt_device_interp_free(uint64_t pointer);
/* `to_device`: dst is interpreter memory, else src is; that side must lie in
   one allocation. */
tessrt_status tessrt_device_interp_copy(void *dst, const void *src, size_t bytes, bool to_device);
/* Loads the kernel's tile IR into the interpreter (once); `chosen` gets
   "interp relu.tir". */
tessrt_status tessrt_device_interp_prepare(const tessrt_kernel *kernel, char *chosen,
                                           size_t chosen_size);
/* Runs the whole grid on the interpreter; the arguments are already checked. */
tessrt_status tessrt_device_interp_launch(const tessrt_kernel *kernel, const tessrt_arg *args,
                                          int num_args);
/* Drops the interpreter's copies of the manifest's kernels. */
void tessrt_device_interp_unload(tessrt_manifest *manifest);

#endif
