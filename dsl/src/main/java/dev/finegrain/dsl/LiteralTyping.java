package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.TypeRules;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives an int literal the type of the long or double operand next to it, so {@code read("a", -1).times(2)} on a
 * double field means {@code times(2.0)}, as Java's own promotion would. "Next to" is: the other operand of a
 * binary operator (shift counts excepted, which may be int anyway), the other branch of a select, and the field
 * an actor body or a boundary is: a body that is just {@code constant(0)} for a long field is {@code 0L}.
 *
 * <p>Runs when a kernel is built, before its checks, on trees whose names may still be wrong: a subtree whose type
 * cannot be known (an undeclared name) is left alone, and the checks then report the name.
 */
final class LiteralTyping {

    private final Kernel kernel;
    private final Map<Integer, Type> accumulators = new HashMap<>();

    private LiteralTyping(Kernel kernel) {
        this.kernel = kernel;
    }

    static Kernel apply(Kernel kernel) {
        LiteralTyping typing = new LiteralTyping(kernel);
        List<ActorSpec> actors = kernel.actors().stream().map(actor -> new ActorSpec(actor.name(), actor.writes(),
                typing.asFieldValue(actor.body(), kernel.field(actor.writes()).map(FieldSpec::type).orElse(null)),
                actor.site())).toList();
        List<FieldSpec> fields = kernel.fields().stream().map(field -> field.boundary() instanceof Boundary.FromExpression(Expr value)
                ? new FieldSpec(field.name(), field.type(), field.role(),
                        new Boundary.FromExpression(typing.asFieldValue(value, field.type())), field.halo(), field.site())
                : field).toList();
        return kernel.withTypedTrees(actors, fields);
    }

    /** A tree that is stored into a field of {@code fieldType}. */
    private Expr asFieldValue(Expr tree, Type fieldType) {
        Expr typed = typed(tree);
        return fieldType == null ? typed : adopt(typed, fieldType);
    }

    /** The tree with every int literal beside a long or double operand retyped. */
    private Expr typed(Expr expr) {
        return switch (expr) {
            case Expr.Binary binary -> {
                Expr left = typed(binary.left());
                Expr right = typed(binary.right());
                if (binary.operator().kind() != BinaryOperator.Kind.SHIFT) {
                    Type leftType = typeOf(left);
                    Type rightType = typeOf(right);
                    left = rightType == null ? left : adopt(left, rightType);
                    right = leftType == null ? right : adopt(right, leftType);
                }
                yield new Expr.Binary(binary.operator(), left, right, binary.site());
            }
            case Expr.Select select -> {
                Expr whenTrue = typed(select.whenTrue());
                Expr whenFalse = typed(select.whenFalse());
                Type trueType = typeOf(whenTrue);
                Type falseType = typeOf(whenFalse);
                yield new Expr.Select(typed(select.condition()), falseType == null ? whenTrue : adopt(whenTrue, falseType),
                        trueType == null ? whenFalse : adopt(whenFalse, trueType), select.site());
            }
            case Expr.Unary unary -> new Expr.Unary(unary.operator(), typed(unary.operand()), unary.site());
            case Expr.Cast cast -> new Expr.Cast(cast.type(), typed(cast.operand()), cast.site());
            case Expr.Iterate iterate -> {
                Expr init = typed(iterate.init());
                Type initType = typeOf(init);
                if (initType != null) {
                    accumulators.put(iterate.accumulator().id(), initType);
                }
                Expr body = typed(iterate.body());
                accumulators.remove(iterate.accumulator().id());
                yield new Expr.Iterate(typed(iterate.count()), init, iterate.accumulator(),
                        initType == null ? body : adopt(body, initType), iterate.site());
            }
            case Expr.Constant c -> c;
            case Expr.Index index -> index;
            case Expr.Param param -> param;
            case Expr.Size size -> size;
            case Expr.Read read -> read;
            case Expr.Accumulator accumulator -> accumulator;
        };
    }

    /** An int literal takes a long or double type; anything else stays as it is. */
    private static Expr adopt(Expr expr, Type type) {
        if (!(expr instanceof Expr.Constant literal) || literal.type() != Type.INT) {
            return expr;
        }
        return switch (type) {
            case LONG -> new Expr.Constant(Type.LONG, literal.integral(), literal.integral(), literal.site());
            case DOUBLE -> new Expr.Constant(Type.DOUBLE, 0, literal.integral(), literal.site());
            case INT, BOOL -> expr;
        };
    }

    /** The type of an already typed tree, or null when a name in it is unknown or its operands do not fit. */
    private Type typeOf(Expr expr) {
        return switch (expr) {
            case Expr.Constant c -> c.type();
            case Expr.Index index -> Type.INT;
            case Expr.Size size -> Type.INT;
            case Expr.Param param -> kernel.param(param.name()).map(ParamSpec::type).orElse(null);
            case Expr.Read read -> kernel.field(read.field()).map(FieldSpec::type).orElse(null);
            case Expr.Unary unary -> {
                Type operand = typeOf(unary.operand());
                yield operand == null ? null : TypeRules.unary(unary.operator(), operand).orElse(null);
            }
            case Expr.Binary binary -> {
                Type left = typeOf(binary.left());
                Type right = typeOf(binary.right());
                yield left == null || right == null ? null : TypeRules.binary(binary.operator(), left, right).orElse(null);
            }
            case Expr.Select select -> {
                Type whenTrue = typeOf(select.whenTrue());
                yield whenTrue == typeOf(select.whenFalse()) ? whenTrue : null;
            }
            case Expr.Cast cast -> cast.type();
            case Expr.Iterate iterate -> typeOf(iterate.init());
            case Expr.Accumulator accumulator -> accumulators.get(accumulator.id());
        };
    }
}
