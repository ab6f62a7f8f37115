/*
 * diag.c: the one place that prints user-facing diagnostics.
 *
 *     file:line:col: error: message
 *         source line
 *         ^~~~
 *
 * Columns count bytes, tabs in the echoed line are kept so the caret lines
 * up; a long line is shown as a window around the caret. Errors stop
 * printing after DIAG_MAX_ERRORS (warnings after DIAG_MAX_WARNINGS); the
 * count still grows so that the driver knows the run failed.
 *
 * With --diagnostics-format=json or sarif, each diagnostic is recorded
 * instead, with a stable code from diag_codes (a table keyed by the message
 * format: a new message gets the next free code of its group, and a code is
 * never reused), and one document is printed at exit. Notes belong to the
 * error or warning before them. The schemas are in docs/build-integration.md.
 */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const SourceFile *current_file;
static int error_count, warning_count;
static bool suppress_notes;   /* notes of an error past the limit are dropped too */
static FILE *diag_output;     /* NULL: stderr */

void diag_set_output(FILE *out) { diag_output = out; }
static FILE *diag_stream(void) { return diag_output ? diag_output : stderr; }

void diag_set_source(const SourceFile *file) { current_file = file; }
int diag_error_count(void) { return error_count; }
void diag_reset(void) { error_count = warning_count = 0; suppress_notes = false; }

/* Finds line `line` (1-based) of the current file. */
static const char *line_start(int line, size_t *length) {
    if (!current_file || line < 1)
        return NULL;
    const char *p = current_file->text, *end = p + current_file->length;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    if (p > end)
        return NULL;
    const char *q = p;
    while (q < end && *q != '\n')
        q++;
    if (q > p && q[-1] == '\r')
        q--;
    *length = (size_t)(q - p);
    return p;
}

/* The echoed line is a window of at most DIAG_SHOWN_BYTES around the
   caret, marked with "..." where it is cut, and is written with one call:
   stderr is unbuffered, and a 1 MiB line (a file of NUL bytes, generated
   code) would otherwise be a write per byte for each of the errors it has. */
enum { DIAG_SHOWN_BYTES = 160, DIAG_SHOWN_BEFORE = 60 };

static bool utf8_continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

static void show_source(Span span) {
    size_t length;
    const char *text = line_start(span.line, &length);
    if (!text)
        return;
    size_t col = span.col < 1 ? 1 : (size_t)span.col;
    size_t from = 0, to = length;
    if (length > DIAG_SHOWN_BYTES) {
        from = col - 1 > DIAG_SHOWN_BEFORE ? col - 1 - DIAG_SHOWN_BEFORE : 0;
        if (from > length - DIAG_SHOWN_BYTES)
            from = length - DIAG_SHOWN_BYTES;
        to = from + DIAG_SHOWN_BYTES;
        /* cut between characters, not inside one */
        while (from > 0 && from < length && utf8_continuation((unsigned char)text[from]))
            from++;
        while (to < length && utf8_continuation((unsigned char)text[to]))
            to--;
    }
    char buf[2 * (DIAG_SHOWN_BYTES + 16)];
    size_t n = 0;
    memcpy(buf + n, from > 0 ? "    ..." : "    ", from > 0 ? 7 : 4);
    n += from > 0 ? 7 : 4;
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)text[i];
        /* Bytes that would garble a terminal are shown as '?'. */
        buf[n++] = c == '\t' || (c >= 0x20 && c != 0x7f) ? (char)c : '?';
    }
    if (to < length) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n++] = '\n';
    fwrite(buf, 1, n, diag_stream());
    /* The caret line: tabs kept so that the caret lines up. */
    n = 0;
    memcpy(buf + n, from > 0 ? "       " : "    ", from > 0 ? 7 : 4);
    n += from > 0 ? 7 : 4;
    size_t caret = col - 1 < from ? from : col - 1 > to ? to : col - 1;
    for (size_t i = from; i < caret; i++)
        buf[n++] = text[i] == '\t' ? '\t' : ' ';
    buf[n++] = '^';
    size_t end = span.end_col > span.col ? (size_t)span.end_col - 1 : caret + 1;
    if (end > to)
        end = to;
    for (size_t i = caret + 1; i < end; i++)
        buf[n++] = '~';
    buf[n++] = '\n';
    fwrite(buf, 1, n, diag_stream());
}

/* ---- stable codes ------------------------------------------------------------ */

/* Groups: E00 command line, E01 files and -D values, E02 lexical, E03
   syntax, E04-E05 types and declarations (sema), E06 reading tile IR
   (.tir), E07 the backend's limits, E08-E09 the tile-IR verifier, W
   warnings. A new message takes the next free code of its group; a code is
   never reused for another meaning. testsuite/cli/diagnostic-codes.test
   checks that every message format in the sources is here. */
