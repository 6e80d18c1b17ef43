package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Keep;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How seed 002's buffered channels (mechanism spsc-ring) lay out a lock-dataflow plan, decided once for every target
 * that runs it. Every state field the kernel does not keep whole is folded into a ring of {@code capacity}
 * slots along the first dimension, and a write waits until every reader of the value it overwrites has finished: a
 * producer runs at most a ring ahead of its consumers (back-pressure), and a run holds {@code capacity} slots of such a
 * field, not the domain's.
 *
 * <p>1D: instances run in blocks of {@code block} (the shortest distance a channel crosses, so no instance waits for
 * one of its own block), dealt to workers in turn; a block waits for the {@code dataReach} blocks before it; the value
 * of instance i lives in slot (i + halo) mod capacity.
 *
 * <p>2D: workers own bands of columns and walk every row; a slot is a whole row ({@code block} is 1), row i in slot
 * (i + halo) mod capacity. A band waits, before a row, for its neighbours' rows that its reads reach, and for every
 * band to have finished the rows that read the row it overwrites; only a field kept as its last row or its final value
 * folds (its last column needs every row).
 *
 * <p>A folded field's reductions stream: each worker reduces the values of its block or band row as it finishes them,
 * into two words per reduction beside its counter ({@link #STREAMED_REDUCTIONS} at most; a field with more stays
 * whole), and the run combines the workers' partial reductions, which the order-free semantics of a reduction allows.
 *
 * @param rank       the domain's rank, 1 or 2
 * @param capacity   the ring's slots (instances in 1D, rows in 2D), a power of two
 * @param block      instances per block in 1D; 1 in 2D
 * @param dataReach  in 1D, how many blocks back a block's reads and channels reach (0: none)
 * @param folded     the state fields held in rings, by id
 * @param foldReach  how far back along the first dimension any read of a folded field reaches (its halo)
 * @param keptWhole  for each other state field, why it is kept whole
 */
public record RingFolding(int rank, int capacity, int block, int dataReach, List<Integer> folded, int foldReach,
                          List<String> keptWhole) {

    /** The most reductions that stream: two words each beside a worker's counter, in its cache line of eight. */
    public static final int STREAMED_REDUCTIONS = 3;
    /** The ring's length in 1D where the schedule names none: this many instances, or more where a block and its reads need it. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** The ring's length in 2D where the schedule names none: this many rows, or more where the reads need it. */
    public static final int DEFAULT_ROWS = 64;

    public RingFolding {
        folded = List.copyOf(folded);
        keptWhole = List.copyOf(keptWhole);
    }

    /**
     * The rings of {@code plan}'s 1D domain; empty with the reason where they cannot hold it: a capacity the schedule
     * names below a block and its reads' reach. A block is as long as the shortest distance a channel crosses (with
     * none, the plan's group size), as lock-dataflow's blocks are.
     */
    public static Result of(DataflowPlan plan) {
        KernelGraph graph = plan.graph();
        boolean rows = graph.rank() == 2;
        int block = rows ? 1 : plan.waits().stream().mapToInt(w -> Math.abs(w.vector()[0])).filter(d -> d > 0).min()
                .orElse(plan.lockChoices().groupSize());
        int waitReach = plan.waits().stream().mapToInt(w -> Math.abs(w.vector()[0])).max().orElse(0);
        List<Integer> folded = new ArrayList<>();
        List<String> keptWhole = new ArrayList<>();
        int foldReach = 0;
        int streamed = 0;
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            Keep keep = graph.kernel().keep(field.name());
            long reductions = graph.kernel().reductions().stream().filter(r -> r.field().equals(field.name())).count();
            if (keep == Keep.ALL) {
                keptWhole.add(field.name() + " is kept whole (keep ALL)");
            } else if (streamed + reductions > STREAMED_REDUCTIONS) {
                keptWhole.add(field.name() + " is reduced, and at most " + STREAMED_REDUCTIONS + " reductions stream beside a"
                        + " worker's counter; the others read every value after the run");
            } else if (rows && keep == Keep.LAST_COLUMN) {
                keptWhole.add(field.name() + " is kept as its last column, which every row adds to");
            } else if (field.haloHigh()[0] > 0) {
                keptWhole.add(field.name() + " is read ahead along the first dimension");
            } else {
                folded.add(field.id());
                foldReach = Math.max(foldReach, field.haloLow()[0]);
                streamed += (int) reductions;
            }
        }
        // 1D: a block and the values its reads reach; 2D: the rows a read reaches and the row written. No more: a band's
        // space wait on its own counter needs exactly that, and every other wait is for a band with fewer rows finished,
        // or for one to the west with no more, so no cycle of waits can form
        int needed = rows ? foldReach + 1 : block + foldReach;
        Optional<Integer> asked = plan.lockChoices().capacity();
        if (asked.isPresent() && !folded.isEmpty() && asked.get() < needed) {
            return new Result(Optional.empty(), Optional.of(rows
                    ? "a ring of " + asked.get() + " rows cannot hold the " + foldReach + " row(s) a read reaches back and"
                            + " the row being written; use capacity " + fitting(needed) + " or more"
                    : "a ring of " + asked.get() + " slots cannot hold a block of " + block + " instances and the " + foldReach
                            + " before it that its reads reach; use capacity " + fitting(needed) + " or more"));
        }
        int capacity = asked.orElse(Math.max(rows ? DEFAULT_ROWS : DEFAULT_CAPACITY, fitting(needed)));
        int dataReach = waitReach == 0 ? 0 : Math.ceilDiv(waitReach, block);
        return new Result(Optional.of(new RingFolding(graph.rank(), capacity, block, dataReach, folded, foldReach, keptWhole)),
                Optional.empty());
    }

    /** The smallest power of two that is at least {@code slots} (and at least 2). */
    private static int fitting(int slots) {
        return Math.max(2, Integer.highestOneBit(Math.max(1, slots - 1)) << 1);
    }

    /** The rings, or why there are none. */
    public record Result(Optional<RingFolding> rings, Optional<String> refusal) {}

    /**
     * The last block that must have finished before block {@code b} writes its slots (negative: none yet): block b's
     * instances [b B, (b + 1) B) take the slots of the values {@code capacity} before them, the latest of which, value
     * (b + 1) B - 1 - capacity, is read last by instance (b + 1) B - 1 - capacity + foldReach. In 2D a block is a row
     * (B = 1): every band must have finished the rows up to this one before any band writes row b.
     */
    public int lastReaderBefore(int b) {
        return Math.floorDiv(b * block + spaceOffset(), block);
    }

    /** {@link #lastReaderBefore} is floor((b B + this) / B), as the generated code computes it. */
    public int spaceOffset() {
        return block - 1 - capacity + foldReach;
    }

    public boolean folds(int field) {
        return folded.contains(field);
    }

    /**
     * The word of a worker's counter line where the k-th streamed reduction keeps the point of its partial result plus
     * one (0 before any value); the value is in the word after it. Word 0 is the counter.
     */
    public static int streamedWord(int k) {
        return 1 + 2 * k;
    }

    /** The reductions that stream, in the kernel's order: those of folded fields, each in its {@link #streamedWord}. */
    public List<dev.finegrain.dsl.ReductionSpec> streamed(KernelGraph graph) {
        return graph.kernel().reductions().stream().filter(r -> folds(graph.field(r.field()).id())).toList();
    }

    /** What a reader of the generated class should know: the blocks, the ring, and what folds or why not. */
    public String describe(KernelGraph graph) {
        StringBuilder text = new StringBuilder(rank == 2 ? "spsc-ring: each band waits for its neighbours' rows, rings of "
                + capacity + " rows; " : "spsc-ring: blocks of " + block + ", rings of " + capacity + " slots; ");
        if (folded.isEmpty()) {
            text.append("nothing folds, so no producer waits for space");
        } else {
            text.append("folded into a ring: ").append(String.join(", ", folded.stream().map(f -> graph.field(f).name()).toList()))
                    .append(" (reads reach ").append(foldReach).append(" back)");
        }
        if (!streamed(graph).isEmpty()) {
            text.append("; reductions streamed by each worker as it finishes its values: ")
                    .append(String.join(", ", streamed(graph).stream().map(dev.finegrain.dsl.ReductionSpec::name).toList()));
        }
        if (!keptWhole.isEmpty()) {
            text.append("; ").append(String.join("; ", keptWhole));
        }
        return text.toString();
    }
}
