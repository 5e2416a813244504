// The master filter's cascade of biquads (see CNoiseKernels.h, `cnk_cascade_df1`).
//
// Why this shape: a biquad's recursion waits on its own previous output. Transposed direct form
// II (the plain cascade) waits on a multiply and three adds per sample per section; here:
// - direct form I with b0 normalised to 1 (the cascade's gain, the product of the b0s, is one
//   multiply on the input): out = (((b1·u1 + b2·u2) − a2·y2) + u0) − a1·y1, so the recursion
//   waits on one multiply and one subtract, and the newest input on one add and one subtract;
// - the sections form a skewed pipeline, two steps per section (section k works on sample
//   t − 2k), so every section's arithmetic in a step is independent of the others' and what a
//   section takes from the one before it was made two steps earlier: the path between sections
//   (two adds and a subtract, plus group 0's lane shift) is spread over two steps;
// - vectors hold four sections × two channels; the sections are strided across the vectors
//   (group g's lane pair j is section g + groups·j), so section k − 1 sits in the same lanes of
//   the group before k's, and a section's input history is the previous section's output history:
//   a group keeps four outputs (y1…y4) and no input history. Group 0 takes its inputs from the
//   last group, shifted up one lane pair, with the new frame at the bottom.
// The pipeline fills and drains with the same vector steps, masked. No fused multiply-add, the
// same arithmetic in the same order on every target and however a signal is split into calls, so
// the output is bit-identical across builds and splits (`MasterFilterKernelTests`).
//
// history: (sections + 1) × 4 floats: [0] the scaled input's last two frames, [k + 1] section k's
// last two outputs, each (newest left, newest right, older left, older right).

#include "CNoiseKernels.h"

#pragma clang fp contract(off)
// The helpers take and return 256-bit vectors; they are always inlined, so no call passes one,
// but the baseline build warns that such a call's ABI would differ without AVX.
#pragma clang diagnostic ignored "-Wpsabi"
typedef float cnk_df1_f8 __attribute__((ext_vector_type(8)));
typedef int cnk_df1_i8 __attribute__((ext_vector_type(8)));
typedef float cnk_df1_f2 __attribute__((ext_vector_type(2), aligned(4)));

typedef struct {
    cnk_df1_f8 b1[5], b2[5], a1[5], a2[5], y1[5], y2[5], y3[5], y4[5], keep1[5], keep2[5];
    cnk_df1_i8 start[5];
} cnk_df1_groups;

__attribute__((always_inline)) static inline cnk_df1_f8 cnk_df1_shift_in(cnk_df1_f8 y, cnk_df1_f2 in) {
    cnk_df1_f8 i8 = __builtin_shufflevector(in, in, 0, 1, 0, 1, 0, 1, 0, 1);
    return __builtin_shufflevector(y, i8, 8, 9, 0, 1, 2, 3, 4, 5);
}

__attribute__((always_inline)) static inline cnk_df1_f8 cnk_df1_select(cnk_df1_i8 on, cnk_df1_f8 a, cnk_df1_f8 b) {
    return (cnk_df1_f8)(((cnk_df1_i8)a & on) | ((cnk_df1_i8)b & ~on));
}

