/*
 * linear_layout.h: layouts as one general map (the model is Triton's linear
 * layouts, include/triton/Tools/LinearLayout.h, and the "Linear Layouts"
 * paper, arXiv 2505.23819). No LLVM in it.
 *
 * A LinearLayout maps named input dims to named output dims:
 *
 *   distributed  (register, lane, warp)  -> tile coordinates (dim0, dim1, ...)
 *   shared       (offset)                -> tile coordinates
 *   an inverse   (dim0, dim1, ...)       -> (offset)         (linear_invert)
 *
 * Every input dim of size 2^k has k basis vectors, one per bit; a basis is a
 * tuple with one value per output dim. The image of an input is the XOR of
 * the bases of its set bits, dim by dim: a linear map over GF(2). A zero
 * basis is replication (flipping that bit reaches the same element: several
 * lanes or warps hold copies); linear_free_bits says which bits are free.
 *
 * Mixed-radix registers. Tessera's blocked layouts put a dim whose size is
 * not a power of two (say 3 or 96) wholly in every thread's registers, and a
 * wgmma accumulator of N = 24 has N/8 = 3 column blocks: neither is linear
 * over GF(2). The register input is therefore a mixed-radix number: a list of
 * parts from least significant, each either LINEAR (bits whose bases are in
 * bases[register]) or AFFINE (a digit of any radix r that adds digit * stride
 * to one output dim, as an integer). The image of a register index is
 *
 *     out = XOR of the linear parts' bases of its bits  +  sum of affine digit * stride
 *
 * (integer + per dim). Builders only put an affine part on a dim that no
 * linear basis touches (a register-only dim), or at a stride past every
 * linear value on that dim (wgmma column blocks at stride 8 above columns
 * 0..7), so + never carries into a linear bit. Only the register input may
 * be mixed-radix; a layout with no affine part is "linear" and is what
 * compose, invert and the basis-based conversion test need (the others work
 * on any layout, by enumeration where they must).
 *
 * Padded row-major shared memory ([m][k + 8], what llvm_dot.c stages) is
 * not a bijection onto its offsets (the pad holes) and its pitch is not a
 * power of two, so it is not a LinearLayout: a LinearShared describes shared
 * memory either by a swizzled or plain layout (offset -> coordinates, which
 * must be invertible) or by integer strides (offset = sum coord * stride),
 * and the vector-width and bank-conflict queries take either.
 */
#ifndef TESSERA_LINEAR_LAYOUT_H
#define TESSERA_LINEAR_LAYOUT_H

#include "codegen.h"

enum {
    LINEAR_MAX_DIMS = IR_MAX_RANK,     /* input and output dims */
    LINEAR_MAX_BITS = 24,              /* bits per input dim (2^24 elements) */
    LINEAR_MAX_PARTS = 2 * IR_MAX_RANK /* register parts */
};

/* Names of dims: the three hardware inputs, the shared offset, tile dims. */
typedef enum LinearDimName {
    LINEAR_REGISTER,
    LINEAR_LANE,
    LINEAR_WARP,
    LINEAR_OFFSET,
    LINEAR_TILE0                       /* LINEAR_TILE0 + d: tile dim d */
} LinearDimName;

/* One part of the mixed-radix register index (see the file comment). */
typedef struct LinearPart {
    bool affine;
    int bits;                          /* linear: this many bits of bases[0] */
    int first;                         /* linear: its first bit in bases[0] */
    int radix;                         /* affine: digit in [0, radix), radix >= 2 */
    int dim;                           /* affine: output dim it moves */
    int64_t stride;                    /* affine: coordinate step per digit */
} LinearPart;

typedef struct LinearLayout {
    int num_in, num_out;
    LinearDimName in_name[LINEAR_MAX_DIMS], out_name[LINEAR_MAX_DIMS];
    int in_bits[LINEAR_MAX_DIMS];      /* linear bits per input dim */
    int64_t out_size[LINEAR_MAX_DIMS]; /* size of each output dim */
    int32_t bases[LINEAR_MAX_DIMS][LINEAR_MAX_BITS][LINEAR_MAX_DIMS];
    /* Input dim 0 as a mixed-radix number; num_parts == 0 means one linear
       part of in_bits[0] bits. */
    int num_parts;
    LinearPart parts[LINEAR_MAX_PARTS];
} LinearLayout;

