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
    [DT_U16] = {"u16", 2},   [DT_U32] = {"u32", 4},  [DT_U64] = {"u64", 8},
    [DT_F16] = {"f16", 2},   [DT_BF16] = {"bf16", 2},
    [DT_F32] = {"f32", 4},   [DT_F64] = {"f64", 8},
    [DT_F8E4M3] = {"f8e4m3", 1}, [DT_F8E5M2] = {"f8e5m2", 1},
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
    return dtype == DT_F16 || dtype == DT_BF16 || dtype == DT_F32 || dtype == DT_F64 || dtype_is_fp8(dtype);
}

bool dtype_is_fp8(DType dtype) { return dtype == DT_F8E4M3 || dtype == DT_F8E5M2; }

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

/* The arch table. Shared memory per block with the opt-in: CUDA C
   Programming Guide, table "Technical Specifications per Compute
   Capability". The feature flags follow the PTX ISA's "Target ISA notes"
   of each instruction (as the CUDA C++ library's cuda::ptx pages list
   them, nvidia.github.io/cccl/libcudacxx/ptx/instructions/):
     mma.sync.aligned.m16n8k16 .f16/.bf16    sm_80, PTX ISA 7.0
     mma.sync.aligned.m16n8k32 .e4m3/.e5m2   sm_89, PTX ISA 8.4
     cp.async (commit_group, wait_group)     sm_80, PTX ISA 7.0
     ldmatrix.sync.aligned.m8n8              sm_75, PTX ISA 6.5
     stmatrix.sync.aligned.m8n8              sm_90, PTX ISA 7.8
     cp.async.bulk.tensor (TMA)              sm_90, PTX ISA 8.0
     mbarrier.expect_tx, complete_tx::bytes  sm_90, PTX ISA 8.0
     wgmma.mma_async                         sm_90a, PTX ISA 8.0
     setmaxnreg.{inc,dec}.sync.aligned       sm_90a, PTX ISA 8.0
   sm_90a's "a" features run on exactly 9.0 and are no part of sm_90's PTX
   (LLVM's sm_90a target exists for wgmma and setmaxnreg). LLVM 22 selects
   mbarrier and TMA only from PTX 8.0 (../shared/anchors/toolchain.md),
   which is what emit_ptx_version gives sm_90 and sm_90a; wgmma.mma_async
   has no intrinsic and is inline asm, as is the fp8 mma.sync (LLVM 22 has
   no intrinsic for it either); a kernel that uses the fp8 mma gets PTX
   8.4 on every arch of its target (emit_ptx_version). sm_89 is a family
   of its own for that mma alone. */
static const ArchInfo archs[] = {
    /* name     cc    family             shared  mma   fp8   cp.as ldmat stmat tma   mbar  wgmma maxnreg */
    {"sm_80",  8, 0, ARCH_FAMILY_SM80,  166912, true, false, true, true, false, false, false, false, false},
    {"sm_86",  8, 6, ARCH_FAMILY_SM80,  101376, true, false, true, true, false, false, false, false, false},
    {"sm_89",  8, 9, ARCH_FAMILY_SM89,  101376, true, true,  true, true, false, false, false, false, false},
    {"sm_90",  9, 0, ARCH_FAMILY_SM90,  232448, true, true,  true, true, true,  true,  true,  false, false},
    {"sm_90a", 9, 0, ARCH_FAMILY_SM90A, 232448, true, true,  true, true, true,  true,  true,  true,  true},
};

const ArchInfo *arch_lookup(const char *name) {
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (strcmp(archs[i].name, name) == 0)
            return &archs[i];
    return NULL;
}

const char *arch_names_joined(void) { return "sm_80, sm_86, sm_89, sm_90, sm_90a"; }

const char *arch_family_name(ArchFamily family) {
    switch (family) {
    case ARCH_FAMILY_SM80: return "sm_80";
    case ARCH_FAMILY_SM89: return "sm_89";
    case ARCH_FAMILY_SM90: return "sm_90";
    case ARCH_FAMILY_SM90A: return "sm_90a";
    case ARCH_FAMILY_COUNT: break;
    }
    return "?";
}
