package dev.finegrain.compiler.cli;

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

    @Option(names = "--quick", description = "run each combination once: no warm-up, no repeated timing")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table, json or csv (default: ${DEFAULT-VALUE})")
    String format;

    int threadCount() {
        return CliValues.threads(threads);
    }

    boolean measure() {
        return !quick;
    }

    ResultFormat resultFormat() {
        try {
            return ResultFormat.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new UsageException("unknown format '" + format + "'; use table, json or csv");
        }
    }
}
