package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuMapping;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaSource;
import dev.finegrain.compiler.backend.gpu.model.GpuModelBackend;
import dev.finegrain.compiler.backend.gpu.model.SimtKernel;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.resolve.Skip;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "show", description = "Show a kernel's compiled IR and, with --schedule, its execution plan.")
final class ShowCommand extends CatalogCommand implements Callable<Integer> {

    private static final String DEFAULT_PROFILE = "fermi-gtx570";

    @Parameters(index = "0", paramLabel = "KERNEL", description = "a kernel from 'finegrain list'")
    String kernelName;

    @Option(names = "--ir", description = "print the IR after all passes (the default view)")
    boolean ir;

    @Option(names = "--passes", description = "print the IR after each pass, verifying it each time")
    boolean passes;

    @Option(names = "--schedule", paramLabel = "S", description = "also print the plan of schedule S")
    String schedule;

    @Option(names = "--java", description = "print the Java source of the jvm backend's class for --schedule (and --mechanism)")
    boolean java;

    @Option(names = "--mechanism", paramLabel = "M", description = "the lock mechanism for --java, --simt, --gpu-plan or --cuda with lock-dataflow (default: acquire-release"
            + " for --java, tiny-lock for the GPU views)")
    String mechanism;

    @Option(names = "--wait-policy", paramLabel = "P", description = "how lock-dataflow's token waits pass the time: adaptive"
            + " (the default), spin, backoff or sleep")
    String waitPolicy;

    @Option(names = "--mutex", paramLabel = "M", description = "how lock-dataflow's spin-locks take their lock: tas, ttas"
            + " or ticket (default: the target's, ttas on the JVM and tas on the GPU targets)")
    String mutex;

    @Option(names = "--simt", description = "print the GPU model's program and launch plan for --schedule (and --mechanism)")
    boolean simt;

    @Option(names = "--gpu-plan", description = "print the GPU mapping for --schedule (and --mechanism): launches, blocks,"
            + " ownership, tokens, the wait form, shared memory and resources")
    boolean gpuPlan;

    @Option(names = "--cuda", description = "print the cuda backend's CUDA C++ translation unit for --schedule (and --mechanism)")
    boolean cuda;

    @Option(names = "--profile", paramLabel = "P", description = "the GPU model profile for --simt and --gpu-plan (default: fermi-gtx570)")
    String profile;

    @Option(names = "--arch", paramLabel = "sm_XX", description = "the CUDA architecture for --cuda, and for --gpu-plan in place of"
            + " a model profile (default for --cuda: sm_90)")
    String arch;

    @Option(names = "--sizes", paramLabel = "N[xM]", description = "the domain size for --simt, --gpu-plan and --cuda, which fold it into"
            + " the program and its mapping (default: the kernel's first size); for --java, the size whose class is shown (one"
            + " whose tiles do not divide it has a class of its own)")
    String sizes;


    @Override
    public Integer call() {
        LibraryKernel kernel = CliValues.kernel(catalog(), kernelName);
        refuseOptionsThatDoNotCombine();
        if (java) {
            return showJava(kernel);
        }
        if (simt || gpuPlan || cuda) {
            return showGpu(kernel);
        }
        // parsed before anything is printed, so a mistake is the only output
        Schedule parsed = schedule == null ? null : parsedSchedule();
        KernelGraph graph;
        if (passes) {
            ByteArrayOutputStream trace = new ByteArrayOutputStream();
            graph = Pipeline.run(kernel.kernel(), true, new PrintStream(trace, true, StandardCharsets.UTF_8));
            out().print(trace.toString(StandardCharsets.UTF_8));
        } else {
            graph = new VariantResolver().graph(kernel.kernel());
            out().print(IrPrinter.print(graph));
        }
        if (parsed != null) {
            VariantResolver.PlanOutcome planned = new VariantResolver().plan(kernel.kernel(), parsed);
            out().print("plan: " + planned.plan().orElseThrow(() -> new UsageException(planned.skip().orElseThrow().message()))
                    .describe());
        }
        return 0;
    }

