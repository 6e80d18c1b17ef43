package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each SM's shared-memory port passes one warp-wide shared or lock-bit access at a time, {@code shared.portCycles}
 * per pass: warps whose accesses meet wait for each other's passes, and a warp alone never waits.
 */
class SimtSharedPortTest {
    /** fermi-gtx570 as shipped, with the port. */
    private static final String FERMI = "fermi-gtx570";
    /** fermi-gtx570 with the port switched off, every other cost the same. */
    private static String withoutPort;

    @BeforeAll
    static void writeProfileWithoutPort(@TempDir Path dir) throws IOException {
        String fermi = Files.readString(Path.of("src/main/resources/dev/finegrain/gpu/profiles/fermi-gtx570.properties"));
        Path file = dir.resolve("fermi-no-port.properties");
        Files.writeString(file, fermi.replace("shared.portCycles=2", "shared.portCycles=0"));
        withoutPort = file.toString();
    }

    /** Kernel cycles of {@code threads} threads, each lane k of each warp with R2 = k << shift, running {@code body}. */
    private static long cycles(String profile, int threads, int shift, String body) {
        String program = """
                S2R R1, SR_TID.X;
                LOP.AND R1, R1, 0x1f;
                SHL R2, R1, 0x%x;
                %s
                """.formatted(shift, body);
        return SimtSimulator.run(SimRequest.builder("port.sass", program).profile(profile).threads(threads)
                .sharedBytesPerBlock(32 * 1024).build()).kernelCycles();
    }

    /** What the port adds to a run of {@code threads} threads: cycles with it minus cycles without. */
    private static long portCost(int threads, int shift, String body) {
        return cycles(FERMI, threads, shift, body) - cycles(withoutPort, threads, shift, body);
    }

    @Test
    void fermiTakesTwoCyclesPerPassFromItsSixteenLoadStoreUnitsAndHopperHasNoPerAccessPort() {
        assertEquals(2, SimtProfile.load("fermi-gtx570").sharedPortCycles());
        assertEquals(2, SimtProfile.load("fermi-gtx580").sharedPortCycles());
        assertEquals(0, SimtProfile.load("hopper-h100").sharedPortCycles());
        assertEquals(0, SimtProfile.load("hopper-h200").sharedPortCycles());
        assertEquals(0, SimtProfile.load("tesla-gtx295").sharedPortCycles());
    }

    @Test
    void aWarpsAccessDoesNotWaitForItsOwnPassesButItsNextAccessDoes() {
        String loads = "LDS R3, [R2];\nLDS R4, [R2+0x80];\nIADD R5, R4, 0x1;";
        assertEquals(0, portCost(32, 2, loads), "conflict-free: each access is one pass, done before the next issues");
        assertEquals(0, portCost(32, 7, "LDS R3, [R2];\nIADD R4, R3, 0x1;"),
                "a 32-way conflict's replays are in the warp's own latency");
        int alu = SimtProfile.load(FERMI).aluLatency();
        assertEquals(2 * 32 - alu, portCost(32, 7, loads),
                "the second 32-way load issues one slot after the first and waits for the rest of its 32 passes");
    }

    @Test
    void twoWarpsWhoseLoadsIssueInTheSameCycleWaitOnePassForEachOther() {
        // both schedulers issue the two warps in the same cycles, so the second warp's load finds the first's pass
        assertEquals(2, portCost(64, 2, "LDS R3, [R2];\nIADD R4, R3, 0x1;"));
    }

    @Test
    void conflictingLanesHoldThePortOnePassPerReplay() {
        // lane k reads word 32k: all 32 words in bank 0, so the first warp holds the port for 32 passes of 2 cycles
        assertEquals(2 * 32, portCost(64, 7, "LDS R3, [R2];\nIADD R4, R3, 0x1;"));
        assertEquals(2 * 32, portCost(64, 7, "STS [R2], R1;"), "a store's passes hold the port as a load's do");
        assertEquals(2 * 32, portCost(64, 2, "MOV32I R5, 0x1;\nATOMS.ADD R3, [RZ], R5;\nIADD R4, R3, 0x1;"),
                "an atomic takes one pass per lane on its word");
    }

    @Test
    void lanesOnOneLockBitThroughOneWordAreOnePass() {
        // every lane of both warps tries the lock bit of word 0: one broadcast pass each, whatever the lock unit does
        assertEquals(2, portCost(64, 2, "MOV R2, RZ;\nLDSLK P0, R3, [R2];\nIADD R4, R3, 0x1;"));
        // lanes on their own words and bits, 32 words in bank 0 (word 32k): 32 passes, as for LDS
        assertEquals(2 * 32, portCost(64, 7, "LDSLK P0, R3, [R2];\nIADD R4, R3, 0x1;"));
    }
}
