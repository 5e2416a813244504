// A prototype of a faster master-filter kernel (issue 38), measured against
// Sources/C/CNoiseKernels/Cascade.c by bench.c (see run.sh and docs/hearing.md). Not built by the
// package.
//
// Why it is faster with few sections: Cascade.c's transposed direct form II makes each section's
// recursion wait on a multiply and three adds per sample (12 cycles on Zen 4), whatever the
// number of sections, so 4 sections cost as much as 8. Here:
// - direct form I with b0 normalised to 1 (the cascade's gain, the product of the b0s, is one
//   multiply on the input): out = ((u0 + (b1·u1 + b2·u2)) − a2·y2) − a1·y1, so the recursion
//   waits on one multiply and one subtract (6 cycles);
// - a skew of two steps per section (section k works on sample t − 2k): what a section takes
//   from the one before it was made two steps earlier, so the cross-section path (two adds and a
//   subtract, plus group 0's lane shift) is spread over two steps;
// - a section's input history is the previous section's output history (sections in the same
//   lanes of the group before), so a group keeps four outputs (y1…y4) and no input history; group
//   0 takes its inputs from the last group, shifted up one lane pair, with the new frame at the
//   bottom.
// No fused multiply-add; the same arithmetic in the same order however a signal is split into
// calls, so the output is bit-identical across splits (bench.c checks it).
//
// history: (sections + 1) × 4 floats: [0] the scaled input's last two frames, [k + 1] section k's
// last two outputs, each (newest left, newest right, older left, older right).

#pragma clang fp contract(off)
#pragma clang diagnostic ignored "-Wpsabi"
typedef float proto_f8 __attribute__((ext_vector_type(8)));
typedef int proto_i8 __attribute__((ext_vector_type(8)));
typedef float proto_f2 __attribute__((ext_vector_type(2), aligned(4)));

typedef struct {
    proto_f8 b1[5], b2[5], a1[5], a2[5], y1[5], y2[5], y3[5], y4[5], keep1[5], keep2[5];
    proto_i8 start[5];
} proto_groups3;

__attribute__((always_inline)) static inline proto_f8 proto_shift_in(proto_f8 y, proto_f2 in) {
    proto_f8 i8 = __builtin_shufflevector(in, in, 0, 1, 0, 1, 0, 1, 0, 1);
    return __builtin_shufflevector(y, i8, 8, 9, 0, 1, 2, 3, 4, 5);
}

__attribute__((always_inline)) static inline proto_f8 proto_select(proto_i8 on, proto_f8 a, proto_f8 b) {
    return (proto_f8)(((proto_i8)a & on) | ((proto_i8)b & ~on));
}

// One step at time t. Section k (lane start 2k) works on sample t − 2k; u0..u2 are group 0's
// inputs (samples s, s − 1, s − 2). masked (filling and draining): sections not yet started keep
// their history; a section past its last sample goes on shifting (its outputs unused), so the
// section after it still finds its inputs two steps down its history; each section's last two
// outputs are kept when it makes its last sample (t = n − 1 + 2k), for the next call.
__attribute__((always_inline)) static inline void proto_step3(
    const int groups, proto_groups3 *l, proto_f8 u0g, proto_f8 u1g, proto_f8 u2g, const int masked, int t, int n) {
    proto_f8 u0[5], u1[5], u2[5];
    u0[0] = u0g; u1[0] = u1g; u2[0] = u2g;
    for (int g = 1; g < groups; g++) { u0[g] = l->y2[g - 1]; u1[g] = l->y3[g - 1]; u2[g] = l->y4[g - 1]; }
    for (int g = 0; g < groups; g++) {
        proto_f8 feed = l->b1[g] * u1[g] + l->b2[g] * u2[g];
        proto_f8 out = ((u0[g] + feed) - l->a2[g] * l->y2[g]) - l->a1[g] * l->y1[g];
        if (masked) {
            proto_i8 on = l->start[g] <= t;
            proto_i8 last = l->start[g] == t - (n - 1);
            l->keep1[g] = proto_select(last, out, l->keep1[g]);
            l->keep2[g] = proto_select(last, l->y1[g], l->keep2[g]);
            l->y4[g] = proto_select(on, l->y3[g], l->y4[g]);
            l->y3[g] = proto_select(on, l->y2[g], l->y3[g]);
            l->y2[g] = proto_select(on, l->y1[g], l->y2[g]);
            l->y1[g] = proto_select(on, out, l->y1[g]);
        } else {
            l->y4[g] = l->y3[g];
            l->y3[g] = l->y2[g];
            l->y2[g] = l->y1[g];
            l->y1[g] = out;
        }
    }
}