// One step at time t. Section k (lane start 2k) works on sample t − 2k; u0..u2 are group 0's
// inputs (samples s, s − 1, s − 2). masked (filling and draining): sections not yet started keep
// their history; a section past its last sample goes on shifting (its outputs unused), so the
// section after it still finds its inputs two steps down its history; each section's last two
// outputs are kept when it makes its last sample (t = n − 1 + 2k), for the next call.
__attribute__((always_inline)) static inline void cnk_df1_step(
    const int groups, cnk_df1_groups *l, cnk_df1_f8 u0g, cnk_df1_f8 u1g, cnk_df1_f8 u2g, const int masked, int t, int n) {
    cnk_df1_f8 u0[5], u1[5], u2[5];
    u0[0] = u0g; u1[0] = u1g; u2[0] = u2g;
    for (int g = 1; g < groups; g++) { u0[g] = l->y2[g - 1]; u1[g] = l->y3[g - 1]; u2[g] = l->y4[g - 1]; }
    for (int g = 0; g < groups; g++) {
        // The newest input joins last but one: the path from the section before (two steps
        // earlier, through group 0's lane shift) is one add and one subtract, not three.
        cnk_df1_f8 feed = (l->b1[g] * u1[g] + l->b2[g] * u2[g]) - l->a2[g] * l->y2[g];
        cnk_df1_f8 out = (feed + u0[g]) - l->a1[g] * l->y1[g];
        if (masked) {
            cnk_df1_i8 on = l->start[g] <= t;
            cnk_df1_i8 last = l->start[g] == t - (n - 1);
            l->keep1[g] = cnk_df1_select(last, out, l->keep1[g]);
            l->keep2[g] = cnk_df1_select(last, l->y1[g], l->keep2[g]);
            l->y4[g] = cnk_df1_select(on, l->y3[g], l->y4[g]);
            l->y3[g] = cnk_df1_select(on, l->y2[g], l->y3[g]);
            l->y2[g] = cnk_df1_select(on, l->y1[g], l->y2[g]);
            l->y1[g] = cnk_df1_select(on, out, l->y1[g]);
        } else {
            l->y4[g] = l->y3[g];
            l->y3[g] = l->y2[g];
            l->y2[g] = l->y1[g];
            l->y1[g] = out;
        }
    }
}

// Frame t of the call's input, scaled: before the call the kept history, past its end silence.
__attribute__((always_inline)) static inline cnk_df1_f2 cnk_df1_frame(
    const float *x, int t, int n, cnk_df1_f2 gain, cnk_df1_f2 before1, cnk_df1_f2 before2) {
    const cnk_df1_f2 none = 0;
    if (t >= n) return none;
    if (t == -1) return before1;
    if (t == -2) return before2;
    return gain * *(const cnk_df1_f2 *)(x + 2 * t);
}

__attribute__((always_inline)) static inline void cnk_df1_cascade_groups(
    const int groups, int sections, const float *c, float gain, float *history, float *x, int n) {
    cnk_df1_groups l;
    for (int g = 0; g < groups; g++) {
        for (int j = 0; j < 4; j++) {
            const int k = g + groups * j;
            const int used = k < sections;
            for (int channel = 0; channel < 2; channel++) {
                const int lane = 2 * j + channel;
                l.b1[g][lane] = used ? c[4 * k] : 0;
                l.b2[g][lane] = used ? c[4 * k + 1] : 0;
                l.a1[g][lane] = used ? c[4 * k + 2] : 0;
                l.a2[g][lane] = used ? c[4 * k + 3] : 0;
                l.y1[g][lane] = used ? history[4 * (k + 1) + channel] : 0;
                l.y2[g][lane] = used ? history[4 * (k + 1) + 2 + channel] : 0;
                l.y3[g][lane] = 0;
                l.y4[g][lane] = 0;
                l.keep1[g][lane] = l.y1[g][lane];
                l.keep2[g][lane] = l.y2[g][lane];
                l.start[g][lane] = 2 * k;
            }
        }
    }
    const cnk_df1_f2 g2 = gain;
    const cnk_df1_f2 before1 = {history[0], history[1]}, before2 = {history[2], history[3]};
    const cnk_df1_f2 last1 = n >= 1 ? g2 * *(const cnk_df1_f2 *)(x + 2 * (n - 1)) : before1;
    const cnk_df1_f2 last2 = n >= 2 ? g2 * *(const cnk_df1_f2 *)(x + 2 * (n - 2)) : before1;
    const int lag = 2 * (4 * groups - 1);
    cnk_df1_f8 p = 0, w0 = 0, w1 = 0;
    int t = 0;
    // Steady steps: every section busy and none at its last sample (section 0's is t = n − 1).
    const int steadyEnd = n - 1;
    const int fill = steadyEnd < lag ? steadyEnd : lag;
    for (; t < fill; t++) {
        cnk_df1_f8 u0 = cnk_df1_shift_in(l.y2[groups - 1], cnk_df1_frame(x, t, n, g2, before1, before2));
        cnk_df1_f8 u1 = cnk_df1_shift_in(l.y3[groups - 1], cnk_df1_frame(x, t - 1, n, g2, before1, before2));
        cnk_df1_f8 u2 = cnk_df1_shift_in(l.y4[groups - 1], cnk_df1_frame(x, t - 2, n, g2, before1, before2));
        p = cnk_df1_shift_in(l.y1[groups - 1], cnk_df1_frame(x, t + 1, n, g2, before1, before2));
        cnk_df1_step(groups, &l, u0, u1, u2, 1, t, n);
        w1 = u1; w0 = u0;
    }
    // Unrolled so the history rotation is renaming, not register moves.
    _Pragma("clang loop unroll_count(4)")
    for (; t < steadyEnd; t++) {
        cnk_df1_f8 u0 = p;
        p = cnk_df1_shift_in(l.y1[groups - 1], g2 * *(const cnk_df1_f2 *)(x + 2 * (t + 1)));
        cnk_df1_step(groups, &l, u0, w0, w1, 0, t, n);
        w1 = w0; w0 = u0;
        x[2 * (t - lag)] = l.y1[groups - 1][6];
        x[2 * (t - lag) + 1] = l.y1[groups - 1][7];
    }
    for (; t < n + lag; t++) {
        cnk_df1_f8 u0 = cnk_df1_shift_in(l.y2[groups - 1], cnk_df1_frame(x, t, n, g2, before1, before2));
        cnk_df1_f8 u1 = cnk_df1_shift_in(l.y3[groups - 1], cnk_df1_frame(x, t - 1, n, g2, before1, before2));
        cnk_df1_f8 u2 = cnk_df1_shift_in(l.y4[groups - 1], cnk_df1_frame(x, t - 2, n, g2, before1, before2));
        cnk_df1_step(groups, &l, u0, u1, u2, 1, t, n);
        if (t >= lag) {
            x[2 * (t - lag)] = l.y1[groups - 1][6];
            x[2 * (t - lag) + 1] = l.y1[groups - 1][7];
        }
    }
    history[0] = last1[0]; history[1] = last1[1]; history[2] = last2[0]; history[3] = last2[1];
    for (int g = 0; g < groups; g++) {
        for (int j = 0; j < 4; j++) {
            const int k = g + groups * j;
            if (k >= sections) continue;
            for (int channel = 0; channel < 2; channel++) {
                history[4 * (k + 1) + channel] = l.keep1[g][2 * j + channel];
                history[4 * (k + 1) + 2 + channel] = l.keep2[g][2 * j + channel];
            }
        }
    }
}

