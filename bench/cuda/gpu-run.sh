#!/usr/bin/env bash
# gpu-run.sh: runs on a GPU machine (nvcc and an NVIDIA GPU; no Java needed beyond the kit of prepare.sh):
#   1. exports the CUDA bundle of every sample (all schedules and mechanisms) at its sizes below, runs each bundle's
#      run.sh, and merges the results into one comparison per sample;
#   2. compares Needleman-Wunsch's CUDA schedules at 4096, 8192 and 16384 directly (finegrain compare --backends cuda);
#   3. times Rodinia's CUDA NW (32-wide blocks) at the same sizes with the same CUDA-event method.
# Writes everything under RESULTS (default: target/cuda-results); the last lines are a summary.
#   bench/cuda/gpu-run.sh [bundles] [nw] [rodinia]     (default: all three)
#   SCHEDULES=S,...   the schedules of steps 1 and 2 (default: every schedule)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kit="$root/target/cuda-kit"
results="${RESULTS:-$root/target/cuda-results}"
steps="${*:-bundles nw rodinia}"
mkdir -p "$results"
jre="$(mktemp -d)"
tar -C "$jre" -xJf "$kit/jre.txz"
fg() { "$jre/jre/bin/java" -XX:+UseParallelGC -Xss16m -cp "$kit/lib/*" dev.finegrain.compiler.cli.FinegrainCli "$@"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$results/gpu.txt" 2>&1
nvcc --version | tail -n 2 >>"$results/gpu.txt"
cat "$results/gpu.txt"

# Each sample with its sizes: a tile multiple, a size that leaves partial tiles, and a larger one.
declare -A sizes=(
  [chain]=512,1000,4096
  [needleman-wunsch]=256,1000x600,1024
  [smith-waterman]=256,1000x600,1024
  [lcs]=256,1000x600,1024
  [efficiency-loop]=512,1000,4096
  [gauss-seidel-2d]=256,1000x600,1024
  [livermore-5]=512,1000,4096
)
if [[ " $steps " == *" bundles "* ]]; then
  for kernel in "${!sizes[@]}"; do
    bundle="$results/bundles/$kernel"
    rm -rf "$bundle"
    fg export "$kernel" --sizes "${sizes[$kernel]}" ${SCHEDULES:+--schedules "$SCHEDULES"} --mechanisms all --out "$bundle" >"$results/export-$kernel.log" 2>&1 \
      || { echo "export of $kernel failed:"; tail -n 5 "$results/export-$kernel.log"; continue; }
    FG_TIMEOUT=120 bash "$bundle/run.sh" 2>"$results/run-$kernel.log"
    tail -n 1 "$results/run-$kernel.log"
    fg compare "$kernel" --sizes "${sizes[$kernel]}" ${SCHEDULES:+--schedules "$SCHEDULES"} --backends reference --results "$bundle/results.json" \
      --out "$results/compare-$kernel" >"$results/compare-$kernel.txt" 2>&1
  done
fi
if [[ " $steps " == *" nw "* ]]; then
  fg compare needleman-wunsch --sizes 4096,8192,16384 ${SCHEDULES:+--schedules "$SCHEDULES"} --backends cuda --mechanisms all \
    --out "$results/nw-large" \
    2>&1 | tee "$results/nw-large.txt"
fi
if [[ " $steps " == *" rodinia "* ]]; then
  build="$(mktemp -d)"
  cp "$kit/rodinia/needle.h" "$kit/rodinia/needle_kernel.cu" "$root/bench/cuda/rodinia-nw-events.cu" "$build/"
  nvcc -O3 -arch=sm_90 -DRD_WG_SIZE=32 "$build/rodinia-nw-events.cu" -o "$build/rodinia-nw-events" \
    && "$build/rodinia-nw-events" 4096 8192 16384 | tee "$results/rodinia-nw.txt"
fi
echo "== summary =="
for kernel in "${!sizes[@]}"; do
  [[ -f "$results/bundles/$kernel/results.jsonl" ]] || continue
  echo "$kernel: $(grep -c '"status": "verified"' "$results/bundles/$kernel/results.jsonl") verified of $(wc -l <"$results/bundles/$kernel/results.jsonl");" \
    "not verified / failed: $(grep -c -E '"status": "(NOT VERIFIED|failed)"' "$results/bundles/$kernel/results.jsonl")"
done
