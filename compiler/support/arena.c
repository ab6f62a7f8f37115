/*
 * arena.c: bump allocation for everything the compiler builds.
 *
 * A phase allocates its nodes from an arena and never frees them one by one;
 * the arena goes away in one call when what it holds is no longer needed.
 * Interned strings live in a table of their own for the whole run.
 */
#include "base.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, capacity;
    _Alignas(16) unsigned char data[];
};

enum { ARENA_CHUNK_SIZE = 64 * 1024 };

_Noreturn void fatal_internal(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "tessc: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nplease report this, with the input that caused it, to the Tessera developers\n");
    exit(3);
}

/* Where fatal_out_of_memory goes instead of exiting (arena_on_out_of_memory),
   and the test knob that makes a chunk allocation fail. */
static ArenaOutOfMemory out_of_memory_handler;
static long fail_countdown = -1;

ArenaOutOfMemory arena_on_out_of_memory(ArenaOutOfMemory handler) {
    ArenaOutOfMemory previous = out_of_memory_handler;
    out_of_memory_handler = handler;
    return previous;
}

void arena_debug_fail_after(long chunks) { fail_countdown = chunks; }

_Noreturn void fatal_out_of_memory(void) {
    if (out_of_memory_handler.handler) {
        out_of_memory_handler.handler(out_of_memory_handler.context);
        /* a handler must not return; if it does, exiting is all that is left */
    }
    /* write(), not stdio: nothing here may need memory */
    static const char message[] = "tessc: error: out of memory\n";
    fflush(stdout);
    if (write(2, message, sizeof message - 1) < 0) {
        /* nowhere left to say it; the exit status still does */
    }
    exit(1);
}

void *arena_alloc(Arena *arena, size_t size) {
    size = (size + 15) & ~(size_t)15;
    ArenaChunk *chunk = arena->chunks;
    if (!chunk || chunk->capacity - chunk->used < size) {
        size_t capacity = size > ARENA_CHUNK_SIZE ? size : ARENA_CHUNK_SIZE;
        chunk = fail_countdown == 0 ? NULL : malloc(sizeof(ArenaChunk) + capacity);
        if (fail_countdown >= 0)
            fail_countdown--;
        if (!chunk)
            fatal_out_of_memory();
        chunk->used = 0;
        chunk->capacity = capacity;
        chunk->next = arena->chunks;
        arena->chunks = chunk;
    }
    void *p = chunk->data + chunk->used;
    chunk->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *arena, const char *s, size_t n) {
    char *p = arena_alloc(arena, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *arena, const char *s) {
    return arena_strndup(arena, s, strlen(s));
}

char *arena_printf(Arena *arena, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(arena, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void arena_free(Arena *arena) {
    ArenaChunk *chunk = arena->chunks;
    while (chunk) {
        ArenaChunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    arena->chunks = NULL;
}

void ptrvec_push(Arena *arena, PtrVec *vec, void *item) {
    if (vec->len == vec->cap) {
        int cap = vec->cap ? vec->cap * 2 : 4;
        void **items = arena_alloc(arena, sizeof(void *) * (size_t)cap);
        if (vec->len)
            memcpy(items, vec->items, sizeof(void *) * (size_t)vec->len);
        vec->items = items;
        vec->cap = cap;
    }
    vec->items[vec->len++] = item;
}

/* ---- interned strings: an open-addressing hash table -------------------- */

static Arena intern_arena;
static const char **intern_table;
static size_t intern_capacity, intern_count;

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void intern_grow(void) {
    size_t capacity = intern_capacity ? intern_capacity * 2 : 1024;
    const char **table = calloc(capacity, sizeof(char *));
    if (!table)
        fatal_out_of_memory();
    for (size_t i = 0; i < intern_capacity; i++) {
        const char *s = intern_table[i];
        if (!s)
            continue;
        size_t j = hash_bytes(s, strlen(s)) & (capacity - 1);
        while (table[j])
            j = (j + 1) & (capacity - 1);
        table[j] = s;
    }
    free(intern_table);
    intern_table = table;
    intern_capacity = capacity;
}

const char *intern(const char *s, size_t n) {
    if ((intern_count + 1) * 2 > intern_capacity)
        intern_grow();
    size_t j = hash_bytes(s, n) & (intern_capacity - 1);
    while (intern_table[j]) {
        if (strncmp(intern_table[j], s, n) == 0 && intern_table[j][n] == '\0')
            return intern_table[j];
        j = (j + 1) & (intern_capacity - 1);
    }
    intern_table[j] = arena_strndup(&intern_arena, s, n);
    intern_count++;
    return intern_table[j];
}

const char *intern_cstr(const char *s) {
    return intern(s, strlen(s));
}

/* Drops every interned string. Only for a process that compiles many inputs
   one after another (the fuzz targets, fuzz/): no pointer from an earlier
   run may be used afterwards. */
void intern_reset(void) {
    free(intern_table);
    intern_table = NULL;
    intern_capacity = intern_count = 0;
    arena_free(&intern_arena);
}
