package dev.finegrain.gpu;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.Truffle;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.parser.SimtParser;
import dev.finegrain.gpu.runtime.SimtBlock;
import dev.finegrain.gpu.runtime.SimtCounters;
import dev.finegrain.gpu.runtime.SimtDeadlockAnalysis;
import dev.finegrain.gpu.runtime.SimtLaunch;
import dev.finegrain.gpu.runtime.SimtMachine;
import dev.finegrain.gpu.runtime.SimtMemory;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSm;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The entry point: runs one {@link SimRequest} on the modeled GPU and returns a {@link SimResult}. User mistakes
 * (unreadable file, parse error, unknown profile, a launch that does not fit, a kernel fault) throw
 * {@link SimUserException} with a one-line message; a deadlock is a result, not an exception.
 *
 * <h2>A tour</h2>
 * <ul>
 * <li>The text is read by {@link dev.finegrain.gpu.parser.SimtParser} into a
 * {@link dev.finegrain.gpu.isa.SimtProgram} of {@link dev.finegrain.gpu.isa.SimtInstruction}s, with each branch's
 * immediate post-dominator for reconvergence.</li>
 * <li>A {@link dev.finegrain.gpu.runtime.SimtProfile} (tesla-gtx295, fermi-gtx570, fermi-gtx580, hopper-h200) gives
 * the machine's shape and costs; the {@link SimMode} says how lanes diverge.</li>
 * <li>Inside a {@link SimtLanguage} context, {@link dev.finegrain.gpu.nodes.SimtNodeFactory} turns each instruction
 * into a Truffle node ({@code SimtLdslkNode}, {@code SimtBraNode}, {@code SimtBarSyncNode}, ...), each its own call
 * target, shared by the kernels that hold the same instruction; one {@link dev.finegrain.gpu.nodes.SimtKernelRootNode}
 * loops over the cycles of every launch.</li>
 * <li>{@link dev.finegrain.gpu.runtime.SimtMachine} places blocks on {@link dev.finegrain.gpu.runtime.SimtSm}s under
 * the occupancy limits (threads, blocks, shared memory, lock bits) and lets each SM's scheduler issue
 * {@link dev.finegrain.gpu.runtime.SimtWarp}s cycle by cycle; a warp's lanes move through a
 * {@link dev.finegrain.gpu.runtime.SimtReconvergenceStack} (Fermi) or
 * {@link dev.finegrain.gpu.runtime.SimtIndependentThreads} (ITS).</li>
 * <li>Shared memory has a {@link dev.finegrain.gpu.runtime.SimtLockUnit} per SM (seed 001's LDSLK/STSUL lock bits);
 * with {@code feature.lockBox}, a {@link dev.finegrain.gpu.runtime.SimtLockBox} per SM (LBACQ/LBREL, Tullsen et al.);
 * blocks have a {@link dev.finegrain.gpu.runtime.SimtBarrierUnit}; costs come from
 * {@link dev.finegrain.gpu.runtime.SimtCostModel} (seed 000's three-parameter abstraction for global memory).</li>
 * <li>When nothing changes for the watchdog's cycles, or no warp can issue,
 * {@link dev.finegrain.gpu.runtime.SimtDeadlockAnalysis} reports every stuck lane and classifies the deadlock.</li>
 * </ul>
 */
public final class SimtSimulator {
    private static final int DEFAULT_SHARED_BYTES_PER_BLOCK = 16 * 1024;
    private static final AtomicBoolean INTERPRETER_NOTICE_PRINTED = new AtomicBoolean();
    private SimtSimulator() {
    }

    /**
     * Runs one request. Thread-safe: independent requests may run at the same time on as many threads as there
     * are cores; each run has a machine and memories of its own (a request's {@link SimRequest#globalMemory()}
     * array is written by its run, so concurrent requests must not share one).
     */
    public static SimResult run(SimRequest request) {
        SimtProgram program = parse(request);
        SimtProfile profile = request.profile();
        SimMode mode = request.mode() != null ? request.mode() : profile.defaultMode();
        SimtLaunch launch = launchFor(request, program, profile);
        SimtMachine.checkFits(profile, launch);
        noticeInterpreterOnly();
        Context shared = SharedContext.CONTEXT;
        shared.enter();
        try {
            SimtLanguage language = SimtLanguage.get();
            CallTarget[] instructions = language.instructionTargets().of(program, profile);
            return run(request, program, profile, mode, launch, language.kernel(), instructions);
        } finally {
            shared.leave();
        }
    }

    /**
     * One context for the JVM, made on first use and entered by every run, by any number of threads at once
     * ({@link SimtLanguage#isThreadAccessAllowed}), so that call targets outlive a run and serve every thread. A
     * context per thread (or a pool of contexts each entered by one thread at a time) would give each its own
     * language instance and call targets, and Graal would compile every program once per context.
     */
    private static final class SharedContext {
        static final Context CONTEXT = newContext();

        private static Context newContext() {
            Context context = Context.newBuilder(SimtLanguage.ID).engine(engine()).build();
            context.initialize(SimtLanguage.ID);
            return context;
        }
    }

    private static SimResult run(SimRequest request, SimtProgram program, SimtProfile profile, SimMode mode,
                                 SimtLaunch launch, CallTarget kernel, CallTarget[] instructions) {
        SimtMemory global = request.globalMemory() != null ? new SimtMemory(request.globalMemory().words())
                : new SimtMemory(launch.globalBytes());
        SimtMachine machine = new SimtMachine(program, profile, mode, launch, kernel, instructions, global,
                block -> initializeShared(block, request.inits()));
        for (MemoryInit init : request.inits()) {
            if (init.space() == MemorySpace.GLOBAL) {
                write(machine.global(), init);
            }
        }
        SimtMachine.Ending ending = machine.run();
        SimStatus status = switch (ending) {
            case COMPLETED -> SimStatus.COMPLETED;
            case DEADLOCK -> SimStatus.DEADLOCK;
            case MAX_CYCLES -> SimStatus.MAX_CYCLES;
        };
        DeadlockReport deadlock = status == SimStatus.COMPLETED ? null : SimtDeadlockAnalysis.analyze(machine);
        return new SimResult(request.programName(), profile.name(), mode, status, profile.launchOverheadCycles(),
                machine.cycle(), blockCycles(machine), counters(machine.counters(), profile), resources(machine, program),
                deadlock, dumps(machine, request.dumps()));
    }

    /**
     * The engine of the one context, so that runs share its compiler threads; {@code polyglot.engine.*} system
     * properties configure it, experimental ones included (such as
     * {@code -Dpolyglot.engine.TraceCompilationDetails=true}). Truffle's own interpreter-only warning is replaced by
     * the one line of {@link #noticeInterpreterOnly}.
     *
     * <p>With the JIT, each instruction's call target is compiled once, at the last tier, unless
     * {@code -Dpolyglot.engine.MultiTier} says otherwise: every instruction runs thousands of times in the first
     * launch, so a first-tier compilation is replaced almost at once, and on a 2-core machine compiling everything
     * twice kept Graal busy, and the simulation waiting for compiled code, through most of a benchmark's warm-up.
     */
    private static Engine engine() {
        Engine.Builder builder = Engine.newBuilder(SimtLanguage.ID).allowExperimentalOptions(true)
                .option("engine.WarnInterpreterOnly", "false");
        if (isJitAvailable() && System.getProperty("polyglot.engine.MultiTier") == null) {
            builder.option("engine.MultiTier", "false");
        }
        return builder.build();
    }

    /** Whether Truffle runs with the Graal JIT (false: the interpreter only). */
    public static boolean isJitAvailable() {
        return !Truffle.getRuntime().getName().toLowerCase(java.util.Locale.ROOT).contains("interpreted");
    }

    /** Parses the request's program without running it; for checking files. */
    public static SimtProgram parse(SimRequest request) {
        String text = request.source();
        if (text == null) {
            try {
                text = Files.readString(request.file(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new SimUserException("cannot read " + request.file() + ": " + describe(e));
            }
        }
        return SimtParser.parse(request.programName(), text);
    }

    private static String describe(IOException e) {
        return switch (e) {
            case java.nio.file.NoSuchFileException missing -> "no such file";
            case java.nio.charset.CharacterCodingException notText -> "it is not a UTF-8 text file; give a program in the"
                    + " model ISA (docs/simt-isa.md)";
            default -> e.getMessage();
        };
    }

    private static void noticeInterpreterOnly() {
        if (!isJitAvailable() && INTERPRETER_NOTICE_PRINTED.compareAndSet(false, true)) {
            System.err.println("finegrain-gpu: Graal JIT not available (" + Truffle.getRuntime().getName()
                    + "), running on the Truffle interpreter");
        }
    }

    private static SimtLaunch launchFor(SimRequest request, SimtProgram program, SimtProfile profile) {
        int shared = request.sharedBytesPerBlock() > 0 ? request.sharedBytesPerBlock()
                : Math.min(DEFAULT_SHARED_BYTES_PER_BLOCK, profile.sharedBytesPerSm());
        boolean usesLockBits = program.instructions().stream()
                .anyMatch(i -> i.opcode() == SimtOpcode.LDSLK || i.opcode() == SimtOpcode.STSUL);
        int lockBits = request.lockBitsPerBlock() >= 0 ? request.lockBitsPerBlock()
                : usesLockBits ? Math.min(request.threadsPerBlock(), profile.lockBits()) : 0;
        return new SimtLaunch(request.blocks(), request.threadsPerBlock(), shared, lockBits, request.globalBytes(),
                request.maxCycles(), request.watchdogCycles());
    }

    private static void initializeShared(SimtBlock block, List<MemoryInit> inits) {
        for (MemoryInit init : inits) {
            if (init.space() == MemorySpace.SHARED) {
                write(block.shared(), init);
            }
        }
    }

    private static void write(SimtMemory memory, MemoryInit init) {
        int[] words = init.words();
        for (int i = 0; i < words.length; i++) {
            int word = memory.wordIndex(init.byteAddress() + 4 * i);
            if (word < 0) {
                throw new SimUserException("init " + init.space().label() + " 0x"
                        + Integer.toHexString(init.byteAddress() + 4 * i) + " is outside the " + memory.sizeBytes()
                        + " bytes of " + init.space().label() + " memory");
            }
            memory.store(word, words[i]);
        }
    }

    private static List<SimResult.BlockCycles> blockCycles(SimtMachine machine) {
        List<SimResult.BlockCycles> cycles = new ArrayList<>();
        machine.blocks().stream().sorted(java.util.Comparator.comparingInt(SimtBlock::id)).forEach(block ->
                cycles.add(new SimResult.BlockCycles(block.id(), block.sm().id(), block.startCycle(),
                        block.endCycle())));
        return cycles;
    }

    private static Map<String, Long> counters(SimtCounters counters, SimtProfile profile) {
        return counters.asMap(profile.hasLockBox());
    }

    private static Map<String, Long> resources(SimtMachine machine, SimtProgram program) {
        Map<String, Long> resources = new LinkedHashMap<>();
        SimtLaunch launch = machine.launch();
        resources.put("blocks", (long) launch.blocks());
        resources.put("threadsPerBlock", (long) launch.threadsPerBlock());
        resources.put("warpsPerBlock", (long) ((launch.threadsPerBlock() + 31) / 32));
        resources.put("registersPerThread", (long) program.registerCount());
        resources.put("sharedBytesPerBlock", (long) launch.sharedBytesPerBlock());
        resources.put("sharedBytesTouched",
                (long) machine.blocks().stream().mapToInt(SimtBlock::sharedBytesTouched).max().orElse(0));
        resources.put("lockBitsPerBlock", (long) launch.lockBitsPerBlock());
        resources.put("lockBitsTakenPerSm",
                (long) machine.sms().stream().mapToInt(SimtSm::lockBitsEverTaken).max().orElse(0));
        resources.put("residentBlocksPerSm",
                (long) machine.sms().stream().mapToInt(SimtSm::peakResidentBlocks).max().orElse(0));
        resources.put("smsUsed", machine.sms().stream().filter(sm -> sm.peakResidentBlocks() > 0).count());
        return resources;
    }

    private static List<SimResult.MemoryDump> dumps(SimtMachine machine, List<DumpRange> ranges) {
        List<SimResult.MemoryDump> dumps = new ArrayList<>();
        for (DumpRange range : ranges) {
            if (range.space() == MemorySpace.GLOBAL) {
                dumps.add(new SimResult.MemoryDump(MemorySpace.GLOBAL, -1, range.fromByte(),
                        machine.global().snapshot(range.fromByte(), range.toByte())));
            } else {
                machine.blocks().stream().sorted(java.util.Comparator.comparingInt(SimtBlock::id)).forEach(block ->
                        dumps.add(new SimResult.MemoryDump(MemorySpace.SHARED, block.id(), range.fromByte(),
                                block.shared().snapshot(range.fromByte(), range.toByte()))));
            }
        }
        return dumps;
    }
}
