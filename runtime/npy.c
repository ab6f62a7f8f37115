/*
 * npy.c: .npy files (format description: numpy/lib/format.py, "NEP 1").
 *
 * A file is: the magic "\x93NUMPY", a major and minor version byte, the
 * header length (uint16 little-endian in 1.0, uint32 in 2.0 and 3.0), then
 * the header, a Python dict literal such as
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n', then the raw data. The header parser
 * below accepts exactly that dict (three keys, string / bool / tuple of ints
 * values) and rejects everything else with a message.
 */
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *descr;
    const char *name;
    size_t bytes;
} npy_dtypes[NPY_DT_COUNT] = {
    [NPY_DT_BOOL] = {"|b1", "bool", 1}, [NPY_DT_I8] = {"|i1", "i8", 1},
    [NPY_DT_I16] = {"<i2", "i16", 2},   [NPY_DT_I32] = {"<i4", "i32", 4},
    [NPY_DT_I64] = {"<i8", "i64", 8},   [NPY_DT_U8] = {"|u1", "u8", 1},
    [NPY_DT_U16] = {"<u2", "u16", 2},   [NPY_DT_U32] = {"<u4", "u32", 4},
    [NPY_DT_F16] = {"<f2", "f16", 2},   [NPY_DT_F32] = {"<f4", "f32", 4},
    [NPY_DT_F64] = {"<f8", "f64", 8},   [NPY_DT_U64] = {"<u8", "u64", 8},
};

const char *npy_dtype_descr(NpyDtype dtype) {
    return (unsigned)dtype < NPY_DT_COUNT ? npy_dtypes[dtype].descr : "?";
}

const char *npy_dtype_name(NpyDtype dtype) {
    return (unsigned)dtype < NPY_DT_COUNT ? npy_dtypes[dtype].name : "?";
}

size_t npy_dtype_bytes(NpyDtype dtype) {
    return (unsigned)dtype < NPY_DT_COUNT ? npy_dtypes[dtype].bytes : 0;
}

bool npy_dtype_from_name(const char *name, NpyDtype *out) {
    if (strcmp(name, "bf16") == 0) {
        *out = NPY_DT_U16;
        return true;
    }
    for (int i = 0; i < NPY_DT_COUNT; i++)
        if (strcmp(npy_dtypes[i].name, name) == 0) {
            *out = (NpyDtype)i;
            return true;
        }
    return false;
}

__attribute__((format(printf, 4, 5)))
static bool npy_error(char *err, size_t errsize, const char *name, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errsize, "%s: %s", name, msg);
    return false;
}

/* ---- the header dict ------------------------------------------------------ */

typedef struct HeaderParser {
    const char *p, *end;
} HeaderParser;

