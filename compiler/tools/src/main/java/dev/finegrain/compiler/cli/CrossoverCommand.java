package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.Crossover;
import dev.finegrain.compiler.compare.ReportCharts;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code finegrain crossover}: where variant A starts to beat variant B along the size or a param, found by bisection,
 * each probe verified; it prints every probe and the interval the change lies in, with the measurements on both sides
 * and whether the difference there exceeds the runs' spread.
 */
@Command(name = "crossover", description = "Find by bisection where variant A starts to beat variant B along the size or a"
        + " param: every probe verified, the interval printed with the measurements on both sides.")
final class CrossoverCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--axis", defaultValue = "size", paramLabel = "size|PARAM",
            description = "what varies: size (every extent; a 2D kernel's domain is square) or a param of the kernel (default: size)")
    String axis;

    @Option(names = "--between", required = true, paramLabel = "A", description = "variant A: SCHEDULE/BACKEND[/MECHANISM][/threads=N],"
            + " e.g. lock-dataflow/gpu-model:fermi-gtx570/tiny-lock")
    String between;

    @Option(names = "--and", required = true, paramLabel = "B", description = "variant B, spelled as A")
    String and;

    @Option(names = "--from", required = true, paramLabel = "X", description = "the smallest value of the axis")
    long from;

    @Option(names = "--to", required = true, paramLabel = "Y", description = "the largest value of the axis")
    long to;

    @Option(names = "--step", defaultValue = "1", paramLabel = "S", description = "the search's resolution: values tried are"
            + " --from plus multiples of S (e.g. a tile's extent for data-parallel sizes; default: ${DEFAULT-VALUE})")
    long step;

    @Option(names = "--size", paramLabel = "N[xM]", description = "with --axis PARAM: the size (default: the kernel's first)")
    String size;

    @Option(names = "--repeats", defaultValue = "3", paramLabel = "R", description = "runs of each timed variant at each"
            + " point, for the spread (simulated and counted variants run once; default: ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        if (!axis.equals(ReportCharts.SIZE) && kernel.kernel().params().stream().noneMatch(p -> p.name().equals(axis))) {
            throw new UsageException("--axis " + axis + ": kernel '" + kernelName + "' has no such param; use size or one of: "
                    + String.join(", ", kernel.kernel().params().stream().map(p -> p.name()).toList()));
        }
        if (axis.equals(ReportCharts.SIZE) && size != null) {
            throw new UsageException("--size fixes the size of a search along a param; along --axis size drop it");
        }
        if (repeats < 1 || repeats > 100) {
            throw new UsageException("--repeats " + repeats + " is out of range; use 1 to 100");
        }
        if (axis.equals(ReportCharts.SIZE) && from < 1) {
            throw new UsageException("--from " + from + ": sizes start at 1");
        }
        Crossover.Variant a = variant(between, "--between");
        Crossover.Variant b = variant(and, "--and");
        int[] sizes = size == null ? kernel.defaultSizes().getFirst() : CliValues.size(size, kernel.kernel());
        Crossover search = new Crossover(kernel, axis, sizes, repeats, seed, line -> {
            err().println(line);
            err().flush();
        });
        Crossover.Result result = search.search(a, b, from, to, step);
        Crossover.Probe first = result.probes().getFirst();
        if (!first.a().unit().equals(first.b().unit())) {
            throw new UsageException("A is measured in " + first.a().unit() + " and B in " + first.b().unit()
                    + "; compare variants whose costs are alike (both timed, both modelled, or both counted)");
        }
        out().println("A = " + a.text());
        out().println("B = " + b.text());
        out().printf("%-10s  %-24s  %-24s  %s%n", axis, "A", "B", "faster");
        result.probes().stream().sorted(java.util.Comparator.comparingLong(Crossover.Probe::value)).forEach(probe ->
                out().printf("%-10d  %-24s  %-24s  %s%n", probe.value(), probe.a().text(), probe.b().text(),
                        winner(probe) + (probe.beyondSpread() || tie(probe) ? "" : " (within the spread)")));
        if (result.below().isEmpty()) {
            Crossover.Probe last = result.probes().getLast();
            String verdict = tie(first) && tie(last) ? "A and B cost the same at both ends"
                    : tie(first) || tie(last) ? winner(tie(first) ? last : first) + " is faster at one end and ties at the other"
                    : winner(first) + " is faster at both ends";
            out().println("no crossover between " + from + " and " + to + ": " + verdict);
            return 0;
        }
        Crossover.Probe below = result.below().get();
        Crossover.Probe above = result.above().get();
        String starts = above.aWins() ? "A" : "B";
        String other = above.aWins() ? "B" : "A";
        out().println(starts + " starts to beat " + other + " between " + axis + " " + below.value() + " and " + above.value()
                + ": at " + below.value() + " A " + below.a().text() + ", B " + below.b().text() + "; at " + above.value()
                + " A " + above.a().text() + ", B " + above.b().text() + "; the difference at " + above.value()
                + (above.beyondSpread() ? " exceeds" : " is within") + " the runs' spread");
        return 0;
    }

    private static boolean tie(Crossover.Probe probe) {
        return probe.a().cost() == probe.b().cost();
    }

    private static String winner(Crossover.Probe probe) {
        return tie(probe) ? "tie" : probe.aWins() ? "A" : "B";
    }

    /** A variant as SCHEDULE/BACKEND[/MECHANISM][/threads=N]. */
    private static Crossover.Variant variant(String text, String option) {
        String[] parts = text.split("/");
        if (parts.length < 2 || parts.length > 4) {
            throw new UsageException(option + " '" + text + "' is not SCHEDULE/BACKEND[/MECHANISM][/threads=N]; e.g."
                    + " lock-dataflow/jvm/lock-box/threads=2");
        }
        Schedule schedule = CliValues.schedule(parts[0]);
        Backend backend = CliValues.backend(parts[1]);
        Optional<LockMechanism> mechanism = Optional.empty();
        Optional<Integer> threads = Optional.empty();
        for (int p = 2; p < parts.length; p++) {
            if (parts[p].startsWith("threads=")) {
                try {
                    threads = Optional.of(CliValues.threads(Integer.parseInt(parts[p].substring("threads=".length()))));
                } catch (NumberFormatException notANumber) {
                    throw new UsageException(option + " '" + text + "': '" + parts[p] + "' is not threads=N");
                }
            } else if (mechanism.isEmpty()) {
                mechanism = Optional.of(CliValues.mechanism(parts[p]));
            } else {
                throw new UsageException(option + " '" + text + "' names two mechanisms; name one");
            }
        }
        if (mechanism.isPresent() && !(schedule instanceof Schedule.LockDataflow)) {
            throw new UsageException(option + " '" + text + "': " + schedule.cliName() + " synchronises with barriers only and"
                    + " takes no lock mechanism; drop the mechanism");
        }
        CliValues.requireRuns(backend, schedule);
        return new Crossover.Variant(schedule, backend, mechanism, threads);
    }
}
