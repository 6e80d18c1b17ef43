package dev.finegrain.runtime.jvm;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A worker's partial reduction of the values it finished, kept in two words of its own line of {@link RingCounters}'
 * array: {@code words[at]} the extreme's point plus one (0 before any value), {@code words[at + 1]} the value. The
 * values are read as a ring's slots, {@code (first + k) & mask} for the k-th of {@code count} values (first already in
 * the ring), whose points are {@code firstPoint + k}. Semantics as the oracle's: a sum wraps as the field's type does,
 * an extreme keeps the first point that holds it (a worker meets its points in increasing order, so a tie keeps the
 * one it has). Each contiguous run of slots is reduced in vector lanes (a plain loop ran seven times slower here: the
 * JIT left it scalar), and an extreme's point is searched for only where it beats the worker's. Only the worker that
 * owns the line writes these words; the run reads them after every worker has finished. The generated code that calls
 * this runs with the Vector API's module already, for its own lanes.
 */
public final class StreamedReductions {

    /** Reduction kinds, as the generated code passes them. */
    public static final int SUM = 0;
    public static final int MAX = 1;
    public static final int MIN = 2;

    private StreamedReductions() {}

    public static void ofInts(int[] values, int mask, int first, int count, long firstPoint, int kind, long[] words, int at) {
        int before = Math.min(count, mask == -1 ? count : mask + 1 - first);   // the slots up to the ring's end
        runOfInts(values, first, before, firstPoint, kind, words, at);
        runOfInts(values, 0, count - before, firstPoint + before, kind, words, at);
    }

    public static void ofLongs(long[] values, int mask, int first, int count, long firstPoint, int kind, long[] words, int at) {
        int before = Math.min(count, mask == -1 ? count : mask + 1 - first);
        runOfLongs(values, first, before, firstPoint, kind, words, at);
        runOfLongs(values, 0, count - before, firstPoint + before, kind, words, at);
    }

    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;

    private static void runOfInts(int[] values, int from, int count, long firstPoint, int kind, long[] words, int at) {
        if (count <= 0) {
            return;
        }
        int to = from + count;
        int k = from;
        VectorOperators.Associative op = kind == SUM ? VectorOperators.ADD : kind == MAX ? VectorOperators.MAX : VectorOperators.MIN;
        int identity = kind == SUM ? 0 : kind == MAX ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        IntVector lanes = IntVector.broadcast(INTS, identity);
        for (int bound = INTS.loopBound(count) + from; k < bound; k += INTS.length()) {
            lanes = lanes.lanewise(op, IntVector.fromArray(INTS, values, k));
        }
        int result = lanes.reduceLanes(op);
        for (; k < to; k++) {
            result = kind == SUM ? result + values[k] : kind == MAX ? Math.max(result, values[k]) : Math.min(result, values[k]);
        }
        if (kind == SUM) {
            words[at + 1] = words[at] == 0 ? result : (int) (words[at + 1] + result);
            words[at] = words[at] == 0 ? firstPoint + 1 : words[at];
        } else if (words[at] == 0 || (kind == MAX ? result > words[at + 1] : result < words[at + 1])) {
            words[at] = firstPoint + (firstIndexOf(values, from, to, result) - from) + 1;
            words[at + 1] = result;
        }
    }

    /** Where {@code value} first occurs in values[from, to), which holds it. */
    private static int firstIndexOf(int[] values, int from, int to, int value) {
        int k = from;
        for (int bound = INTS.loopBound(to - from) + from; k < bound; k += INTS.length()) {
            int lane = IntVector.fromArray(INTS, values, k).eq(value).firstTrue();
            if (lane < INTS.length()) {
                return k + lane;
            }
        }
        while (values[k] != value) {
            k++;
        }
        return k;
    }

    private static void runOfLongs(long[] values, int from, int count, long firstPoint, int kind, long[] words, int at) {
        if (count <= 0) {
            return;
        }
        int to = from + count;
        int k = from;
        VectorOperators.Associative op = kind == SUM ? VectorOperators.ADD : kind == MAX ? VectorOperators.MAX : VectorOperators.MIN;
        long identity = kind == SUM ? 0 : kind == MAX ? Long.MIN_VALUE : Long.MAX_VALUE;
        LongVector lanes = LongVector.broadcast(LONGS, identity);
        for (int bound = LONGS.loopBound(count) + from; k < bound; k += LONGS.length()) {
            lanes = lanes.lanewise(op, LongVector.fromArray(LONGS, values, k));
        }
        long result = lanes.reduceLanes(op);
        for (; k < to; k++) {
            result = kind == SUM ? result + values[k] : kind == MAX ? Math.max(result, values[k]) : Math.min(result, values[k]);
        }
        if (kind == SUM) {
            words[at + 1] = words[at] == 0 ? result : words[at + 1] + result;
            words[at] = words[at] == 0 ? firstPoint + 1 : words[at];
        } else if (words[at] == 0 || (kind == MAX ? result > words[at + 1] : result < words[at + 1])) {
            int first = from;
            while (values[first] != result) {
                first++;
            }
            words[at] = firstPoint + (first - from) + 1;
            words[at + 1] = result;
        }
    }
}
