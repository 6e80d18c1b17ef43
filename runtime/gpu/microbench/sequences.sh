#!/usr/bin/env bash
# Dumps the SASS behind the GPU model's instruction sequences (SimtSequences): nvcc 13 for sm_90 with the flags the
# CUDA backend uses (-O3 -fmad=false), then cuobjdump -sass. Needs the CUDA toolkit, not a GPU.
# Usage: bash runtime/gpu/microbench/sequences.sh   (writes $OUT or runtime/gpu/microbench/out/)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
nvcc --version | tail -n 2 > "$out/sequences-nvcc.txt"
nvcc -O3 -fmad=false -arch=sm_90 -cubin -o "$out/sequences.cubin" "$here/sequences.cu"
cuobjdump -sass "$out/sequences.cubin" > "$out/sequences.sass"
echo "wrote $out/sequences.sass"
