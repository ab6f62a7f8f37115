/*
 * llvm_debug.c: print and assert (tessc -g; docs/language.md 9.14).
 *
 * print: each element once, by the thread that holds its first copy
 * (ThreadInfo.unique), through vprintf, the PTX system call that the CUDA
 * driver prints from at the next synchronisation (PTX ISA 7.4.1, "System
 * calls"). The line is the interpreter's (interp.c exec_print):
 *     pid (x, y, z) idx (i, j) label: value
 * floats as %.9g (f64 %.17g), integers and bools as integers.
 *
 * assert: no trap (a trapped kernel leaves the context unusable). A thread
 * that finds an element false claims the kernel's `tessera_assert` word
 * (atomic compare-and-swap from 0 to the assert's number + 1: the first
 * failure wins) and writes its program id after it, then runs on. The
 * runtime zeroes the word before each launch of a kernel with asserts,
 * synchronises after it and turns a claimed word into TESSRT_ERROR_ASSERT,
 * naming the assert's line and message from the manifest.
 */
#include "llvm_lower.h"

#include <stdio.h>
#include <string.h>

/* A private constant C string in global memory, as a generic pointer. */
static LLVMValueRef format_string(Lowering *L, const char *text) {
    LLVMValueRef init = LLVMConstStringInContext(L->ctx, text, (unsigned)strlen(text), 0);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->module, LLVMTypeOf(init), "tessera_fmt", 1);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return LLVMBuildAddrSpaceCast(L->b, g, LLVMPointerTypeInContext(L->ctx, 0), "");
}

static LLVMValueRef vprintf_function(Lowering *L, LLVMTypeRef *type) {
    LLVMTypeRef generic = LLVMPointerTypeInContext(L->ctx, 0);
    LLVMTypeRef params[2] = {generic, generic};
    *type = LLVMFunctionType(L->i32, params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->module, "vprintf");
    return fn ? fn : LLVMAddFunction(L->module, "vprintf", *type);
}

/* '%' in a label would be a conversion: doubled. */
static void escape_percent(const char *text, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = text; *p && n + 2 < size; p++) {
        if (*p == '%')
            out[n++] = '%';
        out[n++] = *p;
    }
    out[n] = '\0';
}

void llvm_debug_print(Lowering *L, IrOp *op) {
    char label[600];
    escape_percent(op->text, label, sizeof label);
    Tile *t = op->num_operands ? llvm_kernel_operand(L, op, 0) : NULL;
    int rank = t ? t->type.rank : 0;
    DType dtype = t ? t->type.dtype : DT_I32;
    bool is_float = dtype_is_float(dtype);
    char fmt[800];
    int used = snprintf(fmt, sizeof fmt, "pid (%%d, %%d, %%d)");
    if (rank) {
        used += snprintf(fmt + used, sizeof fmt - (size_t)used, " idx (");
        for (int d = 0; d < rank; d++)
            used += snprintf(fmt + used, sizeof fmt - (size_t)used, "%s%%d", d ? ", " : "");
        used += snprintf(fmt + used, sizeof fmt - (size_t)used, ")");
    }
    snprintf(fmt + used, sizeof fmt - (size_t)used, t ? (dtype == DT_F64 ? " %s: %%.17g\n" : is_float ? " %s: %%.9g\n" :
                                                          dtype == DT_U64 ? " %s: %%llu\n" : " %s: %%lld\n")
                                                      : " %s\n", label);
    /* the argument buffer: pid x, y, z, the indices (i32), the value (f64 or i64, 8-aligned) */
    LLVMTypeRef fields[3 + IR_MAX_RANK + 1];
    int nf = 0;
    for (int i = 0; i < 3 + rank; i++)
        fields[nf++] = L->i32;
    if (t)
        fields[nf++] = is_float ? L->f64 : L->i64;
    LLVMTypeRef args_type = LLVMStructTypeInContext(L->ctx, fields, (unsigned)nf, 0);
    LLVMBuilderRef saved = L->b;
    L->b = L->entry;
    LLVMValueRef buffer = LLVMBuildAlloca(L->b, args_type, "print.args");
    L->b = saved;
    LLVMValueRef generic_buffer = LLVMBuildAddrSpaceCast(L->b, buffer, LLVMPointerTypeInContext(L->ctx, 0), "");
    LLVMValueRef format = format_string(L, fmt);
    LLVMTypeRef fn_type;
    LLVMValueRef fn = vprintf_function(L, &fn_type);
    LLVMValueRef pids[3] = {llvm_kernel_program_id(L, 0), llvm_kernel_program_id(L, 1), llvm_kernel_program_id(L, 2)};
    ThreadInfo *ti = t ? llvm_kernel_thread(L, t->layout, &t->type) : NULL;
    int64_t regs = t ? t->num_regs : 1;
    int64_t *offsets = ARENA_ARRAY(&L->kernel->arena, int64_t, (size_t)(regs * (rank + 1)) + 1);
    for (int64_t r = 0; r < regs; r++) {
        /* a register holding a copy of an earlier one's element prints nothing */
        bool copy = false;
        if (t && rank) {
            layout_reg_offsets(t->map, r, offsets + r * rank);
            for (int64_t q = 0; q < r && !copy; q++)
                copy = memcmp(offsets + q * rank, offsets + r * rank, sizeof(int64_t) * (size_t)rank) == 0;
        } else {
            copy = r > 0;
        }
        if (copy)
            continue;
        LLVMValueRef unique = ti ? ti->unique : NULL;
        if (!t)   /* a label alone: once a program, by thread 0 */
            unique = LLVMBuildICmp(L->b, LLVMIntEQ, L->tid, llvm_kernel_i32(L, 0), "");
        LLVMBasicBlockRef then_bb = llvm_kernel_block(L, "print"), done = llvm_kernel_block(L, "print.done");
        LLVMBuildCondBr(L->b, unique ? unique : LLVMConstInt(L->i1, 1, 0), then_bb, done);
        LLVMPositionBuilderAtEnd(L->b, then_bb);
        int f = 0;
        for (int i = 0; i < 3; i++)
            LLVMBuildStore(L->b, pids[i], LLVMBuildStructGEP2(L->b, args_type, buffer, (unsigned)f++, ""));
        for (int d = 0; d < rank; d++)
            LLVMBuildStore(L->b, llvm_kernel_coord(L, t, ti, r, d),
                           LLVMBuildStructGEP2(L->b, args_type, buffer, (unsigned)f++, ""));
        if (t) {
            LLVMValueRef v = t->regs[r];
            if (dtype_is_fp8(dtype))   /* its bits in an i8: the value as an f32 first */
                v = llvm_math_cast(L, v, dtype, DT_F32);
            v = is_float ? (dtype == DT_F64 ? v : LLVMBuildFPExt(L->b, v, L->f64, ""))
                : dtype == DT_I64 ? v
                : dtype_is_signed(dtype) ? LLVMBuildSExt(L->b, v, L->i64, "") : LLVMBuildZExt(L->b, v, L->i64, "");
            LLVMBuildStore(L->b, v, LLVMBuildStructGEP2(L->b, args_type, buffer, (unsigned)f++, ""));
        }
        LLVMValueRef call_args[2] = {format, generic_buffer};
        LLVMBuildCall2(L->b, fn_type, fn, call_args, 2, "");
        LLVMBuildBr(L->b, done);
        LLVMPositionBuilderAtEnd(L->b, done);
    }
}

