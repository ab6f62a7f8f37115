/*
 * emit.c: one kernel's tile IR -> LLVM module -> PTX per arch -> cubin per arch.
 *
 * codegen_kernel runs the backend phases in order: layout_assign,
 * shared_alloc, llvm_kernel_lower (the llvm_*.c files), libdevice linking,
 * then for each --arch: clone, "globaldce,default<O3>" with the arch's target
 * machine, PTX to memory, and ptxas -v for the cubin and its register,
 * spill and shared-memory counts, in the background: codegen_finish waits
 * for it (the "ptxas jobs" below). Any PTX that ptxas rejects is an internal
 * error: every PTX we emit must assemble.
 *
 * PTX ISA versions (codegen_ptx_version): the lowest each arch allows, for
 * the widest range of drivers that can JIT the PTX (7.0 for sm_80, 7.1 for
 * sm_86, 7.8 for sm_89), and 8.0 for sm_90 and sm_90a, below which LLVM 22
 * cannot select Hopper's barriers (toolchain.md). The intrinsics the
 * lowering uses (bar.sync through barrier.cta.sync.aligned.all, shfl.sync,
 * the sregs, min/max.NaN, atom) need at most sm_80 with PTX 7.0.
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

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char emit_triple[] = "nvptx64-nvidia-cuda";

int codegen_ptx_version(const ArchInfo *arch) {
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

/* matmul_BM128_BN128_BK64: the kernel's name and its compile-time values. */
static char *emit_entry_symbol(IrKernel *kernel) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", kernel->name);
    for (int i = 0; i < kernel->num_cparams; i++) {
        const IrCParam *c = &kernel->cparams[i];
        char value[64];
        if (c->is_float)
            snprintf(value, sizeof value, "%g", c->float_value);
        else
            snprintf(value, sizeof value, "%lld", (long long)c->int_value);
        for (char *p = value; *p; p++)
            *p = *p == '-' ? 'm' : *p == '.' ? 'p' : *p == '+' ? 'P' : *p;
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "_%s%s", c->name, value);
    }
    return arena_strdup(&kernel->arena, buf);
}

static LLVMTargetMachineRef emit_target_machine(const ArchInfo *arch, char *error, size_t error_size) {
    char *message = NULL;
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(emit_triple, &target, &message)) {
        snprintf(error, error_size, "no NVPTX target in LLVM: %s", message ? message : "");
        LLVMDisposeMessage(message);
        return NULL;
    }
    char features[32];
    snprintf(features, sizeof features, "+ptx%d", codegen_ptx_version(arch));
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
   internal linkage for everything but the kernel, and nvvm-reflect-ftz = 0
   (IEEE denormals). libdevice is read lazily and its definitions made
   linkonce_odr, so the linker materializes only the functions the kernel
   calls (and theirs): parsing all of it, then cloning it for each arch,
   cost ~70 ms in every kernel that calls any of it. */
static bool emit_link_libdevice(LLVMContextRef ctx, LLVMModuleRef module, LLVMValueRef kernel, char *error,
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
        if (fn != kernel && !LLVMIsDeclaration(fn))
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0)));
    return true;
}

/* ---- ptxas ------------------------------------------------------------------------------- */

static bool emit_executable(const char *path) { return path && access(path, X_OK) == 0; }

const char *codegen_find_ptxas(void) {
    static char found[1024];
    static bool searched;
    if (searched)
        return found[0] ? found : NULL;
    searched = true;
    const char *env = getenv("PTXAS");
    if (env && *env && emit_executable(env)) {
        snprintf(found, sizeof found, "%s", env);
        return found;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && n < sizeof found - 8) {
            snprintf(found, sizeof found, "%.*s/ptxas", (int)n, path);
            if (emit_executable(found))
                return found;
        }
        path = colon ? colon + 1 : NULL;
    }
    snprintf(found, sizeof found, "/usr/local/cuda/bin/ptxas");
    if (emit_executable(found))
        return found;
    found[0] = '\0';
    return NULL;
}

