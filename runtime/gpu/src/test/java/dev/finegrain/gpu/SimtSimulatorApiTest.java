package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the CLI relies on: requests, results, exit codes, formats, and one-line user errors. */
class SimtSimulatorApiTest {

    private static SimResult run(SimRequest.Builder request) {
        return SimtSimulator.run(request.build());
    }

    private static SimRequest.Builder program(String source) {
        return SimRequest.builder("test.sass", source);
    }

    @Test
    void initializedGlobalMemoryIsReadAndTheDumpShowsTheStores() {
        SimResult result = run(program("""
                S2R R1, SR_TID.X;
                SHL R2, R1, 0x2;
                LDG R3, [R2];
                IMAD R3, R3, 0x3, R1;
                STG [R2+0x100], R3;
                """).threads(4).init(MemoryInit.parse("global:0x0=10,20,30,-40"))
                .dump(DumpRange.parse("global", "0x100:0x110")));
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(30, result.word(MemorySpace.GLOBAL, -1, 0x100));
        assertEquals(61, result.word(MemorySpace.GLOBAL, -1, 0x104));
        assertEquals(-117, result.word(MemorySpace.GLOBAL, -1, 0x10c));
    }

    @Test
    void sharedInitIsWrittenIntoEveryBlock() {
        SimResult result = run(program("""
                S2R R1, SR_CTAID.X;
                LDS R2, [RZ];
                IADD R2, R2, R1;
                STS [0x4], R2;
                """).blocks(3).threads(1).init(MemoryInit.parse("shared:0x0=7"))
                .dump(DumpRange.parse("shared", "0:8")));
        for (int block = 0; block < 3; block++) {
            assertEquals(7 + block, result.word(MemorySpace.SHARED, block, 0x4));
        }
    }

    @Test
    void sharedAndGlobalAtomicsReturnOldValuesAndSerialize() {
        SimResult result = run(program("""
                S2R R1, SR_LANEID;
                MOV32I R5, 0x1;
                ATOMS.ADD R2, [RZ], R5;
                ATOM.ADD R3, [RZ], R1;
                ATOMS.CAS R4, [0x4], RZ, R5;
                SHL R6, R1, 0x2;
                STS [R6+0x100], R2;
                """).threads(32).dump(DumpRange.parse("shared", "0:8"))
                .dump(DumpRange.parse("shared", "0x100:0x180")).dump(DumpRange.parse("global", "0:4")));
        assertEquals(32, result.word(MemorySpace.SHARED, 0, 0));
        assertEquals(1, result.word(MemorySpace.SHARED, 0, 4), "only the first lane's CAS from 0 succeeds");
        assertEquals(31, result.word(MemorySpace.SHARED, 0, 0x17c), "lane 31 saw the 31 increments before it");
        assertEquals(496, result.word(MemorySpace.GLOBAL, -1, 0));
        assertEquals(96L, result.counters().get("atomics"));
    }

    @Test
    void voteAllIsFalseWhenOneLaneDissentsAndTheBallotHasItsBits() {
        SimResult result = run(program("""
                S2R R1, SR_LANEID;
                ISETP.NE.AND P0, pt, R1, 0x5, pt;
                VOTE.ALL R2, P1, P0;
                VOTE.ANY R3, P2, P0;
                SEL R4, R1, 0x63, P1;
                SEL R5, R3, RZ, P2;
                SHL R6, R1, 0x2;
                STS [R6], R4;
                STS [R6+0x80], R5;
                """).threads(32).dump(DumpRange.parse("shared", "0:0x100")));
        assertEquals(99, result.word(MemorySpace.SHARED, 0, 0));
        assertEquals(~(1 << 5), result.word(MemorySpace.SHARED, 0, 0x80));
    }

    @Test
    void unsignedComparisonAndShiftsFollowSass() {
        SimResult result = run(program("""
                MOV32I R1, 0xffffffff;
                ISETP.GT.U32.AND P0, pt, R1, 0x1, pt;
                ISETP.GT.AND P1, pt, R1, 0x1, pt;
                MOV R7, 0x1;
                SEL R2, R7, RZ, P0;
                SEL R3, R7, RZ, P1;
                SHR R4, R1, 0x1c;
                SHR.U32 R5, R1, 0x1c;
                SHL R6, R1, 0x20;
                STS [0x0], R2;
                STS [0x4], R3;
                STS [0x8], R4;
                STS [0xc], R5;
                STS [0x10], R6;
                """).threads(1).dump(DumpRange.parse("shared", "0:0x14")));
        assertEquals(1, result.word(MemorySpace.SHARED, 0, 0));
        assertEquals(0, result.word(MemorySpace.SHARED, 0, 4));
        assertEquals(-1, result.word(MemorySpace.SHARED, 0, 8));
        assertEquals(15, result.word(MemorySpace.SHARED, 0, 0xc));
        assertEquals(0, result.word(MemorySpace.SHARED, 0, 0x10));
    }

