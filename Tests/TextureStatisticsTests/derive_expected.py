#!/usr/bin/env python3
"""Derives the numbers TextureStatisticsTests checks against: texstat's statistics of the same
synthetic signals the tests generate (SplitMix64 + Box-Muller, as TextureStatistics.GaussianSamples).
Run once by hand with ../shared/tools/texstat beside the repository; CI only reads the numbers.
    python3 Tests/TextureStatisticsTests/derive_expected.py /work/shared/tools/texstat
"""
import math
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
import texstat as T  # noqa: E402

M = (1 << 64) - 1


def splitmix(seed):
    s = seed
    while True:
        s = (s + 0x9E3779B97F4A7C15) & M
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        yield z ^ (z >> 31)


def gaussian(n, seed):
    g = splitmix(seed)
    out = np.zeros(n)
    i = 0
    while i < n:
        u1 = ((next(g) >> 11) + 0.5) / 9007199254740992.0
        u2 = (next(g) >> 11) / 9007199254740992.0
        r = math.sqrt(-2 * math.log(u1))
        out[i] = r * math.cos(2 * math.pi * u2)
        if i + 1 < n:
            out[i + 1] = r * math.sin(2 * math.pi * u2)
        i += 2
    return out


def uniform(n, seed):
    g = splitmix(seed)
    return np.array([(next(g) >> 11) / 9007199254740992.0 for _ in range(n)])


FS = 20000
N = 4 * FS
t = np.arange(N) / FS
signals = {
    "white": gaussian(N, 1),
    "am4Hz": gaussian(N, 2) * (1 + 0.9 * np.sin(2 * np.pi * 4 * t)),
    "clicks": 0.01 * gaussian(N, 3) + (uniform(N, 4) < 0.001).astype(float),
}
for name, x in signals.items():
    st = T.stats_from_env(T.envelopes(x)[0])
    p = T.profile(st)
    means = ", ".join(f".{c.lower()}: {float(np.mean(st[c])):.6f}" for c in T.CLASSES)
    print(f'"{name}": [{means}],')
    print(f'  profile kurt_lo {p["kurt_lo"]:.5f} kurt_mid {p["kurt_mid"]:.5f} kurt_hi {p["kurt_hi"]:.5f} '
          f'corr1 {p["corr1"]:.5f} corr8 {p["corr8"]:.5f} mp4 {p["mp4Hz_dB"]:.4f} mp16 {p["mp16Hz_dB"]:.4f} '
          f'cv_mid {p["cv_mid"]:.5f} lo-1k {p["spec_lo-1k_dB"]:.4f} hi-1k {p["spec_hi-1k_dB"]:.4f}')
sw = gaussian(30 * FS, 5) * (1 + 0.8 * np.sin(2 * np.pi * np.arange(30 * FS) / FS / 6))
print("swell 6 s:", T.slow_periodicity(sw))
