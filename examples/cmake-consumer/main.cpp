// A user's C++ program: launches the spec's flash-attention kernel (mha_fwd
// in kernels/attention.tess) through the header tessc generated, and checks
// the result against attention computed here on the CPU in double precision.
//
// Exit status: 0 when the results match, or when there is no CUDA device (it
// says "no CUDA device" after checking that the embedded kernels load); 1 on
// a mismatch or an error, and without a device under --require-device.
#include "attention.h"
#include "relu2x1.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int fail(const char *what, tessrt_status s) {
    std::fprintf(stderr, "consumer: %s: %s: %s\n", what, tessrt_error_string(s), tessrt_last_error());
    return 1;
}

// IEEE half <-> float, round to nearest even (no _Float16 in C++17).
uint16_t half_from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000;
        int shift = 14 - e;
        uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = (uint32_t)e << 10 | mant >> 13, rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
        half++;
    return (uint16_t)(sign | half);
}

float float_from_half(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float f;
    if (exp == 0) {
        f = std::ldexp((float)mant, -24);
        return sign ? -f : f;
    }
    uint32_t x = exp == 31 ? (sign | 0x7f800000 | mant << 13) : (sign | (exp - 15 + 127) << 23 | mant << 13);
    std::memcpy(&f, &x, 4);
    return f;
}

}  // namespace

int main(int argc, char **argv) {
    bool require = argc > 1 && std::strcmp(argv[1], "--require-device") == 0;
    tessrt_manifest *m;
    tessrt_kernel *k;
    tessrt_status s = attention_manifest(&m);
    if (s != TESSRT_OK || (s = tessrt_kernel_get(m, "mha_fwd", &k)) != TESSRT_OK)
        return fail("the embedded attention manifest", s);
    char desc[256];
    int index;
    if ((s = tessrt_kernel_artifact_for(k, 8, 0, &index, desc, sizeof desc)) != TESSRT_OK)
        return fail("choosing an artifact", s);
    std::printf("embedded: mha_fwd on an 8.0 device runs %s\n", desc);
    int devices = 0;
    if (tessrt_device_count(&devices) != TESSRT_OK || devices == 0) {
        std::printf("no CUDA device: nothing launched\n");
        return require ? 1 : 0;
    }

    // q: [B, S, H, D], k and v: [B, T, H, D]; S and T not multiples of the blocks.
    const int B = 2, S = 200, H = 3, T = 150, D = 64;
    const float scale = 1.0f / std::sqrt((float)D);
    std::vector<uint16_t> q(B * S * H * D), kk(B * T * H * D), v(B * T * H * D), o(B * S * H * D);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = half_from_float((float)((i * 7919) % 401) / 200.0f - 1.0f);
    for (size_t i = 0; i < kk.size(); i++) {
        kk[i] = half_from_float((float)((i * 104729) % 397) / 198.0f - 1.0f);
        v[i] = half_from_float((float)((i * 1299709) % 389) / 194.0f - 1.0f);
    }
    uint64_t dq, dk, dv, dout;
    if ((s = tessrt_device_alloc(0, q.size() * 2, &dq)) || (s = tessrt_device_alloc(0, kk.size() * 2, &dk)) ||
        (s = tessrt_device_alloc(0, v.size() * 2, &dv)) || (s = tessrt_device_alloc(0, o.size() * 2, &dout)))
        return fail("tessrt_device_alloc", s);
    if ((s = tessrt_copy_to_device(0, dq, q.data(), q.size() * 2)) ||
        (s = tessrt_copy_to_device(0, dk, kk.data(), kk.size() * 2)) ||
        (s = tessrt_copy_to_device(0, dv, v.data(), v.size() * 2)))
        return fail("copy to device", s);
    if ((s = mha_fwd_launch(nullptr, dq, dk, dv, dout, scale, B, S, H, T)) != TESSRT_OK)
        return fail("mha_fwd_launch", s);
    if ((s = tessrt_device_synchronize(0)) || (s = tessrt_copy_from_device(0, o.data(), dout, o.size() * 2)))
        return fail("copy from device", s);

    int bad = 0;
    double worst = 0;
    std::vector<double> p(T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < S; i++) {
                double max = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    double dot = 0;
                    for (int d = 0; d < D; d++)
                        dot += (double)float_from_half(q[((b * S + i) * H + h) * D + d]) *
                               float_from_half(kk[((b * T + j) * H + h) * D + d]);
                    p[j] = dot * scale;
                    max = std::fmax(max, p[j]);
                }
                for (int j = 0; j < T; j++)
                    sum += p[j] = std::exp(p[j] - max);
                for (int d = 0; d < D; d++) {
                    double want = 0;
                    for (int j = 0; j < T; j++)
                        want += p[j] * float_from_half(v[((b * T + j) * H + h) * D + d]);
                    want /= sum;
                    double got = float_from_half(o[((b * S + i) * H + h) * D + d]);
                    double err = std::fabs(got - want);
                    worst = std::fmax(worst, err);
                    if (err > 1e-2 + 1e-2 * std::fabs(want) && bad++ < 5)
                        std::fprintf(stderr, "o[%d, %d, %d, %d] = %g, want %g\n", b, i, h, d, got, want);
                }
            }
    tessrt_device_free(0, dq);
    tessrt_device_free(0, dk);
    tessrt_device_free(0, dv);
    tessrt_device_free(0, dout);
    if (bad) {
        std::printf("FAILED: %d values differ (worst %g)\n", bad, worst);
        return 1;
    }
    std::printf("mha_fwd [%d, %d, %d, %d] x T=%d matches the CPU (worst error %.2g)\n", B, S, H, D, T, worst);
    return 0;
}
