package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.UsageException;
import picocli.CommandLine.Option;

import java.util.Locale;

/** The options {@code run} and {@code compare} share: seed, threads, timing and output format. */
final class RunOptions {

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input and interleaving seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--threads", paramLabel = "N", description = "worker threads for the jvm backend (default: available processors)")
    Integer threads;

    @Option(names = "--jobs", paramLabel = "N", description = "rows to run at once: simulated and counted rows share a pool "
            + "of N threads, rows timed on real hardware always run alone (default: available processors)")
    Integer jobs;

    @Option(names = "--quick", description = "run each combination once: no warm-up, no repeated timing")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table, json or csv (default: ${DEFAULT-VALUE})")
    String format;

    /** The options shared by run and compare, applied to a request. */
    ComparisonRequest.Builder applyTo(ComparisonRequest.Builder request) {
        request.seed(seed).measure(!quick).jobs(CliValues.jobs(jobs));
        if (threads != null) {
            request.threads(CliValues.threads(threads));
        }
        return request;
    }

    ResultFormat resultFormat() {
        try {
            return ResultFormat.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new UsageException("unknown format '" + format + "'; use table, json or csv");
        }
    }
}