/* ---- the map ------------------------------------------------------------------ */

/* An empty layout: inputs `in` (n_in of them, 0 bits each), outputs `out`
   with sizes `out_size`. Builders add bases with linear_add_bit. */
void linear_init(LinearLayout *l, int n_in, const LinearDimName *in, int n_out, const LinearDimName *out,
                 const int64_t *out_size);
/* Appends one bit to input dim `in` with basis `basis` (num_out values);
   for dim 0 of a mixed-radix layout it also extends or opens the most
   significant linear part. */
void linear_add_bit(LinearLayout *l, int in, const int32_t *basis);
/* Appends an affine register digit (most significant so far). */
void linear_add_affine(LinearLayout *l, int radix, int dim, int64_t stride);
/* Whether the layout has no affine part (a pure GF(2) map). */
bool linear_is_linear(const LinearLayout *l);
/* Size of input dim `in` (2^bits, times the affine radices for dim 0). */
int64_t linear_in_size(const LinearLayout *l, int in);
/* Index of the input (output) dim named `name`, or -1. */
int linear_in_index(const LinearLayout *l, LinearDimName name);
int linear_out_index(const LinearLayout *l, LinearDimName name);

/* The image of one input point: in[i] for each input dim -> out[d]. */
void linear_apply(const LinearLayout *l, const int64_t *in, int64_t *out);
/* A distributed layout at (register, lane, warp). */
void linear_apply_thread(const LinearLayout *l, int64_t reg, int64_t lane, int64_t warp, int64_t *coords);

/* Same dims, sizes, bases and register parts. The builders make one form
   per map (powers of two are never affine), so for their layouts this is
   equality of the maps. */
bool linear_equal(const LinearLayout *a, const LinearLayout *b);
/* outer(inner(x)): inner's outputs must be outer's inputs (same names, in
   the same order, inner's sizes at most outer's). Both linear. */
bool linear_compose(const LinearLayout *outer, const LinearLayout *inner, LinearLayout *result);
/* The inverse of a bijective linear map (every output dim a power of two,
   total input bits = total output bits, full rank): outputs become inputs.
   False where it is not invertible. */
bool linear_invert(const LinearLayout *l, LinearLayout *result);
/* Bits of input dim `in` that are free: flipping them reaches no new
   element, because their basis is zero or in the span of the bases of all
   earlier inputs (register before lane before warp) and earlier bits. The
   threads whose free lane and warp bits are all 0 are the unique holders. */
uint32_t linear_free_bits(const LinearLayout *l, int in);
/* Whether no two inputs reach the same output (no free bits anywhere). */
bool linear_is_injective(const LinearLayout *l);

/* The layout of a reduction's result: output dim `dim` removed. Register
   bits that moved only along it are dropped (and affine parts on it), so
   the result has one register per remaining coordinate; lane and warp bits
   that moved only along it become free (the threads that were spread along
   it now hold copies). A register bit left duplicating another stays (two
   registers hold copies). linear_from_layout of codegen.h's slice layout
   gives the same map. */
bool linear_slice(const LinearLayout *parent, int dim, LinearLayout *out);
/* Whether coordinates split as the lowering computes them today: a
   compile-time register part plus a thread part,
       apply(r, lane, warp) = apply(r, 0, 0) + apply(0, lane, warp),
   because on every output dim the register bases (and affine strides) and
   the lane and warp bases touch disjoint bits (so XOR is +). */
bool linear_thread_split_additive(const LinearLayout *dist);

/* "linear<register=[(0,1),(8,0)] lane=[...] warp=[...] -> dim0:16, dim1:8>":
   one (value per output dim) basis per input bit, least significant first;
   an affine register part as "{3 x dim1:8}" (radix 3, stride 8 on dim1) in
   its place. */
void linear_format(const LinearLayout *l, char *buf, size_t size);

/* ---- builders (false: parameters the layout cannot express) ------------------ */

/* codegen.h's blocked or slice layout applied to `shape`, for `num_warps`
   warps (a power of two): the same map as layout_map, layout_reg_offsets
   and the thread base of llvm_kernel.c's thread coordinates. */
bool linear_from_layout(const Layout *layout, const IrType *shape, int num_warps, LinearLayout *out);

typedef enum LinearMmaOperand { LINEAR_MMA_A, LINEAR_MMA_B, LINEAR_MMA_C } LinearMmaOperand;

