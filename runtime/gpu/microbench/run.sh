#!/usr/bin/env bash
# Builds and runs the Finegrain Hopper microbenchmarks, bench.cu, handoff.cu, bystanders.cu, tileloop.cu, shuffle.cu, issue.cu and launch.cu (README.md
# beside this file); SUITES="bystanders" runs only the suites named.
# Usage, from the repository root: bash runtime/gpu/microbench/run.sh
# Results: R,<name>,<median>,<unit>,<samples>,<note> lines on stdout; also copied to $OUT (or microbench/out).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
build="$(mktemp -d)"
{
  echo "I,date,$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "I,nvcc,$(nvcc --version | tail -1)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,persistence_mode --format=csv,noheader \
    | sed 's/^/I,nvidia-smi,/' || echo "I,nvidia-smi,unavailable"
} | tee "$out/results.csv"
for suite in ${SUITES:-bench handoff bystanders tileloop shuffle issue launch}; do
  nvcc -O3 -arch=sm_90 -lineinfo -o "$build/$suite" "$here/$suite.cu"
  cuobjdump -sass "$build/$suite" > "$out/$suite.sass" 2>/dev/null || echo "I,cuobjdump,unavailable" | tee -a "$out/results.csv"
  "$build/$suite" 2>&1 | tee -a "$out/results.csv"
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader \
  | sed 's/^/I,nvidia-smi-after,/' | tee -a "$out/results.csv" || true
grep '^R,' "$out/results.csv" > "$out/measured.csv" || true
