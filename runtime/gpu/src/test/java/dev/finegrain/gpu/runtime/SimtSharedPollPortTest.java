package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Polls, stores and shared atomics queue at the SM's shared port, {@code shared.pollCycles} each; other loads do not. */
class SimtSharedPollPortTest {
    private static final int ROUNDS = 40;

    /**
     * Kernel cycles of {@code threads} threads whose warps each load {@code ROUNDS} times through one LDS: the word of
     * their warp every time (a poll from the second load on) or, with {@code moving}, the next word each time.
     */
    private static long cycles(String profile, int threads, boolean moving) {
        String program = """
                S2R R1, SR_WARPID;
                SHL R2, R1, 0x2;
                MOV32I R5, 0x0;
                again: LDS R3, [R2];
                IADD R2, R2, %s;
                IADD R5, R5, 0x1;
                ISETP.LT.AND P0, pt, R5, %s, pt;
                @P0 BRA again;
                """.formatted(moving ? "0x80" : "RZ", "0x" + Integer.toHexString(ROUNDS));
        return SimtSimulator.run(SimRequest.builder("poll.sass", program).profile(profile).threads(threads)
                .sharedBytesPerBlock(ROUNDS * 128 + 128).build()).kernelCycles();
    }

    /**
     * The hopper-h100 profile without the keys that start with {@code prefixes}, as a file. The port's tests leave out
     * the poll loop's costs ({@link SimtPollLoopTest}) on both sides, so that they compare the port alone.
     */
    static String h100Without(String... prefixes) throws IOException {
        try (InputStream in = SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/hopper-h100.properties")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String prefix : prefixes) {
                text = text.replaceAll("(?m)^" + java.util.regex.Pattern.quote(prefix), "#");
            }
            Path file = Files.createTempFile("hopper-h100-without", ".properties");
            file.toFile().deleteOnExit();
            return Files.writeString(file, text).toString();
        }
    }

    /** The hopper-h100 profile with its shared port, without the poll loop's costs. */
    private static String h100WithPort() throws IOException {
        return h100Without("pollLoop.");
    }

    /** The hopper-h100 profile with neither its shared port nor the poll loop's costs. */
    private static String h100WithoutPort() throws IOException {
        return h100Without("pollLoop.", "shared.pollCycles=");
    }

    @Test
    void thirtyTwoPollingWarpsTakeThePortInTurn() throws IOException {
        SimtProfile h100 = SimtProfile.load("hopper-h100");
        assertEquals(4.15, h100.sharedPollCycles());
        long withPort = cycles(h100WithPort(), 1024, false);
        long without = cycles(h100WithoutPort(), 1024, false);
        double saturated = (ROUNDS - 1) * 32 * 4.15;
        assertTrue(withPort >= saturated && withPort <= saturated + 2 * without / ROUNDS + 200,
                "39 rounds of 32 polls at 4.15 cycles each (" + saturated + ") plus about one free round; was "
                        + withPort + " (" + without + " without the port)");
    }

    @Test
    void aWarpPollingAloneNeverWaits() throws IOException {
        assertEquals(cycles(h100WithoutPort(), 32, false), cycles(h100WithPort(), 32, false),
                "one poll per loop of LDS + IADD + IADD + ISETP + BRA, far longer than the 4.15 cycles the port takes");
    }

    @Test
    void loadsThatAreNotPollsGoFirst() throws IOException {
        assertEquals(cycles(h100WithoutPort(), 1024, true), cycles(h100WithPort(), 1024, true),
                "every load reads a new word, so none is a poll and none waits");
    }

    /**
     * Kernel cycles of 1024 threads whose warps each read {@code ROUNDS} new words (no poll), then add to their warp's
     * word with a shared atomic and use the result.
     */
    private static long loadsThenAtomic(String profile) {
        String program = """
                S2R R1, SR_WARPID;
                SHL R2, R1, 0x2;
                MOV R6, R2;
                MOV32I R5, 0x0;
                again: LDS R3, [R2];
                IADD R2, R2, 0x80;
                IADD R5, R5, 0x1;
                ISETP.LT.AND P0, pt, R5, %s, pt;
                @P0 BRA again;
                MOV32I R7, 0x1;
                ATOMS.ADD R8, [R6], R7;
                IADD R9, R8, 0x1;
                """.formatted("0x" + Integer.toHexString(ROUNDS));
        return SimtSimulator.run(SimRequest.builder("atomic.sass", program).profile(profile).threads(1024)
                .sharedBytesPerBlock(ROUNDS * 128 + 128).build()).kernelCycles();
    }

    @Test
    void loadsThatAreNotPollsLeaveNoBacklogForTheNextAtomic() throws IOException {
        long extra = loadsThenAtomic(h100WithPort()) - loadsThenAtomic(h100WithoutPort());
        assertTrue(extra >= 0 && extra <= 32 * 4.15 + 4,
                "at most the 32 warps' atomics queue behind each other (133 cycles), not the 32 x 40 loads before them"
                        + " (4480); was " + extra);
    }

    /** Kernel cycles of 1024 threads whose warps poll two words of their own in one loop, 4 instructions apart. */
    private static long twoPolls(String profile) {
        String program = """
                S2R R1, SR_WARPID;
                SHL R2, R1, 0x2;
                IADD R6, R2, 0x80;
                MOV32I R5, 0x0;
                again: LDS R3, [R2];
                IADD R5, R5, 0x1;
                ISETP.LT.AND P0, pt, R5, %s, pt;
                MOV R7, R3;
                LDS R4, [R6];
                @P0 BRA again;
                """.formatted("0x" + Integer.toHexString(ROUNDS));
        return SimtSimulator.run(SimRequest.builder("two-polls.sass", program).profile(profile).threads(1024)
                .sharedBytesPerBlock(256).build()).kernelCycles();
    }

    @Test
    void aLoopPollingTwoWordsPollsBoth() throws IOException {
        long withPort = twoPolls(h100WithPort());
        long without = twoPolls(h100WithoutPort());
        double bothQueue = 2 * (ROUNDS - 1) * 32 * 4.15;
        assertTrue(withPort >= bothQueue && without < bothQueue / 2,
                "both loads repeat their address, so 32 warps x 2 polls x 39 rounds take the port 4.15 cycles each ("
                        + bothQueue + "); was " + withPort + " (" + without + " without the port)");
    }

    /** Kernel cycles of a block of 1024 threads that store their index, meet at a barrier, then load {@code load}. */
    private static long storesThenBarrier(String load) {
        String program = """
                S2R R1, SR_TID.X;
                SHL R2, R1, 0x2;
                STS [R2], R1;
                BAR.SYNC 0x0;
                LDS R3, [%s];
                IADD R4, R3, 0x1;
                """.formatted(load);
        return SimtSimulator.run(SimRequest.builder("barrier.sass", program).profile("hopper-h100").threads(1024)
                .build()).kernelCycles();
    }

    @Test
    void aBarrierOrdersTheStoresStillQueuedAtThePort() {
        assertEquals(storesThenBarrier("R2"), storesThenBarrier("R2+0x80"),
                "32 warp stores queue 133 cycles at the port, yet after the barrier a word of another warp is seen"
                        + " as soon as a thread's own");
    }

    /** Kernel cycles of the fit's model-ISA counterpart with {@code warps} warps (docs/profiles.md, "Many spinning warps"). */
    private static long bystanders(String profile, int warps) throws IOException {
        String program = Files.readString(Path.of("microbench/model/pingpong-bystanders.sass"));
        return SimtSimulator.run(SimRequest.builder("pingpong-bystanders.sass", program).profile(profile)
                .threads(32 * warps).build()).kernelCycles();
    }

    @Test
    void theFitsCounterpartRisesAsTheH100sHandOffDoesAmongThirtySpinners() throws IOException {
        double rise = (bystanders("hopper-h100", 32) - bystanders("hopper-h100", 2)) / 200.0;
        assertEquals(81.0, rise, 0.5, "4.15 cycles was fitted so that this rise matches the H100's 81.5 per hand-off; a model"
                + " change that moves it moves the fit (docs/profiles.md)");
    }

    @Test
    void theH200sFitRisesAsItsOwnHandOffDid() throws IOException {
        double rise = (bystanders("hopper-h200", 32) - bystanders("hopper-h200", 2)) / 200.0;
        assertEquals(73.9, rise, 0.6, "4.0 cycles was fitted so that this rise matches the H200's 74.3 and 73.5 per hand-off"
                + " (2026-11-29; docs/profiles.md)");
    }

    @Test
    void otherProfilesHaveNoPort() throws IOException {
        for (String profile : new String[] {"fermi-gtx570", "fermi-gtx580", "tesla-gtx295"}) {
            assertEquals(0.0, SimtProfile.load(profile).sharedPollCycles(), profile);
        }
        assertEquals(cycles(h100WithoutPort(), 1024, true), cycles(h100WithoutPort(), 1024, false),
                "without the port a poll costs what any load costs");
    }
}
