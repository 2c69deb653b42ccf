#!/usr/bin/env bash
# `npm test`: lint, formatting and types, unit + integration on PGlite, the integration tests again
# on PostgreSQL, the build, the system tests, the browser suite; the first failure stops the run.
#
# The PostgreSQL pass and the build run side by side: the first mostly waits for the PostgreSQL
# server (its own processes and its disk: creating and dropping a database per file), the second is
# Vite on one core. Their outputs are shown whole, one after the other, once both are done.
# Everything else is CPU-bound on CI's 2 cores and runs one pass at a time (docs/performance.md,
# "Test times").
set -uo pipefail
cd "$(dirname "$0")/.."

step() {
  echo
  echo "=== npm run $1"
  npm run -s "$1" || exit 1
}

side_by_side() {
  local scripts=("$@") pids=() status=0 out i result
  out=$(mktemp -d)
  for i in "${!scripts[@]}"; do
    npm run -s "${scripts[$i]}" >"$out/$i" 2>&1 &
    pids+=($!)
  done
  for i in "${!scripts[@]}"; do
    if wait "${pids[$i]}"; then result=passed; else result=FAILED status=1; fi
    echo
    echo "=== npm run ${scripts[$i]}: $result"
    cat "$out/$i"
  done
  rm -rf "$out"
  [ "$status" -eq 0 ] || exit 1
}

step check
step test:unit
side_by_side test:pg build
step test:system
step test:e2e
