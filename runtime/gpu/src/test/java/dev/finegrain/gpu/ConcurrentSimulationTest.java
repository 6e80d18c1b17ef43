package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Independent simulations on concurrent threads compute exactly what they compute one after another. Every program
 * of the golden corpus in both modes, the error corpus, and larger runs (seed 001's validation kernel on 30 blocks of
 * each built-in profile, the Needleman-Wunsch tile on 8 blocks, global atomics and line queues over 16 blocks, a
 * Hopper program with mbarriers and NANOSLEEP) run once on this thread; then, twice over, each of them is handed
 * twice in a row to a pool of 4 threads, so that runs of one kernel, sharing its call targets, overlap. Every outcome
 * (the result's JSON: status, cycles per block, counters, resources, deadlock report and memory dumps; or the user
 * error's message) must equal the sequential one, character for character.
 */
class ConcurrentSimulationTest {
    private static final int THREADS = 4;
    private static final int PASSES = 2;

    @Test
    void runsOnAPoolOfThreadsGiveTheSequentialOutcomes() throws Exception {
        Map<String, SimRequest> requests = requests();
        Map<String, String> sequential = new LinkedHashMap<>();
        requests.forEach((name, request) -> sequential.put(name, outcome(request)));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int pass = 1; pass <= PASSES; pass++) {
                List<String> names = new ArrayList<>();
                List<Future<String>> outcomes = new ArrayList<>();
                for (Map.Entry<String, SimRequest> entry : requests.entrySet()) {
                    for (int copy = 0; copy < 2; copy++) {
                        names.add(entry.getKey());
                        outcomes.add(pool.submit(() -> outcome(entry.getValue())));
                    }
                }
                for (int i = 0; i < outcomes.size(); i++) {
                    assertEquals(sequential.get(names.get(i)), outcomes.get(i).get(),
                            names.get(i) + " on the pool, pass " + pass);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String outcome(SimRequest request) {
        try {
            return SimtSimulator.run(request).toJson();
        } catch (SimUserException e) {
            return "user error: " + e.getMessage();
        }
    }

    private static Map<String, SimRequest> requests() {
        Map<String, SimRequest> requests = new LinkedHashMap<>();
        for (Path program : Corpus.programs("corpus")) {
            for (SimMode mode : SimMode.values()) {
                requests.put(program.getFileName() + " " + mode.label(), Corpus.request(program, mode));
            }
        }
        for (Path program : Corpus.programs("errors")) {
            requests.put(program.getFileName().toString(), Corpus.request(program, SimMode.FERMI));
        }
        Path corpus = Corpus.ROOT.resolve("corpus");
        for (String profile : List.of("tesla-gtx295", "fermi-gtx570", "fermi-gtx580", "hopper-h200")) {
            requests.put("listing13-validation, 30 blocks, " + profile,
                    SimRequest.builder(corpus.resolve("listing13-validation.sass")).profile(profile).blocks(30)
                            .threads(512).build());
        }
        requests.put("listing15-needleman-wunsch, 8 blocks",
                SimRequest.builder(corpus.resolve("listing15-needleman-wunsch.sass")).blocks(8).threads(1024)
                        .dump(DumpRange.parse("shared", "0x0:0x1000")).build());
        requests.put("global atomics, 16 blocks", SimRequest.builder("global-atomics.sass", """
                S2R R1, SR_TID.X;
                S2R R2, SR_CTAID.X;
                SHL R3, R1, 0x2;
                SHL R4, R2, 0x8;
                IADD R3, R3, R4;
                MOV32I R5, 0x1;
                ATOM.ADD R6, [RZ], R5;
                STG [R3+0x100], R6;
                LDG R7, [R3+0x100];
                ATOM.ADD R8, [0x4], R7;
                STG [R3+0x1100], R8;
                """).blocks(16).threads(64).dump(DumpRange.parse("global", "0x0:0x2100")).build());
        requests.put("mbarriers and NANOSLEEP on hopper-h200", SimRequest.builder("mbarrier-sleep.sass", """
                S2R R1, SR_TID.X;
                ISETP.EQ.AND P0, pt, R1, RZ, pt;
                @P0 MBARRIER.INIT [0x10], 0x4;
                BAR.SYNC 0x0;
                S2R R2, SR_LANEID;
                ISETP.EQ.AND P1, pt, R2, RZ, pt;
                @P1 MBARRIER.ARRIVE R3, [0x10];
                wait: @P1 MBARRIER.TRY_WAIT P2, [0x10], R3;
                @P1 NANOSLEEP 0x20;
                @P1 PSETP.AND P3, pt, P2, pt, pt;
                @!P1 PSETP.AND P3, pt, pt, pt, pt;
                @!P3 BRA wait;
                MEMBAR.GL;
                @P1 STS [R1+0x20], R3;
                """).profile("hopper-h200").blocks(4).threads(128).dump(DumpRange.parse("shared", "0x20:0x80"))
                .build());
        return requests;
    }
}
