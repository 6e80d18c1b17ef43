package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.MemoryBenchmark;
import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveLayout;
import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveProgram;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;
import dev.finegrain.gpu.DumpRange;
import dev.finegrain.gpu.MemoryInit;
import dev.finegrain.gpu.MemorySpace;
import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimStatus;
import dev.finegrain.gpu.SimtSimulator;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The primitives on the GPU model: the checking program, then the timed one, each a launch of {@code blocks} blocks of
 * the paper's 128 threads; the rate is operations over the kernel's modelled time (launch overhead excluded, as the
 * paper times the kernel).
 */
public record ModelPrimitives(String profileName, SimtProfile profile) implements PrimitiveBackend {

    /** The paper fills each SM with up to eight blocks. */
    static final int PAPER_BLOCKS_PER_SM = 8;
    /**
     * How long a run may take, in modelled cycles, before it is stopped (a tenth to a quarter of a second of GPU time on
     * the profiles): a primitive slower than that at some scale is reported as slower than the rate this allows, as the
     * paper stops plotting a primitive where its times become unpredictable.
     */
    static final long MAX_CYCLES = 300_000_000L;
    /**
     * How long memory may stay unchanged before the model declares a deadlock: far above one round of a contended
     * word's queue (240 Tesla blocks x 406 cycles an atomic is about 100,000 cycles, in which a spin lock's swaps of 1
     * into a held lock change nothing), yet a real deadlock still ends the run.
     */
    static final long WATCHDOG_CYCLES = 20_000_000L;
    /**
     * Each block's shared window: the programs use none, and a small window keeps shared memory from limiting how many
     * blocks an SM holds, as a CUDA kernel without shared memory is not limited by it.
     */
    private static final int SHARED_BYTES = 128;

    public ModelPrimitives(String profileName) {
        this(profileName, SimtProfile.load(profileName));
    }

    @Override
    public String name() {
        return "gpu-model:" + profileName;
    }

    /** Blocks of 128 threads the machine holds at once. */
    int residentBlocks() {
        int perSm = Math.min(profile.maxBlocksPerSm(), profile.maxThreadsPerSm() / PrimitiveProgram.THREADS_PER_BLOCK);
        return profile.smCount() * perSm;
    }

    /** The paper's full scale: eight blocks per SM, or what the SM holds. */
    int saturation() {
        return profile.smCount() * Math.min(PAPER_BLOCKS_PER_SM,
                Math.min(profile.maxBlocksPerSm(), profile.maxThreadsPerSm() / PrimitiveProgram.THREADS_PER_BLOCK));
    }

    /** A tenth of the paper's 1000: {@code fa-mutex} on hopper-h200 ran at the same rates to three digits with 20. */
    @Override
    public int defaultOps() {
        return 100;
    }

    @Override
    public int defaultCheckOps() {
        return 10;
    }

    @Override
    public List<Integer> defaultBlocks() {
        List<Integer> blocks = new ArrayList<>();
        for (int b = 1; b < saturation(); b *= 2) {
            blocks.add(b);
        }
        if (profile.smCount() < saturation() && !blocks.contains(profile.smCount())) {
            blocks.add(profile.smCount());
        }
        blocks.add(saturation());
        blocks.sort(Integer::compare);
        return blocks;
    }

    @Override
    public PrimitiveRow run(SyncPrimitive primitive, int blocks, int initial, int ops, int checkOps) {
        String kind = primitive.kind().id();
        if (blocks > PrimitiveLayout.MAX_BLOCKS) {
            return PrimitiveRow.notRun(name(), primitive.name(), kind, blocks, initial, ops,
                    PrimitiveRow.SKIPPED + ": the benchmark's layout holds at most " + PrimitiveLayout.MAX_BLOCKS + " blocks");
        }
        if (primitive.kind().needsCoResidentBlocks() && blocks > residentBlocks()) {
            return PrimitiveRow.notRun(name(), primitive.name(), kind, blocks, initial, ops, PrimitiveRow.SKIPPED + ": a barrier needs"
                    + " every block resident at once, and " + profileName + " holds " + residentBlocks() + " blocks of "
                    + PrimitiveProgram.THREADS_PER_BLOCK + " threads");
        }
        PrimitiveProgram checking = new PrimitiveProgram(primitive, checkOps, initial, true);
        SimResult checked = simulate(checking, primitive.name() + "-checked", blocks);
        if (checked.status() == SimStatus.MAX_CYCLES) {
            return tooSlow(primitive, blocks, initial, checkOps, ops, "the checking run");
        }
        String wrong = verdict(checked, checking, blocks);
        if (wrong != null) {
            return PrimitiveRow.notRun(name(), primitive.name(), kind, blocks, initial, ops, wrong);
        }
        PrimitiveProgram timed = new PrimitiveProgram(primitive, ops, initial, false);
        SimResult result = simulate(timed, primitive.name(), blocks);
        if (result.status() == SimStatus.MAX_CYCLES) {
            return tooSlow(primitive, blocks, initial, ops, ops, "the timed run");
        }
        if (result.status() != SimStatus.COMPLETED) {
            return PrimitiveRow.notRun(name(), primitive.name(), kind, blocks, initial, ops, describe(result));
        }
        double seconds = result.kernelCycles() / (profile.clockMhz() * 1e6);
        return new PrimitiveRow(name(), primitive.name(), kind, blocks, initial, ops, seconds,
                primitive.kind().operations(blocks, ops) / seconds, PrimitiveRow.VERIFIED);
    }

