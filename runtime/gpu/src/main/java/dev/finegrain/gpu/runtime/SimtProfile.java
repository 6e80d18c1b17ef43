package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimUserException;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A modeled GPU: its shape (SMs, occupancy limits, lock unit) and its costs, read from a commented
 * {@code .properties} file that gives the source of every number (see docs/profiles.md).
 */
public record SimtProfile(String name, String description, SimMode defaultMode, double clockMhz,
                          int smCount, int maxThreadsPerSm, int maxBlocksPerSm, int maxThreadsPerBlock,
                          int sharedBytesPerSm, int lockBits, int lockAddressShift, int schedulersPerSm,
                          SchedulerPolicy schedulerPolicy, int sharedBanks,
                          int aluLatency, int multiplyLatency, int branchLatency, int specialRegisterLatency,
                          int sharedLatency, int sharedReplayCycles, int sharedAtomicCycles,
                          int globalLatency, int globalLineBytes, double volatileServiceCycles, double atomicServiceCycles,
                          boolean atomicHoldsLine, int barrierLatency, int voteLatency, int membarLatency,
                          int launchOverheadCycles, boolean hasMbarrier, boolean hasNanosleep,
                          boolean sharedAtomicsAsLockLoops, int membarGpuLatency, int membarSystemLatency,
                          int mbarrierLatency, boolean nanosleepRoundsUpToPowerOfTwo, int nanosleepMinimumNs,
                          int globalAtomicLatency, int fp32Latency, int fp64Latency, int convertLatency,
                          int convert64Latency, int specialFunctionLatency, int namedBarrierLatency,
                          double smSectorCycles, double smPartialStoreSectorCycles, boolean launchPipelined,
                          int launchIntervalCycles, int launchGapCycles, int sharedStoreVisibleCycles,
                          int mbarrierAddressCycles, int sharedPortCycles, double sharedPollCycles,
                          int pollLoopYieldCycles, int pollLoopDepartureCycles, boolean hasLockBox,
                          int lockBoxGrantCycles, boolean lockBoxReleasePrediction,
                          int lockBoxPredictedGrantCycles, String defaultGridBarrier, String defaultMutex,
                          boolean hasDpx, int dpxLatency, boolean hasWarpShuffle, int shuffleLatency,
                          int warpSyncLatency, boolean pipelinedIssue, int issueIntervalCycles,
                          int sharedIssueIntervalCycles, boolean hasAsyncCopy, int asyncCopyIssueCycles,
                          int asyncCopyLatency, int sharedStrongLatency, int readOnlyCacheLines, int readOnlyHitLatency,
                          boolean hasProgrammaticLaunch, int launchProgrammaticGapCycles) {

    /** The inter-block barriers a profile may name as the best on its machine ({@code default.gridBarrier}). */
    public static final List<String> GRID_BARRIERS = List.of("atomic", "xf");
    /** The mutexes a profile may name as its spin-locks' default ({@code default.mutex}). */
    public static final List<String> MUTEXES = List.of("tas", "ttas", "ticket");

    /** The profiles shipped as resources. */
    public static final List<String> BUILT_IN = List.of("tesla-gtx295", "fermi-gtx570", "fermi-gtx580",
            "hopper-h200", "hopper-h100");

    /** How an SM picks the next warp to issue. */
    public enum SchedulerPolicy {
        /** Loose round robin: the next ready warp after the one issued last. */
        LRR,
        /** Greedy then oldest: keep issuing the same warp while it is ready, else the oldest ready one. */
        GTO
    }

    /** What separates a profile from a setting of one of its keys: {@code fermi-gtx570@sm.lockBits=2048}. */
    public static final String SETTING = "@";

    /**
     * A built-in profile by name, or a profile file by path, with any of its keys set otherwise after {@link #SETTING}s
     * ({@code fermi-gtx570@sm.lockBits=2048@latency.shared=30}): seed 001's "more lock bits would favour dataflow" is
     * a sweep over one key. A key the profile format does not know is refused, naming the keys it does.
     */
    public static SimtProfile load(String nameOrPathWithSettings) {
        String[] parts = nameOrPathWithSettings.split(SETTING, -1);
        if (parts.length == 1) {
            return loadFile(parts[0]);
        }
        Properties properties = propertiesOf(parts[0]);
        java.util.Set<String> known = new java.util.TreeSet<>();
        from(parts[0], properties, known);
        for (int p = 1; p < parts.length; p++) {
            int equals = parts[p].indexOf('=');
            String key = equals < 0 ? parts[p] : parts[p].substring(0, equals).trim();
            if (equals < 0 || key.isEmpty()) {
                throw new SimUserException("profile setting '" + parts[p] + "' of " + nameOrPathWithSettings
                        + " is not KEY=VALUE; write e.g. " + parts[0] + SETTING + "sm.lockBits=2048");
            }
            if (!known.contains(key) || key.startsWith("profile.")) {
                known.removeIf(k -> k.startsWith("profile."));
                throw new SimUserException("profile " + parts[0] + " has no key '" + key + "' to set; its keys: "
                        + String.join(", ", known));
            }
            properties.setProperty(key, parts[p].substring(equals + 1).trim());
        }
        return from(nameOrPathWithSettings, properties, new java.util.HashSet<>());
    }

    /** The keys the model reads from this profile (built in, or a file): every one a built-in profile sets explicitly. */
    public static java.util.SortedSet<String> keysRead(String nameOrPath) {
        java.util.SortedSet<String> asked = new java.util.TreeSet<>();
        from(nameOrPath, propertiesOf(nameOrPath), asked);
        return asked;
    }

    /** A profile's text as written, whose comments say where each value comes from. */
    public static String text(String nameOrPath) {
        String resource = "/dev/finegrain/gpu/profiles/" + nameOrPath + ".properties";
        try (InputStream in = SimtProfile.class.getResourceAsStream(resource)) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            propertiesOf(nameOrPath);   // refuses an unknown name with the list of built-in ones
            return Files.readString(Path.of(nameOrPath), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SimUserException("cannot read profile " + nameOrPath + ": " + e.getMessage(), e);
        }
    }

    private static SimtProfile loadFile(String nameOrPath) {
        return from(nameOrPath, propertiesOf(nameOrPath), new java.util.HashSet<>());
    }

    private static Properties propertiesOf(String nameOrPath) {
        Properties properties = new Properties();
        String resource = "/dev/finegrain/gpu/profiles/" + nameOrPath + ".properties";
        try (InputStream in = SimtProfile.class.getResourceAsStream(resource)) {
            if (in != null) {
                properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
                return properties;
            }
        } catch (IOException e) {
            throw new SimUserException("cannot read profile " + nameOrPath + ": " + e.getMessage(), e);
        }
        Path file = Path.of(nameOrPath);
        if (!Files.isRegularFile(file)) {
            if (nameOrPath.contains("/") || nameOrPath.contains(java.io.File.separator) || nameOrPath.endsWith(".properties")) {
                throw new SimUserException("profile file " + nameOrPath + " not found; give the path of a .properties file"
                        + " (start one from a built-in profile: finegrain profiles hopper-h200 --properties > mine.properties)");
            }
            throw new SimUserException("unknown profile '" + nameOrPath + "' (built in: " + String.join(", ", BUILT_IN)
                    + "; or the path of a .properties file)");
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new SimUserException("cannot read profile " + file + ": " + e.getMessage(), e);
        }
        return properties;
    }

    /** The profile these properties describe; {@code asked} collects every key the format reads (the keys a setting may name). */
    private static SimtProfile from(String source, Properties p, java.util.Set<String> asked) {
        Values v = new Values(source, p, asked);
        int lockBits = v.atLeast("sm.lockBits", 0);
        if (Integer.bitCount(lockBits) > 1) {
            throw new SimUserException("profile " + source + ": sm.lockBits must be 0 or a power of two, was " + lockBits);
        }
        int maxThreadsPerBlock = v.atLeast("block.maxThreads", 32);
        int maxThreadsPerSm = v.atLeast("sm.maxThreads", 32);
        if (maxThreadsPerBlock > maxThreadsPerSm) {
            throw new SimUserException("profile " + source + ": block.maxThreads (" + maxThreadsPerBlock + ") must not exceed"
                    + " sm.maxThreads (" + maxThreadsPerSm + ")");
        }
        boolean pipelined = v.bool("launch.pipelined", false);
        int lineBytes = v.atLeast("global.lineBytes", 4);
        if (Integer.bitCount(lineBytes) != 1) {
            throw new SimUserException("profile " + source + ": global.lineBytes must be a power of two, was " + lineBytes);
        }
        if (v.atLeast("shared.portCycles", 0, 0) > 0 && v.nonNegativeDecimal("shared.pollCycles", 0) > 0) {
            throw new SimUserException("profile " + source + ": shared.portCycles and shared.pollCycles are two models of"
                    + " the SM's shared-memory port (every access queues, or polls queue); set one of them");
        }
        if (v.atLeast("shared.portCycles", 0, 0) > 0 && v.atLeast("shared.storeVisibleCycles", 0, 0) > 0) {
            throw new SimUserException("profile " + source + ": shared.portCycles does not combine with"
                    + " shared.storeVisibleCycles (the port's wait is not counted into a store's visibility); use"
                    + " shared.pollCycles for the port of a profile with a visibility delay");
        }
        boolean pollLoop = v.atLeast("pollLoop.yieldCycles", 0, 0) > 0 || v.atLeast("pollLoop.departureCycles", 0, 0) > 0;
        if (pollLoop && !(v.nonNegativeDecimal("shared.pollCycles", 0) > 0)) {
            throw new SimUserException("profile " + source + ": pollLoop.yieldCycles and pollLoop.departureCycles need"
                    + " shared.pollCycles (a poll loop is found by the polls that port sees)");
        }
        int issueCycles = v.atLeast("issue.cycles", 1, 1);
        boolean programmatic = v.bool("feature.programmaticLaunch", false);
        if (programmatic && !pipelined) {
            throw new SimUserException("profile " + source + ": feature.programmaticLaunch needs launch.pipelined (a"
                    + " programmatic launch starts after the one before it by launch.programmaticGapCycles instead of"
                    + " launch.gapCycles)");
        }
        return new SimtProfile(v.text("profile.name"), v.text("profile.description"),
                SimMode.parse(v.text("profile.defaultMode")), v.positiveDecimal("clock.mhz"),
                v.atLeast("sm.count", 1), maxThreadsPerSm, v.atLeast("sm.maxBlocks", 1),
                maxThreadsPerBlock, v.atLeast("sm.sharedBytes", 0), lockBits,
                v.atLeast("sm.lockAddressShift", 0), v.atLeast("sm.schedulers", 1),
                SchedulerPolicy.valueOf(v.text("sm.schedulerPolicy").toUpperCase(Locale.ROOT)),
                v.atLeast("sm.sharedBanks", 1),
                v.atLeast("latency.alu", 1), v.atLeast("latency.multiply", 1), v.atLeast("latency.branch", 1),
                v.atLeast("latency.specialRegister", 1), v.atLeast("latency.shared", 1),
                v.atLeast("latency.sharedReplay", 0), v.atLeast("latency.sharedAtomic", 0), v.atLeast("latency.global", 1),
                lineBytes, v.nonNegativeDecimal("global.volatileServiceCycles"),
                v.nonNegativeDecimal("global.atomicServiceCycles"), v.bool("global.atomicHoldsLine"),
                v.atLeast("latency.barrier", 1), v.atLeast("latency.vote", 1), v.atLeast("latency.membar", 1),
                v.atLeast("launch.overheadCycles", 0), v.bool("feature.mbarrier"), v.bool("feature.nanosleep"),
                v.bool("feature.sharedAtomicsAsLockLoops", false),
                v.atLeast("latency.membarGpu", 1, v.integer("latency.membar")),
                v.atLeast("latency.membarSys", 1, v.integer("latency.membar")),
                v.atLeast("latency.mbarrier", 1, v.integer("latency.shared")),
                v.bool("nanosleep.roundsUpToPowerOfTwo", false),
                v.atLeast("nanosleep.minimumNs", 0, 0),
                v.atLeast("latency.globalAtomic", 1, v.integer("latency.global")),
                v.atLeast("latency.fp32", 1, v.integer("latency.alu")),
                v.atLeast("latency.fp64", 1, v.integer("latency.alu")),
                v.atLeast("latency.convert", 1, v.integer("latency.alu")),
                v.atLeast("latency.convert64", 1, v.integer("latency.alu")),
                v.atLeast("latency.specialFunction", 1, v.integer("latency.alu")),
                v.atLeast("latency.namedBarrier", 1, v.integer("latency.barrier")),
                v.nonNegativeDecimal("global.smSectorCycles", 0),
                v.nonNegativeDecimal("global.smPartialStoreSectorCycles",
                        v.nonNegativeDecimal("global.smSectorCycles", 0)),
                pipelined, pipelined ? v.atLeast("launch.intervalCycles", 0) : 0,
                pipelined ? v.atLeast("launch.gapCycles", 0) : 0,
                v.atLeast("shared.storeVisibleCycles", 0, 0), v.atLeast("mbarrier.addressCycles", 0, 0),
                v.atLeast("shared.portCycles", 0, 0), v.nonNegativeDecimal("shared.pollCycles", 0),
                v.atLeast("pollLoop.yieldCycles", 0, 0), v.atLeast("pollLoop.departureCycles", 0, 0),
                v.bool("feature.lockBox", false), v.atLeast("lockBox.grantCycles", 1, 15),
                v.bool("lockBox.releasePrediction", false), v.atLeast("lockBox.predictedGrantCycles", 1, 9),
                v.oneOf("default.gridBarrier", GRID_BARRIERS, "atomic"), v.oneOf("default.mutex", MUTEXES, "tas"),
                v.bool("feature.dpx", false), v.atLeast("latency.dpx", 1, v.integer("latency.alu")),
                v.bool("feature.warpShuffle", false), v.atLeast("latency.shuffle", 1, v.integer("latency.shared")),
                v.atLeast("latency.warpSync", 1, v.integer("latency.alu")),
                v.bool("issue.pipelined", false), issueCycles, v.atLeast("issue.sharedCycles", 1, issueCycles),
                v.bool("feature.asyncCopy", false), v.atLeast("asyncCopy.issueCycles", 1, issueCycles),
                v.atLeast("latency.asyncCopy", 0, 0),
                v.atLeast("latency.sharedStrong", v.integer("latency.shared"), v.integer("latency.shared")),
                v.atLeast("cache.readOnlyLines", 0, 0), v.atLeast("latency.readOnlyHit", 1, v.integer("latency.global")),
                programmatic, programmatic ? v.atLeast("launch.programmaticGapCycles", 0) : 0);
    }

    /**
     * Cycles an instruction that does not wait for its result (a load or store outside the shared-memory pipe, DEPBAR,
     * NANOSLEEP) keeps its warp from issuing: {@code issue.cycles} where issue is pipelined, else {@code latency.alu},
     * the model's unit of issue on a profile that issues one instruction at a time.
     */
    public int issueSlotCycles() {
        return pipelinedIssue ? issueIntervalCycles : aluLatency;
    }

    /** The same for an instruction of the shared-memory pipe (LDS, STS, a shared atomic, a shuffle): {@code issue.sharedCycles}. */
    public int sharedIssueSlotCycles() {
        return pipelinedIssue ? sharedIssueIntervalCycles : aluLatency;
    }

    /** The same for an asynchronous copy (LDGSTS): {@code asyncCopy.issueCycles}. */
    public int asyncCopyIssueSlotCycles() {
        return pipelinedIssue ? asyncCopyIssueCycles : aluLatency;
    }

    /**
     * Cycles from an LBREL that hands a lock-box lock to a waiting lane until that lane issues again: the paper's
     * restart penalty ({@code lockBox.grantCycles}), or {@code lockBox.predictedGrantCycles} with release prediction.
     */
    public int lockBoxRestartCycles() {
        return lockBoxReleasePrediction ? lockBoxPredictedGrantCycles : lockBoxGrantCycles;
    }

    /** The costs of the instructions that stand for a sequence of hardware instructions (64-bit, division). */
    public SimtSequences sequences() {
        return new SimtSequences(this);
    }

    /** How long NANOSLEEP with a request of {@code nanoseconds} sleeps on this GPU, in nanoseconds. */
    public long sleepNanoseconds(long nanoseconds) {
        long slept = nanosleepRoundsUpToPowerOfTwo && nanoseconds > 1 ? Long.highestOneBit(nanoseconds - 1) << 1
                : nanoseconds;
        return Math.max(nanosleepMinimumNs, slept);
    }

    /** Cycles of the SM clock for a duration in nanoseconds. */
    public long cyclesFor(long nanoseconds) {
        return Math.max(1, Math.round(nanoseconds * clockMhz / 1000.0));
    }

    private record Values(String source, Properties properties, java.util.Set<String> asked) {
        boolean given(String key) {
            asked.add(key);
            return properties.containsKey(key);
        }

        /** One of {@code choices}, or {@code fallback} when the key is not given. */
        String oneOf(String key, List<String> choices, String fallback) {
            if (!given(key)) {
                return fallback;
            }
            String value = text(key);
            if (!choices.contains(value)) {
                throw new SimUserException("profile " + source + ": " + key + " is " + value + "; use one of "
                        + String.join(", ", choices));
            }
            return value;
        }

        String text(String key) {
            asked.add(key);
            String value = properties.getProperty(key);
            if (value == null || value.isBlank()) {
                throw new SimUserException("profile " + source + ": missing " + key + (BUILT_IN.contains(source) ? ""
                        : " (a profile file sets every key a built-in one does: start from finegrain profiles hopper-h200"
                        + " --properties > mine.properties, then change what your GPU differs in)"));
            }
            return value.trim();
        }

        int integer(String key) {
            try {
                return Integer.parseInt(text(key));
            } catch (NumberFormatException e) {
                throw new SimUserException("profile " + source + ": " + key + " is not an integer: " + text(key));
            }
        }

        double decimal(String key) {
            try {
                return Double.parseDouble(text(key));
            } catch (NumberFormatException e) {
                throw new SimUserException("profile " + source + ": " + key + " is not a number: " + text(key));
            }
        }

        /** An integer of at least {@code minimum}; a smaller one names the key and the bound. */
        int atLeast(String key, int minimum) {
            int value = integer(key);
            if (value < minimum) {
                throw new SimUserException("profile " + source + ": " + key + " must be at least " + minimum + ", was " + value);
            }
            return value;
        }

        /** An optional key: its value, at least {@code minimum}, or {@code fallback} when the profile leaves it out. */
        int atLeast(String key, int minimum, int fallback) {
            return given(key) ? atLeast(key, minimum) : fallback;
        }

        double positiveDecimal(String key) {
            double value = decimal(key);
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new SimUserException("profile " + source + ": " + key + " must be a positive number, was " + text(key));
            }
            return value;
        }

        double nonNegativeDecimal(String key) {
            double value = decimal(key);
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new SimUserException("profile " + source + ": " + key + " must be zero or more, was " + text(key));
            }
            return value;
        }

        /** An optional decimal of zero or more: its value, or {@code fallback} when the profile leaves it out. */
        double nonNegativeDecimal(String key, double fallback) {
            return given(key) ? nonNegativeDecimal(key) : fallback;
        }

        /** An optional flag: its value, or {@code fallback} when the profile leaves it out. */
        boolean bool(String key, boolean fallback) {
            return given(key) ? bool(key) : fallback;
        }

        boolean bool(String key) {
            return switch (text(key).toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new SimUserException("profile " + source + ": " + key + " must be true or false");
            };
        }
    }
}
