package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;

import java.util.List;
import java.util.Locale;

/**
 * A claim of Stuart and Owens' figure captions and §6, as a ratio of two primitives' rates on one of their GPUs and the
 * range that ratio must fall in for the claim to hold: at full scale, or at every block count from two up.
 *
 * @param family Tesla or Fermi
 * @param paper the claim in the paper's words
 * @param numerator the primitive whose rate is divided
 * @param denominator the primitive it is divided by
 * @param highInitial for semaphores: at the high initial value rather than the low one
 * @param above the ratio must be above this
 * @param atMost and at most this
 * @param everyScale whether it must hold at every block count from 2 up, not only at full scale
 */
public record PaperClaim(String family, String paper, String numerator, String denominator, boolean highInitial,
                         double above, double atMost, boolean everyScale) {

    public static final List<PaperClaim> ALL = List.of(
            new PaperClaim("Tesla", "The XF barrier is always faster than the two-stage atomic barrier (Figure 1)",
                    "xf-barrier", "atomic-barrier", false, 1, Double.MAX_VALUE, true),
            new PaperClaim("Fermi", "The XF barrier is always faster than the two-stage atomic barrier (Figure 1)",
                    "xf-barrier", "atomic-barrier", false, 1, Double.MAX_VALUE, true),
            new PaperClaim("Tesla", "The atomic barrier falls below 5 % of the XF barrier's rate (§6, at 60 blocks; judged here at full scale)",
                    "atomic-barrier", "xf-barrier", false, 0, 0.05, false),
            new PaperClaim("Fermi", "At full scale the atomic barrier runs at roughly 30 % of the XF barrier (§6)",
                    "atomic-barrier", "xf-barrier", false, 0.15, 0.45, false),
            new PaperClaim("Tesla", "FA outperforms the spin lock at scale (Figure 2)",
                    "fa-mutex", "spin-mutex", false, 1, Double.MAX_VALUE, false),
            new PaperClaim("Tesla", "Backoff helps the spin-lock mutex only slightly, 5-10 % (§6)",
                    "spin-mutex-backoff", "spin-mutex", false, 1, 1.3, false),
            new PaperClaim("Fermi", "Backoff gives the spin-lock mutex about 45 % at scale (§6)",
                    "spin-mutex-backoff", "spin-mutex", false, 1.2, 2.0, false),
            new PaperClaim("Fermi", "The FA mutex runs at roughly half the rate of the spin lock with backoff (§6)",
                    "fa-mutex", "spin-mutex-backoff", false, 0.3, 0.7, false),
            new PaperClaim("Tesla", "Backoff makes the spin-lock semaphore more than 10x faster at scale (§6)",
                    "spin-semaphore-backoff", "spin-semaphore", false, 10, Double.MAX_VALUE, false),
            new PaperClaim("Fermi", "Backoff makes the spin-lock semaphore slower than without (Figure 3)",
                    "spin-semaphore-backoff", "spin-semaphore", false, 0, 1, false),
            new PaperClaim("Fermi", "At a high initial value the sleeping semaphore is many times faster than the"
                    + " spin-lock semaphore (§6: 60x at 120)", "sleeping-semaphore", "spin-semaphore", true, 10,
                    Double.MAX_VALUE, false));

    /** The measured ratio, described, and whether it holds; empty when the rows lack the two primitives. */
    public record Verdict(String measured, boolean holds) {
    }

    public java.util.Optional<Verdict> judge(PrimitiveFindings findings) {
        // rows carry 0 for a barrier, 1 for a mutex, and a semaphore's initial value
        int initial = switch (SyncPrimitive.named(numerator).orElseThrow().kind()) {
            case BARRIER -> 0;
            case MUTEX -> 1;
            case SEMAPHORE -> findings.initial(highInitial);
        };
        List<double[]> ratios = findings.ratios(numerator, denominator, initial);
        if (everyScale) {
            ratios = ratios.stream().filter(r -> r[0] >= 2).toList();
        }
        if (ratios.isEmpty()) {
            return java.util.Optional.empty();
        }
        if (!everyScale) {
            double atScale = ratios.getLast()[1];
            return java.util.Optional.of(new Verdict(String.format(Locale.ROOT, "%.3g", atScale),
                    atScale > above && atScale <= atMost));
        }
        double least = ratios.stream().mapToDouble(r -> r[1]).min().orElseThrow();
        return java.util.Optional.of(new Verdict(String.format(Locale.ROOT, "least ratio %.2f over %d block counts",
                least, ratios.size()), least > above && least <= atMost));
    }
}
