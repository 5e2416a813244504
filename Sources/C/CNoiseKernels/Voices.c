// A texture's voices for one sub-block (see CNoiseKernels.h, `cnk_texture_voices`).
//
// Why this shape: every voice is a recursion on its own previous sample (a ring's rotating phasor,
// a tap's low-pass), so one voice after the other runs at the latency of a multiply and an add per
// sample, and stream at 400/s keeps about ten rings sounding per layer. Here eight voices of a kind
// share a vector, each in its own lane, so eight recursions advance per step. What stays serial is
// what must: the taps' shared noise sequence is drawn in the voices' order, and each frame's sum
// adds the voices in that order, one after the other, as the Swift loop does.

#include "CNoiseKernels.h"

#include <string.h>

#pragma clang fp contract(off)
#pragma clang diagnostic ignored "-Wpsabi"

typedef float vf8 __attribute__((ext_vector_type(8)));
typedef int vi8 __attribute__((ext_vector_type(8)));
typedef unsigned vu8 __attribute__((ext_vector_type(8)));
/// The same, at any address (the caller's output and stream need not be 32-byte aligned).
typedef float vf8u __attribute__((ext_vector_type(8), aligned(4)));
typedef unsigned vu8u __attribute__((ext_vector_type(8), aligned(4)));

