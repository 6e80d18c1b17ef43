package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One simulation to run: the program (a file, or text with a name for messages), the profile, the launch shape and
 * the options of {@code finegrain sim}. Build it with {@link #builder}; every option has a default.
 *
 * @param file where the program is read from, or null when {@code source} is given
 * @param sourceName the name messages use for {@code source}
 * @param source the program text, or null to read {@code file}
 * @param profile the machine: a built-in profile or one read from a file, loaded when the request is built
 * @param blocks blocks in the grid
 * @param threadsPerBlock threads per block
 * @param mode the divergence mode, or null for the profile's default (fermi for Tesla/Fermi, its for Hopper)
 * @param maxCycles the run stops with {@link SimStatus#MAX_CYCLES} at this cycle
 * @param watchdogCycles a deadlock is declared when nothing changes for this many cycles
 * @param sharedBytesPerBlock each block's shared window; 0 for 16 KiB (or the SM's size when smaller)
 * @param lockBitsPerBlock lock bits each block claims for occupancy; -1 for one per thread when the program uses
 *     LDSLK or STSUL (seed 001's pattern), else none
 * @param globalBytes size of global memory
 * @param inits memory written before the kernel starts
 * @param dumps memory printed after the run
 * @param globalMemory memory owned by the caller that the run works on (its size replaces {@code globalBytes}),
 *     or null for fresh memory
 */
public record SimRequest(Path file, String sourceName, String source, SimtProfile profile, int blocks,
                         int threadsPerBlock, SimMode mode, long maxCycles, long watchdogCycles,
                         int sharedBytesPerBlock, int lockBitsPerBlock, int globalBytes, List<MemoryInit> inits,
                         List<DumpRange> dumps, GlobalMemory globalMemory) {

    public static final long DEFAULT_MAX_CYCLES = 10_000_000L;
    public static final long DEFAULT_WATCHDOG_CYCLES = 100_000L;
    public static final int DEFAULT_GLOBAL_BYTES = 1 << 20;

    public SimRequest {
        if ((file == null) == (source == null)) {
            throw new SimUserException("give either a program file or program text");
        }
        Objects.requireNonNull(profile, "profile");
        positive("blocks", blocks);
        positive("threads per block", threadsPerBlock);
        positive("max cycles", maxCycles);
        positive("watchdog cycles", watchdogCycles);
        if (globalMemory != null) {
            globalBytes = globalMemory.sizeBytes();
        }
        positive("global bytes", globalBytes);
        inits = List.copyOf(inits);
        dumps = List.copyOf(dumps);
    }

    private static void positive(String what, long value) {
        if (value <= 0) {
            throw new SimUserException(what + " must be positive, was " + value);
        }
    }

    /** The name messages and reports use for the program. */
    public String programName() {
        return file != null ? file.toString() : sourceName;
    }

    public static Builder builder(Path file) {
        return new Builder(file, null, null);
    }

    public static Builder builder(String sourceName, String source) {
        return new Builder(null, sourceName, source);
    }

    public Builder toBuilder() {
        Builder builder = new Builder(file, sourceName, source).profile(profile).blocks(blocks)
                .threads(threadsPerBlock).mode(mode).maxCycles(maxCycles).watchdogCycles(watchdogCycles)
                .sharedBytesPerBlock(sharedBytesPerBlock).lockBitsPerBlock(lockBitsPerBlock)
                .globalBytes(globalBytes).globalMemory(globalMemory);
        inits.forEach(builder::init);
        dumps.forEach(builder::dump);
        return builder;
    }

    /** Fills a {@link SimRequest}; defaults: fermi-gtx570, 1 block of 32 threads, the profile's mode. */
    public static final class Builder {
        private final Path file;
        private final String sourceName;
        private final String source;
        private String profileNameOrPath = "fermi-gtx570";
        private SimtProfile profile;
        private int blocks = 1;
        private int threads = 32;
        private SimMode mode;
        private long maxCycles = DEFAULT_MAX_CYCLES;
        private long watchdogCycles = DEFAULT_WATCHDOG_CYCLES;
        private int sharedBytesPerBlock;
        private int lockBitsPerBlock = -1;
        private int globalBytes = DEFAULT_GLOBAL_BYTES;
        private final List<MemoryInit> inits = new ArrayList<>();
        private final List<DumpRange> dumps = new ArrayList<>();
        private GlobalMemory globalMemory;

        private Builder(Path file, String sourceName, String source) {
            this.file = file;
            this.sourceName = sourceName;
            this.source = source;
        }

        /** A built-in profile name ({@code fermi-gtx570}, ...) or the path of a profile file, loaded by {@link #build}. */
        public Builder profile(String nameOrPath) {
            this.profileNameOrPath = nameOrPath;
            this.profile = null;
            return this;
        }

        /** A profile already loaded, for example one read from a file that a caller runs many launches with. */
        public Builder profile(SimtProfile loaded) {
            this.profile = Objects.requireNonNull(loaded, "profile");
            return this;
        }

        public Builder blocks(int count) {
            this.blocks = count;
            return this;
        }

        public Builder threads(int perBlock) {
            this.threads = perBlock;
            return this;
        }

        /** Null means the profile's default mode. */
        public Builder mode(SimMode divergenceMode) {
            this.mode = divergenceMode;
            return this;
        }

        public Builder maxCycles(long cycles) {
            this.maxCycles = cycles;
            return this;
        }

        public Builder watchdogCycles(long cycles) {
            this.watchdogCycles = cycles;
            return this;
        }

        public Builder sharedBytesPerBlock(int bytes) {
            this.sharedBytesPerBlock = bytes;
            return this;
        }

        public Builder lockBitsPerBlock(int bits) {
            this.lockBitsPerBlock = bits;
            return this;
        }

        public Builder globalBytes(int bytes) {
            this.globalBytes = bytes;
            return this;
        }

        /** Runs on memory the caller owns and keeps; see {@link GlobalMemory}. */
        public Builder globalMemory(GlobalMemory memory) {
            this.globalMemory = memory;
            return this;
        }

        public Builder init(MemoryInit init) {
            inits.add(init);
            return this;
        }

        public Builder dump(DumpRange range) {
            dumps.add(range);
            return this;
        }

        public SimRequest build() {
            if (profile == null && (profileNameOrPath == null || profileNameOrPath.isBlank())) {
                throw new SimUserException("no profile given (built in: " + String.join(", ", SimtProfile.BUILT_IN) + ")");
            }
            SimtProfile machine = profile != null ? profile : SimtProfile.load(profileNameOrPath);
            return new SimRequest(file, sourceName, source, machine, blocks, threads, mode, maxCycles,
                    watchdogCycles, sharedBytesPerBlock, lockBitsPerBlock, globalBytes, inits, dumps, globalMemory);
        }
    }
}
