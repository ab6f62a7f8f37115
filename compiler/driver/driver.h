/*
 * driver.h: what the driver's two commands share: `tessc` (main.c) and
 * `tessc run` (run.c).
 */
#ifndef TESSERA_DRIVER_H
#define TESSERA_DRIVER_H

#include <stddef.h>

/* The value of an option given as "-x VALUE", "-xVALUE", "--opt VALUE" or
   "--opt=VALUE" (`prefix`: the length of the option's name in `arg`),
   advancing *i past a separate value; NULL when the value is missing. */
const char *driver_option_value(int argc, char **argv, int *i, const char *arg, size_t prefix);

/* `tessc run` (run.c): its exit status. */
int run_main(int argc, char **argv);

#endif