/// xorshift32 (13, 17, 5): the taps' and bursts' noise, one value after the other.
static inline unsigned xorshift(unsigned x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

/// The xorshift32 step taken 32 times, as a GF(2)-linear map: the XOR of one table entry per
/// byte of the state. Built once, when the library loads.
static unsigned jump32[4][256];

__attribute__((constructor)) static void cnk_build_jump32(void) {
    for (int b = 0; b < 4; b++) {
        for (unsigned v = 0; v < 256; v++) {
            unsigned x = v << (8 * b);
            for (int k = 0; k < 32; k++) x = xorshift(x);
            jump32[b][v] = x;
        }
    }
}

static inline unsigned jump(unsigned x) {
    return jump32[0][x & 255] ^ jump32[1][(x >> 8) & 255] ^ jump32[2][(x >> 16) & 255] ^ jump32[3][x >> 24];
}

unsigned cnk_xorshift32_jump32(unsigned x) { return jump(x); }

/// An 8 × 8 transpose: `out[j]` lane k is `in[k]` lane j (the lanes' bits moved, never converted).
__attribute__((always_inline)) static inline void transpose8(const vf8 in[8], vf8 out[8]) {
    const vf8 t0 = __builtin_shufflevector(in[0], in[1], 0, 8, 1, 9, 4, 12, 5, 13);
    const vf8 t1 = __builtin_shufflevector(in[0], in[1], 2, 10, 3, 11, 6, 14, 7, 15);
    const vf8 t2 = __builtin_shufflevector(in[2], in[3], 0, 8, 1, 9, 4, 12, 5, 13);
    const vf8 t3 = __builtin_shufflevector(in[2], in[3], 2, 10, 3, 11, 6, 14, 7, 15);
    const vf8 t4 = __builtin_shufflevector(in[4], in[5], 0, 8, 1, 9, 4, 12, 5, 13);
    const vf8 t5 = __builtin_shufflevector(in[4], in[5], 2, 10, 3, 11, 6, 14, 7, 15);
    const vf8 t6 = __builtin_shufflevector(in[6], in[7], 0, 8, 1, 9, 4, 12, 5, 13);
    const vf8 t7 = __builtin_shufflevector(in[6], in[7], 2, 10, 3, 11, 6, 14, 7, 15);
    const vf8 u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    const vf8 u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    const vf8 u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    const vf8 u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    const vf8 u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    const vf8 u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    const vf8 u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    const vf8 u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    out[0] = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
    out[1] = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
    out[2] = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
    out[3] = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
    out[4] = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
    out[5] = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
    out[6] = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
    out[7] = __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
}

/// The next 256 values of the sequence after `s->last`, eight stretches of 32 side by side (one a
/// lane): a serial step waits on the one before (six cycles a value); eight lanes take one step
/// in the same time. Each 8 × 8 block of steps is transposed, so the values land in order.
__attribute__((always_inline)) static inline void refill(cnk_noise_stream *s) {
    vu8 x;
    x[0] = xorshift(s->last);
    for (int j = 1; j < 8; j++) x[j] = jump(x[j - 1]);
    vu8u *out = (vu8u *)s->values;
    for (int t0 = 0; t0 < 32; t0 += 8) {
        vf8 r[8];
        for (int t = 0; t < 8; t++) {
            r[t] = (vf8)x;
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
        }
        // Lane j's steps t0 … t0 + 7 are values 32j + t0 … (32 a lane, 8 vectors of 8 a lane).
        vf8 rows[8];
        transpose8(r, rows);
        for (int j = 0; j < 8; j++) out[4 * j + t0 / 8] = (vu8)rows[j];
    }
    s->last = s->values[255];
    s->read = 0;
    s->count = 256;
}

void cnk_noise_draw(cnk_noise_stream *stream, unsigned *noiseState, float *out, int count) {
    // As `cnk_voice_sets` keeps it: the stream starts again from `noiseState` when that is not
    // where it stands.
    if (stream->current != *noiseState) {
        stream->current = *noiseState;
        stream->last = stream->current;
        stream->read = 0;
        stream->count = 0;
    }
    int i = 0;
    while (i < count) {
        if (stream->read == stream->count) refill(stream);
        const int read = stream->read, take = count - i < stream->count - read ? count - i : stream->count - read;
        const unsigned *values = stream->values + read;
        for (int k = 0; k < take; k++) out[i + k] = (float)(int)values[k] * (1.0f / 2147483648.0f);
        stream->read = read + take;
        stream->current = values[take - 1];
        i += take;
    }
    *noiseState = stream->current;
}

/// A ring's per-frame rotation ρ·(cos ω, sin ω), ω in [0, π): with x = ω − π/2 in [−π/2, π/2),
/// cos ω = −sin x and sin ω = cos x, each its Taylor polynomial (to x¹¹ and x¹²: under 6·10⁻⁸ and
/// 7·10⁻⁹ at the ends, below a float's rounding), by Horner with no fused multiply-add. Written for
/// any vector type, so eight rings at once here and one at a time (`cnk_ring_rotation`, the Swift
/// loop's) are the same operations: the same bits. libm's `cosf` and `sinf` took a tenth of the
/// voices' time at 400 rings a second.
#define CNK_ROTATION(T, rho, omega, outC, outS)                                                      \
    do {                                                                                            \
        const T x = (omega) - (T)1.57079632679489662f, x2 = x * x;                                  \
        const T sinX =                                                                              \
            x * (1.0f + x2 * (-1.66666667e-1f + x2 * (8.33333333e-3f + x2 * (-1.98412698e-4f +      \
                                  x2 * (2.75573192e-6f + x2 * -2.50521084e-8f)))));                 \
        const T cosX = 1.0f + x2 * (-0.5f + x2 * (4.16666667e-2f + x2 * (-1.38888889e-3f +          \
                                    x2 * (2.48015873e-5f + x2 * (-2.75573192e-7f + x2 * 2.08767570e-9f))))); \
        (outC) = (rho) * -sinX;                                                                     \
        (outS) = (rho) * cosX;                                                                      \
    } while (0)

void cnk_ring_rotation(float rho, float omega, float *c, float *s) {
    CNK_ROTATION(float, rho, omega, *c, *s);
}

enum { capacity = 64, block = 32, lanes = 8, maximumSets = 4 };
enum { ring = 0, tap = 1, burst = 2 };

/// Eight voices' values for every frame of the sub-block, lane-major: `value[i]` holds frame i of
/// the eight voices (a tap's noise, then its output; a ring's output); after the transposes, each
/// 8-frame block j holds the lanes' rows instead: value[8j + l] = lane l's frames 8j … 8j + 7.
typedef struct {
    vf8 value[block];
    /// Per lane: the voice's frames, and its state and constants (see `step`).
    vf8 a, b, c, d, clip;
    vi8 first, last;
    int kind;
    /// True for a group of voices that start after the sub-block's first frame: their lanes wait.
    int masked;
} cnk_group;

/// One voice as a sub-block renders it: where it came from and where its lane is.
typedef struct {
    short set, slot, group, lane;
    short first, length;
} cnk_entry;

__attribute__((always_inline)) static inline vf8 select8(vi8 mask, vf8 yes, vf8 no) {
    return (vf8)(((vi8)yes & mask) | ((vi8)no & ~mask));
}

/// One frame of group `g` (the kind and `masked` constant, so each is its own loop body).
__attribute__((always_inline)) static inline void step(cnk_group *g, int i, const int kind, const int masked) {
    vi8 on = (vi8)(-1);
    if (masked) on = (g->first <= i) & (i < g->last);
    if (kind == ring) {
        // (re, im) in a, b, the per-frame rotation in c, d.
        const vf8 re = g->a, im = g->b;
        const vf8 r = re * g->c - im * g->d;
        const vf8 m = re * g->d + im * g->c;
        g->a = masked ? select8(on, r, re) : r;
        g->b = masked ? select8(on, m, im) : m;
        g->value[i] = m;
    } else if (kind == tap) {
        // Envelope, decay, low-pass state, coefficient in a, b, c, d; value[i] holds the noise.
        const vf8 y = g->c, env = g->a;
        const vf8 next = y + g->d * (env * g->value[i] - y);
        // Swift's max(y, −clip) then min(·, clip), as the Swift loop clips.
        vf8 out = select8(-g->clip >= next, -g->clip, next);
        out = select8(g->clip < out, g->clip, out);
        g->c = masked ? select8(on, next, y) : next;
        g->a = masked ? select8(on, env * g->b, env) : env * g->b;
        g->value[i] = out;
    } else {
        // Envelope and decay in a, b; value[i] holds the noise.
        const vf8 env = g->a;
        g->value[i] = env * g->value[i];
        g->a = masked ? select8(on, env * g->b, env) : env * g->b;
    }
}

/// `ringCount` (0 … 4) unmasked ring groups and `tapCount` (0 … 4) unmasked tap groups (both
/// constants where inlined) through `n` frames, each frame as `step` makes it (the same products,
/// sums and clips, so the same bits), their states held in registers: `step` reads and writes
/// them through memory every frame, so each frame of a group waited on a store's forwarding as
/// well as its arithmetic. Groups side by side keep more of the arithmetic in flight (a tap's
/// low-pass is a subtract, a multiply and an add deep, a ring's phasor a multiply and an add).
__attribute__((always_inline)) static inline void rings_taps(
    cnk_group *const *rg, const int ringCount, cnk_group *const *tg, const int tapCount, int n) {
    vf8 re[4], im[4], c[4], d[4];
    vf8 env[4], y[4];
    for (int k = 0; k < ringCount; k++) re[k] = rg[k]->a, im[k] = rg[k]->b, c[k] = rg[k]->c, d[k] = rg[k]->d;
    for (int k = 0; k < tapCount; k++) env[k] = tg[k]->a, y[k] = tg[k]->c;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < ringCount; k++) {
            const vf8 r = re[k] * c[k] - im[k] * d[k];
            const vf8 m = re[k] * d[k] + im[k] * c[k];
            re[k] = r;
            im[k] = m;
            rg[k]->value[i] = m;
        }
        for (int k = 0; k < tapCount; k++) {
            const cnk_group *g = tg[k];
            const vf8 next = y[k] + g->d * (env[k] * g->value[i] - y[k]);
            vf8 out = select8(-g->clip >= next, -g->clip, next);
            out = select8(g->clip < out, g->clip, out);
            y[k] = next;
            env[k] = env[k] * g->b;
            tg[k]->value[i] = out;
        }
    }
    for (int k = 0; k < ringCount; k++) rg[k]->a = re[k], rg[k]->b = im[k];
    for (int k = 0; k < tapCount; k++) tg[k]->a = env[k], tg[k]->c = y[k];
}

