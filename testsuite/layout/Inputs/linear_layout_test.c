/*
 * layout_test.c: unit tests of compiler/gpu/linear_layout.c (no GPU).
 *
 * Every layout the builders make is checked against a reference written
 * here independently, from the sources it cites:
 *   - mma.sync fragments: the PTX ISA, 9.7.14.5.8 "Matrix Fragments for
 *     mma.m16n8k16 with floating point type" (row/col formulas for a_i, b_i,
 *     c_i, quoted below);
 *   - wgmma fragments: the PTX ISA, 9.7.15.5.1.1.1 "Matrix Fragments for
 *     wgmma.mma_async.m64nNk16" (Figure "WGMMA .m64nNk16 register fragment
 *     layout for accumulator matrix D" and "... for matrix A") and, a second
 *     way, CUTLASS's cute GMMA::CLayout_64xN and ALayout_64x16;
 *   - swizzles: CUTLASS cute::Swizzle<B,M,S> (offset ^ ((offset & (mask <<
 *     (M + S))) >> S)) as cute's Layout_K_SW32/64/128_Atom use it on byte
 *     addresses, Swizzle<1,4,3>, <2,4,3>, <3,4,3>;
 *   - blocked and slice layouts: codegen.h's layout_map and
 *     layout_reg_offsets, and the thread base of llvm_kernel.c's
 *     llvm_kernel_thread (coordinate = ((warp_d * tpw + lane_d) * spt) &
 *     (size - 1) + register offset), for random layouts and shapes;
 *   - bank conflicts, conversions, vector widths: brute force over the
 *     reference formulas.
 * Prints one summary line per section; exits 1 on any mismatch.
 */
#include "linear_layout.h"
#include "layout_internal.h"   /* compares against layout_map itself */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static long checks;

#define CHECK(cond, ...)                                                                                          \
    do {                                                                                                          \
        checks++;                                                                                                 \
        if (!(cond)) {                                                                                            \
            if (++failures <= 30) {                                                                               \
                fprintf(stderr, "FAIL line %d: ", __LINE__);                                                     \
                fprintf(stderr, __VA_ARGS__);                                                                     \
                fputc('\n', stderr);                                                                              \
            }                                                                                                     \
        }                                                                                                         \
    } while (0)

