package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.UnsupportedCombinationException;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.GpuMapping;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.json.Json;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Backend {@code cuda:<arch>} ({@code cuda} is {@code cuda:sm_90}): each variant becomes a CUDA C++ translation unit
 * ({@link CudaLowering}), built with the host harness by nvcc (cached by source hash) and run on this machine's GPU:
 * warm-up runs, then the median of 7 timed runs, CUDA events around every launch of one run; the metric is
 * {@code cells_per_s}. The outputs come back to be checked against the oracle like every backend's. Without a GPU
 * (or nvcc) a row is skipped with what to do: {@code finegrain export} writes the same variants as a bundle to run
 * where one is.
 */
public final class CudaBackend implements Backend {

    public static final String PREFIX = "cuda";
    public static final String DEFAULT_ARCH = "sm_90";
    private static final List<LockMechanism> SWEEP = List.of(LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.TINY_LOCK,
            LockMechanism.ATOMIC_SPIN_LOCK, LockMechanism.SHARED_SPIN_LOCK, LockMechanism.WARP_VOTE,
            LockMechanism.NAMED_BARRIER, LockMechanism.MBARRIER);
    private static final double WARMUP_MS = 300;

    private final String arch;
    private final GpuTarget target;

    /** @param arch {@code sm_XX}, the compute capability nvcc builds for */
    public CudaBackend(String arch) {
        this.arch = arch;
        this.target = CudaLowering.target(arch);   // refuses, in one line, an architecture it cannot plan for
    }

    public GpuTarget target() {
        return target;
    }

    public String arch() {
        return arch;
    }

    /** The GPU mapping's tiles cut short at the high edges: each thread checks its point lies in the domain. */
    @Override
    public boolean takesRaggedTiles() {
        return true;
    }

    /** Where the mapping folds every state field ({@code lock-dataflow:persistent}): the GPU holds the frame and the edge. */
    @Override
    public boolean foldsEveryField(Variant variant, int[] sizes) {
        return mapped(variant, sizes).map(mapping -> mapping.folding().foldsEveryStateField()).orElse(false);
    }

    /** What no GPU target runs: the JVM's dissemination barrier ({@link GpuMapper#neverRuns}). */
    @Override
    public Optional<String> neverRuns(Schedule schedule) {
        return dev.finegrain.compiler.backend.gpu.GpuMapper.neverRuns(schedule);
    }

    /** On a GPU every actor instance is a thread of its own: an interleaved lock-dataflow is the plain one. */
    @Override
    public Optional<String> repeatsAnotherRow(Schedule schedule) {
        return schedule instanceof Schedule.LockDataflow dataflow && dataflow.interleavedChains()
                ? Optional.of("on a GPU every actor instance is a thread of its own, so lock-dataflow is interleaved already")
                : GpuWaits.repeatsTheDefault(schedule);
    }

    @Override
    public String name() {
        return PREFIX + ":" + arch;
    }

    @Override
    public boolean modelsSyncAbstractly() {
        return false;
    }

    @Override
    public boolean timesRealHardware() {
        return true;
    }

    @Override
    public List<LockMechanism> sweep() {
        return SWEEP;
    }

    @Override
    public Optional<LockMechanism> preferredMechanism() {
        return Optional.of(LockMechanism.TINY_LOCK);
    }

    @Override
    public Optional<String> unsupportedKernel(ExecutionPlan plan) {
        return plan instanceof DataflowPlan
                ? GpuMapper.unmappableDataflow(plan, target)
                : CudaLowering.unsupported(plan, Optional.empty(), target);
    }

