#!/usr/bin/env bash
# npm test's static checks side by side (tsc, svelte-check, eslint, prettier): each is one process on
# one core, none writes a file, so together they take the longest one's time. Each one's output is
# printed whole once it ends; the exit code is 1 when any of them failed.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
names=(tsc svelte-check eslint prettier)
cmds=(
  "npx tsc --noEmit -p tsconfig.json"
  "npx svelte-check --tsconfig ./tsconfig.web.json --fail-on-warnings"
  "npx eslint ."
  "npx prettier --check ."
)
pids=()
for i in "${!names[@]}"; do
  bash -c "${cmds[$i]}" >"$logs/$i" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!names[@]}"; do
  if wait "${pids[$i]}"; then
    echo "static checks: ${names[$i]} passed"
  else
    failed=1
    echo "static checks: ${names[$i]} FAILED (${cmds[$i]}):"
    cat "$logs/$i"
  fi
done
exit "$failed"
