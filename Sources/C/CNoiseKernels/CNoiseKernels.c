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

/// One sample of one channel's eight bands: advances the noise and the two low-pass pairs and
/// returns (high2 − low2)·envelope, in the Swift loop's order of operations.
__attribute__((target("avx2"), always_inline)) static inline __m256 bed_bands(
    __m256i *x, __m256 *l, __m256 *h, __m256 *l2, __m256 *h2, __m256 env, __m256 al, __m256 ah) {
    const __m256 scale = _mm256_set1_ps(1.0f / 2147483648.0f);
    *x = _mm256_xor_si256(*x, _mm256_slli_epi32(*x, 13));
    *x = _mm256_xor_si256(*x, _mm256_srli_epi32(*x, 17));
    *x = _mm256_xor_si256(*x, _mm256_slli_epi32(*x, 5));
    __m256 u = _mm256_mul_ps(_mm256_cvtepi32_ps(*x), scale);
    *l = _mm256_add_ps(*l, _mm256_mul_ps(al, _mm256_sub_ps(u, *l)));
    *h = _mm256_add_ps(*h, _mm256_mul_ps(ah, _mm256_sub_ps(u, *h)));
    *l2 = _mm256_add_ps(*l2, _mm256_mul_ps(al, _mm256_sub_ps(*l, *l2)));
    *h2 = _mm256_add_ps(*h2, _mm256_mul_ps(ah, _mm256_sub_ps(*h, *h2)));
    return _mm256_mul_ps(_mm256_sub_ps(*h2, *l2), env);
}

/// Rows p[j] = sample j's eight band values -> each sample's sum b0 + b1 + … + b7 (left to right,
/// as `SIMD8.sum()` adds), lane j = sample j: an 8 × 8 transpose, then seven vector adds.
__attribute__((target("avx2"), always_inline)) static inline __m256 sums(const __m256 p[8]) {
    __m256 t0 = _mm256_unpacklo_ps(p[0], p[1]), t1 = _mm256_unpackhi_ps(p[0], p[1]);
    __m256 t2 = _mm256_unpacklo_ps(p[2], p[3]), t3 = _mm256_unpackhi_ps(p[2], p[3]);
    __m256 t4 = _mm256_unpacklo_ps(p[4], p[5]), t5 = _mm256_unpackhi_ps(p[4], p[5]);
    __m256 t6 = _mm256_unpacklo_ps(p[6], p[7]), t7 = _mm256_unpackhi_ps(p[6], p[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    __m256 y = _mm256_add_ps(_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20));
    y = _mm256_add_ps(y, _mm256_permute2f128_ps(u2, u6, 0x20));
    y = _mm256_add_ps(y, _mm256_permute2f128_ps(u3, u7, 0x20));
    y = _mm256_add_ps(y, _mm256_permute2f128_ps(u0, u4, 0x31));
    y = _mm256_add_ps(y, _mm256_permute2f128_ps(u1, u5, 0x31));
    y = _mm256_add_ps(y, _mm256_permute2f128_ps(u2, u6, 0x31));
    return _mm256_add_ps(y, _mm256_permute2f128_ps(u3, u7, 0x31));
}

/// One channel; `out` strided by 2.
__attribute__((target("avx2"), always_inline)) static inline void bed_channel(
    unsigned *noise, float *low, float *high, float *low2, float *high2, const float *envelope,
    const float *envelopeStep, const float *aLow, const float *aHigh, float *out, long n) {
    __m256i x = _mm256_loadu_si256((const __m256i *)noise);
    __m256 l = _mm256_loadu_ps(low), h = _mm256_loadu_ps(high);
    __m256 l2 = _mm256_loadu_ps(low2), h2 = _mm256_loadu_ps(high2);
    __m256 env = _mm256_loadu_ps(envelope);
    const __m256 step = _mm256_loadu_ps(envelopeStep);
    const __m256 al = _mm256_loadu_ps(aLow), ah = _mm256_loadu_ps(aHigh);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 p[8];
        for (int j = 0; j < 8; j++) {
            p[j] = bed_bands(&x, &l, &h, &l2, &h2, env, al, ah);
            env = _mm256_add_ps(env, step);
        }
        float ys[8];
        _mm256_storeu_ps(ys, sums(p));
        for (int j = 0; j < 8; j++) out[2 * (i + j)] += ys[j];
    }
    for (; i < n; i++) {
        float p[8];
        _mm256_storeu_ps(p, bed_bands(&x, &l, &h, &l2, &h2, env, al, ah));
        env = _mm256_add_ps(env, step);
        float y = p[0];
        for (int k = 1; k < 8; k++) y += p[k];
        out[2 * i] += y;
    }
    _mm256_storeu_si256((__m256i *)noise, x);
    _mm256_storeu_ps(low, l);
    _mm256_storeu_ps(high, h);
    _mm256_storeu_ps(low2, l2);
    _mm256_storeu_ps(high2, h2);
}

