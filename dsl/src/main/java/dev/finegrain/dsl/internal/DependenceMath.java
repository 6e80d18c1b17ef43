package dev.finegrain.dsl.internal;



import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * Integer-vector facts about dependence distances, shared by the DSL's checks and the compiler's analyses.
 * A dependence vector d means: the instance at point p needs the value produced at p - d.
 */
public final class DependenceMath {

    /**
     * Hyperplane coefficients are searched in [-BOUND, BOUND]; beyond that only lexicographically positive sets get
     * one (the steep hyperplane), so a skewed set needing larger coefficients is reported as having none.
     */
    private static final int SEARCH_BOUND = 8;

    private DependenceMath() {}

    public static boolean isZero(int[] vector) {
        return Arrays.stream(vector).allMatch(c -> c == 0);
    }

    /** True when the first non-zero component is positive: p - d comes before p in lexicographic order. */
    public static boolean isLexicographicallyPositive(int[] vector) {
        for (int component : vector) {
            if (component != 0) {
                return component > 0;
            }
        }
        return false;
    }

    public static int dot(int[] a, int[] b) {
        int sum = 0;
        for (int k = 0; k < a.length; k++) {
            sum += a[k] * b[k];
        }
        return sum;
    }

    /**
     * A Lamport hyperplane for the non-zero vectors: integer h with h.d >= 1 for every d, so the points with
     * h.p = t depend only on points of smaller t. Prefers the smallest sum of |h| and then non-negative
     * coefficients, which gives NW's (1,1). Empty when none exists within the search bound and the vectors are
     * not all lexicographically positive (for those a steep hyperplane exists, returned while its coefficients stay
     * small enough for index arithmetic in int).
     */
    public static Optional<int[]> findHyperplane(int rank, Collection<int[]> vectors) {
        int[][] nonZero = vectors.stream().filter(v -> !isZero(v)).toArray(int[][]::new);
        int[] best = null;
        int[] candidate = new int[rank];
        Arrays.fill(candidate, -SEARCH_BOUND);
        do {
            if (satisfiesAll(candidate, nonZero) && isBetter(candidate, best)) {
                best = candidate.clone();
            }
        } while (next(candidate));
        if (best != null) {
            return Optional.of(best);
        }
        if (Arrays.stream(nonZero).allMatch(DependenceMath::isLexicographicallyPositive)) {
            return steepHyperplane(rank, nonZero);
        }
        return Optional.empty();
    }

    private static boolean satisfiesAll(int[] h, int[][] vectors) {
        if (isZero(h)) {
            return false;
        }
        for (int[] d : vectors) {
            if (dot(h, d) < 1) {
                return false;
            }
        }
        return true;
    }

    private static boolean isBetter(int[] candidate, int[] best) {
        if (best == null) {
            return true;
        }
        int candidateCost = Arrays.stream(candidate).map(Math::abs).sum();
        int bestCost = Arrays.stream(best).map(Math::abs).sum();
        if (candidateCost != bestCost) {
            return candidateCost < bestCost;
        }
        long candidateNegatives = Arrays.stream(candidate).filter(c -> c < 0).count();
        long bestNegatives = Arrays.stream(best).filter(c -> c < 0).count();
        return candidateNegatives < bestNegatives;
    }

    private static boolean next(int[] counter) {
        for (int k = counter.length - 1; k >= 0; k--) {
            if (counter[k] < SEARCH_BOUND) {
                counter[k]++;
                return true;
            }
            counter[k] = -SEARCH_BOUND;
        }
        return false;
    }

    /** h = (K^(n-1), ..., K, 1) with K above every |component|: dominated by the first non-zero component. */
    private static Optional<int[]> steepHyperplane(int rank, int[][] vectors) {
        long k = 1 + (long) Arrays.stream(vectors).flatMapToInt(Arrays::stream).map(Math::abs).max().orElse(0) * rank;
        int[] h = new int[rank];
        long weight = 1;
        for (int d = rank - 1; d >= 0; d--) {
            if (weight * k > Integer.MAX_VALUE / 1024) {
                return Optional.empty();
            }
            h[d] = (int) weight;
            weight *= k;
        }
        return Optional.of(h);
    }

    public static String format(int[] vector) {
        StringBuilder text = new StringBuilder("(");
        for (int k = 0; k < vector.length; k++) {
            text.append(k == 0 ? "" : ",").append(vector[k]);
        }
        return text.append(')').toString();
    }
}
