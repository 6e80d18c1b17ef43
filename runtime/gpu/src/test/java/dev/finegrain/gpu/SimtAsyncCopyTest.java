package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Asynchronous copies (LDGSTS, waited for by DEPBAR): the words land in shared memory, the warp goes on while they
 * travel, DEPBAR waits for the last of them, and a profile without them says so in one line.
 */
class SimtAsyncCopyTest {

    /** Lane l copies global word 32 + l into shared word l, waits, reads it back and stores it at global word l. */
    private static final String COPY = """
            S2R R0, SR_TID.X;
            SHL R1, R0, 0x2;
            IADD R2, R1, 0x80;
            LDGSTS [R1], [R2];
            DEPBAR;
            LDS R3, [R1];
            STG [R1], R3;
            """;

    @Test
    void eachLanesWordLandsInSharedMemory() {
        GlobalMemory memory = new GlobalMemory(0x100);
        int[] source = new int[32];
        for (int lane = 0; lane < 32; lane++) {
            source[lane] = 1000 + 7 * lane;
        }
        memory.write(0x80, source);
        SimResult result = SimtSimulator.run(SimRequest.builder("copy.sass", COPY).profile("hopper-h200").threads(32)
.globalMemory(memory).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        int[] out = memory.read(0, 32);
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(source[lane], out[lane], "lane " + lane);
        }
    }

    /** The warp waits at DEPBAR for the copy, a global load's latency after it issued; without DEPBAR it does not. */
    @Test
    void depbarWaitsForTheCopyAndTheWarpGoesOnWithoutIt() {
        SimtProfile profile = SimtProfile.load("hopper-h200");
        String waits = "MOV32I R1, 0x0;\nMOV32I R2, 0x80;\nLDGSTS [R1], [R2];\nDEPBAR;\n";
        String goesOn = "MOV32I R1, 0x0;\nMOV32I R2, 0x80;\nLDGSTS [R1], [R2];\nNOP;\n";
        long waited = kernelCycles("hopper-h200", waits);
        long went = kernelCycles("hopper-h200", goesOn);
        assertTrue(waited - went >= profile.globalLatency() - 2L * profile.issueSlotCycles(),
                "DEPBAR waited " + (waited - went) + " cycles; a copy takes about " + profile.globalLatency());
        long slower = kernelCycles("hopper-h200@latency.asyncCopy=" + (profile.asyncCopyLatency() + 100), waits);
        assertEquals(100, slower - waited, "latency.asyncCopy adds to every copy's flight");
    }

    /** Eight copies in flight at once cost about one copy's latency, not eight. */
    @Test
    void copiesOverlap() {
        StringBuilder eight = new StringBuilder("MOV32I R1, 0x0;\nMOV32I R2, 0x80;\n");
        for (int k = 0; k < 8; k++) {
            eight.append("LDGSTS [R1+0x").append(Integer.toHexString(4 * k)).append("], [R2+0x")
                    .append(Integer.toHexString(4 * k)).append("];\n");
        }
        eight.append("DEPBAR;\n");
        long one = kernelCycles("hopper-h200", "MOV32I R1, 0x0;\nMOV32I R2, 0x80;\nLDGSTS [R1], [R2];\nDEPBAR;\n");
        long all = kernelCycles("hopper-h200", eight.toString());
        assertTrue(all < one + 8 * 10, "eight copies took " + all + " cycles, one " + one);
    }

    @Test
    void aProfileWithoutAsyncCopiesSaysSoInOneLine() {
        SimUserException fault = assertThrows(SimUserException.class, () -> SimtSimulator.run(SimRequest.builder(
                "copy.sass", COPY).profile("fermi-gtx570").threads(32).globalMemory(new GlobalMemory(0x100)).build()));
        assertTrue(fault.getMessage().contains("the profile fermi-gtx570 has no asynchronous copy (feature.asyncCopy)"),
                fault.getMessage());
    }

    private static long kernelCycles(String profile, String program) {
        SimResult result = SimtSimulator.run(SimRequest.builder("copy.sass", program).profile(profile).threads(1)
.globalMemory(new GlobalMemory(0x100)).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        return result.kernelCycles();
    }
}
