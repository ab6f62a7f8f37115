/*
 * emit.c: a target's plan -> one LLVM module -> per arch, O3 and PTX.
 *
 * emit_lower lowers the plan (llvm_kernel_lower, the llvm_*.c files) into
 * one LLVM module of its own context, and links libdevice when the kernel
 * calls it; every arch of the target's family shares that module.
 * emit_optimize clones it for one arch and runs "globaldce,default<O3>"
 * with the arch's target machine, and emit_ptx prints the clone's PTX to
 * memory. ptxas is ptxas.c's.
 *
 * PTX ISA versions (emit_ptx_version): the lowest each arch allows, for
 * the widest range of drivers that can JIT the PTX (7.0 for sm_80, 7.1 for
 * sm_86, 7.8 for sm_89), and 8.0 for sm_90 and sm_90a, below which LLVM 22
 * cannot select Hopper's barriers (toolchain.md). A kernel whose plan has
 * an fp8 mma.sync (sm_89 and up) gets 8.4, the first version with it, on
 * every arch of its target (emit_ptx_version_for); the others keep theirs. The intrinsics the
 * lowering uses (bar.sync through barrier.cta.sync.aligned.all, shfl.sync,
 * the sregs, min/max.NaN, atom) need at most sm_80 with PTX 7.0.
 *
 * Failures are internal errors ("tessc: internal error: kernel 'k': ..."),
 * printed here; an LLVM fatal error or out-of-memory inside LLVM never
 * aborts (emit_init_llvm).
 *
 * Output is deterministic: the module's name and source_filename are the
 * input's base name, and nothing records a time or a path.
 */
#include "codegen.h"
#include "llvm_lower.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char emit_triple[] = "nvptx64-nvidia-cuda";

int emit_ptx_version(const ArchInfo *arch) {
    if (arch->major == 8 && arch->minor == 0)
        return 70;
    if (arch->major == 8 && arch->minor == 6)
        return 71;
    if (arch->major == 8 && arch->minor == 9)
        return 78;
    return 80;
}

/* LLVM's report_fatal_error would print its reason and abort(): a crash to
   whoever runs tessc. It becomes our internal error instead (exit 3). */
static void emit_llvm_fatal(const char *reason) {
    INTERNAL_ERROR("LLVM fatal error: %s", reason ? reason : "(no reason given)");
}

/* Out of memory inside LLVM is exit 1, like ours (fatal_out_of_memory),
   not an abort. It reaches LLVM's report_bad_alloc_error two ways: its own
   mallocs (safe_malloc, SmallVector) call it directly, and a failing
   operator new calls the new-handler. Without a handler of ours the first
   prints "LLVM ERROR: out of memory" and aborts, the second throws
   std::bad_alloc, which nothing catches (abort again, exit 134).

   LLVM-C exposes only report_fatal_error's handler (LLVMInstallFatalErrorHandler,
   llvm-c/ErrorHandling.h), and a SIGABRT handler would turn every abort
   into "out of memory". So the two C++ functions LLVM has for exactly this
   (llvm/Support/ErrorHandling.h) are called by their Itanium-mangled names:
   install_bad_alloc_error_handler takes our handler, and
   install_out_of_memory_new_handler points operator new's new-handler at
   report_bad_alloc_error, so both ways end in emit_llvm_out_of_memory. Their
   signatures are part of libLLVM's exported ABI; a change makes the link
   fail, not the program. */
typedef void (*EmitBadAllocHandler)(void *data, const char *reason, bool gen_crash_diag);
void emit_install_bad_alloc_handler(EmitBadAllocHandler handler, void *data)
    __asm__("_ZN4llvm31install_bad_alloc_error_handlerEPFvPvPKcbES0_");
void emit_install_new_handler(void) __asm__("_ZN4llvm33install_out_of_memory_new_handlerEv");

static void emit_llvm_out_of_memory(void *data, const char *reason, bool gen_crash_diag) {
    (void)data, (void)reason, (void)gen_crash_diag;
    fatal_out_of_memory();
}

static void emit_init_llvm(void) {
    static bool done;
    if (done)
        return;
    LLVMInstallFatalErrorHandler(emit_llvm_fatal);
    emit_install_bad_alloc_handler(emit_llvm_out_of_memory, NULL);
    emit_install_new_handler();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    done = true;
}

int emit_ptx_version_for(const KernelPlan *plan, const ArchInfo *arch) {
    int version = emit_ptx_version(arch);
    for (int i = 0; i < plan->num_ops; i++)
        if (plan->ops[i].mma_fp8 && version < 84)
            version = 84;
    return version;
}

