#!/usr/bin/env bash
# gpu-run.sh: runs on a GPU machine (nvcc and an NVIDIA GPU; Java comes with the kit of prepare.sh) and measures
# what docs/cuda.md, docs/performance.md and docs/validation.md quote. Each step exports CUDA bundles with
# finegrain export, runs their run.sh (parallel builds, each row alone on the GPU, checked against the oracle's
# outputs), and merges the rows with finegrain compare --results into results.json, results.csv and report.html:
#   samples     every sample, every schedule and mechanism, at two sizes (a whole number of tiles, and one that is not)
#   validation  needleman-wunsch at seven sizes from 64 to 4096, and smith-waterman at five, for docs/validation.md
#   validation-more  the other kernels the model is checked on: chain, efficiency-loop and livermore-5 at 512 and 4096,
#               lcs and gauss-seidel-2d at 256 and 512 (ints and doubles, 1D and 2D)
#   validation-persistent  lock-dataflow:persistent alone, every mechanism, at the sizes of validation and
#               validation-more (the bands the model now runs, measured with the generator of the day)
#   nw          needleman-wunsch at 4096, 8192 and 16384
#   rodinia     Rodinia's CUDA NW (32-wide blocks) at the same three sizes, timed the same way (CUDA events)
#   barriers    needleman-wunsch's wavefront with each barrier between steps (atomic, xf, cooperative, relaunch)
#   barrier-waits  the same with the atomic and XF barriers under each wait policy (adaptive, backoff, sleep)
#   mutexes     the spin-locks with each mutex (tas, ttas, ticket): needleman-wunsch and the chain, two sizes each
#   dynamic     dynamic dataflow against data-parallel over the same tiles (16 and 32), lock-dataflow and its
#               persistent bands (tiny-lock): needleman-wunsch at 4096 to 16384, and the irregular hotspots
#   ragged      the tiled schedules at sizes their tiles do not divide (edge tiles cut short): NW, hotspots, the chain
#   wide        tiny-lock on a double state (gauss-seidel-2d) beside acquire-release, in tiles and persistent bands
#   sequences   needleman-wunsch-seq (two sequences, BLOSUM62 lookups, the final score kept) beside needleman-wunsch
#               (the precomputed matrix) under the same schedules at 4096 and 16384, and smith-waterman-seq at 4096
#   lanes       the persistent bands with 1, 2, 4 and 8 columns per lane (tiny-lock): needleman-wunsch at 4096 to
#               16384, smith-waterman at 16384
#   folded      storage folding on the persistent bands, checked: the sequence samples (the final score; the last row
#               and the maximum with its cell) at three sizes beside lock-dataflow (which stores them whole) and, with
#               FOLD_JAR (a jar of kernels that keep every slice and reduce every way), those kernels too; from 513 rows
#               on the band edge may be a ring of at least 512 rows (EdgeRing: 4096², eight laps; 3000x200, two or three)
#   folded-speed  needleman-wunsch-seq and smith-waterman-seq folded at 16384 and 32768 (tiny-lock, 1 and 4 columns
#               per lane), and, with FOLD_JAR, its nw-seq-whole (the same alignment, every score stored) at 16384
#   byte        needleman-wunsch-byte (the reference declared Storage.BYTE: 5 bytes a cell) at BYTE_SIZES (default 16384:
#               the persistent bands with 2, 4 and 8 columns per lane, tiny-lock, and data-parallel:16) beside
#               needleman-wunsch's best band there, and checked under every schedule and mechanism at sizes whose
#               padded rows start at each byte of a word
#   bundles     every bundle under BUNDLES (default target/bundles), each exported elsewhere with finegrain export and
#               carried here; merge its rows where Java is with finegrain compare KERNEL --results bundle-results.json
#   speed       the speed rows of docs/performance.md in one go (tiny-lock): needleman-wunsch at 4096, 8192 and 16384
#               under data-parallel:16 (Rodinia's structure), per-tile lock-dataflow and the persistent bands with 2 and
#               4 columns per lane; smith-waterman at 16384 with 2 and 4 columns; needleman-wunsch-byte at 16384 with 4
#               and 8 columns and data-parallel:16 (run it with rodinia for the baseline of the same run); SPEED_KERNELS
#               picks some of the three
#   baseline    needleman-wunsch at 16384² as Rodinia structures it (data-parallel:16), per-tile lock-dataflow and the
#               persistent bands (1 and 4 columns per lane), tiny-lock: the rows to set beside the rodinia step's
# Everything goes under RESULTS (default: target/cuda-results), one folder per step and kernel.
#   bench/cuda/gpu-run.sh [samples] [validation] [validation-more] [validation-persistent] [nw] [rodinia] [barriers] [barrier-waits] [mutexes] [dynamic] [ragged] [wide]
#                         [sequences] [lanes] [folded] [folded-speed] [speed] [baseline] [byte] [bundles]
#                                                                     (default: the first four)
#   SCHEDULES=S,...   only these schedules
#   MERGE=0           leave the merge (finegrain compare --results) to a machine with time to spare
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kit="$root/target/cuda-kit"
results="${RESULTS:-$root/target/cuda-results}"
steps="${*:-samples validation nw rodinia}"
mkdir -p "$results"
jre="$(mktemp -d)"
tar -C "$jre" -xJf "$kit/jre.txz"
fg() { "$jre/jre/bin/java" -XX:+UseParallelGC -Xss16m -Xmx32g -cp "$kit/lib/*" dev.finegrain.compiler.cli.FinegrainCli "$@"; }
{ date -u +%Y-%m-%dT%H:%MZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader;
  nvcc --version | tail -n 1; } >"$results/gpu.txt" 2>&1
