/*
 * ptxas.c: ptxas as child processes, one per kernel and arch, running in
 * the background while LLVM goes on with the next arch and kernel.
 *
 * In: an arch's PTX (CodegenArch.ptx) and the -Xptxas options. Out: its
 * cubin and what ptxas -v reports (registers, spill bytes, static shared
 * bytes) in the same CodegenArch, when ptxas_collect reaps the kernel's
 * jobs. ptxas_start starts a job as soon as the PTX exists; at most one
 * ptxas per online CPU runs (the oldest is reaped first), and running out of
 * processes waits for the oldest and tries again. Each job has a private
 * temporary directory under $TMPDIR (k.ptx, k.cubin, ptxas.log), removed
 * when the job is reaped or stopped.
 *
 * What can fail, and whose it is: ptxas rejecting our PTX is an internal
 * error (every PTX we emit must assemble); a temporary directory or file
 * that cannot be written, a cubin that is not a complete ELF file (ptxas
 * exits 0 when the disk fills), running out of processes, or ptxas failing
 * with the user's -Xptxas options is an error (exit 1).
 *
 * Cleanup: no ptxas started here and no job directory outlives tessc. An
 * error elsewhere stops the jobs (ptxas_stop through target_free_kernel),
 * an exit (internal errors' exit(3) among them) stops every running job
 * (atexit), and SIGINT, SIGTERM and SIGHUP stop them from the driver's
 * signal handler (ptxas_stop_all_on_signal, async-signal-safe).
 */
#include "codegen.h"

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

/* ---- files ------------------------------------------------------------------------------- */

static bool ptxas_executable(const char *path) { return path && access(path, X_OK) == 0; }

const char *ptxas_find(void) {
    static char found[1024];
    static bool searched;
    if (searched)
        return found[0] ? found : NULL;
    searched = true;
    const char *env = getenv("PTXAS");
    if (env && *env && ptxas_executable(env)) {
        snprintf(found, sizeof found, "%s", env);
        return found;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && n < sizeof found - 8) {
            snprintf(found, sizeof found, "%.*s/ptxas", (int)n, path);
            if (ptxas_executable(found))
                return found;
        }
        path = colon ? colon + 1 : NULL;
    }
    snprintf(found, sizeof found, "/usr/local/cuda/bin/ptxas");
    if (ptxas_executable(found))
        return found;
    found[0] = '\0';
    return NULL;
}

static bool ptxas_write_file(const char *path, const char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static char *ptxas_read_file(const char *path, size_t *size) {
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
static int ptxas_number_before(const char *log, const char *what) {
    const char *p = strstr(log, what);
    if (!p)
        return 0;
    while (p > log && p[-1] == ' ')
        p--;
    while (p > log && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return atoi(p);
}

/* ptxas -v's lines about entry `entry`: from its "Compiling entry
   function 'ENTRY'" line (the whole report when there is none). */
static const char *ptxas_entry_section(const char *report, const char *entry) {
    if (!report)
        return "";
    char key[600];
    snprintf(key, sizeof key, "entry function '%s'", entry);
    const char *p = strstr(report, key);
    return p ? p : report;
}

/* Whether a cubin is a whole ELF file: ptxas exits 0 even when it could not
   write all of it (a full disk, `ulimit -f`), so the section header table
   and every section with contents must lie inside the bytes we got. */
static bool ptxas_cubin_complete(const unsigned char *p, size_t size) {
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

/* The running list is also read by ptxas_stop_all_on_signal, from a
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
void ptxas_stop(PtxasJob *job) {
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
void ptxas_stop_all_on_signal(void) {
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
        ptxas_stop(ptxas_running[0]);
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
    char *report = ptxas_read_file(log, &log_size);
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
        a->cubin = ptxas_read_file(out, &a->cubin_size);
        /* "Used N registers" (an earlier info line may speak of registers
           too), in the entry's own section: a module with a TMA entry has two */
        const char *section = ptxas_entry_section(report, job->entry);
        const char *used = strstr(section, "Used ");
        a->registers = ptxas_number_before(used ? used : "", " registers");
        a->spill_stores = ptxas_number_before(section, " bytes spill stores");
        a->spill_loads = ptxas_number_before(section, " bytes spill loads");
        if (a->tma_entry && !strstr(report ? report : "", "entry function '")) {
            a->tma_registers = a->tma_spills = -1;   /* a report without sections: unknown */
        } else if (a->tma_entry) {
            section = ptxas_entry_section(report, a->tma_entry);
            used = strstr(section, "Used ");
            a->tma_registers = ptxas_number_before(used ? used : "", " registers");
            a->tma_spills = ptxas_number_before(section, " bytes spill stores") +
                            ptxas_number_before(section, " bytes spill loads");
        }
        a->ptxas_shared_bytes = ptxas_number_before(report ? report : "", " bytes smem");
        if (a->tma_registers >= 0 && a->tma_registers < a->tma_registers_needed) {
            /* setmaxnreg.inc would wait forever for registers the block's pool never gets */
            job->failed = true;
            snprintf(job->error, sizeof job->error,
                     "ptxas gave the TMA entry of '%s' %d registers a thread, fewer than its producer warpgroup's "
                     "setmaxnreg split needs (%d)", job->entry, a->tma_registers, a->tma_registers_needed);
            free(a->cubin);
            a->cubin = NULL;
        } else if (!a->cubin) {
            job->failed = true;
            snprintf(job->error, sizeof job->error, "ptxas wrote no cubin for '%s'", job->entry);
        } else if (!ptxas_cubin_complete((const unsigned char *)a->cubin, a->cubin_size)) {
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
PtxasJob *ptxas_start(const char *ptxas, const CodegenOptions *options, CodegenArch *a,
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
    if (!ptxas_write_file(in, a->ptx, a->ptx_size)) {
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


bool ptxas_collect(CodegenKernel *out) {
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

