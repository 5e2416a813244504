#ifndef CNOISEKERNELS_H
#define CNOISEKERNELS_H

/// 1 when this CPU runs AVX2 (checked once, at run time), else 0.
int cnk_has_avx2(void);

/// 1 when this CPU runs AVX2 and AVX-512VL (checked once, at run time), else 0.
int cnk_has_avx512vl(void);

/// The master filter's cascade (`MasterFilter`): `sections` biquads (1…20) in direct form I with
/// b0 normalised to 1, one after the other, over `frameCount` interleaved stereo frames of `x`, in
/// place, the input first multiplied by `gain` (the product of the sections' b0).
///
/// Each section sees its input samples in order with the same arithmetic (v = gain·x; then per
/// section out = (((b1·v₁ + b2·v₂) − a2·y₂) + v) − a1·y₁, where v₁, v₂ are the section's last two
/// inputs and y₁, y₂ its last two outputs, in single precision, no fused multiply-add), so the
/// output equals a section-by-section loop bit for bit, whatever the vector width and however a
/// signal is split into calls.
///
/// - coefficients: 4 floats per section (b1/b0, b2/b0, a1, a2; a0 = 1).
/// - history: (sections + 1) × 4 floats, read and written back: the scaled input's last two
///   frames, then each section's last two outputs (newest left, newest right, older left, older
///   right). Zeros for a cascade at rest.
///
/// `cnk_cascade_df1` runs on any CPU; `cnk_cascade_df1_avx2` is the same code compiled for AVX2
/// (call it only when `cnk_has_avx2()` is 1) and `cnk_cascade_df1_avx512vl` for AVX-512VL's 32
/// registers (only when `cnk_has_avx512vl()` is 1); elsewhere than x86-64 both are the first.
///
/// Real-time safety: arithmetic only.
void cnk_cascade_df1(int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);
void cnk_cascade_df1_avx2(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);
void cnk_cascade_df1_avx512vl(
    int sections, const float *coefficients, float gain, float *history, float *x, long frameCount);

/// The texture bed's sample loop (`TextureBed.render`) on AVX2: eight subbands per channel in
/// one 256-bit register, both channels in one loop, and each sample's band sum added left to
/// right as `SIMD8.sum()` adds (an 8 × 8 transpose, then seven vector adds).
///
/// The same operations in the same order as the Swift loop and no fused multiply-add, so its
/// output is bit-identical to it.
///
/// - channels: 1 or 2. noise (8 × uint32), low, high, low2, high2 (8 floats each): per channel,
///   the channels one after the other, read and written back. envelope, envelopeStep, aLow, aHigh:
///   8 floats each, shared by the channels. output: interleaved stereo frames; channel c's sum is
///   added to `output[2·i + c]` for i in 0..<n.
///
/// Real-time safety: arithmetic only; call only when `cnk_has_avx2()` is 1.
void cnk_texture_bed_avx2(int channels, void *noise, void *low, void *high, void *low2, void *high2,
    const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh, float *output, long n);

/// A texture bed's line (a fan's motor hum, the wind's whistle) for `cnk_texture_bed_line_avx2`:
/// per channel its xorshift32 noise and the resonator's last two outputs (read and written back),
/// the resonator y = x + a1·y1 + a2·y2, and the gain at the first frame (written back advanced)
/// with its step per frame.
typedef struct {
    unsigned noise[2];
    float y1[2], y2[2];
    float a1, a2, gain, gainStep;
} cnk_bed_line;

/// `cnk_texture_bed_avx2` with the line added after each frame's bed (stereo only; `line` may be
/// null, and is ignored in mono): frame i gets output[2i + c] += y_c·gain, y as `TextureBed.render`'s
/// Swift loop makes it and in its order, so the bits are the same. The line's recursion runs beside
/// the bands' instead of in a loop of its own after them.
void cnk_texture_bed_line_avx2(int channels, void *noise, void *low, void *high, void *low2, void *high2,
    const void *envelope, const void *envelopeStep, const void *aLow, const void *aHigh, cnk_bed_line *line,
    float *output, long n);

/// Two layer pairs' chains for one sub-block (`LayerPair.processBoth`) on AVX2: `input` holds
/// `n` frames of eight lanes (pair a's four, then pair b's: its generator's noise or texture), 32-byte
/// aligned, and is used as scratch. Per lane: ten first-order stages (colour and DC blocker; per
/// stage 4 × 4 floats b0, b1/b0, a1, state in `colour`), then five biquads (low cut and high cut,
/// mixed by their `wet`, and the three EQ bands; per biquad 8 × 4 floats b0, b1, b2, a1, a2, s1, s2,
/// wet in `biquads`), then the gain: per frame gain += gainStep, out = y · gain. Pair a's lanes go to
/// `outA`, pair b's to `outB` (four floats a frame); the states are written back.
///
/// The Swift chain's arithmetic in its order, no fused multiply-add: the same bits.
///
/// Real-time safety: arithmetic only; call only when `cnk_has_avx2()` is 1.
void cnk_layer_chain_avx2(void *input, float *colourA, float *colourB, float *biquadsA, float *biquadsB,
    const float *gainStart, const float *gainStep, float *outA, float *outB, long n);