/* The kernel's assert word: [claimed assert + 1, pid x, y, z]. */
static LLVMValueRef assert_word(Lowering *L) {
    LLVMValueRef g = LLVMGetNamedGlobal(L->module, TESSERA_ASSERT_SYMBOL);
    if (g)
        return g;
    LLVMTypeRef type = LLVMArrayType2(L->i32, 4);
    g = LLVMAddGlobalInAddressSpace(L->module, type, TESSERA_ASSERT_SYMBOL, 1);
    LLVMSetInitializer(g, LLVMConstNull(type));
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetAlignment(g, 16);
    return g;
}

void llvm_debug_assert(Lowering *L, IrOp *op, int number) {
    Tile *c = llvm_kernel_operand(L, op, 0);
    LLVMValueRef all = NULL;
    for (int64_t r = 0; r < c->num_regs; r++)
        all = all ? LLVMBuildAnd(L->b, all, c->regs[r], "") : c->regs[r];
    LLVMValueRef failed = LLVMBuildNot(L->b, all, "assert.failed");
    LLVMBasicBlockRef fail_bb = llvm_kernel_block(L, "assert.fail"), claim_bb = llvm_kernel_block(L, "assert.claim");
    LLVMBasicBlockRef done = llvm_kernel_block(L, "assert.done");
    LLVMBuildCondBr(L->b, failed, fail_bb, done);
    LLVMPositionBuilderAtEnd(L->b, fail_bb);
    LLVMValueRef word = assert_word(L);
    LLVMValueRef cas = LLVMBuildAtomicCmpXchg(L->b, word, llvm_kernel_i32(L, 0), llvm_kernel_i32(L, number + 1),
                                             LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef won = LLVMBuildExtractValue(L->b, cas, 1, "");
    LLVMBuildCondBr(L->b, won, claim_bb, done);
    LLVMPositionBuilderAtEnd(L->b, claim_bb);
    LLVMTypeRef type = LLVMArrayType2(L->i32, 4);
    for (int i = 0; i < 3; i++) {
        LLVMValueRef index[2] = {llvm_kernel_i32(L, 0), llvm_kernel_i32(L, i + 1)};
        LLVMBuildStore(L->b, llvm_kernel_program_id(L, i), LLVMBuildGEP2(L->b, type, word, index, 2, ""));
    }
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}
