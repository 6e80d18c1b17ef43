package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveKind;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;
import dev.finegrain.compiler.compare.AtomicFiles;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.compiler.primitives.PrimitiveBackend;
import dev.finegrain.compiler.primitives.PrimitiveCudaBundle;
import dev.finegrain.compiler.primitives.PrimitiveRow;
import dev.finegrain.compiler.primitives.PrimitiveSweep;
import dev.finegrain.compiler.primitives.PrimitivesPage;
import dev.finegrain.gpu.SimUserException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code finegrain primitives}: Stuart and Owens' benchmarks of GPU synchronisation primitives (barriers, mutexes,
 * semaphores, and the memory system under them) on the GPU model's profiles and the JVM, every point checked by a
 * checking run; the rows as a table, CSV and JSON, and docs/primitives.md beside the paper's Table 5 and claims. CUDA
 * runs elsewhere: {@code --export-cuda DIR} writes a bundle for a GPU machine, {@code --results FILE} reads back
 * what it printed (with earlier runs' rows).
 */
@Command(name = "primitives", description = "Stuart and Owens' synchronisation primitives (barriers, mutexes, semaphores)"
        + " and memory benchmarks on the GPU model and the JVM, each point checked; their Table 5 per machine.")
final class PrimitivesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--backends", paramLabel = "B,...", defaultValue = "gpu-model:tesla-gtx295,gpu-model:fermi-gtx580,jvm",
            description = "gpu-model:PROFILE and jvm, or none to only read --results (default: ${DEFAULT-VALUE})")
    String backends;

    @Option(names = "--primitives", paramLabel = "P,...", description = "which (default: all): ${COMPLETION-CANDIDATES}",
            completionCandidates = Names.class)
    String primitives;

    @Option(names = "--blocks", paramLabel = "N,...", description = "block counts (threads on the jvm); default: powers of"
            + " two up to eight blocks per SM (up to the cores on the jvm)")
    String blocks;

    @Option(names = "--initial", paramLabel = "V,...", defaultValue = "1,120",
            description = "the semaphores' initial values (default: ${DEFAULT-VALUE}, the paper's lowest and highest)")
    String initials;

    @Option(names = "--ops", paramLabel = "N", description = "operations per block of a timed run (default: 100 on the model,"
            + " 1000000 on the jvm, 1000 in a CUDA bundle)")
    int ops;

    @Option(names = "--check-ops", paramLabel = "N", description = "operations per block of the checking run (default: 10"
            + " on the model, 10000 on the jvm, 100 in a CUDA bundle)")
    int checkOps;

    @Option(names = "--accesses", paramLabel = "N", defaultValue = "100",
            description = "accesses per block of a memory benchmark, a multiple of 10 (default: ${DEFAULT-VALUE})")
    int accesses;

    @Option(names = "--out", paramLabel = "DIR", description = "write primitives.csv, primitives.json and primitives.txt")
    Path out;

    @Option(names = "--doc", paramLabel = "FILE", description = "write the results beside the paper's into this Markdown"
            + " page (the part between its generated markers)")
    Path doc;

    @Option(names = "--results", split = ",", paramLabel = "FILE,...", description = "rows of earlier runs (a CUDA bundle's"
            + " primitives-cuda.csv, or --out's primitives.csv), added to the page; a point already read is not read again")
    List<Path> results = new ArrayList<>();

    @Option(names = "--export-cuda", paramLabel = "DIR", description = "write a bundle that runs the primitives with nvcc on"
            + " a GPU machine (--primitives, --initial, --ops, --check-ops and --accesses apply; block counts are the"
            + " GPU's), and stop")
    Path exportCuda;

    static final class Names extends ArrayList<String> {
        Names() {
            super(SyncPrimitive.ALL.stream().map(SyncPrimitive::name).toList());
        }
    }

    @Override
    public Integer call() {
        List<SyncPrimitive> chosen = chosenPrimitives();
        List<Integer> initialValues = positive(initials, "--initial");
        if (accesses < 10 || accesses % 10 != 0) {
            throw new UsageException("--accesses must be a positive multiple of 10, was " + accesses);
        }
        if (exportCuda != null) {
            PrimitiveCudaBundle.write(exportCuda, chosen, initialValues, ops > 0 ? ops : 1000, checkOps > 0 ? checkOps : 100,
                    accesses);
            err().println("written: " + exportCuda + " (copy it to a machine with nvcc and a GPU, run ./run.sh, then"
                    + " finegrain primitives --results " + exportCuda.resolve("primitives-cuda.csv") + ")");
            return 0;
        }
        if (ops < 0 || checkOps < 0) {
            throw new UsageException("--ops and --check-ops must be positive");
        }
        List<PrimitiveBackend> where = new ArrayList<>();
        for (String name : backends.equals("none") ? new String[0] : backends.split(",")) {
            try {
                where.add(PrimitiveBackend.parse(name.strip()));
            } catch (IllegalArgumentException | SimUserException unknown) {
                throw new UsageException(unknown.getMessage());
            }
        }
        List<PrimitiveRow> rows = new ArrayList<>();
        java.util.Set<String> read = new java.util.HashSet<>();
        for (Path file : results) {
            for (PrimitiveRow row : readRows(file)) {
                if (read.add(row.backend() + " " + row.primitive() + " " + row.blocks() + " " + row.initial())) {
                    rows.add(row);
                }
            }
        }
        PrintWriter table = out();
        table.println(String.format(Locale.ROOT, "%-24s %-40s %7s %7s %12s  %s", "backend", "primitive", "blocks",
                "initial", "ops/s", "status"));
        PrimitiveSweep sweep = new PrimitiveSweep(where, chosen, blocks == null ? List.of() : positive(blocks, "--blocks"),
                initialValues, ops, checkOps, accesses);
        List<PrimitiveRow> measured = sweep.run(row -> {
            table.println(line(row));
            table.flush();
        });
        rows.addAll(0, measured);
        if (out != null) {
            writeOutputs(rows);
        }
        if (doc != null) {
            String provenance = "Generated by `" + CliValues.commandLine(spec) + "` on " + LocalDate.now() + " ("
                    + CliValues.machine() + ")" + (results.isEmpty() ? "" : "; rows read from "
                    + String.join(", ", results.stream().map(Path::toString).toList())) + ".";
            String existing = Files.exists(doc) ? read(doc) : "";
            AtomicFiles.replace(doc, PrimitivesPage.merge(existing, PrimitivesPage.generated(rows, provenance)));
            err().println("written: " + doc);
        }
        return measured.stream().noneMatch(PrimitiveRow::failed) ? 0 : FinegrainCli.EXIT_NOT_VERIFIED;
    }

    private List<SyncPrimitive> chosenPrimitives() {
        if (primitives == null) {
            return SyncPrimitive.ALL;
        }
        List<SyncPrimitive> chosen = new ArrayList<>();
        for (String name : primitives.split(",")) {
            chosen.add(SyncPrimitive.named(name.strip()).orElseThrow(() -> new UsageException("unknown primitive '"
                    + name.strip() + "'; use one of " + SyncPrimitive.names())));
        }
        return chosen;
    }

    private static List<Integer> positive(String list, String option) {
        try {
            List<Integer> values = Arrays.stream(list.split(",")).map(String::strip).map(Integer::parseInt).toList();
            if (values.stream().anyMatch(v -> v < 1) || values.stream().distinct().count() != values.size()) {
                throw new UsageException(option + " takes distinct positive whole numbers, was '" + list + "'");
            }
            return values;
        } catch (NumberFormatException notANumber) {
            throw new UsageException(option + " takes comma-separated whole numbers, was '" + list + "'");
        }
    }

    private static String line(PrimitiveRow row) {
        return String.format(Locale.ROOT, "%-24s %-40s %7d %7s %12s  %s", row.backend(), row.primitive(), row.blocks(),
                row.kind().equals(PrimitiveKind.SEMAPHORE.id()) ? Integer.toString(row.initial()) : "",
                row.verified() ? String.format(Locale.ROOT, "%.4g", row.opsPerSecond()) : "-", row.status());
    }

    private void writeOutputs(List<PrimitiveRow> rows) {
        StringBuilder csv = new StringBuilder(PrimitiveRow.CSV_HEADER).append('\n');
        StringBuilder json = new StringBuilder("[\n");
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            csv.append(rows.get(r).csv()).append('\n');
            json.append("  ").append(rows.get(r).json()).append(r + 1 < rows.size() ? ",\n" : "\n");
            text.append(line(rows.get(r))).append('\n');
        }
        json.append("]\n");
        try {
            Files.createDirectories(out);
        } catch (IOException problem) {
            throw new UsageException("cannot create " + out + ": " + problem.getMessage());
        }
        AtomicFiles.replace(out.resolve("primitives.csv"), csv.toString());
        AtomicFiles.replace(out.resolve("primitives.json"), json.toString());
        AtomicFiles.replace(out.resolve("primitives.txt"), text.toString());
        err().println("written: " + out.resolve("primitives.csv") + ", primitives.json, primitives.txt");
    }

    private static List<PrimitiveRow> readRows(Path file) {
        List<PrimitiveRow> rows = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException problem) {
            throw new UsageException("cannot read " + file + ": " + problem.getMessage());
        }
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#") || line.equals(PrimitiveRow.CSV_HEADER)) {
                continue;
            }
            try {
                rows.add(PrimitiveRow.parseCsv(line));
            } catch (IllegalArgumentException malformed) {
                throw new UsageException(file + ":" + (n + 1) + ": " + malformed.getMessage());
            }
        }
        if (rows.isEmpty()) {
            throw new UsageException(file + " holds no rows; give a primitives-cuda.csv a bundle's run.sh wrote, or a primitives.csv of --out");
        }
        return rows;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException problem) {
            throw new UsageException("cannot read " + file + ": " + problem.getMessage());
        }
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
