package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An actor whose value is {@code max(rest, west - gap)}: {@code rest} reads no west neighbour and {@code gap} is a
 * constant, param or size. Along a row this is a max-plus scan, {@code h[l] = max over m <= l of (rest[m] - (l - m)
 * gap)}, with the value west of the row as one more term, so a row of k cells can be computed at once in log2 k
 * shift-and-max steps instead of k dependent ones ({@link RowScanTiles}). Integral values only: the scan regroups the
 * subtractions, which int and long arithmetic allow exactly while nothing wraps and doubles do not.
 *
 * <p>Needleman-Wunsch ({@code max(nw + ref, n - penalty, w - penalty)}) and Smith-Waterman (with a floor of 0 as one
 * more term of {@code rest}) have this form; the max may be nested in any order, as int and long max is associative
 * and commutative.
 */
public record WestMaxRecurrence(IrExpr rest, IrExpr gap) {

    /** The recurrence, or the reason the kernel has none. */
    public record Decision(Optional<WestMaxRecurrence> recurrence, String reason) {
        static Decision no(String reason) {
            return new Decision(Optional.empty(), reason);
        }
    }

    static Decision of(KernelGraph graph) {
        if (graph.actors().size() != 1) {
            return Decision.no("a row scan computes one actor's value, and this kernel has " + graph.actors().size() + " actors");
        }
        IrActor actor = graph.actors().getFirst();
        Type type = graph.field(actor.writes()).type();
        if (type != Type.INT && type != Type.LONG) {
            return Decision.no("a row scan regroups subtractions, exact for int and long values only, and '"
                    + graph.field(actor.writes()).name() + "' is " + type);
        }
        String shape = "a row scan needs the value to be max(terms without the west neighbour, west - a constant, param or size)";
        List<IrExpr> terms = new ArrayList<>();
        flattenMax(actor.body(), terms);
        if (terms.size() < 2) {
            return Decision.no(shape + ", and it is no max");
        }
        List<IrExpr> rest = new ArrayList<>();
        IrExpr gap = null;
        for (IrExpr term : terms) {
            if (!readsOwnRow(term, actor.writes())) {
                rest.add(term);
            } else if (gap != null) {
                return Decision.no(shape + ", and more than one term reads the west neighbour");
            } else if (!(term instanceof IrExpr.Binary sub && sub.operator() == BinaryOperator.SUB && isWest(sub.left(), actor.writes()))) {
                return Decision.no(shape + ", and a term reads '" + graph.field(actor.writes()).name() + "' in its own row other than as west - gap");
            } else if (!isUniform(sub.right(), type)) {
                return Decision.no(shape + ", and the west term subtracts " + what(graph, sub.right()));
            } else {
                gap = sub.right();
            }
        }
        if (gap == null) {
            return Decision.no(shape + ", and no term is west - gap");
        }
        if (rest.isEmpty()) {
            return Decision.no(shape + ", and every term reads the west neighbour");
        }
        IrExpr restMax = rest.getFirst();
        for (IrExpr term : rest.subList(1, rest.size())) {
            restMax = new IrExpr.Binary(BinaryOperator.MAX, restMax, term, type);
        }
        return new Decision(Optional.of(new WestMaxRecurrence(restMax, gap)), "");
    }

    /**
     * Why the kernel's rows take no row scan (tiles' or bands'), or empty: it must have the recurrence, and its rest may
     * read its own field only at the north and north-west neighbours, the row above that a row scan holds.
     */
    static Optional<String> rowScanAgainst(KernelGraph graph) {
        Decision decision = of(graph);
        if (decision.recurrence().isEmpty()) {
            return Optional.of(decision.reason());
        }
        return northReadsAgainst(graph, decision.recurrence().get().rest(), field(graph));
    }

    /** The field the recurrence computes: the one its kernel's one actor writes. */
    public static int field(KernelGraph graph) {
        return graph.actors().getFirst().writes();
    }

    /** Why {@code expr} reads state other than the north and north-west neighbours of {@code field}, or empty. */
    private static Optional<String> northReadsAgainst(KernelGraph graph, IrExpr expr, int field) {
        if (expr instanceof IrExpr.Load load && graph.field(load.field()).isState()) {
            int[] o = load.offset();
            if (load.field() != field || o[0] != -1 || o[1] < -1 || o[1] > 0) {
                return Optional.of("a row scan holds only the north and north-west neighbours, and '" + graph.field(load.field()).name()
                        + "' is read at (" + o[0] + ", " + o[1] + ")");
            }
        }
        return StripMapping.children(expr).stream().map(child -> northReadsAgainst(graph, child, field)).flatMap(Optional::stream).findFirst();
    }

    /** The terms of a tree of max operations, left to right; an expression that is no max is its one term. */
    static void flattenMax(IrExpr expr, List<IrExpr> terms) {
        if (expr instanceof IrExpr.Binary max && max.operator() == BinaryOperator.MAX) {
            flattenMax(max.left(), terms);
            flattenMax(max.right(), terms);
        } else {
            terms.add(expr);
        }
    }

    private static boolean isWest(IrExpr expr, int field) {
        return expr instanceof IrExpr.Load load && load.field() == field && Arrays.equals(load.offset(), new int[] {0, -1});
    }

    /** Whether the expression reads {@code field} anywhere in the current row (the west neighbour or any other). */
    private static boolean readsOwnRow(IrExpr expr, int field) {
        if (expr instanceof IrExpr.Load load && load.field() == field && load.offset().length == 2 && load.offset()[0] == 0) {
            return true;
        }
        return StripMapping.children(expr).stream().anyMatch(child -> readsOwnRow(child, field));
    }

    /** What a gap that is no constant, param or size of the value's type is, for the reason. */
    private static String what(KernelGraph graph, IrExpr expr) {
        return switch (expr) {
            case IrExpr.Load load -> "'" + graph.field(load.field()).name() + "', a field, which may differ per cell";
            case IrExpr.Const c -> "a " + c.type() + " constant, not a value of the field's type";
            case IrExpr.ParamVar p -> "a " + p.type() + " param, not a value of the field's type";
            case IrExpr.SizeVar v -> "a size (an int), not a value of the field's type";
            default -> "an expression, not one constant, param or size";
        };
    }

    private static boolean isUniform(IrExpr expr, Type type) {
        return expr.type() == type && (expr instanceof IrExpr.Const || expr instanceof IrExpr.ParamVar || expr instanceof IrExpr.SizeVar);
    }
}
