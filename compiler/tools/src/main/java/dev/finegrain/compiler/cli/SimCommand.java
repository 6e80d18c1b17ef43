package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.gpu.DumpRange;
import dev.finegrain.gpu.MemoryInit;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.SimtSimulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code finegrain sim}: runs a model-ISA program on the Truffle SIMT model; exit 0 completed, 3 deadlock, 4 max cycles. */
@Command(name = "sim", description = "Run a SASS-like program (docs/simt-isa.md) on the GPU model and report cycles and counters.")
final class SimCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the program")
    Path file;

    @Option(names = "--profile", required = true, paramLabel = "P", description = "tesla-gtx295, fermi-gtx570, fermi-gtx580, hopper-h200, hopper-h100, or a .properties file")
    String profile;

    @Option(names = "--blocks", defaultValue = "1", paramLabel = "N", description = "blocks in the grid (default: ${DEFAULT-VALUE})")
    int blocks;

    @Option(names = "--threads", required = true, paramLabel = "T", description = "threads per block")
    int threads;

    @Option(names = "--mode", paramLabel = "M", description = "fermi or its (default: the profile's)")
    String mode;

    @Option(names = "--max-cycles", paramLabel = "C", description = "stop after this many cycles")
    Long maxCycles;

    @Option(names = "--init", paramLabel = "SPACE:ADDR=V,...", description = "initial memory words, e.g. global:0x100=1,2,-3")
    List<String> inits = new ArrayList<>();

    @Option(names = "--dump", arity = "2", paramLabel = "ARG", description = "shared|global START:END (byte addresses, END exclusive)")
    List<String> dumps = new ArrayList<>();

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table or json")
    String format;

    @Override
    public Integer call() {
        String output = format.toLowerCase(Locale.ROOT);
        if (!output.equals("table") && !output.equals("json")) {
            throw new UsageException("unknown format '" + format + "'; use table or json");
        }
        try {
            SimRequest.Builder request = SimRequest.builder(file).profile(profile).blocks(blocks).threads(threads)
                    .mode(mode == null ? null : SimMode.parse(mode));
            if (maxCycles != null) {
                request.maxCycles(maxCycles);
            }
            for (String init : inits) {
                request.init(MemoryInit.parse(init));
            }
            for (int d = 0; d + 1 < dumps.size(); d += 2) {
                request.dump(DumpRange.parse(dumps.get(d), dumps.get(d + 1)));
            }
            SimResult result = SimtSimulator.run(request.build());
            spec.commandLine().getOut().print(output.equals("json") ? result.toJson() + "\n" : result.toTable());
            return result.exitCode();
        } catch (SimUserException mistake) {
            throw new UsageException(mistake.getMessage());
        }
    }
}