#define CNK_CASCADE_DF1(sections, coefficients, gain, history, x, frameCount)                                  \
    do {                                                                                            \
        if ((sections) <= 0 || (frameCount) <= 0) return;                                           \
        const int n = (int)(frameCount);                                                           \
        switch (((sections) + 3) / 4) {                                                             \
        case 1: cnk_df1_cascade_groups(1, sections, coefficients, gain, history, x, n); break;                  \
        case 2: cnk_df1_cascade_groups(2, sections, coefficients, gain, history, x, n); break;                  \
        case 3: cnk_df1_cascade_groups(3, sections, coefficients, gain, history, x, n); break;                  \
        case 4: cnk_df1_cascade_groups(4, sections, coefficients, gain, history, x, n); break;                  \
        default: cnk_df1_cascade_groups(5, (sections) > 20 ? 20 : (sections), coefficients, gain, history, x, n); \
        }                                                                                           \
    } while (0)

void cnk_cascade_df1(int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE_DF1(sections, coefficients, gain, history, x, frameCount);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void cnk_cascade_df1_avx2(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE_DF1(sections, coefficients, gain, history, x, frameCount);
}
// The same code with AVX-512VL's 32 vector registers: three groups and more spill with AVX2's 16.
// Still 256-bit vectors and no fused multiply-add, so the same bits.
__attribute__((target("avx2,avx512vl"))) void cnk_cascade_df1_avx512vl(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE_DF1(sections, coefficients, gain, history, x, frameCount);
}

int cnk_has_avx512vl(void) {
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512vl") ? 1 : 0;
    }
    return known;
}
#else
void cnk_cascade_df1_avx2(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    cnk_cascade_df1(sections, coefficients, gain, history, x, frameCount);
}
void cnk_cascade_df1_avx512vl(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    cnk_cascade_df1(sections, coefficients, gain, history, x, frameCount);
}
int cnk_has_avx512vl(void) { return 0; }
#endif
