#!/usr/bin/env bash
# How quiet is a steady player? (issue 12, point 6)
#
# On a private PulseAudio server with a null sink, counts the system calls of
#   noise play --preset PRESET --latency 150ms
# and of `pacat --latency-msec=150` playing the same sound (a render of the same preset), each
# over SECONDS of steady playing: the player is started, left alone 3 s, then `strace -f -c -p`
# is attached (3 s after it printed "Playing") to all its threads for SECONDS and detached. Also counts the fsync/fdatasync and
# rename calls (the store's atomic writes) and the files in the store whose mtime changed during
# the window.
#
# Usage: scripts/measure-quiet.sh [SECONDS] [noise binary] [PRESET]   (needs strace, pulseaudio, pacat)
set -euo pipefail
WINDOW=${1:-20}
NOISE=${2:-$(swift build -c release --show-bin-path)/noise}
PRESET=${3:-pink}
source "$(dirname "$0")/private-pulse.sh"
P=""
cleanup() { [ -n "$P" ] && kill "$P" 2>/dev/null; kill $PA 2>/dev/null; wait $PA 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

# strace -c prints "% time seconds usecs/call calls errors syscall"; the total line says "total".
summarise() {   # $1 label, $2 strace -c output
  awk -v label="$1" -v window="$WINDOW" '
    /^-+/ { next }
    $NF == "total" { total = $4; next }
    NF >= 5 && $1 ~ /^[0-9.]+$/ {
      calls[$NF] = $4
      if ($NF ~ /^(fsync|fdatasync)$/) fsyncs += $4
      if ($NF ~ /^rename/) renames += $4
    }
    END {
      top = ""
      # the five busiest calls
      for (k = 0; k < 5; k++) {
        best = ""; bv = -1
        for (name in calls) if (!(name in shown) && calls[name] + 0 > bv) { bv = calls[name] + 0; best = name }
        if (best == "") break
        shown[best] = 1; top = top sprintf(" %s %d", best, bv)
      }
      printf "%-6s %7d calls in %d s (%.0f/s), fsync %d, rename %d; busiest:%s\n", label, total, window, total / window, fsyncs, renames, top
    }' "$2"
}

# 1. noise play
"$NOISE" play --preset "$PRESET" --latency 150ms --fade-in 0 2>"$T/play.log" &
P=$!
until grep -q "^Playing" "$T/play.log" 2>/dev/null; do sleep 0.1; kill -0 "$P" || { cat "$T/play.log"; exit 1; }; done
sleep 3
touch "$T/mark"
timeout -s INT "$WINDOW" strace -f -c -p "$P" -o "$T/noise.strace" 2>/dev/null || true
CHANGED=$(find "$WIDGETWEAVER_HOME" -newer "$T/mark" -type f 2>/dev/null | sed "s|$WIDGETWEAVER_HOME/||" | tr '\n' ' ')
kill -INT "$P"; wait "$P" || true
P=""

# 2. pacat, same sound, same latency
"$NOISE" render --preset "$PRESET" --duration "$((WINDOW + 10))s" --format f32 -o "$T/same.wav" 2>/dev/null
pacat --latency-msec=150 --file-format=wav "$T/same.wav" &
P=$!
sleep 3
timeout -s INT "$WINDOW" strace -f -c -p "$P" -o "$T/pacat.strace" 2>/dev/null || true
kill "$P" 2>/dev/null; wait "$P" 2>/dev/null || true
P=""

summarise noise "$T/noise.strace"
summarise pacat "$T/pacat.strace"
n=$(awk '$NF == "total" { print $4 }' "$T/noise.strace"); c=$(awk '$NF == "total" { print $4 }' "$T/pacat.strace")
awk -v n="$n" -v c="$c" 'BEGIN { printf "ratio  %.2fx pacat\n", n / c }'
echo "store files written during the window: ${CHANGED:-none}"
if [ -n "${VERBOSE:-}" ]; then cat "$T/noise.strace"; cat "$T/pacat.strace"; fi
