package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random programs over branches, guards, SSY/SYNC, barriers, votes and lock bits (all addresses valid) always end:
 * completed, deadlocked with a report that names blocked lanes, or stopped exactly at the cycle limit, and without an
 * internal error. "Never hangs" is the wall clock's to judge: the whole corpus (150 programs x 2 modes) must finish
 * in a minute, where it takes a few seconds. The generator is seeded, so a failure names a program that reproduces.
 */
class SimtNeverHangsTest {
    private static final int PROGRAMS = 150;
    private static final long MAX_CYCLES = 20_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void randomProgramsEndWithinTheirLimitsInBothModes() {
        Random random = new Random(4);
        for (int i = 0; i < PROGRAMS; i++) {
            String program = randomProgram(random);
            for (SimMode mode : SimMode.values()) {
                SimResult result;
                try {
                    result = SimtSimulator.run(SimRequest.builder("random" + i + ".sass", program).mode(mode)
                            .threads(64).maxCycles(MAX_CYCLES).watchdogCycles(3_000).build());
                } catch (RuntimeException e) {
                    throw new AssertionError("program " + i + " in " + mode + " failed:\n" + program, e);
                }
                switch (result.status()) {
                    // every thread exited, at the latest on the last allowed cycle
                    case COMPLETED -> assertTrue(result.kernelCycles() <= MAX_CYCLES,
                            "program " + i + " completed after its cycle limit: " + result.kernelCycles());
                    case MAX_CYCLES -> assertEquals(MAX_CYCLES, result.kernelCycles(),
                            "program " + i + " stopped for its cycle limit elsewhere than at the limit");
                    case DEADLOCK -> {
                        assertNotNull(result.deadlock(), "program " + i + " deadlocked without a report:\n" + program);
                        assertFalse(result.deadlock().lanes().isEmpty(),
                                "program " + i + "'s deadlock report names no blocked lanes:\n" + program);
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
                case 2 -> "ISETP.NE.AND P" + random.nextInt(3) + ", pt, R2, R3, pt";
                case 3 -> "BRA " + target;
                case 4 -> "SSY " + target;
                case 5 -> "SYNC";
                case 6 -> "LDSLK P" + random.nextInt(3) + ", R3, [R5+0x" + Integer.toHexString(4 * random.nextInt(8))
                        + "]";
                case 7 -> "STSUL [R5+0x" + Integer.toHexString(4 * random.nextInt(8)) + "], R2";
                case 8 -> "LDSLK P" + random.nextInt(3) + ", R3, [0x" + Integer.toHexString(4 * random.nextInt(4))
                        + "]";
                case 9 -> "BAR.SYNC 0x" + random.nextInt(2);
                case 10 -> "VOTE.ANY R4, P" + random.nextInt(3) + ", P" + random.nextInt(3);
                case 11 -> "STS [R5+0x1000], R2";
                default -> "EXIT";
            };
            lines.add("L" + i + ": " + guard + instruction + ";");
        }
        return String.join("\n", lines) + "\n";
    }
}
