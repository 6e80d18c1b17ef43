package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.AtomicFiles;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.FermiCalibration;
import dev.finegrain.compiler.compare.FidelityReport;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

/**
 * {@code finegrain fidelity}: derives the two Fermi costs fitted to one Table 2 cell each ({@link FermiCalibration}),
 * then runs seed 001's two experiments on the GPU model (the validation chain of Tables 1 and 2, Needleman-Wunsch of
 * Table 3) and writes docs/fidelity.md with the paper's numbers beside the model's.
 */
@Command(name = "fidelity", description = "Reproduce Tables 1-3 of Li et al., \"Fine-grained synchronizations and dataflow programming on GPUs\" (tiny-lock), on the GPU model and write docs/fidelity.md.")
final class FidelityCommand extends CatalogCommand implements Callable<Integer> {

    private static final String PROFILE_NAME = "fermi-gtx570";
    private static final String PROFILE = "gpu-model:" + PROFILE_NAME;

    @Option(names = "--out", paramLabel = "FILE", description = "where to write the page (default: docs/fidelity.md)")
    Path out = Path.of("docs/fidelity.md");

    @Option(names = "--notes", paramLabel = "FILE", description = "fixed text appended to the page (default: docs/fidelity-notes.md)")
    Path notes = Path.of("docs/fidelity-notes.md");

    @Option(names = "--seed", paramLabel = "S", description = "input seed (default: 42)")
    long seed = 42;

    @Option(names = "--jobs", paramLabel = "N", description = "simulations to run at once (default: available processors)")
    Integer jobs;


    @Option(names = "--fit-only", description = "derive the fitted Fermi costs, print them as profile lines, and stop")
    boolean fitOnly;

