package dev.finegrain.gpu;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Divergent lanes run their paths separately and meet again, so the code after the meeting point issues once. */
class SimtDivergenceTest {

    private static SimResult run(String program, SimMode mode) {
        return SimtSimulator.run(SimRequest.builder("divergence.sass", program).mode(mode).threads(32)
                .dump(DumpRange.parse("shared", "0:0x80")).build());
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void ifElseWithSsyAndSyncReconvergesAtTheSsyTarget(SimMode mode) {
        SimResult result = run("""
                S2R R1, SR_LANEID;
                ISETP.LT.AND P0, pt, R1, 0x10, pt;
                SSY join;
                @P0 BRA then;
                MOV R2, 0x2;
                SYNC;
                then: MOV R2, 0x1;
                SYNC;
                join: SHL R3, R1, 0x2;
                STS [R3], R2;
                """, mode);
        assertEquals(1, result.word(MemorySpace.SHARED, 0, 0));
        assertEquals(2, result.word(MemorySpace.SHARED, 0, 0x7c));
        assertEquals(11L, result.counters().get("warpInstructions"), "S2R ISETP SSY BRA, 2 x (MOV SYNC), SHL STS EXIT");
        assertEquals(1L, result.counters().get("divergentBranches"));
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aSkippedBlockReconvergesAtTheBranchsPostDominatorWithoutSsy(SimMode mode) {
        SimResult result = run("""
                S2R R1, SR_LANEID;
                LOP.AND R4, R1, 0x1;
                ISETP.EQ.AND P0, pt, R4, RZ, pt;
                MOV R2, 0x7;
                @P0 BRA skip;
                IADD R2, R2, R1;
                skip: SHL R3, R1, 0x2;
                STS [R3], R2;
                """, mode);
        assertEquals(7, result.word(MemorySpace.SHARED, 0, 0));
        assertEquals(7 + 31, result.word(MemorySpace.SHARED, 0, 0x7c));
        assertEquals(9L, result.counters().get("warpInstructions"), "the tail after 'skip' issues once");
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void lanesThatLeaveALoopEarlyWaitForTheOthersUnderFermiButRunOnUnderIts(SimMode mode) {
        SimResult result = run("""
                S2R R1, SR_LANEID;
                MOV R2, RZ;
                loop: IADD R2, R2, 0x1;
                ISETP.LT.AND P0, pt, R2, R1, pt;
                @P0 BRA loop;
                SHL R3, R1, 0x2;
                STS [R3], R2;
                """, mode);
        assertEquals(31, result.word(MemorySpace.SHARED, 0, 0x7c));
        assertEquals(1, result.word(MemorySpace.SHARED, 0, 0));
        long tail = result.counters().get("warpInstructions") - 2 - 3 * 31;
        if (mode == SimMode.FERMI) {
            assertEquals(3L, tail, "the tail (SHL STS EXIT) issues once, for all lanes together");
        } else {
            assertTrue(tail > 3L, "lanes that left the loop ran on before the others: " + tail);
        }
    }
}
