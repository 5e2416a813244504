#include "CNoiseKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

int cnk_has_avx2(void) {
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return known;
}

/// One group's coefficient `k` in lane order [s0 L, s0 R, s1 L, s1 R, …, s3 R].
__attribute__((target("avx2"))) static inline __m256 lanes(const float *c, int k) {
    return _mm256_setr_ps(c[k], c[k], c[5 + k], c[5 + k], c[10 + k], c[10 + k], c[15 + k], c[15 + k]);
}

/// `groups` as a constant, so the per-group loops unroll and the registers stay registers.
__attribute__((target("avx2"), always_inline)) static inline void steady(
    const int groups, const float *c, float *state, float *pipe, float *x, long n) {
    __m256 b0[5], b1[5], b2[5], a1[5], a2[5], s1[5], s2[5], y[5];
    for (int g = 0; g < groups; g++) {
        const float *cg = c + 20 * g;
        b0[g] = lanes(cg, 0);
        b1[g] = lanes(cg, 1);
        b2[g] = lanes(cg, 2);
        a1[g] = lanes(cg, 3);
        a2[g] = lanes(cg, 4);
        s1[g] = _mm256_loadu_ps(state + 16 * g);
        s2[g] = _mm256_loadu_ps(state + 16 * g + 8);
        y[g] = _mm256_loadu_ps(pipe + 8 * g);
    }
    // Lane i takes lane i − 2 (section k − 1's output feeds section k); lanes 0 and 1 are then
    // replaced by what enters from below. `top` moves lanes 6 and 7 (the group's last section) down.
    const __m256i up = _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 4, 5);
    const __m256i top = _mm256_setr_epi32(6, 7, 6, 7, 6, 7, 6, 7);
    const long lag = 4 * groups - 1;
    for (long t = lag; t < n; t++) {
        __m256 below = _mm256_castpd_ps(_mm256_broadcast_sd((const double *)(x + 2 * t)));
        __m256 v[5];
        // Every input is read before any group moves.
        for (int g = 0; g < groups; g++) {
            __m256 from = g == 0 ? below : _mm256_permutevar8x32_ps(y[g - 1], top);
            v[g] = _mm256_blend_ps(_mm256_permutevar8x32_ps(y[g], up), from, 0x03);
        }
        for (int g = 0; g < groups; g++) {
            __m256 out = _mm256_add_ps(_mm256_mul_ps(b0[g], v[g]), s1[g]);
            s1[g] = _mm256_add_ps(_mm256_sub_ps(_mm256_mul_ps(b1[g], v[g]), _mm256_mul_ps(a1[g], out)), s2[g]);
            s2[g] = _mm256_sub_ps(_mm256_mul_ps(b2[g], v[g]), _mm256_mul_ps(a2[g], out));
            y[g] = out;
        }
        __m128 last = _mm256_extractf128_ps(y[groups - 1], 1);
        _mm_storeh_pi((__m64 *)(x + 2 * (t - lag)), last);
    }
    for (int g = 0; g < groups; g++) {
        _mm256_storeu_ps(state + 16 * g, s1[g]);
        _mm256_storeu_ps(state + 16 * g + 8, s2[g]);
        _mm256_storeu_ps(pipe + 8 * g, y[g]);
    }
}

__attribute__((target("avx2"))) void cnk_cascade_steady_avx2(
    int groups, const float *coefficients, float *state, float *pipe, float *x, long frameCount) {
    switch (groups) {
    case 1: steady(1, coefficients, state, pipe, x, frameCount); break;
    case 2: steady(2, coefficients, state, pipe, x, frameCount); break;
    case 3: steady(3, coefficients, state, pipe, x, frameCount); break;
    case 4: steady(4, coefficients, state, pipe, x, frameCount); break;
    default: steady(5, coefficients, state, pipe, x, frameCount); break;
    }
}

#else

int cnk_has_avx2(void) { return 0; }

void cnk_cascade_steady_avx2(
    int groups, const float *coefficients, float *state, float *pipe, float *x, long frameCount) {
    (void)groups, (void)coefficients, (void)state, (void)pipe, (void)x, (void)frameCount;
}

#endif
