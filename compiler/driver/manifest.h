/*
 * manifest.h: the launch manifest tessc writes beside its PTX and cubins
 * (docs/manifest.md, schema "tessera-manifest/2"), and SHA-256 for the
 * source's digest in it.
 *
 * Emission fills a ManifestInput from what the earlier phases recorded (the
 * IrKernel's params, grid expressions, warps and stages; the contracts axis
 * analysis found; per arch, the files written and what ptxas reported) and
 * calls manifest_write last. The output is deterministic: fixed key order,
 * no times, no absolute paths.
 */
#ifndef TESSERA_MANIFEST_H
#define TESSERA_MANIFEST_H

#include "ir.h"

#define MANIFEST_SCHEMA "tessera-manifest/2"

typedef enum ManifestArtifactKind { MANIFEST_PTX, MANIFEST_CUBIN } ManifestArtifactKind;

/* A tensor map of an artifact's TMA entry (docs/manifest.md "tma"). */
typedef struct ManifestTmaMap {
    const char *param;             /* the array parameter's name */
    int rank;
    int64_t box[IR_MAX_RANK];      /* per array dim, outermost first */
    int swizzle_bytes;
    DType dtype;
    int row_warps, row_slabs;      /* > 0: rows in wgmma order ("rows") */
    bool store;                    /* the entry stores through it ("store": true) */
} ManifestTmaMap;

/* An artifact's second entry, which copies through TMA. */
typedef struct ManifestTma {
    const char *entry;
    long shared_bytes;
    int threads;                   /* its block's; 0: the artifact's (written only when they differ) */
    int min_registers;             /* a thread at launch, for its setmaxnreg split; 0: any */
    int registers, spills;         /* -1: unknown (PTX), written as null */
    const ManifestTmaMap *maps;
    int num_maps;
} ManifestTma;

/* One file emitted for one kernel and one arch. */
typedef struct ManifestArtifact {
    const char *arch;              /* "sm_90a" */
    ManifestArtifactKind kind;
    const char *file;              /* relative to the manifest's directory, e.g. "relu.sm_90.ptx" */
    const char *ptx_version;       /* "8.0": the PTX ISA version (of the PTX a cubin came from) */
    int threads;                   /* per block: the launch's block size for this artifact */
    int registers;                 /* per thread, from ptxas; -1 when unknown (written as null) */
    int spills;                    /* spill stores + loads in bytes, from ptxas; -1: unknown */
    long shared_bytes;             /* dynamic shared memory the artifact's launch needs */
    const ManifestTma *tma;        /* its TMA entry; NULL: none */
} ManifestArtifact;

typedef enum ManifestCompare {
    MANIFEST_EQ, MANIFEST_NE, MANIFEST_LT, MANIFEST_LE, MANIFEST_GT, MANIFEST_GE
} ManifestCompare;

/* A fact about symbolic sizes the code relies on ("N % 16 == 0"); the
   runtime checks it at every launch. */
typedef struct ManifestContract {
    const GridExpr *lhs;
    ManifestCompare op;
    const GridExpr *rhs;
} ManifestContract;

typedef struct ManifestKernel {
    const IrKernel *kernel;
    const char *entry;             /* the PTX entry symbol; NULL means the kernel's name */
    const ManifestContract *contracts;
    int num_contracts;
    const ManifestArtifact *artifacts;
    int num_artifacts;
    const char *interp;            /* the kernel's .tir file for the interpreter, or NULL */
    const char *interp_tir;        /* the kernel's optimized tile IR as text (a module of this one
                                      kernel), so that every manifest runs on the interpreter; or NULL */
} ManifestKernel;

typedef struct ManifestInput {
    const char *source_name;       /* as given; only its last path component is written */
    const char *source_bytes;      /* the file's contents, for its SHA-256 */
    size_t source_length;
    const ManifestKernel *kernels;
    int num_kernels;
} ManifestInput;

/* Writes the manifest to `path` through a temporary file in the same
   directory, renamed into place. On failure writes a message to err and
   leaves nothing behind. */
bool manifest_write(const char *path, const ManifestInput *input, char *err, size_t errsize);

/* The manifest's text, ending in a newline (what manifest_write writes), in
   a malloc'd string; NULL with a message in err on failure. */
char *manifest_format(const ManifestInput *input, char *err, size_t errsize);

/* Prints a grid expression in the manifest's grammar: "cdiv(N, 256)". */
void manifest_format_expr(const GridExpr *expr, char *buf, size_t size);

/* ---- SHA-256 (sha256.c; FIPS 180-4) ---------------------------------------- */

typedef struct Sha256 {
    uint32_t state[8];
    uint64_t length;               /* bytes so far */
    unsigned char block[64];
    size_t used;
} Sha256;

void sha256_init(Sha256 *ctx);
void sha256_update(Sha256 *ctx, const void *data, size_t length);
void sha256_final(Sha256 *ctx, unsigned char digest[32]);
/* The digest of `data` as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t length, char hex[65]);

#endif
