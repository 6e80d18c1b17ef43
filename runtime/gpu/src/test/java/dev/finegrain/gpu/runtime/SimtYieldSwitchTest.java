package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Under independent thread scheduling, a spinning group that hands its warp to another group pays a hand-over. */
class SimtYieldSwitchTest {
    /** Lane k spins on lane k-1's shared flag, then raises its own: 31 hand-overs from the spinners to one lane. */
    private static final String CHAIN = """
            S2R R1, SR_TID.X;
            SHL R2, R1, 0x2;
            MOV32I R9, 0x1;
            ISETP.EQ.AND P0, pt, R1, RZ, pt;
            @P0 BRA done;
            wait: LDS R5, [R2+-0x4];
            ISETP.EQ.AND P1, pt, R5, RZ, pt;
            @P1 BRA wait;
            done: STS [R2], R9;
            EXIT;
            """;

    private static long chainCycles(SimtProfile profile, SimMode mode) {
        return SimtSimulator.run(SimRequest.builder("chain.sass", CHAIN).profile(profile).mode(mode).threads(32)
                .build()).kernelCycles();
    }

    /** The hopper-h100 profile with its.yieldSwitchCycles replaced. */
    private static SimtProfile h100With(Path dir, int cycles) throws IOException {
        String text;
        try (InputStream in = SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/hopper-h100.properties")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path file = dir.resolve("h100-" + cycles + ".properties");
        Files.writeString(file, text.replace("its.yieldSwitchCycles=108", "its.yieldSwitchCycles=" + cycles));
        return SimtProfile.load(file.toString());
    }

    @Test
    void everyHandOverFromTheSpinnersToTheNextLaneCostsTheSwitch(@TempDir Path dir) throws IOException {
        SimtProfile h100 = SimtProfile.load("hopper-h100");
        assertEquals(108, h100.yieldSwitchCycles());
        long without = chainCycles(h100With(dir, 0), SimMode.ITS);
        assertEquals(31L * 108, chainCycles(h100, SimMode.ITS) - without, "one hand-over per lane after lane 0");
    }

    @Test
    void teslaAndFermiSayTheyHaveNoHandOver() {
        for (String name : new String[] {"tesla-gtx295", "fermi-gtx570", "fermi-gtx580"}) {
            assertEquals(0, SimtProfile.load(name).yieldSwitchCycles(), name);
        }
    }
}
