package dev.finegrain.gpu.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a run of launches costs: serial overheads, or a pipelined stream of submissions. */
class SimtLaunchStreamTest {
    private static final SimtProfile H100 = SimtProfile.load("hopper-h100");

    private static long total(SimtProfile profile, long... kernels) {
        SimtLaunchStream stream = new SimtLaunchStream(profile);
        for (long kernel : kernels) {
            stream.add(kernel, false);
        }
        return stream.totalCycles();
    }

    @Test
    void aLoneLaunchPaysTheLoneLatency() {
        assertTrue(H100.launchPipelined());
        assertEquals(H100.launchOverheadCycles() + 500, total(H100, 500));
    }

    @Test
    void kernelsShorterThanTheIntervalCostTheIntervalEach() {
        assertEquals(H100.launchOverheadCycles() + 2L * H100.launchIntervalCycles() + 100, total(H100, 100, 100, 100));
    }

    @Test
    void kernelsLongerThanTheIntervalCostThemselvesAndTheGap() {
        long kernel = 4L * H100.launchIntervalCycles();
        assertEquals(H100.launchOverheadCycles() + 3 * kernel + 2L * H100.launchGapCycles(),
                total(H100, kernel, kernel, kernel));
    }

    @Test
    void withoutPipeliningEveryLaunchAddsItsOverheadInTurn() {
        SimtProfile fermi = SimtProfile.load("fermi-gtx570");
        assertFalse(fermi.launchPipelined());
        assertEquals(3L * fermi.launchOverheadCycles() + 100 + 20000 + 5, total(fermi, 100, 20000, 5));
        assertEquals(0, total(fermi));
    }

    @Test
    void programmaticLaunchesAfterTheFirstStartTheProgrammaticGapAfterTheOneBefore() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        assertTrue(h200.hasProgrammaticLaunch());
        assertTrue(h200.launchProgrammaticGapCycles() < h200.launchGapCycles());
        long kernel = 4L * h200.launchIntervalCycles();
        SimtLaunchStream stream = new SimtLaunchStream(h200);
        for (int i = 0; i < 3; i++) {
            stream.add(kernel, true);
        }
        assertEquals(h200.launchOverheadCycles() + 3 * kernel + 2L * h200.launchProgrammaticGapCycles(), stream.totalCycles());
        // short kernels are still bound by the host's submissions
        SimtLaunchStream short_ = new SimtLaunchStream(h200);
        for (int i = 0; i < 3; i++) {
            short_.add(100, true);
        }
        assertEquals(h200.launchOverheadCycles() + 2L * h200.launchIntervalCycles() + 100, short_.totalCycles());
    }

    @Test
    void aProfileWithoutProgrammaticLaunchRefusesOne() {
        assertFalse(H100.hasProgrammaticLaunch(), "not measured on the H100");
        SimtLaunchStream stream = new SimtLaunchStream(H100);
        assertThrows(IllegalArgumentException.class, () -> stream.add(100, true));
    }

    @Test
    void onlyTheProgrammaticLaunchesTakeTheShorterGap() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        long kernel = 4L * h200.launchIntervalCycles();
        SimtLaunchStream stream = new SimtLaunchStream(h200);
        stream.add(kernel, false);
        stream.add(kernel, true);
        stream.add(kernel, false);
        assertEquals(h200.launchOverheadCycles() + 3 * kernel + h200.launchProgrammaticGapCycles() + h200.launchGapCycles(),
                stream.totalCycles());
    }
}
