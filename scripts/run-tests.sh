#!/usr/bin/env bash
# Runs the built test suite in parallel shards, with a deadline (TEST_TIMEOUT seconds, default 1500).
#
# Why shards: Swift Testing runs every test of one process on Swift's cooperative pool, one thread
# per core. Many of our tests block a thread while a real server, player or browser does its work
# (a one-process run of 587 tests took 318 s wall for 77 s of CPU on 2 cores), so one process
# leaves the machine idle. Several processes, each with its own pool, overlap those waits. The test
# modules are grouped into TEST_SHARDS processes (default 4; 1 = one `swift test` as before) by
# scripts/test-shards; a module that file does not name runs in the last shard, so none is skipped.
#
# At the deadline this prints the tests that started and never finished and the processes still
# running, stops the run, and fails (a hanging test would otherwise hold CI with nothing to show).
# Usage: scripts/run-tests.sh <swift test arguments...>   (e.g. -c release --skip-build -Xswiftc -enable-testing)
#        A --filter among the arguments runs one `swift test` with them, unsharded.
set -uo pipefail
cd "$(dirname "$0")/.."
deadline=${TEST_TIMEOUT:-1500}
shards=${TEST_SHARDS:-4}
logdir=$(mktemp -d)
# Every test's temporary folder (stores, private PulseAudio and D-Bus folders, Chromium's profiles,
# renders) goes under one folder per run, removed at the end: a run used to leave about 330 folders
# and 250 MB in /tmp, most of them from tests that never remove what they made.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ww-tests.XXXXXX")
# Open to all with the sticky bit, as /tmp is: some tests run a process as another user (a refused
# peer of the control socket, a compositor under setpriv), which must reach the folders tests make.
chmod 1777 "$scratch"
export TMPDIR="$scratch"
cleanup() {
    local left
    left=$(find "$scratch" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    [ "$left" -gt 0 ] && echo "run-tests: removing the $left temporary folders and files the tests left ($(du -sh "$scratch" 2>/dev/null | cut -f1))"
    rm -rf "$logdir" "$scratch"
}
trap cleanup EXIT

unfinished() {
    python3 - "$@" <<'PY'
import re, sys
for path in sys.argv[1:]:
    started, ended = [], set()
    for line in open(path, errors="replace"):
        m = re.search(r"Test (\S+?\(.*?\)) started\.", line)
        if m: started.append(m.group(1))
        m = re.search(r"Test (\S+?\(.*?\))(?: with \d+ test cases?)? (?:passed|failed)", line)
        if m: ended.add(m.group(1))
    for t in dict.fromkeys(started):
        if t not in ended: print("  " + t)
PY
}

# Waits for the process groups in $@ (PIDs of setsid leaders) until the deadline; 124 when it passed.
wait_or_stop() {
    local waited=0 alive
    while :; do
        alive=0
        for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && return 0
        [ "$waited" -ge "$deadline" ] && break
        sleep 2; waited=$((waited + 2))
    done
    {
        echo "run-tests: the test run passed its ${deadline} s deadline. Started and never finished:"
        unfinished "$logdir"/*.log
        echo "run-tests: processes still running:"
        ps -eo pid,ppid,etime,args --sort=start_time | grep -v ' \[' | tail -40
    } >&2
    for p in "$@"; do kill -TERM -- "-$p" 2>/dev/null; done
    sleep 10
    for p in "$@"; do kill -KILL -- "-$p" 2>/dev/null; done
    return 124
}

single=0
[ "$shards" -le 1 ] && single=1
for a in "$@"; do [ "$a" = "--filter" ] || [[ "$a" == --filter=* ]] && single=1; done

if [ "$single" = 1 ]; then
    setsid "${SWIFT:-swift}" test "$@" > >(tee "$logdir/all.log") 2>&1 &
    pid=$!
    wait_or_stop "$pid" || exit 124
    wait "$pid"; rc=$?
    sleep 1   # let tee finish
    exit "$rc"
fi

# The runner is the test bundle swift test would start; the bin folder comes from the same arguments.
build_args=()
for a in "$@"; do [ "$a" = "--skip-build" ] || build_args+=("$a"); done
bin=$("${SWIFT:-swift}" build "${build_args[@]}" --show-bin-path) || exit 1
runner=$(ls "$bin"/*PackageTests.xctest 2>/dev/null | head -1)
[ -x "$runner" ] || { echo "run-tests: no test runner in $bin (build with --build-tests first)" >&2; exit 1; }

# Shard lines: module names separated by spaces; blank lines and # comments ignored. A line
# `solo: Module.Suite ...` names suites that measure real time against real servers (a Snapcast
# client, PipeWire): they run after the shards, on a quiet machine, and the shards skip them.
solo=$(grep -E '^\s*solo:' scripts/test-shards | sed -E 's/^\s*solo://' | tr '\n' ' ')
mapfile -t lines < <(grep -v '^\s*#' scripts/test-shards | grep -vE '^\s*solo:' | grep -v '^\s*$' | head -n "$shards")
all_modules=$(cd Tests && ls -d *Tests 2>/dev/null)
named=" $(printf '%s ' "${lines[@]}") "
rest=""
for m in $all_modules; do [[ "$named" == *" $m "* ]] || rest="$rest $m"; done
for m in $(printf '%s ' "${lines[@]}"); do
    [ -d "Tests/$m" ] || echo "run-tests: scripts/test-shards names $m, which is not a test module" >&2
done
last=$((${#lines[@]} - 1))
lines[$last]="${lines[$last]}$rest"
skip=()
solo_pattern=""
if [ -n "${solo// /}" ]; then
    solo_pattern="^($(echo $solo | sed 's/\./\\./g' | tr ' ' '|'))(/|\$)"
    skip=(--skip "$solo_pattern")
fi

# Runs one shard (index, filter, extra arguments...) in its own session; its exit code and seconds
# land in shard<index>.rc.
run_shard() {
    local i=$1 filter=$2; shift 2
    ( s=$(date +%s)
      setsid "$runner" --testing-library swift-testing --filter "$filter" "$@" > "$logdir/shard$i.log" 2>&1
      echo "$? $(( $(date +%s) - s ))" > "$logdir/shard$i.rc" ) &
    pids+=($!)
}

pids=()
start=$(date +%s)
# TEST_ALONGSIDE: a command run beside the shards (make test builds test-packaging's generate-manual
# there, ~40 s of compiling that otherwise ran after the tests on a clean clone); it must finish, and
# succeed, before the solo suites, which want a quiet machine. Started here, after the one
# `swift build --show-bin-path` above, since SwiftPM lets one process at a time use .build.
alongside=""
if [ -n "${TEST_ALONGSIDE:-}" ]; then
    bash -c "$TEST_ALONGSIDE" > "$logdir/alongside.log" 2>&1 &
    alongside=$!
fi
for i in "${!lines[@]}"; do
    modules=$(echo ${lines[$i]} | tr ' ' '|')
    run_shard "$i" "^($modules)\." "${skip[@]}"
    echo "run-tests: shard $i: ${lines[$i]}"
done
wait_or_stop "${pids[@]}"; stopped=$?
alongside_rc=0
if [ -n "$alongside" ]; then
    wait "$alongside"; alongside_rc=$?
    if [ "$alongside_rc" != 0 ]; then
        echo "run-tests: TEST_ALONGSIDE failed (exit $alongside_rc): $TEST_ALONGSIDE" >&2
        tail -30 "$logdir/alongside.log" >&2
    fi
fi
wait
if [ -n "$solo_pattern" ] && [ "$stopped" = 0 ]; then
    i=${#lines[@]}
    lines[$i]="solo:$solo"
    echo "run-tests: shard $i (after the others, alone):$solo"
    pids=()
    run_shard "$i" "$solo_pattern"
    wait_or_stop "${pids[@]}"; stopped=$?
    wait
fi

rc=0
for i in "${!lines[@]}"; do
    echo "===== shard $i: ${lines[$i]}"
    cat "$logdir/shard$i.log"
done
echo "===== summary ($(( $(date +%s) - start )) s wall)"
for i in "${!lines[@]}"; do
    read -r code secs < "$logdir/shard$i.rc" 2>/dev/null || { code=124; secs="?"; }
    result=$(grep -aE "Test run with [0-9]+ tests" "$logdir/shard$i.log" | tail -1 | sed 's/\x1b\[[0-9;]*m//g')
    echo "shard $i (exit $code, ${secs} s): ${result:-no result line}"
    [ "$code" = 0 ] || rc=1
    # A shard with no tests at all means a wrong filter, not a pass.
    [ -n "$result" ] || rc=1
done
# Every listed test must have run: a test the filters miss (or one the runner silently does not
# select) would otherwise pass unseen. The counts are Swift Testing's own (a parameterised test is one).
listed=$("$runner" --testing-library swift-testing --list-tests 2>/dev/null | grep -c '/')
# A test bundle older than the sources lists and runs fewer tests than they declare (a run against a
# stale build once "passed" 831 of 861): the count of @Test attributes in Tests/ is the floor.
declared=$(grep -rhE '^\s*@Test\b' Tests --include='*.swift' | wc -l)
[ "$declared" -gt "$listed" ] && listed=$declared
ran=$(grep -ahoE "Test run with [0-9]+ tests" "$logdir"/shard*.log | awk '{s += $4} END {print s + 0}')
echo "run-tests: $ran of $listed listed tests ran"
if [ "$ran" != "$listed" ] && [ "$stopped" = 0 ]; then
    echo "run-tests: $listed tests are listed but $ran ran; not seen in any shard's log:" >&2
    "$runner" --testing-library swift-testing --list-tests 2>/dev/null | grep '/' | while IFS= read -r id; do
        name=${id##*/}
        grep -aqF "Test $name " "$logdir"/shard*.log || echo "  $id" >&2
    done
    rc=1
fi
if [ "$rc" != 0 ]; then
    echo "run-tests: failures:"
    grep -ahE "✘ Test .*(recorded an issue|failed after)" "$logdir"/shard*.log | sed 's/\x1b\[[0-9;]*m//g' | head -60
fi
[ "$stopped" = 124 ] && exit 124
[ "$alongside_rc" = 0 ] || rc=1
exit "$rc"
