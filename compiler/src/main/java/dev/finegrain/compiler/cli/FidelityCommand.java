package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.FidelityReport;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code finegrain fidelity}: runs seed 001's two experiments on the GPU model (the validation chain of Tables 1
 * and 2, Needleman-Wunsch of Table 3) and writes docs/fidelity.md with the paper's numbers beside the model's.
 */
@Command(name = "fidelity", description = "Reproduce seed 001's Tables 1-3 on the GPU model and write docs/fidelity.md.")
final class FidelityCommand extends CatalogCommand implements Callable<Integer> {

    private static final String PROFILE = "gpu-model:fermi-gtx570";

    @Option(names = "--out", paramLabel = "FILE", description = "where to write the page (default: docs/fidelity.md)")
    Path out = Path.of("docs/fidelity.md");

    @Option(names = "--notes", paramLabel = "FILE", description = "fixed text appended to the page (default: docs/fidelity-notes.md)")
    Path notes = Path.of("docs/fidelity-notes.md");

    @Option(names = "--seed", paramLabel = "S", description = "input seed (default: 42)")
    long seed = 42;

    FidelityCommand(KernelCatalog catalog) {
        super(catalog);
    }

    @Override
    public Integer call() throws IOException {
        Backend gpu = CliValues.backend(PROFILE);
        PrintWriter progress = err();
        LibraryKernel chain = CliValues.kernel(catalog, "chain");
        List<LockMechanism> chainMechanisms = new ArrayList<>(
                FidelityReport.TABLE2_SPEEDUP.keySet().stream().map(CliValues::mechanism).toList());
        chainMechanisms.add(LockMechanism.ACQUIRE_RELEASE_FLAG);
        List<ResultRow> chainRows = run(chain, List.of(new int[] {512}), List.of(new Schedule.LockDataflow()), gpu,
                chainMechanisms, progress);
        LibraryKernel needle = CliValues.kernel(catalog, "needleman-wunsch");
        List<int[]> sizes = Arrays.stream(FidelityReport.TABLE3_SIZES).mapToObj(n -> new int[] {n, n}).toList();
        List<ResultRow> needleRows = run(needle, sizes, List.of(new Schedule.DataParallel(List.of(31, 31)),
                new Schedule.LockDataflow()), gpu, List.of(LockMechanism.TINY_LOCK, LockMechanism.ATOMIC_SPIN_LOCK), progress);
        List<ResultRow> unverified = java.util.stream.Stream.concat(chainRows.stream(), needleRows.stream())
                .filter(row -> !row.verified()).toList();
        if (!unverified.isEmpty()) {
            ResultRow row = unverified.getFirst();
            err().println("finegrain: not verified, so no fidelity page: " + row.kernel() + " " + row.size() + " "
                    + row.schedule() + " " + row.mechanism() + ": " + row.problem());
            return FinegrainCli.EXIT_NOT_VERIFIED;
        }
        String fixed = Files.exists(notes) ? Files.readString(notes, StandardCharsets.UTF_8) : "";
        List<String> commands = List.of(
                "./finegrain compare chain --backends " + PROFILE + " --sizes 512 --schedules lock-dataflow --mechanisms "
                        + String.join(",", FidelityReport.TABLE2_SPEEDUP.keySet()) + ",acquire-release",
                "./finegrain compare needleman-wunsch --backends " + PROFILE + " --sizes "
                        + String.join(",", Arrays.stream(FidelityReport.TABLE3_SIZES).mapToObj(String::valueOf).toList())
                        + " --schedules data-parallel:31,lock-dataflow --mechanisms tiny-lock,atomic-spin-lock");
        Files.writeString(out, FidelityReport.markdown(chainRows, needleRows, commands, fixed), StandardCharsets.UTF_8);
        out().println("wrote " + out);
        return 0;
    }

    private List<ResultRow> run(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules, Backend backend,
                                List<LockMechanism> mechanisms, PrintWriter progress) {
        return ComparisonRunner.run(new ComparisonRunner.Request(kernel, sizes, schedules, List.of(backend), mechanisms,
                seed, 1, false, progress));
    }
}