static bool emit_write_file(const char *path, const char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static char *emit_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap + 1);
    for (size_t n; data && (n = fread(data + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap + 1);
        }
    }
    fclose(f);
    if (!data)
        fatal_out_of_memory();   /* not "ptxas wrote no cubin" */
    data[len] = '\0';
    *size = len;
    return data;
}

/* The number before `what` in ptxas's -v report, or 0. */
static int emit_number_before(const char *log, const char *what) {
    const char *p = strstr(log, what);
    if (!p)
        return 0;
    while (p > log && p[-1] == ' ')
        p--;
    while (p > log && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return atoi(p);
}

/* Whether a cubin is a whole ELF file: ptxas exits 0 even when it could not
   write all of it (a full disk, `ulimit -f`), so the section header table
   and every section with contents must lie inside the bytes we got. */
static bool emit_cubin_complete(const unsigned char *p, size_t size) {
    if (size < 64 || memcmp(p, "\x7f" "ELF", 4) != 0 || p[4] != 2 || p[5] != 1)
        return false;
    uint64_t shoff = 0;
    for (int i = 7; i >= 0; i--)
        shoff = shoff << 8 | p[0x28 + i];
    unsigned shentsize = p[0x3a] | (unsigned)p[0x3b] << 8, shnum = p[0x3c] | (unsigned)p[0x3d] << 8;
    if (shentsize < 64 || shoff > size || (uint64_t)shnum * shentsize > size - shoff)
        return false;
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = p + shoff + (uint64_t)i * shentsize;
        uint32_t type = sh[4] | (uint32_t)sh[5] << 8 | (uint32_t)sh[6] << 16 | (uint32_t)sh[7] << 24;
        uint64_t offset = 0, length = 0;
        for (int b = 7; b >= 0; b--) {
            offset = offset << 8 | sh[0x18 + b];
            length = length << 8 | sh[0x20 + b];
        }
        if (type != 8 /* SHT_NOBITS */ && (offset > size || length > size - offset))
            return false;
    }
    return true;
}

/* ---- ptxas jobs ------------------------------------------------------------------------------ */

/* ptxas runs as a child process per kernel and arch, started as soon as
   that arch's PTX exists and waited for only when its cubin is needed: LLVM
   works on the next arch or kernel meanwhile, and several ptxas run at once
   (at most one per online CPU). Each job has a private temporary directory
   holding k.ptx, k.cubin and ptxas.log, removed when the job is reaped.
   The user's -Xptxas options follow tessc's own. */
typedef struct PtxasJob {
    CodegenArch *arch;
    const char *entry;                 /* for messages */
    bool user_options;                 /* -Xptxas given: a failure is the user's */
    pid_t pid;                         /* 0: failed to start (error set), or reaped */
    char dir[1024];
    char files[3][1100];               /* k.ptx, k.cubin, ptxas.log in dir: the signal handler's */
    bool failed, io_error;             /* io_error: the user's to fix (disk, -Xptxas), not a bug */
    char error[2200];
} PtxasJob;

/* The running list is also read by codegen_stop_jobs_on_signal, from a
   signal handler: a job is in it from its directory's creation to that
   directory's removal, and the list changes only with SIGINT, SIGTERM and
   SIGHUP blocked (ptxas_block_signals), so the handler never sees half a
   change, a directory not yet listed or a ptxas whose pid is not recorded. */
enum { PTXAS_MAX_JOBS = 64 };
static PtxasJob *ptxas_running[PTXAS_MAX_JOBS];
static int ptxas_num_running;

static void ptxas_job_remove_files(PtxasJob *job);

static void ptxas_block_signals(sigset_t *saved) {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, saved);
}

static void ptxas_restore_signals(const sigset_t *saved) { sigprocmask(SIG_SETMASK, saved, NULL); }

static void ptxas_job_untrack(PtxasJob *job) {
    sigset_t saved;
    ptxas_block_signals(&saved);
    for (int i = 0; i < ptxas_num_running; i++) {
        if (ptxas_running[i] == job) {
            memmove(&ptxas_running[i], &ptxas_running[i + 1], sizeof ptxas_running[0] * (size_t)(ptxas_num_running - i - 1));
            ptxas_num_running--;
            break;
        }
    }
    ptxas_restore_signals(&saved);
}