cat "$results/gpu.txt"

# run_set STEP KERNEL SIZES [EXPORT_OPTION...]: one bundle, run and merged into $results/STEP/KERNEL
run_set() {
  local step="$1" kernel="$2" sizes="$3" dir="$results/$1/$2"
  shift 3
  rm -rf "$dir" "/tmp/fg-bundle-$step-$kernel"
  mkdir -p "$dir"
  fg export "$kernel" --sizes "$sizes" ${SCHEDULES:+--schedules "$SCHEDULES"} --mechanisms "${MECHANISMS:-all}" "$@" --out "/tmp/fg-bundle-$step-$kernel" \
    >"$dir/export.log" 2>&1 || { echo "$step $kernel: export failed: $(tail -n 1 "$dir/export.log")"; return; }
  FG_TIMEOUT=120 bash "/tmp/fg-bundle-$step-$kernel/run.sh" 2>"$dir/run.log"
  cp "/tmp/fg-bundle-$step-$kernel/results.json" "$dir/bundle-results.json"
  # with --results and no --backends, compare runs nothing here and only merges
  [[ "${MERGE:-1}" == 1 ]] && fg compare "$kernel" --results "$dir/bundle-results.json" --out "$dir" >"$dir/table.txt" 2>"$dir/compare.log"
  echo "$step $kernel: $(tail -n 1 "$dir/run.log")"
  rm -rf "/tmp/fg-bundle-$step-$kernel"
}

if [[ " $steps " == *" samples "* ]]; then
  for kernel in chain efficiency-loop livermore-5; do run_set samples "$kernel" 512,1000; done
  for kernel in needleman-wunsch smith-waterman lcs gauss-seidel-2d; do run_set samples "$kernel" 256,1000x600; done
fi
if [[ " $steps " == *" validation "* ]]; then
  run_set validation needleman-wunsch 64,128,256,512,1024,2048,4096
  run_set validation smith-waterman 64,128,256,512,1024
fi
if [[ " $steps " == *" validation-more "* ]]; then
  for kernel in chain efficiency-loop livermore-5; do run_set validation "$kernel" 512,4096; done
  for kernel in lcs gauss-seidel-2d; do run_set validation "$kernel" 256,512; done
fi
if [[ " $steps " == *" validation-persistent "* ]]; then
  SCHEDULES=lock-dataflow:persistent run_set validation-persistent needleman-wunsch 64,128,256,512,1024,2048,4096
  SCHEDULES=lock-dataflow:persistent run_set validation-persistent smith-waterman 64,128,256,512,1024
  for kernel in lcs gauss-seidel-2d; do SCHEDULES=lock-dataflow:persistent run_set validation-persistent "$kernel" 256,512; done
fi
if [[ " $steps " == *" nw "* ]]; then
  run_set nw needleman-wunsch 4096,8192,16384
