package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.UsageException;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Locale;

/** The options {@code run} and {@code compare} share: seed, threads, timing and output format. */
final class RunOptions {

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input and interleaving seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--threads", paramLabel = "N[,N...]", description = "worker threads for the jvm backend (default: available"
            + " processors); compare takes a list, e.g. 1,2, and runs the jvm rows at each")
    String threads;

    @Option(names = "--jobs", paramLabel = "N", description = "rows to run at once: simulated and counted rows share a pool "
            + "of N threads, rows timed on real hardware always run alone (default: available processors)")
    Integer jobs;

    @Option(names = "--quick", description = "run each combination once: no warm-up, no repeated timing")
    boolean quick;

    @Option(names = "--repeat", paramLabel = "N", description = "timed runs of each measured row (default: 7); the row"
            + " reports their median, with their minimum and maximum as its spread")
    Integer repeat;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table, json or csv (default: ${DEFAULT-VALUE})")
    String format;

    /** The options shared by run and compare, applied to a request; a list of thread counts is compare's axis. */
    ComparisonRequest.Builder applyTo(ComparisonRequest.Builder request) {
        request.seed(seed).measure(!quick).jobs(CliValues.jobs(jobs)).timedRuns(timedRuns());
        List<Integer> counts = threadCounts();
        if (!counts.isEmpty()) {
            request.threads(counts.getFirst());
        }
        return request;
    }

    /** The timed runs of a measured row: --repeat, checked, or the default. */
    int timedRuns() {
        if (repeat == null) {
            return dev.finegrain.compiler.backend.RunSettings.DEFAULT_TIMED_RUNS;
        }
        if (quick) {
            throw new UsageException("--quick runs each row once and --repeat " + repeat + " times it " + repeat
                    + " times; give one of them");
        }
        if (repeat < 1 || repeat > 1000) {
            throw new UsageException("--repeat " + repeat + " is out of range; give 1 to 1000 timed runs");
        }
        return repeat;
    }

    /** The thread counts given, checked; none when the option was not given. */
    List<Integer> threadCounts() {
        if (threads == null) {
            return List.of();
        }
        List<Integer> counts = AxisOptions.list(threads, "--threads").stream().map(text -> {
            try {
                return CliValues.threads(Integer.parseInt(text));
            } catch (NumberFormatException notANumber) {
                throw new UsageException("--threads '" + text + "' is not a number; use 1 to 1024, or a list such as 1,2");
            }
        }).toList();
        if (counts.stream().distinct().count() < counts.size()) {
            throw new UsageException("--threads '" + threads + "' repeats a count; give each once");
        }
        return counts;
    }

    /** For a command that runs one row: one thread count. */
    void requireOneThreadCount(String command) {
        if (threadCounts().size() > 1) {
            throw new UsageException(command + " runs one row: give one --threads value (compare runs a list of them)");
        }
    }

    ResultFormat resultFormat() {
        try {
            return ResultFormat.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new UsageException("unknown format '" + format + "'; use table, json or csv");
        }
    }
}