    @Override
    public Integer call() throws IOException {
        if (fitOnly) {
            for (FermiCalibration.Fit fit : fit(profileText())) {
                out().printf("%s=%d   # %s: model %.2fx, paper %.1fx; steps %s%n", fit.parameter().key(), fit.value(),
                        fit.parameter().mark(), fit.speedup(), fit.paperSpeedup(), fit.stepsText());
            }
            return 0;
        }
        // checked before minutes of simulation, not after: the default paths are relative to the repository root
        if (!Files.isRegularFile(notes)) {
            throw new UsageException("notes file " + notes.toAbsolutePath() + " not found; run from the repository root "
                    + "or give --notes FILE");
        }
        Path folder = out.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder) || Files.isDirectory(out)) {
            throw new UsageException("cannot write " + out.toAbsolutePath() + ": its folder is missing or not writable, or it "
                    + "is a folder; run from the repository root or give --out FILE");
        }
        Backend gpu = CliValues.backend(PROFILE);
        String profileText = profileText();
        // the tables run on the profile as committed, so the fit that checks its two fitted values runs beside them
        CompletableFuture<List<FermiCalibration.Fit>> fitting = CompletableFuture.supplyAsync(() -> {
            try {
                return fit(profileText);
            } catch (IOException cannot) {
                throw new UncheckedIOException(cannot);
            }
        });
        List<LockMechanism> chainMechanisms = new ArrayList<>(
                FidelityReport.TABLE2_SPEEDUP.keySet().stream().map(CliValues::mechanism).toList());
        chainMechanisms.add(LockMechanism.ACQUIRE_RELEASE_FLAG);
        ComparisonRequest table2 = request(CliValues.kernel(catalog(), "chain"), List.of(new int[] {512}),
                List.of(new Schedule.LockDataflow()), gpu, chainMechanisms);
        ComparisonRequest table3 = request(CliValues.kernel(catalog(), "needleman-wunsch"),
                Arrays.stream(FidelityReport.TABLE3_SIZES).mapToObj(n -> new int[] {n, n}).toList(),
                List.of(new Schedule.DataParallel(List.of(31, 31)), new Schedule.LockDataflow()), gpu,
                List.of(LockMechanism.TINY_LOCK, LockMechanism.ATOMIC_SPIN_LOCK));
        // the chain's few short rows run beside the long Needleman-Wunsch sweep, filling the cores its tail leaves idle
        CompletableFuture<List<ResultRow>> chainRun = CompletableFuture.supplyAsync(() -> ComparisonRunner.run(table2).rows());
        List<ResultRow> needleRows = ComparisonRunner.run(table3).rows();
        List<ResultRow> chainRows = chainRun.join();
        List<FermiCalibration.Fit> fits;
        try {
            fits = fitting.join();
        } catch (CompletionException failed) {
            if (failed.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw failed;
        }
        Map<String, Integer> held = new LinkedHashMap<>();
        FermiCalibration.FITTED.forEach(parameter -> held.put(parameter.key(),
                FermiCalibration.valueIn(profileText, parameter.key())));
        for (FermiCalibration.Fit fit : fits) {
            if (fit.value() != held.get(fit.parameter().key())) {
                err().println("finegrain: warning: " + PROFILE_NAME + " sets " + fit.parameter().key() + "="
                        + held.get(fit.parameter().key()) + " but the fit derives " + fit.value() + "; the page says so");
            }
        }
        List<ResultRow> unverified = Stream.concat(chainRows.stream(), needleRows.stream())
                .filter(row -> !row.verified()).toList();
        if (!unverified.isEmpty()) {
            ResultRow row = unverified.getFirst();
            err().println("finegrain: " + row.status() + ", so no fidelity page: " + row.kernel() + " " + row.size() + " "
                    + row.schedule() + " " + row.mechanism() + ": " + row.problem());
            return FinegrainCli.EXIT_NOT_VERIFIED;
        }
        String fixed = Files.readString(notes, StandardCharsets.UTF_8);
        List<String> commands = List.of(compareCommandFor(table2), compareCommandFor(table3));
        AtomicFiles.replace(out, FidelityReport.markdown(chainRows, needleRows, commands, fits, held, fixed));
        out().println("wrote " + out);
        return 0;
    }

    /**
     * Fits each {@link FermiCalibration#FITTED} key in turn on a copy of the profile (the later fits use the earlier
     * values), running the chain at 512 with the atomic spin-lock and the key's scheme for every value tried.
     */
    private List<FermiCalibration.Fit> fit(String profileText) throws IOException {
        Path folder = Files.createTempDirectory("finegrain-fit");
        try {
            String fitted = profileText;
            List<FermiCalibration.Fit> fits = new ArrayList<>();
            for (FermiCalibration.Parameter parameter : FermiCalibration.FITTED) {
                String base = fitted;
                err().println("fitting " + parameter.key() + " to Li et al. Table 2, " + parameter.paperScheme());
                FermiCalibration.Fit fit = FermiCalibration.fit(parameter, value -> speedup(base, parameter, value, folder));
                fits.add(fit);
                fitted = FermiCalibration.withValue(fitted, parameter.key(), fit.value());
            }
            return fits;
        } finally {
            try (Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(folder);
        }
    }

    /** The model's Table 2 speed-up of the parameter's scheme with the key set to a value. */
    private double speedup(String profileText, FermiCalibration.Parameter parameter, int value, Path folder) {
        Path file = folder.resolve(PROFILE_NAME + "-" + parameter.key() + "-" + value + ".properties");
        try {
            Files.writeString(file, FermiCalibration.withValue(profileText, parameter.key(), value), StandardCharsets.UTF_8);
        } catch (IOException problem) {
            throw new UsageException("cannot write the fit's profile " + file + ": " + problem.getMessage());
        }
        ComparisonRequest chain = ComparisonRequest.builder(CliValues.kernel(catalog(), "chain")).sizes(List.of(new int[] {512}))
                .schedules(List.of(new Schedule.LockDataflow())).backends(List.of(CliValues.backend("gpu-model:" + file)))
                .mechanisms(MechanismChoice.listed(List.of(LockMechanism.ATOMIC_SPIN_LOCK,
                        CliValues.mechanism(parameter.mechanism())))).seed(seed)
                .jobs(CliValues.jobs(jobs)).build();
        List<ResultRow> rows = ComparisonRunner.run(chain).rows();
        if (rows.size() != 2 || !rows.stream().allMatch(ResultRow::verified)) {
            throw new IllegalStateException("the fit's chain rows did not both verify: " + rows);
        }
        ResultRow atomic = rows.stream().filter(row -> row.mechanism().equals("atomic-spin-lock")).findFirst().orElseThrow();
        ResultRow scheme = rows.stream().filter(row -> row.mechanism().equals(parameter.mechanism())).findFirst().orElseThrow();
        return phaseCycles(atomic) / phaseCycles(scheme);
    }

    private static double phaseCycles(ResultRow row) {
        return ((Number) row.details().get("sync_phase_cycles")).doubleValue();
    }

    private static String profileText() throws IOException {
        try (var in = SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/" + PROFILE_NAME + ".properties")) {
            if (in == null) {
                throw new IllegalStateException("the built-in profile " + PROFILE_NAME + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private ComparisonRequest request(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules,
                                      Backend backend, List<LockMechanism> mechanisms) {
        return ComparisonRequest.builder(kernel).sizes(sizes).schedules(schedules).backends(List.of(backend))
                .mechanisms(MechanismChoice.listed(mechanisms)).seed(seed).jobs(CliValues.jobs(jobs)).progress(err()).build();
    }

    /** The {@code finegrain compare} line that runs the same combinations as a request, for readers to rerun one table. */
    static String compareCommandFor(ComparisonRequest request) {
        return "./finegrain compare " + request.kernel().name()
                + " --backends " + String.join(",", request.backends().stream().map(Backend::name).toList())
                + " --sizes " + String.join(",", request.sizes().stream().map(FidelityCommand::sizeArgument).toList())
                + " --schedules " + String.join(",", request.schedules().stream().map(Schedule::cliName).toList())
                + " --mechanisms " + String.join(",", request.mechanisms().listed().stream().map(LockMechanism::cliName).toList())
                + " --seed " + request.seed();
    }

    /** N when every extent is N (compare's shorthand), else the extents joined by x. */
    private static String sizeArgument(int[] extents) {
        boolean square = Arrays.stream(extents).allMatch(extent -> extent == extents[0]);
        return square ? Integer.toString(extents[0])
                : String.join("x", Arrays.stream(extents).mapToObj(Integer::toString).toList());
    }
}
