package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.backend.jvm.tokens.JvmTokens;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.TokenRule;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the sync words of a dataflow variant live. SHARED channels use one word array per producer actor (one
 * token per producer instance, consumers take and restore it); PRIVATE channels one per channel (one token per
 * edge). PER_THREAD granularity has a word per actor instance, WARP_SHARED one per group of {@code group}
 * consecutive instances along the last dimension. The tiny-lock analogue keeps the ready bit in the data word
 * itself, so it has no word arrays at all; nor has a channel that needs no token ({@link #needsToken}).
 *
 * @param arrayOfChannel for each channel the plan waits on, the index of its word array, or -1 when it needs none
 * @param mutex          how a lock-holding mechanism takes its lock (the plan's choice)
 */
public record SyncLayout(LockMechanism mechanism, int group, boolean packed, List<Integer> arrayOfChannel, int arrays,
                         dev.finegrain.dsl.Mutex mutex) {

    public static final int NONE = -1;
    /** The JVM's mutex where the schedule names none: test-and-test-and-set. */
    public static final dev.finegrain.dsl.Mutex JVM_MUTEX = dev.finegrain.dsl.Mutex.TEST_AND_TEST_AND_SET;

    public SyncLayout {
        arrayOfChannel = List.copyOf(arrayOfChannel);
    }

    public static SyncLayout of(DataflowPlan plan, LockMechanism mechanism) {
        KernelGraph graph = plan.graph();
        List<IrChannel> waits = plan.waits();
        boolean packed = mechanism == LockMechanism.TINY_LOCK;
        boolean grouped = plan.lockChoices().granularityWith(mechanism) == LockGranularity.WARP_SHARED;
        int group = grouped ? plan.lockChoices().groupSize() : 1;
        List<Integer> arrayOfChannel = new ArrayList<>();
        List<String> arrays = new ArrayList<>();
        if (JvmTokens.countsBlocks(mechanism)) {
            // one counter per worker serves every channel and every ring
            waits.forEach(channel -> arrayOfChannel.add(needsToken(graph.rank(), channel) ? 0 : NONE));
            return new SyncLayout(mechanism, 1, false, arrayOfChannel, 1, plan.lockChoices().mutexOr(JVM_MUTEX));
        }
        for (int c = 0; c < waits.size(); c++) {
            IrChannel channel = waits.get(c);
            if (packed || !needsToken(graph.rank(), channel)) {
                arrayOfChannel.add(NONE);
                continue;
            }
            String key = channel.policy() == ChannelPolicy.SHARED ? "producer " + channel.producer() : "channel " + c;
            if (!arrays.contains(key)) {
                arrays.add(key);
            }
            arrayOfChannel.add(arrays.indexOf(key));
        }
        return new SyncLayout(mechanism, group, packed, arrayOfChannel, arrays.size(),
                plan.lockChoices().mutexOr(JVM_MUTEX));
    }

    /**
     * Workers own bands of columns ({@link TokenRule.Ownership#COLUMN_BAND}), so a channel within one point or one
     * column needs no token: such a channel gets no word array, since nothing would touch it.
     */
    public static boolean needsToken(int rank, IrChannel channel) {
        return TokenRule.needsToken(channel, rank, TokenRule.Ownership.COLUMN_BAND);
    }

    /** Whether the mechanism counts blocks and band rows, a counter per worker, rather than keeping a word per token. */
    public boolean countsBlocks() {
        return JvmTokens.countsBlocks(mechanism);
    }

    /** The mechanism's tokens, where it keeps words of its own (every mechanism but tiny-lock, whose bit is in the data). */
    public JvmTokens tokens() {
        return JvmTokens.of(mechanism, mutex).orElseThrow(() -> new IllegalStateException(mechanism + " keeps no words of its own"));
    }

    /** Why this backend cannot implement the mechanism for the graph, if it cannot. */
    public static Optional<String> unsupported(DataflowPlan plan, LockMechanism mechanism) {
        KernelGraph graph = plan.graph();
        dev.finegrain.dsl.WaitPolicy policy = plan.lockChoices().waitPolicy();
        if (policy != dev.finegrain.dsl.WaitPolicy.ADAPTIVE
                && !JvmTokens.of(mechanism).map(JvmTokens::followsWaitPolicy).orElse(true)) {
            return Optional.of(mechanism + " parks its waiters until their producer wakes them, so wait policy " + policy
                    + " does not apply to it (its rows would repeat the adaptive ones)");
        }
        boolean rings = JvmTokens.countsBlocks(mechanism);
        if (plan.lockChoices().capacity().isPresent() && !rings) {
            return Optional.of("capacity " + plan.lockChoices().capacity().get() + " sizes spsc-ring's rings, and " + mechanism
                    + " keeps a token per instance (its rows would repeat the ones without a capacity)");
        }
        if (rings) {
            if (graph.rank() > 2) {
                return Optional.of("spsc-ring rings the blocks of a 1D domain or the rows of a 2D one's bands; a 3D band's"
                        + " planes are not folded on the JVM, so use acquire-release there");
            }
            if (plan.lockChoices().warpShared()) {
                return Optional.of("spsc-ring counts whole blocks and rows, so it takes no warp-shared groups (use per-thread)");
            }
            dev.finegrain.compiler.plan.RingFolding.Result folding = dev.finegrain.compiler.plan.RingFolding.of(plan);
            if (folding.rings().isPresent() && folding.rings().get().folded().isEmpty() && plan.lockChoices().capacity().isPresent()) {
                return Optional.of("capacity " + plan.lockChoices().capacity().get() + " sizes the rings of the fields a kernel"
                        + " does not keep whole, and " + graph.name() + " keeps every state field whole (its rows would repeat"
                        + " the ones without a capacity; keep(field, FINAL) folds one)");
            }
            return folding.refusal();
        }
        dev.finegrain.dsl.Mutex mutex = plan.lockChoices().mutexOr(JVM_MUTEX);
        if (mutex != JVM_MUTEX
                && !JvmTokens.of(mechanism).map(JvmTokens::holdsALock).orElse(false)) {
            return Optional.of(mechanism + " holds no lock, so mutex " + mutex + " does not apply to it (its rows would"
                    + " repeat the default ones); the spin-locks take a mutex");
        }
        return switch (mechanism) {
            case TINY_LOCK -> graph.fields().stream().filter(f -> f.isState() && f.type() != dev.finegrain.dsl.Type.INT).findFirst()
                    .map(f -> "tiny-lock packs the ready bit beside a 32-bit int value, and state field '" + f.name() + "' is " + f.type())
                    .or(() -> plan.lockChoices().warpShared()
                            ? Optional.of("tiny-lock keeps one ready bit per data word, so it is per-thread only") : Optional.empty())
                    .or(() -> graph.channels().stream().anyMatch(c -> c.policy() == ChannelPolicy.PRIVATE)
                            ? Optional.of("tiny-lock keeps the token in the data word, so its channels are shared") : Optional.empty());
            case ACQUIRE_RELEASE_FLAG, ATOMIC_SPIN_LOCK, SHARED_SPIN_LOCK, BLOCKING, LOCK_BOX, SPSC_RING -> Optional.empty();
            case NAMED_BARRIER, WARP_VOTE, MBARRIER, MBARRIER_WARP -> Optional.of(mechanism + " is a GPU warp mechanism with no JVM analogue");
        };
    }
}
