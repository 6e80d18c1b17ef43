package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACQBULK and PREEXIT, a programmatic dependent launch's wait for the launch before it and its word letting the next
 * one in: one launch simulated alone finds the launch before it ended, so each costs an issue slot; a profile without
 * programmatic launch says so in one line.
 */
class SimtLaunchDependenceTest {

    private static final String WAIT_THEN_LET_IN = "ACQBULK;\nMOV32I R1, 0x5;\nPREEXIT;\n";
    private static final String NEITHER = "NOP;\nMOV32I R1, 0x5;\nNOP;\n";

    @Test
    void eachCostsAnIssueSlotInALaunchSimulatedAlone() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        long both = kernelCycles("hopper-h200", WAIT_THEN_LET_IN);
        long neither = kernelCycles("hopper-h200", NEITHER);
        assertEquals(neither + 2L * (h200.issueSlotCycles() - h200.aluLatency()), both,
                "a NOP costs latency.alu, ACQBULK and PREEXIT an issue slot each");
    }

    @Test
    void aProfileWithoutProgrammaticLaunchSaysSoInOneLine() {
        SimUserException fault = assertThrows(SimUserException.class, () -> kernelCycles("hopper-h100", WAIT_THEN_LET_IN));
        assertTrue(fault.getMessage().contains("the profile hopper-h100 has no ACQBULK (feature.programmaticLaunch)"),
                fault.getMessage());
    }

    private static long kernelCycles(String profile, String program) {
        SimResult result = SimtSimulator.run(SimRequest.builder("launch.sass", program).profile(profile).threads(32)
                .globalMemory(new GlobalMemory(0x100)).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        return result.kernelCycles();
    }
}
