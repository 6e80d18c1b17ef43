package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each SM's memory port passes one sector at a time, so a warp whose lanes spread over many sectors waits for them. */
class SimtMemoryPortTest {

    /** Kernel cycles of one warp whose lane k loads (or stores, then loads) the word at byte k << shift. */
    private static long cycles(String profile, int shift, String access) {
        String program = """
                S2R R1, SR_TID.X;
                SHL R2, R1, 0x%x;
                %s
                LDG R3, [R2];
                IADD R4, R3, 0x1;
                """.formatted(shift, access);
        return SimtSimulator.run(SimRequest.builder("port.sass", program).profile(profile).threads(32).build())
                .kernelCycles();
    }

    @Test
    void aWarpOnThirtyTwoSectorsWaitsForTwentyEightMoreThanOneOnFourAtOneCycleEach() {
        assertEquals(1.0, SimtProfile.load("hopper-h100").smSectorCycles());
        assertEquals(32 - 4, cycles("hopper-h100", 7, "") - cycles("hopper-h100", 2, ""),
                "one line per lane passes 32 sectors, a coalesced warp 4; the first is in the latency");
    }

    @Test
    void partlyWrittenSectorsHoldThePortTwiceAsLongAsFullOnes() {
        SimtProfile h100 = SimtProfile.load("hopper-h100");
        assertEquals(2.0, h100.smPartialStoreSectorCycles());
        long coalesced = cycles("hopper-h100", 2, "STG [R2], R1;") - cycles("hopper-h100", 2, "");
        long spread = cycles("hopper-h100", 7, "STG [R2], R1;") - cycles("hopper-h100", 7, "");
        assertEquals(Math.max(h100.issueSlotCycles(), 4), coalesced,
                "the load waits behind the store's four full sectors, a cycle each, or the store's issue if it is longer");
        assertEquals(2 * 32, spread, "the load waits behind 32 partly written sectors, 2 cycles each");
    }

    @Test
    void fermiHasNoPortLimit() {
        assertEquals(0.0, SimtProfile.load("fermi-gtx570").smSectorCycles());
        assertEquals(cycles("fermi-gtx570", 2, ""), cycles("fermi-gtx570", 7, ""));
    }
}
