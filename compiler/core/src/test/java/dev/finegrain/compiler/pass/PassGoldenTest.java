package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.CompilerBugException;
import dev.finegrain.compiler.ir.IrVerifier;
import dev.finegrain.compiler.ir.KernelGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text in, text out: the IR printed after the lowering and after every pass, with the verifier run after each,
 * must equal the golden file. After a deliberate change, regenerate with
 * {@code ./mvnw -pl compiler/core test -Dtest=PassGoldenTest -Dfinegrain.golden.update=true} and review the diff.
 */
class PassGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/passes");

    @ParameterizedTest
    @ValueSource(strings = {"nw", "two-actors", "skewed-3d"})
    void irAfterEachPassMatchesGolden(String name) throws IOException {
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        Pipeline.run(GoldenKernels.all().get(name), true, new PrintStream(trace, true, StandardCharsets.UTF_8));
        String actual = trace.toString(StandardCharsets.UTF_8);
        Path golden = GOLDEN.resolve(name + ".txt");
        if (Boolean.getBoolean("finegrain.golden.update")) {
            Files.writeString(golden, actual);
        }
        assertEquals(Files.readString(golden), actual);
    }

    @Test
    void everyPassStatesItsContract() {
        for (Pass pass : Pipeline.STANDARD) {
            assertTrue(pass.contract().endsWith("."), pass.name());
            assertTrue(pass.name().matches("[a-z-]+"), pass.name());
        }
    }

    @Test
    void verifierRejectsAHyperplaneThatDoesNotOrderAChannel() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch()).withHyperplane(new int[] {1, 0});
        CompilerBugException bug = assertThrows(CompilerBugException.class, () -> IrVerifier.verify(graph, "find-hyperplane"));
        assertTrue(bug.getMessage().startsWith("compiler bug after pass find-hyperplane: hyperplane (1,0) does not order (0,1)\n--- IR ---\n"),
                bug.getMessage());
    }

    @Test
    void verifierRejectsAnImplicationChainThatDoesNotSum() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch());
        var channels = new java.util.ArrayList<>(graph.channels());
        channels.set(0, channels.get(0).withImpliedBy(java.util.List.of(1, 1)));
        CompilerBugException bug = assertThrows(CompilerBugException.class,
                () -> IrVerifier.verify(graph.withChannels(channels), "reduce-channels"));
        assertTrue(bug.getMessage().startsWith("compiler bug after pass reduce-channels: channel #0 chain sums to (2,0)"), bug.getMessage());
    }

    @Test
    void verifierRejectsAnActorOrderThatFiresAConsumerFirst() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.twoActors());
        CompilerBugException bug = assertThrows(CompilerBugException.class,
                () -> IrVerifier.verify(graph.withActorOrder(java.util.List.of(0, 1)), "order-actors-at-point"));
        assertTrue(bug.getMessage().contains("actor order fires mix before its producer"), bug.getMessage());
    }
}
