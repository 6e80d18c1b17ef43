package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code finegrain sim}: exit codes, the dump's format, and one-line errors for the user's mistakes. */
class SimCommandTest {

    /** Lane i of one warp stores 100 + i to shared word i, after taking and releasing the word's lock bit. */
    private static final String STORES = """
            S2R R1, SR_LANEID;
            SHL R0, R1, 0x2;
            LDSLK P0, RZ, [R0];
            IADD R4, R1, 0x64;
            STSUL [R0], R4;
            EXIT;
            """;

    /** Seed 001 §4.4.1: lane 0 produces, the other lanes of its warp consume; under Fermi a SIMD deadlock. */
    private static final String ONE_WARP_PRODUCER_CONSUMER = """
            S2R R1, SR_LANEID;
            ISETP.EQ.AND P1, pt, R1, RZ, pt;
            MOV R0, RZ;
            @P1 LDSLK P0, RZ, [R0];
            @P1 BRA produce;
            wait: LDSLK P0, R2, [R0];
            @!P0 BRA wait;
            STSUL [R0], R2;
            EXIT;
            produce: MOV32I R4, 0x2a;
            STSUL [R0], R4;
            EXIT;
            """;

    private record Outcome(int exit, String out, String err) {}

    private static Outcome sim(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(KernelCatalog.of(List.of()), new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void aCompletedProgramExitsZeroAndDumpsOneWordPerLineInDecimal(@TempDir Path folder) throws IOException {
        Path program = Files.writeString(folder.resolve("stores.sass"), STORES);
        Outcome outcome = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32", "--dump", "shared", "0:0x10");
        assertEquals(0, outcome.exit(), outcome.err());
        assertTrue(outcome.out().contains("completed"), outcome.out());
        List<String> dump = outcome.out().lines().dropWhile(line -> !line.startsWith("dump shared block 0")).skip(1).toList();
        assertEquals(List.of("  0x0000 100", "  0x0004 101", "  0x0008 102", "  0x000c 103"), dump);
    }

    @Test
    void aSimdDeadlockExitsThreeWithItsReport(@TempDir Path folder) throws IOException {
        Path program = Files.writeString(folder.resolve("one-warp.sass"), ONE_WARP_PRODUCER_CONSUMER);
        Outcome fermi = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32", "--max-cycles", "200000");
        assertEquals(3, fermi.exit(), fermi.out() + fermi.err());
        assertTrue(fermi.out().toLowerCase().contains("simd deadlock"), fermi.out());
        Outcome its = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32", "--mode", "its");
        assertEquals(0, its.exit(), "independent thread scheduling lets the producer lane run on:\n" + its.out());
    }

    @Test
    void anUnknownProfileIsOneLineAndExitTwo(@TempDir Path folder) throws IOException {
        Path program = Files.writeString(folder.resolve("stores.sass"), STORES);
        Outcome outcome = sim("sim", program.toString(), "--profile", "kepler-k80", "--threads", "32");
        assertEquals(2, outcome.exit());
        assertEquals(1, outcome.err().lines().count(), outcome.err());
        assertTrue(outcome.err().contains("kepler-k80"), outcome.err());
        assertFalse(outcome.err().contains("at dev."), outcome.err());
    }

    @Test
    void aParseErrorNamesFileLineAndColumn(@TempDir Path folder) throws IOException {
        Path program = Files.writeString(folder.resolve("broken.sass"), "S2R R1, SR_LANEID;\nIADD R4, R1;\nEXIT;\n");
        Outcome outcome = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32");
        assertEquals(2, outcome.exit());
        assertTrue(outcome.err().matches("(?s)finegrain: .*broken\\.sass:2:\\d+: .*expected.*"), outcome.err());
    }

    @Test
    void anEmptyFileIsOneLineSayingItHasNoInstructions(@TempDir Path folder) throws IOException {
        Path program = Files.writeString(folder.resolve("empty.sass"), "");
        Outcome outcome = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32");
        assertEquals(2, outcome.exit());
        assertEquals("finegrain: " + program + ": the program has no instructions; write one per line as in"
                + " docs/simt-isa.md, ending with EXIT\n", outcome.err());
    }

    @Test
    void aBinaryFileIsOneLineSayingItIsNotText(@TempDir Path folder) throws IOException {
        Path program = Files.write(folder.resolve("a.out"), new byte[] {0x7f, 'E', 'L', 'F', (byte) 0xc3, (byte) 0x28, 0, 1});
        Outcome outcome = sim("sim", program.toString(), "--profile", "fermi-gtx570", "--threads", "32");
        assertEquals(2, outcome.exit());
        assertEquals("finegrain: cannot read " + program + ": it is not a UTF-8 text file; give a program in the model ISA"
                + " (docs/simt-isa.md)\n", outcome.err());
    }
}
