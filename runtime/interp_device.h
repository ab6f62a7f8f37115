/*
 * interp_device.h: the interpreter as libtessrt sees it, a table of three
 * entry points (the "plugin ABI" between libtessrt and libtessinterp).
 *
 * libtessrt (runtime/device.c) calls the table; libtessinterp
 * (runtime/interp_device.c, over compiler/interp/interp.c) fills it in. The table
 * reaches libtessrt either from a program that links libtessinterp.a and
 * calls tessrt_register_interpreter(tessinterp_device()), or through dlopen
 * of libtessinterp.so and dlsym of "tessinterp_device". The interpreter side
 * calls nothing in libtessrt, so the shared object loads into a program that
 * linked libtessrt statically; only tessrt.h's types cross the boundary.
 *
 * A change to the table or to the tessrt.h types it uses bumps
 * TESSRT_INTERP_ABI; libtessrt refuses a table of another version.
 */
#ifndef TESSRT_INTERP_DEVICE_H
#define TESSRT_INTERP_DEVICE_H

#include "tessrt.h"

#define TESSRT_INTERP_ABI 2

/* ABI 2 (from 1): launch returns a status, so that the interpreter's running
   out of memory is TESSRT_ERROR_OUT_OF_MEMORY rather than the end of the
   process; load_text reads tile IR that the manifest holds itself. */
struct tessrt_interp_device {
    int abi;                     /* TESSRT_INTERP_ABI */
    const char *version;         /* "tessera interpreter 0.1.0" */
    /* Reads the tile IR file at `path`, verifies it and finds the kernel
       `name`, whose parameters must be `params` (the manifest's, in launch
       order). Returns the loaded kernel, or NULL with a message in err and
       the status in *status (TESSRT_ERROR_NO_ARTIFACT for IR that is
       missing, bad or does not match; TESSRT_ERROR_OUT_OF_MEMORY). */
    void *(*load)(const char *path, const char *name, const tessrt_param_info *params,
                  int num_params, tessrt_status *status, char *err, size_t errsize);
    /* The same for tile IR text held in memory (`length` bytes, not
       necessarily NUL-terminated); `label` names it in messages. */
    void *(*load_text)(const char *text, size_t length, const char *label, const char *name,
                       const tessrt_param_info *params, int num_params, tessrt_status *status,
                       char *err, size_t errsize);
    /* Runs the loaded kernel over its whole grid. `args` passed libtessrt's
       checks (count, kinds, scalar dtypes, sizes, contracts); an array's
       pointer is a host address. TESSRT_OK, or with a message in err
       TESSRT_ERROR_INTERPRETER when the interpreter catches an error in the
       kernel (or in its launch contract), TESSRT_ERROR_OUT_OF_MEMORY when
       host memory runs out (the process goes on; the kernel stays loaded). */
    tessrt_status (*launch)(void *kernel, const tessrt_arg *args, int num_args, char *err,
                            size_t errsize);
    void (*unload)(void *kernel);
};

#endif