static void header_skip(HeaderParser *h) {
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static bool header_accept(HeaderParser *h, char c) {
    header_skip(h);
    if (h->p < h->end && *h->p == c) {
        h->p++;
        return true;
    }
    return false;
}

/* A quoted string (no escapes: none of the valid values has any). */
static bool header_string(HeaderParser *h, char *out, size_t size) {
    header_skip(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return false;
    char quote = *h->p++;
    size_t n = 0;
    while (h->p < h->end && *h->p != quote) {
        if (*h->p == '\\' || n + 1 >= size)
            return false;
        out[n++] = *h->p++;
    }
    if (h->p >= h->end)
        return false;
    h->p++;
    out[n] = '\0';
    return true;
}

static bool header_word(HeaderParser *h, const char *word) {
    header_skip(h);
    size_t n = strlen(word);
    if ((size_t)(h->end - h->p) >= n && strncmp(h->p, word, n) == 0) {
        h->p += n;
        return true;
    }
    return false;
}

static bool npy_parse_header(const char *name, const char *text, size_t length, NpyArray *out,
                             char *err, size_t errsize) {
    HeaderParser h = {text, text + length};
    bool have_descr = false, have_order = false, have_shape = false;
    char descr[64] = "";
    if (!header_accept(&h, '{'))
        return npy_error(err, errsize, name, "header is not a dict");
    while (!header_accept(&h, '}')) {
        char key[64];
        if (!header_string(&h, key, sizeof key))
            return npy_error(err, errsize, name, "header: expected a quoted key");
        if (!header_accept(&h, ':'))
            return npy_error(err, errsize, name, "header: expected ':' after '%s'", key);
        if (strcmp(key, "descr") == 0 && !have_descr) {
            header_skip(&h);
            bool quoted = h.p < h.end && (*h.p == '\'' || *h.p == '"');
            if (!header_string(&h, descr, sizeof descr))
                return npy_error(err, errsize, name,
                                 quoted ? "header: bad string for 'descr'"
                                        : "unsupported dtype (a structured or non-string 'descr')");
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
            if (header_word(&h, "True"))
                return npy_error(err, errsize, name,
                                 "fortran_order is True; only C-order arrays are supported");
            if (!header_word(&h, "False"))
                return npy_error(err, errsize, name, "header: fortran_order must be True or False");
            have_order = true;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            if (!header_accept(&h, '('))
                return npy_error(err, errsize, name, "header: shape must be a tuple");
            out->rank = 0;
            while (!header_accept(&h, ')')) {
                header_skip(&h);
                int64_t v = 0;
                bool digits = false;
                while (h.p < h.end && *h.p >= '0' && *h.p <= '9') {
                    int d = *h.p++ - '0';
                    if (v > (INT64_MAX - d) / 10)
                        return npy_error(err, errsize, name, "shape: dimension too large");
                    v = v * 10 + d;
                    digits = true;
                }
                if (h.p < h.end && *h.p == 'L')
                    h.p++;
                if (!digits)
                    return npy_error(err, errsize, name, "shape: expected a non-negative integer");
                if (out->rank == NPY_MAX_RANK)
                    return npy_error(err, errsize, name, "shape: more than %d dimensions",
                                     NPY_MAX_RANK);
                out->shape[out->rank++] = v;
                if (!header_accept(&h, ',')) {
                    if (!header_accept(&h, ')'))
                        return npy_error(err, errsize, name, "shape: expected ',' or ')'");
                    break;
                }
            }
            have_shape = true;
        } else {
            return npy_error(err, errsize, name, "header: unexpected key '%s'", key);
        }
        if (!header_accept(&h, ',')) {
            if (!header_accept(&h, '}'))
                return npy_error(err, errsize, name, "header: expected ',' or '}'");
            break;
        }
    }
    header_skip(&h);
    if (h.p != h.end)
        return npy_error(err, errsize, name, "header: text after the dict");
    if (!have_descr || !have_order || !have_shape)
        return npy_error(err, errsize, name, "header: missing '%s'",
                         !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
    if (descr[0] == '>' && strlen(descr) == 3 && descr[2] != '1')
        return npy_error(err, errsize, name, "big-endian data ('%s') is not supported", descr);
    for (int i = 0; i < NPY_DT_COUNT; i++) {
        const char *d = npy_dtypes[i].descr;
        /* one-byte types may be written '<' '|' or '=' */
        bool same = strcmp(descr, d) == 0 ||
                    (npy_dtypes[i].bytes == 1 && strchr("<>|=", descr[0]) && descr[0] != '\0' &&
                     strcmp(descr + 1, d + 1) == 0);
        if (same) {
            out->dtype = (NpyDtype)i;
            return true;
        }
    }
    return npy_error(err, errsize, name, "unsupported dtype '%s'", descr);
}

static bool npy_count(const char *name, NpyDtype dtype, int rank, const int64_t *shape, size_t *count,
                      char *err, size_t errsize) {
    size_t n = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 0)
            return npy_error(err, errsize, name, "negative dimension");
        if (shape[d] != 0 && n > SIZE_MAX / (size_t)shape[d])
            return npy_error(err, errsize, name, "shape has too many elements");
        n *= (size_t)shape[d];
    }
    if (n > SIZE_MAX / 8)
        return npy_error(err, errsize, name, "shape has too many elements");
    (void)dtype;
    *count = n;
    return true;
}

/* The preamble and header of an image whose first `length` bytes are
   `bytes` (at least the whole header when the file is longer): fills dtype,
   rank, shape and count, and *data_offset. */
static bool npy_parse_preamble(const char *name, const unsigned char *bytes, size_t length,
                               NpyArray *out, size_t *data_offset, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    if (length < 6 || memcmp(bytes, "\x93NUMPY", 6) != 0)
        return npy_error(err, errsize, name, "not a .npy file (bad magic)");
    if (length < 10)
        return npy_error(err, errsize, name, "truncated: %zu bytes, shorter than the preamble", length);
    int major = bytes[6];
    size_t header_len, offset;
    if (major == 1) {
        header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8;
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (length < 12)
            return npy_error(err, errsize, name, "truncated header");
        header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 |
                     (size_t)bytes[11] << 24;
        offset = 12;
    } else {
        return npy_error(err, errsize, name, "unsupported .npy version %d.%d", major, bytes[7]);
    }
    if (header_len > length - offset)
        return npy_error(err, errsize, name, "truncated header (%zu bytes promised, %zu present)",
                         header_len, length - offset);
    if (!npy_parse_header(name, (const char *)bytes + offset, header_len, out, err, errsize))
        return false;
    if (!npy_count(name, out->dtype, out->rank, out->shape, &out->count, err, errsize))
        return false;
    *data_offset = offset + header_len;
    return true;
}

/* The preamble's fixed part, and where a version's header length ends. */
enum { NPY_PREAMBLE_MAX = 12 };

bool npy_parse(const char *name, const unsigned char *bytes, size_t length, NpyArray *out,
               char *err, size_t errsize) {
    size_t offset;
    if (!npy_parse_preamble(name, bytes, length, out, &offset, err, errsize))
        return false;
    size_t bytes_needed = out->count * npy_dtypes[out->dtype].bytes;
    if (length - offset < bytes_needed)
        return npy_error(err, errsize, name, "data is %zu bytes; shape and dtype need %zu",
                         length - offset, bytes_needed);
    out->data = malloc(bytes_needed ? bytes_needed : 1);
    if (!out->data)
        return npy_error(err, errsize, name, "out of memory");
    memcpy(out->data, bytes + offset, bytes_needed);
    return true;
}

bool npy_open(const char *path, NpyReader *reader, NpyArray *out, char *err, size_t errsize) {
    memset(reader, 0, sizeof *reader);
    memset(out, 0, sizeof *out);
    /* O_NONBLOCK: a FIFO with no writer would block open() forever; it is
       refused below like every file that is not a regular one. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return npy_error(err, errsize, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        bool directory = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        close(fd);
        return npy_error(err, errsize, path, directory ? "is a directory" : "not a regular file");
    }
    FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return npy_error(err, errsize, path, "cannot open: %s", strerror(errno));
    }
    size_t length = (size_t)st.st_size;
    /* only the header is read here: a file whose header says the wrong
       shape is rejected without reading (or holding) its data */
    unsigned char preamble[NPY_PREAMBLE_MAX];
    size_t got = fread(preamble, 1, length < sizeof preamble ? length : sizeof preamble, f);
    size_t header_len = 0;
    if (got >= 10 && memcmp(preamble, "\x93NUMPY", 6) == 0) {
        header_len = preamble[6] == 1 ? 10 + ((size_t)preamble[8] | (size_t)preamble[9] << 8)
                     : got >= 12 ? 12 + ((size_t)preamble[8] | (size_t)preamble[9] << 8 |
                                         (size_t)preamble[10] << 16 | (size_t)preamble[11] << 24)
                                 : got;
    }
    size_t head = header_len > got ? (header_len < length ? header_len : length) : got;
    unsigned char *bytes = malloc(head ? head : 1);
    if (!bytes) {
        fclose(f);
        return npy_error(err, errsize, path, "out of memory (%zu bytes)", head);
    }
    memcpy(bytes, preamble, got);
    if (head > got && fread(bytes + got, 1, head - got, f) != head - got) {
        free(bytes);
        fclose(f);
        return npy_error(err, errsize, path, "read error");
    }
    size_t offset;
    bool ok = npy_parse_preamble(path, bytes, head < length ? head : length, out, &offset, err, errsize);
    free(bytes);
    if (ok && length - offset < out->count * npy_dtypes[out->dtype].bytes)
        ok = npy_error(err, errsize, path, "data is %zu bytes; shape and dtype need %zu", length - offset,
                       out->count * npy_dtypes[out->dtype].bytes);
    if (!ok) {
        fclose(f);
        return false;
    }
    reader->file = f;
    reader->path = path;
    return true;
}

bool npy_read_data(NpyReader *reader, NpyArray *out, char *err, size_t errsize) {
    size_t bytes_needed = out->count * npy_dtypes[out->dtype].bytes;
    bool ok = reader->file != NULL;
    if (ok && !(out->data = malloc(bytes_needed ? bytes_needed : 1)))
        ok = npy_error(err, errsize, reader->path, "out of memory (%zu bytes)", bytes_needed);
    else if (ok && fread(out->data, 1, bytes_needed, reader->file) != bytes_needed)
        ok = npy_error(err, errsize, reader->path, "read error");
    npy_close(reader);
    if (!ok) {
        free(out->data);
        out->data = NULL;
    }
    return ok;
}

void npy_close(NpyReader *reader) {
    if (reader->file)
        fclose(reader->file);
    reader->file = NULL;
}

bool npy_read(const char *path, NpyArray *out, char *err, size_t errsize) {
    NpyReader reader;
    return npy_open(path, &reader, out, err, errsize) && npy_read_data(&reader, out, err, errsize);
}

bool npy_alloc(NpyArray *array, NpyDtype dtype, int rank, const int64_t *shape, char *err,
               size_t errsize) {
    memset(array, 0, sizeof *array);
    if ((unsigned)dtype >= NPY_DT_COUNT || rank < 0 || rank > NPY_MAX_RANK)
        return npy_error(err, errsize, "npy_alloc", "bad dtype or rank");
    array->dtype = dtype;
    array->rank = rank;
    for (int d = 0; d < rank; d++)
        array->shape[d] = shape[d];
    if (!npy_count("npy_alloc", dtype, rank, shape, &array->count, err, errsize))
        return false;
    size_t bytes = array->count * npy_dtypes[dtype].bytes;
    array->data = calloc(1, bytes ? bytes : 1);
    if (!array->data)
        return npy_error(err, errsize, "npy_alloc", "out of memory (%zu bytes)", bytes);
    return true;
}

void npy_free(NpyArray *array) {
    free(array->data);
    array->data = NULL;
}

bool npy_write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* Where an output goes. A regular file (or a new name) is written to a
   temporary name beside it and renamed, so it is whole or untouched; a
   symbolic link is followed and its target replaced, the link kept. A
   device, FIFO or socket (an output of /dev/null, /dev/full) is not ours
   to replace and is written in place (*in_place), as is a path through
   /proc (/dev/stdout), which names an open file. The target path is
   malloc'd; NULL with errno set (a link loop, out of memory). */
char *npy_output_target(const char *path, bool *in_place) {
    struct stat st;
    *in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    char *p = strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        if (strncmp(p, "/proc/", 6) == 0)
            *in_place = true;
        char link[4096];
        ssize_t n;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) || (n = readlink(p, link, sizeof link - 1)) < 0)
            return p;
        link[n] = '\0';
        const char *slash = strrchr(p, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, p, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(p);
        p = next;
    }
    if (p)
        errno = ELOOP;
    free(p);
    return NULL;
}

