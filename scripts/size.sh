#!/usr/bin/env bash
# Prints the shipped sizes of dist/ (wasm, js, css: raw and gzip).
set -euo pipefail
cd "$(dirname "$0")/../dist"
total_raw=0; total_gz=0
for f in *.wasm *.js *.css; do
  [ -f "$f" ] || continue
  raw=$(stat -c %s "$f"); gz=$(gzip -9 -c "$f" | wc -c)
  total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
  printf 'size: %-44s %8d B raw %8d B gzip\n' "$f" "$raw" "$gz"
done
printf 'size: %-44s %8d B raw %8d B gzip\n' "total" "$total_raw" "$total_gz"
