package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Warp shuffles and warp syncs (SHFL.UP, SHFL.IDX, WARPSYNC): the values CUDA's {@code __shfl_up_sync} and
 * {@code __shfl_sync} give, lanes of a diverged warp waited for under independent thread scheduling, one clear line for
 * lanes that cannot come and on a profile without shuffles, and the profile's latencies.
 */
class SimtShuffleTest {

    /** Lane l starts with 100 + l in R2, runs {@code body}, and stores R3 at 4l. */
    private static int[] run(String profile, String body) {
        GlobalMemory memory = new GlobalMemory(0x100);
        SimResult result = SimtSimulator.run(SimRequest.builder("shfl.sass", """
                S2R R0, SR_TID.X;
                SHL R1, R0, 0x2;
                IADD R2, R0, 0x64;
                %s
                STG [R1], R3;
                """.formatted(body)).profile(profile).threads(32).globalMemory(memory).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        return memory.read(0, 32);
    }

    @Test
    void upGivesEachLaneTheValueOfTheLaneBelowAndLeavesTheFirstTheirOwn() {
        int[] out = run("hopper-h200", "SHFL.UP R3, R2, 0x3;");
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(100 + (lane >= 3 ? lane - 3 : lane), out[lane], "lane " + lane);
        }
    }

    @Test
    void indexBroadcastsOneLanesValueAndWrapsTheLaneNumber() {
        int[] out = run("hopper-h200", "SHFL.IDX R3, R2, 0x25;");   // 37 mod 32 = 5
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(105, out[lane], "lane " + lane);
        }
    }

    /**
     * Odd lanes go round a loop first, and each time round the warp offers the even lanes, already at the shuffle, the
     * next issue: the shuffle waits for the odd lanes, so every lane still reads its neighbour's new value (without the
     * wait the even lanes shuffle alone and read the odd lanes' old values).
     */
    @Test
    void aDivergedWarpMeetsAtTheShuffleUnderIndependentThreadScheduling() {
        int[] out = run("hopper-h200", """
                LOP.AND R4, R0, 0x1;
                ISETP.NE.AND P0, PT, R4, RZ, PT;
                @!P0 BRA join;
                MOV R5, RZ;
                again:
                IADD R2, R2, 0x3e8;
                IADD R5, R5, 0x1;
                ISETP.LT.AND P1, PT, R5, 0x2, PT;
                @P1 BRA again;
                join:
                SHFL.UP R3, R2, 0x1;
                """);
        for (int lane = 1; lane < 32; lane++) {
            int below = lane - 1;
            assertEquals(100 + below + (below % 2 == 1 ? 2000 : 0), out[lane], "lane " + lane);
        }
    }

    @Test
    void lanesThatCannotComeAreAFaultOfTheProgram() {
        SimUserException fault = assertThrows(SimUserException.class, () -> run("hopper-h200", """
                LOP.AND R4, R0, 0x1;
                ISETP.NE.AND P0, PT, R4, RZ, PT;
                @P0 BRA odd;
                SHFL.UP R3, R2, 0x1;
                BRA done;
                odd:
                SHFL.UP R3, R2, 0x2;
                done:
                """));
        assertTrue(fault.getMessage().contains("a warp shuffle or warp sync needs every live lane of the warp at the same"
                + " instruction"), fault.getMessage());
    }

    @Test
    void aProfileWithoutShufflesSaysSoInOneLine() {
        SimUserException fault = assertThrows(SimUserException.class, () -> run("fermi-gtx570", "SHFL.UP R3, R2, 0x1;"));
        assertTrue(fault.getMessage().contains("the profile fermi-gtx570 has no warp shuffle (feature.warpShuffle)"),
                fault.getMessage());
    }

    /** A dependent chain costs latency.shuffle per SHFL and latency.warpSync per WARPSYNC. */
    @Test
    void chainsCostTheProfilesLatencies() {
        // the last result is read: a pipelined profile's warp does not wait for a result nothing reads
        String shuffles = "MOV R2, RZ;\n" + "SHFL.UP R2, R2, 0x1;\n".repeat(100) + "MOV R5, R2;\n";
        long base = cycles("hopper-h200", shuffles);
        assertEquals(100 * 10, cycles("hopper-h200@latency.shuffle=" + (shuffleLatency() + 10), shuffles) - base);
        String syncs = "WARPSYNC;\n".repeat(100);
        long syncBase = cycles("hopper-h200", syncs);
        assertEquals(100 * 10, cycles("hopper-h200@latency.warpSync=" + (warpSyncLatency() + 10), syncs) - syncBase);
    }

    private static int shuffleLatency() {
        return dev.finegrain.gpu.runtime.SimtProfile.load("hopper-h200").shuffleLatency();
    }

    private static int warpSyncLatency() {
        return dev.finegrain.gpu.runtime.SimtProfile.load("hopper-h200").warpSyncLatency();
    }

    private static long cycles(String profile, String program) {
        return SimtSimulator.run(SimRequest.builder("chain.sass", program).profile(profile).threads(32).build()).totalCycles();
    }
}