/// Each 8-frame block of `value` transposed in place: lanes' frames become rows.
__attribute__((always_inline)) static inline void transpose_rows(cnk_group *g, int n) {
    for (int i0 = 0; i0 < n; i0 += 8) {
        vf8 r[8];
        for (int j = 0; j < 8; j++) r[j] = i0 + j < n ? g->value[i0 + j] : (vf8)0;
        transpose8(r, &g->value[i0]);
    }
}

/// Lane l's frame i after `transpose_rows`.
#define CNK_ROW(g, l, i) ((const float *)&(g)->value[((i) & ~7) + (l)])[(i) & 7]

__attribute__((always_inline)) static inline void cnk_voice_sets(cnk_voice_set *sets, int setCount, int n,
    float maximumOmega) {
    if (n <= 0 || n > block) return;
    if (setCount > maximumSets) setCount = maximumSets;
    cnk_entry plan[maximumSets * capacity];
    int ordered = 0;
    int slots[maximumSets][capacity];
    int live[maximumSets];
    // Each set's order as the Swift loop renders: front to back; a voice that ends is replaced by
    // the last, which is rendered next in its place.
    for (int si = 0; si < setCount; si++) {
        cnk_voice *voices = sets[si].voices;
        int count = (int)(sets[si].count < capacity ? sets[si].count : capacity);
        if (count < 0 || voices == 0) count = 0;
        for (int k = 0; k < count; k++) slots[si][k] = k;
        for (int i = 0; i < count;) {
            const int s = slots[si][i];
            const cnk_voice *v = &voices[s];
            const int first = v->startFrame;
            int last = first + (v->lifeFrames - v->ageFrames);
            if (last > n) last = n;
            const int length = last > first ? last - first : 0;
            cnk_entry *e = &plan[ordered++];
            e->set = (short)si;
            e->slot = (short)s;
            e->first = (short)first;
            e->length = (short)length;
            if (v->ageFrames + length < v->lifeFrames) {
                i++;
            } else {
                count--;
                slots[si][i] = slots[si][count];
            }
        }
        live[si] = count;
    }
    if (ordered == 0) {
        for (int si = 0; si < setCount; si++) sets[si].count = 0;
        return;
    }
    // Lanes: rings, taps and bursts each fill their own groups of eight (voices of every set
    // together), the voices starting within this sub-block apart from those sounding from its
    // first frame (see `masked`). At most 4 × 64 voices: 32 full groups, and each of the six
    // classes' last group part full.
    cnk_group groups[maximumSets * capacity / lanes + 6];
    int groupCount = 0;
    int open[6] = {-1, -1, -1, -1, -1, -1}, used[6] = {lanes, lanes, lanes, lanes, lanes, lanes};
    float a[lanes], b[lanes], c[lanes], d[lanes], clip[lanes];
    int first[lanes], last[lanes];
    (void)a, (void)b, (void)c, (void)d, (void)clip, (void)first, (void)last;
    for (int o = 0; o < ordered; o++) {
        cnk_entry *e = &plan[o];
        const cnk_voice *v = &sets[e->set].voices[e->slot];
        const int type = v->isDrop ? ring : (v->isTap ? tap : burst);
        const int class = type + (e->first > 0 ? 3 : 0);
        if (used[class] == lanes) {
            cnk_group *g = &groups[groupCount];
            g->kind = type;
            g->masked = class >= 3;
            g->a = 0, g->b = 0, g->c = 0, g->d = 0, g->clip = 0;
            g->first = 0, g->last = 0;
            // A noise group's lanes read every frame (masked, or past a voice's end): never garbage.
            if (type != ring) memset(g->value, 0, sizeof g->value);
            open[class] = groupCount++;
            used[class] = 0;
        }
        e->group = (short)open[class];
        e->lane = (short)used[class]++;
        cnk_group *g = &groups[e->group];
        const int l = e->lane;
        // Lanes written one at a time through plain floats, then read back as vectors once below
        // (a vector written lane by lane through memory stalls each later read of it).
        float *ga = (float *)&g->a, *gb = (float *)&g->b, *gc = (float *)&g->c, *gd = (float *)&g->d;
        int *gf = (int *)&g->first, *gl = (int *)&g->last;
        gf[l] = e->first;
        gl[l] = e->first + e->length;
        if (type == ring) {
            // The glide moves once per sub-block: ω for the voice's age now.
            float omega = v->omega + v->omegaRisePerFrame * (float)v->ageFrames;
            if (maximumOmega < omega) omega = maximumOmega;
            // ω and ρ for now; the rotations of a group's eight below.
            ga[l] = v->re;
            gb[l] = v->im;
            gc[l] = omega;
            gd[l] = v->rho;
        } else {
            ga[l] = v->envelope;
            gb[l] = v->envelopeDecay;
            gc[l] = v->lowPass;
            gd[l] = v->lowPassCoefficient;
            ((float *)&g->clip)[l] = sets[e->set].clip;
        }
    }
    for (int gi = 0; gi < groupCount; gi++) {
        cnk_group *g = &groups[gi];
        if (g->kind == ring) CNK_ROTATION(vf8, g->d, g->c, g->c, g->d);
    }
    // The taps' and bursts' noise: each set's own xorshift32 sequence, each voice taking its
    // frames in the set's order. A stream runs ahead of its `noiseState` in batches; it starts
    // again from `noiseState` when that is not where it stands (a reseed, or the Swift loop drew).
    for (int si = 0; si < setCount; si++) {
        cnk_noise_stream *stream = sets[si].stream;
        if (sets[si].voices == 0) continue;
        if (stream->current != *sets[si].noiseState) {
            stream->current = *sets[si].noiseState;
            stream->last = stream->current;
            stream->read = 0;
            stream->count = 0;
        }
    }
    for (int o = 0; o < ordered; o++) {
        const cnk_entry *e = &plan[o];
        cnk_group *g = &groups[e->group];
        if (g->kind == ring) continue;
        cnk_noise_stream *stream = sets[e->set].stream;
        // Written as rows (the layout `transpose_rows` leaves: lane l's frames 8j … 8j + 7 side by
        // side in value[8j + l]), eight frames to a store, then transposed once per group below: a
        // value at a time into its lane, 32 bytes from the last, took an eighth of the kernel.
        float *row = (float *)g->value + 8 * e->lane;
        int i = e->first;
        const int end = e->first + e->length;
        while (i < end) {
            if (stream->read == stream->count) refill(stream);
            // The stream's values in order, as many as this voice needs or the stream holds.
            const int read = stream->read, take = end - i < stream->count - read ? end - i : stream->count - read;
            const unsigned *values = stream->values + read;
            for (int k = 0; k < take;) {
                const int f = i + k;
                float *dst = row + 8 * (f & ~7) + (f & 7);
                if ((f & 7) == 0 && take - k >= 8) {
                    const vu8 x = *(const vu8u *)(values + k);
                    *(vf8u *)dst = __builtin_convertvector((vi8)x, vf8) * (1.0f / 2147483648.0f);
                    k += 8;
                } else {
                    *dst = (float)(int)values[k] * (1.0f / 2147483648.0f);
                    k++;
                }
            }
            stream->read = read + take;
            stream->current = values[take - 1];
            i += take;
        }
    }
    for (int si = 0; si < setCount; si++) {
        if (sets[si].voices != 0) *sets[si].noiseState = sets[si].stream->current;
    }
    // The noise rows into lanes (all 32 frames: rows past `n` hold zeros, and `transpose_rows`
    // reads rows, not frames, so it must not stop at `n` here).
    for (int gi = 0; gi < groupCount; gi++) {
        if (groups[gi].kind != ring) transpose_rows(&groups[gi], block);
    }
    // Every group's recursion, frame by frame, the groups side by side: each group's step waits on
    // its own last one, so several groups in flight keep the arithmetic busy. A masked group's lane
    // outside its voice's frames keeps its state; elsewhere every lane runs to the sub-block's end
    // (a voice that ends early is dropped, its state unread).
    // One class at a time (its step's code fixed), its groups side by side.
    short members[6][maximumSets * capacity / lanes + 1];
    int memberCount[6] = {0, 0, 0, 0, 0, 0};
    for (int gi = 0; gi < groupCount; gi++) {
        const int class = groups[gi].kind + (groups[gi].masked ? 3 : 0);
        members[class][memberCount[class]++] = (short)gi;
    }
#define CNK_CLASS(class, kind, masked)                                                              \
    for (int i = 0; i < n; i++) {                                                                   \
        for (int m = 0; m < memberCount[class]; m++) step(&groups[members[class][m]], i, kind, masked); \
    }
    // The voices sounding from the sub-block's first frame (most of them): up to four ring groups
    // and one tap group at a time, or up to four tap groups once the rings are done, with their
    // states in registers (see `rings_taps`).
    for (int rm = 0, tm = 0; rm < memberCount[0] || tm < memberCount[1];) {
        const int ringsLeft = memberCount[0] - rm, tapsLeft = memberCount[1] - tm;
        // Three and two rather than four and one: the last batch alone would wait on its own latency.
        const int rc = ringsLeft >= 6 || ringsLeft == 4 ? 4 : (ringsLeft == 5 || ringsLeft == 3 ? 3 : ringsLeft);
        const int tc = rc > 0 ? (tapsLeft > 0 ? 1 : 0) : (tapsLeft > 4 ? 4 : tapsLeft);
        cnk_group *rb[4] = {0, 0, 0, 0}, *tb[4] = {0, 0, 0, 0};
        for (int k = 0; k < rc; k++) rb[k] = &groups[members[0][rm + k]];
        for (int k = 0; k < tc; k++) tb[k] = &groups[members[1][tm + k]];
#define CNK_BATCH(r, t) else if (rc == r && tc == t) rings_taps(rb, r, tb, t, n);
        if (0) {
        }
        CNK_BATCH(4, 1) CNK_BATCH(4, 0) CNK_BATCH(3, 1) CNK_BATCH(3, 0) CNK_BATCH(2, 1) CNK_BATCH(2, 0)
        CNK_BATCH(1, 1) CNK_BATCH(1, 0) CNK_BATCH(0, 1) CNK_BATCH(0, 2) CNK_BATCH(0, 3) CNK_BATCH(0, 4)
#undef CNK_BATCH
        rm += rc;
        tm += tc;
    }
    CNK_CLASS(2, burst, 0)
    CNK_CLASS(3, ring, 1)
    CNK_CLASS(4, tap, 1)
    CNK_CLASS(5, burst, 1)
#undef CNK_CLASS
    for (int gi = 0; gi < groupCount; gi++) transpose_rows(&groups[gi], n);
    // The voices' states back, and each voice's age.
    for (int o = 0; o < ordered; o++) {
        const cnk_entry *e = &plan[o];
        cnk_voice *v = &sets[e->set].voices[e->slot];
        const cnk_group *g = &groups[e->group];
        const int l = e->lane;
        if (g->kind == ring) {
            v->re = g->a[l];
            v->im = g->b[l];
        } else {
            v->envelope = g->a[l];
            if (g->kind == tap) v->lowPass = g->c[l];
        }
        v->ageFrames += e->length;
        v->startFrame = 0;
    }
    // Each set's frames summed in its voices' order: output[i] += gain · value, left and right.
    // A whole sub-block: its 32 frames' lefts and rights apart, as four vectors of eight frames
    // each, kept in registers while the set's voices add to them in turn; a voice's eight frames
    // are one row (`transpose_rows`), so each row is one load, two multiplies and two adds. A voice
    // covering only part of eight frames adds to its frames alone (elsewhere the output keeps its
    // bits: adding 0 would turn a −0 into +0).
    const vi8 frameOf = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int o0 = 0; o0 < ordered;) {
        int o1 = o0;
        while (o1 < ordered && plan[o1].set == plan[o0].set) o1++;
        float *output = sets[plan[o0].set].output;
        if (n == block) {
            vf8 left[block / 8], right[block / 8];
            for (int k = 0; k < block / 8; k++) {
                const vf8 a = *(const vf8u *)(output + 16 * k), b = *(const vf8u *)(output + 16 * k + 8);
                left[k] = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
                right[k] = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
            }
            for (int o = o0; o < o1; o++) {
                const cnk_entry *e = &plan[o];
                const cnk_voice *v = &sets[e->set].voices[e->slot];
                const cnk_group *g = &groups[e->group];
                const vf8 gl = v->gainLeft, gr = v->gainRight;
                const int end = e->first + e->length;
                if (e->first == 0 && end == block) {
                    for (int k = 0; k < block / 8; k++) {
                        const vf8 row = g->value[8 * k + e->lane];
                        left[k] = left[k] + gl * row;
                        right[k] = right[k] + gr * row;
                    }
                } else {
                    for (int k = 0; k < block / 8; k++) {
                        const vf8 row = g->value[8 * k + e->lane];
                        const vi8 frame = frameOf + 8 * k;
                        const vi8 inside = (frame >= e->first) & (frame < end);
                        left[k] = select8(inside, left[k] + gl * row, left[k]);
                        right[k] = select8(inside, right[k] + gr * row, right[k]);
                    }
                }
            }
            for (int k = 0; k < block / 8; k++) {
                *(vf8u *)(output + 16 * k) = __builtin_shufflevector(left[k], right[k], 0, 8, 1, 9, 2, 10, 3, 11);
                *(vf8u *)(output + 16 * k + 8) =
                    __builtin_shufflevector(left[k], right[k], 4, 12, 5, 13, 6, 14, 7, 15);
            }
        } else {
            for (int o = o0; o < o1; o++) {
                const cnk_entry *e = &plan[o];
                const cnk_voice *v = &sets[e->set].voices[e->slot];
                const cnk_group *g = &groups[e->group];
                const int end = e->first + e->length;
                for (int i = e->first; i < end; i++) {
                    output[2 * i] += v->gainLeft * CNK_ROW(g, e->lane, i);
                    output[2 * i + 1] += v->gainRight * CNK_ROW(g, e->lane, i);
                }
            }
        }
        o0 = o1;
    }
    // The Swift loop's removals: the slots still live, in their new places.
    for (int si = 0; si < setCount; si++) {
        cnk_voice *voices = sets[si].voices;
        if (voices == 0) continue;
        for (int k = 0; k < live[si]; k++) {
            if (slots[si][k] != k) voices[k] = voices[slots[si][k]];
        }
        sets[si].count = live[si];
    }
}

void cnk_texture_voices(cnk_voice_set *sets, int setCount, long frameCount, float maximumOmega) {
    cnk_voice_sets(sets, setCount, (int)frameCount, maximumOmega);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void cnk_texture_voices_avx2(
    cnk_voice_set *sets, int setCount, long frameCount, float maximumOmega) {
    cnk_voice_sets(sets, setCount, (int)frameCount, maximumOmega);
}
#else
void cnk_texture_voices_avx2(cnk_voice_set *sets, int setCount, long frameCount, float maximumOmega) {
    cnk_voice_sets(sets, setCount, (int)frameCount, maximumOmega);
}
#endif
