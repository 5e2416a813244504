#!/usr/bin/env python3
"""Prototypes of fewer-section master filter designs (issue 38; docs/hearing.md, "Cost").

1. An adaptive correction: the fewest RBJ sections (low shelf, high shelf, peaking; centre, Q
   and gain free) plus one overall gain that reproduce a profile within 0.25 dB at its centres.
   Greedy: each round adds the candidate from a third-octave grid that best explains the residual
   (its gain by least squares on a linearised shape), then Levenberg-Marquardt refines every
   section's frequency, Q and gain; four candidates are refined and the best kept. Guard points
   beyond the profile's ends (flat extrapolation, within 1 dB) keep shelves from running away
   where the profile says nothing. Deterministic (no randomness in the fit).
2. The notch as an elliptic band-stop: its order against depth across the central half of the
   width, the -3 dB edges and the passband ripple, next to the Chebyshev type II design in use.

Needs numpy and scipy. Prints the figures docs/hearing.md quotes.
"""
import numpy as np
from scipy import signal

FS = 48000.0

# ISO 226:2003 (as Sources/Audio/NoiseDSP/EqualLoudness.swift).
ISO_HZ = np.array([20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
                   1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500.0])
AF = np.array([0.532, 0.506, 0.480, 0.455, 0.432, 0.409, 0.387, 0.367, 0.349, 0.330, 0.315, 0.301, 0.288,
               0.276, 0.267, 0.259, 0.253, 0.250, 0.246, 0.244, 0.243, 0.243, 0.243, 0.242, 0.242, 0.245,
               0.254, 0.271, 0.301])
LU = np.array([-31.6, -27.2, -23.0, -19.1, -15.9, -13.0, -10.3, -8.1, -6.2, -4.5, -3.1, -2.0, -1.1, -0.4,
               0.0, 0.3, 0.5, 0.0, -2.7, -4.1, -1.0, 1.7, 2.5, 1.2, -2.1, -7.1, -11.2, -10.7, -3.1])
TF = np.array([78.5, 68.7, 59.5, 51.1, 44.0, 37.5, 31.5, 26.5, 22.1, 17.9, 14.4, 11.4, 8.6, 6.2, 4.4, 3.0,
               2.2, 2.4, 3.5, 1.7, -1.3, -4.2, -6.0, -5.4, -1.5, 6.0, 12.6, 13.9, 12.3])


def contour_db(phon):
    a = 4.47e-3 * (10 ** (0.025 * phon) - 1.15) + (0.4 * 10 ** ((TF + LU) / 10 - 9)) ** AF
    return 10 / AF * np.log10(a) - LU + 94


def compensation_db(phon, reference=80, limit=12):
    q, l = contour_db(phon), contour_db(reference)
    k = 17  # 1 kHz
    return np.clip((q - q[k]) - (l - l[k]), -limit, limit)


def section(kind, f, q, g):
    """RBJ cookbook biquad (b, a), a0 = 1; shelves with a Q like the peaking section's."""
    A = 10 ** (g / 40)
    w = 2 * np.pi * f / FS
    c, s = np.cos(w), np.sin(w)
    al = s / (2 * q)
    if kind == 'p':
        b, a = [1 + al * A, -2 * c, 1 - al * A], [1 + al / A, -2 * c, 1 - al / A]
    else:
        k = 2 * np.sqrt(A) * al
        sg = 1 if kind == 'l' else -1
        b = [A * ((A + 1) - sg * (A - 1) * c + k), sg * 2 * A * ((A - 1) - sg * (A + 1) * c),
             A * ((A + 1) - sg * (A - 1) * c - k)]
        a = [(A + 1) + sg * (A - 1) * c + k, -sg * 2 * ((A - 1) + sg * (A + 1) * c), (A + 1) + sg * (A - 1) * c - k]
    return np.array(b) / a[0], np.array(a) / a[0]


def response_db(b, a, f):
    z = np.exp(-1j * 2 * np.pi * np.asarray(f) / FS)
    return 20 * np.log10(np.abs((b[0] + b[1] * z + b[2] * z * z) / (a[0] + a[1] * z + a[2] * z * z)))


def model(sections, f, offset):
    r = np.full(len(f), offset)
    for s in sections:
        r = r + response_db(*section(*s), f)
    return r


QMIN, QMAX, FMIN, FMAX, GMAX = 0.35, 2.5, 15.0, 0.45 * FS, 24.0
GRID = [2 ** (np.log2(20) + i / 3) for i in range(31)]


def unpack(kinds, p):
    out = []
    for i, k in enumerate(kinds):
        lf, lq, g = p[1 + 3 * i:4 + 3 * i]
        out.append((k, float(np.clip(2 ** lf, FMIN, FMAX)), float(np.clip(2 ** lq, QMIN, QMAX)),
                    float(np.clip(g, -GMAX, GMAX))))
    return out, p[0]


def pack(sections, offset):
    return np.array([offset] + [v for (_, f, q, g) in sections for v in (np.log2(f), np.log2(q), g)])