/* Ends a job whose cubin nobody will read: its ptxas killed and reaped, its
   directory removed. */
static void ptxas_job_stop(PtxasJob *job) {
    if (job->pid > 0) {
        kill(job->pid, SIGKILL);
        while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR) {
        }
        job->pid = 0;
    }
    ptxas_job_remove_files(job);
    ptxas_job_untrack(job);
}

/* From a signal handler (main.c): only async-signal-safe calls, no
   allocation. Every ptxas killed and reaped, every job directory removed. */
void codegen_stop_jobs_on_signal(void) {
    for (int i = 0; i < ptxas_num_running; i++) {
        PtxasJob *job = ptxas_running[i];
        if (job->pid > 0) {
            kill(job->pid, SIGKILL);
            while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR) {
            }
        }
        for (int f = 0; f < 3; f++)
            unlink(job->files[f]);
        rmdir(job->dir);
    }
}

/* At exit (an internal error's exit(3) among them): no ptxas started here
   keeps running, and no job's temporary directory stays behind. */
static void ptxas_jobs_abandon(void) {
    while (ptxas_num_running > 0)
        ptxas_job_stop(ptxas_running[0]);
}

static int ptxas_max_parallel(void) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > PTXAS_MAX_JOBS ? PTXAS_MAX_JOBS : (int)cpus;
}

static void ptxas_job_path(const PtxasJob *job, const char *file, char *path, size_t size) {
    snprintf(path, size, "%s/%s", job->dir, file);
}

static void ptxas_job_remove_files(PtxasJob *job) {
    for (int i = 0; i < 3; i++)
        unlink(job->files[i]);
    rmdir(job->dir);
}

/* Waits for the job's ptxas and reads the cubin and the -v report into its
   arch; the job's directory is gone afterwards. */
static void ptxas_job_reap(PtxasJob *job) {
    if (job->pid <= 0) {
        ptxas_job_untrack(job);
        return;
    }
    int status = -1;
    while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR) {
    }
    job->pid = 0;
    char log[1100], out[1100];
    ptxas_job_path(job, "ptxas.log", log, sizeof log);
    ptxas_job_path(job, "k.cubin", out, sizeof out);
    CodegenArch *a = job->arch;
    size_t log_size = 0;
    char *report = emit_read_file(log, &log_size);
    const char *said = report ? report : "(no output)";
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        job->failed = true;
        if (job->user_options) {
            snprintf(job->error, sizeof job->error, "ptxas %s failed with the -Xptxas options given:\n%.2000s",
                     a->arch->name, said);
            job->io_error = true;
        } else {
            snprintf(job->error, sizeof job->error, "ptxas %s rejected the PTX of '%s':\n%.2000s", a->arch->name,
                     job->entry, said);
        }
    } else {
        a->cubin = emit_read_file(out, &a->cubin_size);
        a->registers = emit_number_before(report ? report : "", " registers");
        a->spill_stores = emit_number_before(report ? report : "", " bytes spill stores");
        a->spill_loads = emit_number_before(report ? report : "", " bytes spill loads");
        a->ptxas_shared_bytes = emit_number_before(report ? report : "", " bytes smem");
        if (!a->cubin) {
            job->failed = true;
            snprintf(job->error, sizeof job->error, "ptxas wrote no cubin for '%s'", job->entry);
        } else if (!emit_cubin_complete((const unsigned char *)a->cubin, a->cubin_size)) {
            job->failed = job->io_error = true;
            snprintf(job->error, sizeof job->error,
                     "ptxas wrote an incomplete cubin for '%s' (%zu bytes in '%s'); is the disk full?", job->entry,
                     a->cubin_size, job->dir);
            free(a->cubin);
            a->cubin = NULL;
        }
    }
    free(report);
    ptxas_job_remove_files(job);
    ptxas_job_untrack(job);
}

