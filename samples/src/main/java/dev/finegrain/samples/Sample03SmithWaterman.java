package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Storage;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;

/**
 * Sample 3, Smith-Waterman local alignment:
 * {@code H(i,j) = max(0, H(i-1,j-1) + s(i,j), H(i-1,j) - gap, H(i,j-1) - gap)} over two random DNA strands, match
 * +3, mismatch -3, gap 2, boundary 0.
 *
 * <p>What it shows: the same dependence pattern as Needleman-Wunsch with a constant boundary and a clamp at zero;
 * every schedule that is right for one is right for the other.
 *
 * <p>Run it: {@code ./finegrain compare smith-waterman}.
 */
public final class Sample03SmithWaterman {

    public static final String NAME = "smith-waterman";
    public static final int MATCH = 3;
    public static final int MISMATCH = -3;
    public static final int GAP = 2;

    private Sample03SmithWaterman() {}

    public static Kernel definition() {
        return definition(Storage.NATURAL);
    }

    /**
     * The kernel with its similarity (MATCH or MISMATCH, 3 or -3) declared to fit {@code similarityStorage}: with
     * {@link Storage#BYTE} the jvm backend keeps it in bytes and reads 5 bytes a cell where ints take 8.
     */
    public static Kernel definition(Storage similarityStorage) {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("gap", INT)
                .input("similarity", INT, similarityStorage)
                .state("h", INT, boundary(constant(0)))
                .actor("cell", "h", a -> max(
                        constant(0),
                        a.read("h", -1, -1).plus(a.read("similarity", 0, 0)),
                        a.read("h", -1, 0).minus(a.param("gap")),
                        a.read("h", 0, -1).minus(a.param("gap"))))
                .build();
    }

    /** Two random strands over A, C, G, T; similarity is MATCH where the bases agree, MISMATCH elsewhere. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = SampleInputs.residues(random, sizes[0], 0, 3);
        int[] b = SampleInputs.residues(random, sizes[1], 0, 3);
        int[] similarity = new int[sizes[0] * sizes[1]];
        for (int i = 0; i < sizes[0]; i++) {
            for (int j = 0; j < sizes[1]; j++) {
                similarity[i * sizes[1] + j] = a[i] == b[j] ? MATCH : MISMATCH;
            }
        }
        return kernel.invocation().sizes(sizes).param("gap", GAP).input("similarity", similarity).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "local sequence alignment of two DNA strands (match 3, mismatch -3, gap 2)",
                "Smith-Waterman scores the best local alignment: like Needleman-Wunsch, each cell depends on its north, "
                        + "west and north-west neighbours, but scores are clamped at zero and the boundary is zero. Same "
                        + "channels, same implied north-west read, different arithmetic.",
                Sample03SmithWaterman::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
