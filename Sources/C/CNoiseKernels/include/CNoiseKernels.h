#ifndef CNOISEKERNELS_H
#define CNOISEKERNELS_H

/// 1 when this CPU runs AVX2 (checked once, at run time), else 0.
int cnk_has_avx2(void);

/// The master filter's steady pipeline (`MasterFilter.runSteady`) on AVX2, one group of four
/// sections × two channels per 256-bit register instead of two 128-bit halves.
///
/// The same multiplies, adds and subtractions in the same order as the Swift loop, and no fused
/// multiply-add (the function is compiled for AVX2 alone), so its output is bit-identical to it.
///
/// - groups: 1…5; coefficients: 20 floats per group (b0, b1, b2, a1, a2 per section);
///   state: 16 floats per group (s1 lanes, then s2 lanes); pipe: 8 floats per group (each
///   section's last output); x: interleaved stereo, frames `4·groups − 1 ..< frameCount` are read
///   and written `4·groups − 1` frames earlier.
///
/// Real-time safety: arithmetic only; call only when `cnk_has_avx2()` is 1.
void cnk_cascade_steady_avx2(
    int groups, const float *coefficients, float *state, float *pipe, float *x, long frameCount);

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