/* Starts ptxas on the arch's PTX, first reaping the oldest running job when
   as many run as there are CPUs. A job that cannot start is returned failed. */
static PtxasJob *ptxas_job_start(const char *ptxas, const CodegenOptions *options, CodegenArch *a,
                                 const char *entry) {
    PtxasJob *job = calloc(1, sizeof *job);
    if (!job)
        fatal_out_of_memory();
    static bool abandon_at_exit;
    if (!abandon_at_exit)
        abandon_at_exit = atexit(ptxas_jobs_abandon) == 0;
    job->arch = a;
    job->entry = entry;
    job->user_options = options->num_ptxas_args > 0;
    while (ptxas_num_running >= ptxas_max_parallel())
        ptxas_job_reap(ptxas_running[0]);
    const char *tmp = getenv("TMPDIR");
    snprintf(job->dir, sizeof job->dir, "%s/tessc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    /* the directory is listed as soon as it exists (signals blocked until then) */
    sigset_t saved;
    ptxas_block_signals(&saved);
    bool made = mkdtemp(job->dir) != NULL;
    int made_errno = errno;
    if (made)
        ptxas_running[ptxas_num_running++] = job;
    ptxas_restore_signals(&saved);
    if (!made) {
        snprintf(job->error, sizeof job->error, "cannot create a temporary directory: %s", strerror(made_errno));
        job->failed = job->io_error = true;
        job->dir[0] = '\0';
        return job;
    }
    ptxas_job_path(job, "k.ptx", job->files[0], sizeof job->files[0]);
    ptxas_job_path(job, "k.cubin", job->files[1], sizeof job->files[1]);
    ptxas_job_path(job, "ptxas.log", job->files[2], sizeof job->files[2]);
    char *in = job->files[0], *out = job->files[1], *log = job->files[2], arch[40];
    snprintf(arch, sizeof arch, "-arch=%s", a->arch->name);
    if (!emit_write_file(in, a->ptx, a->ptx_size)) {
        snprintf(job->error, sizeof job->error, "cannot write a temporary file for ptxas in '%s': %s", job->dir,
                 strerror(errno));
        job->failed = job->io_error = true;
        ptxas_job_remove_files(job);
        ptxas_job_untrack(job);
        return job;
    }
    enum { FIXED_ARGS = 6 };
    char **argv = calloc((size_t)(FIXED_ARGS + options->num_ptxas_args + 1), sizeof *argv);
    if (!argv)
        fatal_out_of_memory();
    int argc = 0;
    argv[argc++] = (char *)ptxas;
    argv[argc++] = arch;
    argv[argc++] = "-v";
    for (int i = 0; i < options->num_ptxas_args; i++)
        argv[argc++] = (char *)options->ptxas_args[i];
    argv[argc++] = "-o";
    argv[argc++] = out;
    argv[argc++] = in;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    /* Spawned with the signals blocked, so that the pid is recorded before
       the handler can look; ptxas itself starts with the mask tessc had
       (exec gives caught signals their default disposition). */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    /* Out of processes (ulimit -u) while other jobs run: wait for the
       oldest and try again, as a compile one ptxas at a time would have. */
    int spawned;
    for (;;) {
        ptxas_block_signals(&saved);
        posix_spawnattr_setsigmask(&attr, &saved);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
        pid_t pid = 0;
        spawned = posix_spawn(&pid, ptxas, &actions, &attr, argv, environ);
        job->pid = spawned == 0 ? pid : 0;
        ptxas_restore_signals(&saved);
        if (spawned != EAGAIN || ptxas_num_running <= 1)
            break;
        ptxas_job_reap(ptxas_running[0]);
    }
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    free(argv);
    if (spawned != 0) {
        job->pid = 0;
        job->failed = true;
        job->io_error = spawned == EAGAIN || spawned == ENOMEM;   /* the machine's limits, not a bug */
        snprintf(job->error, sizeof job->error, "cannot run ptxas '%s': %s", ptxas, strerror(spawned));
        ptxas_job_remove_files(job);
        ptxas_job_untrack(job);
        return job;
    }
    return job;
}

/* ---- the kernel ------------------------------------------------------------------------------ */

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

static void emit_dump_plan(KernelPlan *plan, const CodegenOptions *options, const char *phase) {
    FILE *out = emit_dump(options, phase);
    if (out)
        plan_print(plan, phase, out);
}

static void emit_dump_module(LLVMModuleRef module, FILE *out, const char *phase) {
    if (!out)
        return;
    char *text = LLVMPrintModuleToString(module);
    fprintf(out, "; LLVM IR after %s\n%s", phase, text);
    LLVMDisposeMessage(text);
}

static bool emit_arch(LLVMModuleRef module, CodegenArch *a, bool print_llvm, FILE *dump_opt, CodegenKernel *out,
                      char *error, size_t error_size) {
    LLVMTargetMachineRef tm = emit_target_machine(a->arch, error, error_size);
    if (!tm)
        return false;
    double t = timing_begin();
    LLVMModuleRef m = LLVMCloneModule(module);
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, "globaldce,default<O3>", tm, options);
    LLVMDisposePassBuilderOptions(options);
    timing_end("LLVM optimization", t);
    bool ok = true;
    if (err) {
        char *message = LLVMGetErrorMessage(err);
        snprintf(error, error_size, "LLVM passes failed: %s", message);
        LLVMDisposeErrorMessage(message);
        ok = false;
    }
    if (ok)
        emit_dump_module(m, dump_opt, "opt");
    if (ok && print_llvm) {
        char *text = LLVMPrintModuleToString(m);
        out->llvm_ir_size = strlen(text);
        out->llvm_ir = emit_copy(text, out->llvm_ir_size);
        LLVMDisposeMessage(text);
    }
    LLVMMemoryBufferRef buffer = NULL;
    char *message = NULL;
    t = timing_begin();
    if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &message, &buffer)) {
        snprintf(error, error_size, "PTX emission failed: %s", message ? message : "");
        LLVMDisposeMessage(message);
        ok = false;
    }
    if (ok) {
        a->ptx_size = LLVMGetBufferSize(buffer);
        a->ptx = emit_copy(LLVMGetBufferStart(buffer), a->ptx_size);
        LLVMDisposeMemoryBuffer(buffer);
    }
    timing_end("NVPTX code generation", t);
    LLVMDisposeModule(m);
    LLVMDisposeTargetMachine(tm);
    return ok;
}