static const struct {
    const char *code;
    const char *format;
} diag_codes[] = {
    {"E0001", "unknown --emit kind '%.*s' (known: %s)"},
    {"E0002", "unknown architecture '%s' (known: %s)"},
    {"E0003", "too many architectures in --arch"},
    {"E0004", "-D expects NAME=VALUE, got '%s'"},
    {"E0005", "too many -D options"},
    {"E0006", "option '%s' needs a value"},
    {"E0007", "unknown option '%s'"},
    {"E0008", "unknown pass '%s' for --dump-after (known: %s)"},
    {"E0009", "more than one input file ('%s' and '%s')"},
    {"E0010", "no input file"},
    {"E0011", "'-o -' writes one artifact to stdout, but --emit asks for %d"},
    {"E0012", "'-o -' writes one text artifact; --emit %s needs a directory"},
    {"E0013", "'-o -' writes one artifact to stdout, but this run makes %d (one per kernel%s); use -k and --arch to pick one"},
    {"E0014", "--emit tokens and ast need a .tess input"},
    {"E0015", "no kernel named '%s' in '%s'"},
    {"E0016", "unknown --diagnostics-format '%s' (known: text, json, sarif)"},
    {"E0017", "--check-golden and --update-golden cannot be used together"},
    {"E0018", "-o cannot be used with %s"},
    {"E0019", "-MD writes FILE.d beside the outputs; with '-o -' name it with -MF FILE"},
    {"E0020", "-MD and -MF cannot be used with %s"},
    {"E0021", "-Xptxas: empty option in '%s'"},
    {"E0022", "-Xptxas: '%s' is not an option (write an option's value as --name=value)"},
    {"E0023", "-Xptxas: tessc sets '%s' itself (use --arch and -o)"},
    {"E0024", "-D %s given twice"},
    {"E0025", "unknown --hopper-schedule '%s' (known: auto, lockstep, release, pingpong, producer, producer-pingpong)"},
    {"E0026", "unknown --grid-order '%s' (known: auto, launch, heavy-first)"},
    {"E0027", "unknown --stationary '%s' (known: auto, registers, shared)"},
    {"E0028", "unknown --overlap '%s' (known: off, rotate)"},
    {"E0029", "unknown --grid '%s' (known: auto, per-tile, persistent, persistent-handoff)"},
    {"E0101", "cannot open '%s': %s"},
    {"E0102", "'%s' is a directory"},
    {"E0103", "'%s' is larger than %d MiB"},
    {"E0104", "cannot read '%s'"},
    {"E0105", "cannot create a file in '%s': %s"},
    {"E0106", "cannot write '%s': %s"},
    {"E0107", "cannot create directory '%s': %s"},
    {"E0108", "'%s' is not a directory"},
    {"E0109", "cannot read golden file '%s': %s (write it with --update-golden %s)"},
    {"E0110", "-D %s: no kernel has a compile-time parameter named '%s'"},
    {"E0111", "-D %s=%s: the value must be an integer or a number"},
    {"E0112", "cannot write to standard output: %s"},
    {"E0113", "the manifest names its files after '%s', which is not valid UTF-8; rename the input"},
    {"E0114", "'%s' is not a regular file"},
    {"E0115", "-D %s=%s: the integer is out of range (-2^63 .. 2^63 - 1)"},
    {"E0116", "-D %s=%s: the float overflows a double"},
    {"E0117", "-D %s=%s: a compile-time value must be a finite number (the manifest records it as a JSON number)"},
    {"E0201", "unterminated comment"},
    {"E0202", "invalid numeric literal '%s'"},
    {"E0203", "NUL byte in source"},
    {"E0204", "unexpected character '%s'"},
    {"E0205", "invalid UTF-8 byte 0x%02x"},
    {"E0206", "unexpected character '\\x%02x'"},
    {"E0207", "unexpected character '%c'"},
    {"E0208", "integer literal '%.*s' is too large"},
    {"E0209", "floating-point literal '%.*s' is too large"},
    {"E0214", "unterminated string: a string ends with '\"' on its line"},
    {"E0215", "a string holds printable ASCII other than '\\' (there are no escapes)"},
    {"E0301", "only '.T' (transpose) is supported after '.', not '.%s'"},
    {"E0302", "unknown memory space '@%s' (expected '@global' or '@shared')"},
    {"E0303", "duplicate '%s' clause"},
    {"E0304", "expression nested too deeply"},
    {"E0305", "the default of a compile-time parameter must be a literal, a name or an expression in parentheses"},
    {"E0306", "comparison operators cannot be chained; use '&&' or parentheses"},
    {"E0307", "expected ';' after %s"},
    {"E0308", "unexpected %s"},
    {"E0309", "expected %s, found %s"},
    {"E0310", "blocks nested too deeply (more than %d levels)"},
    {"E0311", "expression nested too deeply (more than %d levels); split it with 'let'"},
    {"E0312", "'%s' is a keyword and cannot be a name"},
    {"E0315", "'%s' is not a statement in Tessera; %s"},
    {"E0316", "'return' takes no value in Tessera; a kernel's results are what it stores into its 'out' arrays"},
    {"E0401", "'%s' is already defined"},
    {"E0402", "%s has a dim of symbolic size '%s'; tiles need static shapes (take a static block of it, e.g. with ds(start, SIZE))"},
    {"E0403", "%s has shape %s; every tile dim must be a power of two (dim %d is %lld): layouts split a dim over registers, lanes and warps in halves; make the block %lld and mask the rest (load(..., other = ...), a store mask or where())"},
    {"E0404", "%s has shape %s, more than %d elements; tiles must fit on chip"},
    {"E0405", "division by zero in a constant expression"},
    {"E0406", "%s must be an integer known at compile time"},
    {"E0407", "'%s' is a ref, not a value; read it with '%s[...]'"},
    {"E0408", "a ref is not a value; index it to read it ('r[...]')"},
    {"E0409", "a type is not a value here"},
    {"E0410", "this call gives no value"},
    {"E0411", "a float literal cannot take the dtype %s of the other operand of %s; cast with 'as'"},
    {"E0412", "a number cannot be combined with a bool tile in %s"},
    {"E0413", "mixed dtypes %s and %s in %s; cast one side with 'as'"},
    {"E0414", "shapes %s and %s do not broadcast in %s"},
    {"E0415", "%s needs bool operands, got %s and %s"},
    {"E0416", "%s is not defined on bool values"},
    {"E0417", "'!' needs a bool operand, got %s"},
    {"E0418", "unary '-' is not defined on bool values"},
    {"E0419", "undefined name '%s'"},
    {"E0420", "slice 'a:' of a dim of symbolic size '%s' has no static end; use ds(start, size)"},
    {"E0421", "slice %lld:%lld is empty or outside a dim of size %lld"},
    {"E0422", "slice %lld:%lld is empty"},
    {"E0423", "%d ind%s for a ref of rank %d (%s)"},
    {"E0424", "only one '...' is allowed in an index"},
    {"E0425", "'None' adds a dim to a tile, not to a ref; load first ('r[...][:, None]')"},
    {"E0426", "ds() has no keyword argument '%s'"},
    {"E0427", "ds() takes 2 arguments (start, size), got %d"},
    {"E0428", "the start of ds() must be an i32 scalar, got %s"},
    {"E0429", "the size of ds() must be known at compile time; '%s' is a symbolic size, known only at launch"},
    {"E0430", "the size of ds() must be positive, got %lld"},
    {"E0431", "a ref index must be an i32 scalar, ':', a slice or ds(start, size); got %s"},
    {"E0432", "%d ind%s for a tile of rank %d"},
    {"E0433", "a tile has at most %d dims; this index gives %d"},
    {"E0434", "ds() selects from a ref; a tile takes static slices 'a:b'"},
    {"E0435", "index %lld is outside a dim of size %lld"},
    {"E0436", "a positional argument cannot follow a keyword argument"},
    {"E0437", "%s() has no keyword argument '%s'"},
    {"E0438", "keyword argument '%s' given twice"},
    {"E0439", "%s() takes %d argument%s, got %d"},
    {"E0440", "%s() takes %d to %d arguments, got %d"},
    {"E0441", "a shape is written as a list of sizes, e.g. [128, 64]"},
    {"E0442", "a tile has at most %d dims"},
    {"E0443", "expected a dtype such as f32"},
    {"E0444", "axis %lld does not exist: the value is a scalar"},
    {"E0445", "axis %lld does not exist in a tile of rank %d (axes 0..%d)"},
    {"E0446", "the first argument of %s() must be a ref place such as x[...], got %s"},
    {"E0447", "cannot store to '%s': it is an 'in' parameter"},
    {"E0448", "cannot store to a read-only ref"},
    {"E0449", "cannot store %s into %s; cast with 'as %s'"},
    {"E0450", "cannot store a float literal into %s"},
    {"E0451", "cannot store a value of shape %s into a place of shape %s"},
    {"E0452", "a mask must be a bool tile, got %s"},
    {"E0453", "a mask of shape %s does not broadcast to %s"},
    {"E0454", "%s() needs a %s tile, got %s"},
    {"E0455", "%s() %s a tile; give it a tile, not a literal"},
    {"E0456", "%s() is not defined on bool tiles"},
    {"E0457", "dot() takes two rank-2 tiles ([m, k] and [k, n]), got %s and %s"},
    {"E0458", "dot() inner sizes differ: %s and %s (%lld != %lld)"},
    {"E0459", "dot() of %s and %s is not supported; it takes two f16, two bf16, two f32 (computed as tf32), two i8 or two fp8 (f8e4m3, f8e5m2) tiles"},
    {"E0460", "alloc() takes a shaped type, e.g. alloc(f32[128, 64] @shared)"},
    {"E0461", "alloc() makes @shared memory; @global memory comes only from kernel parameters"},
    {"E0462", "a ref has at most %d dims"},
    {"E0463", "shared allocation dim %lld is out of range"},
    {"E0464", "this allocation brings kernel '%s' to %ld bytes of shared memory, over the %ld bytes that %s allows"},
    {"E0465", "unknown function '%s'"},
    {"E0466", "ds(start, size) is only allowed as an index of a ref"},
    {"E0467", "%s() is known only when the kernel runs; it cannot be used in a const, a compile-time parameter's default or an array dim"},
    {"E0468", "axis %lld does not exist: the grid has %d dimension%s"},
    {"E0469", "the fill value of full() must be a scalar, got %s"},
    {"E0470", "the fill value %s does not match the dtype %s"},
    {"E0471", "%s() needs %s operands, got %s and %s"},
    {"E0472", "the condition of where() must be a bool tile, got %s"},
    {"E0473", "the condition's shape %s does not broadcast with %s"},
    {"E0474", "'other' of %s does not match the loaded dtype %s"},
    {"E0475", "'other' of shape %s does not broadcast to %s"},
    {"E0476", "%s() is not supported on %s"},
    {"E0477", "'.T' needs a tile of rank 2 or more, got %s"},
    {"E0478", "a list is only allowed as a shape argument, e.g. zeros([4, 4], f32)"},
    {"E0479", "a keyword argument is only allowed in a call"},
    {"E0480", "'%s' is only allowed inside an index"},
    {"E0481", "'_' is only allowed as a block dim"},
    {"E0482", "cannot assign to ref '%s'; store into it with '%s[...] = ...'"},
    {"E0483", "cannot assign to '%s': it is a %s%s"},
    {"E0484", "'%s=' is not defined on bool values"},
    {"E0485", "cannot assign %s to var '%s' of type %s; cast with 'as %s'"},
    {"E0486", "cannot assign a float literal to var '%s' of type %s"},
    {"E0487", "cannot assign a value of shape %s to var '%s' of shape %s"},
    {"E0488", "cannot store into a tile: tiles are immutable values (store into a ref, or build a new tile with where())"},
    /* E0489 retired: a place indexed again is a place (E0524 is what is left of it) */
    {"E0489", "store through one index of the ref, e.g. 'x[a:b, i] = ...'; 'x[...][i]' reads x first"},
    {"E0490", "cannot assign to this expression; assign to a var or store into a ref place"},
    {"E0491", "the loop %s must be an i32 scalar, got %s"},
    {"E0492", "the loop step must be positive, got %lld"},
    {"E0493", "the condition of 'if' must be a bool scalar, got %s%s"},
    {"E0494", "scalar parameter '%s' is passed by value and cannot be '%s'"},
    {"E0495", "scalar parameter '%s' has no memory space"},
    {"E0496", "parameter '%s' cannot be in @shared: parameters are arrays in @global memory; shared memory comes from alloc() inside the kernel"},
    {"E0497", "parameter '%s' has %d dims; at most %d are supported"},
    {"E0498", "an array dim must be positive, got %lld"},
    {"E0499", "the index map may only use its own names, sizes and constants; '%s' is a %s"},
    {"E0500", "the index map may only call cdiv, min and max"},
    {"E0501", "block spec for '%s', which is not a parameter of kernel '%s'"},
    {"E0502", "block spec for scalar parameter '%s'; block specs apply to arrays"},
    {"E0503", "a second block spec for '%s'"},
    {"E0504", "block spec for '%s' has %d dim%s, but '%s' has rank %d"},
    {"E0505", "the index map of '%s' takes %d name%s, but the grid has %d dimension%s"},
    {"E0506", "the index map of '%s' gives %d block index%s, but '%s' has rank %d"},
    {"E0507", "a block index must be an i32 scalar, got %s"},
    {"E0508", "block dim '%s' is a symbolic size, so it must be the whole dim of '%s', which is %s"},
    {"E0509", "block dim '%s' covers the whole array dim, so its block index must be 0"},
    {"E0510", "a block dim must be positive, got %lld"},
    {"E0511", "the default of '%s' must be known at compile time"},
    {"E0526", "the block of '%s' is %lld wide along dim %d, where '%s' has %lld elements, and its block index there is always 0: elements %lld to %lld would never be read or written; make the block %lld wide, or index the dim by a program id"},
    /* E0529 retired: print and assert are built-ins (E0553-E0557) */
    {"E0530", "pow() needs float operands, got %s and %s; cast with 'as f32'"},
    {"E0531", "%s() needs a float tile, got %s (an integer is never NaN or infinite)"},
    {"E0532", "clamp() needs numeric operands, got %s"},
    {"E0533", "sign() needs a numeric tile, got %s"},
    {"E0534", "%s needs %s operands, got %s and %s%s"},
    {"E0535", "'~' needs an integer or bool operand, got %s%s"},
    {"E0536", "bitcast() needs a value of a known dtype, not a literal; write '1.0 as f32' to give it one"},
    {"E0537", "bitcast() keeps the bits: %s and %s must be of one width (8, 16, 32 or 64 bits, not bool)"},
    {"E0538", "the seed of %s() must be an integer scalar (i32, u32 or i64), got %s"},
    {"E0540", "%s() of a rank-%d tile needs 'axis = K' (it gives an index along one axis)"},
    {"E0551", "%s() of a rank-%d tile needs 'axis = K' (it scans along one axis)"},
    {"E0553", "print() takes a label first, a string: print(\"x\", x)"},
    {"E0554", "assert()'s message must be a string: assert(cond, \"what went wrong\")"},
    {"E0555", "assert() needs a bool condition (a scalar or a tile: every element must hold), got %s"},
    {"E0556", "print() shows a value of a dtype; give the literal one ('2.0 as f32')"},
    {"E0557", "a string is only the label of print() or the message of assert()"},
    {"E0558", "reshape() keeps the number of elements: %s has %lld, %s has %lld"},
    {"E0559", "permute() takes a list of %d dims, each of 0..%d once (the tile's rank is %d)"},
    {"E0560", "permute() names dim %d twice"},
    {"E0561", "%s takes two tiles of one shape, got %s and %s"},
    {"E0562", "%s takes tiles, not scalars"},
    {"E0563", "a tile index must be an integer scalar (a constant, or one known at run time), got %s"},
    {"E0564", "%s does not compute on %s values; cast with 'as f16' or 'as f32' first (fp8 is for storage, casts and dot())"},
    {"E0565", "a scalar parameter cannot be %s; pass an f32 and cast it in the kernel"},
    {"E0566", "'reverse' of %s() is true or false, known at compile time"},
    {"E0567", "flip() reverses a tile along an axis; give it a tile, not a scalar"},
    {"E0568", "flip() of a rank-%d tile needs 'axis = K'"},
    {"E0569", "array '%s' has %d dims and %d strides; give one stride per dim"},
    {"E0570", "an array stride must be 0 to 2^31 - 1, got %lld"},
    {"E0571", "%s has shape %s; every tile dim must be at least 1 (dim %d is %lld)"},
    {"E0572", "'%s' outside a loop: it must be inside a 'for' or a 'while'"},
    {"E0573", "the condition of 'while' must be a bool scalar, got %s%s"},
    {"E0574", "the default of '%s' must be a finite number (the manifest records it as a JSON number)"},
    {"E0575", "loops nested more than %d deep; tessc compiles at most %d (LLVM's loop analysis grows about twice a level)"},
    {"E0576", "blocks nest more than %d deep in the tile IR once this kernel's break, continue, return and while are lowered (each exit puts what follows it in an if); use fewer exits in a block or fewer nested loops"},
    {"E0577", "unknown function '%s': %s"},
    {"E0552", "%s() scans along an axis; give it a tile of rank 1 or more, not a scalar"},
    {"E0541", "a gathered place cannot be indexed again; index the tiles of indices instead"},
    /* E0542 retired: gather and scatter take @shared refs too */
    {"E0543", "an index with integer tiles takes a tile or a scalar in every dim; a whole dim is an iota (x[rows[:, None], iota(D)[None, :]])"},
    {"E0544", "an index tile must be i32 (or i8, i16, u8, u16), got %s; cast with 'as i32'"},
    {"E0545", "the index tiles' shapes do not broadcast together (%s and %s)"},
    {"E0546", "an index with integer tiles needs one index per dim: %d for a ref of rank %d (%s)"},
    {"E0547", "'%s=' on a gathered place: elements with the same index would race; %s"},
    {"E0550", "a shift of %s by %lld: the amount must be 0 to %d for its %d bits (a run-time amount outside that gives 0, or -1 for '>>' of a negative value)"},
    {"E0548", "broadcast_to() cannot make a value of shape %s into %s: each dim, from the right, must be 1 or the target's"},
    {"E0549", "expand_dims() needs 'axis = K', where the new unit dim goes"},
    {"E0539", "the offsets of %s() must be an i32 or u32 tile (one random number each, as 'start + iota(N)'), got %s"},
    {"E0527", "exp2_ftz() flushes results below f32's smallest normal (2^-126) and takes f16, bf16 or f32, got %s; use exp2() for f64"},
    {"E0512", "compile-time parameter '%s' has no default; set it with -D %s=VALUE"},
    {"E0513", "the grid has %d dimensions; at most 3 are allowed"},
    {"E0514", "a grid dimension must be an integer expression of sizes, i32 scalar parameters and constants (+ - * / %% cdiv min max)"},
    {"E0515", "a grid dimension must be between 1 and %d, got %lld"},
    {"E0516", "warps must be a power of two from 1 to 32, got %lld"},
    {"E0517", "stages must be from 1 to 8, got %lld"},
    {"E0518", "the value of const '%s' must be a number known at compile time"},
    {"E0519", "a second kernel named '%s'"},
    {"E0520", "kernel '%s' has the name of a const"},
    {"E0521", "integer %s by zero: the divisor is the constant 0"},
    {"E0522", "parameter '%s' (%s) is larger than 2^63 - 1 bytes"},
    {"E0523", "a grid dimension must be between 1 and %d, got %lld%s"},
    {"E0524", "cannot store into a tile: 'None' makes a tile of the place (store into the place without it)"},
    {"E0525", "a place may be indexed at most %d times in a row"},
    {"E0601", "unterminated string"},
    {"E0602", "unknown escape in string"},
    {"E0603", "NUL byte in string"},
    {"E0604", "malformed number"},
    {"E0605", "number too long"},
    {"E0606", "unexpected byte 0x%02x"},
    {"E0607", "%s out of range [%lld, %lld]"},
    {"E0608", "%s out of range"},
    {"E0609", "redefinition of '%%%s'"},
    {"E0610", "use of undefined value '%%%s'"},
    {"E0611", "'%%%s' is not visible here: it is defined in a block that has closed"},
    {"E0612", "unknown dtype '%s'"},
    {"E0613", "rank exceeds %d"},
    {"E0614", "grid expression nested too deeply"},
    {"E0615", "'%s' defines %d value%s, but %d name%s given"},
    {"E0616", "'%s' defines %d to %d values, but %d names are given"},
    {"E0617", "too many operands"},
    {"E0618", "expected %d result types, found %d"},
    {"E0619", "expected %d result type%s, found more"},
    {"E0620", "blocks nested too deeply"},
    {"E0621", "too many loop-carried values"},
    {"E0622", "'for' carries %d value%s, but %d result name%s given"},
    {"E0623", "type mismatch: initial value has type %s, but the loop carries %s"},
    {"E0624", "a %s constant needs a number"},
    {"E0625", "a bool constant is true or false"},
    {"E0626", "a %s constant needs an integer"},
    {"E0627", "view of a rank-%d value needs %d dims, found %d"},
    {"E0628", "extract from a rank-%d value needs %d starts, found %d"},
    {"E0629", "too many results"},
    {"E0630", "unknown opcode '%s'"},
    {"E0631", "too many compile-time parameters"},
    {"E0632", "a parameter name must start with a letter or '_'"},
    {"E0633", "a grid has at most 3 dimensions"},
    {"E0634", "kernel '%s' is not valid tile IR: %s"},
    {"E0635", "more index operands than a ref has dims"},
    {"E0636", "%s of a rank-%d ref needs %d index operands, found %d"},
    {"E0637", "'until' names one of the loop's iter values, not '%%%s'"},
    {"E0638", "a compile-time value must be a finite number"},
    {"E0701", "kernel '%s' needs %lld bytes of shared memory (its allocs and the compiler's staging buffers), more than the %ld bytes of %s"},
    {"E0702", "%s needs %lld registers in each of the kernel's %d threads, more than the %d a thread has; use smaller blocks or more warps"},
    {"E0703", "this %s has %lld elements in each of the kernel's %d threads, more than the %d tessc compiles; use smaller blocks or more warps"},
    {"E0704", "%s %lld registers in each of the kernel's %d threads, more than the %d a thread has; use smaller blocks or more warps"},
    {"E0705", "kernel '%s': %s"},
    {"E0706", "this %s carries a ref (%s); the GPU backend's loops and ifs carry tiles and scalars only"},
    {"E0707", "this %s has %lld elements in each of the kernel's %d threads, more than the %d a gather or scatter compiles (each is its own predicated access); use smaller blocks or more warps"},
    {"E0801", "%s is defined twice"},
    {"E0802", "%s has a malformed type"},
    {"E0803", "%s has type %s: a tile's shape must be static"},
    {"E0804", "%s has type %s: dims must be at least 1"},
    {"E0805", "%s has a malformed ref type"},
    {"E0806", "'%s' takes %d operand%s, found %d"},
    {"E0807", "'%s' takes %d to %d operands, found %d"},
    {"E0808", "'%s' has %d result%s, found %d"},
    {"E0809", "'%s' has %d to %d results, found %d"},
    {"E0810", "'%s' %s must be a tile, found %s"},
    {"E0811", "'%s' %s must be an i32 scalar, found %s"},
    {"E0812", "'%s' %s: %s and %s differ"},
    {"E0813", "'%s' of %s gives a bool tile of the same shape, not %s"},
    {"E0814", "'%s' needs bool or integer operands, found %s"},
    {"E0815", "'%s' needs a float operand, found %s"},
    {"E0816", "'%s' does not take bool operands"},
    {"E0817", "'dot' takes two rank-2 tiles, found %s and %s"},
    {"E0818", "'dot' operand dtypes differ: %s and %s"},
    {"E0819", "'dot' takes f16, bf16, f32 or i8 operands, found %s"},
    {"E0820", "'dot' inner sizes differ: %s and %s"},
    {"E0821", "'dot' of %s and %s gives %s, not %s"},
    {"E0822", "'view' of a tile (%s): only refs are viewed"},
    {"E0823", "'view' of %s cannot give %s"},
    {"E0824", "'view' has no view dims"},
    {"E0825", "'view' of %s cannot give %s (dim %d is kept whole)"},
    {"E0826", "'view' dim %d has a malformed kind"},
    {"E0827", "'view' dim %d must take operand %d as its offset"},
    {"E0828", "'view' dim %d has size %lld"},
    {"E0829", "'view' of %s cannot give %s (dim %d takes %lld)"},
    {"E0830", "'view' of %s cannot give %s (rank)"},
    {"E0831", "'view' has %d operands, its dims use %d"},
    {"E0832", "'%s' has no 'other' operand"},
    {"E0833", "'%s' needs a ref, found %s"},
    {"E0834", "'%s' of %s: the ref's shape must be static (view it first)"},
    {"E0835", "'%s' of %s needs a %s tile of the same shape, found %s"},
    {"E0836", "'%s' mask must be a bool tile of shape %s, found %s"},
    {"E0837", "'%s' into an 'in' ref"},
    {"E0838", "'atomic' has a malformed combine"},
    {"E0839", "'atomic' does not take bool values"},
    {"E0840", "'for' takes lo, hi and step, found %d operands"},
    {"E0841", "'for' carries %d values but has %d results"},
    {"E0842", "'for' needs exactly one block"},
    {"E0843", "'for' body has %d arguments, needs %d (the index and %d carried)"},
    {"E0844", "'for' index must be an i32 scalar"},
    {"E0845", "'for' body argument %d is missing"},
    {"E0846", "'if' condition must be a bool scalar, found %s"},
    {"E0847", "'if' has no then block"},
    {"E0848", "'if' with results needs an else block"},
    {"E0849", "'if' blocks take no arguments"},
    {"E0850", "'yield' must be the last op of a for or if block"},
    {"E0851", "'yield' has no results"},
    {"E0852", "'yield' gives %d values, its '%s' has %d results"},
    {"E0853", "'%s' cannot own blocks"},
    {"E0854", "'const' gives a tile, not %s"},
    {"E0855", "'const' value %lld does not fit %s"},
    {"E0856", "'%s' gives an i32 scalar, not %s"},
    {"E0857", "'%s' axis %d is not 0, 1 or 2"},
    {"E0858", "'iota' gives a rank-1 i32 tile, not %s"},
    {"E0859", "'select' condition must be a bool tile of the result's shape, found %s"},
    {"E0860", "'cast' keeps the shape: %s cannot become %s"},
    {"E0861", "'broadcast' cannot expand %s to %s"},
    {"E0862", "'reshape' keeps dtype and element count: %s cannot become %s"},
    {"E0863", "'transpose' needs rank 2 or more, found %s"},
    {"E0864", "'transpose' of %s gives %s, not %s"},
    {"E0865", "'extract' from %s cannot give %s"},
    {"E0866", "'extract' has no starts"},
    {"E0867", "'extract' of [%lld, %lld) in dim %d is outside %s"},
    {"E0868", "'%s' axis %d is outside %s"},
    {"E0869", "'%s' has a malformed combine"},
    {"E0870", "'%s' does not take bool tiles"},
    {"E0871", "'reduce' of %s over axis %d gives %s, not %s"},
    {"E0872", "'alloc' gives a ref @shared inout, not %s"},
    {"E0873", "'alloc' needs a static shape, found %s"},
    {"E0874", "unknown opcode %d"},
    {"E0875", "a block's parent_op is not the op that owns it"},
    {"E0876", "block argument %d is malformed"},
    {"E0877", "'%s' is not linked into its block properly"},
    {"E0878", "'%s' has malformed operand or result lists"},
    {"E0879", "'%s' operand %d is missing"},
    {"E0880", "'%s' operand %d is not defined before its use (dominance)"},
    {"E0881", "'%s' result %d is malformed"},
    {"E0882", "'yield' outside a for or if block"},
    {"E0883", "a block's last op is not linked properly"},
    {"E0884", "a '%s' block must end with 'yield'"},
    {"E0885", "a grid expression is malformed"},
    {"E0886", "grid names '%s', which is not a size or i32 scalar parameter"},
    {"E0887", "parameter %d is malformed"},
    {"E0888", "parameter '%s': its value must carry the parameter's name"},
    {"E0889", "parameter '%s' is declared twice"},
    {"E0890", "array parameter '%s' must be a ref @global, found %s"},
    {"E0891", "scalar parameter '%s' must be a rank-0 tile, found %s"},
    {"E0892", "size parameter '%s' must be i32, found %s"},
    {"E0893", "parameter '%s' has a malformed kind"},
    {"E0894", "parameter '%s' has dim '%s', which is not a size parameter"},
    {"E0895", "the kernel has no name or no body"},
    {"E0896", "the grid has %d dimensions, not 1 to 3"},
    {"E0897", "warps and stages must be at least 1"},
    {"E0898", "compile-time parameter %d has no name"},
    {"E0899", "the kernel body takes no arguments"},
    {"E0901", "'%%%s' is not a parameter of the kernel"},
    {"E0900", "cover %d is not a dim of symbolic size of an array parameter, with a positive block"},
    {"E0902", "'async_copy' copies into a writable @shared ref, not %s"},
    {"E0903", "'async_copy' copies from a @global ref, not %s"},
    {"E0904", "'async_copy' refs must have static shapes (view them first)"},
    {"E0905", "'async_copy' from %s into %s: dtype and shape must agree"},
    {"E0906", "'async_copy' mask must be a bool tile of the refs' shape, found %s"},
    {"E0907", "'async_wait' of %lld pending groups (0..64)"},
    {"E0908", "'async_copy' copies from an 'in' ref (nothing writes it while the copy is in flight), not %s"},
    {"E0909", "'exp2_ftz' needs an f16, bf16 or f32 operand, found %s"},
    {"E0910", "'%s' needs integer operands, found %s"},
    {"E0911", "'bitcast' keeps the shape and the width: %s cannot become %s"},
    {"E0912", "'%s' needs a ref first"},
    /* E0913 retired: gather and scatter take @shared refs too */
    {"E0914", "'%s' of %s needs a %s tile, found %s"},
    {"E0915", "'%s' index %d must be an i32 tile of shape %s, found %s"},
    {"E0916", "'scatter_atomic' needs add, max or min of a numeric dtype"},
    /* E0917-E0919 retired: scan's axis, combine and bool checks are reduce's (E0868-E0870) */
    {"E0920", "'scan' of %s gives %s, not %s"},
    {"E0921", "'print' has no label"},
    {"E0922", "'assert' condition must be a bool tile, found %s"},
    {"E0923", "'assert' has no message"},
    {"E0924", "permute of a rank-%d value needs %d dims, found %d"},
    {"E0925", "'permute' has no dims"},
    {"E0926", "'permute' dims of %s must name each dim once"},
    {"E0927", "'permute' of %s gives %s, not %s"},
    {"E0928", "'flip' along axis %d of %s, which has no such axis"},
    {"E0929", "'flip' of %s gives %s, not %s"},
    {"E0930", "array parameter '%s': stride %d must be a size parameter or a constant >= 0"},
    {"E0931", "'for' ends on carried value %lld, but it carries %d"},
    {"E0932", "'for' ends on a carried value that is not a bool scalar"},
    {"E0933", "resident_blocks() may only be the second operand of grid (min(TILES, resident_blocks()))"},
    {"W0001", "this expression's value is unused"},
    {"W0002", "no ptxas found ($PTXAS, PATH, /usr/local/cuda/bin); cubins skipped"},
};

