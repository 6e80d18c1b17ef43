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
                        new Boundary.FromExpression(typing.asFieldValue(value, field.type())), field.halo(), field.storage(), field.along(),
                        field.site())
                : field).toList();
        return kernel.withTypedTrees(actors, fields);
    }

    /** A tree that is stored into a field of {@code fieldType}. */
    private Expr asFieldValue(Expr tree, Type fieldType) {
        Typed typed = typed(tree);
        return fieldType == null ? typed.expr() : adopt(typed, fieldType).expr();
    }

    /**
     * A retyped tree and its type (null when a name in it is unknown or its operands do not fit), found in one
     * pass from the leaves up, so a deep tree costs its size, not its size squared.
     */
    private record Typed(Expr expr, Type type) {}

    /** The tree with every int literal beside a long or double operand retyped. */
    private Typed typed(Expr expr) {
        return switch (expr) {
            case Expr.Binary binary -> {
                Typed left = typed(binary.left());
                Typed right = typed(binary.right());
                if (binary.operator().kind() != BinaryOperator.Kind.SHIFT) {
                    Typed adoptedLeft = right.type() == null ? left : adopt(left, right.type());
                    right = left.type() == null ? right : adopt(right, left.type());
                    left = adoptedLeft;
                }
                Type type = left.type() == null || right.type() == null ? null
                        : TypeRules.binary(binary.operator(), left.type(), right.type()).orElse(null);
                yield new Typed(new Expr.Binary(binary.operator(), left.expr(), right.expr(), binary.site()), type);
            }
            case Expr.Select select -> {
                Typed whenTrue = typed(select.whenTrue());
                Typed whenFalse = typed(select.whenFalse());
                Typed condition = typed(select.condition());
                Typed adoptedTrue = whenFalse.type() == null ? whenTrue : adopt(whenTrue, whenFalse.type());
                Typed adoptedFalse = whenTrue.type() == null ? whenFalse : adopt(whenFalse, whenTrue.type());
                yield new Typed(new Expr.Select(condition.expr(), adoptedTrue.expr(), adoptedFalse.expr(), select.site()),
                        adoptedTrue.type() == adoptedFalse.type() ? adoptedTrue.type() : null);
            }
            case Expr.Unary unary -> {
                Typed operand = typed(unary.operand());
                yield new Typed(new Expr.Unary(unary.operator(), operand.expr(), unary.site()),
                        operand.type() == null ? null : TypeRules.unary(unary.operator(), operand.type()).orElse(null));
            }
            case Expr.Cast cast -> new Typed(new Expr.Cast(cast.type(), typed(cast.operand()).expr(), cast.site()), cast.type());
            case Expr.Iterate iterate -> {
                Typed init = typed(iterate.init());
                if (init.type() != null) {
                    accumulators.put(iterate.accumulator().id(), init.type());
                }
                Typed body = typed(iterate.body());
                accumulators.remove(iterate.accumulator().id());
                Expr count = typed(iterate.count()).expr();
                yield new Typed(new Expr.Iterate(count, init.expr(), iterate.accumulator(),
                        init.type() == null ? body.expr() : adopt(body, init.type()).expr(), iterate.site()), init.type());
            }
            case Expr.Constant c -> new Typed(c, c.type());
            case Expr.Index index -> new Typed(index, Type.INT);
            case Expr.Size size -> new Typed(size, Type.INT);
            case Expr.Param param -> new Typed(param, kernel.param(param.name()).map(ParamSpec::type).orElse(null));
            case Expr.Read read -> new Typed(read, kernel.field(read.field()).map(FieldSpec::type).orElse(null));
            case Expr.Lookup lookup -> new Typed(new Expr.Lookup(lookup.table(), lookup.indices().stream().map(i -> typed(i).expr()).toList(),
                    lookup.site()), kernel.table(lookup.table()).map(TableSpec::type).orElse(null));
            case Expr.Accumulator accumulator -> new Typed(accumulator, accumulators.get(accumulator.id()));
        };
    }

    /** An int literal takes a long or double type; anything else stays as it is. */
    private static Typed adopt(Typed typed, Type type) {
        if (!(typed.expr() instanceof Expr.Constant literal) || literal.type() != Type.INT) {
            return typed;
        }
        return switch (type) {
            case LONG -> new Typed(new Expr.Constant(Type.LONG, literal.integral(), literal.integral(), literal.site()), Type.LONG);
            case DOUBLE -> new Typed(new Expr.Constant(Type.DOUBLE, 0, literal.integral(), literal.site()), Type.DOUBLE);
            case INT, BOOL -> typed;
        };
    }
}
