package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimUserException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped profiles load, follow the seeds where the seeds have numbers, and say where every number is from. */
class SimtProfileTest {

    static List<String> builtIn() {
        return SimtProfile.BUILT_IN;
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void loadsAndCommentsEveryNumber(String name) throws IOException {
        assertEquals(name, SimtProfile.load(name).name());
        List<String> lines = Files.readAllLines(Path.of("src/main/resources/dev/finegrain/gpu/profiles",
                name + ".properties"));
        // A number needs a comment of its own right above it, or it sits in a group of keys under one comment
        // that gives its value (e.g. "1536 threads, 8 blocks per SM" above sm.maxThreads and sm.maxBlocks).
        StringBuilder groupComment = new StringBuilder();
        boolean previousWasComment = false;
        for (String line : lines) {
            if (line.startsWith("#")) {
                if (!previousWasComment) {
                    groupComment.setLength(0);
                }
                groupComment.append(line).append('\n');
                previousWasComment = true;
                continue;
            }
            boolean ownComment = previousWasComment;
            previousWasComment = false;
            if (!line.matches("[a-zA-Z.]+=.*")) {
                groupComment.setLength(0);
                continue;
            }
            if (!line.matches("[a-zA-Z.]+=[0-9.]+")) {
                continue;
            }
            String value = line.substring(line.indexOf('=') + 1);
            boolean groupCommentGivesIt = Pattern.compile("(?<![0-9.])" + Pattern.quote(value) + "(?![0-9])")
                    .matcher(groupComment).find();
            if (!ownComment && !groupCommentGivesIt) {
                throw new AssertionError(name + ": " + line + " has no comment of its own, and the comment above its"
                        + " group does not give " + value);
            }
        }
    }

    /** No mechanism of the model is on or off by a default: each built-in profile sets every key the model reads. */
    @ParameterizedTest
    @MethodSource("builtIn")
    void setsEveryKeyTheModelReadsExplicitly(String name) throws IOException {
        java.util.Properties declared = new java.util.Properties();
        declared.load(new java.io.StringReader(SimtProfile.text(name)));
        java.util.SortedSet<String> missing = new java.util.TreeSet<>(SimtProfile.keysRead(name));
        missing.removeAll(declared.stringPropertyNames());
        assertEquals(java.util.Set.of(), missing, name + " leaves these keys to the model's defaults");
    }

    @Test
    void fermiHasSeed001sLockUnitAndSeed000sLineHoldingAtomics() {
        SimtProfile fermi = SimtProfile.load("fermi-gtx570");
        assertEquals(1024, fermi.lockBits());
        assertEquals(2, fermi.lockAddressShift());
        assertEquals(SimMode.FERMI, fermi.defaultMode());
        assertTrue(fermi.atomicHoldsLine());
        assertFalse(SimtProfile.load("tesla-gtx295").atomicHoldsLine());
    }

    @Test
    void fencesCostByScopeWhereMeasuredAndOneKeyElsewhere() {
        SimtProfile hopper = SimtProfile.load("hopper-h200");
        assertEquals(12, hopper.membarLatency());
        assertEquals(555, hopper.membarGpuLatency());
        assertEquals(1023, hopper.membarSystemLatency());
        SimtProfile fermi = SimtProfile.load("fermi-gtx570");
        assertEquals(fermi.membarLatency(), fermi.membarGpuLatency());
        assertEquals(fermi.membarLatency(), fermi.membarSystemLatency());
        assertEquals(32, hopper.mbarrierLatency());
    }

    @Test
    void hopperSleepsRoundUpToAPowerOfTwoAsMeasured() {
        SimtProfile hopper = SimtProfile.load("hopper-h200");
        assertEquals(64, hopper.sleepNanoseconds(0));
        assertEquals(64, hopper.sleepNanoseconds(50));
        assertEquals(128, hopper.sleepNanoseconds(100));
        assertEquals(128, hopper.sleepNanoseconds(128));
        assertEquals(8192, hopper.sleepNanoseconds(5000));
        assertEquals(1_048_576, hopper.sleepNanoseconds(1_000_000));
    }

    @Test
    void aProfileFileWithALockBitCountThatIsNotAPowerOfTwoIsRefused(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        String fermi = Files.readString(Path.of("src/main/resources/dev/finegrain/gpu/profiles/fermi-gtx570.properties"));
        Path odd = dir.resolve("odd.properties");
        Files.writeString(odd, fermi.replace("sm.lockBits=1024", "sm.lockBits=1000"));
        assertEquals("profile " + odd + ": sm.lockBits must be 0 or a power of two, was 1000",
                assertThrows(SimUserException.class, () -> SimtProfile.load(odd.toString())).getMessage());
    }

    @Test
    void aProfileWithBothModelsOfTheSharedPortIsRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        String fermi = Files.readString(Path.of("src/main/resources/dev/finegrain/gpu/profiles/fermi-gtx570.properties"));
        assertTrue(fermi.contains("\nshared.portCycles=2"), "fermi-gtx570 sets shared.portCycles");
        Path both = dir.resolve("both.properties");
        Files.writeString(both, fermi + "\nshared.pollCycles=3.5\n");
        assertEquals("profile " + both + ": shared.portCycles and shared.pollCycles are two models of the SM's shared-memory"
                        + " port (every access queues, or polls queue); set one of them",
                assertThrows(SimUserException.class, () -> SimtProfile.load(both.toString())).getMessage());
    }

    @Test
    void programmaticLaunchNeedsAPipelinedLaunchStreamAndItsGap(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        String fermi = Files.readString(Path.of("src/main/resources/dev/finegrain/gpu/profiles/fermi-gtx570.properties"));
        Path serial = dir.resolve("serial.properties");
        Files.writeString(serial, fermi + "\nfeature.programmaticLaunch=true\nlaunch.programmaticGapCycles=100\n");
        assertEquals("profile " + serial + ": feature.programmaticLaunch needs launch.pipelined (a programmatic launch starts"
                        + " after the one before it by launch.programmaticGapCycles instead of launch.gapCycles)",
                assertThrows(SimUserException.class, () -> SimtProfile.load(serial.toString())).getMessage());
        String h200 = Files.readString(Path.of("src/main/resources/dev/finegrain/gpu/profiles/hopper-h200.properties"));
        assertTrue(h200.contains("\nlaunch.programmaticGapCycles=1311\n"), "hopper-h200 sets launch.programmaticGapCycles");
        Path noGap = dir.resolve("no-gap.properties");
        Files.writeString(noGap, h200.replace("\nlaunch.programmaticGapCycles=1311\n", "\n"));
        assertTrue(assertThrows(SimUserException.class, () -> SimtProfile.load(noGap.toString())).getMessage()
                .contains("launch.programmaticGapCycles"));
        assertEquals(1311, SimtProfile.load("hopper-h200").launchProgrammaticGapCycles());
    }
}
