#!/bin/sh
# `weaver render` of a small Noise Machine PNG as a whole process, beside `rsvg-convert` drawing the
# same widget's SVG (issue 41 item 25): one hyperfine run in which the two take turns, ROUNDS times
# RUNS runs each, so load from other work on the machine falls on both alike. Prints the medians of
# wall time and of CPU time (user + system) over every run of each, and their ratios; exits 1 when
# the wall-time ratio is above MAX_RATIO (0.75).
# Usage: scripts/bench-render-cli.sh BIN_DIR   (environment: ROUNDS, RUNS, MAX_RATIO, SCALE)
set -eu
bin=${1:?usage: bench-render-cli.sh BIN_DIR}
rounds=${ROUNDS:-10}
runs=${RUNS:-5}
max=${MAX_RATIO:-0.75}
scale=${SCALE:-1}
work=$(mktemp -d /tmp/ww-bench-render.XXXXXX)
trap 'rm -rf "$work"' EXIT
store="$work/store"
mkdir -p "$store"
widget="--store $store --template noise-machine --family small --scale $scale"
"$bin/weaver" render $widget -o "$work/widget.svg"
weaver_cmd="$bin/weaver render $widget -o $work/w.png"
rsvg_cmd="rsvg-convert $work/widget.svg -o $work/r.png"
set --
i=0
while [ "$i" -lt "$rounds" ]; do
    set -- "$@" -n "weaver-$i" "$weaver_cmd" -n "rsvg-$i" "$rsvg_cmd"
    i=$((i + 1))
done
hyperfine -N --style basic --warmup 3 --runs "$runs" --export-json "$work/runs.json" "$@" >/dev/null
python3 - "$work/runs.json" "$max" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
def runs(prefix, key):
    values = []
    for r in results:
        if r["command"].startswith(prefix):
            if key == "wall":
                values += r["times"]
            else:
                # hyperfine keeps only the mean CPU time per command: weight it by its runs
                values += [r["user"] + r["system"]] * len(r["times"])
    return values
w_wall, r_wall = statistics.median(runs("weaver", "wall")), statistics.median(runs("rsvg", "wall"))
w_cpu, r_cpu = statistics.median(runs("weaver", "cpu")), statistics.median(runs("rsvg", "cpu"))
n = len(runs("weaver", "wall"))
print(f"weaver render (small Noise Machine PNG): wall median {w_wall * 1000:.1f} ms, CPU {w_cpu * 1000:.1f} ms ({n} runs)")
print(f"rsvg-convert (the same widget's SVG):    wall median {r_wall * 1000:.1f} ms, CPU {r_cpu * 1000:.1f} ms ({n} runs)")
print(f"ratio weaver / rsvg-convert: wall {w_wall / r_wall:.2f}, CPU {w_cpu / r_cpu:.2f} (limit {sys.argv[2]})")
sys.exit(0 if w_wall / r_wall <= float(sys.argv[2]) else 1)
PY
