#!/usr/bin/env bash
# Measures `noise play --preset sleep` on a private PulseAudio server with a null sink:
# time to first sound, CPU (% of one core) and resident memory over a steady stretch.
# Usage: scripts/measure-play.sh [seconds] [noise binary]   (make build first)
set -euo pipefail
SECONDS_TO_PLAY=${1:-20}
NOISE=${2:-$(swift build -c release --show-bin-path)/noise}
source "$(dirname "$0")/private-pulse.sh"
trap 'kill $PA 2>/dev/null; rm -rf "$T"' EXIT
parec -d test.monitor --latency-msec=20 --rate=48000 --channels=2 --format=s16le --file-format=wav "$T/rec.wav" &
REC=$!
sleep 0.5
REC_START=$(python3 -c 'import os,time; print(time.time() - 0.5)')   # parec start, give or take 20 ms
T0=$(python3 -c 'import time; print(time.time())')
"$NOISE" play --preset sleep --fade-in 0 2>"$T/play.log" &
P=$!
sleep 2   # settle: exclude start-up from the steady figures
read -r u1 s1 < <(awk '{print $14, $15}' /proc/$P/stat)
W1=$(python3 -c 'import time; print(time.time())')
sleep "$SECONDS_TO_PLAY"
read -r u2 s2 < <(awk '{print $14, $15}' /proc/$P/stat)
W2=$(python3 -c 'import time; print(time.time())')
RSS=$(awk '/VmRSS/ {print $2}' /proc/$P/status)
HWM=$(awk '/VmHWM/ {print $2}' /proc/$P/status)
kill -TERM $P; wait $P || true
kill -INT $REC; wait $REC || true
TICKS=$(getconf CLK_TCK)
python3 - "$T/rec.wav" "$REC_START" "$T0" "$u1" "$s1" "$u2" "$s2" "$W1" "$W2" "$TICKS" "$RSS" "$HWM" <<'PY'
import sys, wave, struct
path, rec_start, t0, u1, s1, u2, s2, w1, w2, ticks, rss, hwm = sys.argv[1:]
w = wave.open(path); n = w.getnframes(); data = w.readframes(n)
samples = struct.unpack('<%dh' % (len(data) // 2), data)
first = next(i for i, v in enumerate(samples) if v != 0) // 2
first_sound = float(rec_start) + first / 48000 - float(t0)
cpu = ((int(u2) + int(s2)) - (int(u1) + int(s1))) / int(ticks) / (float(w2) - float(w1)) * 100
print(f"first sound after start: {first_sound * 1000:.0f} ms (±20 ms)")
print(f"CPU while playing: {cpu:.2f} % of one core over {float(w2) - float(w1):.0f} s")
print(f"resident memory: {int(rss) / 1024:.1f} MB now, {int(hwm) / 1024:.1f} MB peak")
PY
