package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A profile that pipelines issue ({@code issue.pipelined}): a warp issues independent instructions {@code issue.cycles}
 * apart, and only an instruction that touches a pending result (a register or a predicate) waits for it; a profile
 * that does not waits out every instruction's latency.
 */
class SimtPipelinedIssueTest {

    private static final int N = 100;

    /** {@code count} adds that all read R1 (the first waits for it) and write registers of their own. */
    private static String independent(int count) {
        StringBuilder program = new StringBuilder("MOV32I R1, 0x1;\n");
        for (int k = 0; k < count; k++) {
            program.append("IADD R").append(2 + k % 8).append(", R1, 0x1;\n");
        }
        return program.toString();
    }

    /** N adds, each reading the one before. */
    private static String dependent() {
        return "MOV32I R1, 0x1;\n" + "IADD R1, R1, 0x1;\n".repeat(N) + "MOV R2, R1;\n";
    }

    @Test
    void independentInstructionsIssueAnIssueIntervalApart() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        assertEquals((long) N * h200.issueIntervalCycles(), cycles("hopper-h200", independent(N + 1))
                - cycles("hopper-h200", independent(1)));
    }

    @Test
    void aDependentChainWaitsEachResultsLatency() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        long shorter = cycles("hopper-h200", "MOV32I R1, 0x1;\n" + "IADD R1, R1, 0x1;\n".repeat(N - 1) + "MOV R2, R1;\n");
        assertEquals(h200.aluLatency(), cycles("hopper-h200", dependent()) - shorter, "one more link, one more latency");
    }

    /** A branch on a compare's predicate waits for the compare's result; an instruction that does not touch it does not. */
    @Test
    void aPredicateIsAPendingResultToo() {
        SimtProfile h200 = SimtProfile.load("hopper-h200");
        long guarded = cycles("hopper-h200", "MOV32I R1, 0x1;\nISETP.EQ.AND P0, PT, R1, 0x1, PT;\n@P0 IADD R2, R1, 0x1;\n");
        long unguarded = cycles("hopper-h200", "MOV32I R1, 0x1;\nISETP.EQ.AND P0, PT, R1, 0x1, PT;\nIADD R2, R1, 0x1;\n");
        assertEquals(h200.aluLatency() - h200.issueIntervalCycles(), guarded - unguarded);
        long selected = cycles("hopper-h200", "MOV32I R1, 0x1;\nISETP.EQ.AND P0, PT, R1, 0x1, PT;\nSEL R2, R1, 0x2, P0;\n");
        assertEquals(h200.aluLatency() - h200.issueIntervalCycles(), selected - unguarded, "a select reads the predicate too");
    }

    @Test
    void aProfileThatDoesNotPipelineWaitsEveryLatency() {
        SimtProfile fermi = SimtProfile.load("fermi-gtx570");
        long base = cycles("fermi-gtx570", "MOV32I R1, 0x1;\n");
        assertEquals((long) N * fermi.aluLatency(), cycles("fermi-gtx570", independent(N)) - base);
    }

    private static long cycles(String profile, String program) {
        SimResult result = SimtSimulator.run(SimRequest.builder("issue.sass", program).profile(profile).threads(32).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        return result.kernelCycles();
    }
}