static void section(const char *name, long before_checks, int before_failures) {
    printf("%s: %ld checks, %d mismatches\n", name, checks - before_checks, failures - before_failures);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int rnd(int n) { return (int)(rng() % (uint64_t)n); }

/* ---- PTX ISA 9.7.14.5.8, Matrix Fragments for mma.m16n8k16 with floating point type ----
 *   groupID           = %laneid >> 2
 *   threadID_in_group = %laneid % 4
 * Multiplicand A (.f16/.bf16, a0..a7):
 *   row = groupID          for ai where 0 <= i < 2 || 4 <= i < 6
 *         groupID + 8      Otherwise
 *   col = (threadID_in_group * 2) + (i & 0x1)       for ai where i <  4
 *         (threadID_in_group * 2) + (i & 0x1) + 8   for ai where i >= 4
 * Multiplicand B (.f16/.bf16, b0..b3):
 *   row = (threadID_in_group * 2) + (i & 0x1)       for bi where i <  2
 *         (threadID_in_group * 2) + (i & 0x1) + 8   for bi where i >= 2
 *   col = groupID
 * Accumulators C or D (.f32, c0..c3):
 *   row = groupID          for ci where i <  2
 *         groupID + 8      for ci where i >= 2
 *   col = (threadID_in_group * 2) + (i & 0x1)       for ci where i = {0,..,3}
 */
static void ptx_mma_a(int lane, int i, int64_t *row, int64_t *col) {
    int group = lane >> 2, tig = lane % 4;
    *row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? group : group + 8;
    *col = i < 4 ? tig * 2 + (i & 1) : tig * 2 + (i & 1) + 8;
}
static void ptx_mma_b(int lane, int i, int64_t *row, int64_t *col) {
    int group = lane >> 2, tig = lane % 4;
    *row = i < 2 ? tig * 2 + (i & 1) : tig * 2 + (i & 1) + 8;
    *col = group;
}
static void ptx_mma_c(int lane, int i, int64_t *row, int64_t *col) {
    int group = lane >> 2, tig = lane % 4;
    *row = i < 2 ? group : group + 8;
    *col = tig * 2 + (i & 1);
}

/* ---- wgmma m64nNk16 (PTX ISA 9.7.15.5.1.1.1), from the figures: warp w of
 * the warpgroup owns rows 16w..16w+15; in it, lane (groupID, threadID_in_group)
 * holds, for d_i, row 16w + groupID (+ 8 when i % 4 >= 2) and column
 * 8 * (i / 4) + 2 * threadID_in_group + (i % 2). Register-A (16-bit, a0..a7)
 * is the mma.m16n8k16 A fragment inside each warp's 16 rows. */
static void ptx_wgmma_d(int warp, int lane, int i, int64_t *row, int64_t *col) {
    int group = lane >> 2, tig = lane % 4;
    *row = 16 * warp + group + ((i % 4) >= 2 ? 8 : 0);
    *col = 8 * (i / 4) + 2 * tig + (i % 2);
}

/* cute GMMA::CLayout_64xN = ((4,8,4),(2,2,N/8)) : ((128,1,16),(64,8,512)),
   a (thread, value) -> m + 64 * n map; ALayout_64x16 the same with N = 16. */
static void cute_clayout(int t, int v, int64_t *m, int64_t *n) {
    int64_t off = (t % 4) * 128 + (t / 4 % 8) * 1 + (t / 32) * 16 + (v % 2) * 64 + (v / 2 % 2) * 8 + (v / 4) * 512;
    *m = off % 64;
    *n = off / 64;
}

/* apply(r, lane, warp) == apply(r, 0, 0) + apply(0, lane, warp) everywhere. */
static bool brute_additive(const LinearLayout *l) {
    for (int64_t w = 0; w < linear_in_size(l, 2); w++)
        for (int64_t lane = 0; lane < linear_in_size(l, 1); lane++)
            for (int64_t r = 0; r < linear_in_size(l, 0); r++) {
                int64_t c[IR_MAX_RANK], reg[IR_MAX_RANK], thread[IR_MAX_RANK];
                linear_apply_thread(l, r, lane, w, c);
                linear_apply_thread(l, r, 0, 0, reg);
                linear_apply_thread(l, 0, lane, w, thread);
                for (int d = 0; d < l->num_out; d++)
                    if (c[d] != reg[d] + thread[d])
                        return false;
            }
    return true;
}

/* linear_ldmatrix against llvm_dot.c's ldmatrix addresses, written out:
   lane l, r8 = l % 8, q = l / 8, q_lo = q % 2, q_hi = q / 2; register
   i + 8 * (ks + k_steps * t): the 16-byte row's element i, k step ks, m
   tile t (A) or n tile pair t (B). */
static void ldmatrix_reference(int op, bool bt, int wm, int wn, int64_t k_steps, int64_t reg, int lane, int warp,
                               int64_t *c) {
    int r8 = lane % 8, q_lo = lane / 8 % 2, q_hi = lane / 16, warp_m = warp / wn, warp_n = warp % wn;
    int64_t i = reg % 8, ks = reg / 8 % k_steps, t = reg / 8 / k_steps;
    if (op == LINEAR_MMA_A) {
        c[0] = q_lo * 8 * wm + 8 * warp_m + r8 + t * 16 * wm;
        c[1] = q_hi * 8 + ks * 16 + i;
    } else if (!bt) {                  /* [k][n + 8], .trans */
        c[0] = q_lo * 8 + r8 + ks * 16;
        c[1] = q_hi * 8 * wn + 8 * warp_n + t * 16 * wn + i;
    } else {                           /* x [n][k + 8] */
        c[0] = q_hi * 8 * wn + 8 * warp_n + r8 + t * 16 * wn;
        c[1] = q_lo * 8 + ks * 16 + i;
    }
}

static void test_ldmatrix_addresses(void) {
    long c0 = checks;
    int f0 = failures;
    static const int grids[][2] = {{1, 1}, {4, 1}, {2, 2}, {1, 4}, {2, 4}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
        for (int op = LINEAR_MMA_A; op <= LINEAR_MMA_B; op++)
            for (int bt = 0; bt < 2 - (op == LINEAR_MMA_A); bt++)
                for (int64_t rows = 16; rows <= 128; rows *= 2)
                    for (int64_t cols = 16; cols <= 128; cols *= 2) {
                        int wm = grids[g][0], wn = grids[g][1];
                        LinearLayout l;
                        bool ok = linear_ldmatrix(op, bt, rows, cols, wm, wn, &l);
                        int64_t k = op == LINEAR_MMA_A || bt ? cols : rows, mn = op == LINEAR_MMA_A || bt ? rows : cols;
                        int64_t tile = op == LINEAR_MMA_A ? 16 * wm : 16 * wn;
                        CHECK(ok == (mn % tile == 0), "linear_ldmatrix %d %d %lldx%lld accepted %d", op, bt,
                              (long long)rows, (long long)cols, ok);
                        if (!ok)
                            continue;
                        CHECK(linear_in_size(&l, 0) == 8 * (k / 16) * (mn / tile), "ldmatrix registers");
                        for (int warp = 0; warp < wm * wn; warp++)
                            for (int lane = 0; lane < 32; lane++)
                                for (int64_t reg = 0; reg < linear_in_size(&l, 0); reg++) {
                                    int64_t got[2], want[2];
                                    linear_apply_thread(&l, reg, lane, warp, got);
                                    ldmatrix_reference(op, bt, wm, wn, k / 16, reg, lane, warp, want);
                                    CHECK(got[0] == want[0] && got[1] == want[1],
                                          "ldmatrix %d%s %lldx%lld %dx%d reg %lld lane %d warp %d: (%lld,%lld) vs "
                                          "llvm_dot (%lld,%lld)", op, bt ? "t" : "", (long long)rows, (long long)cols,
                                          wm, wn, (long long)reg, lane, warp, (long long)got[0], (long long)got[1],
                                          (long long)want[0], (long long)want[1]);
                                }
                    }
    section("ldmatrix reads of llvm_dot.c (A, B, B transposed x warp grids)", c0, f0);
}

static void test_mma_sync(void) {
    long c0 = checks;
    int f0 = failures;
    LinearLayout l;
    for (int op = 0; op < 3; op++)
        for (int wm = 1; wm <= 4; wm *= 2)
            for (int wn = 1; wn <= 4; wn *= 2)
                for (int rep = 1; rep <= 4; rep *= 2) {
                    /* rep instruction tiles per warp along each dim of
                       A (M x K), B (K x N) and C (M x N) */
                    int64_t m = 16 * wm * rep, n = 8 * wn * rep, k = 16 * rep;
                    int64_t rows = op == 0 ? m : op == 1 ? k : m, cols = op == 0 ? k : op == 1 ? n : n;
                    bool ok = linear_mma_sync((LinearMmaOperand)op, rows, cols, wm, wn, &l);
                    CHECK(ok, "mma_sync %d %lldx%lld", op, (long long)rows, (long long)cols);
                    if (!ok)
                        continue;
                    int per = op == 0 ? 8 : 4;
                    int64_t m_reps = op == 1 ? 1 : rows / (16 * wm), k_reps = op == 0 ? cols / 16 : op == 1 ? rows / 16 : 1;
                    int64_t n_reps = op == 0 ? 1 : cols / (8 * wn);
                    CHECK(linear_in_size(&l, 0) == per * m_reps * k_reps * n_reps, "registers");
                    CHECK(linear_in_size(&l, 2) == wm * wn, "warps");
                    for (int64_t reg = 0; reg < linear_in_size(&l, 0); reg++)
                        for (int lane = 0; lane < 32; lane++)
                            for (int warp = 0; warp < wm * wn; warp++) {
                                int warp_m = warp / wn, warp_n = warp % wn, i = (int)(reg % per);
                                int64_t outer = reg / per, row, col;
                                if (op == 0) {          /* reg = (m_rep * k_reps + k_rep) * 8 + i */
                                    ptx_mma_a(lane, i, &row, &col);
                                    row += 16 * (outer / k_reps * wm + warp_m);
                                    col += 16 * (outer % k_reps);
                                } else if (op == 1) {   /* reg = (n_rep * k_reps + k_rep) * 4 + i */
                                    ptx_mma_b(lane, i, &row, &col);
                                    row += 16 * (outer % k_reps);
                                    col += 8 * (outer / k_reps * wn + warp_n);
                                } else {                /* reg = (m_rep * n_reps + n_rep) * 4 + i */
                                    ptx_mma_c(lane, i, &row, &col);
                                    row += 16 * (outer / n_reps * wm + warp_m);
                                    col += 8 * (outer % n_reps * wn + warp_n);
                                }
                                int64_t c[2];
                                linear_apply_thread(&l, reg, lane, warp, c);
                                CHECK(c[0] == row && c[1] == col,
                                      "mma %c wm=%d wn=%d reg %lld lane %d warp %d: (%lld,%lld), PTX (%lld,%lld)",
                                      "ABC"[op], wm, wn, (long long)reg, lane, warp, (long long)c[0],
                                      (long long)c[1], (long long)row, (long long)col);
                            }
                    CHECK(linear_thread_split_additive(&l) && brute_additive(&l), "mma: register + thread split");
                    /* Replication: A over warp_n (the low warp bits), B over warp_m. */
                    uint32_t free_warp = linear_free_bits(&l, 2);
                    uint32_t want = op == 0 ? (uint32_t)(wn - 1) : op == 1 ? (uint32_t)((wm - 1) * wn) : 0;
                    CHECK(free_warp == want, "mma %c free warp bits %x, want %x", "ABC"[op], free_warp, want);
                    CHECK(linear_free_bits(&l, 0) == 0 && linear_free_bits(&l, 1) == 0, "mma free reg/lane bits");
                }
    section("mma.sync m16n8k16 fragments (A, B, C x warp grids)", c0, f0);
}

static void test_wgmma(void) {
    long c0 = checks;
    int f0 = failures;
    LinearLayout l;
    int affine = 0;
    for (int n = 8; n <= 256; n += 8)
        for (int warps = 4; warps <= 8; warps *= 2)
            for (int m_reps = 1; m_reps <= 2; m_reps++) {
                int64_t rows = 16 * warps * m_reps;
                bool ok = linear_wgmma_acc(rows, n, warps, &l);
                CHECK(ok, "wgmma acc n=%d", n);
                if (!ok)
                    continue;
                affine += !linear_is_linear(&l);
                CHECK(linear_thread_split_additive(&l), "wgmma: register + thread split");
                if (n % 64 == 24 && m_reps == 1)
                    CHECK(brute_additive(&l), "wgmma: register + thread split (brute force)");
                CHECK(linear_is_injective(&l), "wgmma D injective");
                CHECK(linear_in_size(&l, 0) == m_reps * n / 2, "wgmma acc registers n=%d", n);
                int64_t elements = rows * n;
                char *seen = calloc((size_t)elements, 1);
                for (int64_t reg = 0; reg < linear_in_size(&l, 0); reg++)
                    for (int warp = 0; warp < warps; warp++)
                        for (int lane = 0; lane < 32; lane++) {
                            int i = (int)(reg % (n / 2));
                            int64_t row, col, m, nn, c[2];
                            ptx_wgmma_d(warp % 4, lane, i, &row, &col);
                            row += 64 * (warp / 4) + (reg / (n / 2)) * 16 * warps;
                            cute_clayout((warp % 4) * 32 + lane, i, &m, &nn);
                            linear_apply_thread(&l, reg, lane, warp, c);
                            CHECK(c[0] == row && c[1] == col, "wgmma D n=%d reg %lld lane %d warp %d: (%lld,%lld) PTX (%lld,%lld)",
                                  n, (long long)reg, lane, warp, (long long)c[0], (long long)c[1], (long long)row,
                                  (long long)col);
                            CHECK(c[0] % 64 == m && c[1] == nn, "wgmma D vs cute CLayout_64x%d", n);
                            if (c[0] >= 0 && c[0] < rows && c[1] >= 0 && c[1] < n)
                                seen[c[0] * n + c[1]]++;
                        }
                int64_t once = 0;
                for (int64_t e = 0; e < elements; e++)
                    once += seen[e] == 1;
                CHECK(once == elements, "wgmma D n=%d: every element once (%lld of %lld)", n, (long long)once,
                      (long long)elements);
                free(seen);
            }
    CHECK(affine == 2 * 2 * 26, "wgmma N with N/8 not a power of two are mixed-radix (%d: 26 N x 2 warp counts x 2 M)", affine);
    for (int k = 16; k <= 64; k *= 2)
        for (int warps = 4; warps <= 8; warps *= 2) {
            int64_t rows = 16 * warps;
            bool ok = linear_wgmma_a(rows, k, warps, &l);
            CHECK(ok, "wgmma A k=%d", k);
            for (int64_t reg = 0; ok && reg < linear_in_size(&l, 0); reg++)
                for (int warp = 0; warp < warps; warp++)
                    for (int lane = 0; lane < 32; lane++) {
                        int i = (int)(reg % 8);
                        int64_t row, col, m, kk, c[2];
                        ptx_mma_a(lane, i, &row, &col);
                        row += 16 * warp;
                        col += 16 * (reg / 8);
                        linear_apply_thread(&l, reg, lane, warp, c);
                        CHECK(c[0] == row && c[1] == col, "wgmma A k=%d reg %lld lane %d warp %d", k, (long long)reg,
                              lane, warp);
                        /* cute ALayout_64x16 = CLayout_64x16's strides, within one k16 block */
                        cute_clayout((warp % 4) * 32 + lane, i, &m, &kk);
                        CHECK(c[0] % 64 == m && c[1] % 16 == kk, "wgmma A vs cute ALayout_64x16");
                    }
        }
    CHECK(!linear_wgmma_acc(64, 12, 4, &l) && !linear_wgmma_acc(64, 264, 4, &l) && !linear_wgmma_acc(64, 64, 2, &l),
          "wgmma rejects bad N and warp counts");
    section("wgmma m64nNk16 accumulator and register A (N = 8..256)", c0, f0);
}

/* ---- blocked and slice layouts against layout.c ------------------------------ */

static void random_blocked(Layout *l, int rank, int warps) {
    memset(l, 0, sizeof *l);
    l->kind = LAYOUT_BLOCKED;
    l->rank = rank;
    for (int d = 0; d < rank; d++) {
        l->size_per_thread[d] = 1 << rnd(4);
        l->threads_per_warp[d] = 1;
        l->warps_per_cta[d] = 1;
        l->order[d] = d;
    }
    for (int b = 0; b < 5; b++)
        l->threads_per_warp[rnd(rank)] *= 2;
    for (int w = warps; w > 1; w /= 2)
        l->warps_per_cta[rnd(rank)] *= 2;
    for (int d = rank - 1; d > 0; d--) {
        int j = rnd(d + 1), t = l->order[d];
        l->order[d] = l->order[j];
        l->order[j] = t;
    }
}

static int64_t random_size(void) {
    static const int64_t odd[] = {3, 5, 6, 12, 24, 96};
    return rnd(5) == 0 ? odd[rnd(6)] : (int64_t)1 << rnd(7);
}

/* The reference: layout_map, layout_reg_offsets and llvm_kernel.c's thread
   base, evaluated at (reg, lane, warp); *unique as llvm_kernel.c's `unique`. */
static void reference_blocked(const LayoutMap *map, int warps, int64_t reg, int lane, int warp, int64_t *coords,
                              bool *unique) {
    const Layout *root = map->root;
    int64_t tc[IR_MAX_RANK];
    int lanes = 1, all_warps = 1;
    for (int d = 0; d < root->rank; d++) {
        int tpw = root->threads_per_warp[d], wpc = root->warps_per_cta[d];
        lanes *= tpw;
        all_warps *= wpc;
        tc[d] = (int64_t)(warp / map->warp_stride[d] % wpc) * tpw + lane / map->lane_stride[d] % tpw;
    }
    *unique = lane < lanes && warp < all_warps;
    (void)warps;
    int64_t offsets[IR_MAX_RANK];
    layout_reg_offsets(map, reg, offsets);
    for (int d = 0; d < map->rank; d++) {
        const LayoutDim *dim = &map->dims[d];
        int64_t t = tc[dim->root_dim];
        int64_t base = 0;
        if (dim->in_registers) {
            if (dim->tpw * dim->wpc > 1 && t != 0)
                *unique = false;
        } else {
            base = (t * dim->spt) & (dim->size - 1);
            if (dim->unique_threads < dim->tpw * dim->wpc && t >= dim->unique_threads)
                *unique = false;
        }
        coords[d] = base + offsets[d];
    }
    for (int i = 0; i < map->num_sliced; i++) {
        int d = map->sliced_dims[i];
        if (root->threads_per_warp[d] * root->warps_per_cta[d] > 1 && tc[d] != 0)
            *unique = false;
    }
}

static void test_blocked(void) {
    long c0 = checks;
    int f0 = failures;
    int tested = 0, slices = 0, odd = 0;
    for (int iter = 0; iter < 400; iter++) {
        int warps = 1 << rnd(4);
        int root_rank = 1 + rnd(4);
        Layout root, s1, s2;
        random_blocked(&root, root_rank, warps);
        const Layout *layout = &root;
        int levels = root_rank > 1 ? rnd(root_rank < 3 ? 2 : 3) : 0;
        if (levels >= 1) {
            s1 = (Layout){.kind = LAYOUT_SLICE, .rank = root_rank - 1, .parent = &root, .slice_dim = rnd(root_rank)};
            layout = &s1;
        }
        if (levels >= 2) {
            s2 = (Layout){.kind = LAYOUT_SLICE, .rank = root_rank - 2, .parent = &s1, .slice_dim = rnd(root_rank - 1)};
            layout = &s2;
        }
        slices += levels > 0;
        IrType shape;
        memset(&shape, 0, sizeof shape);
        shape.kind = IRT_TILE;
        shape.dtype = DT_F32;
        shape.rank = layout->rank;
        int64_t elements = 1;
        bool has_odd = false;
        for (int d = 0; d < shape.rank; d++) {
            shape.dims[d].size = random_size();
            has_odd |= (shape.dims[d].size & (shape.dims[d].size - 1)) != 0;
            elements *= shape.dims[d].size;
        }
        if (elements > 4096)
            continue;
        odd += has_odd;
        LayoutMap map;
        layout_map(layout, &shape, &map);
        LinearLayout l;
        bool ok = linear_from_layout(layout, &shape, warps, &l);
        CHECK(ok, "linear_from_layout");
        if (!ok)
            continue;
        tested++;
        CHECK(linear_in_size(&l, 0) == map.num_regs, "registers %lld vs layout_map %lld",
              (long long)linear_in_size(&l, 0), (long long)map.num_regs);
        uint32_t free_lane = linear_free_bits(&l, 1), free_warp = linear_free_bits(&l, 2);
        for (int64_t reg = 0; reg < map.num_regs; reg++)
            for (int warp = 0; warp < warps; warp++)
                for (int lane = 0; lane < 32; lane++) {
                    int64_t want[IR_MAX_RANK], got[IR_MAX_RANK];
                    bool unique;
                    reference_blocked(&map, warps, reg, lane, warp, want, &unique);
                    linear_apply_thread(&l, reg, lane, warp, got);
                    bool same = true;
                    for (int d = 0; d < shape.rank; d++)
                        same &= want[d] == got[d];
                    if (!same) {
                        char text[512];
                        layout_format(layout, text, sizeof text);
                        CHECK(same, "%s reg %lld lane %d warp %d: coordinates differ from layout_map", text,
                              (long long)reg, lane, warp);
                    } else {
                        checks++;
                    }
                    bool free_zero = (lane & free_lane) == 0 && (warp & free_warp) == 0;
                    if (unique != free_zero)
                        CHECK(false, "unique holder (llvm_kernel.c) %d vs free bits %d", unique, free_zero);
                }
    }
    /* linear_slice of a parent's map is the map of codegen.h's slice layout */
    int sliced = 0;
    for (int iter = 0; iter < 300; iter++) {
        int warps = 1 << rnd(4), rank = 2 + rnd(3);
        Layout root;
        random_blocked(&root, rank, warps);
        IrType shape = {.kind = IRT_TILE, .dtype = DT_F32, .rank = rank};
        int64_t elements = 1;
        for (int d = 0; d < rank; d++)
            elements *= shape.dims[d].size = random_size();
        if (elements > 4096)
            continue;
        int dim = rnd(rank);
        Layout s1 = {.kind = LAYOUT_SLICE, .rank = rank - 1, .parent = &root, .slice_dim = dim};
        IrType reduced = shape;
        reduced.rank = rank - 1;
        for (int d = dim; d < rank - 1; d++)
            reduced.dims[d] = shape.dims[d + 1];
        LinearLayout parent, want, got;
        linear_from_layout(&root, &shape, warps, &parent);
        linear_from_layout(&s1, &reduced, warps, &want);
        CHECK(linear_slice(&parent, dim, &got) && linear_equal(&got, &want), "linear_slice = slice layout");
        CHECK(linear_thread_split_additive(&parent) && brute_additive(&parent), "blocked: register + thread split");
        sliced++;
    }
    CHECK(sliced > 150, "linear_slice tested %d", sliced);
    CHECK(tested > 200 && slices > 50 && odd > 30, "coverage: %d layouts, %d slices, %d with odd dims", tested,
          slices, odd);
    section("blocked and slice layouts vs layout_map (random)", c0, f0);
}

/* ---- shared memory: swizzles ---------------------------------------------------- */

/* cute::Swizzle<B,4,3> on a byte address. */
static int64_t cute_swizzle(int b, int64_t offset) {
    int64_t yyy = (((int64_t)1 << b) - 1) << (4 + 3);
    return offset ^ ((offset & yyy) >> 3);
}

/* The physical byte address of (row, col) in a K-major panel layout. */
static int64_t reference_swizzled_byte(int64_t rows, int elem_bytes, int swizzle, int64_t row, int64_t col) {
    int panel_bytes = swizzle ? swizzle : 16;
    int64_t panel = panel_bytes / elem_bytes;
    int64_t logical = (col / panel) * rows * panel_bytes + row * panel_bytes + (col % panel) * elem_bytes;
    int b = swizzle == 32 ? 1 : swizzle == 64 ? 2 : swizzle == 128 ? 3 : 0;
    return cute_swizzle(b, logical);
}

static void test_swizzle(void) {
    long c0 = checks;
    int f0 = failures;
    static const int swizzles[] = {0, 32, 64, 128};
    for (int e = 1; e <= 4; e *= 2)
        for (int s = 0; s < 4; s++)
            for (int64_t rows = 8; rows <= 64; rows *= 8)
                for (int mult = 1; mult <= 2; mult++) {
                    int sw = swizzles[s], panel_bytes = sw ? sw : 16;
                    int64_t cols = mult * panel_bytes / e;
                    LinearLayout l, inv, id;
                    bool ok = linear_shared_swizzled(rows, cols, e, sw, &l);
                    CHECK(ok, "swizzled %lldx%lld e=%d sw=%d", (long long)rows, (long long)cols, e, sw);
                    if (!ok)
                        continue;
                    /* A bijection of [0, rows * cols) onto the tile. */
                    int64_t n = rows * cols;
                    char *seen = calloc((size_t)n, 1);
                    for (int64_t o = 0; o < n; o++) {
                        int64_t c[2];
                        linear_apply(&l, &o, c);
                        if (c[0] >= 0 && c[0] < rows && c[1] >= 0 && c[1] < cols)
                            seen[c[0] * cols + c[1]]++;
                        /* CUTLASS's formula from the coordinates gives this offset back */
                        CHECK(reference_swizzled_byte(rows, e, sw, c[0], c[1]) == o * e,
                              "swizzle sw=%d e=%d offset %lld", sw, e, (long long)o);
                    }
                    int64_t once = 0;
                    for (int64_t i = 0; i < n; i++)
                        once += seen[i] == 1;
                    CHECK(once == n, "swizzle sw=%d e=%d is a bijection (%lld of %lld)", sw, e, (long long)once,
                          (long long)n);
                    free(seen);
                    /* invert and compose round trips */
                    CHECK(linear_invert(&l, &inv), "invert swizzle");
                    CHECK(linear_compose(&inv, &l, &id), "compose inverse o swizzle");
                    bool identity = id.num_in == 1 && id.num_out == 1;
                    for (int j = 0; identity && j < id.in_bits[0]; j++)
                        identity = id.bases[0][j][0] == (1 << j);
                    CHECK(identity, "invert(swizzle) o swizzle = identity (offset)");
                    CHECK(linear_compose(&l, &inv, &id), "compose swizzle o inverse");
                    identity = id.num_in == 2;
                    for (int d = 0; identity && d < 2; d++)
                        for (int j = 0; j < id.in_bits[d]; j++)
                            identity &= id.bases[d][j][d] == (1 << j) && id.bases[d][j][1 - d] == 0;
                    CHECK(identity, "swizzle o invert(swizzle) = identity (coordinates)");
                }
    LinearLayout rm;
    int64_t shape3[3] = {4, 8, 16};
    CHECK(linear_shared_row_major(shape3, 3, &rm), "row major");
    for (int64_t o = 0; o < 4 * 8 * 16; o++) {
        int64_t c[3];
        linear_apply(&rm, &o, c);
        CHECK(c[0] == o / 128 && c[1] == o / 16 % 8 && c[2] == o % 16, "row-major offset %lld", (long long)o);
    }
    int64_t odd_shape[2] = {3, 8};
    CHECK(!linear_shared_row_major(odd_shape, 2, &rm), "row-major rejects a size not a power of two");
    section("shared swizzles (CUTLASS Swizzle<1|2|3,4,3>), row-major, invert/compose", c0, f0);
}

/* ---- bank conflicts -------------------------------------------------------------- */

/* Phase model, written out again: lanes in phases of 32/16/8 by access width;
   a phase costs the most distinct words in one bank. `addr[lane]` in bytes. */
static int64_t brute_wavefronts(const int64_t *addr, int lanes, int bytes) {
    int phase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
    int64_t total = 0;
    for (int first = 0; first < lanes; first += phase) {
        int most = 0;
        for (int bank = 0; bank < 32; bank++) {
            int64_t words[128];
            int n = 0;
            for (int lane = first; lane < first + phase; lane++)
                for (int64_t a = addr[lane]; a < addr[lane] + bytes; a++) {
                    int64_t w = a / 4;
                    if (w % 32 != bank)
                        continue;
                    int k = 0;
                    while (k < n && words[k] != w)
                        k++;
                    if (k == n)
                        words[n++] = w;
                }
            if (n > most)
                most = n;
        }
        total += most;
    }
    return total;
}

typedef enum { TEST_SW128, TEST_ROW_MAJOR, TEST_PADDED } TestSharedKind;

/* Byte address of (row, col) of a 64 x 64 tile of elem_bytes elements. */
static int64_t reference_byte(TestSharedKind kind, int elem_bytes, int64_t row, int64_t col) {
    if (kind == TEST_SW128)
        return reference_swizzled_byte(64, elem_bytes, 128, row, col);
    if (kind == TEST_ROW_MAJOR)
        return (row * 64 + col) * elem_bytes;
    return (row * (64 + 8) + col) * elem_bytes;
}

static void make_shared(TestSharedKind kind, int elem_bytes, LinearShared *shared) {
    LinearLayout l;
    int64_t shape[2] = {64, 64}, padded[2] = {72, 1};
    if (kind == TEST_SW128) {
        linear_shared_swizzled(64, 64, elem_bytes, 128, &l);
        linear_shared_from_layout(shared, &l);
    } else if (kind == TEST_ROW_MAJOR) {
        linear_shared_row_major(shape, 2, &l);
        linear_shared_from_layout(shared, &l);
    } else {
        linear_shared_strided(shared, 2, padded);
    }
}

/* ldmatrix.x4 over a 64 x 64 f16 tile, one instruction per 16 x 16 block:
   lane l gives the address of row (l % 8) + 8 * (l / 8 % 2), column 8 * (l / 16)
   (PTX ISA, ldmatrix: "threads 0-7, 8-15, 16-23, 24-31 give the addresses of
   the rows of matrices 0, 1, 2, 3"); 8 registers of 16 bits from each. */
static void ldmatrix_layout(LinearLayout *l) {
    LinearDimName in[3] = {LINEAR_REGISTER, LINEAR_LANE, LINEAR_WARP}, out[2] = {LINEAR_TILE0, LINEAR_TILE0 + 1};
    int64_t shape[2] = {64, 64};
    linear_init(l, 3, in, 2, out, shape);
    int32_t b[2];
    for (int j = 1; j < 8; j *= 2)
        linear_add_bit(l, 0, (b[0] = 0, b[1] = j, b));      /* 8 columns of a row */
    for (int j = 16; j < 64; j *= 2)
        linear_add_bit(l, 0, (b[0] = 0, b[1] = j, b));      /* k blocks */
    for (int j = 16; j < 64; j *= 2)
        linear_add_bit(l, 0, (b[0] = j, b[1] = 0, b));      /* m blocks */
    for (int j = 1; j < 16; j *= 2)
        linear_add_bit(l, 1, (b[0] = j, b[1] = 0, b));      /* lanes 0-15: rows */
    linear_add_bit(l, 1, (b[0] = 0, b[1] = 8, b));          /* lanes 16-31: columns 8-15 */
}

/* What ldmatrix.x4 delivers (PTX ISA, ldmatrix: for .m8n8 .b16, lane l of
   the warp receives, from each matrix q, row l >> 2 and the two columns
   2 * (l % 4) + {0, 1}, in register q) when lanes address the rows as
   ldmatrix_layout does: the mma.m16n8k16 A fragment, a0..a7. */
static void test_ldmatrix_gives_fragment_a(void) {
    LinearLayout ld, a;
    ldmatrix_layout(&ld);
    linear_mma_sync(LINEAR_MMA_A, 16, 16, 1, 1, &a);
    for (int lane = 0; lane < 32; lane++)
        for (int q = 0; q < 4; q++)
            for (int i = 0; i < 2; i++) {
                int64_t row_start[2], got[2];
                linear_apply_thread(&ld, 0, 8 * q + (lane >> 2), 0, row_start);   /* the row lane 8q + l/4 gave */
                linear_apply_thread(&a, 2 * q + i, lane, 0, got);
                CHECK(got[0] == row_start[0] && got[1] == row_start[1] + 2 * (lane % 4) + i,
                      "ldmatrix.x4 lane %d matrix %d half %d is not a%d", lane, q, i, 2 * q + i);
            }
}

static void test_bank_conflicts(void) {
    long c0 = checks;
    int f0 = failures;
    static const char *const names[] = {"sw128", "row-major", "padded"};
    LinearLayout ld, blocked, acc;
    test_ldmatrix_gives_fragment_a();
    ldmatrix_layout(&ld);
    Layout b = {.kind = LAYOUT_BLOCKED, .rank = 2, .size_per_thread = {1, 8}, .threads_per_warp = {4, 8},
                .warps_per_cta = {4, 1}, .order = {1, 0}};
    IrType t = {.kind = IRT_TILE, .dtype = DT_F16, .rank = 2, .dims = {{.size = 64}, {.size = 64}}};
    CHECK(linear_from_layout(&b, &t, 4, &blocked), "blocked");
    CHECK(linear_mma_sync(LINEAR_MMA_C, 64, 64, 2, 2, &acc), "acc");
    for (int k = 0; k < 3; k++) {
        /* ldmatrix reads of f16 */
        LinearShared sh;
        make_shared((TestSharedKind)k, 2, &sh);
        CHECK(linear_shared_vector_width(&ld, &sh) >= 8, "%s: ldmatrix rows are 16-byte vectors", names[k]);
        int64_t ideal, got = linear_shared_wavefronts(&ld, &sh, 2, 8, &ideal), want = 0;
        for (int mb = 0; mb < 4; mb++)
            for (int kb = 0; kb < 4; kb++) {
                int64_t addr[32];
                for (int lane = 0; lane < 32; lane++)
                    addr[lane] = reference_byte((TestSharedKind)k, 2, 16 * mb + lane % 8 + 8 * (lane / 8 % 2),
                                                16 * kb + 8 * (lane / 16));
                want += brute_wavefronts(addr, 32, 16);
            }
        CHECK(got == want, "%s: ldmatrix wavefronts %lld, brute force %lld", names[k], (long long)got,
              (long long)want);
        CHECK(ideal == 16 * 4, "%s: ldmatrix ideal %lld", names[k], (long long)ideal);
        if (k == TEST_ROW_MAJOR)
            CHECK(got == 8 * ideal, "row-major ldmatrix is 8-way conflicted (%lld)", (long long)got);
        else
            CHECK(got == ideal, "%s ldmatrix conflict-free (%lld)", names[k], (long long)got);
        printf("ldmatrix.x4 f16 64x64 %s: %lld wavefronts (ideal %lld)\n", names[k], (long long)got,
               (long long)ideal);

        /* 16-byte stores of the default blocked layout (cp.async-like) */
        got = linear_shared_wavefronts(&blocked, &sh, 2, 8, &ideal);
        want = -1;
        LayoutMap map;
        layout_map(&b, &t, &map);
        for (int warp = 0; warp < 4; warp++) {
            int64_t total = 0;
            for (int64_t reg = 0; reg < map.num_regs; reg += 8) {
                int64_t addr[32];
                for (int lane = 0; lane < 32; lane++) {
                    int64_t c[2];
                    bool unique;
                    reference_blocked(&map, 4, reg, lane, warp, c, &unique);
                    addr[lane] = reference_byte((TestSharedKind)k, 2, c[0], c[1]);
                }
                total += brute_wavefronts(addr, 32, 16);
            }
            if (total > want)
                want = total;
        }
        CHECK(got == want && got == ideal, "%s: blocked 16-byte stores %lld, brute force %lld, ideal %lld", names[k],
              (long long)got, (long long)want, (long long)ideal);

        /* 8-byte stores of an f32 mma accumulator (c0,c1 pairs) */
        make_shared((TestSharedKind)k, 4, &sh);
        got = linear_shared_wavefronts(&acc, &sh, 4, 2, &ideal);
        want = -1;
        for (int warp = 0; warp < 4; warp++) {
            int64_t total = 0;
            for (int64_t reg = 0; reg < 32; reg += 2) {
                int64_t addr[32];
                for (int lane = 0; lane < 32; lane++) {
                    int64_t row, col, outer = reg / 4;
                    ptx_mma_c(lane, (int)(reg % 4), &row, &col);
                    row += 16 * (outer / 4 * 2 + warp / 2);
                    col += 8 * (outer % 4 * 2 + warp % 2);
                    addr[lane] = reference_byte((TestSharedKind)k, 4, row, col);
                }
                total += brute_wavefronts(addr, 32, 8);
            }
            if (total > want)
                want = total;
        }
        CHECK(got == want, "%s: accumulator stores %lld, brute force %lld", names[k], (long long)got,
              (long long)want);
        printf("mma accumulator f32 64x64 %s: %lld wavefronts (ideal %lld)\n", names[k], (long long)got,
               (long long)ideal);
    }
    section("ldmatrix -> fragment A; shared-memory wavefronts (map vs brute force)", c0, f0);
}

/* ---- conversions ------------------------------------------------------------------ */

/* Whether src holds `want` in thread (lane, w) (lane >= 0) or anywhere in warp w (lane < 0). */
static bool src_holds(const LinearLayout *src, int64_t lane, int64_t w, const int64_t *want) {
    for (int64_t l2 = lane < 0 ? 0 : lane; l2 < (lane < 0 ? linear_in_size(src, 1) : lane + 1); l2++)
        for (int64_t r2 = 0; r2 < linear_in_size(src, 0); r2++) {
            int64_t c[IR_MAX_RANK];
            linear_apply_thread(src, r2, l2, w, c);
            if (memcmp(c, want, sizeof(int64_t) * (size_t)src->num_out) == 0)
                return true;
        }
    return false;
}

static LinearConvertKind brute_convert(const LinearLayout *src, const LinearLayout *dst) {
    int64_t rs = linear_in_size(src, 0), rd = linear_in_size(dst, 0);
    bool same = rs == rd, thread = true, warp = true;
    for (int64_t w = 0; w < linear_in_size(dst, 2); w++)
        for (int64_t lane = 0; lane < linear_in_size(dst, 1); lane++)
            for (int64_t r = 0; r < rd; r++) {
                int64_t want[IR_MAX_RANK], c[IR_MAX_RANK];
                linear_apply_thread(dst, r, lane, w, want);
                if (same) {
                    linear_apply_thread(src, r, lane, w, c);
                    same = memcmp(c, want, sizeof(int64_t) * (size_t)src->num_out) == 0;
                }
                if (thread)
                    thread = src_holds(src, lane, w, want);
                if (warp)
                    warp = src_holds(src, -1, w, want);
            }
    return same ? LINEAR_CVT_NOOP : thread ? LINEAR_CVT_REGISTERS : warp ? LINEAR_CVT_SHUFFLE : LINEAR_CVT_SHARED;
}

static void blocked2(Layout *l, int s0, int s1, int t0, int t1, int w0, int w1, int o0) {
    *l = (Layout){.kind = LAYOUT_BLOCKED, .rank = 2, .size_per_thread = {s0, s1}, .threads_per_warp = {t0, t1},
                  .warps_per_cta = {w0, w1}, .order = {o0, 1 - o0}};
}

static void expect_convert(const char *what, const LinearLayout *src, const LinearLayout *dst,
                           LinearConvertKind want) {
    LinearConvertKind got = linear_convert_kind(src, dst), brute = brute_convert(src, dst);
    CHECK(got == want && brute == want, "%s: %s, brute force %s, expected %s", what, linear_convert_name(got),
          linear_convert_name(brute), linear_convert_name(want));
    printf("convert %s: %s\n", what, linear_convert_name(got));
}

static void test_conversions(void) {
    long c0 = checks;
    int f0 = failures;
    IrType t = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 64}, {.size = 64}}};
    Layout a, b;
    LinearLayout la, lb, mma, perm;
    blocked2(&a, 1, 4, 4, 8, 4, 1, 1);
    linear_from_layout(&a, &t, 4, &la);
    expect_convert("blocked -> same blocked", &la, &la, LINEAR_CVT_NOOP);
    /* the same thread mapping, registers in another order */
    perm = la;
    for (int d = 0; d < 2; d++) {
        int32_t tmp = perm.bases[0][0][d];
        perm.bases[0][0][d] = perm.bases[0][2][d];
        perm.bases[0][2][d] = tmp;
    }
    expect_convert("blocked -> registers permuted", &la, &perm, LINEAR_CVT_REGISTERS);
    /* Tessera's mma accumulator (blocked spt [1,2] tpw [8,4]) and the canonical one */
    IrType t16 = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 16}, {.size = 32}}};
    blocked2(&b, 1, 2, 8, 4, 1, 4, 1);
    linear_from_layout(&b, &t16, 4, &lb);
    linear_mma_sync(LINEAR_MMA_C, 16, 32, 1, 4, &mma);
    expect_convert("mma C 16x32 (1x4 warps) -> blocked spt[1,2] tpw[8,4] wpc[1,4]", &mma, &lb, LINEAR_CVT_NOOP);
    IrType t64 = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 64}, {.size = 64}}};
    blocked2(&b, 1, 2, 8, 4, 1, 4, 1);
    linear_from_layout(&b, &t64, 4, &lb);
    linear_mma_sync(LINEAR_MMA_C, 64, 64, 1, 4, &mma);
    expect_convert("mma C 64x64 (1x4 warps) -> blocked spt[1,2] tpw[8,4] wpc[1,4]", &mma, &lb, LINEAR_CVT_REGISTERS);
    blocked2(&b, 1, 2, 8, 4, 2, 2, 1);
    linear_from_layout(&b, &t64, 4, &lb);
    linear_mma_sync(LINEAR_MMA_C, 64, 64, 2, 2, &mma);
    expect_convert("mma C 64x64 (2x2 warps) -> blocked spt[1,2] tpw[8,4] wpc[2,2]", &mma, &lb, LINEAR_CVT_SHARED);
    expect_convert("mma C 64x64 (2x2 warps) -> blocked spt[1,4] tpw[4,8] wpc[4,1]", &mma, &la, LINEAR_CVT_SHARED);
    /* one warp: every element stays in the warp */
    IrType t168 = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 16}, {.size = 8}}};
    blocked2(&b, 1, 4, 16, 2, 1, 1, 1);
    linear_from_layout(&b, &t168, 1, &lb);
    linear_mma_sync(LINEAR_MMA_C, 16, 8, 1, 1, &mma);
    expect_convert("mma C 16x8 (1 warp) -> blocked spt[1,4] tpw[16,2]", &mma, &lb, LINEAR_CVT_SHUFFLE);
    /* a slice to a blocked layout of the same rank-1 shape */
    IrType t1 = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 1, .dims = {{.size = 64}}};
    Layout s = {.kind = LAYOUT_SLICE, .rank = 1, .parent = &a, .slice_dim = 1};
    Layout r1 = {.kind = LAYOUT_BLOCKED, .rank = 1, .size_per_thread = {1}, .threads_per_warp = {32},
                 .warps_per_cta = {4}, .order = {0}};
    LinearLayout ls, lr;
    linear_from_layout(&s, &t1, 4, &ls);
    linear_from_layout(&r1, &t1, 4, &lr);
    expect_convert("slice<dim=1, blocked spt[1,4] tpw[4,8] wpc[4,1]> -> blocked tpw[32] wpc[4]", &ls, &lr,
                   LINEAR_CVT_SHARED);
    /* mixed-radix (a dim of 3 in registers) takes the enumeration path */
    IrType t3 = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 3}, {.size = 64}}};
    Layout c3, d3;
    blocked2(&c3, 1, 2, 1, 32, 1, 1, 1);
    blocked2(&d3, 1, 1, 1, 32, 1, 1, 1);
    linear_from_layout(&c3, &t3, 1, &la);
    linear_from_layout(&d3, &t3, 1, &lb);
    CHECK(!linear_is_linear(&la), "a dim of 3 is an affine part");
    expect_convert("blocked [3,64] spt[1,2] -> spt[1,1] (one warp)", &la, &lb, LINEAR_CVT_SHUFFLE);

    /* random pairs: the bases (or enumeration) agree with brute force */
    int kinds[4] = {0};
    for (int iter = 0; iter < 150; iter++) {
        int warps = 1 << rnd(3);
        Layout x, y;
        random_blocked(&x, 2, warps);
        random_blocked(&y, 2, warps);
        if (rnd(3) == 0)
            y = x, y.size_per_thread[rnd(2)] = 1 << rnd(3);
        IrType tt = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2};
        tt.dims[0].size = rnd(6) == 0 ? 3 : 1 << rnd(5);
        tt.dims[1].size = 1 << rnd(5);
        linear_from_layout(&x, &tt, warps, &la);
        linear_from_layout(&y, &tt, warps, &lb);
        LinearConvertKind got = linear_convert_kind(&la, &lb), brute = brute_convert(&la, &lb);
        kinds[got]++;
        CHECK(got == brute, "random conversion: %s, brute force %s", linear_convert_name(got),
              linear_convert_name(brute));
    }
    CHECK(kinds[0] && kinds[1] && kinds[2] && kinds[3], "random conversions reach every kind (%d %d %d %d)",
          kinds[0], kinds[1], kinds[2], kinds[3]);
    section("conversion kinds (bases vs brute force)", c0, f0);
}