def refine(kinds, p, f, t, iterations=40):
    def residual(p):
        s, o = unpack(kinds, p)
        return model(s, f, o) - t
    lam, r = 1e-2, residual(p)
    cost = r @ r
    for _ in range(iterations):
        J = np.zeros((len(f), len(p)))
        for j in range(len(p)):
            h = np.zeros(len(p))
            h[j] = 1e-5
            J[:, j] = (residual(p + h) - r) / 1e-5
        A, g = J.T @ J, J.T @ r
        while True:
            s, o = unpack(kinds, p + np.linalg.solve(A + lam * np.diag(np.diag(A) + 1e-9), -g))
            pn = pack(s, o)
            rn = residual(pn)
            if rn @ rn < cost:
                p, r, cost, lam = pn, rn, rn @ rn, max(lam / 3, 1e-7)
                break
            lam *= 4
            if lam > 1e8:
                return p
    return p


def fit(centres, gains, tolerance=0.25, guard_tolerance=1.0, most=14):
    centres, gains = np.asarray(centres, float), np.asarray(gains, float)
    lo = [f for f in (10.0, 12.5, 16.0) if f < centres[0] / 1.2]
    hi = [f for f in (14000.0, 16000.0, 18000.0, 20000.0) if f > centres[-1] * 1.1]
    f = np.concatenate([lo, centres, hi])
    t = np.concatenate([[gains[0]] * len(lo), gains, [gains[-1]] * len(hi)])
    real = np.concatenate([np.zeros(len(lo), bool), np.ones(len(centres), bool), np.zeros(len(hi), bool)])
    kinds, p = [], np.array([0.0])

    def errors(kinds, p):
        s, o = unpack(kinds, p)
        e = np.abs(model(s, f, o) - t)
        return e[real].max(), (e[~real].max() if (~real).any() else 0.0)

    while True:
        e_real, e_guard = errors(kinds, p)
        if (e_real <= tolerance and e_guard <= guard_tolerance) or len(kinds) == most:
            s, o = unpack(kinds, p)
            return s, o, e_real, e_guard
        s, o = unpack(kinds, p)
        r = t - model(s, f, o)
        candidates = []
        for kind in 'lhp':
            for fr in GRID:
                for q in ([0.5, 0.71, 1.0] if kind != 'p' else [0.5, 0.8, 1.4]):
                    shape = response_db(*section(kind, fr, q, 6.0), f) / 6.0
                    g = float(np.clip((shape @ r) / (shape @ shape + 1e-12), -GMAX, GMAX))
                    e = r - g * shape
                    candidates.append((e @ e, kind, fr, q, g))
        candidates.sort(key=lambda c: c[0])
        trials = []
        for _, kind, fr, q, g in candidates[:4]:
            k2 = kinds + [kind]
            p2 = refine(k2, np.concatenate([p, [np.log2(fr), np.log2(q), g]]), f, t)
            er, eg = errors(k2, p2)
            trials.append((max(er / tolerance, eg / guard_tolerance), k2, p2))
        trials.sort(key=lambda x: x[0])
        _, kinds, p = trials[0]


def normalised(sections, offset):
    """Sections as the prototype kernel takes them, ordered low shelves, peaking, high shelves,
    each by frequency: rows (b1/b0, b2/b0, a1, a2) and the cascade's gain."""
    rows, gain = [], 10 ** (offset / 20)
    rank = {'l': 0, 'p': 1, 'h': 2}
    for s in sorted(sections, key=lambda s: (rank[s[0]], s[1])):
        b, a = section(*s)
        gain *= b[0]
        rows.append([b[1] / b[0], b[2] / b[0], a[1], a[2]])
    return np.array(rows), gain


def cascade_db(rows, gain, f):
    z = np.exp(-1j * 2 * np.pi * f / FS)
    h = np.full(len(f), gain, complex)
    for b1, b2, a1, a2 in rows:
        h *= (1 + b1 * z + b2 * z * z) / (1 + a1 * z + a2 * z * z)
    return 20 * np.log10(np.abs(h))


def ramp_excursion(a, b):
    """Slot by slot, coefficients and gain on straight lines (as MasterFilter ramps): how far the
    response strays above the higher and below the lower of the two ends, dB, 20 Hz-20 kHz."""
    f = np.geomspace(20, 20000, 600)
    n = max(len(a[0]), len(b[0]))
    ra, rb = (np.vstack([r, np.zeros((n - len(r), 4))]) for r in (a[0], b[0]))
    ea, eb = cascade_db(*a, f), cascade_db(*b, f)
    up = down = 0.0
    for t in np.linspace(0, 1, 101):
        e = cascade_db(ra + (rb - ra) * t, a[1] + (b[1] - a[1]) * t, f)
        up, down = max(up, np.max(e - np.maximum(ea, eb))), max(down, np.max(np.minimum(ea, eb) - e))
    return up, down


