#!/usr/bin/env bash
# The last two passes of `npm test`, side by side: the system tests run one file at a time (one
# core) and the browser tests on two workers, so together they take about the longer of the two.
# Each writes its own log, printed whole when both are done. TEST_SERIAL=1 runs them one after
# the other (a one-core machine, or to read a failure as it happens).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TEST_SERIAL:-}" ]; then
  npm run test:system && npm run test:e2e
  exit
fi
logs=$(mktemp -d)
started=$(date +%s)
npm run test:system > "$logs/system.log" 2>&1 &
system_pid=$!
npm run test:e2e > "$logs/e2e.log" 2>&1 &
e2e_pid=$!
wait "$system_pid"; system_rc=$?
system_s=$(( $(date +%s) - started ))
wait "$e2e_pid"; e2e_rc=$?
e2e_s=$(( $(date +%s) - started ))
echo "===== test:system (exit $system_rc, ${system_s} s) ====="
cat "$logs/system.log"
echo "===== test:e2e (exit $e2e_rc, ${e2e_s} s) ====="
cat "$logs/e2e.log"
rm -rf "$logs"
echo "test:system exit $system_rc in ${system_s} s; test:e2e exit $e2e_rc in ${e2e_s} s"
[ "$system_rc" -eq 0 ] && [ "$e2e_rc" -eq 0 ]