/* Whether `text` is what printf could make of `format`: each conversion
   matches any run of characters. */
static bool diag_matches(const char *format, const char *text) {
    while (*format) {
        if (format[0] == '%' && format[1] == '%') {
            if (*text != '%')
                return false;
            format += 2, text++;
            continue;
        }
        if (format[0] == '%') {
            const char *end = format + 1 + strspn(format + 1, "0123456789.*-+ #lhzjt");
            if (*end == '\0')
                return false;
            format = end + 1;
            for (const char *t = text;; t++) {
                if (diag_matches(format, t))
                    return true;
                if (!*t)
                    return false;
            }
        }
        if (*format != *text)
            return false;
        format++, text++;
    }
    return *text == '\0';
}

/* How much of a format is literal text: the longest match is the most specific. */
static size_t diag_literal_length(const char *format) {
    size_t n = 0;
    for (const char *p = format; *p; p++) {
        if (p[0] == '%' && p[1] != '%') {
            p += 1 + strspn(p + 1, "0123456789.*-+ #lhzjt");
            if (!*p)
                break;
        } else {
            n++;
            p += p[0] == '%';
        }
    }
    return n;
}

const char *diag_code_of(const char *message) {
    const char *best = "E0000";
    size_t best_length = 0;
    for (size_t i = 0; i < sizeof diag_codes / sizeof diag_codes[0]; i++) {
        size_t n = diag_literal_length(diag_codes[i].format);
        if (n >= best_length && diag_matches(diag_codes[i].format, message)) {
            best = diag_codes[i].code;
            best_length = n;
        }
    }
    return best;
}