static LLVMTargetMachineRef emit_target_machine(const ArchInfo *arch, int ptx_version, char *error,
                                                size_t error_size) {
    char *message = NULL;
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(emit_triple, &target, &message)) {
        snprintf(error, error_size, "no NVPTX target in LLVM: %s", message ? message : "");
        LLVMDisposeMessage(message);
        return NULL;
    }
    char features[32];
    snprintf(features, sizeof features, "+ptx%d", ptx_version);
    return LLVMCreateTargetMachine(target, emit_triple, arch->name, features, LLVMCodeGenLevelAggressive,
                                   LLVMRelocDefault, LLVMCodeModelDefault);
}

/* ---- libdevice ------------------------------------------------------------------------ */

static bool emit_calls_libdevice(LLVMModuleRef module) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (len > 5 && strncmp(name, "__nv_", 5) == 0)
            return true;
    }
    return false;
}

static const char *emit_libdevice_path(void) {
    static char path[1024];
    const char *cuda = getenv("CUDA_HOME");
    if (cuda && *cuda) {
        snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", cuda);
        if (access(path, R_OK) == 0)
            return path;
    }
    return "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
}

/* toolchain.md's recipe: our triple and data layout on libdevice, link,
   internal linkage for everything but the kernels (the module's entries), and nvvm-reflect-ftz = 0
   (IEEE denormals). libdevice is read lazily and its definitions made
   linkonce_odr, so the linker materializes only the functions the kernel
   calls (and theirs): parsing all of it, then cloning it for each arch,
   cost ~70 ms in every kernel that calls any of it. */
static bool emit_link_libdevice(LLVMContextRef ctx, LLVMModuleRef module, char *error,
                                size_t error_size) {
    const char *path = emit_libdevice_path();
    LLVMMemoryBufferRef buffer;
    char *message = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &message)) {
        snprintf(error, error_size, "cannot read libdevice '%s': %s", path, message ? message : "");
        LLVMDisposeMessage(message);
        return false;
    }
    LLVMModuleRef lib;
    if (LLVMGetBitcodeModuleInContext2(ctx, buffer, &lib)) {   /* takes the buffer, also on failure */
        snprintf(error, error_size, "cannot parse libdevice '%s'", path);
        return false;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(lib); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && LLVMGetLinkage(fn) == LLVMExternalLinkage)
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
            LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
    LLVMSetTarget(lib, LLVMGetTarget(module));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(module));
    if (LLVMLinkModules2(module, lib)) {
        snprintf(error, error_size, "cannot link libdevice '%s'", path);
        return false;
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (LLVMGetFunctionCallConv(fn) != LLVMPTXKernelCallConv && !LLVMIsDeclaration(fn))
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0)));
    return true;
}

/* ---- the target's module ------------------------------------------------------------------- */

struct EmitModule {
    const char *kernel_name;           /* for messages */
    LLVMContextRef ctx;
    LLVMModuleRef module;              /* as lowered, with libdevice */
    LLVMModuleRef optimized;           /* emit_optimize's copy, until emit_ptx */
    LLVMTargetMachineRef tm;           /* the optimized copy's arch */
    bool want_llvm;                    /* --emit llvm: the first --arch's optimized module */
    FILE *dump_opt;                    /* --dump-after=opt (of the first --arch's copy) */
};

static char *emit_copy(const char *data, size_t size) {
    char *p = malloc(size + 1);
    if (!p)
        fatal_out_of_memory();
    memcpy(p, data, size);
    p[size] = '\0';
    return p;
}

/* --dump-after=PHASE for a backend phase: where to print it, or NULL. */
static FILE *emit_dump(const CodegenOptions *options, const char *phase) {
    if (!options->dump_after || strcmp(options->dump_after, phase) != 0)
        return NULL;
    return options->dump_out ? options->dump_out : stderr;
}

static void emit_dump_module(LLVMModuleRef module, FILE *out, const char *phase) {
    if (!out)
        return;
    char *text = LLVMPrintModuleToString(module);
    fprintf(out, "; LLVM IR after %s\n%s", phase, text);
    LLVMDisposeMessage(text);
}

static void emit_internal_error(const char *kernel_name, const char *error) {
    fprintf(stderr, "tessc: internal error: kernel '%s': %s\n", kernel_name, error);
}

EmitModule *emit_lower(KernelPlan *plan, const CodegenOptions *options, const char *entry) {
    return emit_lower_with_tma(plan, NULL, options, entry, NULL);
}

