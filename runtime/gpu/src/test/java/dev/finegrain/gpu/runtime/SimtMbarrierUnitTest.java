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

    /** Kernel cycles per hand-off of the unit's fit counterpart with {@code warps} warps (docs/profiles.md). */
    private static double chainHandOff(String profile, int warps) throws java.io.IOException {
        String program = java.nio.file.Files.readString(java.nio.file.Path.of("microbench/model/mbarrier-chain-in-warp.sass"));
        return SimtSimulator.run(SimRequest.builder("mbarrier-chain-in-warp.sass", program).profile(profile).threads(32 * warps)
                .build()).kernelCycles() / 31.0;
    }

    @Test
    void theH200sUnitGrowsItsChainAsTheH200Measured() throws java.io.IOException {
        // mbarrier_chain_in_warp_{8,32}warps on the H200 (2026-11-29): 1082.9 and 4039.4 per hand-off, 123.2 more per warp
        double perWarp = (chainHandOff("hopper-h200", 32) - chainHandOff("hopper-h200", 8)) / 24;
        assertEquals(123.2, perWarp, 12.3, "within 10 % of the H200's growth per warp; without the unit the chain does not grow");
        String without = SimtSharedPollPortTest.h100Without("mbarrier.addressCycles=");
        assertTrue((chainHandOff(without, 32) - chainHandOff(without, 8)) / 24 < 12.3, "without the unit the chain barely grows");
    }
}