/* ---- recorded diagnostics (json, sarif) ---------------------------------------- */

typedef struct DiagRecord {
    const char *level;          /* "error", "warning", "note" */
    const char *code;           /* NULL for notes */
    char *file;                 /* NULL: none */
    Span span;                  /* line 0: no position */
    char *message;
} DiagRecord;

static DiagFormat diag_current_format = DIAG_TEXT;
static DiagRecord *diag_records;
static int diag_num_records, diag_cap_records;
static bool diag_finished;

static char *diag_strdup(const char *s) {
    char *copy = s ? strdup(s) : NULL;
    if (s && !copy)
        fatal_out_of_memory();
    return copy;
}

static void diag_record(const char *level, Span span, const char *file, const char *message) {
    if (diag_num_records == diag_cap_records) {
        diag_cap_records = diag_cap_records ? 2 * diag_cap_records : 32;
        diag_records = realloc(diag_records, sizeof *diag_records * (size_t)diag_cap_records);
        if (!diag_records)
            fatal_out_of_memory();
    }
    bool note = strcmp(level, "note") == 0;
    diag_records[diag_num_records++] = (DiagRecord){
        level, note ? NULL : diag_code_of(message), diag_strdup(file), span, diag_strdup(message)};
}

static void diag_at_exit(void) { diag_finish(); }

