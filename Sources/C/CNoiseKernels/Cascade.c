// The master filter's cascade of biquads (see CNoiseKernels.h, `cnk_cascade`).
//
// Why this shape: a biquad's recursion waits on its own previous output, so one section at a
// time runs at the latency of a multiply and three adds per sample. Here the sections form a
// skewed pipeline: at step t, section k works on sample t − k, taking what section k − 1 produced
// one step earlier, so every section's arithmetic in a step is independent of the others' and
// the step is bound by multiply throughput, not latency. Vectors hold four sections × two
// channels. The sections are strided across the vectors (group g's lane pair j is section
// g + groups·j), so section k − 1 sits in the same lanes of the group before k's: a group's input
// is the previous group's last output as it stands, and only group 0's input moves (up one lane
// pair, from the last group, with the new frame entering at the bottom). The pipeline fills and
// drains with the same vector steps, masked: a section outside 0 ≤ t − k < n keeps its state.

#include "CNoiseKernels.h"

// The arithmetic must be the same on every target: no fused multiply-add, which clang would
// otherwise form from `b0 * v + s1` where the target has one (arm64, or x86-64 with FMA).
#pragma clang fp contract(off)
// The helpers below take and return 256-bit vectors; they are always inlined, so no call passes
// one, but the baseline build warns that such a call's ABI would differ without AVX.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float cnk_f8 __attribute__((ext_vector_type(8)));
typedef int cnk_i8 __attribute__((ext_vector_type(8)));
typedef float cnk_f2 __attribute__((ext_vector_type(2), aligned(4)));

/// Up to five groups: coefficients, state, each section's last output, and section numbers.
typedef struct {
    cnk_f8 b0[5], b1[5], b2[5], a1[5], a2[5], s1[5], s2[5], y[5];
    cnk_i8 section[5];
} cnk_groups;

/// One pipeline step at time `t` for a call of `n` frames. `masked`: only sections with
/// 0 ≤ t − k < n advance (filling and draining); the others keep their state.
__attribute__((always_inline)) static inline void cnk_step(
    const int groups, cnk_groups *l, cnk_f8 input, const int masked, int t, int n) {
    cnk_f8 v[5];
    // Every input is taken before any group moves.
    v[0] = __builtin_shufflevector(l->y[groups - 1], input, 8, 9, 0, 1, 2, 3, 4, 5);
    for (int g = 1; g < groups; g++) v[g] = l->y[g - 1];
    for (int g = 0; g < groups; g++) {
        cnk_f8 out = l->b0[g] * v[g] + l->s1[g];
        cnk_f8 s1 = l->b1[g] * v[g] - l->a1[g] * out + l->s2[g];
        cnk_f8 s2 = l->b2[g] * v[g] - l->a2[g] * out;
        if (masked) {
            cnk_i8 on = (l->section[g] <= t) & (l->section[g] > t - n);
            s1 = (cnk_f8)(((cnk_i8)s1 & on) | ((cnk_i8)l->s1[g] & ~on));
            s2 = (cnk_f8)(((cnk_i8)s2 & on) | ((cnk_i8)l->s2[g] & ~on));
        }
        l->s1[g] = s1;
        l->s2[g] = s2;
        l->y[g] = out;
    }
}

/// Frame `t` of `x` in lanes 0 and 1.
__attribute__((always_inline)) static inline cnk_f8 cnk_frame(const float *x, int t) {
    cnk_f2 f = *(const cnk_f2 *)(x + 2 * t);
    return __builtin_shufflevector(f, f, 0, 1, 0, 1, 0, 1, 0, 1);
}

/// The last section (the last group's top lane pair) into frame `t` of `x`.
__attribute__((always_inline)) static inline void cnk_put(cnk_f8 y, float *x, int t) {
    x[2 * t] = y[6];
    x[2 * t + 1] = y[7];
}

/// `groups` as a constant, so the per-group loops unroll and the vectors stay in registers.
/// Slots past `sections` are the identity at rest: they pass their input through.
__attribute__((always_inline)) static inline void cnk_cascade_groups(
    const int groups, int sections, const float *c, float *state, float *x, int n) {
    cnk_groups l;
    for (int g = 0; g < groups; g++) {
        for (int j = 0; j < 4; j++) {
            const int k = g + groups * j;
            const int used = k < sections;
            for (int channel = 0; channel < 2; channel++) {
                const int lane = 2 * j + channel;
                l.b0[g][lane] = used ? c[5 * k] : 1;
                l.b1[g][lane] = used ? c[5 * k + 1] : 0;
                l.b2[g][lane] = used ? c[5 * k + 2] : 0;
                l.a1[g][lane] = used ? c[5 * k + 3] : 0;
                l.a2[g][lane] = used ? c[5 * k + 4] : 0;
                l.s1[g][lane] = used ? state[4 * k + channel] : 0;
                l.s2[g][lane] = used ? state[4 * k + 2 + channel] : 0;
                l.y[g][lane] = 0;
                l.section[g][lane] = k;
            }
        }
    }
    const int lag = 4 * groups - 1;
    const cnk_f8 none = 0;
    int t = 0;
    // Filling: section k starts at step k (and, in a call shorter than the pipeline, may stop too).
    for (; t < lag; t++) cnk_step(groups, &l, t < n ? cnk_frame(x, t) : none, 1, t, n);
    // Steady: every section busy. Frame t is read before frame t − lag is written.
    for (; t < n; t++) {
        cnk_step(groups, &l, cnk_frame(x, t), 0, t, n);
        cnk_put(l.y[groups - 1], x, t - lag);
    }
    // Draining: section k stops after step n − 1 + k.
    for (; t < n + lag; t++) {
        cnk_step(groups, &l, none, 1, t, n);
        cnk_put(l.y[groups - 1], x, t - lag);
    }
    for (int g = 0; g < groups; g++) {
        for (int j = 0; j < 4; j++) {
            const int k = g + groups * j;
            if (k >= sections) continue;
            for (int channel = 0; channel < 2; channel++) {
                state[4 * k + channel] = l.s1[g][2 * j + channel];
                state[4 * k + 2 + channel] = l.s2[g][2 * j + channel];
            }
        }
    }
}

#define CNK_CASCADE(sections, coefficients, state, x, frameCount)                                  \
    do {                                                                                            \
        if ((sections) <= 0 || (frameCount) <= 0) return;                                           \
        const int n = (int)(frameCount);                                                           \
        switch (((sections) + 3) / 4) {                                                             \
        case 1: cnk_cascade_groups(1, sections, coefficients, state, x, n); break;                  \
        case 2: cnk_cascade_groups(2, sections, coefficients, state, x, n); break;                  \
        case 3: cnk_cascade_groups(3, sections, coefficients, state, x, n); break;                  \
        case 4: cnk_cascade_groups(4, sections, coefficients, state, x, n); break;                  \
        default: cnk_cascade_groups(5, (sections) > 20 ? 20 : (sections), coefficients, state, x, n); \
        }                                                                                           \
    } while (0)

void cnk_cascade(int sections, const float *coefficients, float *state, float *x, long frameCount) {
    CNK_CASCADE(sections, coefficients, state, x, frameCount);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void cnk_cascade_avx2(
    int sections, const float *coefficients, float *state, float *x, long frameCount) {
    CNK_CASCADE(sections, coefficients, state, x, frameCount);
}
#else
void cnk_cascade_avx2(int sections, const float *coefficients, float *state, float *x, long frameCount) {
    cnk_cascade(sections, coefficients, state, x, frameCount);
}
#endif