bool codegen_kernel(IrKernel *kernel, const CodegenOptions *options, CodegenKernel *out) {
    memset(out, 0, sizeof *out);
    emit_init_llvm();
    int warps = kernel->warps > 0 ? kernel->warps : 4;
    out->kernel = kernel;
    out->threads = warps * 32;
    out->entry = emit_entry_symbol(kernel);
    double t = timing_begin();
    KernelPlan *plan = layout_assign(kernel, out->threads);
    if (!layout_check_registers(plan))
        return false;
    emit_dump_plan(plan, options, "layout");
    convert_plan(plan);
    emit_dump_plan(plan, options, "convert");
    shared_alloc(plan);
    emit_dump_plan(plan, options, "shared");
    barrier_plan(plan);
    emit_dump_plan(plan, options, "barrier");
    timing_end("layouts and shared memory", t);
    out->shared_bytes = plan->shared_bytes;
    for (int i = 0; i < options->num_archs; i++) {
        const ArchInfo *arch = options->archs[i];
        if (plan->shared_bytes > arch->shared_bytes_max) {
            /* At the op whose buffer crosses the limit (the kernel's name if
               none can be blamed). */
            const OpPlan *over = shared_over_limit(plan, arch->shared_bytes_max);
            diag_error(over ? over->op->loc : kernel->loc,
                       "kernel '%s' needs %lld bytes of shared memory (its allocs and the compiler's staging "
                       "buffers), more than the %ld bytes of %s",
                       kernel->name, (long long)plan->shared_bytes, arch->shared_bytes_max, arch->name);
            if (over)
                diag_note(over->op->loc, "this %s's buffer of %lld bytes ends past the limit",
                          over->op->opcode == IR_ALLOC ? "alloc" : ir_opcode_name(over->op->opcode),
                          (long long)over->scratch_bytes);
            return false;
        }
    }

    char error[4096] = "";
    LLVMContextRef ctx = LLVMContextCreate();
    const char *source = options->source_name ? options->source_name : kernel->name;
    LLVMModuleRef module = LLVMModuleCreateWithNameInContext(source, ctx);
    LLVMSetSourceFileName(module, source, strlen(source));
    LLVMSetTarget(module, emit_triple);
    bool ok = true;
    LLVMTargetMachineRef tm = options->num_archs > 0 ? emit_target_machine(options->archs[0], error, sizeof error) : NULL;
    if (tm) {
        LLVMTargetDataRef data = LLVMCreateTargetDataLayout(tm);
        char *layout = LLVMCopyStringRepOfTargetData(data);
        LLVMSetDataLayout(module, layout);
        LLVMDisposeMessage(layout);
        LLVMDisposeTargetData(data);
        LLVMDisposeTargetMachine(tm);
    } else {
        ok = options->num_archs == 0;
    }
    t = timing_begin();
    ok = ok && llvm_kernel_lower(plan, ctx, module, out->entry, error, sizeof error);
    timing_end("lower to LLVM IR", t);
    t = timing_begin();
    if (ok && emit_calls_libdevice(module))
        ok = emit_link_libdevice(ctx, module, LLVMGetNamedFunction(module, out->entry), error, sizeof error);
    timing_end("link libdevice", t);
    if (ok)
        emit_dump_module(module, emit_dump(options, "llvm"), "llvm");
    const char *ptxas = options->want_cubin ? codegen_find_ptxas() : NULL;
    for (int i = 0; ok && i < options->num_archs; i++) {
        CodegenArch *a = &out->archs[out->num_archs++];
        a->arch = options->archs[i];
        a->ptx_version = codegen_ptx_version(a->arch);
        a->registers = a->spill_stores = a->spill_loads = -1;
        ok = emit_arch(module, a, options->want_llvm && i == 0, i == 0 ? emit_dump(options, "opt") : NULL, out, error,
                       sizeof error);
        if (ok && ptxas)
            a->ptxas_job = ptxas_job_start(ptxas, options, a, out->entry);
    }
    LLVMDisposeModule(module);
    LLVMContextDispose(ctx);
    if (!ok)
        fprintf(stderr, "tessc: internal error: kernel '%s': %s\n", kernel->name, error);
    return ok;
}


