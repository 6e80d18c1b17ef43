package dev.finegrain.dsl.internal;

import dev.finegrain.dsl.Type;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.UnaryOperator;

import java.util.Optional;

/**
 * The typing rules of expressions, shared by the DSL's checks and the compiler's lowering. Each returns the
 * result type, or empty with {@link #rule} explaining what the operator needs.
 */
public final class TypeRules {

    private TypeRules() {}

    public static Optional<Type> binary(BinaryOperator operator, Type left, Type right) {
        return switch (operator.kind()) {
            case ARITHMETIC -> left == right && left.isNumeric() ? Optional.of(left) : Optional.empty();
            case INTEGRAL -> left == right && left.isIntegral() ? Optional.of(left) : Optional.empty();
            case BITWISE -> left == right && left != Type.DOUBLE ? Optional.of(left) : Optional.empty();
            case SHIFT -> left.isIntegral() && right.isIntegral() ? Optional.of(left) : Optional.empty();
            case COMPARISON -> left == right && left.isNumeric() ? Optional.of(Type.BOOL) : Optional.empty();
            case EQUALITY -> left == right ? Optional.of(Type.BOOL) : Optional.empty();
        };
    }

    public static Optional<Type> unary(UnaryOperator operator, Type operand) {
        return switch (operator) {
            case NEG, ABS -> operand.isNumeric() ? Optional.of(operand) : Optional.empty();
            case NOT -> operand != Type.DOUBLE ? Optional.of(operand) : Optional.empty();
        };
    }

    /** Casts convert between numeric types; bool converts to and from nothing. */
    public static Optional<Type> cast(Type target, Type operand) {
        return target.isNumeric() && operand.isNumeric() ? Optional.of(target) : Optional.empty();
    }

    public static String rule(BinaryOperator operator) {
        return switch (operator.kind()) {
            case ARITHMETIC, COMPARISON -> "it needs two numbers of one type";
            case INTEGRAL -> "it needs two int or two long values";
            case BITWISE -> "it needs two int, two long or two bool values";
            case SHIFT -> "it needs an int or long value and an int or long count";
            case EQUALITY -> "it needs two values of one type";
        };
    }

    public static String rule(UnaryOperator operator) {
        return operator == UnaryOperator.NOT ? "it needs an int, long or bool value" : "it needs a number";
    }
}
