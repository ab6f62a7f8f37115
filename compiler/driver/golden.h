/*
 * golden.h: comparing a run's text artifacts with golden files (golden.c),
 * for tessc --check-golden.
 */
#ifndef TESSERA_GOLDEN_H
#define TESSERA_GOLDEN_H

#include "base.h"

/* One artifact as the run would write it. */
typedef struct GoldenFile {
    const char *name;      /* file name, e.g. "relu.relu.sm_90.ptx" */
    const char *data;
    size_t size;
} GoldenFile;

/* Compares each file with dir/NAME after normalising tool-version lines, and
   prints a unified diff to `out` for each that differs. Sets *differences to
   the number of files that differ or are missing; false when a golden file
   cannot be read (reported as an error). */
bool golden_check(const char *dir, const GoldenFile *files, int num_files, FILE *out, int *differences);

#endif
