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
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.matches("[a-zA-Z.]+=[0-9.]+") && !lines.get(i - 1).startsWith("#")
                    && !lines.get(i - 1).matches("[a-zA-Z.]+=.*")) {
                throw new AssertionError(name + ": no source or reasoning above " + line);
            }
        }
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
}
