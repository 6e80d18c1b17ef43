package dev.finegrain.compiler.compare;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The terminal's progress bar: rows done, the row running, the time left, in one line redrawn in place. */
class ProgressBarTest {

    @Test
    void theLineSaysRowsDoneTheTimeLeftAndTheRowRunning() {
        assertEquals("[#####...............] 15/60 rows, about 1 min 30 s left: nw 256x256 wavefront jvm (+1)",
                ProgressBar.line(15, 60, 30_000_000_000L, List.of("nw 256x256 wavefront jvm", "nw 256x256 lock-dataflow jvm"), 100),
                "30 s for 15 rows: 90 s for the 45 to go");
        assertEquals("[....................] 0/4 rows: k 64 wavefront jvm", ProgressBar.line(0, 4, 5, List.of("k 64 wavefront jvm"), 100),
                "no estimate before a row has finished");
        assertEquals("[####################] 4/4 rows", ProgressBar.line(4, 4, 5, List.of(), 100));
    }

    @Test
    void aLongLineIsCutToTheTerminalsWidth() {
        String line = ProgressBar.line(1, 3, 1_000_000_000L, List.of("x".repeat(200)), 79);
        assertEquals(79, line.length());
        assertTrue(line.endsWith("…"), line);
    }

    @Test
    void timesAreSaidAsPeopleSayThem() {
        assertEquals(List.of("1 s", "40 s", "3 min 10 s", "1 h 5 min"), List.of(ProgressBar.duration(1), ProgressBar.duration(40_000_000_000L),
                ProgressBar.duration(190_000_000_000L), ProgressBar.duration(3_900_000_000_000L)));
    }

    @Test
    void aRowThatFailsStaysAboveTheBarWhichIsRedrawnInPlace() {
        StringWriter text = new StringWriter();
        long[] now = {0};
        ProgressBar bar = new ProgressBar(new PrintWriter(text), 2, 80, () -> now[0]);
        bar.started("k 64 wavefront jvm");
        now[0] = 2_000_000_000L;
        bar.finished("k 64 wavefront jvm", "[1/2 done] k 64 wavefront jvm: failed: a stalled wait");
        bar.close();
        assertEquals("\r[....................] 0/2 rows: k 64 wavefront jvm\033[K"
                + "\r\033[K[1/2 done] k 64 wavefront jvm: failed: a stalled wait\n"
                + "\r[##########..........] 1/2 rows, about 2 s left\033[K"
                + "\r\033[K", text.toString().replace(System.lineSeparator(), "\n"));
    }
}