/* ---- vector widths, inverses ------------------------------------------------------- */

static int brute_vector_width(const LinearLayout *l, int dim) {
    int64_t regs = linear_in_size(l, 0);
    int best = 1;
    for (int64_t v = 2; v <= regs; v *= 2) {
        bool ok = regs % v == 0;
        for (int64_t w = 0; ok && w < linear_in_size(l, 2); w++)
            for (int64_t lane = 0; ok && lane < 32; lane++)
                for (int64_t r = 0; ok && r < regs; r += v) {
                    int64_t base[IR_MAX_RANK], c[IR_MAX_RANK];
                    linear_apply_thread(l, r, lane, w, base);
                    ok = base[dim] % v == 0;
                    for (int64_t i = 1; ok && i < v; i++) {
                        linear_apply_thread(l, r + i, lane, w, c);
                        for (int d = 0; d < l->num_out; d++)
                            ok &= c[d] == (d == dim ? base[d] + i : base[d]);
                    }
                }
        if (!ok)
            break;
        best = (int)v;
    }
    return best;
}

static void test_vectors_and_inverse(void) {
    long c0 = checks;
    int f0 = failures;
    LinearLayout l, inv;
    IrType t = {.kind = IRT_TILE, .dtype = DT_F16, .rank = 2, .dims = {{.size = 64}, {.size = 64}}};
    Layout b;
    blocked2(&b, 1, 8, 8, 4, 4, 1, 1);
    linear_from_layout(&b, &t, 4, &l);
    CHECK(linear_vector_width(&l, 1) == 8 && linear_vector_width(&l, 0) == 1, "blocked spt 8 vectors");
    linear_mma_sync(LINEAR_MMA_C, 64, 64, 2, 2, &l);
    CHECK(linear_vector_width(&l, 1) == 2, "mma C: pairs along columns");
    linear_mma_sync(LINEAR_MMA_B, 64, 64, 2, 2, &l);
    CHECK(linear_vector_width(&l, 0) == 2 && linear_vector_width(&l, 1) == 1, "mma B: pairs along k");
    linear_wgmma_acc(64, 24, 4, &l);
    CHECK(linear_vector_width(&l, 1) == 2, "wgmma n24: pairs");
    int tested = 0;
    for (int iter = 0; iter < 200; iter++) {
        int warps = 1 << rnd(3);
        Layout x;
        random_blocked(&x, 2, warps);
        IrType tt = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2};
        tt.dims[0].size = random_size();
        tt.dims[1].size = random_size();
        if (tt.dims[0].size * tt.dims[1].size > 2048)
            continue;
        linear_from_layout(&x, &tt, warps, &l);
        for (int d = 0; d < 2; d++) {
            int got = linear_vector_width(&l, d), want = brute_vector_width(&l, d);
            CHECK(got == want, "vector width dim %d: %d, brute force %d", d, got, want);
        }
        tested++;
    }
    CHECK(tested > 100, "vector widths tested %d", tested);
    /* a bijective distributed layout inverts to "who holds element (r, c)" */
    linear_mma_sync(LINEAR_MMA_C, 32, 32, 2, 2, &l);
    CHECK(linear_is_injective(&l) && linear_invert(&l, &inv), "mma C 32x32 inverts");
    for (int64_t reg = 0; reg < linear_in_size(&l, 0); reg++)
        for (int64_t lane = 0; lane < 32; lane++)
            for (int64_t w = 0; w < 4; w++) {
                int64_t c[2], back[3];
                linear_apply_thread(&l, reg, lane, w, c);
                linear_apply(&inv, c, back);
                CHECK(back[0] == reg && back[1] == lane && back[2] == w, "invert round trip");
            }
    linear_mma_sync(LINEAR_MMA_A, 32, 32, 2, 2, &l);
    CHECK(!linear_is_injective(&l) && !linear_invert(&l, &inv), "a replicated layout does not invert");
    section("vector widths and inverses", c0, f0);
}

