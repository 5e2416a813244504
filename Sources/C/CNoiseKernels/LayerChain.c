// Two layer pairs' chains for one sub-block (see CNoiseKernels.h, `cnk_layer_chain_avx2`).
//
// Why this exists: the Swift chain (`ChainKernel.run` over SIMD8) is built for the baseline
// x86-64 target, so each eight-lane vector is two SSE registers and the 15 stages' constants and
// states spill to the stack (`perf annotate`: 1,811 SSE instructions, no ymm, a third of them
// moves to and from the stack). Here each vector is one AVX register; the arithmetic and its
// order are the Swift chain's, with no fused multiply-add, so the bits are the same.

#include "CNoiseKernels.h"

#pragma clang fp contract(off)
#pragma clang diagnostic ignored "-Wpsabi"

typedef float lc_f8 __attribute__((ext_vector_type(8)));
typedef float lc_f4 __attribute__((ext_vector_type(4), aligned(16)));
typedef int lc_i8 __attribute__((ext_vector_type(8)));
/// The same at any address (the gains come from the caller's stack).
typedef float lc_f8u __attribute__((ext_vector_type(8), aligned(4)));

/// Pair a's lanes low, pair b's high (as `SIMD8(lowHalf:highHalf:)`).
__attribute__((always_inline)) static inline lc_f8 lc_join(const float *a, const float *b) {
    const lc_f4 lo = *(const lc_f4 *)a, hi = *(const lc_f4 *)b;
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

__attribute__((always_inline)) static inline void lc_split(lc_f8 v, float *a, float *b) {
    *(lc_f4 *)a = __builtin_shufflevector(v, v, 0, 1, 2, 3);
    *(lc_f4 *)b = __builtin_shufflevector(v, v, 4, 5, 6, 7);
}

/// A first-order stage (TDF-II, b0 factored out): y = x + s, s = b1·x − a1·y.
typedef struct {
    lc_f8 b1, a1, s;
} lc_first;

/// A biquad (TDF-II): y = b0·x + s1, s1 = b1·x − a1·y + s2, s2 = b2·x − a2·y.
typedef struct {
    lc_f8 b0, b1, b2, a1, a2, wet, s1, s2;
} lc_biquad;

__attribute__((always_inline)) static inline lc_first lc_first_load(const float *ca, const float *cb, int stage) {
    const int base = 4 * stage;
    return (lc_first){lc_join(ca + 4 * (base + 1), cb + 4 * (base + 1)), lc_join(ca + 4 * (base + 2), cb + 4 * (base + 2)),
        lc_join(ca + 4 * (base + 3), cb + 4 * (base + 3))};
}

__attribute__((always_inline)) static inline lc_biquad lc_biquad_load(const float *qa, const float *qb, int q) {
    const int base = 8 * q;
#define LC_AT(k) lc_join(qa + 4 * (base + (k)), qb + 4 * (base + (k)))
    return (lc_biquad){LC_AT(0), LC_AT(1), LC_AT(2), LC_AT(3), LC_AT(4), LC_AT(7), LC_AT(5), LC_AT(6)};
#undef LC_AT
}

__attribute__((always_inline)) static inline lc_f8 lc_first_step(lc_first *c, lc_f8 v) {
    const lc_f8 y = v + c->s;
    c->s = c->b1 * v - c->a1 * y;
    return y;
}

__attribute__((always_inline)) static inline lc_f8 lc_biquad_step(lc_biquad *q, lc_f8 v) {
    const lc_f8 y = q->b0 * v + q->s1;
    q->s1 = q->b1 * v - q->a1 * y + q->s2;
    q->s2 = q->b2 * v - q->a2 * y;
    return y;
}

__attribute__((always_inline)) static inline lc_f8 lc_biquad_wet_step(lc_biquad *q, lc_f8 x) {
    const lc_f8 v = lc_biquad_step(q, x);
    return x + q->wet * (v - x);
}

__attribute__((always_inline)) static inline void layer_chain(lc_f8 *v, float *colourA, float *colourB,
    float *biquadsA, float *biquadsB, const float *gainStart, const float *gainStep, float *outA, float *outB,
    long n) {
    // Two passes (the Swift chain makes four, for its 16 SSE registers): each stage's recursion
    // waits on its own last sample (a multiply and two adds deep for a first-order stage, more for
    // a biquad), so a pass costs about its slowest stage a frame rather than the sum of its stages.
    // Four passes measured 1,064-1,168 us per second of four layers, two 1,009-1,013, one (all
    // fifteen stages, spilling) 1,135.
    lc_first c[10];
    for (int k = 0; k < 10; k++) c[k] = lc_first_load(colourA, colourB, k);
    for (long i = 0; i < n; i++) {
        lc_f8 x = v[i];
        for (int k = 0; k < 10; k++) x = lc_first_step(&c[k], x);
        v[i] = x;
    }
    for (int k = 0; k < 10; k++) lc_split(c[k].s, colourA + 4 * (4 * k + 3), colourB + 4 * (4 * k + 3));
    lc_biquad q[5];
    for (int k = 0; k < 5; k++) q[k] = lc_biquad_load(biquadsA, biquadsB, k);
    const lc_i8 wetOn = (q[0].wet == 1.0f) & (q[1].wet == 1.0f);
    const int bothOn = wetOn[0] & wetOn[1] & wetOn[2] & wetOn[3] & wetOn[4] & wetOn[5] & wetOn[6] & wetOn[7];
    lc_f8 gain = *(const lc_f8u *)gainStart;
    const lc_f8 step = *(const lc_f8u *)gainStep;
    for (long i = 0; i < n; i++) {
        // The cuts mixed by their `wet` unless both are fully on (the usual case, no mix to compute).
        const lc_f8 cut = bothOn ? lc_biquad_step(&q[1], lc_biquad_step(&q[0], v[i]))
                                 : lc_biquad_wet_step(&q[1], lc_biquad_wet_step(&q[0], v[i]));
        const lc_f8 y = lc_biquad_step(&q[4], lc_biquad_step(&q[3], lc_biquad_step(&q[2], cut)));
        gain = gain + step;
        lc_split(y * gain, outA + 4 * i, outB + 4 * i);
    }
    for (int k = 0; k < 5; k++) {
        lc_split(q[k].s1, biquadsA + 4 * (8 * k + 5), biquadsB + 4 * (8 * k + 5));
        lc_split(q[k].s2, biquadsA + 4 * (8 * k + 6), biquadsB + 4 * (8 * k + 6));
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void cnk_layer_chain_avx2(void *input, float *colourA, float *colourB,
    float *biquadsA, float *biquadsB, const float *gainStart, const float *gainStep, float *outA, float *outB,
    long n) {
    layer_chain((lc_f8 *)input, colourA, colourB, biquadsA, biquadsB, gainStart, gainStep, outA, outB, n);
}
#else
void cnk_layer_chain_avx2(void *input, float *colourA, float *colourB, float *biquadsA, float *biquadsB,
    const float *gainStart, const float *gainStep, float *outA, float *outB, long n) {
    layer_chain((lc_f8 *)input, colourA, colourB, biquadsA, biquadsB, gainStart, gainStep, outA, outB, n);
}
#endif

void cnk_texture_lanes(const float *t0, const float *t1, const float *t2, const float *t3, void *lanes, long n) {
    float *out = lanes;
    for (long i = 0; i < n; i++) {
        float *o = out + 8 * i;
        o[0] = t0[2 * i], o[1] = t0[2 * i + 1], o[2] = t1[2 * i], o[3] = t1[2 * i + 1];
        o[4] = t2[2 * i], o[5] = t2[2 * i + 1], o[6] = t3[2 * i], o[7] = t3[2 * i + 1];
    }
}
