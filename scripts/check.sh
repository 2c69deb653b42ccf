#!/usr/bin/env bash
# Lint, formatting and types side by side: each is mostly one core, CI has two (45 s one after
# the other). Each one's output is shown whole, in this order; any failure fails the check.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
checks=(lint format:check typecheck)
pids=()
for check in "${checks[@]}"; do
  npm run -s "$check" >"$out/$check" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!checks[@]}"; do
  if wait "${pids[$i]}"; then result=passed; else result=FAILED status=1; fi
  echo "> ${checks[$i]}: $result"
  cat "$out/${checks[$i]}"
done
exit $status