fi
if [[ " $steps " == *" barriers "* ]]; then
  SCHEDULES=wavefront:atomic,wavefront:xf,wavefront:cooperative,wavefront:relaunch run_set barriers needleman-wunsch 4096,8192
fi
if [[ " $steps " == *" barrier-waits "* ]]; then
  SCHEDULES=wavefront:atomic,wavefront:xf run_set barrier-waits needleman-wunsch 4096 --wait-policy adaptive,backoff,sleep
fi
if [[ " $steps " == *" mutexes "* ]]; then
  SCHEDULES=lock-dataflow MECHANISMS=atomic-spin-lock run_set mutexes needleman-wunsch 1024,4096 --mutex tas,ttas,ticket
  SCHEDULES=lock-dataflow MECHANISMS=atomic-spin-lock,shared-spin-lock run_set mutexes chain 4096,65536 --mutex tas,ttas,ticket
fi
if [[ " $steps " == *" dynamic "* ]]; then
  dynamic=data-parallel:16,dynamic-dataflow:16,data-parallel:32,dynamic-dataflow:32,lock-dataflow,lock-dataflow:persistent
  SCHEDULES=$dynamic MECHANISMS=tiny-lock run_set dynamic needleman-wunsch 4096,8192,16384
  SCHEDULES=$dynamic,wavefront MECHANISMS=tiny-lock run_set dynamic hotspots 4096,8192
fi
if [[ " $steps " == *" ragged "* ]]; then
  ragged=data-parallel:16,dynamic-dataflow:16,data-parallel:32,dynamic-dataflow:32
  SCHEDULES=$ragged run_set ragged needleman-wunsch 1000x600,4100x3000
  SCHEDULES=$ragged run_set ragged hotspots 1000x600
  SCHEDULES=$ragged run_set ragged chain 1000,100003
fi
if [[ " $steps " == *" wide "* ]]; then
  SCHEDULES=lock-dataflow,lock-dataflow:persistent MECHANISMS=tiny-lock,acquire-release run_set wide gauss-seidel-2d 256,1000x600,4096
fi
if [[ " $steps " == *" sequences "* ]]; then
  sequences=data-parallel:16,dynamic-dataflow:16,lock-dataflow,lock-dataflow:persistent,wavefront
  SCHEDULES=$sequences MECHANISMS=tiny-lock run_set sequences needleman-wunsch-seq 4096,16384
  SCHEDULES=$sequences MECHANISMS=tiny-lock run_set sequences needleman-wunsch 4096,16384
  SCHEDULES=$sequences MECHANISMS=tiny-lock run_set sequences smith-waterman-seq 4096
fi
if [[ " $steps " == *" lanes "* ]]; then
  lanes=lock-dataflow:persistent,lock-dataflow:persistent:columns=2,lock-dataflow:persistent:columns=4,lock-dataflow:persistent:columns=8
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set lanes needleman-wunsch 4096,8192,16384
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set lanes smith-waterman 16384
fi
if [[ " $steps " == *" folded "* ]]; then
  fold=lock-dataflow:persistent,lock-dataflow:persistent:columns=2,lock-dataflow:persistent:columns=4,lock-dataflow
  SCHEDULES=$fold MECHANISMS=tiny-lock,acquire-release run_set folded smith-waterman-seq 100x70,1000x600,4096
  SCHEDULES=$fold MECHANISMS=tiny-lock,acquire-release run_set folded needleman-wunsch-seq 100x70,1000x600,4096
  if [[ -n "${FOLD_JAR:-}" ]]; then
    for kernel in fold-mix fold-last-row; do
      FINEGRAIN_CLASSPATH="$FOLD_JAR" SCHEDULES=$fold run_set folded "$kernel" 100x70,1000x600,257x1000,3000x200
    done
  fi
fi
if [[ " $steps " == *" folded-speed "* ]]; then
  # one size per bundle, the smaller first: the oracle that checks 32768^2 takes minutes on one core
  lanes=lock-dataflow:persistent,lock-dataflow:persistent:columns=4
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set folded-speed needleman-wunsch-seq 16384
  if [[ -n "${FOLD_JAR:-}" ]]; then
    FINEGRAIN_CLASSPATH="$FOLD_JAR" SCHEDULES=$lanes MECHANISMS=tiny-lock run_set folded-speed nw-seq-whole 16384
  fi
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set folded-speed smith-waterman-seq 16384
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set folded-speed-32768 needleman-wunsch-seq 32768
  SCHEDULES=$lanes MECHANISMS=tiny-lock run_set folded-speed-32768 smith-waterman-seq 32768
