package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An SM with more than 64 resident warps, which no built-in profile has: the scheduler's bit sets and timing wheel
 * then span two words. Eight blocks of 16 warps on one SM, each thread looping over global loads (whose latency
 * passes the wheel's reach) and ALU work, must leave every block's shared memory as the built-in Fermi profile does,
 * where the blocks spread over 15 SMs. (The program takes no lock bits: those are per SM, so packing blocks onto one
 * SM would change what a locking program computes.)
 */
class WideSmSchedulingTest {

    @Test
    void oneSmWith128WarpsComputesWhatFifteenSmsCompute(@TempDir Path folder) throws IOException {
        String fermi;
        try (InputStream in = SimtProfile.class.getResourceAsStream("/dev/finegrain/gpu/profiles/fermi-gtx570.properties")) {
            fermi = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path wide = folder.resolve("wide-sm.properties");
        Files.writeString(wide, fermi.replace("profile.name=fermi-gtx570", "profile.name=wide-sm")
                .replace("sm.count=15", "sm.count=1").replace("sm.maxThreads=1536", "sm.maxThreads=4096")
                .replace("sm.sharedBytes=49152", "sm.sharedBytes=262144").replace("sm.lockBits=1024", "sm.lockBits=8192"));
        String program = """
                /*0000*/ S2R R0, SR_TID.X;
                /*0008*/ SHL R1, R0, 0x2;
                /*0010*/ MOV R2, RZ;
                /*0018*/ MOV R3, RZ;
                /*0020*/ LDG R4, [R1];
                /*0028*/ IADD R2, R2, R4;
                /*0030*/ IADD R2, R2, R3;
                /*0038*/ IADD R2, R2, R0;
                /*0040*/ IADD R3, R3, 0x1;
                /*0048*/ ISETP.LT.AND P0, PT, R3, 0x8, PT;
                /*0050*/ @P0 BRA 0x20;
                /*0058*/ STS [R1], R2;
                /*0060*/ EXIT;
                """;
        DumpRange everyBlock = DumpRange.parse("shared", "0x0:0x800");

        SimResult spread = SimtSimulator.run(SimRequest.builder("loads.sass", program).profile("fermi-gtx570").blocks(8).threads(512)
                .dump(everyBlock).build());
        SimResult packed = SimtSimulator.run(SimRequest.builder("loads.sass", program).profile(wide.toString()).blocks(8).threads(512)
                .dump(everyBlock).build());

        assertEquals(SimStatus.COMPLETED, spread.status());
        assertEquals(SimStatus.COMPLETED, packed.status());
        assertEquals(1, packed.blocks().stream().mapToInt(SimResult.BlockCycles::sm).distinct().count(), "one SM");
        assertEquals(spread.dumps().size(), packed.dumps().size());
        for (int block = 0; block < spread.dumps().size(); block++) {
            assertArrayEquals(spread.dumps().get(block).words(), packed.dumps().get(block).words(), "block " + block);
            assertEquals(8 * 100 + 28, packed.dumps().get(block).words()[100], "thread 100: 8 x tid + 0 + 1 + ... + 7");
        }
        assertEquals(spread.counters().get("threadInstructions"), packed.counters().get("threadInstructions"));
    }
}
