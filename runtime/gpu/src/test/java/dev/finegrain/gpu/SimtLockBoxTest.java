package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lock box (Tullsen et al.; {@code feature.lockBox}): its chains complete in both divergence modes with the values
 * a serial loop gives, its grants cost the profile's restart penalty, runs where every lane is suspended stop at
 * once, and profiles without it refuse its instructions. The corpus's {@code lockbox-*.sass} hold the goldens.
 */
class SimtLockBoxTest {
    private static final String LOCK_BOX = "fermi-gtx570@feature.lockBox=true";

    private static SimResult corpus(String program, SimMode mode) {
        return SimtSimulator.run(Corpus.request(Corpus.ROOT.resolve("corpus").resolve(program), mode));
    }

    private static SimResult run(String name, String program, String profile, SimMode mode, int threads,
                                 DumpRange... dumps) {
        SimRequest.Builder builder = SimRequest.builder(name, program).profile(profile).mode(mode).threads(threads);
        for (DumpRange dump : dumps) {
            builder.dump(dump);
        }
        return SimtSimulator.run(builder.build());
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aChainInsideOneWarpCompletesWithTheSerialSums(SimMode mode) {
        SimResult result = corpus("lockbox-chain-in-warp.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        int sum = 0;
        for (int lane = 0; lane < 32; lane++) {
            sum += lane + 1;
            assertEquals(sum, result.word(MemorySpace.SHARED, 0, 4 * lane), "A[" + lane + "]");
        }
        assertEquals(31L, result.counters().get("lockBoxGrants"), "one hand-off per lane after lane 0");
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aChainAcrossWarpsComputesListing13sRecurrence(SimMode mode) {
        SimResult result = corpus("lockbox-chain-across-warps.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        int[] expected = new int[128];
        for (int t = 0; t < 128; t++) {
            expected[t] = (t < 32 ? 0 : expected[t - 32]) + t;
            assertEquals(expected[t], result.word(MemorySpace.SHARED, 0, 4 * t), "A[" + t + "]");
        }
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aSharedTokenPassesFromConsumerToConsumerOneAtATime(SimMode mode) {
        SimResult result = corpus("lockbox-shared-token.sass", mode);
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(63 * 7, result.word(MemorySpace.SHARED, 0, 0x8), "every consumer added once");
        boolean[] seen = new boolean[64];
        for (int t = 1; t < 64; t++) {
            int ticket = result.word(MemorySpace.SHARED, 0, 0x100 + 4 * t);
            assertEquals(0, ticket % 7, "ticket of thread " + t);
            assertFalse(seen[ticket / 7], "two consumers in the critical section at once: ticket " + ticket);
            seen[ticket / 7] = true;
        }
    }

    /** A token passed round the warp three times: under Fermi lane 0 comes back to the loop's LBACQ suspended. */
    @ParameterizedTest
    @EnumSource(SimMode.class)
    void aRingInALoopPassesTheTokenRoundTheWarpEachRound(SimMode mode) {
        SimResult result = run("ring.sass", """
                S2R R1, SR_LANEID;
                SHL R5, R1, 0x2;
                IADD R7, R1, 0x1;
                LOP.AND R7, R7, 0x1f;
                SHL R7, R7, 0x2;                  // the next lane's token
                ISETP.EQ.AND P1, pt, R1, RZ, pt;
                MOV R8, 0x3;                      // rounds
                @P1 LBREL [0x100];                // lane 0's token for the first round
                loop: LBACQ [R5+0x100];
                LDS R2, [0x0];
                IADD R2, R2, 0x1;
                STS [0x0], R2;
                STS [R5+0x200], R2;               // this lane's last ticket
                LBREL [R7+0x100];
                IADD R8, R8, -0x1;
                ISETP.NE.AND P0, pt, R8, RZ, pt;
                @P0 BRA loop;
                """, LOCK_BOX, mode, 32, DumpRange.parse("shared", "0x0:0x4"), DumpRange.parse("shared", "0x200:0x280"));
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(96, result.word(MemorySpace.SHARED, 0, 0x0));
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(64 + lane + 1, result.word(MemorySpace.SHARED, 0, 0x200 + 4 * lane), "lane " + lane);
        }
    }

    /**
     * A chain inside a divergent branch and inside an SSY region: under Fermi granted lanes come back as paths that
     * meet the others at the branch's reconvergence point and at the SSY target, and everyone reads the chain's end.
     */
    @ParameterizedTest
    @EnumSource(SimMode.class)
    void chainsInsideDivergentCodeReconvergeAfterIt(SimMode mode) {
        String chain = """
                @P0 LBACQ [R5+0x100];
                @P0 LDS R2, [R5+-0x4];
                IADD R2, R2, 0x1;
                STS [R5], R2;
                LBREL [R5+0x104];
                """;
        SimResult branch = run("branch.sass", """
                S2R R1, SR_LANEID;
                SHL R5, R1, 0x2;
                ISETP.GE.AND P2, pt, R1, 0x10, pt;  // lanes 16-31 skip the chain
                ISETP.NE.AND P0, pt, R1, RZ, pt;
                @P2 BRA after;
                """ + chain + """
                after: LDS R3, [0x3c];               // lane 15's link, after the reconvergence point
                STS [R5+0x200], R3;
                """, LOCK_BOX, mode, 32, DumpRange.parse("shared", "0x200:0x280"));
        SimResult region = run("ssy.sass", """
                S2R R1, SR_LANEID;
                SHL R5, R1, 0x2;
                ISETP.NE.AND P0, pt, R1, RZ, pt;
                SSY after;
                """ + chain + """
                SYNC;
                after: LDS R3, [0x7c];               // lane 31's link, at the SSY target
                STS [R5+0x200], R3;
                """, LOCK_BOX, mode, 32, DumpRange.parse("shared", "0x200:0x280"));
        for (int lane = 0; lane < 32; lane++) {
            assertEquals(16, branch.word(MemorySpace.SHARED, 0, 0x200 + 4 * lane), "branch, lane " + lane);
            assertEquals(32, region.word(MemorySpace.SHARED, 0, 0x200 + 4 * lane), "SSY, lane " + lane);
        }
    }

    /** Suspended lanes are not progress: a warp spinning beside them runs into the watchdog, which names both. */
    @ParameterizedTest
    @EnumSource(SimMode.class)
    void suspendedLanesBesideASpinningWarpEndAtTheWatchdog(SimMode mode) {
        SimResult result = SimtSimulator.run(SimRequest.builder("spin.sass", """
                S2R R3, SR_TID.X;
                SHR.U32 R6, R3, 0x5;
                ISETP.NE.AND P0, pt, R6, RZ, pt;
                @P0 LBACQ [0x40];                    // warp 1: never released
                @P0 EXIT;
                spin: LDS R2, [0x0];                 // warp 0: waits for a word nobody writes
                ISETP.EQ.AND P1, pt, R2, RZ, pt;
                @P1 BRA spin;
                """).profile(LOCK_BOX).mode(mode).threads(64).watchdogCycles(5_000).build());
        assertEquals(SimStatus.DEADLOCK, result.status());
        assertEquals(DeadlockKind.LOCK_BOX, result.deadlock().kind());
        assertTrue(result.kernelCycles() > 5_000, "ended by the watchdog");
        assertTrue(result.deadlock().lanes().stream().anyMatch(l -> l.kind() == DeadlockKind.SPIN));
    }

    @ParameterizedTest
    @EnumSource(SimMode.class)
    void lanesSuspendedOnLocksNobodyReleasesAreALockBoxDeadlockAtOnce(SimMode mode) {
        for (String program : List.of("lockbox-deadlock-never-released.sass", "lockbox-deadlock-self.sass")) {
            SimResult result = corpus(program, mode);
            assertEquals(SimStatus.DEADLOCK, result.status(), program);
            assertEquals(DeadlockKind.LOCK_BOX, result.deadlock().kind(), program);
            assertTrue(result.kernelCycles() < 1_000, program + ": found when no warp could issue, not by the"
                    + " watchdog (" + result.kernelCycles() + " cycles)");
        }
    }

    @Test
    void aLockHeldAtAReconvergencePointIsALockBoxDeadlockUnderFermiOnly() {
        SimResult fermi = corpus("lockbox-reconvergence.sass", SimMode.FERMI);
        assertEquals(DeadlockKind.LOCK_BOX, fermi.deadlock().kind());
        assertTrue(fermi.kernelCycles() < 1_000, "no warp could issue: reported at once");
        SimResult its = corpus("lockbox-reconvergence.sass", SimMode.ITS);
        assertEquals(SimStatus.COMPLETED, its.status());
        assertEquals(31, its.word(MemorySpace.SHARED, 0, 0x0));
    }

    /**
     * Lane 0 of each of 8 warps passes a token to the next warp's lane 0: 7 hand-offs, each on the critical path,
     * with nothing else issuing. Release prediction shortens each by the difference of the two restart penalties.
     */
    @ParameterizedTest
    @EnumSource(SimMode.class)
    void theRestartPenaltyOfEachHandOffShowsInTheCycleCount(SimMode mode) {
        String program = """
                S2R R3, SR_TID.X;
                S2R R1, SR_LANEID;
                SHR.U32 R6, R3, 0x5;              // the warp
                SHL R5, R6, 0x2;
                ISETP.NE.AND P1, pt, R1, RZ, pt;
                @P1 EXIT;                         // lane 0 of each warp only
                ISETP.NE.AND P0, pt, R6, RZ, pt;
                @P0 LBACQ [R5+0x100];             // wait for the previous warp
                @P0 LDS R2, [R5+-0x4];
                IADD R2, R2, 0x1;
                STS [R5], R2;
                LBREL [R5+0x104];                 // the next warp's token
                """;
        int warps = 8;
        String plain = LOCK_BOX;
        String predicted = LOCK_BOX + "@lockBox.releasePrediction=true";
        SimResult slow = run("handoffs.sass", program, plain, mode, 32 * warps, DumpRange.parse("shared", "0x0:0x20"));
        SimResult fast = run("handoffs.sass", program, predicted, mode, 32 * warps, DumpRange.parse("shared", "0x0:0x20"));
        for (SimResult result : List.of(slow, fast)) {
            assertEquals(SimStatus.COMPLETED, result.status());
            for (int w = 0; w < warps; w++) {
                assertEquals(w + 1, result.word(MemorySpace.SHARED, 0, 4 * w));
            }
        }
        SimtProfile profile = SimtProfile.load(plain);
        int perHandOff = profile.lockBoxGrantCycles() - profile.lockBoxPredictedGrantCycles();
        assertEquals(15, SimtProfile.load(plain).lockBoxRestartCycles(), "the paper's restart penalty by default");
        assertEquals(9, SimtProfile.load(predicted).lockBoxRestartCycles(), "its Figure 3's with release prediction");
        assertEquals((long) (warps - 1) * perHandOff, slow.kernelCycles() - fast.kernelCycles(),
                "each of the " + (warps - 1) + " hand-offs waits the restart penalty");
        assertEquals((long) warps - 1, slow.counters().get("lockBoxGrants"));
    }

    @Test
    void suspendedLanesCostNoIssueSlots() {
        // lanes 1-31 wait for lane 0, which works 40 ALU instructions before it releases: spinning lanes would issue
        // all the while, suspended ones issue nothing until their grant, then pass the lock on and exit
        StringBuilder work = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            work.append("IADD R2, R2, 0x1;\n");
        }
        String program = """
                S2R R1, SR_LANEID;
                ISETP.NE.AND P0, pt, R1, RZ, pt;
                @P0 LBACQ [0x40];
                @P0 LBREL [0x40];
                @P0 EXIT;
                """ + work + """
                LBREL [0x40];
                """;
        for (SimMode mode : SimMode.values()) {
            SimResult result = run("idle.sass", program, LOCK_BOX, mode, 32);
            assertEquals(SimStatus.COMPLETED, result.status(), mode.label());
            long instructions = result.counters().get("warpInstructions");
            // lane 0: 3 + 2 + 40 + LBREL + EXIT; each granted lane at most its LBREL, EXIT and (Fermi) the end's EXIT
            assertTrue(instructions <= 47 + 31 * 3, mode.label() + ": " + instructions
                    + " warp instructions; waiting lanes do not issue");
            assertTrue(result.counters().get("lockBoxSuspendedLaneCycles") > 31L * 40,
                    mode.label() + ": the waiting lanes' cycles are counted");
        }
    }

    @Test
    void aProfileWithoutTheFeatureRefusesTheInstructionsInOneLine() {
        SimUserException error = assertThrows(SimUserException.class, () -> run("test.sass", "LBREL [0x40];",
                "fermi-gtx570", SimMode.FERMI, 32));
        assertEquals("test.sass:1:1: LBREL: the profile fermi-gtx570 has no lock box (feature.lockBox) (block 0 warp 0"
                + " lane 0)", error.getMessage());
    }

    @Test
    void theKeysAreOptionalOffInEveryBuiltInProfileAndSettable() {
        for (String name : SimtProfile.BUILT_IN) {
            SimtProfile profile = SimtProfile.load(name);
            assertFalse(profile.hasLockBox(), name + " has no lock box: no GPU has one");
            assertEquals(15, profile.lockBoxGrantCycles(), name);
            assertFalse(profile.lockBoxReleasePrediction(), name);
            assertEquals(9, profile.lockBoxPredictedGrantCycles(), name);
        }
        SimtProfile set = SimtProfile.load("hopper-h100@feature.lockBox=true@lockBox.grantCycles=20"
                + "@lockBox.predictedGrantCycles=12@lockBox.releasePrediction=true");
        assertTrue(set.hasLockBox());
        assertEquals(12, set.lockBoxRestartCycles());
        assertEquals(20, set.lockBoxGrantCycles());
        assertEquals("profile fermi-gtx570@lockBox.grantCycles=0: lockBox.grantCycles must be at least 1, was 0",
                assertThrows(SimUserException.class, () -> SimtProfile.load("fermi-gtx570@lockBox.grantCycles=0"))
                        .getMessage());
    }

    @Test
    void lockBoxCountersAppearOnlyOnProfilesWithTheFeature() {
        SimResult without = run("exit.sass", "EXIT;", "fermi-gtx570", SimMode.FERMI, 32);
        assertFalse(without.counters().containsKey("lockBoxGrants"));
        SimResult with = run("exit.sass", "EXIT;", LOCK_BOX, SimMode.FERMI, 32);
        assertEquals(0L, with.counters().get("lockBoxGrants"));
    }

    /** As {@link SimtNeverHangsTest}, with lock-box instructions among the random ones. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void randomProgramsWithLockBoxInstructionsEndInBothModes() {
        Random random = new Random(7);
        long maxCycles = 20_000;
        for (int i = 0; i < 150; i++) {
            String program = randomProgram(random);
            for (SimMode mode : SimMode.values()) {
                SimResult result;
                try {
                    result = SimtSimulator.run(SimRequest.builder("random" + i + ".sass", program).profile(LOCK_BOX)
                            .mode(mode).threads(64).maxCycles(maxCycles).watchdogCycles(3_000).build());
                } catch (RuntimeException e) {
                    throw new AssertionError("program " + i + " in " + mode + " failed:\n" + program, e);
                }
                switch (result.status()) {
                    case COMPLETED -> assertTrue(result.kernelCycles() <= maxCycles, "program " + i);
                    case MAX_CYCLES -> assertEquals(maxCycles, result.kernelCycles(), "program " + i);
                    case DEADLOCK -> {
                        assertNotNull(result.deadlock(), "program " + i + ":\n" + program);
                        assertFalse(result.deadlock().lanes().isEmpty(), "program " + i + ":\n" + program);
                    }
                }
            }
        }
    }

    private static String randomProgram(Random random) {
        int length = 6 + random.nextInt(10);
        List<String> lines = new ArrayList<>();
        lines.add("S2R R1, SR_LANEID;");
        lines.add("SHL R5, R1, 0x2;");
        for (int i = 0; i < length; i++) {
            String guard = switch (random.nextInt(4)) {
                case 0 -> "@P" + random.nextInt(3) + " ";
                case 1 -> "@!P" + random.nextInt(3) + " ";
                default -> "";
            };
            String target = "L" + random.nextInt(length);
            String instruction = switch (random.nextInt(13)) {
                case 0 -> "IADD R2, R2, 0x" + Integer.toHexString(random.nextInt(5));
                case 1 -> "ISETP.LT.AND P" + random.nextInt(3) + ", pt, R1, 0x" + Integer.toHexString(random.nextInt(40))
                        + ", pt";
                case 2 -> "BRA " + target;
                case 3 -> "SSY " + target;
                case 4 -> "SYNC";
                case 5, 6 -> "LBACQ [R5+0x" + Integer.toHexString(4 * random.nextInt(4)) + "]";
                case 7 -> "LBACQ [0x" + Integer.toHexString(4 * random.nextInt(4)) + "]";
                case 8, 9 -> "LBREL [R5+0x" + Integer.toHexString(4 * random.nextInt(4)) + "]";
                case 10 -> "LBREL [0x" + Integer.toHexString(4 * random.nextInt(4)) + "]";
                case 11 -> "BAR.SYNC 0x0";
                default -> "EXIT";
            };
            lines.add("L" + i + ": " + guard + instruction + ";");
        }
        return String.join("\n", lines) + "\n";
    }
}