/* mma.sync.m16n8k16 fragments (PTX ISA 9.7.14.5.8, f16/bf16 A row, B col,
   f32 C/D) tiled over a rows x cols tile (A: M x K, B: K x N, C: M x N) by a
   warps_m x warps_n grid of warps (warp = warp_m * warps_n + warp_n; A is
   replicated over warp_n, B over warp_m), repeated in registers:
     A: reg = (m_rep * k_reps + k_rep) * 8 + i      (i: a0..a7)
     B: reg = (n_rep * k_reps + k_rep) * 4 + i      (i: b0..b3)
     C: reg = (m_rep * n_reps + n_rep) * 4 + i      (i: c0..c3)
   Warp (warp_m, warp_n) holds instruction tile m_rep * warps_m + warp_m
   along M (16 rows each) and n_rep * warps_n + warp_n along N (8 columns). */
bool linear_mma_sync(LinearMmaOperand operand, int64_t rows, int64_t cols, int warps_m, int warps_n,
                     LinearLayout *out);
/* What ldmatrix.x4 reads in llvm_dot.c's mma.sync lowering, as a
   distributed layout over the staged tile (A: M x K; B: K x N; B
   transposed: the staged x, N x K), warp = warp_m * warps_n + warp_n: each
   lane gives one row address and reads 8 consecutive 16-bit elements
   (registers 0-7, one 16-byte vector), lane l row l % 8 of matrix l / 8;
   then registers step k by 16 (the k steps) and the m tiles (A, 16 *
   warps_m rows) or pairs of n tiles (B, 16 * warps_n columns). A: row =
   (l / 8 % 2) * 8 * warps_m + 8 * warp_m + l % 8, column = (l / 16) * 8;
   B: k = (l / 8 % 2) * 8 + l % 8, n = (l / 16) * 8 * warps_n + 8 * warp_n
   (read .trans); B transposed: x row n = (l / 16) * 8 * warps_n + 8 *
   warp_n + l % 8, column k = (l / 8 % 2) * 8. B needs an even number of n
   tiles (an odd last one is read with x2). */
bool linear_ldmatrix(LinearMmaOperand operand, bool b_transposed, int64_t rows, int64_t cols, int warps_m,
                     int warps_n, LinearLayout *out);
/* wgmma.mma_async.m64nNk16 f32 accumulator (PTX ISA 9.7.15.5.1.1.1,
   "Matrix D" figure), N a multiple of 8 up to 256, over an M x N tile for
   num_warps warps (a multiple of 4; warpgroup g owns rows 64g.. and M
   repeats in registers): reg = m_rep * (N / 2) + i (i: d0..d(N/2-1)). An N
   whose N/8 is not a power of two gets an affine part (column blocks). */
bool linear_wgmma_acc(int64_t rows, int64_t n, int num_warps, LinearLayout *out);
/* wgmma register-A operand (m64nNk16, 16-bit A: "Matrix A" figure) over an
   M x K tile: reg = (m_rep * k_reps + k_rep) * 8 + i (i: a0..a7). */
bool linear_wgmma_a(int64_t rows, int64_t k, int num_warps, LinearLayout *out);

/* Shared memory, offset (element index) -> coordinates. Row-major (last
   dim fastest) over a shape whose sizes are powers of two. */
bool linear_shared_row_major(const int64_t *shape, int rank, LinearLayout *out);
/* The wgmma/TMA swizzles for a rows x cols tile of elem_bytes elements,
   K-major (cols contiguous): the tile is split into column panels of
   swizzle_bytes (32, 64 or 128; 0 = no swizzle, 16-byte panels as
   wgmma's INTERLEAVE), each panel rows x (swizzle_bytes / elem_bytes)
   stored contiguously, and inside it the 16-byte chunk bits [4, 4+b) of the
   byte address are XORed with bits [7, 7+b), b = log2(swizzle_bytes / 16):
   CUTLASS Swizzle<b,4,3> on byte addresses (cute Layout_K_SW32/64/128_Atom),
   the PTX ISA's 32/64/128-byte swizzling modes. rows a multiple of 8; the
   buffer must be 1024-byte aligned for the hardware to agree. */
bool linear_shared_swizzled(int64_t rows, int64_t cols, int elem_bytes, int swizzle_bytes, LinearLayout *out);

