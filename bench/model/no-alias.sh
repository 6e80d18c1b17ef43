#!/usr/bin/env bash
# no-alias.sh: every sample on every built-in GPU-model profile at the sizes of seed 001's Table 3 (31 * 2^k) and at
# 512, under compare's default schedules and every mechanism the model runs for each, one row per variant, each
# verified against the oracle; a run in which co-resident blocks alias in the lock unit is a failed row. The build's
# GpuModelNoAliasTest covers 31 and 62; the larger sizes take minutes a row on the model, so this script runs them on
# a machine with many cores (the device's 16, with the Java runtime of bench/cuda/prepare.sh's kit) and writes one CSV
# per kernel (DIR/KERNEL: compare's rows.jsonl journal, results.csv, JSON and report), then a summary line per kernel: rows, verified,
# and any row that is not. TIME_LIMIT=S stops each kernel's sweep after S seconds, keeping the rows it settled.
#   RESULTS=DIR SIZES=124,248,496,512 PARALLEL=4 JOBS=4 [TIME_LIMIT=S] bash bench/model/no-alias.sh [KERNEL...]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kit="$root/target/cuda-kit"
results="${RESULTS:-$root/target/no-alias}"
sizes="${SIZES:-124,248,496,512}"
parallel="${PARALLEL:-4}"
jobs="${JOBS:-4}"
kernels="${*:-gauss-seidel-2d needleman-wunsch smith-waterman lcs hotspots needleman-wunsch-seq smith-waterman-seq chain efficiency-loop livermore-5}"
profiles="gpu-model:tesla-gtx295,gpu-model:fermi-gtx570,gpu-model:fermi-gtx580,gpu-model:hopper-h100,gpu-model:hopper-h200"
mkdir -p "$results"
if [[ -f "$kit/jre.txz" ]]; then
  jre="$(mktemp -d)"
  tar -C "$jre" -xJf "$kit/jre.txz"
  fg() { ${TIME_LIMIT:+timeout -s TERM "$TIME_LIMIT"} "$jre/jre/bin/java" -XX:+UseParallelGC -Xss16m -Xmx6g -cp "$kit/lib/*" dev.finegrain.compiler.cli.FinegrainCli "$@"; }
else
  fg() { ${TIME_LIMIT:+timeout -s TERM "$TIME_LIMIT"} "$root/finegrain" "$@"; }
fi
{ date -u +%Y-%m-%dT%H:%MZ; nproc; grep -m1 'model name' /proc/cpuinfo; } >"$results/machine.txt"
running=0
for kernel in $kernels; do
  ( start=$(date +%s)
    fg compare "$kernel" --sizes "$sizes" --backends "$profiles" --quick --jobs "$jobs" --out "$results/$kernel" \
      >"$results/$kernel.log" 2>&1
    status=$?
    journal="$results/$kernel/rows.jsonl"   # every settled row, also of a sweep TIME_LIMIT stopped
    rows=$(grep -c '"kernel"' "$journal" 2>/dev/null)
    verified=$(grep -c '"status": "verified"' "$journal" 2>/dev/null)
    echo "$kernel: $verified of $rows rows verified in $(($(date +%s) - start)) s$( ((status == 124)) && echo ", stopped by TIME_LIMIT")" | tee -a "$results/summary.txt"
    grep '"kernel"' "$journal" 2>/dev/null | grep -v '"status": "verified"' | cut -c1-300 ) &
  running=$((running + 1))
  if (( running >= parallel )); then wait -n; running=$((running - 1)); fi
done
wait