    /** Options that belong to another view are a mistake, not something to ignore silently. */
    private void refuseOptionsThatDoNotCombine() {
        List<String> views = new java.util.ArrayList<>();
        if (java) views.add("--java");
        if (simt) views.add("--simt");
        if (gpuPlan) views.add("--gpu-plan");
        if (cuda) views.add("--cuda");
        if (views.size() > 1) {
            throw new UsageException(String.join(" and ", views) + " are separate views; choose one");
        }
        String view = views.isEmpty() ? null : views.getFirst();
        if (view != null && (ir || passes)) {
            throw new UsageException((ir ? "--ir" : "--passes") + " shows the IR, not the " + view + " view; drop one of them");
        }
        if (view == null && mechanism != null) {
            throw new UsageException("--mechanism chooses the variant of the --java, --simt, --gpu-plan or --cuda view; add one of them");
        }
        if (!simt && !gpuPlan && !cuda && !java && sizes != null) {
            throw new UsageException("--sizes is for the --java, --simt, --gpu-plan and --cuda views; add one or drop it");
        }
        if (profile != null && !simt && !gpuPlan) {
            throw new UsageException("--profile chooses the GPU model for --simt and --gpu-plan; add one or drop it");
        }
        if (arch != null && !cuda && !gpuPlan) {
            throw new UsageException("--arch chooses the CUDA architecture for --cuda and --gpu-plan; add one or drop it");
        }
        if (arch != null && profile != null) {
            throw new UsageException("--profile (a GPU model) and --arch (a real GPU) choose two targets; give one");
        }
    }

    /** The GPU views: the model's program (--simt), the mapping (--gpu-plan) and the CUDA source (--cuda). */
    private int showGpu(LibraryKernel kernel) {
        String view = simt ? "--simt" : cuda ? "--cuda" : "--gpu-plan";
        if (schedule == null) {
            throw new UsageException(view + " needs --schedule S (wavefront, lock-dataflow[:persistent], data-parallel[:B] or"
                    + " dynamic-dataflow[:B])");
        }
        Schedule parsed = parsedSchedule();
        boolean real = cuda || arch != null;
        Backend backend = CliValues.backend(real ? CudaBackend.PREFIX + ":" + (arch == null ? CudaBackend.DEFAULT_ARCH : arch)
                : GpuModelBackend.PREFIX + (profile == null ? DEFAULT_PROFILE : profile));
        String what = real ? "backend '" + backend.name() + "'" : "the GPU model";
        List<int[]> given = sizes == null ? List.of() : CliValues.sizes(sizes, kernel.kernel());
        if (given.size() > 1) {
            throw new UsageException(view + " folds one size into the program; give one size, not " + sizes);
        }
        int[] extents = given.isEmpty() ? kernel.defaultSizes().getFirst() : given.getFirst();
        // the default profile is Fermi's, which lacks what Hopper's have (warp shuffles for the bands, mbarriers): say so
        String defaulted = !real && profile == null ? " (" + view + " used profile " + DEFAULT_PROFILE + ", the default;"
                + " choose another with --profile P, e.g. hopper-h200, or a real GPU with --arch sm_90)" : "";
        Variant variant = new VariantResolver().resolve(request(kernel, parsed, backend), extents).orElseThrow(skip ->
                new UsageException(switch (skip.reason()) {
                    case TARGET_NEVER_RUNS_SCHEDULE -> what + " never runs " + parsed.cliName() + ": " + skip.detail() + defaulted;
                    case TARGET_CANNOT_RUN_KERNEL -> what + " cannot run " + parsed.cliName() + " of kernel '"
                            + kernel.kernel().name() + "': " + skip.detail() + defaulted;
                    case NO_MECHANISM_FITS -> what + " cannot run " + parsed.cliName() + " of kernel '"
                            + kernel.kernel().name() + "' with any lock mechanism: " + skip.detail() + defaulted;
                    case MECHANISM_DOES_NOT_FIT -> "backend '" + backend.name() + "' cannot use mechanism '"
                            + skip.mechanism().orElseThrow() + "' here: " + skip.detail()
                            + (mechanism == null ? " (the default; choose one with --mechanism M)" : "");
                    default -> skipInViewWords(skip);
                }));
        // a variant that does not fit the target at this size throws GpuLoweringException, which the CLI reports as a usage error
        if (gpuPlan) {
            GpuMapping mapping = real ? ((CudaBackend) backend).map(variant, extents) : ((GpuModelBackend) backend).map(variant, extents);
            out().print(mapping.describe());
            return 0;
        }
        if (cuda) {
            out().print(((CudaBackend) backend).source(variant, extents).text());
            err().println("note: the unit includes " + CudaSource.PRELUDE + ": 'finegrain export' writes it beside its units,"
                    + " and the finegrain-gpu jar holds it as dev/finegrain/compiler/cuda/" + CudaSource.PRELUDE);
            return 0;
        }
        SimtKernel lowered = ((GpuModelBackend) backend).lower(variant, extents);
        out().println("// launch plan: " + lowered.launchPlan());
        out().println("// resources per block: " + lowered.resources().describe());
        out().print(lowered.program());
        return 0;
    }

