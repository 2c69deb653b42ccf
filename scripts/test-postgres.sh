#!/usr/bin/env bash
# The integration suite again, against a real PostgreSQL server (one fresh database per test file).
# In CI it must run: an unreachable server fails the build. Locally it is skipped with a warning.
set -euo pipefail
url="${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}"
if ! node -e "const c=new (require('pg').Client)({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).catch(()=>process.exit(1))" "$url"; then
  if [ -n "${CI:-}" ]; then
    echo "PostgreSQL is not reachable at ${url%%@*}@... (CI requires it: see scripts/system-deps.sh)" >&2
    exit 1
  fi
  echo "WARNING: PostgreSQL not reachable; PostgreSQL integration tests skipped (run scripts/system-deps.sh)." >&2
  exit 0
fi
TEST_DB=postgres TEST_DATABASE_URL="$url" exec npx vitest run tests/integration "$@"
