package dev.finegrain.gpu;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every corpus program runs to its golden table, once per divergence mode, on fermi-gtx570: the Fermi suite
 * compares against {@code name.fermi.expected}, the ITS suite against {@code name.its.expected}.
 */
class SimtCorpusTest {

    static List<Path> programs() {
        return Corpus.programs("corpus");
    }

    @ParameterizedTest(name = "fermi {0}")
    @MethodSource("programs")
    void runsAsTheGoldenSaysUnderFermi(Path program) {
        check(program, SimMode.FERMI);
    }

    @ParameterizedTest(name = "its {0}")
    @MethodSource("programs")
    void runsAsTheGoldenSaysUnderIndependentThreadScheduling(Path program) {
        check(program, SimMode.ITS);
    }

    private static void check(Path program, SimMode mode) {
        String actual = SimtSimulator.run(Corpus.request(program, mode)).toTable();
        String name = program.getFileName().toString().replace(".sass", "." + mode.label() + ".expected");
        assertEquals(Corpus.expected(program.resolveSibling(name), actual), actual);
    }
}