def notch(kind, order, centre, width, depth, ripple=0.1):
    """Band-stop, -3 dB edges at centre * 2**(+-width/2), pre-warped for the bilinear transform."""
    f1, f2 = centre * 2 ** (-width / 2), min(centre * 2 ** (width / 2), 0.49 * FS)
    o1, o2 = np.tan(np.pi * f1 / FS), np.tan(np.pi * f2 / FS)
    z, p, k = signal.ellipap(order, ripple, depth) if kind == 'elliptic' else signal.cheb2ap(order, depth)
    w = np.logspace(-2, 2, 200001)
    _, h = signal.freqs_zpk(z, p, k, w)
    w3 = w[np.argmax(20 * np.log10(np.abs(h)) < -3.0103)]
    z, p, k = z / w3, p / w3, k * w3 ** (len(z) - len(p))
    zb, pb, kb = signal.lp2bs_zpk(z, p, k, wo=np.sqrt(o1 * o2), bw=o2 - o1)
    return signal.bilinear_zpk(zb, pb, kb, fs=0.5)


def notch_figures(zpk, centre, width):
    octaves = np.linspace(-1.2, 1.2, 2401) * width
    f = centre * 2 ** octaves
    keep = f < 0.499 * FS
    f, octaves = f[keep], octaves[keep]
    _, h = signal.freqz_zpk(*zpk, worN=f, fs=FS)
    r = 20 * np.log10(np.abs(h))
    depth = -r[np.abs(octaves) <= width / 4 + 1e-9].max()
    below, above = octaves[(octaves < 0) & (r > -3.0103)], octaves[(octaves > 0) & (r > -3.0103)]
    return depth, below[below > -width].max(), above[above < width].min()


if __name__ == '__main__':
    print('Adaptive correction, ISO 226 compensation (29 frequencies):')
    for phon in (20, 40, 60, 70):
        s, o, e, eg = fit(ISO_HZ, compensation_db(phon))
        print(f'  {phon} phon: {len(s)} sections, max error {e:.3f} dB (guards {eg:.2f} dB), gain {o:+.2f} dB:',
              ', '.join(f'{k} {f:.0f} Hz Q {q:.2f} {g:+.2f} dB' for (k, f, q, g) in s))
    print('Adaptive correction, random smooth profiles (24 third-octave centres 63 Hz-12.5 kHz,'
          ' +-6..12 dB sines with periods 3-6 octaves, limited to +-12 dB), at most 14 sections:')
    rng = np.random.default_rng(1)
    centres = np.array([63 * 2 ** (i / 3) for i in range(24)])
    counts, worst = [], []
    for _ in range(12):
        period, phase, amplitude = rng.uniform(3, 6), rng.uniform(0, 2 * np.pi), rng.uniform(6, 12)
        gains = np.clip(amplitude * np.sin(2 * np.pi * np.log2(centres / 63) / period + phase), -12, 12)
        s, o, e, eg = fit(centres, gains)
        counts.append(len(s))
        worst.append(round(float(e), 3))
    print('  sections', counts, '\n  max error dB', worst)
    print('Ramps between adaptive corrections (slot by slot, as MasterFilter ramps):')
    a, b = (normalised(*fit(ISO_HZ, compensation_db(p))[:2]) for p in (40, 60))
    up, down = ramp_excursion(a, b)
    print(f'  iso226:40 ({len(a[0])}) to iso226:60 ({len(b[0])}): at most {up:.2f} dB above both ends,'
          f' {down:.2f} dB below both')
    rng = np.random.default_rng(5)
    for _ in range(3):
        ends = []
        for _ in range(2):
            period, phase, amplitude = rng.uniform(3, 6), rng.uniform(0, 2 * np.pi), rng.uniform(6, 12)
            gains = np.clip(amplitude * np.sin(2 * np.pi * np.log2(centres / 63) / period + phase), -12, 12)
            ends.append(normalised(*fit(centres, gains)[:2]))
        up, down = ramp_excursion(*ends)
        print(f'  random profile ({len(ends[0][0])}) to random profile ({len(ends[1][0])}): at most {up:.2f} dB'
              f' above both ends, {down:.2f} dB below both')
    print('Notch: depth across the central half of the width, -3 dB edges (octaves), 40 dB asked:')
    cases = [(1000, 1), (4000, 1), (6000, 1), (8000, 1), (12000, 1), (4000, 0.5)]
    for kind, order, ripple in [('chebyshev2', 5, 0), ('chebyshev2', 4, 0), ('elliptic', 3, 0.1),
                                ('elliptic', 4, 0.05), ('elliptic', 4, 0.1)]:
        row = []
        for centre, width in cases:
            d, lo, hi = notch_figures(notch(kind, order, centre, width, 40, ripple), centre, width)
            row.append(f'{centre / 1000:g}k/{width:g}: {d:.1f} dB [{lo:+.2f},{hi:+.2f}]')
        print(f'  {kind} {order}' + (f' ({ripple} dB ripple)' if ripple else '') + ': ' + '; '.join(row))
