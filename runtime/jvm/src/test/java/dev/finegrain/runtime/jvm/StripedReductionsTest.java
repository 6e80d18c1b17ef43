package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import org.junit.jupiter.api.Test;

/**
 * A striped row reduced as its columns in order would be: the slots past the last column (garbage here) left out, an
 * extreme's first column kept on ties (values drawn from a few, so ties are common), a sum wrapping as an int; rows of
 * the JVM's preferred lanes (reduced in vectors) and of other lanes (column by column), merged into words that already
 * hold a partial result.
 */
class StripedReductionsTest {

    @Test
    void aStripedRowReducesAsItsColumnsInOrder() {
        SplittableRandom random = new SplittableRandom(7);
        for (int lanes : new int[] {IntVector.SPECIES_PREFERRED.length(), 4}) {
            for (int count = 1; count < 300; count += 7) {
                int segments = Math.ceilDiv(count, lanes);
                int[] striped = random.ints(segments * lanes, -3, 4).toArray();
                int[] columns = new int[count];
                for (int c = 0; c < count; c++) {
                    columns[c] = striped[(c % segments) * lanes + c / segments];
                }
                for (int slot = 0; slot < striped.length; slot++) {
                    int c = slot % lanes * segments + slot / lanes;
                    if (c >= count) {
                        striped[slot] = random.nextBoolean() ? Integer.MAX_VALUE : Integer.MIN_VALUE;
                    }
                }
                for (int kind : new int[] {StreamedReductions.SUM, StreamedReductions.MAX, StreamedReductions.MIN}) {
                    long[] words = {0, 5, 1};
                    long[] expected = words.clone();
                    StreamedReductions.ofInts(columns, -1, 0, count, 100, kind, expected, 1);
                    StripedReductions.ofInts(striped, lanes, segments, count, 100, kind, words, 1);
                    assertArrayEquals(expected, words, "ints, " + lanes + " lanes, " + count + " columns, kind " + kind);
                }
            }
        }
        for (int lanes : new int[] {LongVector.SPECIES_PREFERRED.length(), 2}) {
            int count = 45;
            int segments = Math.ceilDiv(count, lanes);
            long[] striped = random.longs(segments * lanes, -2, 3).toArray();
            long[] columns = new long[count];
            for (int c = 0; c < count; c++) {
                columns[c] = striped[(c % segments) * lanes + c / segments];
            }
            for (int slot = 0; slot < striped.length; slot++) {
                if (slot % lanes * segments + slot / lanes >= count) {
                    striped[slot] = random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
                }
            }
            for (int kind : new int[] {StreamedReductions.SUM, StreamedReductions.MAX, StreamedReductions.MIN}) {
                long[] words = {0, 0, 0};
                long[] expected = words.clone();
                StreamedReductions.ofLongs(columns, -1, 0, count, 7, kind, expected, 1);
                StripedReductions.ofLongs(striped, lanes, segments, count, 7, kind, words, 1);
                assertArrayEquals(expected, words, "longs, " + lanes + " lanes, kind " + kind);
            }
        }
    }
}
