/*
 * tessrt_interp.h: the interpreter library's one entry point, for programs
 * that link libtessinterp.a (or libtessinterp.so) directly.
 *
 *     tessrt_register_interpreter(tessinterp_device());
 *
 * makes the interpreter linked into the program the one libtessrt uses for
 * TESSRT_DEVICE_INTERP and the interpreter device kind (tessrt.h). Programs
 * that do not call it still get the interpreter: libtessrt opens
 * libtessinterp.so the first time it is needed.
 */
#ifndef TESSRT_INTERP_H
#define TESSRT_INTERP_H

#include "tessrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The interpreter's table of entry points (never NULL). */
const tessrt_interp_device *tessinterp_device(void);

#ifdef __cplusplus
}
#endif

#endif
