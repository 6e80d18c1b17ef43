package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lock unit counts an LDSLK that finds its bit held by another block's thread: shared memory is per block, so only
 * co-resident blocks whose words alias in the SM's lock unit (seed 001 §4.4.2) get there. Two blocks of 4,096 bytes on
 * one Fermi SM (1,024 lock bits, one per word) each lock their own word 0, which both map to bit 0; given the lock bits
 * their windows span, the second block waits for an SM of its own and nothing aliases.
 */
class LockBitAliasCounterTest {

    // thread 0 of each block locks its word 0, holds it through a loop of 200 rounds, and releases it
    private static final String PROGRAM = """
            S2R R1, SR_TID.X;
            ISETP.NE P2, pt, R1, RZ, pt;
            @P2 EXIT;
            MOV R0, RZ;
            spin: LDSLK P0, R2, [R0];
            @!P0 BRA spin;
            MOV R3, RZ;
            hold: IADD R3, R3, 0x1;
            ISETP.LT P1, pt, R3, 0xc8, pt;
            @P1 BRA hold;
            STSUL [R0], R2;
            EXIT;
            """;

    private static SimResult run(int lockBitsPerBlock) {
        return SimtSimulator.run(SimRequest.builder("alias-across-blocks.sass", PROGRAM).profile("fermi-gtx570@sm.count=1")
                .blocks(2).threads(32).sharedBytesPerBlock(4096).lockBitsPerBlock(lockBitsPerBlock).build());
    }

    @Test
    void blocksWhoseWordsShareALockBitOnOneSmAreCounted() {
        SimResult aliased = run(1);
        assertEquals(SimStatus.COMPLETED, aliased.status());
        assertEquals(2L, aliased.resources().get("residentBlocksPerSm"));
        assertTrue(aliased.counters().getOrDefault("lockBitAliases", 0L) > 0, aliased.counters().toString());
    }

    @Test
    void blocksClaimingTheirWindowsLockBitsNeverAlias() {
        SimResult apart = run(1024);
        assertEquals(SimStatus.COMPLETED, apart.status());
        assertEquals(1L, apart.resources().get("residentBlocksPerSm"));
        assertEquals(0L, apart.counters().getOrDefault("lockBitAliases", 0L), apart.counters().toString());
    }
}