static void print_layouts(void) {
    LinearLayout l;
    char buf[2048];
    linear_mma_sync(LINEAR_MMA_C, 16, 8, 1, 1, &l);
    linear_format(&l, buf, sizeof buf);
    printf("format mma C 16x8: %s\n", buf);
    linear_wgmma_acc(64, 24, 4, &l);
    linear_format(&l, buf, sizeof buf);
    printf("format wgmma D 64x24: %s\n", buf);
    linear_shared_swizzled(8, 64, 2, 128, &l);
    linear_format(&l, buf, sizeof buf);
    printf("format sw128 8x64 f16: %s\n", buf);
    Layout b;
    blocked2(&b, 1, 4, 4, 8, 2, 1, 1);
    IrType t = {.kind = IRT_TILE, .dtype = DT_F32, .rank = 2, .dims = {{.size = 6}, {.size = 32}}};
    linear_from_layout(&b, &t, 2, &l);
    linear_format(&l, buf, sizeof buf);
    printf("format blocked [6,32]: %s\n", buf);
}

int main(void) {
    test_mma_sync();
    test_ldmatrix_addresses();
    test_wgmma();
    test_blocked();
    test_swizzle();
    test_bank_conflicts();
    test_conversions();
    test_vectors_and_inverse();
    print_layouts();
    printf("total: %ld checks, %d mismatches\n", checks, failures);
    return failures ? 1 : 0;
}
