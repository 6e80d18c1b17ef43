package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.dsl.WaitPolicy;

import java.util.Optional;

/**
 * What a wait policy (lock-dataflow's token waits, the wavefront's barrier polls) means on a GPU, decided here once for
 * both emitters (Stuart and Owens compare
 * spinning, spinning with backoff and sleeping): {@code ADAPTIVE} and {@code SPIN} spin, looking again at once (a GPU
 * thread has no scheduler to yield to); {@code BACKOFF} sleeps between looks with the hardware's nanosleep, from
 * {@link #FIRST_NAP_NS} doubling to {@link #MAX_NAP_NS}, afresh for every wait (each token waited for in turn, or
 * each critical-section loop, which tries all of a point's tokens together); {@code SLEEP} sleeps
 * {@link #SLEEP_NS} between looks. A sleeping warp issues nothing, leaving its SM's issue slots and the token's line to
 * the others. Both need a nanosleep instruction (Volta and later; the Hopper profiles' {@code feature.nanosleep}).
 */
public final class GpuWaits {
    /**
     * The first nap a backing-off wait asks for. Hopper sleeps at least 64 ns whatever is asked (measured on an H100
     * and an H200, docs/profiles.md), so there its first two naps are 64 ns.
     */
    public static final int FIRST_NAP_NS = 32;
    /** The longest nap of a backing-off wait: about seven L2-hit latencies on Hopper (280 cycles at 1980 MHz). */
    public static final int MAX_NAP_NS = 1024;
    /** A sleeping wait's nap. */
    public static final int SLEEP_NS = 1024;

    private GpuWaits() {
    }

    /** Whether waits under this policy nap between looks (rather than spin). */
    public static boolean naps(WaitPolicy policy) {
        return policy == WaitPolicy.BACKOFF || policy == WaitPolicy.SLEEP;
    }

    /** A napping wait's first nap: the backoff's shortest, or the sleep's one nap. */
    public static int firstNapNs(WaitPolicy policy) {
        return policy == WaitPolicy.BACKOFF ? FIRST_NAP_NS : SLEEP_NS;
    }

    /** A napping wait's longest nap (a sleeping wait keeps its first). */
    public static int mostNapNs(WaitPolicy policy) {
        return policy == WaitPolicy.BACKOFF ? MAX_NAP_NS : SLEEP_NS;
    }

    /** Why the target cannot wait this way, if it cannot. */
    public static Optional<String> unsupported(WaitPolicy policy, GpuTarget target) {
        return naps(policy) && !target.nanosleep()
                ? Optional.of("wait policy " + policy + " naps with nanosleep, which " + target.called() + " does not have"
                        + " (Volta and later, the Hopper profiles)")
                : Optional.empty();
    }

    /** Why a schedule's rows would repeat the default ones on a GPU: SPIN is what ADAPTIVE does there. */
    public static Optional<String> repeatsTheDefault(dev.finegrain.dsl.Schedule schedule) {
        Optional<WaitPolicy> policy = switch (schedule) {
            case dev.finegrain.dsl.Schedule.LockDataflow dataflow -> dataflow.waitPolicy();
            case dev.finegrain.dsl.Schedule.Wavefront wavefront -> wavefront.waitPolicy();
            default -> Optional.empty();
        };
        return policy.filter(p -> p == WaitPolicy.SPIN).isPresent()
                ? Optional.of("on a GPU the adaptive wait spins: wait policy spin repeats it") : Optional.empty();
    }

    /** The policy in words, for {@code show --gpu-plan}. */
    public static String describe(WaitPolicy policy) {
        return switch (policy) {
            case ADAPTIVE, SPIN -> "spin: look again at once";
            case BACKOFF -> "back off: nanosleep between looks, " + FIRST_NAP_NS + " ns doubling to " + MAX_NAP_NS
                    + " ns, afresh for every wait";
            case SLEEP -> "sleep: nanosleep " + SLEEP_NS + " ns between looks";
        };
    }
}
