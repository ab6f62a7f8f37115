/*
 * exp_ulp.c: the error of Tessera's f32 exp (compiler/gpu/llvm_math.c, exp_f32)
 * against a correctly rounded reference, with ex2.approx.f32 MODELLED, not
 * run: this machine has no GPU. The formula is evaluated exactly as the PTX
 * does (f32 mul, fmaf, select), and ex2.approx.f32(t) is replaced by the
 * correctly rounded 2^t perturbed by a worst-case error: --ex2-ulp U (the
 * result moved by U ulps, each sign; default 2, CUDA's documented bound for
 * exp2f's fast path) or --ex2-rel R (relative error R, e.g. 2^-22). The
 * reference is exp() in double, whose error (< 1 ulp of double) is far below
 * an ulp of float. Prints the largest error in ulps of the reference over
 * random inputs in [-104, 89] and the edge cases.
 *
 *   cc -O2 -std=c11 bench/exp_ulp.c -lm -o /tmp/exp_ulp && /tmp/exp_ulp [--ex2-ulp U | --ex2-rel R] [N]
 *
 * On the GPU machine the same formula's real error is what tessrun reports
 * for an exp kernel against numpy (testsuite/interp/check.py); this file
 * is the bound's derivation, docs/codegen.md ("Math functions") its result.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double ex2_ulp = 2, ex2_rel = 0;
static int ex2_sign;   /* -1, 0, +1: which way the model errs */

static float ex2_model(float t) {
    double exact = exp2((double)t);
    float r = (float)exact;
    if (!isfinite(r) || r == 0)
        return r;
    if (ex2_rel > 0)
        return (float)(exact * (1 + ex2_sign * ex2_rel));
    float ulp = nextafterf(fabsf(r), INFINITY) - fabsf(r);
    return r + (float)(ex2_sign * ex2_ulp) * ulp;
}

/* compiler/gpu/llvm_math.c exp_f32, operation by operation. */
static float tessera_exp(float x) {
    const float hi = 1.44269502162933349609375f, lo = 1.925963033500011e-08f, ln2 = 0.693147182464599609375f;
    float t = x * hi;
    float c = fmaf(x, hi, -t);
    c = fmaf(x, lo, c);
    float e = ex2_model(t);
    float r = fmaf(e, c * ln2, e);
    return t < 128.0f && t > -150.0f ? r : e;
}

/* Error of r in ulps of the exact value (ulp of the float binade of exp(x)). */
static double ulp_error(float x, float r) {
    double exact = exp((double)x);
    float ref = (float)exact;
    if (isnan(r) || isnan(ref))
        return isnan(r) && isnan(ref) ? 0 : INFINITY;
    if (isinf(ref) || isinf(r))
        return r == ref ? 0 : INFINITY;
    int e;
    frexp(exact, &e);
    double ulp = ldexp(1.0, (e - 24 > -149 ? e - 24 : -149));
    return fabs((double)r - exact) / ulp;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

int main(int argc, char **argv) {
    long n = 20000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ex2-ulp") == 0 && i + 1 < argc)
            ex2_ulp = atof(argv[++i]);
        else if (strcmp(argv[i], "--ex2-rel") == 0 && i + 1 < argc)
            ex2_rel = atof(argv[++i]);
        else
            n = atol(argv[i]);
    }
    static const float edges[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-45f, 1.0f, -1.0f, 0.5f, 88.0f, 88.72f,
                                  88.7228f, 88.72283f, 88.7229f, 89.0f, -87.33f, -87.34f, -100.0f, -103.0f,
                                  -103.97f, -104.0f, -110.0f, INFINITY, -INFINITY, NAN};
    double worst = 0, worst_normal = 0;
    float worst_x = 0, worst_normal_x = 0;
    long over_one = 0, total = 0;
    for (ex2_sign = -1; ex2_sign <= 1; ex2_sign++) {
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
            double u = ulp_error(edges[i], tessera_exp(edges[i]));
            if (u > worst) { worst = u; worst_x = edges[i]; }
        }
        for (long k = 0; k < n; k++) {
            /* uniform in [-104, 89] plus a share of tiny and near-edge values */
            float x;
            uint32_t r = next();
            if (k % 8 == 0)
                x = ldexpf((float)(r & 0xffffff) / 16777216.0f, -(int)(next() % 60)) * ((r >> 31) ? -1 : 1);
            else
                x = -104.0f + 193.0f * ((float)(r >> 8) / 16777216.0f);
            double u = ulp_error(x, tessera_exp(x));
            total++;
            over_one += u > 1;
            if (u > worst) { worst = u; worst_x = x; }
            if (x > -87.3f && x < 88.7f && u > worst_normal) { worst_normal = u; worst_normal_x = x; }
        }
    }
    printf("ex2.approx model: %s %g\n", ex2_rel > 0 ? "relative error" : "ulps", ex2_rel > 0 ? ex2_rel : ex2_ulp);
    printf("max error, normal results: %.3f ulp (x = %.9g)\n", worst_normal, worst_normal_x);
    printf("max error, all inputs:     %.3f ulp (x = %.9g)\n", worst, worst_x);
    printf("inputs over 1 ulp: %ld of %ld\n", over_one, total);
    return 0;
}