/// Four layers' stereo texture frames (`n` each, left and right) as `cnk_layer_chain_avx2`'s input:
/// frame i's eight lanes are layer 0 left, right, layer 1 left, right, … (moves only).
void cnk_texture_lanes(const float *t0, const float *t1, const float *t2, const float *t3, void *lanes, long n);

/// One voice of a texture (`TextureGenerator.Voice`): a ring (a drop's bubble: a rotating phasor,
/// gliding once per sub-block), a tap (a noise burst through its own one-pole low-pass, clipped) or
/// a burst (crackle: a noise burst).
typedef struct {
    _Bool isDrop;
    /// A tap (statistics-driven kinds): a crackle-like burst through its own one-pole low-pass.
    _Bool isTap;
    float lowPass, lowPassCoefficient;
    /// Drops: the rotating phasor (amplitude folded in) and its per-sample rotation.
    float re, im, wr, wi;
    float omega, omegaRisePerFrame, rho;
    /// Taps and bursts: the envelope and its per-sample decay.
    float envelope, envelopeDecay;
    float gainLeft, gainRight;
    int ageFrames, lifeFrames;
    /// First frame of the current sub-block this voice sounds in (non-zero only at its onset).
    int startFrame;
} cnk_voice;

/// The taps' noise drawn ahead in batches (`cnk_texture_voices`): 256 values at a time, eight
/// stretches of the sequence side by side. `current` is the sequence's state at the next value to
/// hand out; a call whose `noiseState` differs starts the stream again from it.
typedef struct {
    unsigned current, last;
    int read, count;
    unsigned values[256];
} cnk_noise_stream;

/// The xorshift32 (13, 17, 5) state 32 steps after `x` (a table lookup per byte instead of 32
/// serial steps).
unsigned cnk_xorshift32_jump32(unsigned x);

/// The next `count` values of the xorshift32 sequence after `*noiseState`, as floats in [−1, 1)
/// (value as a signed integer × 2⁻³¹), drawn through `stream` (eight stretches side by side, see
/// `cnk_noise_stream`) instead of one serial step after the other; `*noiseState` ends at the
/// last value drawn, as a serial loop would leave it. The same values as that loop, bit for bit.
///
/// Real-time safety: arithmetic only.
void cnk_noise_draw(cnk_noise_stream *stream, unsigned *noiseState, float *out, int count);

/// A ring's rotation per frame for its ω (radians a frame, 0 … π) and damping ρ: c = ρ·cos ω,
/// s = ρ·sin ω, by the polynomial `cnk_texture_voices` uses for eight rings at once (the same
/// bits; within 2·10⁻⁷ of the exact values).
void cnk_ring_rotation(float rho, float omega, float *c, float *s);

/// One texture generator's voices for `cnk_texture_voices`: `count` voices (read, and set to the
/// voices left), its output (interleaved stereo frames), its taps' noise state (read and written
/// back) with the values drawn ahead, and its taps' output bound (±clip).
typedef struct {
    cnk_voice *voices;
    long count;
    float *output;
    unsigned *noiseState;
    cnk_noise_stream *stream;
    float clip;
} cnk_voice_set;

/// Renders up to four generators' voices for one sub-block of `frameCount` (≤ 32) frames, each
/// set's added to its own output (frame i: output[2i] += gainLeft·s, output[2i + 1] +=
/// gainRight·s), and removes the voices that ended as `TextureGenerator`'s Swift loop does (the
/// last voice takes an ended one's slot and is rendered next in its place).
///
/// Per set, the same arithmetic as the Swift loop in the same order, no fused multiply-add: each
/// voice's recursion as it writes it, the taps' and bursts' xorshift32 noise drawn voice after
/// voice in the order rendered, each frame's sum added voice after voice in that order. So the
/// outputs, the voices and the noise states are bit-identical to it. Voices of a kind (of every
/// set together) run eight to a vector, the vectors side by side.
///
/// - maximumOmega: the bound on a ring's glide (radians/frame).
///
/// `cnk_texture_voices` runs on any CPU; `cnk_texture_voices_avx2` is the same code for AVX2
/// (call it only when `cnk_has_avx2()` is 1).
///
/// Real-time safety: arithmetic only; no allocation.
void cnk_texture_voices(cnk_voice_set *sets, int setCount, long frameCount, float maximumOmega);
void cnk_texture_voices_avx2(cnk_voice_set *sets, int setCount, long frameCount, float maximumOmega);

#endif