fi
if [[ " $steps " == *" speed "* ]]; then
  bands=lock-dataflow:persistent:columns=2,lock-dataflow:persistent:columns=4
  speed="${SPEED_KERNELS:-needleman-wunsch smith-waterman needleman-wunsch-byte}"
  for kernel in $speed; do
    case "$kernel" in needleman-wunsch|smith-waterman|needleman-wunsch-byte) ;;
      *) echo "speed: SPEED_KERNELS names '$kernel'; use needleman-wunsch, smith-waterman or needleman-wunsch-byte" >&2 ;; esac
  done
  [[ " $speed " == *" needleman-wunsch "* ]] && \
    SCHEDULES=data-parallel:16,lock-dataflow,$bands MECHANISMS=tiny-lock run_set speed needleman-wunsch 4096,8192,16384
  [[ " $speed " == *" smith-waterman "* ]] && SCHEDULES=$bands MECHANISMS=tiny-lock run_set speed smith-waterman 16384
  [[ " $speed " == *" needleman-wunsch-byte "* ]] && \
    SCHEDULES=data-parallel:16,lock-dataflow:persistent:columns=4,lock-dataflow:persistent:columns=8 MECHANISMS=tiny-lock \
      run_set speed needleman-wunsch-byte 16384
fi
if [[ " $steps " == *" baseline "* ]]; then
  SCHEDULES=data-parallel:16,lock-dataflow,lock-dataflow:persistent,lock-dataflow:persistent:columns=4 MECHANISMS=tiny-lock \
    run_set baseline needleman-wunsch 16384
fi
if [[ " $steps " == *" byte "* ]]; then
  # padded rows of 257, 601, 64, 66 and 203 bytes: a band's first column at every place in a word
  SCHEDULES=wavefront,data-parallel:16,dynamic-dataflow:16,lock-dataflow,lock-dataflow:persistent,lock-dataflow:persistent:columns=2,lock-dataflow:persistent:columns=4,lock-dataflow:persistent:columns=8 \
    MECHANISMS=tiny-lock,acquire-release run_set byte-check needleman-wunsch-byte 256,1000x600,100x63,100x65,300x202
  SCHEDULES=lock-dataflow:persistent:columns=2,lock-dataflow:persistent:columns=4,lock-dataflow:persistent:columns=8,data-parallel:16 \
    MECHANISMS=tiny-lock run_set byte needleman-wunsch-byte "${BYTE_SIZES:-16384}"
  SCHEDULES=lock-dataflow:persistent:columns=4 MECHANISMS=tiny-lock run_set byte needleman-wunsch "${BYTE_SIZES:-16384}"
fi
if [[ " $steps " == *" bundles "* ]]; then
  # bundles exported on another machine (a size whose oracle takes minutes: 65536² takes 8 on two cores), carried here
  for bundle in "${BUNDLES:-$root/target/bundles}"/*/; do
    name="$(basename "$bundle")"
    mkdir -p "$results/bundles/$name"
    (cd "$bundle" && FG_TIMEOUT=120 bash run.sh >"$results/bundles/$name/run.log" 2>&1)
    cp "$bundle/results.json" "$results/bundles/$name/bundle-results.json"
    echo "bundles $name: $(tail -n 1 "$results/bundles/$name/run.log")"
  done
fi
if [[ " $steps " == *" rodinia "* ]]; then
  build="$(mktemp -d)"
  cp "$kit/rodinia/needle.h" "$kit/rodinia/needle_kernel.cu" "$root/bench/cuda/rodinia-nw-events.cu" "$build/"
  nvcc -O3 -arch=sm_90 -DRD_WG_SIZE=32 "$build/rodinia-nw-events.cu" -o "$build/rodinia-nw-events" \
    && "$build/rodinia-nw-events" 4096 8192 16384 | tee "$results/rodinia-nw.txt"
fi
echo "== rows that are not verified or skipped =="
grep -h -E '"status": "(NOT VERIFIED|failed)"' "$results"/*/*/bundle-results.json 2>/dev/null | cut -c1-400 | head -20
