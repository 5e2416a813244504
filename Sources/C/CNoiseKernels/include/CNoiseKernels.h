#ifndef CNOISEKERNELS_H
#define CNOISEKERNELS_H

/// 1 when this CPU runs AVX2 (checked once, at run time), else 0.
int cnk_has_avx2(void);

/// The master filter's cascade (`MasterFilter`): `sections` biquads (1…20) in transposed direct
/// form II, one after the other, over `frameCount` interleaved stereo frames of `x`, in place.
///
/// Each section sees its input samples in order with the plain cascade's arithmetic
/// (out = b0·v + s1; s1 = b1·v − a1·out + s2; s2 = b2·v − a2·out, in single precision, no fused
/// multiply-add), so the output equals a section-by-section loop bit for bit, whatever the
/// vector width and however a signal is split into calls.
///
/// - coefficients: 5 floats per section (b0, b1, b2, a1, a2; a0 = 1).
/// - state: 4 floats per section (s1 left, s1 right, s2 left, s2 right), read and written back.
///
/// `cnk_cascade` runs on any CPU; `cnk_cascade_avx2` is the same code compiled for AVX2 (call it
/// only when `cnk_has_avx2()` is 1; elsewhere than x86-64 it is `cnk_cascade`).
///
/// Real-time safety: arithmetic only.
void cnk_cascade(int sections, const float *coefficients, float *state, float *x, long frameCount);
void cnk_cascade_avx2(int sections, const float *coefficients, float *state, float *x, long frameCount);

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

#endif
