package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The seed's claims, checked on the corpus programs against plain Java oracles. */
class SeedBehaviourTest {

    private static SimResult run(String program, SimMode mode) {
        return SimtSimulator.run(Corpus.request(Corpus.ROOT.resolve("corpus").resolve(program), mode));
    }

    private static int shared(SimResult result, int byteAddress) {
        return result.word(MemorySpace.SHARED, 0, byteAddress);
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void validationKernelOfListing13ComputesTheSerialLoop(SimMode mode) {
        SimResult result = run("listing13-validation.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        int[] expected = new int[512];
        for (int t = 0; t < 512; t++) {
            expected[t] = (t < 32 ? 0 : expected[t - 32]) + t;
        }
        for (int t = 0; t < 512; t++) {
            assertEquals(expected[t], shared(result, 4 * t), "A[" + t + "]");
        }
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void needlemanWunschOfListing15MatchesTheSequentialRecurrence(SimMode mode) {
        SimResult result = run("listing15-needleman-wunsch.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        int k = 10;
        int[][] s = new int[32][32];
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 32; j++) {
                if (i == 0 || j == 0) {
                    s[i][j] = -k * (i + j);
                } else {
                    int p = ((7 * i + 13 * j) & 15) - 8;
                    s[i][j] = Math.max(s[i - 1][j - 1] + p, Math.max(s[i - 1][j] - k, s[i][j - 1] - k));
                }
            }
        }
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 32; j++) {
                assertEquals(s[i][j], shared(result, 4 * (32 * i + j)), "s[" + i + "][" + j + "]");
            }
        }
    }

    @Test
    void producerAndConsumerInOneWarpAreASimdDeadlockUnderFermi() {
        SimResult result = run("listing06-one-warp.sass", SimMode.FERMI);
        assertEquals(SimStatus.DEADLOCK, result.status());
        assertEquals(DeadlockKind.SIMD, result.deadlock().kind());
        assertEquals(3, result.exitCode());
    }

    @Test
    void producerAndConsumerInOneWarpCompleteUnderIndependentThreadScheduling() {
        SimResult result = run("listing06-one-warp.sass", SimMode.ITS);
        assertEquals(SimStatus.COMPLETED, result.status());
        for (int lane = 1; lane < 32; lane++) {
            assertEquals(42, shared(result, 0x100 + 4 * lane), "out[" + lane + "]");
        }
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aliasedChannelsFourKilobytesApartDeadlockAsAlias(SimMode mode) {
        assertEquals(DeadlockKind.ALIAS, run("alias-barrier.sass", mode).deadlock().kind());
        assertEquals(DeadlockKind.ALIAS, run("alias-self.sass", mode).deadlock().kind());
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void intraWarpCriticalSectionOfListing8LetsEveryLaneIn(SimMode mode) {
        SimResult result = run("listing08-critical-section.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(32, shared(result, 0));
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void warpSharedLockOfListing9HandsDataFromWarp0ToWarp1(SimMode mode) {
        SimResult result = run("listing09-warp-shared-lock.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        for (int lane = 0; lane < 4; lane++) {
            assertEquals(2 * (10 + lane), shared(result, 0x200 + 4 * lane));
        }
    }

    @Test
    void spinLockOfListing3ContendedInOneWarpIsASimdDeadlockUnderFermi() {
        SimResult result = run("listing03-spin-lock-one-warp.sass", SimMode.FERMI);
        assertEquals(SimStatus.DEADLOCK, result.status());
        assertEquals(DeadlockKind.SIMD, result.deadlock().kind());
    }

    @Test
    void spinLockOfListing3LetsEveryLaneInUnderIndependentThreadScheduling() {
        SimResult result = run("listing03-spin-lock-one-warp.sass", SimMode.ITS);
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(32, shared(result, 4));
        assertEquals(0, shared(result, 0), "the mutex is free again");
    }
}