    /** A point whose run ({@code which}, of {@code ran} operations per block) was stopped at {@link #MAX_CYCLES}. */
    private PrimitiveRow tooSlow(SyncPrimitive primitive, int blocks, int initial, int ran, int ops, String which) {
        double bound = primitive.kind().operations(blocks, ran) / (MAX_CYCLES / (profile.clockMhz() * 1e6));
        return PrimitiveRow.notRun(name(), primitive.name(), primitive.kind().id(), blocks, initial, ops,
                String.format(Locale.ROOT, "%s: under %.3g ops/s (%s stopped after %d modelled cycles)",
                        PrimitiveRow.TOO_SLOW, bound, which, MAX_CYCLES));
    }

    @Override
    public List<PrimitiveRow> memory(List<MemoryBenchmark> benchmarks, int accesses) {
        List<PrimitiveRow> rows = new ArrayList<>();
        int blocks = saturation();
        for (MemoryBenchmark benchmark : benchmarks) {
            SimRequest request = SimRequest.builder(benchmark.name() + ".sass", benchmark.text(accesses))
                    .profile(profile).blocks(blocks).threads(PrimitiveProgram.THREADS_PER_BLOCK).sharedBytesPerBlock(SHARED_BYTES)
                    .globalBytes(PrimitiveLayout.GLOBAL_BYTES).maxCycles(MAX_CYCLES).watchdogCycles(WATCHDOG_CYCLES).build();
            SimResult result = SimtSimulator.run(request);
            if (result.status() != SimStatus.COMPLETED) {
                rows.add(PrimitiveRow.notRun(name(), benchmark.name(), "memory", blocks, 0, accesses, describe(result)));
                continue;
            }
            double seconds = result.kernelCycles() / (profile.clockMhz() * 1e6);
            rows.add(new PrimitiveRow(name(), benchmark.name(), "memory", blocks, 0, accesses, seconds,
                    (double) blocks * accesses / seconds, PrimitiveRow.VERIFIED));
        }
        return rows;
    }

    private SimResult simulate(PrimitiveProgram program, String name, int blocks) {
        SimRequest.Builder request = SimRequest.builder(name + ".sass", program.text()).profile(profile).blocks(blocks)
                .threads(PrimitiveProgram.THREADS_PER_BLOCK).sharedBytesPerBlock(SHARED_BYTES).globalBytes(PrimitiveLayout.GLOBAL_BYTES)
                .maxCycles(MAX_CYCLES).watchdogCycles(WATCHDOG_CYCLES).dump(new DumpRange(MemorySpace.GLOBAL, 0, PrimitiveLayout.ARRIVALS + 4));
        program.initialWords().forEach((address, value) ->
                request.init(new MemoryInit(MemorySpace.GLOBAL, address, new int[] {value})));
        return SimtSimulator.run(request.build());
    }

    /** Null when the checking run kept the guarantee, else what it broke. */
    private static String verdict(SimResult result, PrimitiveProgram program, int blocks) {
        if (result.status() != SimStatus.COMPLETED) {
            return describe(result);
        }
        int violations = result.word(MemorySpace.GLOBAL, -1, PrimitiveLayout.ERROR);
        if (violations != 0) {
            return "wrong: " + violations + " violations of the primitive's guarantee in the checking run";
        }
        long counted = Integer.toUnsignedLong(result.word(MemorySpace.GLOBAL, -1, PrimitiveLayout.COUNTER));
        if (counted != program.expectedCount(blocks)) {
            return "wrong: the critical section counted " + counted + " entries, expected " + program.expectedCount(blocks);
        }
        return null;
    }

    private static String describe(SimResult result) {
        return result.status() == SimStatus.DEADLOCK
                ? "deadlock: " + result.deadlock().kind().description()
                : "did not finish: " + result.status().label();
    }
}
