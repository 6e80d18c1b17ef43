package dev.finegrain.gpu;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Programs with mistakes, parse-time or run-time, fail with the one-line {@code file:line:column:} message. */
class SimtErrorCorpusTest {

    static List<Path> programs() {
        return Corpus.programs("errors");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void failsWithTheGoldenMessage(Path program) {
        SimUserException error = assertThrows(SimUserException.class,
                () -> SimtSimulator.run(Corpus.request(program, SimMode.FERMI)));
        String actual = error.getMessage() + "\n";
        String name = program.getFileName().toString().replace(".sass", ".expected");
        assertEquals(Corpus.expected(program.resolveSibling(name), actual), actual);
    }
}