    @Test
    void namedBarrierLetsAConsumerWarpWaitForAProducerWarp() {
        SimResult result = run(program("""
                S2R R1, SR_WARPID;
                S2R R2, SR_LANEID;
                SHL R3, R2, 0x2;
                ISETP.EQ.AND P0, pt, R1, RZ, pt;
                @P0 BRA produce;
                BAR.SYNC 0x1, 0x40;
                LDS R4, [R3];
                STS [R3+0x80], R4;
                EXIT;
                produce: IADD R4, R2, 0x7;
                STS [R3], R4;
                BAR.ARRIVE 0x1, 0x40;
                """).threads(64).dump(DumpRange.parse("shared", "0x80:0x100")));
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(7, result.word(MemorySpace.SHARED, 0, 0x80));
        assertEquals(38, result.word(MemorySpace.SHARED, 0, 0xfc));
    }

    @Test
    void aBarrierThatTooFewThreadsReachIsABarrierDeadlock() {
        SimResult result = run(program("""
                S2R R1, SR_WARPID;
                ISETP.EQ.AND P0, pt, R1, RZ, pt;
                @P0 BAR.SYNC 0x2, 0x40;
                loop: BRA loop;
                """).threads(64).watchdogCycles(2000));
        assertEquals(SimStatus.DEADLOCK, result.status());
        assertEquals(DeadlockKind.BARRIER, result.deadlock().kind());
        assertTrue(result.toTable().contains("waits at barrier 2 (32 of 64 threads arrived)"), result.toTable());
    }

    @Test
    void aLoopThatKeepsChangingStopsAtMaxCyclesWithItsOwnExitCode() {
        SimResult result = run(program("loop: S2R R1, SR_CLOCKLO; BRA loop;").maxCycles(5000));
        assertEquals(SimStatus.MAX_CYCLES, result.status());
        assertEquals(4, result.exitCode());
        assertEquals(5000, result.kernelCycles());
    }

    @Test
    void jsonCarriesStatusCyclesCountersDeadlockAndDumps() {
        SimResult result = run(program("S2R R1, SR_TID.X; STS [RZ], R1;").threads(1)
                .dump(DumpRange.parse("shared", "0:4")));
        String json = result.toJson();
        assertTrue(json.startsWith("{\"program\":\"test.sass\",\"profile\":\"fermi-gtx570\",\"mode\":\"fermi\","
                + "\"status\":\"completed\",\"exitCode\":0,\"cycles\":{\"total\":"), json);
        assertTrue(json.contains("\"deadlock\":null"), json);
        assertTrue(json.endsWith("\"dumps\":[{\"space\":\"shared\",\"block\":0,\"from\":0,\"words\":[0]}]}"), json);
    }

    @Test
    void theModeDefaultsToTheProfiles() {
        assertEquals(SimMode.FERMI, run(program("EXIT;").profile("tesla-gtx295")).mode());
        assertEquals(SimMode.ITS, run(program("EXIT;").profile("hopper-h200")).mode());
    }

    @Test
    void userErrorsAreOneLine() {
        assertEquals("unknown profile 'fermi-gtx999' (built in: tesla-gtx295, fermi-gtx570, fermi-gtx580,"
                        + " hopper-h200, hopper-h100; or the path of a .properties file)",
                assertThrows(SimUserException.class, () -> run(program("EXIT;").profile("fermi-gtx999")))
                        .getMessage());
        assertEquals("cannot read no/such.sass: no such file", assertThrows(SimUserException.class,
                () -> SimtSimulator.run(SimRequest.builder(Path.of("no/such.sass")).build())).getMessage());
        assertEquals("a block of 2048 threads exceeds fermi-gtx570's limit of 1024", assertThrows(
                SimUserException.class, () -> run(program("EXIT;").threads(2048))).getMessage());
        assertEquals("init 'global:0x0=1,x': 'x' is not a 32-bit value",
                assertThrows(SimUserException.class, () -> MemoryInit.parse("global:0x0=1,x")).getMessage());
        assertEquals("unknown mode 'volta' (expected fermi or its)",
                assertThrows(SimUserException.class, () -> SimMode.parse("volta")).getMessage());
    }

    @Test
    void hopperOnlyInstructionsFaultOnFermi() {
        assertEquals("test.sass:1:1: NANOSLEEP: the profile fermi-gtx570 has no NANOSLEEP (block 0 warp 0 lane 0)",
                assertThrows(SimUserException.class, () -> run(program("NANOSLEEP 0x64;"))).getMessage());
    }

    @Test
    void mbarrierPhasesCompleteWhenEveryWarpArrived() {
        SimResult result = run(program("""
                S2R R1, SR_TID.X;
                ISETP.EQ.AND P0, pt, R1, RZ, pt;
                @P0 MBARRIER.INIT [0x10], 0x2;
                BAR.SYNC 0x0;
                S2R R2, SR_LANEID;
                ISETP.EQ.AND P1, pt, R2, RZ, pt;
                @P1 MBARRIER.ARRIVE R3, [0x10];
                wait: @P1 MBARRIER.TRY_WAIT P2, [0x10], R3;
                @P1 NANOSLEEP 0x20;
                @P1 PSETP.AND P3, pt, P2, pt, pt;
                @!P1 PSETP.AND P3, pt, pt, pt, pt;
                @!P3 BRA wait;
                @P1 STS [R1+0x20], R3;
                """).profile("hopper-h200").threads(64).dump(DumpRange.parse("shared", "0x20:0x24")));
        assertEquals(SimStatus.COMPLETED, result.status());
        assertEquals(0, result.word(MemorySpace.SHARED, 0, 0x20), "the phase each warp arrived in");
    }
}
