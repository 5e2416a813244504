#!/usr/bin/env python3
"""Draws docs/texture-modulation.png: the envelope modulation spectra (texstat MP, mean over the
30 ERB bands) of texture presets before and after a change, beside the development recordings.

    noise render --mix Presets/P.json --duration 62s --seed 7 --channels 1 --format f32 -o now/P.wav
    (the same with the older build into before/P.wav)
    scripts/texture-modulation.py --before before --now now --refs /tmp/refs -o docs/texture-modulation.png

Needs ../shared/tools/texstat (its statistics, so the curves are texstat's own) and matplotlib.
Each panel is "preset:recording" (recording empty for none); --label names the two builds.
"""
import argparse
import os
import sys

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--before", required=True)
ap.add_argument("--now", required=True)
ap.add_argument("--refs", default="/tmp/refs")
ap.add_argument("--texstat", default=os.path.join(os.path.dirname(__file__), "../../shared/tools/texstat"))
ap.add_argument("--panels", default="rain:rain,heavy-rain:rain,rain-tent:rain,storm:storm,ocean:waves,fan:")
ap.add_argument("--label", default="before,now")
ap.add_argument("--title", default="Envelope modulation spectra (texstat MP, mean over 30 ERB bands): presets before and now, beside the recordings")
ap.add_argument("-o", "--output", required=True)
a = ap.parse_args()
sys.path.insert(0, a.texstat)
import texstat as T  # noqa: E402
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

cfs = np.geomspace(T.MOD_LO, T.MOD_HI, T.N_MOD)


def mp_db(path):
    st = T.file_stats(path)
    return 10 * np.log10((10 ** st["MP"]).reshape(T.N_BANDS, T.N_MOD).mean(axis=0))


panels = [p.split(":") for p in a.panels.split(",")]
before_label, now_label = a.label.split(",")
fig, axes = plt.subplots(1, len(panels), figsize=(3.1 * len(panels), 3.3), sharey=True)
for ax, (preset, rec) in zip(axes, panels):
    ax.semilogx(cfs, mp_db(os.path.join(a.before, preset + ".wav")), ":", label=before_label)
    ax.semilogx(cfs, mp_db(os.path.join(a.now, preset + ".wav")), "-", lw=2, label=now_label)
    if rec:
        ax.semilogx(cfs, mp_db(os.path.join(a.refs, rec + ".wav")), "--", label=f"recording ({rec})")
    ax.set_title(preset)
    ax.set_xlabel("modulation Hz")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
axes[0].set_ylabel("modulation power / envelope variance, dB")
fig.suptitle(a.title, fontsize=9)
fig.tight_layout()
fig.savefig(a.output, dpi=100)
print(a.output)
