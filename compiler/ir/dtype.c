/*
 * dtype.c: facts about element dtypes, memory spaces and target archs.
 * What a value of a dtype computes is numeric.h's.
 */
#include "base.h"

#include <string.h>

static const struct {
    const char *name;
    int bytes;
} dtype_info[DT_COUNT] = {
    [DT_BOOL] = {"bool", 1}, [DT_I8] = {"i8", 1},    [DT_I16] = {"i16", 2},
    [DT_I32] = {"i32", 4},   [DT_I64] = {"i64", 8},  [DT_U8] = {"u8", 1},
    [DT_U32] = {"u32", 4},   [DT_F16] = {"f16", 2},  [DT_BF16] = {"bf16", 2},
    [DT_F32] = {"f32", 4},   [DT_F64] = {"f64", 8},
};

const char *dtype_name(DType dtype) {
    return (unsigned)dtype < DT_COUNT ? dtype_info[dtype].name : "?";
}

bool dtype_from_name(const char *name, DType *out) {
    for (int i = 0; i < DT_COUNT; i++) {
        if (strcmp(dtype_info[i].name, name) == 0) {
            *out = (DType)i;
            return true;
        }
    }
    return false;
}

int dtype_bytes(DType dtype) { return dtype_info[dtype].bytes; }

bool dtype_is_float(DType dtype) {
    return dtype == DT_F16 || dtype == DT_BF16 || dtype == DT_F32 || dtype == DT_F64;
}

bool dtype_is_int(DType dtype) { return dtype != DT_BOOL && !dtype_is_float(dtype); }

bool dtype_is_signed(DType dtype) {
    return dtype == DT_I8 || dtype == DT_I16 || dtype == DT_I32 || dtype == DT_I64;
}

const char *space_name(MemSpace space) { return space == SPACE_SHARED ? "shared" : "global"; }

const char *access_name(Access access) {
    switch (access) {
    case ACCESS_IN: return "in";
    case ACCESS_OUT: return "out";
    case ACCESS_INOUT: return "inout";
    }
    return "?";
}

/* Shared memory per block with the opt-in (CUDA C Programming Guide, table
   "Technical Specifications per Compute Capability"). */
static const ArchInfo archs[] = {
    {"sm_80", 8, 0, 166912},
    {"sm_86", 8, 6, 101376},
    {"sm_89", 8, 9, 101376},
    {"sm_90", 9, 0, 232448},
    {"sm_90a", 9, 0, 232448},
};

const ArchInfo *arch_lookup(const char *name) {
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (strcmp(archs[i].name, name) == 0)
            return &archs[i];
    return NULL;
}

const char *arch_names_joined(void) { return "sm_80, sm_86, sm_89, sm_90, sm_90a"; }
