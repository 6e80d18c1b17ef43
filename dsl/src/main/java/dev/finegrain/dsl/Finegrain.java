package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.Diagnostics;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The DSL's single entry point, meant for {@code import static dev.finegrain.dsl.Finegrain.*}.
 *
 * <pre>{@code
 * Kernel nw = kernel("needleman-wunsch")
 *     .domain(dim("i", "rows"), dim("j", "cols"))
 *     .param("penalty", INT)
 *     .input("reference", INT)
 *     .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
 *     .actor("cell", "score", a -> max(
 *             a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
 *             a.read("score", -1, 0).minus(a.param("penalty")),
 *             a.read("score", 0, -1).minus(a.param("penalty"))))
 *     .build();
 * }</pre>
 *
 * A kernel says what is computed; a {@link Schedule} ({@link #wavefront()}, {@link #lockDataflow()},
 * {@link #dataParallel(int...)}) says in what order, separately.
 */
public final class Finegrain {

    public static final Type INT = Type.INT;
    public static final Type LONG = Type.LONG;
    public static final Type DOUBLE = Type.DOUBLE;
    public static final Type BOOL = Type.BOOL;

    private Finegrain() {}

    public static Kernel.Builder kernel(String name) {
        return new Kernel.Builder(name, CallSite.capture());
    }

    /** A domain dimension: index variable {@code index} over [0, {@code size}), the size given at run time. */
    public static Dimension dim(String index, String size) {
        return new Dimension(index, size);
    }

    // ---- leaves --------------------------------------------------------------------------------------------

    public static Expr constant(int value) {
        return new Expr.Constant(Type.INT, value, value, CallSite.capture());
    }

    public static Expr constant(long value) {
        return new Expr.Constant(Type.LONG, value, value, CallSite.capture());
    }

    public static Expr constant(double value) {
        return new Expr.Constant(Type.DOUBLE, 0, value, CallSite.capture());
    }

    public static Expr constant(boolean value) {
        return new Expr.Constant(Type.BOOL, value ? 1 : 0, 0, CallSite.capture());
    }

    public static Expr index(String name) {
        return new Expr.Index(name, CallSite.capture());
    }

    public static Expr param(String name) {
        return new Expr.Param(name, CallSite.capture());
    }

    public static Expr size(String name) {
        return new Expr.Size(name, CallSite.capture());
    }

    /** The field's value at the current point plus {@code offset}, one component per dimension. */
    public static Expr read(String field, int... offset) {
        return new Expr.Read(field, Expr.offsetList(offset), CallSite.capture());
    }

    /**
     * The element of table {@code table} at {@code indices}, one int per axis: {@code lookup("blosum62", a.read("a", 0),
     * a.read("b", 0))} scores the residue pair of a cell.
     */
    public static Expr lookup(String table, Expr... indices) {
        return new Expr.Lookup(table, List.of(indices), CallSite.capture());
    }

    /** The dimensions a sequence input spans, by index name: {@code input("a", INT, along("i"))}. */
    public static Along along(String... indices) {
        return new Along(List.of(indices), CallSite.capture());
    }

    // ---- functions -----------------------------------------------------------------------------------------

    /** The largest of two or more values of one numeric type. */
    public static Expr max(Expr first, Expr second, Expr... more) {
        return fold(BinaryOperator.MAX, first, second, more, CallSite.capture());
    }

    public static Expr min(Expr first, Expr second, Expr... more) {
        return fold(BinaryOperator.MIN, first, second, more, CallSite.capture());
    }

    public static Expr abs(Expr value) {
        return new Expr.Unary(UnaryOperator.ABS, Objects.requireNonNull(value), CallSite.capture());
    }

    public static Expr select(Expr condition, Expr whenTrue, Expr whenFalse) {
        return new Expr.Select(Objects.requireNonNull(condition), Objects.requireNonNull(whenTrue),
                Objects.requireNonNull(whenFalse), CallSite.capture());
    }

    /**
     * A bounded fold, {@code acc = init; repeat count times: acc = next(acc)}. {@code next} runs once, now, on
     * the accumulator node, and returns the loop body's tree.
     */
    public static Expr iterate(Expr count, Expr init, Function<Expr, Expr> next) {
        Expr.Accumulator accumulator = Expr.Accumulator.fresh();
        Expr body = Objects.requireNonNull(next.apply(accumulator), "iterate body");
        return new Expr.Iterate(Objects.requireNonNull(count), Objects.requireNonNull(init), accumulator, body, CallSite.capture());
    }

    private static Expr fold(BinaryOperator operator, Expr first, Expr second, Expr[] more, CallSite site) {
        Expr result = new Expr.Binary(operator, Objects.requireNonNull(first), Objects.requireNonNull(second), site);
        for (Expr next : Arrays.asList(more)) {
            result = new Expr.Binary(operator, result, Objects.requireNonNull(next), site);
        }
        return result;
    }

    // ---- boundaries ----------------------------------------------------------------------------------------

    /** Halo values computed from the indices, sizes and params at each halo point. */
    public static Boundary boundary(Expr value) {
        return new Boundary.FromExpression(Objects.requireNonNull(value));
    }

    /** Halo values read from an input field that declares a halo at least as wide as the reads need. */
    public static Boundary boundaryFrom(String input) {
        return new Boundary.FromInput(Objects.requireNonNull(input));
    }

    // ---- schedules -----------------------------------------------------------------------------------------

    public static Schedule.Wavefront wavefront() {
        return new Schedule.Wavefront();
    }

    /** Lock-based dataflow with the kernel's lock choices; override them with the result's methods. */
    public static Schedule.LockDataflow lockDataflow() {
        return new Schedule.LockDataflow();
    }

    /** Dynamic dataflow over tiles of 16 with work-stealing; {@code .tile(...)} and {@code .ready(...)} change them. */
    public static Schedule.DynamicDataflow dynamicDataflow() {
        return new Schedule.DynamicDataflow();
    }

    /** Tiles of the given extents (one for all dimensions, or one per dimension). */
    public static Schedule dataParallel(int... tile) {
        int[] extents = tile.length == 0 ? new int[] {16} : tile;
        if (extents.length > 3 || java.util.Arrays.stream(extents).anyMatch(extent -> extent < 1)) {
            throw Diagnostics.scheduleTile(extents, CallSite.capture());
        }
        return new Schedule.DataParallel(Expr.offsetList(extents));
    }
}