void diag_set_format(DiagFormat format) {
    static bool registered;
    diag_current_format = format;
    if (format != DIAG_TEXT && !registered) {
        registered = true;
        atexit(diag_at_exit);
    }
}

DiagFormat diag_format(void) { return diag_current_format; }

/* A JSON string. File names and messages can hold bytes that are not
   UTF-8 (a file name is any bytes but '/' and NUL); JSON text must be
   UTF-8, so each such byte becomes U+FFFD. */
static void diag_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int n = *p >= 0x80 ? utf8_length((const char *)p) : 1;
        if (n == 0) {
            fputs("\xef\xbf\xbd", out);
        } else if (n > 1) {
            fwrite(p, 1, (size_t)n, out);
            p += n - 1;
        } else if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void diag_json_location(FILE *out, const DiagRecord *r) {
    fputs("\"file\": ", out);
    if (r->file)
        diag_json_string(out, r->file);
    else
        fputs("null", out);
    if (r->span.line > 0)
        fprintf(out, ", \"line\": %d, \"column\": %d, \"end_column\": %d", r->span.line, r->span.col,
                r->span.end_col > r->span.col ? r->span.end_col : r->span.col + 1);
    else
        fputs(", \"line\": null, \"column\": null, \"end_column\": null", out);
}

/* {"version": 1, "tool": ..., "diagnostics": [{level, code, message, file,
   line, column, end_column, notes: [{message, file, ...}]}]} */
