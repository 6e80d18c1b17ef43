package dev.finegrain.runtime.jvm;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link StreamedReductions} of a band's row held in Farrar's striped layout (the generated code's striped rows): column c
 * of the row's {@code count} columns lies at {@code values[(c % segments) * lanes + c / segments]}, its point at
 * {@code firstPoint + c}; the slots past the last column ({@code segments * lanes - count} of them, in the last lanes)
 * hold values no point has, which the lanes leave out. Same semantics and words as {@link StreamedReductions}: a sum
 * wraps as the field's type does, an extreme keeps the first point that holds it. {@code lanes} is the generated
 * code's vector length: rows in the JVM's preferred shape reduce in its lanes (a constant species, which alone the
 * Vector API compiles to vector instructions), others column by column.
 */
public final class StripedReductions {

    private StripedReductions() {}

    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;

    /** The row's values reduced into the words; in vector lanes where the generated code's lanes are the JVM's preferred. */
    public static void ofInts(int[] values, int lanes, int segments, int count, long firstPoint, int kind, long[] words, int at) {
        if (count <= 0) {
            return;
        }
        if (lanes == INTS.length()) {
            inLanes(values, segments, count, firstPoint, kind, words, at);
            return;
        }
        // another shape (asked for at generation): column by column, as the lanes' species would not be a constant
        long result = values[0];
        int first = 0;
        for (int c = 1; c < count; c++) {
            int value = values[(c % segments) * lanes + c / segments];
            if (kind == StreamedReductions.SUM) {
                result = (int) (result + value);
            } else if (kind == StreamedReductions.MAX ? value > result : value < result) {
                result = value;
                first = c;
            }
        }
        merge(kind, result, first, firstPoint, words, at, true);
    }

    public static void ofLongs(long[] values, int lanes, int segments, int count, long firstPoint, int kind, long[] words, int at) {
        if (count <= 0) {
            return;
        }
        if (lanes == LONGS.length()) {
            inLanes(values, segments, count, firstPoint, kind, words, at);
            return;
        }
        long result = values[0];
        int first = 0;
        for (int c = 1; c < count; c++) {
            long value = values[(c % segments) * lanes + c / segments];
            if (kind == StreamedReductions.SUM) {
                result += value;
            } else if (kind == StreamedReductions.MAX ? value > result : value < result) {
                result = value;
                first = c;
            }
        }
        merge(kind, result, first, firstPoint, words, at, false);
    }

    /** A row's result (and, for an extreme, its first column) into the worker's words, as {@link StreamedReductions} keeps them. */
    private static void merge(int kind, long result, int first, long firstPoint, long[] words, int at, boolean ints) {
        if (kind == StreamedReductions.SUM) {
            words[at + 1] = words[at] == 0 ? result : ints ? (int) (words[at + 1] + result) : words[at + 1] + result;
            words[at] = words[at] == 0 ? firstPoint + 1 : words[at];
        } else if (words[at] == 0 || (kind == StreamedReductions.MAX ? result > words[at + 1] : result < words[at + 1])) {
            words[at] = firstPoint + first + 1;
            words[at + 1] = result;
        }
    }

    /** a op b, lane-wise, where m is set (a elsewhere), with a constant operator per branch, as the JIT needs. */
    private static IntVector combine(int kind, IntVector a, IntVector b, VectorMask<Integer> m) {
        return kind == StreamedReductions.SUM ? a.lanewise(VectorOperators.ADD, b, m)
                : kind == StreamedReductions.MAX ? a.lanewise(VectorOperators.MAX, b, m) : a.lanewise(VectorOperators.MIN, b, m);
    }

    private static LongVector combine(int kind, LongVector a, LongVector b, VectorMask<Long> m) {
        return kind == StreamedReductions.SUM ? a.lanewise(VectorOperators.ADD, b, m)
                : kind == StreamedReductions.MAX ? a.lanewise(VectorOperators.MAX, b, m) : a.lanewise(VectorOperators.MIN, b, m);
    }

    private static void inLanes(int[] values, int segments, int count, long firstPoint, int kind, long[] words, int at) {
        int lanes = INTS.length();
        int identity = kind == StreamedReductions.SUM ? 0 : kind == StreamedReductions.MAX ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        // lane l of vector s holds column l * segments + s: the vectors before `whole` hold columns only
        IntVector firstColumns = IntVector.zero(INTS).addIndex(segments);
        int whole = Math.max(0, count - (lanes - 1) * segments);
        IntVector reduced = IntVector.broadcast(INTS, identity);
        // the whole vectors in a loop of their own per kind: no mask, and a constant operator the JIT compiles to one instruction
        if (kind == StreamedReductions.SUM) {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.add(IntVector.fromArray(INTS, values, s * lanes));
            }
        } else if (kind == StreamedReductions.MAX) {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.max(IntVector.fromArray(INTS, values, s * lanes));
            }
        } else {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.min(IntVector.fromArray(INTS, values, s * lanes));
            }
        }
        for (int s = whole; s < segments; s++) {
            reduced = combine(kind, reduced, IntVector.fromArray(INTS, values, s * lanes), firstColumns.compare(VectorOperators.LT, count - s));
        }
        int result = kind == StreamedReductions.SUM ? reduced.reduceLanes(VectorOperators.ADD)
                : kind == StreamedReductions.MAX ? reduced.reduceLanes(VectorOperators.MAX) : reduced.reduceLanes(VectorOperators.MIN);
        int first = 0;
        if (kind != StreamedReductions.SUM && (words[at] == 0 || (kind == StreamedReductions.MAX ? result > words[at + 1] : result < words[at + 1]))) {
            first = count;
            for (int s = 0; s < segments; s++) {
                VectorMask<Integer> holds = IntVector.fromArray(INTS, values, s * lanes).compare(VectorOperators.EQ, result)
                        .and(firstColumns.compare(VectorOperators.LT, count - s));
                if (holds.anyTrue()) {
                    first = Math.min(first, holds.firstTrue() * segments + s);
                }
            }
        }
        merge(kind, result, first, firstPoint, words, at, true);
    }

    private static void inLanes(long[] values, int segments, int count, long firstPoint, int kind, long[] words, int at) {
        int lanes = LONGS.length();
        long identity = kind == StreamedReductions.SUM ? 0 : kind == StreamedReductions.MAX ? Long.MIN_VALUE : Long.MAX_VALUE;
        LongVector firstColumns = LongVector.zero(LONGS).addIndex(segments);
        int whole = Math.max(0, count - (lanes - 1) * segments);
        LongVector reduced = LongVector.broadcast(LONGS, identity);
        if (kind == StreamedReductions.SUM) {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.add(LongVector.fromArray(LONGS, values, s * lanes));
            }
        } else if (kind == StreamedReductions.MAX) {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.max(LongVector.fromArray(LONGS, values, s * lanes));
            }
        } else {
            for (int s = 0; s < whole; s++) {
                reduced = reduced.min(LongVector.fromArray(LONGS, values, s * lanes));
            }
        }
        for (int s = whole; s < segments; s++) {
            reduced = combine(kind, reduced, LongVector.fromArray(LONGS, values, s * lanes), firstColumns.compare(VectorOperators.LT, count - s));
        }
        long result = kind == StreamedReductions.SUM ? reduced.reduceLanes(VectorOperators.ADD)
                : kind == StreamedReductions.MAX ? reduced.reduceLanes(VectorOperators.MAX) : reduced.reduceLanes(VectorOperators.MIN);
        int first = 0;
        if (kind != StreamedReductions.SUM && (words[at] == 0 || (kind == StreamedReductions.MAX ? result > words[at + 1] : result < words[at + 1]))) {
            first = count;
            for (int s = 0; s < segments; s++) {
                VectorMask<Long> holds = LongVector.fromArray(LONGS, values, s * lanes).compare(VectorOperators.EQ, result)
                        .and(firstColumns.compare(VectorOperators.LT, count - s));
                if (holds.anyTrue()) {
                    first = Math.min(first, holds.firstTrue() * segments + s);
                }
            }
        }
        merge(kind, result, first, firstPoint, words, at, false);
    }
}
