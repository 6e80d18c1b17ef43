package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.json.Json;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Type;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A folder that runs a comparison's CUDA rows on any machine with nvcc, a C++ compiler and a GPU (no Java, no
 * network): the prelude and the host harness, one folder per row (its translation unit, the row's leading JSON
 * members, and where its inputs and the oracle's expected outputs are), the inputs and expected outputs once per size,
 * and {@code run.sh}, which builds every variant, runs each alone, and writes {@code results.json} in the row schema of
 * {@code finegrain compare --format json}, for {@code finegrain compare --results} to merge.
 */
public final class CudaBundle {

    private final Path folder;
    private final List<String> rows = new ArrayList<>();

    private CudaBundle(Path folder) {
        this.folder = folder;
    }

    /** A bundle in {@code folder}, with the shared files written now. */
    public static CudaBundle create(Path folder) throws IOException {
        Files.createDirectories(folder.resolve("rows"));
        Files.writeString(folder.resolve(CudaSource.PRELUDE), CudaToolchain.prelude());
        Files.writeString(folder.resolve("harness.cu"), CudaToolchain.harness());
        Path script = folder.resolve("run.sh");
        try (InputStream in = CudaBundle.class.getResourceAsStream("/dev/finegrain/compiler/cuda/run.sh")) {
            Files.write(script, in.readAllBytes());
        }
        try {
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException notPosix) {
            // run it with bash run.sh
        }
        return new CudaBundle(folder);
    }

    /** Writes one size's inputs and the oracle's outputs, for rows that store every field whole; returns their folder. */
    public Path addSize(KernelGraph graph, Invocation invocation, KernelOutputs oracle) throws IOException {
        return addSize(graph, invocation, oracle, "", true);
    }

    /**
     * Writes one size's inputs and the oracle's outputs, which every row of the size shares, for one point of swept
     * params, named by {@code point} after the size ({@code 1024-work=16}); returns their folder. Every size gets the
     * inputs, each folded field's halo frame and the oracle's kept values; only where a row stores a state field whole
     * ({@code wholeFields}, {@link #storesWholeFields}) the padded state arrays and the oracle's whole domains too, which
     * for a kernel that keeps less is the unfolded oracle's. So a bundle whose rows all fold holds a score-only
     * alignment's sequences and kept values, not rows x columns of scores twice over.
     */
    public Path addSize(KernelGraph graph, Invocation invocation, KernelOutputs oracle, String point, boolean wholeFields)
            throws IOException {
        Path size = folder.resolve("sizes").resolve(Arrays.stream(invocation.sizes()).mapToObj(String::valueOf)
                .collect(Collectors.joining("x")) + point);
        CudaFiles.writeInputs(size.resolve("inputs"), graph, invocation, wholeFields);
        CudaFiles.writeFolded(size.resolve("expected"), graph, invocation.sizes(), oracle);
        if (wholeFields) {
            CudaFiles.writeDomains(size.resolve("expected"), graph, graph.kernel().keeps().isEmpty() ? oracle.fields()
                    : dev.finegrain.compiler.backend.reference.SequentialOracle.wholeFields(graph, invocation));
        }
        return size;
    }

    /**
     * Whether a row of this variant at this size reads whole state fields: every row but one whose mapping folds every
     * state field ({@code BandFolding}), and but one that cannot be mapped, which {@link #addRow} adds as skipped.
     */
    public static boolean storesWholeFields(CudaBackend backend, Variant variant, int[] sizes) {
        return backend.mapped(variant, sizes).map(mapping -> !mapping.folding().foldsEveryStateField()).orElse(false);
    }

    /**
     * Adds one row to run: its source, the harness flags, and where its size's data lies.
     *
     * @param leading the row's leading JSON members: kernel, size, schedule, backend, mechanism, ...
     */
    public void addRow(CudaBackend backend, Variant variant, int[] sizes, Path size, String leading) throws IOException {
        CudaSource source;
        try {
            source = backend.source(variant, sizes);
        } catch (GpuLoweringException cannot) {
            addSkipped(leading, cannot.getMessage());
            return;
        }
        Path dir = nextRow(source.id());
        Files.writeString(dir.resolve(source.id() + ".cu"), source.text());
        Files.writeString(dir.resolve("variant"), source.id() + "\n");
        Files.writeString(dir.resolve("arch"), backend.arch() + "\n");
        Files.writeString(dir.resolve("data"), "../../" + folder.relativize(size) + "\n");
        Files.writeString(dir.resolve("row.json"), leading + "\n");
        List<String> flags = new ArrayList<>();
        KernelGraph graph = variant.graph();
        for (IrField field : graph.fields()) {
            if (field.isState() && field.type() == Type.DOUBLE) {
                flags.add("--double " + field.name());
            }
        }
        Files.writeString(dir.resolve("flags"), String.join(" ", flags) + "\n");
    }

    /** Adds a row that the comparison already knows it cannot run, with the reason. */
    public void addSkipped(String leading, String reason) throws IOException {
        Path dir = nextRow("skipped");
        Files.writeString(dir.resolve("skipped.json"), "{" + leading + ", \"status\": \"skipped\", \"verified\": false,"
                + " \"metric\": \"-\", \"value\": null, \"unit\": \"-\", \"problem\": " + Json.quote(reason) + "}\n");
    }

    private Path nextRow(String name) throws IOException {
        String numbered = String.format("%04d-%s", rows.size(), name);
        rows.add(numbered);
        return Files.createDirectories(folder.resolve("rows").resolve(numbered));
    }

    public int rows() {
        return rows.size();
    }

    /** How to run it, for the bundle's README. */
    public void writeReadme(String commandLine) throws IOException {
        Files.writeString(folder.resolve("README.txt"), """
                A Finegrain CUDA bundle: %d rows of

                    %s

                Run it on a machine with nvcc (CUDA 12 or newer), a C++ compiler and an NVIDIA GPU; it needs no Java:

                    bash run.sh            # FG_JOBS parallel builds, FG_TIMEOUT seconds per row (default 600), NVCC

                run.sh builds every variant with the host harness, runs each alone (warm-up, then the median of 7 timed runs,
                CUDA events around every launch of one run), checks every output cell against the sequential oracle's
                (expected/ of each size, bit for bit) and writes results.json. Merge it with the comparison where Finegrain is:

                    finegrain compare KERNEL ... --results results.json
                """.formatted(rows.size(), commandLine), StandardCharsets.UTF_8);
    }
}
