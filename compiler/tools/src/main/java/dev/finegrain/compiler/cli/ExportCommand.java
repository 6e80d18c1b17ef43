package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.export.CudaExport;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.FolderLock;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "export", description = "Write a comparison's CUDA rows as a bundle that runs on any GPU machine (nvcc and"
        + " a GPU, no Java) and writes results.json for compare --results.")
final class ExportCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--sizes", paramLabel = "N,...", description = "sizes, each N or NxM, separated by commas (default: the kernel's)")
    String sizes;

    @Option(names = "--schedules", paramLabel = "S,...", description = "default: " + CliValues.DEFAULT_SCHEDULES)
    String schedules;

    @Option(names = "--backends", paramLabel = "B,...", defaultValue = "cuda", description = "cuda or cuda:sm_XX (default: ${DEFAULT-VALUE})")
    String backends;

    @Option(names = "--mechanisms", paramLabel = "M,...|all",
            description = "lock mechanisms for lock-dataflow (default: the kernel's own if it names one, else all)")
    String mechanisms;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "X", description = "input seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--wait-policy", paramLabel = "W,...", description = "lock-dataflow's token waits, as compare takes"
            + " them: adaptive (the default), spin, backoff, sleep")
    String waitPolicies;

    @Option(names = "--mutex", paramLabel = "M,...", description = "how lock-dataflow's spin-locks take their lock, as"
            + " compare takes them: tas (the GPU targets' default), ttas, ticket")
    String mutexes;

    @Option(names = "--params", paramLabel = "NAME=V,...", description = "sweep a param of the kernel over these values, as"
            + " compare does (repeat the option for several params)")
    List<String> params = new ArrayList<>();

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
        Path folder = out.toAbsolutePath().normalize();
        Path parent = folder.getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException cannot) {
            throw new UsageException("cannot create the bundle folder " + out + " (" + cannot.getClass().getSimpleName() + ": "
                    + cannot.getMessage() + "); give a folder you can write");
        }
        // one export at a time into a folder; the bundle is written beside it and renamed into place when complete, so a
        // killed export never leaves a bundle that run.sh would take for whole, and the next export starts afresh
        try (FolderLock lock = FolderLock.take(parent.resolve("." + folder.getFileName() + ".lock"), "bundle folder " + out,
                CliValues.commandLine(spec))) {
            requireEmptyOrMissing(folder);
            Path partial = parent.resolve("." + folder.getFileName() + ".partial");
            deleteTree(partial);
            return export(kernel, cudaBackends, partial, folder);
        }
    }

    private int export(LibraryKernel kernel, List<Backend> cudaBackends, Path partial, Path folder) throws IOException {
        ComparisonRequest request = ComparisonRequest.builder(kernel)
                .sizes(sizes == null ? kernel.defaultSizes() : CliValues.sizes(sizes, kernel.kernel()))
                .schedules(schedules == null ? CliValues.allSchedules() : CliValues.schedules(schedules))
                .backends(cudaBackends)
                .mechanisms(mechanisms == null ? MechanismChoice.ownOrAll() : CliValues.mechanismChoice(mechanisms))
                .seed(seed).axes(axes(kernel)).progress(err()).build();
        CudaExport.Exported exported = CudaExport.export(request, partial, CliValues.commandLine(spec));
        Files.deleteIfExists(folder);   // an empty folder the user made for it
        Files.move(partial, folder, StandardCopyOption.ATOMIC_MOVE);
        exported.notes().forEach(note -> err().println("note: " + note));
        exported.skipped().forEach(row -> err().println("skipped: " + row));
        out().println("wrote " + dev.finegrain.compiler.backend.gpu.Plural.of(exported.rows(), "row") + " to " + out + "; run " + out.resolve("run.sh") + " where nvcc and a GPU are, then"
                + " merge with finegrain compare " + classpathOption() + kernelName + " --results " + out.resolve("results.json"));
        return 0;
    }

    /** The params and wait policies swept, as compare's --params and --wait-policy give them. */
    private dev.finegrain.compiler.compare.SweepAxes axes(LibraryKernel kernel) {
        AxisOptions axes = new AxisOptions();
        axes.params = params;
        axes.waitPolicies = waitPolicies;
        axes.mutexes = mutexes;
        return axes.axes(kernel.kernel(), List.of());
    }

    private void requireEmptyOrMissing(Path folder) throws IOException {
        if (Files.isDirectory(folder)) {
            try (var entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("bundle folder " + out + " is not empty; give a new folder");
                }
            }
        } else if (Files.exists(folder)) {
            throw new UsageException("cannot write the bundle into " + out + ": it is a file");
        }
    }

    /** Removes what a killed export left of its bundle. */
    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
