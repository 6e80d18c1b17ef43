package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.AtomicFiles;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ImportedRows;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.compiler.validate.ValidationAnalysis;
import dev.finegrain.compiler.validate.ValidationReport;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code finegrain validate}: reads rows a real GPU produced (an exported CUDA bundle's results), runs the same
 * variants on the GPU model, and writes docs/validation.md and its JSON with the ratio of every row and, per kernel and
 * size, whether the model picks the real winner and order ({@link ValidationAnalysis} does the arithmetic).
 */
@Command(name = "validate", description = "Run the variants of real-GPU results on the GPU model and write docs/validation.md.")
final class ValidateCommand extends CatalogCommand implements Callable<Integer> {

    private static final String RESULTS = "docs/results/cuda-h100-2026-11-24/";

    @Option(names = "--results", paramLabel = "FILE,...", split = ",",
            description = "results.json files of a real GPU; a later file's row replaces an earlier one's of the same"
                    + " variant (default: the H100 rows of 2026-11-24: NW and SW validation, chain)")
    List<Path> results = new ArrayList<>(List.of(Path.of(RESULTS + "validation/needleman-wunsch.json"),
            Path.of(RESULTS + "validation/smith-waterman.json"), Path.of(RESULTS + "samples/chain.json")));

    @Option(names = "--profile", paramLabel = "P", description = "the model's profile (default: hopper-h100)")
    String profile = "hopper-h100";

    @Option(names = "--kernel-sizes", paramLabel = "KERNEL=N[;N...]", split = ",",
            description = "only these sizes of a kernel (default: chain=512); other kernels keep every size")
    Map<String, String> kernelSizes = new LinkedHashMap<>(Map.of("chain", "512"));

    @Option(names = "--max-cells", paramLabel = "N",
            description = "leave out sizes with more points than this, as too long to simulate (default: 1048576, 1024x1024)")
    long maxCells = 1024 * 1024;

    @Option(names = "--out", paramLabel = "FILE", description = "where to write the page (default: docs/validation.md; the JSON goes beside it)")
    Path out = Path.of("docs/validation.md");

    @Option(names = "--notes", paramLabel = "FILE", description = "fixed text appended to the page (default: docs/validation-notes.md)")
    Path notes = Path.of("docs/validation-notes.md");

    @Option(names = "--seed", paramLabel = "S", description = "input seed (default: 42, the seed of the real rows)")
    long seed = 42;

    @Option(names = "--jobs", paramLabel = "N", description = "simulations to run at once (default: available processors)")
    Integer jobs;

    @Override
    public Integer call() throws IOException {
        if (maxCells < 1) {
            throw new UsageException("--max-cells " + maxCells + " is out of range; give a positive number of points");
        }
        if (!Files.isRegularFile(notes)) {
            throw new UsageException("notes file " + notes.toAbsolutePath() + " not found; run from the repository root "
                    + "or give --notes FILE");
        }
        Path folder = out.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder) || Files.isDirectory(out)) {
            throw new UsageException("cannot write " + out.toAbsolutePath() + ": its folder is missing or not writable, or it "
                    + "is a folder; run from the repository root or give --out FILE");
        }
        Backend model = CliValues.backend("gpu-model:" + profile);
        // a row of a later file replaces an earlier file's row of the same variant: a newer measurement of it
        Map<String, ResultRow> latest = new LinkedHashMap<>();
        for (Path file : results) {
            ImportedRows.read(file).stream().filter(row -> row.backend().startsWith("cuda")).forEach(row -> latest.put(
                    ValidationAnalysis.key(row.kernel(), row.size(), row.schedule(), row.mechanism()), row));
        }
        List<ResultRow> real = new ArrayList<>(latest.values());
        if (real.isEmpty()) {
            throw new UsageException("no rows of a real GPU (backend cuda:...) in " + String.join(", ",
                    results.stream().map(Path::toString).toList()) + "; give the results.json of an exported CUDA bundle");
        }
        Map<String, String> notRun = new LinkedHashMap<>();
        Map<String, String> notModelled = new LinkedHashMap<>();
        List<ResultRow> kept = new ArrayList<>();
        for (ResultRow row : real) {
            String key = ValidationAnalysis.key(row.kernel(), row.size(), row.schedule(), row.mechanism());
            String wanted = kernelSizes.get(row.kernel());
            long cells = Arrays.stream(row.size().split("x")).mapToLong(Long::parseLong).reduce(1, (a, b) -> a * b);
            if (wanted != null && !Arrays.asList(wanted.split(";")).contains(row.size().split("x")[0])) {
                continue;
            }
            if (cells > maxCells) {
                notRun.put(key, row.size() + " has " + cells + " points, above --max-cells " + maxCells);
            }
            model.neverRuns(CliValues.schedule(row.schedule()))
                    .ifPresent(reason -> notModelled.put(row.schedule(), reason));
            kept.add(row);
        }
        List<ResultRow> modelled = new ArrayList<>();
        for (String kernelName : distinct(kept.stream().map(ResultRow::kernel).toList())) {
            modelled.addAll(simulate(kernelName, kept.stream().filter(row -> row.kernel().equals(kernelName)
                    && !notModelled.containsKey(row.schedule())
                    && !notRun.containsKey(ValidationAnalysis.key(row.kernel(), row.size(), row.schedule(), row.mechanism())))
                    .toList(), model));
        }
        ValidationAnalysis analysis = ValidationAnalysis.of(kept, modelled, notRun, notModelled);
        String device = String.join(", ", distinct(kept.stream().filter(row -> row.details().get("device") != null)
                .map(row -> row.details().get("device") + " (" + row.backend() + ")").toList()));
        ValidationReport report = new ValidationReport(analysis, model.name(), device,
                results.stream().map(Path::toString).toList(), "./" + CliValues.commandLine(spec));
        Path json = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.md$", "") + ".json");
        String page;
        try {
            page = report.markdown(Files.readString(notes, StandardCharsets.UTF_8));
        } catch (IOException problem) {
            throw new UsageException("cannot read " + notes.toAbsolutePath() + ": " + problem.getMessage());
        }
        AtomicFiles.replace(out, page);
        AtomicFiles.replace(json, report.json());
        out().println("wrote " + out + " and " + json);
        return 0;
    }

    /** The model's rows for the real rows of one kernel: their sizes, schedules and mechanisms, on the pool. */
    private List<ResultRow> simulate(String kernelName, List<ResultRow> rows, Backend model) {
        List<Schedule> schedules = distinct(rows.stream().map(ResultRow::schedule).toList())
                .stream().map(CliValues::schedule).toList();
        if (schedules.isEmpty()) {
            return List.of();
        }
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        List<LockMechanism> mechanisms = distinct(rows.stream().map(ResultRow::mechanism)
                .filter(mechanism -> !mechanism.equals("-")).toList()).stream().map(CliValues::mechanism).toList();
        List<int[]> sizes = distinct(rows.stream().map(ResultRow::size).toList()).stream()
                .map(size -> CliValues.size(size, kernel.kernel())).toList();
        ComparisonRequest request = ComparisonRequest.builder(kernel).sizes(sizes).schedules(schedules)
                .backends(List.of(model)).mechanisms(mechanisms.isEmpty() ? MechanismChoice.ownOrAll()
                        : MechanismChoice.listed(mechanisms)).seed(seed)
                .jobs(CliValues.jobs(jobs)).progress(err()).build();
        return ComparisonRunner.run(request).rows();
    }

    private static List<String> distinct(List<String> values) {
        Set<String> seen = new LinkedHashSet<>(values);
        return List.copyOf(seen);
    }
}
