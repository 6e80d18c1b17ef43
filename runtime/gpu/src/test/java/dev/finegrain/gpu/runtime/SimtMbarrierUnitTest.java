package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SM's mbarrier unit serves the distinct barriers of an MBARRIER instruction one after another. */
class SimtMbarrierUnitTest {

    /** Kernel cycles of {@code threads} threads that each arm their own barrier, then poll the barrier at {@code polled}. */
    private static long cycles(String profile, int threads, String polled) {
        String program = """
                S2R R1, SR_TID.X;
                SHL R2, R1, 0x3;
                MBARRIER.INIT [R2], 0x1;
                MBARRIER.TRY_WAIT P1, [%s], RZ;
                IADD R4, R1, 0x1;
                """.formatted(polled);
        return SimtSimulator.run(SimRequest.builder("mbarrier.sass", program).profile(profile).threads(threads).build())
                .kernelCycles();
    }

    @Test
    void aWarpPollingThirtyTwoBarriersTakesThirtyOneServicesMoreThanOnePollingOne() {
        SimtProfile h100 = SimtProfile.load("hopper-h100");
        assertEquals(6, h100.mbarrierAddressCycles());
        assertEquals(31 * 6, cycles("hopper-h100", 32, "R2") - cycles("hopper-h100", 32, "RZ"),
                "the first barrier is in latency.mbarrier, each of the other 31 takes 6 cycles of the unit");
    }

    @Test
    void warpsOfOneSmQueueAtItsUnit() {
        long one = cycles("hopper-h100", 32, "R2");
        long two = cycles("hopper-h100", 64, "R2");
        assertTrue(two - one >= 32 * 6, "the second warp's INIT waits for the first warp's 32 barriers; was "
                + (two - one));
    }

    @Test
    void withoutTheKeyEveryInstructionCostsItsLatency() throws java.io.IOException {
        String profile = SimtSharedPollPortTest.h100Without("mbarrier.addressCycles=");
        assertEquals(0, SimtProfile.load(profile).mbarrierAddressCycles());
        assertEquals(cycles(profile, 32, "R2"), cycles(profile, 32, "RZ"));
    }

    @Test
    void bothHopperProfilesTakeTheUnitTheirOwnChainsMeasured() {
        // mbarrier_chain_in_warp_{8,32}warps: 1082.9 and 4039.4 cycles per hand-off on the H100 and on the H200 alike
        assertEquals(6, SimtProfile.load("hopper-h200").mbarrierAddressCycles());
        assertEquals(SimtProfile.load("hopper-h100").mbarrierAddressCycles(), SimtProfile.load("hopper-h200").mbarrierAddressCycles());
    }
}
