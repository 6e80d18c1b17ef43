package dev.finegrain.dsl;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An expression tree node of an actor body or a boundary. Trees are built once, when the kernel is declared
 * (Halide style), and never hold Java code: every backend translates the same tree. Names are resolved and
 * types checked when the kernel is built, so a tree on its own may still name things that do not exist.
 *
 * <p>Build trees with the static factories of {@link Finegrain} and the fluent methods here, e.g.
 * {@code read("score", -1, 0).minus(param("penalty"))}.
 */
public sealed interface Expr {

    /** Where the user created this node. */
    CallSite site();

    // ---- fluent arithmetic -------------------------------------------------------------------------------

    default Expr plus(Expr other) { return binary(BinaryOperator.ADD, other); }

    default Expr plus(int constant) { return plus(Finegrain.constant(constant)); }

    default Expr plus(double constant) { return plus(Finegrain.constant(constant)); }

    default Expr minus(Expr other) { return binary(BinaryOperator.SUB, other); }

    default Expr minus(int constant) { return minus(Finegrain.constant(constant)); }

    default Expr minus(double constant) { return minus(Finegrain.constant(constant)); }

    default Expr times(Expr other) { return binary(BinaryOperator.MUL, other); }

    default Expr times(int constant) { return times(Finegrain.constant(constant)); }

    default Expr times(double constant) { return times(Finegrain.constant(constant)); }

    default Expr dividedBy(Expr other) { return binary(BinaryOperator.DIV, other); }

    default Expr dividedBy(int constant) { return dividedBy(Finegrain.constant(constant)); }

    default Expr dividedBy(double constant) { return dividedBy(Finegrain.constant(constant)); }

    default Expr remainder(Expr other) { return binary(BinaryOperator.REM, other); }

    default Expr remainder(int constant) { return remainder(Finegrain.constant(constant)); }

    default Expr negate() { return new Unary(UnaryOperator.NEG, this, CallSite.capture()); }

    // ---- bits ----------------------------------------------------------------------------------------------

    default Expr and(Expr other) { return binary(BinaryOperator.AND, other); }

    default Expr and(int constant) { return and(Finegrain.constant(constant)); }

    default Expr or(Expr other) { return binary(BinaryOperator.OR, other); }

    default Expr xor(Expr other) { return binary(BinaryOperator.XOR, other); }

    default Expr not() { return new Unary(UnaryOperator.NOT, this, CallSite.capture()); }

    default Expr shiftLeft(int count) { return binary(BinaryOperator.SHL, Finegrain.constant(count)); }

    default Expr shiftRight(int count) { return binary(BinaryOperator.SHR, Finegrain.constant(count)); }

    default Expr shiftRightUnsigned(int count) { return binary(BinaryOperator.USHR, Finegrain.constant(count)); }

    // ---- comparisons ---------------------------------------------------------------------------------------

    default Expr lessThan(Expr other) { return binary(BinaryOperator.LT, other); }

    default Expr lessThan(int constant) { return lessThan(Finegrain.constant(constant)); }

    default Expr lessThan(double constant) { return lessThan(Finegrain.constant(constant)); }

    default Expr lessOrEqual(Expr other) { return binary(BinaryOperator.LE, other); }

    default Expr lessOrEqual(int constant) { return lessOrEqual(Finegrain.constant(constant)); }

    default Expr lessOrEqual(double constant) { return lessOrEqual(Finegrain.constant(constant)); }

    default Expr greaterThan(Expr other) { return binary(BinaryOperator.GT, other); }

    default Expr greaterThan(int constant) { return greaterThan(Finegrain.constant(constant)); }

    default Expr greaterThan(double constant) { return greaterThan(Finegrain.constant(constant)); }

    default Expr greaterOrEqual(Expr other) { return binary(BinaryOperator.GE, other); }

    default Expr greaterOrEqual(int constant) { return greaterOrEqual(Finegrain.constant(constant)); }

    default Expr greaterOrEqual(double constant) { return greaterOrEqual(Finegrain.constant(constant)); }

    default Expr isEqualTo(Expr other) { return binary(BinaryOperator.EQ, other); }

    default Expr isEqualTo(int constant) { return isEqualTo(Finegrain.constant(constant)); }

    default Expr isEqualTo(double constant) { return isEqualTo(Finegrain.constant(constant)); }

    default Expr isNotEqualTo(Expr other) { return binary(BinaryOperator.NE, other); }

    default Expr isNotEqualTo(int constant) { return isNotEqualTo(Finegrain.constant(constant)); }

    default Expr isNotEqualTo(double constant) { return isNotEqualTo(Finegrain.constant(constant)); }

    default Expr castTo(Type type) { return new Cast(type, this, CallSite.capture()); }

    private Expr binary(BinaryOperator operator, Expr other) {
        Objects.requireNonNull(other, "operand");
        return new Binary(operator, this, other, CallSite.capture());
    }

    // ---- nodes ---------------------------------------------------------------------------------------------

    /** A literal; integral values are held in a long, doubles by their bits' value. */
    record Constant(Type type, long integral, double real, CallSite site) implements Expr {}

    /** The value of a domain index variable (e.g. i) at the actor instance's point. */
    record Index(String name, CallSite site) implements Expr {}

    /** A scalar parameter given at run time. */
    record Param(String name, CallSite site) implements Expr {}

    /** The run-time extent of a domain dimension, by its size name (e.g. rows). */
    record Size(String name, CallSite site) implements Expr {}

    /** A read of a field at a constant offset from the current point: one entry per domain dimension. */
    record Read(String field, List<Integer> offset, CallSite site) implements Expr {
        public Read {
            offset = List.copyOf(offset);
        }

        public int[] offsetArray() {
            return offset.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * The element of a lookup table at the given indices, one per axis, each an int computed per point; an index
     * outside the table's extent stops the run with a message naming the table, the axis and the value.
     */
    record Lookup(String table, List<Expr> indices, CallSite site) implements Expr {
        public Lookup {
            indices = List.copyOf(indices);
        }
    }

    record Unary(UnaryOperator operator, Expr operand, CallSite site) implements Expr {}

    record Binary(BinaryOperator operator, Expr left, Expr right, CallSite site) implements Expr {}

    /** {@code condition ? whenTrue : whenFalse}; both branches are evaluated (no side effects exist). */
    record Select(Expr condition, Expr whenTrue, Expr whenFalse, CallSite site) implements Expr {}

    record Cast(Type type, Expr operand, CallSite site) implements Expr {}

    /**
     * A bounded fold: {@code acc = init; repeat count times: acc = body(acc)}. The count is evaluated once per
     * actor instance; a count below one leaves init. Models the "independent computation" loops of the seeds.
     */
    record Iterate(Expr count, Expr init, Accumulator accumulator, Expr body, CallSite site) implements Expr {}

    /** The loop-carried value of an {@link Iterate}; identity, not name, tells nested folds apart. */
    record Accumulator(int id, CallSite site) implements Expr {
        private static final AtomicInteger NEXT_ID = new AtomicInteger();

        static Accumulator fresh() {
            return new Accumulator(NEXT_ID.incrementAndGet(), CallSite.capture());
        }
    }

    /** Helper for offsets given as varargs. */
    static List<Integer> offsetList(int... offset) {
        return Arrays.stream(offset).boxed().toList();
    }
}
