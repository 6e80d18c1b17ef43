package dev.finegrain.compiler.check;

import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Kernel;
import org.junit.jupiter.api.Test;

import static dev.finegrain.dsl.Finegrain.BOOL;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * Regressions for three bugs the random-kernel tests found: a fold in a boundary, one fold node used twice in a
 * body, and a bool input. The DSL accepts these kernels, so the compiler and the reference backend must run them.
 */
class FoldAndBoolRegressionTest {

    /**
     * Was a bug: a fold in a state boundary. {@code LowerSpecToGraph} resolves a boundary with its own resolver and drops
     * its accumulator slots, so the verifier reports "boundary of s: accumulator slot 0 of 0" after
     * lower-spec-to-graph, and the interpreter, which sizes its slots from the actors only, throws
     * ArrayIndexOutOfBoundsException while filling the halo.
     */
    @Test
    void aFoldInABoundaryCompilesAndFillsTheHalo() {
        Kernel kernel = kernel("fold-in-boundary")
                .domain(dim("i", "n"))
                .state("s", INT, boundary(iterate(constant(2), index("i"), x -> x.plus(1))))
                .actor("a", "s", a -> a.read("s", -1).plus(1))
                .build();
        assertDoesNotThrow(() -> Pipeline.run(kernel, true, null), "verifier after every pass");
        KernelGraph graph = Pipeline.compile(kernel);
        int[] values = assertDoesNotThrow(() -> (int[]) SequentialOracle.run(graph, kernel.invocation().sizes(4).build()).field("s"));
        assertArrayEquals(new int[] {2, 3, 4, 5}, values, "halo s[-1] = -1 + 2 = 1, then one more per point");
    }

    /**
     * Was a bug: one fold used twice in a body, as in {@code Expr f = iterate(...); f.plus(f)}. The resolver in
     * {@code LowerSpecToGraph} numbers a fold's slot with {@code slots.size()} of a map keyed by accumulator id, so
     * the second visit of the same fold gets slot 1 while the map, and so {@code IrActor.slots}, stays at 1: the
     * verifier reports "actor a: accumulator slot 1 of 1" and the interpreter throws ArrayIndexOutOfBoundsException.
     */
    @Test
    void aFoldUsedTwiceInOneBodyCompilesAndRuns() {
        Expr fold = iterate(constant(3), index("i"), x -> x.plus(1));
        Kernel kernel = kernel("shared-fold")
                .domain(dim("i", "n"))
                .state("s", INT)
                .actor("a", "s", a -> fold.plus(fold))
                .build();
        assertDoesNotThrow(() -> Pipeline.run(kernel, true, null), "verifier after every pass");
        KernelGraph graph = Pipeline.compile(kernel);
        int[] values = assertDoesNotThrow(() -> (int[]) SequentialOracle.run(graph, kernel.invocation().sizes(3).build()).field("s"));
        assertArrayEquals(new int[] {6, 8, 10}, values, "2 * (i + 3)");
    }

    /**
     * Was a bug: a bool input. {@code Invocation} requires a boolean[] for it, but {@code FieldStorage.ofInput} keeps only
     * int[], long[] and double[] arrays, so the first read of the input throws NullPointerException.
     */
    @Test
    void aBoolInputCanBeRead() {
        Kernel kernel = kernel("bool-input")
                .domain(dim("i", "n"))
                .input("flag", BOOL)
                .state("s", INT)
                .actor("a", "s", a -> select(a.read("flag", 0), constant(1), constant(2)))
                .build();
        KernelGraph graph = Pipeline.compile(kernel);
        int[] values = assertDoesNotThrow(() -> (int[]) SequentialOracle.run(graph,
                kernel.invocation().sizes(3).input("flag", new boolean[] {true, false, true}).build()).field("s"));
        assertArrayEquals(new int[] {1, 2, 1}, values);
    }
}
