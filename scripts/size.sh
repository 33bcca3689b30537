#!/usr/bin/env bash
# Prints the shipped sizes of dist/ (raw, gzip -9, brotli -q 11) and the first load: what
# the page needs before it is playable (the solver's worker, the Class room module and
# sw.js load after).
set -euo pipefail
cd "$(dirname "$0")/../dist"
declare -A sum
for f in index.html *.wasm *.js *.css; do
  [ -f "$f" ] || continue
  raw=$(stat -c %s "$f"); gz=$(gzip -9 -c "$f" | wc -c); br=$(brotli -q 11 -c "$f" | wc -c)
  printf 'size: %-40s %8d B raw %8d B gzip %8d B brotli\n' "$f" "$raw" "$gz" "$br"
  for part in total $(case "$f" in score-worker*) echo worker ;; score-room* | room-boot.js) echo room ;; sw.js) ;; *) echo first-load ;; esac); do
    sum[$part.raw]=$(( ${sum[$part.raw]:-0} + raw )); sum[$part.gz]=$(( ${sum[$part.gz]:-0} + gz )); sum[$part.br]=$(( ${sum[$part.br]:-0} + br ))
  done
done
for part in first-load worker room total; do
  printf 'size: %-40s %8d B raw %8d B gzip %8d B brotli\n' "($part)" "${sum[$part.raw]:-0}" "${sum[$part.gz]:-0}" "${sum[$part.br]:-0}"
done
