package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Reduction;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;

/**
 * Sample 9, alignment as its users hold it: two sequences and a substitution table, not a precomputed matrix. The
 * kernels of samples 2 and 3 again, each reading residue {@code a[i]} of one sequence, {@code b[j]} of the other, and
 * scoring the pair by {@code lookup}: Needleman-Wunsch with BLOSUM62 (24 x 24), Smith-Waterman with a 4 x 4 DNA table.
 * The inputs shrink from n x m values to n + m. Each keeps only what an aligner wants: Needleman-Wunsch the global
 * score (the last cell), Smith-Waterman the last row (to continue from) and its best score with where it is reached;
 * for the same draws these are samples 2's and 3's values.
 *
 * <p>What it shows: {@code input(name, type, along("i"))} declares a sequence over one dimension, read with one
 * offset ({@code a.read("a", 0)}); {@code table(name, type, extents...)} declares a small table given at run time, read
 * by {@code lookup(table, indices...)}, each index checked against its axis; {@code keep(field, Keep.FINAL)} and
 * {@code reduceWithPosition(field, Reduction.MAX)} say what a run gives, so the oracle keeps two rows of scores, not n.
 *
 * <p>Run it: {@code ./finegrain compare needleman-wunsch-seq}, {@code ./finegrain show needleman-wunsch-seq --ir}.
 */
public final class Sample09SequenceAlignment {

    public static final String NEEDLEMAN_WUNSCH = "needleman-wunsch-seq";
    public static final String SMITH_WATERMAN = "smith-waterman-seq";
    /** Smith-Waterman's 4 x 4 table over A, C, G, T: match on the diagonal, mismatch elsewhere. */
    static final int BASES = 4;

    private Sample09SequenceAlignment() {}

    /** Sample 2's recurrence over two residue sequences and BLOSUM62. */
    public static Kernel needlemanWunsch() {
        return kernel(NEEDLEMAN_WUNSCH)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("blosum62", INT, Blosum62.RESIDUES, Blosum62.RESIDUES)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("blosum62", c.read("a", 0), c.read("b", 0))),
                        c.read("score", -1, 0).minus(c.param("penalty")),
                        c.read("score", 0, -1).minus(c.param("penalty"))))
                .keep("score", Keep.FINAL)
                .build();
    }

    /** Sample 3's recurrence over two DNA strands and a 4 x 4 similarity table. */
    public static Kernel smithWaterman() {
        return kernel(SMITH_WATERMAN)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("gap", INT)
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("dna", INT, BASES, BASES)
                .state("h", INT, boundary(constant(0)))
                .actor("cell", "h", c -> max(
                        constant(0),
                        c.read("h", -1, -1).plus(c.lookup("dna", c.read("a", 0), c.read("b", 0))),
                        c.read("h", -1, 0).minus(c.param("gap")),
                        c.read("h", 0, -1).minus(c.param("gap"))))
                .keep("h", Keep.LAST_ROW)
                .reduceWithPosition("h", Reduction.MAX)
                .build();
    }

    /** Sample 2's draws (residues 1..10, as Rodinia's needle), given as the two sequences. */
    public static Invocation needlemanWunschInputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = SampleInputs.residues(random, sizes[0], 1, 10);
        int[] b = SampleInputs.residues(random, sizes[1], 1, 10);
        return kernel.invocation().sizes(sizes).param("penalty", Sample02NeedlemanWunsch.PENALTY)
                .input("a", a).input("b", b).input("blosum62", Blosum62.table()).build();
    }

    /** Sample 3's draws (bases 0..3), given as the two strands. */
    public static Invocation smithWatermanInputs(Kernel kernel, int[] sizes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = SampleInputs.residues(random, sizes[0], 0, BASES - 1);
        int[] b = SampleInputs.residues(random, sizes[1], 0, BASES - 1);
        int[] dna = new int[BASES * BASES];
        for (int x = 0; x < BASES; x++) {
            for (int y = 0; y < BASES; y++) {
                dna[x * BASES + y] = x == y ? Sample03SmithWaterman.MATCH : Sample03SmithWaterman.MISMATCH;
            }
        }
        return kernel.invocation().sizes(sizes).param("gap", Sample03SmithWaterman.GAP)
                .input("a", a).input("b", b).input("dna", dna).build();
    }

    public static LibraryKernel needlemanWunschEntry() {
        return new LibraryKernel(needlemanWunsch(), "Needleman-Wunsch over two residue sequences and the BLOSUM62 table",
                "needleman-wunsch's global alignment as a user holds it: residue a[i] of one sequence and b[j] of the other, "
                        + "scored by a lookup in BLOSUM62 (24 x 24), so the inputs are n + m values instead of an n x m "
                        + "matrix. It keeps the global score alone (the last cell), sample 2's for the same draws.",
                Sample09SequenceAlignment::needlemanWunschInputs, List.of(new int[] {64, 64}, new int[] {256, 256}, new int[] {512, 512}));
    }

    public static LibraryKernel smithWatermanEntry() {
        return new LibraryKernel(smithWaterman(), "Smith-Waterman over two DNA strands and a 4 x 4 similarity table",
                "smith-waterman's local alignment as a user holds it: bases a[i] and b[j], scored by a lookup in a 4 x 4 table "
                        + "(match 3, mismatch -3). It keeps the last row and gives the best score with the cell where it is "
                        + "reached, sample 3's for the same draws.",
                Sample09SequenceAlignment::smithWatermanInputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
