package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.export.CudaExport;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "export", description = "Write a comparison's CUDA rows as a bundle that runs on any GPU machine (nvcc and"
        + " a GPU, no Java) and writes results.json for compare --results.")
final class ExportCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--sizes", paramLabel = "N,...", description = "sizes, each N or NxM, separated by commas (default: the kernel's)")
    String sizes;

    @Option(names = "--schedules", paramLabel = "S,...", description = "default: wavefront,lock-dataflow,lock-dataflow:persistent,data-parallel")
    String schedules;

    @Option(names = "--backends", paramLabel = "B,...", defaultValue = "cuda", description = "cuda or cuda:sm_XX (default: ${DEFAULT-VALUE})")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...|all",
            description = "lock mechanisms for lock-dataflow (default: the kernel's own if it names one, else all)")
    String mechanisms;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "the bundle's folder (created; must be empty or missing)")
    Path out;

    @Override
    public Integer call() throws IOException {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        List<Backend> cudaBackends = CliValues.backends(backends);
        for (Backend backend : cudaBackends) {
            if (!(backend instanceof CudaBackend)) {
                throw new UsageException("export writes CUDA bundles; --backends takes cuda or cuda:sm_XX, not '" + backend.name() + "'");
            }
        }
        if (Files.isDirectory(out)) {
            try (var entries = Files.list(out)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("bundle folder " + out + " is not empty; give a new folder");
                }
            }
        } else if (Files.exists(out)) {
            throw new UsageException("cannot write the bundle into " + out + ": it is a file");
        }
        try {
            Files.createDirectories(out);
        } catch (IOException cannot) {
            throw new UsageException("cannot create the bundle folder " + out + " (" + cannot.getClass().getSimpleName() + ": "
                    + cannot.getMessage() + "); give a folder you can write");
        }
        ComparisonRequest request = ComparisonRequest.builder(kernel)
                .sizes(sizes == null ? kernel.defaultSizes() : CliValues.sizes(sizes, kernel.kernel().rank(), kernelName))
                .schedules(schedules == null ? CliValues.allSchedules() : CliValues.schedules(schedules))
                .backends(cudaBackends)
                .mechanisms(mechanisms == null ? MechanismChoice.ownOrAll() : CliValues.mechanismChoice(mechanisms))
                .seed(seed).build();
        CudaExport.Exported exported = CudaExport.export(request, out, CliValues.commandLine(spec));
        exported.notes().forEach(note -> err().println("note: " + note));
        exported.skipped().forEach(row -> err().println("skipped: " + row));
        out().println("wrote " + exported.rows() + " rows to " + out + "; run " + out.resolve("run.sh") + " where nvcc and a GPU are, then"
                + " merge with finegrain compare " + kernelName + " --results " + out.resolve("results.json"));
        return 0;
    }
}
