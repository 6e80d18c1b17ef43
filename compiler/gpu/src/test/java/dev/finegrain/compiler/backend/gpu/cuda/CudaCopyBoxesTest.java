package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.CopyBox;
import dev.finegrain.compiler.backend.gpu.DataParallelMapping;
import dev.finegrain.compiler.backend.gpu.GpuMapper;
import dev.finegrain.compiler.backend.gpu.TileGeometry;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA copy loops of a tile fetched in part: each box's loop, its index expression evaluated as C evaluates it for
 * every word m of the loop, writes exactly the copy words of the mapping's box, no word twice. (The GPU model's spelling
 * of the same boxes runs against the oracle on the samples and in the random-kernel properties, where a dropped fetch of
 * a word that is not 0 fails the run; this pins the CUDA spelling's arithmetic.)
 */
class CudaCopyBoxesTest {

    private static final Pattern BOX_LOOP = Pattern.compile(
            "for \\(int m = t; m < (\\d+); m \\+= (\\d+)\\) \\{\\n\\s*// '([^']+)': words [^\\n]*\\n\\s*const int w = ([^;]+);");

    @Test
    void anAlignmentOverSequencesFetchesItsStatesHalos() {
        // two states read only behind the point, the inputs along one dimension each: the halo row and column of both
        Kernel alignment = kernel("alignment").domain(dim("i", "n"), dim("j", "m"))
                .input("a", INT, along("i")).input("b", INT, along("j"))
                .state("gap", INT, boundary(constant(0))).state("score", INT, boundary(constant(0)))
                .actor("open", "gap", c -> max(c.read("gap", 0, -1), c.read("score", 0, -1)).minus(c.read("b", 0)))
                .actor("cell", "score", c -> max(c.read("score", -1, -1).plus(c.read("a", 0)), c.read("gap", 0, -1),
                        c.read("score", -1, 0).minus(1)))
                .build();
        checkBoxLoops(alignment, new int[] {16, 16}, 64, 64);
        checkBoxLoops(alignment, new int[] {16, 16}, 100, 70);
    }

    @Test
    void aCubeFetchesThreeSlabsOfItsStateAndTheReachOfItsInput() {
        Kernel cube = kernel("cube").domain(dim("i", "n"), dim("j", "m"), dim("k", "p")).input("w", INT, 1)
                .state("x", INT, boundary(constant(1)))
                .actor("sum", "x", a -> a.read("x", -1, 0, 0).plus(a.read("x", 0, -1, 0)).plus(a.read("x", 0, 0, -1))
                        .plus(a.read("w", 0, 0, 0)).plus(a.read("w", 0, -1, 0)))
                .build();
        checkBoxLoops(cube, new int[] {4, 5, 3}, 12, 10, 9);
    }

    private static void checkBoxLoops(Kernel kernel, int[] tile, int... sizes) {
        KernelGraph graph = Pipeline.compile(kernel);
        DataParallelMapping mapping = (DataParallelMapping) GpuMapper.map(SchedulePlanner.plan(graph, dataParallel(tile)),
                Optional.empty(), CudaLowering.target("sm_90"), sizes);
        String text = CudaSource.of("v", kernel.name(), "finegrain show", mapping).text();
        Matcher loop = BOX_LOOP.matcher(text);
        int partial = 0;
        for (IrField field : graph.fields()) {
            if (mapping.copiesWhole(field)) {
                continue;
            }
            for (CopyBox box : mapping.copies().get(field.id())) {
                partial++;
                assertTrue(loop.find(), "a loop for " + field.name() + "'s box " + box + " in\n" + text);
                assertEquals(field.name(), loop.group(3));
                assertEquals(box.words(), Integer.parseInt(loop.group(1)));
                assertEquals(mapping.lanes(), Integer.parseInt(loop.group(2)));
                TreeSet<Integer> words = new TreeSet<>();
                for (int m = 0; m < box.words(); m++) {
                    assertTrue(words.add(new CExpression(loop.group(4), m).value()), "word of m = " + m + " twice: " + loop.group(4));
                }
                assertEquals(wordsOf(box, mapping.tile()), words, loop.group(4));
            }
        }
        assertTrue(partial > 0, "some field is fetched in part");
        assertTrue(!loop.find(), "no loop beyond the mapping's boxes");
    }

    /** The copy words of a box, row-major in the tile copy. */
    private static TreeSet<Integer> wordsOf(CopyBox box, TileGeometry tile) {
        TreeSet<Integer> words = new TreeSet<>();
        int rank = tile.rank();
        int[] at = new int[rank];
        for (int n = 0; n < box.words(); n++) {
            int rest = n;
            for (int d = rank - 1; d >= 0; d--) {
                at[d] = box.start()[d] + rest % box.extent()[d];
                rest /= box.extent()[d];
            }
            int word = 0;
            for (int d = 0; d < rank; d++) {
                word = word * tile.copyExtent(d) + at[d];
            }
            words.add(word);
        }
        return words;
    }

    /** C's integer arithmetic on non-negative values: +, *, / and % on int literals, m and parentheses. */
    private static final class CExpression {
        private final String text;
        private final int m;
        private int at;

        CExpression(String text, int m) {
            this.text = text.replace(" ", "");
            this.m = m;
        }

        int value() {
            int value = sum();
            assertEquals(text.length(), at, "the whole of " + text + " parsed");
            return value;
        }

        private int sum() {
            int value = product();
            while (at < text.length() && text.charAt(at) == '+') {
                at++;
                value += product();
            }
            return value;
        }

        private int product() {
            int value = factor();
            while (at < text.length() && "*/%".indexOf(text.charAt(at)) >= 0) {
                char operator = text.charAt(at++);
                int right = factor();
                value = switch (operator) {
                    case '*' -> value * right;
                    case '/' -> value / right;
                    default -> value % right;
                };
            }
            return value;
        }

        private int factor() {
            char c = text.charAt(at);
            if (c == '(') {
                at++;
                int value = sum();
                assertEquals(')', text.charAt(at++));
                return value;
            }
            if (c == 'm') {
                at++;
                return m;
            }
            int start = at;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            return Integer.parseInt(text.substring(start, at));
        }
    }
}