EmitModule *emit_lower_with_tma(KernelPlan *plan, KernelPlan *tma, const CodegenOptions *options, const char *entry,
                                const char *tma_entry) {
    emit_init_llvm();
    EmitModule *m = calloc(1, sizeof *m);
    if (!m)
        fatal_out_of_memory();
    m->kernel_name = plan->kernel->name;
    m->want_llvm = options->want_llvm;
    char error[4096] = "";
    m->ctx = LLVMContextCreate();
    const char *source = options->source_name ? options->source_name : plan->kernel->name;
    m->module = LLVMModuleCreateWithNameInContext(source, m->ctx);
    LLVMSetSourceFileName(m->module, source, strlen(source));
    LLVMSetTarget(m->module, emit_triple);
    LLVMTargetMachineRef tm = emit_target_machine(plan->target, emit_ptx_version_for(plan, plan->target), error,
                                                  sizeof error);
    bool ok = tm != NULL;
    if (tm) {
        LLVMTargetDataRef data = LLVMCreateTargetDataLayout(tm);
        char *layout = LLVMCopyStringRepOfTargetData(data);
        LLVMSetDataLayout(m->module, layout);
        LLVMDisposeMessage(layout);
        LLVMDisposeTargetData(data);
        LLVMDisposeTargetMachine(tm);
    }
    double t = timing_begin();
    ok = ok && llvm_kernel_lower(plan, m->ctx, m->module, entry, error, sizeof error);
    ok = ok && (!tma || llvm_kernel_lower(tma, m->ctx, m->module, tma_entry, error, sizeof error));
    timing_end("lower to LLVM IR", t);
    t = timing_begin();
    if (ok && emit_calls_libdevice(m->module))
        ok = emit_link_libdevice(m->ctx, m->module, error, sizeof error);
    timing_end("link libdevice", t);
    if (!ok) {
        emit_dispose(m);
        emit_internal_error(plan->kernel->name, error);
        return NULL;
    }
    /* --dump-after=llvm, opt: the first --arch's (its target's module) */
    if (plan->target == options->archs[0])
        emit_dump_module(m->module, emit_dump(options, "llvm"), "llvm");
    m->dump_opt = emit_dump(options, "opt");
    return m;
}

bool emit_optimize(EmitModule *m, CodegenArch *a, CodegenKernel *out) {
    char error[4096] = "";
    bool first = a == &out->archs[0];   /* the first --arch: --emit llvm's */
    m->tm = emit_target_machine(a->arch, a->ptx_version, error, sizeof error);
    if (!m->tm) {
        emit_internal_error(m->kernel_name, error);
        return false;
    }
    double t = timing_begin();
    m->optimized = LLVMCloneModule(m->module);
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m->optimized, "globaldce,default<O3>", m->tm, options);
    LLVMDisposePassBuilderOptions(options);
    timing_end("LLVM optimization", t);
    if (err) {
        char *message = LLVMGetErrorMessage(err);
        snprintf(error, sizeof error, "LLVM passes failed: %s", message);
        LLVMDisposeErrorMessage(message);
        emit_internal_error(m->kernel_name, error);
        return false;
    }
    if (first)
        emit_dump_module(m->optimized, m->dump_opt, "opt");
    if (first && m->want_llvm) {
        char *text = LLVMPrintModuleToString(m->optimized);
        out->llvm_ir_size = strlen(text);
        out->llvm_ir = emit_copy(text, out->llvm_ir_size);
        LLVMDisposeMessage(text);
    }
    return true;
}

/* Drops the optimized copy and its target machine. */
static void emit_drop_optimized(EmitModule *m) {
    if (m->optimized)
        LLVMDisposeModule(m->optimized);
    if (m->tm)
        LLVMDisposeTargetMachine(m->tm);
    m->optimized = NULL;
    m->tm = NULL;
}

bool emit_ptx(EmitModule *m, CodegenArch *a) {
    LLVMMemoryBufferRef buffer = NULL;
    char *message = NULL;
    double t = timing_begin();
    bool ok = !LLVMTargetMachineEmitToMemoryBuffer(m->tm, m->optimized, LLVMAssemblyFile, &message, &buffer);
    if (ok) {
        a->ptx_size = LLVMGetBufferSize(buffer);
        a->ptx = emit_copy(LLVMGetBufferStart(buffer), a->ptx_size);
        LLVMDisposeMemoryBuffer(buffer);
    }
    timing_end("NVPTX code generation", t);
    emit_drop_optimized(m);
    if (!ok) {
        char error[4096];
        snprintf(error, sizeof error, "PTX emission failed: %s", message ? message : "");
        LLVMDisposeMessage(message);
        emit_internal_error(m->kernel_name, error);
    }
    return ok;
}

void emit_dispose(EmitModule *m) {
    if (!m)
        return;
    emit_drop_optimized(m);
    LLVMDisposeModule(m->module);
    LLVMContextDispose(m->ctx);
    free(m);
}