static void diag_print_json(FILE *out) {
    fprintf(out, "{\n  \"version\": 1,\n  \"tool\": \"tessc\",\n  \"tool_version\": \"%s\",\n  \"diagnostics\": [",
            TESSC_VERSION);
    bool first = true;
    for (int i = 0; i < diag_num_records; i++) {
        const DiagRecord *r = &diag_records[i];
        if (!r->code)
            continue;   /* a note, printed with its diagnostic */
        fprintf(out, "%s\n    {\"level\": \"%s\", \"code\": \"%s\", \"message\": ", first ? "" : ",", r->level,
                r->code);
        first = false;
        diag_json_string(out, r->message);
        fputs(", ", out);
        diag_json_location(out, r);
        fputs(", \"notes\": [", out);
        for (int j = i + 1; j < diag_num_records && !diag_records[j].code; j++) {
            fputs(j > i + 1 ? ", {\"message\": " : "{\"message\": ", out);
            diag_json_string(out, diag_records[j].message);
            fputs(", ", out);
            diag_json_location(out, &diag_records[j]);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", out);
}

static void diag_sarif_location(FILE *out, const DiagRecord *r) {
    fputs("{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
    diag_json_string(out, r->file ? r->file : "tessc");
    fputc('}', out);
    if (r->span.line > 0)
        fprintf(out, ", \"region\": {\"startLine\": %d, \"startColumn\": %d, \"endColumn\": %d}", r->span.line,
                r->span.col, r->span.end_col > r->span.col ? r->span.end_col : r->span.col + 1);
    fputs("}}", out);
}

/* SARIF 2.1.0: one run, a rule per code used, a result per error or warning,
   its notes as related locations. */
static void diag_print_sarif(FILE *out) {
    fprintf(out,
            "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
            "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"tessc\", \"version\": \"%s\", "
            "\"rules\": [",
            TESSC_VERSION);
    /* rules: each code once, in order of first use */
    const char **rules = calloc((size_t)diag_num_records + 1, sizeof *rules);
    int num_rules = 0;
    for (int i = 0; rules && i < diag_num_records; i++) {
        const char *code = diag_records[i].code;
        bool seen = !code;
        for (int j = 0; j < num_rules && !seen; j++)
            seen = strcmp(rules[j], code) == 0;
        if (seen)
            continue;
        rules[num_rules++] = code;
        const char *format = "";
        for (size_t k = 0; k < sizeof diag_codes / sizeof diag_codes[0]; k++)
            if (strcmp(diag_codes[k].code, code) == 0)
                format = diag_codes[k].format;
        fprintf(out, "%s\n      {\"id\": \"%s\", \"shortDescription\": {\"text\": ", num_rules > 1 ? "," : "", code);
        diag_json_string(out, format[0] ? format : "(no code)");
        fputs("}}", out);
    }
    fputs(num_rules ? "\n    ]}},\n" : "]}},\n", out);
    fputs("    \"columnKind\": \"unicodeCodePoints\",\n    \"results\": [", out);
    bool first = true;
    for (int i = 0; i < diag_num_records; i++) {
        const DiagRecord *r = &diag_records[i];
        if (!r->code)
            continue;
        int rule = 0;
        for (int j = 0; j < num_rules; j++)
            if (strcmp(rules[j], r->code) == 0)
                rule = j;
        fprintf(out, "%s\n      {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ",
                first ? "" : ",", r->code, rule, r->level);
        first = false;
        diag_json_string(out, r->message);
        fputs("}, \"locations\": [", out);
        diag_sarif_location(out, r);
        fputc(']', out);
        if (i + 1 < diag_num_records && !diag_records[i + 1].code) {
            fputs(", \"relatedLocations\": [", out);
            for (int j = i + 1; j < diag_num_records && !diag_records[j].code; j++) {
                fputs(j > i + 1 ? ", " : "", out);
                /* a location with a message: the note */
                fputs("{\"message\": {\"text\": ", out);
                diag_json_string(out, diag_records[j].message);
                fputs("}, \"physicalLocation\": ", out);
                fputs("{\"artifactLocation\": {\"uri\": ", out);
                diag_json_string(out, diag_records[j].file ? diag_records[j].file : "tessc");
                fputc('}', out);
                if (diag_records[j].span.line > 0)
                    fprintf(out, ", \"region\": {\"startLine\": %d, \"startColumn\": %d}", diag_records[j].span.line,
                            diag_records[j].span.col);
                fputs("}}", out);
            }
            fputc(']', out);
        }
        fputc('}', out);
    }
    fputs(first ? "]\n  }]\n}\n" : "\n    ]\n  }]\n}\n", out);
    free(rules);
}

void diag_finish(void) {
    if (diag_current_format == DIAG_TEXT || diag_finished)
        return;
    diag_finished = true;
    fflush(stdout);
    if (diag_current_format == DIAG_JSON)
        diag_print_json(diag_stream());
    else
        diag_print_sarif(diag_stream());
    fflush(diag_stream());
    for (int i = 0; i < diag_num_records; i++) {
        free(diag_records[i].file);
        free(diag_records[i].message);
    }
    free(diag_records);
    diag_records = NULL;
    diag_num_records = diag_cap_records = 0;
}

/* ---- printing ------------------------------------------------------------------ */

static void report(const char *kind, Span span, const char *fmt, va_list ap) {
    if (diag_current_format != DIAG_TEXT) {
        char message[2048];
        vsnprintf(message, sizeof message, fmt, ap);
        diag_record(kind, span, current_file ? current_file->name : NULL, message);
        return;
    }
    const char *name = current_file ? current_file->name : "tessc";
    if (span.line > 0)
        fprintf(diag_stream(), "%s:%d:%d: %s: ", name, span.line, span.col, kind);
    else
        fprintf(diag_stream(), "%s: %s: ", name, kind);
    vfprintf(diag_stream(), fmt, ap);
    fputc('\n', diag_stream());
    if (span.line > 0)
        show_source(span);
}

void diag_error(Span span, const char *fmt, ...) {
    error_count++;
    if (error_count > DIAG_MAX_ERRORS) {
        suppress_notes = true;
        if (error_count == DIAG_MAX_ERRORS + 1 && diag_current_format == DIAG_TEXT)
            fprintf(diag_stream(), "tessc: too many errors (%d); stopping here\n", DIAG_MAX_ERRORS);
        return;
    }
    suppress_notes = false;
    va_list ap;
    va_start(ap, fmt);
    report("error", span, fmt, ap);
    va_end(ap);
}

void diag_note(Span span, const char *fmt, ...) {
    if (suppress_notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    report("note", span, fmt, ap);
    va_end(ap);
}

/* Warnings have a cap of their own: a generated file can have a warning a
   line, and past the cap they only bury the errors. */
void diag_warning(Span span, const char *fmt, ...) {
    if (++warning_count > DIAG_MAX_WARNINGS) {
        suppress_notes = true;
        if (warning_count == DIAG_MAX_WARNINGS + 1 && diag_current_format == DIAG_TEXT)
            fprintf(diag_stream(), "tessc: too many warnings (%d); not showing more\n", DIAG_MAX_WARNINGS);
        return;
    }
    suppress_notes = false;
    va_list ap;
    va_start(ap, fmt);
    report("warning", span, fmt, ap);
    va_end(ap);
}

/* "tessc: error: message", or "tessc: warning: message". */
static void report_plain(const char *kind, const char *fmt, va_list ap) {
    if (diag_current_format != DIAG_TEXT) {
        char message[2048];
        vsnprintf(message, sizeof message, fmt, ap);
        diag_record(kind, (Span){0, 0, 0}, NULL, message);
        return;
    }
    fprintf(diag_stream(), "tessc: %s: ", kind);
    vfprintf(diag_stream(), fmt, ap);
    fputc('\n', diag_stream());
}

void diag_error_plain_v(const char *fmt, va_list ap) {
    error_count++;
    report_plain("error", fmt, ap);
}

void diag_error_plain(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_error_plain_v(fmt, ap);
    va_end(ap);
}

void diag_warning_plain(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_plain("warning", fmt, ap);
    va_end(ap);
}

/* ---- source files ------------------------------------------------------------ */

/* Reads a whole source file into `arena`, NUL-terminated. The driver and
   `tessc run` both read their input here, so both refuse the same files
   with the same messages. */
enum { MAX_SOURCE_BYTES = 64 << 20 };   /* a kernel file is small; this is a sanity bound */

/* Opens an input without ever waiting in open(): a FIFO with no writer
   blocks there (forever, for a build), so the file is opened O_NONBLOCK,
   must be a regular file, and is then read normally. Anything else (a
   FIFO, a device, a socket) is refused: reading a pipe or /dev/zero as a
   kernel file is no use a build can rely on. NULL with errno set, or with
   *refused saying why ("is a directory", "is not a regular file"). */
FILE *source_open(const char *path, const char **refused) {
    *refused = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        *refused = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
        close(fd);
        return NULL;
    }
    FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f)
        close(fd);
    return f;
}

bool source_read(Arena *arena, const char *path, SourceFile *file) {
    const char *refused;
    FILE *f = source_open(path, &refused);
    if (!f) {
        if (refused && strcmp(refused, "is a directory") == 0)
            diag_error_plain("'%s' is a directory", path);
        else if (refused)
            diag_error_plain("'%s' is not a regular file", path);
        else
            diag_error_plain("cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text)
            fatal_out_of_memory();
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (len > MAX_SOURCE_BYTES) {
            diag_error_plain("'%s' is larger than %d MiB", path, MAX_SOURCE_BYTES >> 20);
            free(text);
            fclose(f);
            return false;
        }
        if (n == 0)
            break;
        if (len + 1 == cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        diag_error_plain("cannot read '%s'", path);
        free(text);
        return false;
    }
    text[len] = '\0';
    file->name = path;
    file->text = arena_strndup(arena, text, len);
    file->length = len;
    free(text);
    return true;
}