/* ---- queries ------------------------------------------------------------------ */

typedef enum LinearConvertKind {
    LINEAR_CVT_NOOP,                   /* same map: nothing to do */
    LINEAR_CVT_REGISTERS,              /* each thread already holds what it needs */
    LINEAR_CVT_SHUFFLE,                /* within each warp: lanes exchange (shfl) */
    LINEAR_CVT_SHARED                  /* across warps: through shared memory */
} LinearConvertKind;

/* How a value in distributed layout `src` gets to `dst` (same tile shape,
   same lane and warp counts). Linear layouts: from the bases (a thread's
   elements are its base + the span of the register bases; dst inside src
   per thread, or per warp with lanes added to the span); otherwise by
   enumerating every (register, lane, warp). */
LinearConvertKind linear_convert_kind(const LinearLayout *src, const LinearLayout *dst);
const char *linear_convert_name(LinearConvertKind kind);

/* Shared memory as the queries below see it: a layout (offset ->
   coordinates; its inverse is kept) or strides (offset = sum coord[d] *
   stride[d]; a padded [m][k + 8] buffer is strides {k + 8, 1}). */
typedef struct LinearShared {
    bool has_layout;
    LinearLayout inverse;              /* coordinates -> offset */
    int rank;
    int64_t stride[IR_MAX_RANK];
} LinearShared;

/* False when `layout` (offset -> coordinates) is not invertible. */
bool linear_shared_from_layout(LinearShared *shared, const LinearLayout *layout);
void linear_shared_strided(LinearShared *shared, int rank, const int64_t *stride);
/* Element offset of tile coordinates in `shared`. */
int64_t linear_shared_offset(const LinearShared *shared, const int64_t *coords);
/* The longest run of a thread's consecutive registers (a power of two) that
   are consecutive elements along tile dim `dim`, starting at a multiple of
   the run: the vector of one global load or store when `dim` is the
   fastest dim of the global order. */
int linear_vector_width(const LinearLayout *dist, int dim);
/* The same along any dim, for registers with consecutive indices along it:
   the register bits whose basis moves `dim`, in order, stepping it by 1,
   2, 4, ... and nothing else, the other bases and affine strides on `dim`
   multiples of the run (codegen.h's layout_contiguous_run). For the last
   dim of a blocked layout it is linear_vector_width. */
int linear_dim_run(const LinearLayout *dist, int dim);
/* The same for shared memory: runs of registers at consecutive offsets of
   `shared`, starting at a multiple of the run. */
int linear_shared_vector_width(const LinearLayout *dist, const LinearShared *shared);
/* Shared-memory wavefronts (32 banks x 4 bytes) for the warps of `dist`
   writing or reading their registers into `shared`, `vec` registers (a
   divisor of linear_shared_vector_width) of elem_bytes each per lane per
   instruction, by enumerating lanes through the maps. Each instruction is
   served in phases of 32 lanes (up to 4 bytes a lane), 16 (8 bytes) or 8
   (16 bytes); a phase costs the largest number of distinct 4-byte words that
   it touches in one bank (equal words are one broadcast). The result is the
   largest total over the warps; *ideal (may be NULL) gets that warp's
   minimum, one wavefront per 128 distinct bytes of each phase. -1 when a
   vector is not contiguous in `shared`. */
int64_t linear_shared_wavefronts(const LinearLayout *dist, const LinearShared *shared, int elem_bytes, int vec,
                                 int64_t *ideal);
/* The same for a `vec` known to divide linear_shared_vector_width (the
   runs are not checked again). */
int64_t linear_shared_wavefronts_of_runs(const LinearLayout *dist, const LinearShared *shared, int elem_bytes, int vec,
                                         int64_t *ideal);

/* Global-memory sectors (32 bytes) that the warps of `dist` touch storing
   their registers into a row-major tensor, `vec` consecutive registers (one
   vector along the last dim) per lane per instruction, each row starting
   32-byte aligned: the sum over every instruction of every warp of the
   distinct sectors it writes. *ideal (may be NULL) gets the fewest the same
   bytes could take, one sector per 32 distinct bytes of each instruction.
   More sectors than ideal means partly written sectors: the store moves
   more lines than its bytes need. -1 for a bad vec. */
int64_t linear_global_sectors(const LinearLayout *dist, int elem_bytes, int vec, int64_t *ideal);

#endif
