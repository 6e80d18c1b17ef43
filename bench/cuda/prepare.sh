#!/usr/bin/env bash
# prepare.sh: puts together target/cuda-kit, everything a GPU machine with nvcc but no Java and no network needs to
# run Finegrain's CUDA comparisons (gpu-run.sh): a small Java runtime (jlink), the CLI's jars, and Rodinia's CUDA NW
# kernels for the side-by-side measurement. The kit is build output: it is never committed.
#   bench/cuda/prepare.sh RODINIA_DIR     RODINIA_DIR: a checkout of the Rodinia suite (cuda/nw/needle_kernel.cu)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kit="$root/target/cuda-kit"
rodinia="${1:?usage: bench/cuda/prepare.sh RODINIA_DIR (a checkout of the Rodinia suite)}"
[[ -f "$rodinia/cuda/nw/needle_kernel.cu" ]] || { echo "prepare.sh: $rodinia/cuda/nw/needle_kernel.cu not found" >&2; exit 2; }

"$root/finegrain" list >/dev/null   # builds the CLI when its jar is missing or stale
java_home="$(dirname "$(dirname "$(readlink -f "$(command -v jlink 2>/dev/null || echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/jlink)")")")"
for candidate in "${JAVA_HOME:-}" "$java_home" /usr/lib/jvm/temurin-25-jdk-amd64; do
  if [[ -n "$candidate" && -x "$candidate/bin/jlink" ]] && "$candidate/bin/java" -version 2>&1 | grep -q '"25'; then
    java_home="$candidate"; break
  fi
done
rm -rf "$kit"
mkdir -p "$kit/lib" "$kit/rodinia"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The modules the CLI uses: java.compiler for JavaPoet, jdk.unsupported and java.management for Truffle,
# jdk.incubator.vector for the JVM backend's lanes (the report draws its charts in the browser: no java.desktop).
"$java_home/bin/jlink" --add-modules java.base,java.logging,java.management,java.compiler,jdk.unsupported,jdk.incubator.vector \
  --strip-debug --no-man-pages --no-header-files --output "$work/jre"
tar -C "$work" -cJf "$kit/jre.txz" jre
cp "$root/samples/target/finegrain-samples.jar" "$kit/lib/"
for jar in "$root"/samples/target/lib/*.jar; do
  case "$(basename "$jar")" in jmh-*|jopt-*|commons-math3-*) ;; *) cp "$jar" "$kit/lib/" ;; esac
done
cp "$rodinia/cuda/nw/needle.h" "$rodinia/cuda/nw/needle_kernel.cu" "$kit/rodinia/"
du -sh "$kit"
