package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hopper's DPX add-then-max, VIADDMNMX d, a, b, c = max(a + b, c): Java's result on every lane (the add wrapping,
 * edge values first, then random ones), the negated-register form, the form clamped at zero (.RELU), its latency from the profile's {@code latency.dpx},
 * and one clear line on a profile without DPX.
 */
class SimtDpxTest {

    private static final int[] EDGES = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 7, -7, 1 << 30};

    /** Operands of lane l: a at 4l, b at 0x80 + 4l, c at 0x100 + 4l; the result goes to 0x180 + 4l. */
    private static SimResult run(String profile, String instruction, GlobalMemory memory) {
        return SimtSimulator.run(SimRequest.builder("dpx.sass", """
                S2R R0, SR_TID.X;
                SHL R1, R0, 0x2;
                LDG R2, [R1];
                LDG R3, [R1+0x80];
                LDG R4, [R1+0x100];
                %s;
                STG [R1+0x180], R5;
                """.formatted(instruction)).profile(profile).threads(32).globalMemory(memory).build());
    }

    @Test
    void addsThenTakesTheMaximumAsJavaDoes() {
        SplittableRandom random = new SplittableRandom(11);
        int[][] operands = new int[3][32];
        for (int k = 0; k < 3; k++) {
            for (int lane = 0; lane < 32; lane++) {
                operands[k][lane] = lane < EDGES.length ? EDGES[(lane + k) % EDGES.length] : random.nextInt();
            }
        }
        for (String instruction : new String[] {"VIADDMNMX R5, R2, R3, R4", "VIADDMNMX R5, R2, -R3, R4", "VIADDMNMX.RELU R5, R2, -R3, R4"}) {
            GlobalMemory memory = new GlobalMemory(0x200);
            for (int k = 0; k < 3; k++) {
                memory.write(0x80 * k, operands[k]);
            }
            SimResult result = run("hopper-h200", instruction, memory);
            assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
            int[] out = memory.read(0x180, 32);
            boolean negated = instruction.contains("-R3");
            for (int lane = 0; lane < 32; lane++) {
                int b = negated ? -operands[1][lane] : operands[1][lane];
                int expected = Math.max(operands[0][lane] + b, operands[2][lane]);
                assertEquals(instruction.contains(".RELU") ? Math.max(expected, 0) : expected, out[lane], instruction + " lane " + lane);
            }
        }
    }

    @Test
    void aProfileWithoutDpxSaysSoInOneLine() {
        SimUserException refused = assertThrows(SimUserException.class,
                () -> run("fermi-gtx570", "VIADDMNMX R5, R2, R3, R4", new GlobalMemory(0x200)));
        assertTrue(refused.getMessage().contains("VIADDMNMX is a DPX instruction, which profile fermi-gtx570 does not have"
                + " (feature.dpx=false)"), refused.getMessage());
    }

    /** A dependent chain of VIADDMNMX costs the profile's latency.dpx per instruction, whatever latency.alu says. */
    @Test
    void aDependentChainCostsLatencyDpxPerInstruction() {
        // the last result is read, so that every instruction's latency is on the chain (a pipelined profile's warp does
        // not wait for a result nothing reads)
        String chain = "MOV R2, RZ;\n" + "VIADDMNMX R2, R2, R3, R4;\n".repeat(100) + "MOV R5, R2;\n";
        long measured = SimtSimulator.run(SimRequest.builder("chain.sass", chain).profile("hopper-h200").threads(1).build())
                .totalCycles();
        long slower = SimtSimulator.run(SimRequest.builder("chain.sass", chain).profile("hopper-h200@latency.dpx=14")
                .threads(1).build()).totalCycles();
        assertEquals(100 * (14 - 4), slower - measured, "ten cycles more per dependent instruction");
    }
}
