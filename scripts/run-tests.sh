#!/usr/bin/env bash
# Runs the built test suite with a deadline (TEST_TIMEOUT seconds, default 1500). A test that hangs
# would otherwise hold CI until CI's own limit with nothing to show; at the deadline this prints the
# tests that started and never finished and the processes still running, stops the run, and fails.
# Usage: scripts/run-tests.sh <swift test arguments...>
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
deadline=${TEST_TIMEOUT:-1500}

unfinished() {
    python3 - "$log" <<'PY'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Test (\S+?\(.*?\)) started\.", line)
    if m: started.append(m.group(1))
    m = re.search(r"Test (\S+?\(.*?\))(?: with \d+ test cases?)? (?:passed|failed)", line)
    if m: ended.add(m.group(1))
for t in dict.fromkeys(started):
    if t not in ended: print("  " + t)
PY
}

setsid "${SWIFT:-swift}" test "$@" > >(tee "$log") 2>&1 &
pid=$!
waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$deadline" ]; do sleep 5; waited=$((waited + 5)); done
if kill -0 "$pid" 2>/dev/null; then
    {
        echo "run-tests: the test run passed its ${deadline} s deadline. Started and never finished:"
        unfinished
        echo "run-tests: processes still running:"
        ps -eo pid,ppid,etime,args --sort=start_time | grep -v ' \[' | tail -40
    } >&2
    kill -TERM -- "-$pid" 2>/dev/null; sleep 10; kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rm -f "$log"
    exit 124
fi
wait "$pid"
rc=$?
sleep 1   # let tee finish
rm -f "$log"
exit "$rc"