bool npy_write(const char *path, const NpyArray *a, char *err, size_t errsize) {
    if ((unsigned)a->dtype >= NPY_DT_COUNT || a->rank < 0 || a->rank > NPY_MAX_RANK)
        return npy_error(err, errsize, path, "bad dtype or rank");
    char header[64 + NPY_MAX_RANK * 22];
    int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     npy_dtypes[a->dtype].descr);
    for (int d = 0; d < a->rank; d++)
        n += snprintf(header + n, sizeof header - (size_t)n, "%lld,%s", (long long)a->shape[d],
                      d + 1 < a->rank ? " " : "");
    if (a->rank > 1)
        n--; /* numpy writes (3,) for one dim and (3, 4) for two */
    n += snprintf(header + n, sizeof header - (size_t)n, "), }");
    /* pad with spaces so the data starts at a multiple of 64, then '\n' */
    size_t prefix = 10, total = prefix + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t header_len = padded - prefix;
    int version = header_len > 65535 ? 2 : 1;
    if (version == 2) {
        prefix = 12;
        padded = (prefix + (size_t)n + 1 + 63) / 64 * 64;
        header_len = padded - prefix;
    }
    unsigned char start[12 + sizeof header + 64];
    memcpy(start, "\x93NUMPY", 6);
    start[6] = (unsigned char)version;
    start[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        start[8 + i] = (unsigned char)(header_len >> (8 * i));
    memcpy(start + prefix, header, (size_t)n);
    memset(start + prefix + n, ' ', header_len - (size_t)n - 1);
    start[padded - 1] = '\n';

    size_t data_bytes = a->count * npy_dtypes[a->dtype].bytes;
    bool in_place;
    char *target = npy_output_target(path, &in_place);
    if (!target)
        return npy_error(err, errsize, path, "cannot write: %s", strerror(errno));
    if (in_place) {
        /* a device or FIFO: written where it is (see npy_output_target) */
        struct stat st;
        bool regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        free(target);
        int fd = open(path, O_WRONLY | O_NOCTTY | (regular ? O_TRUNC : 0));
        bool ok = fd >= 0 && npy_write_all(fd, start, padded) && npy_write_all(fd, a->data, data_bytes);
        int e = errno;
        if (fd >= 0 && close(fd) != 0 && ok)
            ok = false, e = errno;
        return ok || npy_error(err, errsize, path, "cannot write: %s", strerror(e));
    }
    size_t plen = strlen(target);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        free(target);
        return npy_error(err, errsize, path, "out of memory");
    }
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        npy_error(err, errsize, path, "cannot create a temporary file beside it: %s", strerror(errno));
        free(tmp);
        free(target);
        return false;
    }
    fchmod(fd, 0644);
    bool ok = npy_write_all(fd, start, padded) && npy_write_all(fd, a->data, data_bytes);
    int e = errno;
    if (close(fd) != 0 && ok)
        ok = false, e = errno;
    if (ok && rename(tmp, target) != 0)
        ok = false, e = errno;
    if (!ok)
        unlink(tmp);
    free(tmp);
    free(target);
    return ok || npy_error(err, errsize, path, "cannot write: %s", strerror(e));
}
