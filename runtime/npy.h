/*
 * npy.h: reading and writing NumPy .npy files (internal to tessrun, the
 * tests and, later, the interpreter; not part of libtessrt's API).
 *
 * Reads format versions 1.0, 2.0 and 3.0; writes 1.0 (2.0 when the header
 * needs it), through a temporary file renamed into place. Only
 * little-endian, C-order arrays of these dtypes:
 *     '|b1' bool, '|i1' '<i2' '<i4' '<i8', '|u1' '<u2' '<u4', '<f2' '<f4' '<f8'
 * bf16 has no NumPy dtype: Tessera stores it as '<u2' holding the raw bits
 * (the upper half of the f32), so NPY_DT_U16 is also how bf16 is read.
 * Malformed files are errors with a message naming the file, never crashes.
 */
#ifndef TESSERA_NPY_H
#define TESSERA_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { NPY_MAX_RANK = 32 };

typedef enum NpyDtype {
    NPY_DT_BOOL, NPY_DT_I8, NPY_DT_I16, NPY_DT_I32, NPY_DT_I64,
    NPY_DT_U8, NPY_DT_U16, NPY_DT_U32,
    NPY_DT_F16, NPY_DT_F32, NPY_DT_F64,
    NPY_DT_U64,
    NPY_DT_COUNT
} NpyDtype;

typedef struct NpyArray {
    NpyDtype dtype;
    int rank;                       /* 0 for a scalar array */
    int64_t shape[NPY_MAX_RANK];
    size_t count;                   /* elements: the product of shape */
    void *data;                     /* count * npy_dtype_bytes(dtype), malloc'd */
} NpyArray;

const char *npy_dtype_descr(NpyDtype dtype);      /* "<f4" */
const char *npy_dtype_name(NpyDtype dtype);       /* "f32" (u16 for bf16 bits) */
size_t npy_dtype_bytes(NpyDtype dtype);
bool npy_dtype_from_name(const char *name, NpyDtype *out);   /* "f32", "bf16" -> u16 */

/* Parses a whole .npy image held in memory; `name` is used in messages. */
bool npy_parse(const char *name, const unsigned char *bytes, size_t length, NpyArray *out,
               char *err, size_t errsize);
bool npy_read(const char *path, NpyArray *out, char *err, size_t errsize);
/* Reading in two steps, so that a caller can check dtype and shape before
   the data is read: npy_open reads only the preamble and header (and checks
   that the file holds the data they promise); `out` gets dtype, rank, shape
   and count, data stays NULL. Then npy_read_data reads the data into
   out->data, or npy_close gives up; either closes the file (npy_open
   closes it itself when it fails). */
typedef struct NpyReader {
    FILE *file;
    const char *path;
} NpyReader;
bool npy_open(const char *path, NpyReader *reader, NpyArray *out, char *err, size_t errsize);
bool npy_read_data(NpyReader *reader, NpyArray *out, char *err, size_t errsize);
void npy_close(NpyReader *reader);
/* Writes `array` to path.tmpXXXXXX beside `path` and renames it into place. */
bool npy_write(const char *path, const NpyArray *array, char *err, size_t errsize);
/* Allocates zeroed data for dtype and shape; false on overflow or no memory. */
bool npy_alloc(NpyArray *array, NpyDtype dtype, int rank, const int64_t *shape, char *err,
               size_t errsize);
void npy_free(NpyArray *array);

/* The output rules tessrun and tessc share (npy.c has them in full): where
   `path` is written (its symbolic links followed; malloc'd; NULL with errno
   for a link loop), and whether it is written in place (a device, FIFO or
   /proc path) instead of to a temporary name renamed over it. */
char *npy_output_target(const char *path, bool *in_place);
/* write() until done, through EINTR; false with errno otherwise. */
bool npy_write_all(int fd, const void *data, size_t size);

#endif