// Frame t of the call's input, scaled: before the call the kept history, past its end silence.
__attribute__((always_inline)) static inline proto_f2 proto_frame(
    const float *x, int t, int n, proto_f2 gain, proto_f2 before1, proto_f2 before2) {
    const proto_f2 none = 0;
    if (t >= n) return none;
    if (t == -1) return before1;
    if (t == -2) return before2;
    return gain * *(const proto_f2 *)(x + 2 * t);
}

__attribute__((always_inline)) static inline void proto_cascade_groups3(
    const int groups, int sections, const float *c, float gain, float *history, float *x, int n) {
    proto_groups3 l;
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
    const proto_f2 g2 = gain;
    const proto_f2 before1 = {history[0], history[1]}, before2 = {history[2], history[3]};
    const proto_f2 last1 = n >= 1 ? g2 * *(const proto_f2 *)(x + 2 * (n - 1)) : before1;
    const proto_f2 last2 = n >= 2 ? g2 * *(const proto_f2 *)(x + 2 * (n - 2)) : before1;
    const int lag = 2 * (4 * groups - 1);
    proto_f8 p = 0, w0 = 0, w1 = 0;
    int t = 0;
    // Steady steps: every section busy and none at its last sample (section 0's is t = n − 1).
    const int steadyEnd = n - 1;
    const int fill = steadyEnd < lag ? steadyEnd : lag;
    for (; t < fill; t++) {
        proto_f8 u0 = proto_shift_in(l.y2[groups - 1], proto_frame(x, t, n, g2, before1, before2));
        proto_f8 u1 = proto_shift_in(l.y3[groups - 1], proto_frame(x, t - 1, n, g2, before1, before2));
        proto_f8 u2 = proto_shift_in(l.y4[groups - 1], proto_frame(x, t - 2, n, g2, before1, before2));
        p = proto_shift_in(l.y1[groups - 1], proto_frame(x, t + 1, n, g2, before1, before2));
        proto_step3(groups, &l, u0, u1, u2, 1, t, n);
        w1 = u1; w0 = u0;
    }
    // Unrolled so the history rotation is renaming, not register moves.
    _Pragma("clang loop unroll_count(4)")
    for (; t < steadyEnd; t++) {
        proto_f8 u0 = p;
        p = proto_shift_in(l.y1[groups - 1], g2 * *(const proto_f2 *)(x + 2 * (t + 1)));
        proto_step3(groups, &l, u0, w0, w1, 0, t, n);
        w1 = w0; w0 = u0;
        x[2 * (t - lag)] = l.y1[groups - 1][6];
        x[2 * (t - lag) + 1] = l.y1[groups - 1][7];
    }
    for (; t < n + lag; t++) {
        proto_f8 u0 = proto_shift_in(l.y2[groups - 1], proto_frame(x, t, n, g2, before1, before2));
        proto_f8 u1 = proto_shift_in(l.y3[groups - 1], proto_frame(x, t - 1, n, g2, before1, before2));
        proto_f8 u2 = proto_shift_in(l.y4[groups - 1], proto_frame(x, t - 2, n, g2, before1, before2));
        proto_step3(groups, &l, u0, u1, u2, 1, t, n);
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

#define CNK_CASCADE3(sections, coefficients, gain, history, x, frameCount)                                  \
    do {                                                                                            \
        if ((sections) <= 0 || (frameCount) <= 0) return;                                           \
        const int n = (int)(frameCount);                                                           \
        switch (((sections) + 3) / 4) {                                                             \
        case 1: proto_cascade_groups3(1, sections, coefficients, gain, history, x, n); break;                  \
        case 2: proto_cascade_groups3(2, sections, coefficients, gain, history, x, n); break;                  \
        case 3: proto_cascade_groups3(3, sections, coefficients, gain, history, x, n); break;                  \
        case 4: proto_cascade_groups3(4, sections, coefficients, gain, history, x, n); break;                  \
        default: proto_cascade_groups3(5, (sections) > 20 ? 20 : (sections), coefficients, gain, history, x, n); \
        }                                                                                           \
    } while (0)

// coefficients: four per section (b1/b0, b2/b0, a1, a2); gain: the product of the sections' b0.
void proto_cascade(int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE3(sections, coefficients, gain, history, x, frameCount);
}
__attribute__((target("avx2"))) void proto_cascade_avx2(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE3(sections, coefficients, gain, history, x, frameCount);
}
// The same code with AVX-512VL's 32 vector registers (three groups and more spill with 16).
__attribute__((target("avx2,avx512vl"))) void proto_cascade_avx512vl(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount) {
    CNK_CASCADE3(sections, coefficients, gain, history, x, frameCount);
}
