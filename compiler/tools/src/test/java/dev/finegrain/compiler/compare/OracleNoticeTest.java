package dev.finegrain.compiler.compare;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A command says it is computing the oracle of a large size, and says nothing for a small one. */
class OracleNoticeTest {

    @Test
    void aLargeSizeGetsOneLineASmallOneNone() {
        StringWriter text = new StringWriter();
        PrintWriter progress = new PrintWriter(text);
        OracleNotice.before(progress, new int[] {16384, 16383}, "which checks its rows");
        assertEquals("", text.toString(), "2^28 points less a row: quiet");
        OracleNotice.before(progress, new int[] {65536, 65536}, "which checks its rows");
        assertEquals("finegrain: computing the sequential oracle for size 65536x65536 (4294967296 points), which checks its"
                + " rows: one point at a time, minutes from 2^30 points on" + System.lineSeparator(), text.toString());
        OracleNotice.before(null, new int[] {65536, 65536}, "no one to tell");
    }
}
