package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Storage;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;

/**
 * Sample 2, Needleman-Wunsch as in Rodinia's needle:
 * {@code S(i,j) = max(S(i-1,j-1) + p(i,j), S(i-1,j) - k, S(i,j-1) - k)} with residues drawn from 1..10, scored by
 * BLOSUM62, penalty k = 10, and the first row and column {@code -(i+j)*k} (Rodinia counts from 1; our interior
 * starts at 0, hence {@code i+j+2}).
 *
 * <p>What it shows: three reads make three channels, and the compiler proves the north-west one implied by
 * north then west (seed 001 §6), so a dataflow schedule synchronises twice per cell, not three times.
 *
 * <p>Run it: {@code ./finegrain compare needleman-wunsch}, {@code ./finegrain show needleman-wunsch --ir}.
 */
public final class Sample02NeedlemanWunsch {

    public static final String NAME = "needleman-wunsch";
    /** The same alignment with its reference declared {@link Storage#BYTE}: 5 bytes a cell where ints take 8. */
    public static final String BYTE_NAME = "needleman-wunsch-byte";
    public static final int PENALTY = 10;

    private Sample02NeedlemanWunsch() {}

    public static Kernel definition() {
        return definition(Storage.NATURAL);
    }

    /**
     * The kernel with its reference (BLOSUM62 scores, -4 to 11) declared to fit {@code referenceStorage}: with
     * {@link Storage#BYTE} the jvm backend keeps it in bytes and reads 5 bytes a cell where ints take 8.
     */
    public static Kernel definition(Storage referenceStorage) {
        return kernel(referenceStorage == Storage.BYTE ? BYTE_NAME : NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT, referenceStorage)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", a -> max(
                        a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                        a.read("score", -1, 0).minus(a.param("penalty")),
                        a.read("score", 0, -1).minus(a.param("penalty"))))
                .build();
    }

    /** Rodinia's inputs: one residue in 1..10 per row and per column, reference = BLOSUM62 of the pair. */
    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] rowResidues = SampleInputs.residues(random, sizes[0], 1, 10);
        int[] columnResidues = SampleInputs.residues(random, sizes[1], 1, 10);
        int[] reference = new int[sizes[0] * sizes[1]];
        for (int i = 0; i < sizes[0]; i++) {
            for (int j = 0; j < sizes[1]; j++) {
                reference[i * sizes[1] + j] = Blosum62.score(rowResidues[i], columnResidues[j]);
            }
        }
        return kernel.invocation().sizes(sizes).param("penalty", PENALTY).input("reference", reference).build();
    }

    /** The kernel with its reference in bytes: every backend but the GPU model keeps it a byte a cell. */
    public static LibraryKernel byteEntry() {
        return new LibraryKernel(definition(Storage.BYTE), "needleman-wunsch with its reference declared Storage.BYTE",
                "The same alignment as needleman-wunsch, its BLOSUM62 reference (-4 to 11) declared to fit a byte: the jvm and"
                        + " cuda backends keep it a byte a cell, so a cell moves 5 bytes (the reference read, the score written)"
                        + " where ints move 8; the GPU model keeps it a word a cell, as its ISA loads whole words.",
                Sample02NeedlemanWunsch::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}, new int[] {512, 512}));
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "global sequence alignment, Rodinia's needle (BLOSUM62, penalty 10)",
                "Needleman-Wunsch fills a score matrix where each cell takes the best of its north-west neighbour plus "
                        + "the BLOSUM62 score of the residue pair, or its north or west neighbour minus a gap penalty of 10. "
                        + "It is the 2D wavefront of Li et al.'s §6 and Table 3: three reads per cell, of which the north-west "
                        + "one is implied by the other two, so dataflow needs two channels per cell.",
                Sample02NeedlemanWunsch::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}, new int[] {512, 512}));
    }
}
