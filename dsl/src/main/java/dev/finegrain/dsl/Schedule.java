package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.Diagnostics;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to order a kernel's actor instances, kept apart from the kernel itself (Halide's algorithm/schedule
 * split): one kernel, many schedules. Create with {@link Finegrain#wavefront()}, {@link Finegrain#lockDataflow()}
 * and {@link Finegrain#dataParallel(int...)}; the compiler lowers each to an execution plan.
 */
public sealed interface Schedule {

    /** The name used on the command line and in reports. */
    String cliName();

    /** The same schedule spelled in full for a kernel of {@code rank} dimensions (a tile gets one extent per dimension). */
    default Schedule normalized(int rank) {
        return this;
    }

    /**
     * Lamport hyperplane steps: all points of one step in parallel, a barrier between steps: {@code barrier}, or the
     * target's default; its waiters pass the time as {@code waitPolicy} says (adaptive when empty), as lock-dataflow's
     * token waits do.
     */
    record Wavefront(Optional<GridBarrier> barrier, Optional<WaitPolicy> waitPolicy) implements Schedule {

        public Wavefront {
            Objects.requireNonNull(barrier, "barrier");
            Objects.requireNonNull(waitPolicy, "waitPolicy");
        }

        /** The wavefront with the target's default barrier between steps. */
        public Wavefront() {
            this(Optional.empty(), Optional.empty());
        }

        /** The same wavefront whose workers (a GPU's blocks, the JVM's threads) meet at {@code gridBarrier} between steps. */
        public Wavefront barrier(GridBarrier gridBarrier) {
            return new Wavefront(Optional.of(Objects.requireNonNull(gridBarrier, "gridBarrier")), waitPolicy);
        }

        /** The same wavefront whose barrier waiters spin, back off or sleep as {@code policy} says. */
        public Wavefront waitPolicy(WaitPolicy policy) {
            return new Wavefront(barrier, Optional.of(Objects.requireNonNull(policy, "policy")));
        }

        @Override
        public String cliName() {
            return barrier.map(b -> "wavefront:" + b.cliName()).orElse("wavefront");
        }
    }

    /**
     * Every actor instance fires as soon as the tokens of its channels are ready; no global barrier. The lock
     * choices left empty come from the kernel ({@link Kernel.Builder#mechanism}, {@link Kernel.Builder#granularity},
     * {@link Kernel.Builder#channelPolicy}); a choice made here overrides the kernel's (the compiler's plan decides the
     * lock choices once, from both), e.g.
     * {@code lockDataflow().mechanism(TINY_LOCK).warpShared(32)}. A channel policy given here replaces the kernel's
     * default policy; a per-channel override declared on the kernel still wins for its channel.
     *
     * <p>{@link #persistent()} asks for one launch for the whole domain in which each worker owns a band of the last
     * dimension across all rows (on a GPU a warp, one lane per column, walking the band's rows in lockstep), so
     * that only channels that cross a band's edge carry tokens. Without it a GPU maps seed 001's structure: one
     * thread per point of a tile, one launch per block-diagonal of tiles. The JVM backend's workers own bands for
     * the whole run either way. {@link #columnsPerLane(int)} widens a persistent band's lanes.
     */
    record LockDataflow(Optional<LockMechanism> mechanism, Optional<LockGranularity> granularity,
                        Optional<Integer> groupSize, Optional<ChannelPolicy> channelPolicy, boolean persistentLaunch,
                        boolean interleavedChains, Optional<WaitPolicy> waitPolicy, Optional<Mutex> mutex,
                        Optional<Integer> capacity, Optional<Integer> laneColumns)
            implements Schedule {

        public LockDataflow {
            Objects.requireNonNull(mechanism, "mechanism");
            Objects.requireNonNull(granularity, "granularity");
            Objects.requireNonNull(groupSize, "groupSize");
            Objects.requireNonNull(channelPolicy, "channelPolicy");
            Objects.requireNonNull(waitPolicy, "waitPolicy");
            Objects.requireNonNull(mutex, "mutex");
            Objects.requireNonNull(capacity, "capacity");
            Objects.requireNonNull(laneColumns, "laneColumns");
        }

        public LockDataflow(Optional<LockMechanism> mechanism, Optional<LockGranularity> granularity,
                            Optional<Integer> groupSize, Optional<ChannelPolicy> channelPolicy, boolean persistentLaunch,
                            boolean interleavedChains, Optional<WaitPolicy> waitPolicy, Optional<Mutex> mutex) {
            this(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, interleavedChains, waitPolicy, mutex,
                    Optional.empty(), Optional.empty());
        }

        public LockDataflow(Optional<LockMechanism> mechanism, Optional<LockGranularity> granularity,
                            Optional<Integer> groupSize, Optional<ChannelPolicy> channelPolicy, boolean persistentLaunch) {
            this(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, false, Optional.empty(), Optional.empty());
        }

        /** No choices of its own: the kernel's lock choices apply. */
        public LockDataflow() {
            this(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, false, Optional.empty(),
                    Optional.empty());
        }

        /** How a waiter passes the time until its token comes ({@link WaitPolicy}; default adaptive). */
        public LockDataflow waitPolicy(WaitPolicy policy) {
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, interleavedChains,
                    Optional.of(Objects.requireNonNull(policy, "policy")), mutex, capacity, laneColumns);
        }

        /** How the mechanisms that hold a lock take it ({@link Mutex}; default test-and-test-and-set). */
        public LockDataflow mutex(Mutex kind) {
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, interleavedChains,
                    waitPolicy, Optional.of(Objects.requireNonNull(kind, "mutex")), capacity, laneColumns);
        }

        @Override
        public String cliName() {
            return "lock-dataflow" + (persistentLaunch ? ":persistent" : "") + (interleavedChains ? ":interleaved" : "")
                    + laneColumns.map(c -> ":columns=" + c).orElse("") + capacity.map(k -> ":capacity=" + k).orElse("");
        }

        /** One launch for the whole domain, workers owning bands of columns (see the class comment). */
        public LockDataflow persistent() {
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, true, interleavedChains, waitPolicy, mutex, capacity, laneColumns);
        }

        /**
         * A chain's instances dealt to the workers in turn, one each, rather than all run by one worker: each worker's
         * independent work (the folds that read no state) then runs beside the others', while the chain's links pass
         * from worker to worker through their tokens. Seed 003's efficiency loop; whether it pays depends on the work
         * per link ({@code finegrain breakeven}). It changes where a rank-1 chain runs on the JVM and nothing else: on a
         * GPU every instance is a thread of its own already.
         */
        public LockDataflow interleaved() {
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, true, waitPolicy, mutex, capacity, laneColumns);
        }

        /** Implements channels with {@code lockMechanism}, whatever the kernel names. */
        public LockDataflow mechanism(LockMechanism lockMechanism) {
            return new LockDataflow(Optional.of(Objects.requireNonNull(lockMechanism, "mechanism")), granularity,
                    groupSize, channelPolicy, persistentLaunch, interleavedChains, waitPolicy, mutex, capacity, laneColumns);
        }

        /** One sync word per actor instance. */
        public LockDataflow perThread() {
            return new LockDataflow(mechanism, Optional.of(LockGranularity.PER_THREAD), Optional.empty(), channelPolicy, persistentLaunch,
                    interleavedChains, waitPolicy, mutex, capacity, laneColumns);
        }

        /** One sync word per group of {@code size} consecutive actor instances (a warp of 32 on a GPU). */
        public LockDataflow warpShared(int size) {
            if (size < 1) {
                throw Diagnostics.badScheduleGroupSize(size, CallSite.capture());
            }
            return new LockDataflow(mechanism, Optional.of(LockGranularity.WARP_SHARED), Optional.of(size), channelPolicy,
                    persistentLaunch, interleavedChains, waitPolicy, mutex, capacity, laneColumns);
        }

        /** The policy of every channel the kernel does not override one by one. */
        public LockDataflow channels(ChannelPolicy policy) {
            return new LockDataflow(mechanism, granularity, groupSize, Optional.of(Objects.requireNonNull(policy, "policy")),
                    persistentLaunch, interleavedChains, waitPolicy, mutex, capacity, laneColumns);
        }

        /**
         * The slots of each ring of {@link LockMechanism#SPSC_RING spsc-ring}: how many actor instances a producer may
         * run ahead of the consumers of a field the kernel does not keep whole, and so how many of its values a run
         * holds. A power of two from 2 to 2^24 (a slot is an index's low bits); without it the ring holds 1024
         * instances, or the smallest power of two that holds a block and its reads where that is more. It sizes the
         * rings only: under another mechanism a variant that names it is skipped with the reason.
         */
        public LockDataflow capacity(int slots) {
            if (slots < 2 || slots > 1 << 24 || Integer.bitCount(slots) != 1) {
                throw Diagnostics.badRingCapacity(slots, CallSite.capture());
            }
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, interleavedChains,
                    waitPolicy, mutex, Optional.of(slots), laneColumns);
        }

        /** The widths a lane may have: one column, or an even number, which keeps a band's padded ring rows conflict-free. */
        static final java.util.Set<Integer> LANE_COLUMNS = java.util.Set.of(1, 2, 4, 8);

        /**
         * The columns each lane of a persistent band owns, side by side: 1 (the default), 2, 4 or 8. A wider lane
         * computes more points per step and per shuffle, and the run has fewer bands to pass the edge along; on the
         * GPU targets only (the JVM's workers own bands of their own width).
         */
        public LockDataflow columnsPerLane(int columns) {
            if (!persistentLaunch || !LANE_COLUMNS.contains(columns)) {
                throw Diagnostics.badLaneColumns(columns, persistentLaunch, CallSite.capture());
            }
            return new LockDataflow(mechanism, granularity, groupSize, channelPolicy, persistentLaunch, interleavedChains,
                    waitPolicy, mutex, capacity, Optional.of(columns));
        }

        /** The mechanism a single run uses when none is asked for: this schedule's, else the kernel's. */
        public Optional<LockMechanism> mechanismFor(Kernel kernel) {
            return mechanism.or(kernel::mechanism);
        }
    }

    /**
     * Rodinia's structure: the domain is cut into tiles (one extent per dimension, or one for all); a tile runs
     * sequentially, the tiles of one block-diagonal run in parallel, a barrier between block-diagonals.
     */
    record DataParallel(List<Integer> tile) implements Schedule {
        /** @throws IllegalArgumentException unless the tile has one to three extents, each positive */
        public DataParallel {
            tile = List.copyOf(tile);
            if (tile.isEmpty() || tile.size() > 3 || tile.stream().anyMatch(extent -> extent < 1)) {
                throw new IllegalArgumentException("tile extents must be positive, one for all dimensions or one per "
                        + "dimension (at most 3), e.g. data-parallel:16 or data-parallel:32x8");
            }
        }

        @Override
        public String cliName() {
            return tile.stream().map(String::valueOf).reduce((a, b) -> a + "x" + b)
                    .map(extent -> "data-parallel:" + extent).orElse("data-parallel");
        }

        /** The tile extent along dimension d of a kernel of the given rank. */
        public int extent(int dimension, int rank) {
            return tile.size() == 1 ? tile.getFirst() : tile.get(dimension);
        }

        @Override
        public Schedule normalized(int rank) {
            if (tile.size() != 1 || rank == 1) {
                return this;
            }
            Integer[] extents = new Integer[rank];
            Arrays.fill(extents, tile.getFirst());
            return new DataParallel(List.of(extents));
        }
    }

    /**
     * Dynamic dataflow (seed 002): the domain is cut into tiles as {@link DataParallel} cuts it; each tile holds a join
     * counter of its unfinished neighbours below it (one step back along any set of dimensions), a worker that finishes
     * a tile counts it off its neighbours above and puts those that reach zero into the {@link ReadyQueue}, and idle
     * workers take from it. No barrier: a tile runs as soon as what it reads is written, whichever block-diagonal it is
     * on. {@code ready} empty takes the target's default ({@link ReadyQueue#WORK_STEALING} on the JVM,
     * {@link ReadyQueue#RING} on the GPU targets). A tile of 1 makes every actor instance a task of its own.
     */
    record DynamicDataflow(List<Integer> tile, Optional<ReadyQueue> ready) implements Schedule {
        /** @throws IllegalArgumentException unless the tile has one to three extents, each positive */
        public DynamicDataflow {
            tile = List.copyOf(tile);
            Objects.requireNonNull(ready, "ready");
            if (tile.isEmpty() || tile.size() > 3 || tile.stream().anyMatch(extent -> extent < 1)) {
                throw new IllegalArgumentException("tile extents must be positive, one for all dimensions or one per "
                        + "dimension (at most 3), e.g. dynamic-dataflow:16 or dynamic-dataflow:32x8");
            }
        }

        /** Tiles of 16 along every dimension, the default ready structure. */
        public DynamicDataflow() {
            this(List.of(16), Optional.empty());
        }

        /** The same schedule with tiles of {@code extents} (one for all dimensions, or one per dimension). */
        public DynamicDataflow tile(int... extents) {
            return new DynamicDataflow(Arrays.stream(extents).boxed().toList(), ready);
        }

        /** The same schedule keeping ready tiles in {@code queue}. */
        public DynamicDataflow ready(ReadyQueue queue) {
            return new DynamicDataflow(tile, Optional.of(Objects.requireNonNull(queue, "queue")));
        }

        @Override
        public String cliName() {
            return "dynamic-dataflow:" + tile.stream().map(String::valueOf).reduce((a, b) -> a + "x" + b).orElseThrow()
                    + ready.map(q -> ":" + q.cliName()).orElse("");
        }

        /** The tiles, as the data-parallel schedule over the same tiles names them. */
        public DataParallel tiles() {
            return new DataParallel(tile);
        }

        @Override
        public Schedule normalized(int rank) {
            List<Integer> extents = ((DataParallel) tiles().normalized(rank)).tile();
            return extents.equals(tile) ? this : new DynamicDataflow(extents, ready);
        }
    }

    /**
     * Parses a command-line spelling: {@code wavefront} (or {@code wavefront:xf}, {@code :atomic}, {@code :cooperative}, {@code :relaunch}), {@code lock-dataflow}, {@code lock-dataflow:persistent},
     * {@code lock-dataflow:interleaved}, any of these with {@code :capacity=K} (spsc-ring's slots), the persistent ones
     * with {@code :columns=C} (columns per lane),
     * {@code data-parallel} (tile 16)
     * or {@code data-parallel:B} / {@code data-parallel:BxB}, {@code dynamic-dataflow} (tile 16, work-stealing) or
     * {@code dynamic-dataflow:B[xC][:READY]} / {@code dynamic-dataflow:READY} with READY one of {@link ReadyQueue}'s.
     *
     * @throws IllegalArgumentException for a data-parallel tile with an extent of 0 or more than three extents
     */
    static Optional<Schedule> parse(String text) {
        int lanes = text.indexOf(":columns=");
        if (text.startsWith("lock-dataflow") && lanes > 0) {
            String rest = text.substring(lanes + ":columns=".length());
            int end = rest.indexOf(':');
            String columns = end < 0 ? rest : rest.substring(0, end);
            if (!columns.matches("[0-9]{1,2}")) {
                return Optional.empty();
            }
            int c = Integer.parseInt(columns);
            String base = text.substring(0, lanes) + (end < 0 ? "" : rest.substring(end));
            if (!base.startsWith("lock-dataflow:persistent") || !LockDataflow.LANE_COLUMNS.contains(c)) {
                throw new IllegalArgumentException("columns per lane are 1, 2, 4 or 8 of lock-dataflow:persistent's bands, not "
                        + text + "; use e.g. lock-dataflow:persistent:columns=4");
            }
            return parse(base).map(schedule -> ((LockDataflow) schedule).columnsPerLane(c));
        }
        int ring = text.indexOf(":capacity=");
        if (text.startsWith("lock-dataflow") && ring > 0) {
            String slots = text.substring(ring + ":capacity=".length());
            if (!slots.matches("[0-9]{1,8}")) {
                return Optional.empty();
            }
            int k = Integer.parseInt(slots);
            if (k < 2 || k > 1 << 24 || Integer.bitCount(k) != 1) {
                throw new IllegalArgumentException("a ring's capacity is a power of two from 2 to 16777216 (a slot is an"
                        + " index's low bits), not " + k + "; use e.g. :capacity=1024");
            }
            return parse(text.substring(0, ring)).map(base -> ((LockDataflow) base).capacity(k));
        }
        return switch (text) {
            case "wavefront" -> Optional.of(new Wavefront());
            case "wavefront:atomic", "wavefront:xf", "wavefront:cooperative", "wavefront:relaunch",
                 "wavefront:dissemination" -> Optional.of(new Wavefront()
                    .barrier(GridBarrier.fromCliName(text.substring("wavefront:".length())).orElseThrow()));
            case "lock-dataflow" -> Optional.of(new LockDataflow());
            case "lock-dataflow:persistent" -> Optional.of(new LockDataflow().persistent());
            case "lock-dataflow:interleaved" -> Optional.of(new LockDataflow().interleaved());
            case "lock-dataflow:persistent:interleaved" -> Optional.of(new LockDataflow().persistent().interleaved());
            case "data-parallel" -> Optional.of(new DataParallel(List.of(16)));
            default -> text.startsWith("dynamic-dataflow") ? parseDynamicDataflow(text) : parseDataParallel(text);
        };
    }

    /** {@code dynamic-dataflow[:TILE][:READY]}: tiles as data-parallel spells them, a ready structure by name. */
    private static Optional<Schedule> parseDynamicDataflow(String text) {
        String[] parts = text.split(":", -1);
        if (!parts[0].equals("dynamic-dataflow") || parts.length > 3) {
            return Optional.empty();
        }
        DynamicDataflow schedule = new DynamicDataflow();
        for (int k = 1; k < parts.length; k++) {
            Optional<ReadyQueue> queue = ReadyQueue.fromCliName(parts[k]);
            if (queue.isPresent() && k == parts.length - 1) {
                schedule = schedule.ready(queue.get());
            } else if (k == 1 && parts[k].matches("[0-9]{1,6}(x[0-9]{1,6})*")) {
                schedule = new DynamicDataflow(Arrays.stream(parts[k].split("x")).map(Integer::parseInt).toList(),
                        schedule.ready());
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(schedule);
    }

    /** A tile of zero, or of more than three extents, is a data-parallel schedule spelled wrong: its constructor says so. */
    private static Optional<Schedule> parseDataParallel(String text) {
        String prefix = "data-parallel:";
        if (!text.startsWith(prefix) || !text.substring(prefix.length()).matches("[0-9]{1,6}(x[0-9]{1,6})*")) {
            return Optional.empty();
        }
        List<Integer> tile = Arrays.stream(text.substring(prefix.length()).split("x"))
                .map(Integer::parseInt).toList();
        return Optional.of(new DataParallel(tile));
    }
}
