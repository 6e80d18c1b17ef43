package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Subexpressions;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a 2D kernel runs in skewed strips, and where each read of a strip's cell comes from: the target-independent
 * half of lanes as warps, which {@link LaneStrips} spells with the Vector API.
 *
 * <p>A strip is k consecutive rows run together; lane r (row i0 + r) runs {@code skew * r} columns behind lane 0, so
 * at step t lane r computes column {@code t - skew * r}. The k cells of one step then lie on the hyperplane
 * (skew, 1), and when every dependence d has (skew, 1).d >= 1 no cell of a step needs another: they are independent,
 * as the lanes of a warp are. The skew is the find-hyperplane pass's h[0] when its h is (s, 1); otherwise (the pass
 * found, say, (1,0) for a kernel that reads only the row above) it is the smallest s that orders every dependence. A read of state field f at offset (-di, -dj) is then the value lane r - di computed
 * {@code delta = skew * di + dj} steps earlier: from lane r itself (di = 0), or from lane r - 1 shifted up one lane
 * (di = 1), with lane 0 taking the row above the strip from memory. Inputs are read a block of k steps at a time.
 *
 * <p>What runs in lanes: int, long or double fields and params of one type; + - * min max, and or xor and not on
 * integers, neg and abs, comparisons and select; in strips, reads at most one row up. In lanes along a row (the row
 * scans) also reads of sequence inputs and, in int lanes, table lookups ({@link LaneLookups}): a sequence along the
 * row is one vector load, one along the other dimension one value in every lane, and a lookup a gather; lanes across
 * rows would gather both, so they keep such kernels scalar. Casts, division, shifts, folds, bool fields and (in strips)
 * reads two rows up keep the scalar loops, and {@link #reasonAgainst} says which.
 *
 * @param skew     the columns lane r + 1 runs behind lane r: the strips run hyperplane (skew, 1)
 * @param laneType the one type of every field, param and lane value
 * @param reads    for every state field read by some actor: its reads, as (di, delta) pairs
 */
public record StripMapping(int skew, Type laneType, Map<Integer, List<StateRead>> reads) {

    /** The most steps a read may reach back, and so how many step vectors a strip keeps of each field. */
    static final int MAX_STEPS_BACK = 8;

    /** A read of a state field: {@code rowsUp} (0 or 1) lanes up, {@code stepsBack} steps back (0: this step's value). */
    record StateRead(int rowsUp, int stepsBack) {}

    public StripMapping {
        reads = Map.copyOf(reads);
    }

    /** The mapping of the kernel's strips, or why it keeps scalar loops. */
    public static Decision of(KernelGraph graph) {
        return of(graph, true);
    }

    /**
     * As {@link #of(KernelGraph)}; with {@code strips} false, for lanes that load every read from storage (the wavefront
     * along hyperplanes), reads may reach any distance: the limits of a lane shift and of a strip's step vectors do not
     * apply.
     */
    static Decision of(KernelGraph graph, boolean strips) {
        return of(graph, strips, false);
    }

    /**
     * As {@link #of(KernelGraph, boolean)}; with {@code alongRows} the lanes lie along one row (a row scan's vector),
     * so reads of sequences and table lookups run in them too.
     */
    static Decision of(KernelGraph graph, boolean strips, boolean alongRows) {
        Optional<String> against = reasonAgainst(graph, strips, alongRows);
        if (against.isPresent()) {
            return new Decision(Optional.empty(), against.get());
        }
        int skew = skew(graph);
        Map<Integer, List<StateRead>> reads = new LinkedHashMap<>();
        for (IrActor actor : graph.actors()) {
            collectStateReads(graph, actor.body(), skew, reads);
        }
        return new Decision(Optional.of(new StripMapping(skew, graph.field(graph.actors().getFirst().writes()).type(), reads)), "");
    }

    /** A mapping, or the reason there is none. */
    public record Decision(Optional<StripMapping> mapping, String reason) {}

    /**
     * Whether some actor reads a sequence input or looks up a table, which lanes take only along a row ({@link
     * #of(KernelGraph, boolean, boolean)}).
     */
    public static boolean readsAlongRowsOnly(KernelGraph graph) {
        return graph.actors().stream().anyMatch(actor -> readsAlongRowsOnly(graph, actor.body()));
    }

    private static boolean readsAlongRowsOnly(KernelGraph graph, IrExpr expr) {
        return expr instanceof IrExpr.Lookup || expr instanceof IrExpr.Load load && graph.field(load.field()).isSequence()
                || children(expr).stream().anyMatch(child -> readsAlongRowsOnly(graph, child));
    }

    static Optional<String> reasonAgainst(KernelGraph graph, boolean strips, boolean alongRows) {
        if (graph.rank() != 2) {
            return Optional.of("strips of lanes need a 2D domain, and this one has " + graph.rank() + " dimension(s)");
        }
        Type laneType = graph.field(graph.actors().getFirst().writes()).type();
        if (laneType != Type.INT && laneType != Type.LONG && laneType != Type.DOUBLE) {
            return Optional.of("lanes hold int, long or double values, and state field '" + graph.field(graph.actors().getFirst().writes()).name()
                    + "' is " + laneType);
        }
        for (IrActor actor : graph.actors()) {
            if (lookups(actor.body()) > 1) {
                // the oracle stops at the first point's first index outside; lanes check one lookup's lanes at a time
                return Optional.of("actor '" + actor.name() + "': more than one table lookup in a cell would be checked"
                        + " lookup by lookup across the lanes, not point by point as a run stops, so it keeps scalar loops");
            }
            Optional<String> against = reasonAgainst(graph, actor.body(), laneType, strips, alongRows);
            if (against.isPresent()) {
                return Optional.of("actor '" + actor.name() + "': " + against.get());
            }
        }
        return Optional.empty();
    }

    /** Why an expression cannot be computed lane-wise in lanes of {@code laneType}, if it cannot. */
    private static Optional<String> reasonAgainst(KernelGraph graph, IrExpr expr, Type laneType, boolean strips,
                                                  boolean alongRows) {
        Optional<String> own = switch (expr) {
            case IrExpr.Const c -> c.type() == laneType ? Optional.empty() : Optional.of(mixed(c.type(), laneType));
            case IrExpr.IndexVar v -> laneType == Type.INT ? Optional.empty() : Optional.of(mixed(Type.INT, laneType) + " (an index)");
            case IrExpr.SizeVar v -> laneType == Type.INT ? Optional.empty() : Optional.of(mixed(Type.INT, laneType) + " (a size)");
            case IrExpr.ParamVar p -> p.type() == laneType ? Optional.empty() : Optional.of(mixed(p.type(), laneType));
            case IrExpr.Load load -> loadAgainst(graph, load, laneType, strips, alongRows);
            case IrExpr.Unary u -> u.type() == laneType || (u.type() == Type.BOOL && u.operator() == dev.finegrain.dsl.UnaryOperator.NOT)
                    ? Optional.empty() : Optional.of(mixed(u.type(), laneType));
            case IrExpr.Binary b -> binaryAgainst(b, laneType);
            case IrExpr.Select s -> s.type() == laneType ? Optional.empty() : Optional.of("a select of " + s.type() + " values");
            case IrExpr.Cast c -> Optional.of("casts change the lane width, so they keep scalar loops");
            case IrExpr.Iterate it -> Optional.of("folds (iterate) loop per cell, so they keep scalar loops");
            case IrExpr.Lookup l -> !alongRows ? Optional.of("a table lookup gathers one element per lane, which only lanes along a"
                    + " row (a row scan) take")
                    : laneType != Type.INT ? Optional.of("a table lookup's indices are ints, so it runs in int lanes only, and"
                    + " these are " + laneType)
                    : l.type() != laneType ? Optional.of(mixed(l.type(), laneType) + " (a lookup)") : Optional.empty();
            case IrExpr.Accumulator a -> Optional.of("folds (iterate) loop per cell, so they keep scalar loops");
        };
        if (own.isPresent()) {
            return own;
        }
        if (expr instanceof IrExpr.Select select && lookups(select.whenTrue()) + lookups(select.whenFalse()) > 0) {
            // a select computes both branches in every lane, where the scalar code looks up only the branch it takes
            return Optional.of("a table lookup in a select's branch would be looked up in lanes that do not take the"
                    + " branch, where its index may lie outside the table, so it keeps scalar loops");
        }
        return children(expr).stream().map(child -> reasonAgainst(graph, child, laneType, strips, alongRows))
                .flatMap(Optional::stream).findFirst();
    }

    /** The table lookups in an expression, nested ones counted. */
    private static int lookups(IrExpr expr) {
        return (expr instanceof IrExpr.Lookup ? 1 : 0) + children(expr).stream().mapToInt(StripMapping::lookups).sum();
    }

    private static Optional<String> loadAgainst(KernelGraph graph, IrExpr.Load load, Type laneType, boolean strips,
                                                boolean alongRows) {
        IrField field = graph.field(load.field());
        if (field.type() != laneType) {
            return Optional.of("field '" + field.name() + "' is " + field.type() + ", the lanes " + laneType);
        }
        if (field.isSequence()) {
            return alongRows ? Optional.empty() : Optional.of("sequence input '" + field.name() + "' is read by its own index,"
                    + " which only lanes along a row (a row scan) take");
        }
        if (field.isInput()) {
            return Optional.empty();
        }
        if (graph.actors().stream().noneMatch(actor -> actor.writes() == field.id())) {
            return Optional.of("state field '" + field.name() + "' has no actor, so no lane computes it");
        }
        if (!strips) {
            return Optional.empty();
        }
        int rowsUp = -load.offset()[0];
        int stepsBack = stepsBack(skew(graph), load.offset());
        if (rowsUp > 1) {
            return Optional.of("a read " + rowsUp + " rows up reaches past the lane above, which is all a lane shift brings");
        }
        if (stepsBack > MAX_STEPS_BACK) {
            return Optional.of("a read " + stepsBack + " steps back is more than the " + MAX_STEPS_BACK + " step vectors a strip keeps");
        }
        return Optional.empty();
    }

    private static Optional<String> binaryAgainst(IrExpr.Binary b, Type laneType) {
        BinaryOperator op = b.operator();
        boolean onBools = b.left().type() == Type.BOOL;
        return switch (op) {
            case ADD, SUB, MUL, MIN, MAX -> Optional.empty();
            case AND, OR -> Optional.empty();
            case XOR -> onBools ? Optional.of("xor of bools has no mask form here") : Optional.empty();
            case DIV, REM -> Optional.of("integer division may throw per cell, so it keeps scalar loops");
            case SHL, SHR, USHR -> Optional.of("shifts keep scalar loops");
            case LT, LE, GT, GE, EQ, NE -> onBools ? Optional.of("comparisons of bools have no mask form here") : Optional.empty();
        };
    }

    private static String mixed(Type found, Type laneType) {
        return "a " + found + " value in lanes of " + laneType + " (one type per kernel runs in lanes)";
    }

    static List<IrExpr> children(IrExpr expr) {
        return Subexpressions.of(expr);
    }

    /**
     * The pass's h[0] when its hyperplane is (s, 1) with s >= 0; else the smallest s >= 0 with s * di + dj >= 1 for every
     * dependence (di, dj), which exists because dependences are lexicographically positive (di > 0, or di = 0 and dj > 0).
     */
    static int skew(KernelGraph graph) {
        int[] h = graph.hyperplaneIfFound().orElseThrow();
        if (h[1] == 1 && h[0] >= 0) {
            return h[0];
        }
        int skew = 0;
        for (IrChannel channel : graph.channels()) {
            int[] d = channel.vector();
            if (d[0] > 0) {
                skew = Math.max(skew, Math.ceilDiv(1 - d[1], d[0]));
            }
        }
        return skew;
    }

    /** Steps back of a read at {@code offset}: skew * di + dj for the dependence (di, dj) = -offset. */
    static int stepsBack(int skew, int[] offset) {
        return -skew * offset[0] - offset[1];
    }

    private static void collectStateReads(KernelGraph graph, IrExpr expr, int skew, Map<Integer, List<StateRead>> reads) {
        if (expr instanceof IrExpr.Load load && graph.field(load.field()).isState()) {
            StateRead read = new StateRead(-load.offset()[0], stepsBack(skew, load.offset()));
            List<StateRead> ofField = reads.computeIfAbsent(load.field(), f -> new ArrayList<>());
            if (!ofField.contains(read)) {
                ofField.add(read);
            }
        }
        children(expr).forEach(child -> collectStateReads(graph, child, skew, reads));
    }

    /** The source of a state read at {@code offset}. */
    StateRead stateRead(int[] offset) {
        return new StateRead(-offset[0], stepsBack(skew, offset));
    }

    /** The most steps back any read of the field reaches with the given lane shift; 0 when none reads it so. */
    int deepest(int field, int rowsUp) {
        return reads.getOrDefault(field, List.of()).stream().filter(r -> r.rowsUp() == rowsUp).mapToInt(StateRead::stepsBack).max().orElse(0);
    }

    /** The fewest steps back of the field's reads one lane up; 0 when none reads it so. */
    int nearestFromAbove(int field) {
        return reads.getOrDefault(field, List.of()).stream().filter(r -> r.rowsUp() == 1).mapToInt(StateRead::stepsBack).min().orElse(0);
    }
}
