package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuMapping;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.gpu.GlobalMemory;
import dev.finegrain.gpu.MemoryInit;
import dev.finegrain.gpu.MemorySpace;
import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimStatus;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.SimtSimulator;
import dev.finegrain.gpu.runtime.SimtLaunchStream;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Backend {@code gpu-model:<profile>}: lowers a variant to the model ISA ({@link SimtLowering}) and runs its launches
 * on the Truffle SIMT model over one global memory, as host code would. The metric is modelled time in cycles of
 * the profile's clock, launch overheads included; the details give it in microseconds, the longest single launch
 * in microseconds (a block-diagonal's kernel, what seed 001 Table 3 appears to time), the sync phase's cycles
 * (seed 001 Table 2 times the reduction phase alone), counters and seed 001 Table 1's resources.
 */
public final class GpuModelBackend implements Backend {

    /**
     * What a block's shared memory holds before the block writes it: on a GPU, whatever an earlier block left there, so
     * a program must write a word before it reads it. The model fills every block's shared memory with a word no kernel
     * computes by chance, so that a lowering that reads a word it never wrote computes garbage and fails its check
     * against the oracle instead of reading the 0 a fresh memory would hold.
     */
    private static MemoryInit unwrittenShared(int bytes) {
        int[] words = new int[bytes / 4];
        java.util.Arrays.fill(words, 0x7f3a5c11);
        return new MemoryInit(MemorySpace.SHARED, 0, words);
    }

    public static final String PREFIX = "gpu-model:";
    private static final List<LockMechanism> SWEEP = List.of(LockMechanism.ATOMIC_SPIN_LOCK,
            LockMechanism.NAMED_BARRIER, LockMechanism.SHARED_SPIN_LOCK, LockMechanism.TINY_LOCK,
            LockMechanism.WARP_VOTE, LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.MBARRIER, LockMechanism.LOCK_BOX);
    private static final long MAX_CYCLES_PER_LAUNCH = 500_000_000L;

    private final SimtProfile profile;
    /** The profile as the user named it: a built-in name, or the path of a profile file. */
    private final String profileLabel;

    public GpuModelBackend(String profileNameOrPath) {
        this.profile = SimtProfile.load(profileNameOrPath);
        this.profileLabel = profileNameOrPath;
    }

    public SimtProfile profile() {
        return profile;
    }

    @Override
    public String name() {
        return PREFIX + profileLabel;
    }

    @Override
    public boolean modelsSyncAbstractly() {
        return false;
    }

    @Override
    public Optional<String> unsupportedKernel(ExecutionPlan plan) {
        // lock-dataflow is judged per mechanism (unsupported below); the others here
        return plan instanceof DataflowPlan
                ? GpuMapper.unmappableDataflow(plan, GpuTarget.of(profile))
                : SimtLowering.unsupported(plan, Optional.empty(), profile);
    }

    @Override
    public List<LockMechanism> sweep() {
        return SWEEP;
    }

    /** Tiny-lock, seed 001's mechanism. */
    @Override
    public Optional<LockMechanism> preferredMechanism() {
        return Optional.of(LockMechanism.TINY_LOCK);
    }

    /** What no kernel can change: a schedule whose mapping needs what the model ISA lacks. */
    /** On a GPU every actor instance is a thread of its own: an interleaved lock-dataflow is the plain one. */
    @Override
    public Optional<String> repeatsAnotherRow(Schedule schedule) {
        return schedule instanceof Schedule.LockDataflow dataflow && dataflow.interleavedChains()
                ? Optional.of("on a GPU every actor instance is a thread of its own, so lock-dataflow is interleaved already")
                : GpuWaits.repeatsTheDefault(schedule);
    }

    @Override
    public Optional<String> neverRuns(Schedule schedule) {
        return schedule instanceof Schedule.LockDataflow dataflow && dataflow.persistentLaunch() && !GpuTarget.of(profile).warpShuffle()
                ? Optional.of("lock-dataflow:persistent carries values along a band by warp shuffle, which profile "
                        + profile.name() + " does not have (feature.warpShuffle)")
                : GpuMapper.neverRuns(schedule);
    }

    @Override
    public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
        if (!(plan instanceof DataflowPlan)) {
            return Optional.of(plan.schedule().cliName() + " synchronises with barriers only");
        }
        return SimtLowering.unsupported(plan, Optional.of(mechanism), profile);
    }

    /** An unverified row: what memory holds after the failed launch, no cycle count, and why. */
    private static BackendRun failed(GlobalLayout layout, GlobalMemory memory, int launch, SimtKernel kernel, String why) {
        return new BackendRun(layout.download(memory), "cycles", Double.NaN, "cycles", Map.of(),
                Optional.of("launch " + (launch + 1) + " of " + kernel.launches() + " " + why));
    }

    /** The lowered program and launch plan, for {@code show --simt}. */
    public SimtKernel lower(Variant variant, int[] sizes) {
        return SimtLowering.lower(variant.plan(), variant.mechanism(), profile, sizes);
    }

    /** The GPU mapping of a variant on this profile, for {@code show --gpu-plan}. */
    public GpuMapping map(Variant variant, int[] sizes) {
        return SimtLowering.map(variant.plan(), variant.mechanism(), profile, sizes);
    }

    /**
     * The lock bits a block claims on the model's SM so that co-resident blocks never share one: a lock bit is chosen
     * by a word's shared address (SimtLockUnit), and the SM places blocks in consecutive windows of their shared size,
     * so a block that takes lock bits claims its window's whole span of lock addresses (at most the SM's bits), not
     * only the words it locks. Blocks whose spans fit the SM's bits together then map to different bits; a block whose
     * window spans them all runs alone on its SM. Without this, two blocks of 8192 bytes on a 1024-bit Fermi SM locked
     * each other's words (a wrong answer, not a slow one).
     */
    static int lockBitsClaimed(SimtKernel kernel, SimtProfile machine) {
        if (kernel.lockBits() <= 0 || machine.lockBits() == 0) {
            return kernel.lockBits();
        }
        long span = Math.ceilDiv((long) Math.max(4, kernel.sharedBytes()), 1L << machine.lockAddressShift());
        return (int) Math.min(machine.lockBits(), Math.max(kernel.lockBits(), span));
    }

    /** The GPU mapping's tiles cut short at the high edges: each thread checks its point lies in the domain. */
    @Override
    public boolean takesRaggedTiles() {
        return true;
    }

    @Override
    public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
        int[] sizes = invocation.sizes();
        KernelGraph graph = variant.graph();
        GlobalLayout layout = new GlobalLayout(graph, sizes);
        GpuMapping mapping = SimtLowering.map(variant.plan(), variant.mechanism(), profile, sizes);
        SimtKernel kernel = SimtLowering.emit(mapping, layout);
        int maxBlocks = kernel.blocksPerLaunch().stream().mapToInt(Integer::intValue).max().orElse(1);
        int clockBytes = kernel.phaseClockByte() < 0 ? 0 : 8 * maxBlocks * kernel.threadsPerBlock();
        // the model keeps its error word and barrier counter in the layout; the rest of the scratch (XF's flags) follows
        // the data, 8 bytes later at most for alignment
        GlobalMemory memory = layout.upload(invocation, Math.max(clockBytes, 8 + (int) mapping.scratchBytes()));
        SimtLaunchStream stream = new SimtLaunchStream(profile);
        long kernelCycles = 0;
        long phaseCycles = 0;
        long longestLaunch = 0;
        Map<String, Long> counters = new LinkedHashMap<>();
        int sharedBytes = Math.max(4, kernel.sharedBytes());
        MemoryInit unwritten = unwrittenShared(sharedBytes);
        for (int launch = 0; launch < kernel.launches(); launch++) {
            memory.writeWord(GlobalLayout.LAUNCH_INDEX_BYTE, launch);
            if (clockBytes > 0) {
                memory.write(kernel.phaseClockByte(), new int[clockBytes / 4]);
            }
            SimResult result;
            try {
                result = SimtSimulator.run(SimRequest.builder(graph.name() + ".sass", kernel.program())
                        .profile(profile).blocks(kernel.blocksPerLaunch().get(launch))
                        .threads(kernel.threadsPerBlock()).sharedBytesPerBlock(sharedBytes)
                        .init(unwritten)
                        .lockBitsPerBlock(lockBitsClaimed(kernel, profile)).maxCycles(MAX_CYCLES_PER_LAUNCH).globalMemory(memory)
                        .build());
            } catch (SimUserException fault) {
                return failed(layout, memory, launch, kernel, "faulted (a lowering bug, please report it): "
                        + fault.getMessage());
            }
            if (result.status() != SimStatus.COMPLETED) {
                String report = result.deadlock() != null ? result.deadlock().kind().description() + ": "
                        + result.deadlock().lanes().stream().limit(3).map(Object::toString).toList() : "";
                return failed(layout, memory, launch, kernel, "ended " + result.status().label() + " " + report);
            }
            java.util.Optional<int[]> lookup = layout.lookupFailure(memory);
            if (lookup.isPresent()) {
                throw new KernelExecutionException("kernel '" + graph.name() + "': a lookup of table '"
                        + graph.kernel().tables().get(lookup.get()[0]).name() + "' got an index outside axis " + lookup.get()[1]
                        + " on the GPU model (launch " + (launch + 1) + " of " + kernel.launches() + "); keep the indices an actor"
                        + " computes inside the table (check the input values they come from)");
            }
            if (layout.dividedByZero(memory)) {
                throw new KernelExecutionException("kernel '" + graph.name() + "': integer division by zero in an actor"
                        + " body on the GPU model (launch " + (launch + 1) + " of " + kernel.launches() + "); guard the"
                        + " divisor with select(...)");
            }
            long aliases = result.counters().getOrDefault("lockBitAliases", 0L);
            if (aliases > 0) {
                return failed(layout, memory, launch, kernel, "let co-resident blocks alias in the lock unit (" + aliases
                        + " LDSLK attempt(s) found their lock bit held by another block's thread; a lowering bug, please"
                        + " report it)");
            }
            stream.add(result.kernelCycles(), mapping.programmaticLaunches() && launch > 0);
            longestLaunch = Math.max(longestLaunch, result.totalCycles());
            kernelCycles += result.kernelCycles();
            result.counters().forEach((name, value) -> counters.merge(name, value, Long::sum));
            if (clockBytes > 0) {
                phaseCycles += phaseCycles(memory.read(kernel.phaseClockByte(), clockBytes / 4));
            }
        }
        long totalCycles = stream.totalCycles();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("us", Math.round(totalCycles / profile.clockMhz() * 10) / 10.0);
        details.put("launches", kernel.launches());
        details.put("longest_launch_us", Math.round(longestLaunch / profile.clockMhz() * 10) / 10.0);
        details.put("kernel_cycles", kernelCycles);
        if (clockBytes > 0) {
            details.put("sync_phase_cycles", phaseCycles);
        }
        details.put("threads_per_block", kernel.threadsPerBlock());
        details.put("thread_instructions", counters.getOrDefault("threadInstructions", 0L));
        SimtKernel.Resources resources = kernel.resources();
        details.put("sync_shared_bytes", resources.syncSharedBytes());
        details.put("data_shared_bytes", resources.dataSharedBytes());
        details.put("lock_bits_explicit", resources.explicitLockBits());
        details.put("lock_bits_implicit", resources.implicitLockBits());
        details.put("named_barriers", resources.namedBarriers());
        details.put("registers", resources.registers());
        return new BackendRun(layout.download(memory, mapping.folding()), "cycles", totalCycles, "cycles", details, Optional.empty());
    }

    /** Cycles from the first thread entering its sync phase to the last leaving it; unused slots hold zeros. */
    private static long phaseCycles(int[] clocks) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int slot = 0; slot + 1 < clocks.length; slot += 2) {
            if (clocks[slot] == 0 && clocks[slot + 1] == 0) {
                continue;
            }
            first = Math.min(first, Integer.toUnsignedLong(clocks[slot]));
            last = Math.max(last, Integer.toUnsignedLong(clocks[slot + 1]));
        }
        return first == Long.MAX_VALUE ? 0 : last - first;
    }
}