    private int showJava(LibraryKernel kernel) {
        if (schedule == null) {
            throw new UsageException("--java needs --schedule S (wavefront, lock-dataflow, data-parallel[:B] or dynamic-dataflow[:B])");
        }
        Schedule parsed = parsedSchedule();
        JvmBackend backend = new JvmBackend();
        CliValues.requireRuns(backend, parsed);
        Variant variant = new VariantResolver().resolve(request(kernel, parsed, backend)).orElseThrow(skip ->
                new UsageException(skip.reason() == Skip.Reason.MECHANISM_DOES_NOT_FIT
                        ? "the jvm backend cannot use mechanism '" + skip.mechanism().orElseThrow() + "' here: "
                                + skip.detail()
                        : skipInViewWords(skip)));
        List<int[]> given = sizes == null ? List.of() : CliValues.sizes(sizes, kernel.kernel());
        if (given.size() > 1) {
            throw new UsageException("--java shows the class of one size; give one size, not " + sizes);
        }
        // a size the tiles do not divide runs the class whose edge tiles are cut short: show that one
        boolean raggedTiles = !given.isEmpty() && JvmCodegen.tilesCutShort(variant.plan(), given.getFirst());
        JClass generated = JvmCodegen.generate(variant.plan(), variant.mechanism(), "dev.finegrain.generated",
                JvmCodegen.preferredWidth(), raggedTiles);
        out().print(JavaSourceEmitter.emit(generated).toString());
        return 0;
    }

    /** The variant a view shows: the mechanism given with --mechanism, else the default one. */
    private VariantRequest request(LibraryKernel kernel, Schedule parsed, Backend backend) {
        VariantRequest request = VariantRequest.of(kernel.kernel(), parsed, backend);
        return mechanism == null ? request : request.withMechanism(CliValues.mechanism(mechanism));
    }

    /** A refusal every view words alike: the schedule's own, a mechanism for a barrier schedule, tiles that do not fit. */
    private static String skipInViewWords(Skip skip) {
        return switch (skip.reason()) {
            case SCHEDULE_TAKES_NO_MECHANISM -> skip.detail() + "; drop --mechanism";
            default -> skip.message();
        };
    }

    /** --schedule, with --wait-policy applied to a lock-dataflow or wavefront schedule and --mutex to lock-dataflow. */
    private Schedule parsedSchedule() {
        Schedule parsed = CliValues.schedule(schedule);
        if (waitPolicy == null && mutex == null) {
            return parsed;
        }
        if (parsed instanceof Schedule.Wavefront wavefront && mutex == null) {
            return wavefront.waitPolicy(dev.finegrain.dsl.WaitPolicy.fromCliName(waitPolicy).orElseThrow(() ->
                    new UsageException("unknown wait policy '" + waitPolicy + "'; use adaptive, spin, backoff or sleep")));
        }
        if (!(parsed instanceof Schedule.LockDataflow dataflow)) {
            throw new UsageException(mutex != null ? "--mutex applies to lock-dataflow; give --schedule lock-dataflow"
                    : "--wait-policy applies to lock-dataflow and wavefront; give --schedule lock-dataflow or wavefront[:BARRIER]");
        }
        if (waitPolicy != null) {
            dataflow = dataflow.waitPolicy(dev.finegrain.dsl.WaitPolicy.fromCliName(waitPolicy).orElseThrow(() ->
                    new UsageException("unknown wait policy '" + waitPolicy + "'; use adaptive, spin, backoff or sleep")));
        }
        if (mutex != null) {
            dataflow = dataflow.mutex(dev.finegrain.dsl.Mutex.fromCliName(mutex).orElseThrow(() ->
                    new UsageException("unknown mutex '" + mutex + "'; use tas, ttas or ticket")));
        }
        return dataflow;
    }
}
