package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.dsl.ActorContext;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.Reduction;
import dev.finegrain.dsl.Type;

import java.util.List;
import java.util.function.Function;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;

/**
 * The kernels of the GPU emitters' goldens ({@code show --simt}, {@code show --cuda}): one of each idea the mapping
 * handles (1D, 2D and 3D), defined here so that a change to a sample never moves an emitter's golden.
 */
public final class GpuGoldenCatalog {

    private GpuGoldenCatalog() {}

    /** The validation chain of seed 001 (Listing 10), as sample 1 defines it: element i waits for i - 32. */
    private static Kernel.Builder chain(String name) {
        return kernel(name)
                .domain(dim("i", "n"))
                .param("work", INT)
                .state("a", INT, boundary(index("i").negate()))
                .actor("link", "a", a -> a.read("a", -32).plus(
                        iterate(a.param("work"), a.index("i"), x -> x.times(1664525).plus(1013904223))));
    }

    /** Needleman-Wunsch as the pass goldens define it, under another name. */
    private static Kernel.Builder nw(String name) {
        return nw(name, dev.finegrain.dsl.Storage.NATURAL);
    }

    private static Kernel.Builder nw(String name, dev.finegrain.dsl.Storage referenceStorage) {
        return kernel(name)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT, referenceStorage)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", a -> max(
                        a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                        a.read("score", -1, 0).minus(a.param("penalty")),
                        a.read("score", 0, -1).minus(a.param("penalty"))));
    }

    /** A 2D average in doubles: the 64-bit fields, the double operators and their CUDA spelling. */
    private static Kernel smooth() {
        return kernel("smooth")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("u", DOUBLE, boundary(index("i").minus(index("j")).castTo(Type.DOUBLE).times(0.5)))
                .actor("average", "u", a -> a.read("u", -1, 0).plus(a.read("u", 0, -1)).times(0.5)
                        .plus(a.read("u", -1, -1).times(0.25)))
                .build();
    }

    /** A 1D hash chain in longs: 64-bit integers that wrap and shift as Java's do. */
    private static Kernel longHash() {
        return kernel("long-hash")
                .domain(dim("i", "n"))
                .state("h", LONG, boundary(index("i").castTo(Type.LONG)))
                .actor("mix", "h", a -> a.read("h", -1).times(constant(6364136223846793005L)).plus(a.index("i").castTo(Type.LONG))
                        .xor(a.read("h", -1).shiftRight(29)))
                .build();
    }

    /**
     * A 3D recurrence in ints and doubles reading back along each of i, j and k: the wavefront steps the planes
     * i + j + k = s, data-parallel sweeps 3D tiles.
     */
    public static Kernel box3d() {
        return kernel("box-3d")
                .domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                .state("c", INT, boundary(index("i").times(3).plus(index("k"))))
                .state("u", DOUBLE, boundary(index("i").minus(index("k")).castTo(Type.DOUBLE).times(0.5)))
                .actor("count", "c", a -> a.read("c", -1, 0, 0).plus(a.read("c", 0, -1, 0)).minus(a.read("c", 0, 0, -1))
                        .xor(a.index("j")))
                .actor("average", "u", a -> a.read("u", -1, 0, 0).plus(a.read("u", 0, -1, 0)).plus(a.read("u", 0, 0, -1))
                        .times(0.25).plus(a.read("c", 0, 0, 0).castTo(Type.DOUBLE)))
                .build();
    }

    /**
     * Needleman-Wunsch over two sequences and a 24 x 24 table, as sample 9 defines it: sequences and lookups read from
     * global memory, never staged.
     */
    public static Kernel nwSequences() {
        return nwSequences("nw-seq", c -> c.read("a", 0));
    }

    /** {@link #nwSequences} with the table's row indexed by {@code rowSymbol}. */
    public static Kernel nwSequences(String name, Function<ActorContext, Expr> rowSymbol) {
        return kernel(name)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("blosum62", INT, 24, 24)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", c -> max(
                        c.read("score", -1, -1).plus(c.lookup("blosum62", rowSymbol.apply(c), c.read("b", 0))),
                        c.read("score", -1, 0).minus(c.param("penalty")),
                        c.read("score", 0, -1).minus(c.param("penalty"))))
                .keep("score", Keep.FINAL)
                .build();
    }

    /**
     * A recurrence reading north-east and west, (1,-1) and (0,1): no tile and no anti-diagonal orders it, the plane
     * 2i + j = s does, which the GPU wavefront steps.
     */
    public static Kernel northEast() {
        return kernel("north-east")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("s", INT, boundary(index("i").minus(index("j"))))
                .actor("step", "s", a -> a.read("s", -1, 1).plus(a.read("s", 0, -1)).remainder(1000).plus(a.index("i")))
                .build();
    }

    /**
     * Every keep and reduction the persistent bands fold: a long field kept as its last column with its minimum (and
     * its point) and its wrapping sum, an int field kept whole with its maximum, and an int field kept as its final
     * point whose values tie often (the first point that holds the maximum is the answer).
     */
    public static Kernel foldMix() {
        return mix("fold-mix", Keep.ALL);
    }

    /**
     * Fold-mix with every field folded (its int field with a maximum kept as its last row, not whole): a narrower last
     * band runs as a full one, its columns right of the domain untested ({@code RaggedBand}).
     */
    public static Kernel foldAll() {
        return mix("fold-all", Keep.LAST_ROW);
    }

    private static Kernel mix(String name, Keep keepU) {
        return kernel(name)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("t", LONG, boundary(index("i").times(3).minus(index("j")).castTo(Type.LONG)))
                .state("u", INT, boundary(index("i").minus(index("j"))))
                .state("w", INT, boundary(index("i").plus(index("j")).remainder(5)))
                .actor("t", "t", a -> a.read("t", -1, 0).times(31).plus(a.read("t", 0, -1)).xor(a.read("t", -1, -1).shiftRight(3)))
                .actor("u", "u", a -> max(a.read("u", -1, -1).plus(a.read("t", 0, 0).castTo(Type.INT).and(7)),
                        a.read("u", 0, -1).minus(1), a.read("u", -1, 0).minus(2)))
                .actor("w", "w", a -> a.read("w", -1, 0).plus(a.read("w", 0, -1)).remainder(5))
                .keep("t", Keep.LAST_COLUMN)
                .reduceWithPosition("t", Reduction.MIN)
                .reduce("t", Reduction.SUM)
                .keep("u", keepU)
                .reduce("u", Reduction.MAX)
                .keep("w", Keep.FINAL)
                .reduceWithPosition("w", Reduction.MAX)
                .reduce("w", Reduction.SUM)
                .build();
    }

    /**
     * Int fields only, every one folded, every reduction one a guarded step masks: a field kept as its last column with
     * its maximum and its point (taken once a step) and its sum, and one kept as its final point with its minimum and its
     * point; the bands' first and last chunks take the guarded steps ({@code GuardedSteps}).
     */
    public static Kernel foldGuarded() {
        return kernel("fold-guarded")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("u", INT, boundary(index("i").minus(index("j"))))
                .state("w", INT, boundary(index("i").plus(index("j")).remainder(5)))
                .actor("u", "u", a -> max(a.read("u", -1, -1).plus(3), a.read("u", 0, -1).minus(1), a.read("u", -1, 0).minus(2)))
                .actor("w", "w", a -> a.read("w", -1, 0).plus(a.read("w", 0, -1)).plus(a.read("u", 0, 0)).remainder(5))
                .keep("u", Keep.LAST_COLUMN)
                .reduceWithPosition("u", Reduction.MAX)
                .reduce("u", Reduction.SUM)
                .keep("w", Keep.FINAL)
                .reduceWithPosition("w", Reduction.MIN)
                .build();
    }

    /** A field kept as its last row with its minimum, reading two columns back: a band edge two columns wide. */
    public static Kernel foldLastRow() {
        return kernel("fold-last-row")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .state("s", INT, boundary(index("i").minus(index("j").times(2))))
                .actor("s", "s", a -> max(a.read("s", -1, -1).plus(3), a.read("s", -1, 0).minus(1), a.read("s", 0, -2).minus(1)))
                .keep("s", Keep.LAST_ROW)
                .reduce("s", Reduction.MIN)
                .build();
    }

    /** A sum along every dimension of a cube: three channels, lock-dataflow's 3D tiles on the model. */
    /**
     * Smith-Waterman over two sequences and a 4 x 4 table, as sample 9 defines it: a max with a zero among its terms
     * (DPX's clamped add-then-max on Hopper), the last row kept and the best cell reduced with its position.
     */
    public static Kernel swSequences() {
        return kernel("sw-seq")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("gap", INT)
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .table("dna", INT, 4, 4)
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

    public static Kernel cube3d() {
        return kernel("cube-3d")
                .domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                .state("x", INT, boundary(index("i").minus(index("k"))))
                .actor("sum", "x", a -> a.read("x", -1, 0, 0).plus(a.read("x", 0, -1, 0)).minus(a.read("x", 0, 0, -1)))
                .build();
    }

    public static final KernelCatalog CATALOG = KernelCatalog.of(List.of(
            entry(nwSequences()),
            entry(swSequences()),
            entry(GoldenKernels.needlemanWunsch()),
            entry(nw("nw-private").channelPolicy(ChannelPolicy.PRIVATE).build()),
            entry(nw("nw-byte", dev.finegrain.dsl.Storage.BYTE).build()),
            entry(chain("chain").build()),
            entry(chain("chain-warp-shared").warpShared(32).build()),
            entry(smooth()),
            entry(longHash()),
            entry(box3d()),
            entry(cube3d()),
            entry(northEast()),
            entry(foldMix()),
            entry(foldAll()),
            entry(foldLastRow())));

    private static LibraryKernel entry(Kernel kernel) {
        return new LibraryKernel(kernel, kernel.name(), kernel.name(), (k, sizes, seed) -> {
            throw new UnsupportedOperationException("show never makes inputs");
        }, List.of(switch (kernel.rank()) {
            case 1 -> new int[] {512};
            case 2 -> new int[] {62, 62};
            default -> new int[] {12, 10, 9};
        }));
    }
}
