#!/usr/bin/env bash
# run.sh: builds every variant of this Finegrain bundle, runs each alone on this machine's GPU, and writes
# results.json (the rows of finegrain compare --format json). Needs nvcc, a C++ compiler and an NVIDIA GPU; no Java.
#   FG_JOBS     parallel nvcc builds (default: the number of processors)
#   FG_TIMEOUT  seconds a row may run before it counts as failed (default 600)
#   NVCC        the nvcc to use (default: nvcc on the PATH)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export NVCC="${NVCC:-nvcc}"
timeout_seconds="${FG_TIMEOUT:-600}"
jobs="${FG_JOBS:-$(nproc 2>/dev/null || echo 4)}"
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "run.sh: $NVCC not found; install the CUDA toolkit or set NVCC to its nvcc" >&2
  exit 2
fi

build() {
  local dir="${1%/}" id arch
  [[ -f "$dir/variant" ]] || return 0
  id="$(cat "$dir/variant")"
  arch="$(cat "$dir/arch")"
  "$NVCC" -O3 -fmad=false -std=c++17 -arch="$arch" -DFG_VARIANT="$id" -I. harness.cu "$dir/$id.cu" -o "$dir/$id" \
    >"$dir/build.log" 2>&1 || rm -f "$dir/$id"
}
export -f build
echo "run.sh: building $(ls -d rows/*/ | wc -l) rows with $jobs jobs..." >&2
ls -d rows/*/ | xargs -P "$jobs" -I{} bash -c 'build "$1"' _ {}

# A row that did not run: the row's leading members, then failed with the reason.
failed() {
  local reason="${2//\\/\\\\}"
  reason="${reason//\"/\\\"}"
  printf '{%s, "status": "failed", "verified": false, "metric": "cells_per_s", "value": null, "unit": "cells/s", "problem": "%s"}\n' \
    "$(cat "$1/row.json")" "$reason"
}

: >results.jsonl
for dir in rows/*/; do
  dir="${dir%/}"
  if [[ -f "$dir/skipped.json" ]]; then
    cat "$dir/skipped.json" >>results.jsonl
    continue
  fi
  id="$(cat "$dir/variant")"
  if [[ ! -x "$dir/$id" ]]; then
    failed "$dir" "nvcc could not compile $dir/$id.cu: $(grep -m1 -i 'error' "$dir/build.log" | tr -d '\r')" >>results.jsonl
    continue
  fi
  data="$dir/$(cat "$dir/data")"
  echo "run.sh: $id" >&2
  # shellcheck disable=SC2046
  timeout "$timeout_seconds" "$dir/$id" --inputs "$data/inputs" --expected "$data/expected" --row "$dir/row.json" \
    --result "$dir/result.json" $(cat "$dir/flags")
  code=$?
  if [[ $code -eq 124 ]]; then
    failed "$dir" "did not finish within $timeout_seconds s (a wait that never ends?)" >>results.jsonl
  elif [[ -s "$dir/result.json" ]]; then
    cat "$dir/result.json" >>results.jsonl
  else
    failed "$dir" "the harness ended with status $code and no result" >>results.jsonl
  fi
done
{ echo "["; sed '$!s/$/,/' results.jsonl; echo "]"; } >results.json
verified="$(grep -c '"status": "verified"' results.jsonl)"
no_gpu="$(grep -c 'no CUDA GPU' results.jsonl)"
echo "run.sh: wrote results.json, $verified of $(wc -l <results.jsonl) rows verified" >&2
if [[ "$no_gpu" -gt 0 ]]; then
  if [[ "$no_gpu" -eq 1 ]]; then were="1 row was"; else were="$no_gpu rows were"; fi
  echo "run.sh: $were built but not run: this machine has no CUDA GPU; run the bundle where one is" >&2
fi