/// The line's frame (left, right) in `y`, as `TextureBed.render`'s Swift loop makes it: its own
/// xorshift32 per channel, y = x + a1·y1 + a2·y2, scaled by the gain, which then steps.
__attribute__((always_inline)) static inline void line_frame(
    unsigned *x, float *y1, float *y2, float a1, float a2, float *gain, float step, float *y) {
    for (int c = 0; c < 2; c++) {
        x[c] ^= x[c] << 13;
        x[c] ^= x[c] >> 17;
        x[c] ^= x[c] << 5;
        const float u = (float)(int)x[c] * (1.0f / 2147483648.0f);
        const float v = u + a1 * y1[c] + a2 * y2[c];
        y2[c] = y1[c];
        y1[c] = v;
        y[c] = v * *gain;
    }
    *gain += step;
}

__attribute__((target("avx2"))) void cnk_texture_bed_avx2(int channels, void *noise, void *low, void *high,
    void *low2, void *high2, const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh,
    float *output, long n) {
    cnk_texture_bed_line_avx2(channels, noise, low, high, low2, high2, envelope, envelopeStep, aLow, aHigh, 0,
        output, n);
}

__attribute__((target("avx2"))) void cnk_texture_bed_line_avx2(int channels, void *noise, void *low, void *high,
    void *low2, void *high2, const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh,
    cnk_bed_line *line, float *output, long n) {
    if (channels == 1) {
        bed_channel(noise, low, high, low2, high2, envelope, envelopeStep, aLow, aHigh, output, n);
        return;
    }
    // Both channels in one loop: two independent recursions in flight while each waits on its
    // previous sample (one channel after the other measured 1.35x the time).
    unsigned *nz = noise; float *lo = low, *hi = high, *lo2 = low2, *hi2 = high2;
    __m256i xa = _mm256_loadu_si256((const __m256i *)nz), xb = _mm256_loadu_si256((const __m256i *)(nz + 8));
    __m256 la = _mm256_loadu_ps(lo), lb = _mm256_loadu_ps(lo + 8);
    __m256 ha = _mm256_loadu_ps(hi), hb = _mm256_loadu_ps(hi + 8);
    __m256 l2a = _mm256_loadu_ps(lo2), l2b = _mm256_loadu_ps(lo2 + 8);
    __m256 h2a = _mm256_loadu_ps(hi2), h2b = _mm256_loadu_ps(hi2 + 8);
    __m256 env = _mm256_loadu_ps(envelope);
    const __m256 step = _mm256_loadu_ps(envelopeStep);
    const __m256 al = _mm256_loadu_ps(aLow), ah = _mm256_loadu_ps(aHigh);
    // The line in locals; with none, it adds nothing (and no arithmetic: the bytes stay the bed's).
    unsigned lx[2] = {1, 1};
    float ly1[2] = {0, 0}, ly2[2] = {0, 0}, la1 = 0, la2 = 0, lg = 0, lstep = 0;
    if (line) {
        lx[0] = line->noise[0], lx[1] = line->noise[1];
        ly1[0] = line->y1[0], ly1[1] = line->y1[1], ly2[0] = line->y2[0], ly2[1] = line->y2[1];
        la1 = line->a1, la2 = line->a2, lg = line->gain, lstep = line->gainStep;
    }
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 pa[8], pb[8];
        float ly[16];
        if (line) {
            for (int j = 0; j < 8; j++) line_frame(lx, ly1, ly2, la1, la2, &lg, lstep, ly + 2 * j);
        }
        for (int j = 0; j < 8; j++) {
            pa[j] = bed_bands(&xa, &la, &ha, &l2a, &h2a, env, al, ah);
            pb[j] = bed_bands(&xb, &lb, &hb, &l2b, &h2b, env, al, ah);
            env = _mm256_add_ps(env, step);
        }
        __m256 ya = sums(pa), yb = sums(pb);
        // Interleave left and right: frames i … i+7 as (L, R) pairs, added to the output.
        __m256 lo4 = _mm256_unpacklo_ps(ya, yb), hi4 = _mm256_unpackhi_ps(ya, yb);
        __m256 first = _mm256_permute2f128_ps(lo4, hi4, 0x20), second = _mm256_permute2f128_ps(lo4, hi4, 0x31);
        float *o = output + 2 * i;
        __m256 sumFirst = _mm256_add_ps(_mm256_loadu_ps(o), first);
        __m256 sumSecond = _mm256_add_ps(_mm256_loadu_ps(o + 8), second);
        if (line) {
            // The line after the bed, as the Swift loop adds it.
            sumFirst = _mm256_add_ps(sumFirst, _mm256_loadu_ps(ly));
            sumSecond = _mm256_add_ps(sumSecond, _mm256_loadu_ps(ly + 8));
        }
        _mm256_storeu_ps(o, sumFirst);
        _mm256_storeu_ps(o + 8, sumSecond);
    }
    for (; i < n; i++) {
        float p[8], q[8];
        _mm256_storeu_ps(p, bed_bands(&xa, &la, &ha, &l2a, &h2a, env, al, ah));
        _mm256_storeu_ps(q, bed_bands(&xb, &lb, &hb, &l2b, &h2b, env, al, ah));
        env = _mm256_add_ps(env, step);
        float ya = p[0], yb = q[0];
        for (int k = 1; k < 8; k++) { ya += p[k]; yb += q[k]; }
        output[2 * i] += ya;
        output[2 * i + 1] += yb;
        if (line) {
            float ly[2];
            line_frame(lx, ly1, ly2, la1, la2, &lg, lstep, ly);
            output[2 * i] += ly[0];
            output[2 * i + 1] += ly[1];
        }
    }
    if (line) {
        line->noise[0] = lx[0], line->noise[1] = lx[1];
        line->y1[0] = ly1[0], line->y1[1] = ly1[1], line->y2[0] = ly2[0], line->y2[1] = ly2[1];
        line->gain = lg;
    }
    _mm256_storeu_si256((__m256i *)nz, xa); _mm256_storeu_si256((__m256i *)(nz + 8), xb);
    _mm256_storeu_ps(lo, la); _mm256_storeu_ps(lo + 8, lb);
    _mm256_storeu_ps(hi, ha); _mm256_storeu_ps(hi + 8, hb);
    _mm256_storeu_ps(lo2, l2a); _mm256_storeu_ps(lo2 + 8, l2b);
    _mm256_storeu_ps(hi2, h2a); _mm256_storeu_ps(hi2 + 8, h2b);
}

#else

int cnk_has_avx2(void) { return 0; }

void cnk_texture_bed_line_avx2(int channels, void *noise, void *low, void *high, void *low2, void *high2,
    const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh, cnk_bed_line *line,
    float *output, long n) {
    (void)channels, (void)noise, (void)low, (void)high, (void)low2, (void)high2, (void)envelope;
    (void)envelopeStep, (void)aLow, (void)aHigh, (void)line, (void)output, (void)n;
}

void cnk_texture_bed_avx2(int channels, void *noise, void *low, void *high, void *low2, void *high2,
    const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh, float *output, long n) {
    (void)channels, (void)noise, (void)low, (void)high, (void)low2, (void)high2, (void)envelope;
    (void)envelopeStep, (void)aLow, (void)aHigh, (void)output, (void)n;
}

#endif
