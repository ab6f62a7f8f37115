/*
 * timing.c: --time-report, wall time per compiler phase.
 *
 * A phase is a name and the seconds spent in it, summed over every time it
 * ran (one kernel after another, one arch after another). Timing costs one
 * clock read per boundary when on and nothing but a branch when off, so the
 * calls stay in the driver unconditionally. The report goes to stderr at
 * the end, in the order the phases first ran, with the total from main's
 * entry: what a build script sees, less the process start before main.
 */
#include "base.h"

#include <string.h>
#include <time.h>

enum { TIMING_MAX_PHASES = 24 };

static struct {
    bool enabled;
    double start;
    int num_phases;
    struct {
        const char *name;
        double seconds;
        int runs;
    } phases[TIMING_MAX_PHASES];
} timing;

static double timing_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void timing_enable(void) {
    timing.enabled = true;
    timing.start = timing_now();
}

double timing_begin(void) { return timing.enabled ? timing_now() : 0.0; }

void timing_end(const char *phase, double begin) {
    if (!timing.enabled)
        return;
    double seconds = timing_now() - begin;
    for (int i = 0; i < timing.num_phases; i++) {
        if (strcmp(timing.phases[i].name, phase) == 0) {
            timing.phases[i].seconds += seconds;
            timing.phases[i].runs++;
            return;
        }
    }
    if (timing.num_phases == TIMING_MAX_PHASES)
        INTERNAL_ERROR("more than %d timed phases", TIMING_MAX_PHASES);
    timing.phases[timing.num_phases].name = phase;
    timing.phases[timing.num_phases].seconds = seconds;
    timing.phases[timing.num_phases].runs = 1;
    timing.num_phases++;
}

void timing_report(FILE *out) {
    if (!timing.enabled)
        return;
    double total = timing_now() - timing.start;
    double named = 0;
    fprintf(out, "tessc time report (wall clock, ms)\n");
    for (int i = 0; i < timing.num_phases; i++) {
        named += timing.phases[i].seconds;
        fprintf(out, "  %-28s %9.2f  %5.1f%%", timing.phases[i].name, timing.phases[i].seconds * 1e3,
                total > 0 ? 100.0 * timing.phases[i].seconds / total : 0.0);
        if (timing.phases[i].runs > 1)
            fprintf(out, "  (%d runs)", timing.phases[i].runs);
        fputc('\n', out);
    }
    fprintf(out, "  %-28s %9.2f  %5.1f%%\n", "other", (total - named) * 1e3,
            total > 0 ? 100.0 * (total - named) / total : 0.0);
    fprintf(out, "  %-28s %9.2f\n", "total", total * 1e3);
}
