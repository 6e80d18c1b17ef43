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
    private final java.util.Map<Path, Size> wholeFieldsPending = new java.util.HashMap<>();

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

    /**
     * Writes one size's inputs and the oracle's kept outputs, which every row of the size shares, and the whole state
     * fields when a row first needs them ({@link #addRow}); returns their folder.
     */
    public Path addSize(KernelGraph graph, Invocation invocation, KernelOutputs oracle) throws IOException {
        return addSize(graph, invocation, oracle, "");
    }

    /** The same, for one point of swept params, named by {@code point} after the size ({@code 1024-work=16}). */
    public Path addSize(KernelGraph graph, Invocation invocation, KernelOutputs oracle, String point) throws IOException {
        Path size = folder.resolve("sizes").resolve(Arrays.stream(invocation.sizes()).mapToObj(String::valueOf)
                .collect(Collectors.joining("x")) + point);
        CudaFiles.writeInputs(size.resolve("inputs"), graph, invocation, false);
        // a row that folds (the persistent bands of a kernel that keeps a field in part) compares the kept values
        CudaFiles.writeFolded(size.resolve("expected"), graph, invocation.sizes(), oracle);
        wholeFieldsPending.put(size, new Size(graph, invocation, oracle));
        return size;
    }

    /**
     * Says that every row of a size has been added: its whole state fields, if no row needed them, never will be, and
     * its inputs and oracle need not be held any longer.
     */
    public void sizeDone(Path size) {
        wholeFieldsPending.remove(size);
    }

    /** A size whose whole state fields (padded inputs and the oracle's domains) are written when a row first needs them. */
    private record Size(KernelGraph graph, Invocation invocation, KernelOutputs oracle) {}

    /**
     * Writes a size's whole state fields, once: each padded array with its halo, and the oracle's domain of each, which
     * for a kernel that keeps less is the unfolded oracle's. A bundle whose rows all fold never writes them, so a
     * score-only alignment's bundle holds its sequences and kept values, not rows x columns of scores twice over.
     */
    private void writeWholeFields(Path size) throws IOException {
        Size pending = wholeFieldsPending.remove(size);
        if (pending == null) {
            return;
        }
        KernelGraph graph = pending.graph();
        CudaFiles.writeStateFields(size.resolve("inputs"), graph, pending.invocation());
        CudaFiles.writeDomains(size.resolve("expected"), graph, graph.kernel().keeps().isEmpty() ? pending.oracle().fields()
                : dev.finegrain.compiler.backend.reference.SequentialOracle.wholeFields(graph, pending.invocation()));
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
        if (!backend.map(variant, sizes).folding().foldsEveryStateField()) {
            writeWholeFields(size);
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