    @Override
    public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
        if (!(plan instanceof DataflowPlan)) {
            return Optional.of(plan.schedule().cliName() + " synchronises with barriers only");
        }
        return CudaLowering.unsupported(plan, Optional.of(mechanism), target);
    }

    /** The GPU mapping of a variant at a size on this backend's target. */
    public GpuMapping map(Variant variant, int[] sizes) {
        return GpuMapper.map(variant.plan(), variant.mechanism(), target, sizes);
    }

    /** The GPU mapping of a variant at a size, or none where the target cannot map it (a row that is then skipped). */
    public Optional<GpuMapping> mapped(Variant variant, int[] sizes) {
        try {
            return Optional.of(map(variant, sizes));
        } catch (dev.finegrain.compiler.backend.gpu.GpuLoweringException cannot) {
            return Optional.empty();
        }
    }

    /** The translation unit of a variant at a size, named after its kernel, schedule, mechanism and lock choices. */
    public CudaSource source(Variant variant, int[] sizes) {
        String size = Arrays.stream(sizes).mapToObj(String::valueOf).collect(Collectors.joining("x"));
        String kernel = variant.graph().name();
        LockChoices lockChoices = variant.plan().lockChoices();
        String mechanism = variant.mechanism().map(LockMechanism::cliName).orElse("none");
        // a wait policy or mutex other than the default names the variant too, so that a sweep's variants never share an id
        String choices = lockChoices.granularity().cliName() + " " + lockChoices.channelPolicy().cliName()
                + (lockChoices.waitPolicy() == dev.finegrain.dsl.WaitPolicy.ADAPTIVE ? "" : " " + lockChoices.waitPolicy().cliName())
                + lockChoices.mutex().map(m -> " " + m.cliName()).orElse("");
        String id = CudaNames.variant(kernel, variant.plan().schedule().cliName(), mechanism, choices, size);
        String described = "kernel '" + kernel + "', " + variant.plan().schedule().cliName()
                + variant.mechanism().map(m -> " with " + m + ", " + lockChoices.granularity() + " locks, "
                        + lockChoices.channelPolicy() + " channels").orElse("") + ", size " + size;
        return CudaLowering.lower(id, described, showCommand(variant, size), variant.plan(), variant.mechanism(), target, sizes);
    }

    /**
     * The {@code finegrain show} command that prints the unit again, for its header ({@code -cp} aside, for a library's
     * kernels); {@code show} takes the locks and channels the kernel declares, so a variant of others says they come
     * from a sweep's axes.
     */
    private String showCommand(Variant variant, String size) {
        LockChoices lockChoices = variant.plan().lockChoices();
        String command = "finegrain show " + variant.graph().name() + " --cuda --schedule " + variant.plan().schedule().cliName()
                + variant.mechanism().map(m -> " --mechanism " + m.cliName()).orElse("")
                + (lockChoices.waitPolicy() == dev.finegrain.dsl.WaitPolicy.ADAPTIVE ? "" : " --wait-policy " + lockChoices.waitPolicy().cliName())
                + lockChoices.mutex().map(m -> " --mutex " + m.cliName()).orElse("")
                + " --sizes " + size + " --arch " + arch;
        // show takes the granularity and channels the kernel declares; a sweep's --granularity and --channels others
        LockChoices declared = LockChoices.of(variant.graph().kernel());
        boolean declaredLocks = lockChoices.granularity() == declared.granularity() && lockChoices.groupSize() == declared.groupSize()
                && lockChoices.channelPolicy() == declared.channelPolicy();
        return variant.mechanism().isEmpty() || declaredLocks ? command
                : command + " prints it with the kernel's declared locks and channels; these come from compare's --granularity and --channels";
    }

    @Override
    public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
        if (!CudaToolchain.gpuPresent()) {
            throw new UnsupportedCombinationException("no NVIDIA GPU on this machine; write the variants as a bundle with"
                    + " finegrain export KERNEL --backends " + name() + " --out DIR and run DIR/run.sh where one is");
        }
        CudaToolchain.nvccProblem().ifPresent(problem -> {
            throw new UnsupportedCombinationException(problem);
        });
        CudaSource source = source(variant, invocation.sizes());
        Path binary;
        try {
            binary = CudaToolchain.build(source, arch, cache());
        } catch (CudaToolchain.CompileException failure) {
            throw new KernelExecutionException(failure.getMessage());
        }
        Path work = null;
        try {
            work = Files.createTempDirectory(binary.getParent(), "run-");
            GpuMapping mapping = map(variant, invocation.sizes());
            // a field the mapping folds needs only its frame: no array over the domain, which a size past 2^30 could not hold
            CudaFiles.writeInputs(work.resolve("inputs"), variant.graph(), invocation, !mapping.folding().foldsEveryStateField());
            Files.createDirectories(work.resolve("outputs"));
            long timeout = Long.getLong("finegrain.cuda.timeout-seconds", 600);
            CudaToolchain.Outcome outcome = CudaToolchain.run(binary, List.of("--inputs", work.resolve("inputs").toString(),
                    "--outputs", work.resolve("outputs").toString(), "--runs", Integer.toString(settings.runsToTime()),
                    "--warmup-ms", Double.toString(settings.measure() ? WARMUP_MS : 0)), timeout);
            if (outcome.timedOut()) {
                throw new KernelExecutionException("kernel '" + variant.graph().name() + "' on " + name() + " did not finish"
                        + " within " + timeout + " s (a wait that never ends?); raise -Dfinegrain.cuda.timeout-seconds if it is"
                        + " only slow");
            }
            Map<?, ?> row = outcome.row().isBlank() ? Map.of() : (Map<?, ?>) Json.parse(outcome.row());
            String status = String.valueOf(row.get("status"));
            if (status.equals("skipped")) {
                throw new UnsupportedCombinationException(String.valueOf(row.get("problem")));
            }
            if (!status.equals("verified")) {
                throw new KernelExecutionException(row.containsKey("problem") ? String.valueOf(row.get("problem"))
                        : "the CUDA harness ended with status " + outcome.exit() + ": " + outcome.log().strip());
            }
            KernelOutputs outputs = CudaFiles.readOutputs(work.resolve("outputs"), variant.graph(), invocation.sizes(), mapping.folding());
            Map<String, Object> details = new LinkedHashMap<>();
            for (String key : List.of("device", "launches", "median_ms", "min_ms", "max_ms", "threads_per_block", "timed_runs", "us",
                    "device_bytes")) {
                Object value = row.get(key);
                if (value != null) {
                    details.put(key, value instanceof Double d && d == Math.rint(d) && !key.endsWith("ms") && !key.equals("us")
                            ? (Object) d.longValue() : value);
                }
            }
            double cellsPerSecond = ((Number) row.get("value")).doubleValue();
            details.putAll(CudaMemoryBound.details(variant.graph(), mapping.folding().fields().stream().map(IrField::name).toList(),
                    row.get(CudaMemoryBound.COPY_GBPS), cellsPerSecond));
            return new BackendRun(outputs, "cells_per_s", cellsPerSecond, "cells/s", details, Optional.empty());
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } finally {
            delete(work);
        }
    }

    /** Where built binaries are kept, one folder per source hash. */
    static Path cache() {
        return Path.of(System.getProperty("finegrain.cuda.cache", System.getProperty("java.io.tmpdir") + "/finegrain-cuda"));
    }

    private static void delete(Path folder) {
        if (folder == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind is no reason to fail a row
        }
    }
}
