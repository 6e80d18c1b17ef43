#!/usr/bin/env bash
# fold-jar.sh: builds target/fold-kernels.jar, a kernel library (finegrain -cp, FOLD_JAR of gpu-run.sh) that serves the
# GPU test catalog's folding kernels, which no sample defines: fold-mix, fold-all, fold-last-row and fold-guarded
# (GpuGoldenCatalog in compiler/tools' tests, with compiler/core's GoldenKernels it builds on; no inputs, no params).
# Run after ./mvnw install (it reads the test classes).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
classes="$root/compiler/tools/target/test-classes"
[[ -f "$classes/dev/finegrain/compiler/backend/gpu/GpuGoldenCatalog.class" ]] || { echo "fold-jar.sh: run ./mvnw install first (no compiler/tools test classes)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/com/example" "$work/out/META-INF/services" "$work/out/dev/finegrain/compiler/backend/gpu" "$work/out/dev/finegrain/compiler/pass"
cat > "$work/src/com/example/FoldKernels.java" <<'JAVA'
package com.example;

import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

/** The GPU test catalog's folding kernels, served to the CLI: they read no inputs and take no params. */
public final class FoldKernels implements KernelLibrary {
    @Override
    public List<LibraryKernel> kernels() {
        return List.of(library(GpuGoldenCatalog.foldMix(), "folded fields of every kind, one kept whole"),
                library(GpuGoldenCatalog.foldAll(), "folded fields of every kind"),
                library(GpuGoldenCatalog.foldLastRow(), "the last row kept, with its minimum"),
                library(GpuGoldenCatalog.foldGuarded(), "int fields folded, their reductions masked in guarded steps"));
    }

    private static LibraryKernel library(Kernel kernel, String summary) {
        return new LibraryKernel(kernel, summary, summary + " (GpuGoldenCatalog).",
                (k, sizes, seed) -> k.invocation().sizes(sizes).build(), List.of(new int[] {100, 70}));
    }
}
JAVA
cp "$classes"/dev/finegrain/compiler/backend/gpu/GpuGoldenCatalog*.class "$work/out/dev/finegrain/compiler/backend/gpu/"
cp "$root"/compiler/core/target/test-classes/dev/finegrain/compiler/pass/GoldenKernels*.class "$work/out/dev/finegrain/compiler/pass/"   # the catalog's base kernels
dsl="$(ls "$root"/dsl/target/finegrain-dsl-*.jar | grep -v sources | head -1)"
javac="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/javac"
"$javac" -d "$work/out" -cp "$dsl:$classes" "$work/src/com/example/FoldKernels.java"
echo "com.example.FoldKernels" > "$work/out/META-INF/services/dev.finegrain.dsl.KernelLibrary"
mkdir -p "$root/target"
(cd "$work/out" && "${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jar" cf "$root/target/fold-kernels.jar" .)
echo "$root/target/fold-kernels.jar"