bool codegen_finish(CodegenKernel *out) {
    bool ok = true;
    for (int i = 0; i < out->num_archs; i++) {
        PtxasJob *job = out->archs[i].ptxas_job;
        if (!job)
            continue;
        double t = timing_begin();
        ptxas_job_reap(job);
        timing_end("ptxas", t);
        /* A full or unwritable temporary directory is the machine's problem
           (exit 1, like an output that cannot be written), and so is a
           failure with the user's -Xptxas options; anything else is a bug. */
        if (ok && job->failed && job->io_error)
            diag_error_plain("kernel '%s': %s", out->kernel->name, job->error);
        else if (ok && job->failed)
            fprintf(stderr, "tessc: internal error: kernel '%s': %s\n", out->kernel->name, job->error);
        ok = ok && !job->failed;
        free(job);
        out->archs[i].ptxas_job = NULL;
    }
    return ok;
}

void codegen_kernel_free(CodegenKernel *out) {
    free(out->llvm_ir);
    for (int i = 0; i < out->num_archs; i++) {
        if (out->archs[i].ptxas_job)   /* after an error elsewhere: not waited for */
            ptxas_job_stop(out->archs[i].ptxas_job);
        free(out->archs[i].ptxas_job);
        free(out->archs[i].ptx);
        free(out->archs[i].cubin);
    }
    memset(out, 0, sizeof *out);
}
