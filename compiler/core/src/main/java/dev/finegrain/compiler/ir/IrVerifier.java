package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.internal.TypeRules;
import dev.finegrain.dsl.Type;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks the invariants every pass must keep; run after each pass in tests. A failure is a compiler bug,
 * reported with the pass's name and the IR, never shown to a user as their mistake.
 */
public final class IrVerifier {

    private final KernelGraph graph;
    private final String pass;

    private IrVerifier(KernelGraph graph, String pass) {
        this.graph = graph;
        this.pass = pass;
    }

    public static KernelGraph verify(KernelGraph graph, String afterPass) {
        new IrVerifier(graph, afterPass).run();
        return graph;
    }

    private void run() {
        int rank = graph.rank();
        Set<Integer> written = new HashSet<>();
        for (int f = 0; f < graph.fields().size(); f++) {
            IrField field = graph.field(f);
            check(field.id() == f, "field " + field.name() + " has id " + field.id() + " at position " + f);
            check(field.haloLow().length == rank && field.haloHigh().length == rank, "field " + field.name() + " halo rank");
            if (field.boundary() != null) {
                check(field.boundary().type() == field.type(), "boundary of " + field.name() + " has type " + field.boundary().type());
                checkExpression(field.boundary(), IrExpr.slotsNeeded(field.boundary()), "boundary of " + field.name());
            }
        }
        for (int a = 0; a < graph.actors().size(); a++) {
            IrActor actor = graph.actor(a);
            check(actor.id() == a, "actor " + actor.name() + " has id " + actor.id() + " at position " + a);
            check(actor.writes() >= 0 && actor.writes() < graph.fields().size() && graph.field(actor.writes()).isState(),
                    "actor " + actor.name() + " writes no state field");
            check(written.add(actor.writes()), "field " + graph.field(actor.writes()).name() + " written by two actors");
            check(actor.body().type() == graph.field(actor.writes()).type(), "actor " + actor.name() + " body type");
            checkExpression(actor.body(), actor.slots(), "actor " + actor.name());
        }
        for (int c = 0; c < graph.channels().size(); c++) {
            checkChannel(c, graph.channels().get(c));
        }
        checkActorOrder();
        if (graph.hyperplane() != null) {
            for (IrChannel channel : graph.channels()) {
                check(DependenceMath.isZero(channel.vector()) || DependenceMath.dot(graph.hyperplane(), channel.vector()) >= 1,
                        "hyperplane " + DependenceMath.format(graph.hyperplane()) + " does not order " + DependenceMath.format(channel.vector()));
            }
        }
        if (graph.tiling() != null && graph.tiling().legal()) {
            for (IrChannel channel : graph.channels()) {
                for (int component : channel.vector()) {
                    check(component >= 0, "tiling marked legal despite " + DependenceMath.format(channel.vector()));
                }
            }
        }
    }

    private void checkChannel(int index, IrChannel channel) {
        String name = "channel #" + index;
        int actors = graph.actors().size();
        check(channel.producer() >= 0 && channel.producer() < actors && channel.consumer() >= 0 && channel.consumer() < actors,
                name + " names no actor");
        check(channel.vector().length == graph.rank(), name + " vector rank");
        if (!channel.isImplied()) {
            return;
        }
        // a chain of two or more, or one channel that orders exactly the same (a repeat, through the same policy)
        boolean repeat = channel.impliedBy().size() == 1 && channel.impliedBy().getFirst() >= 0
                && channel.impliedBy().getFirst() < graph.channels().size()
                && java.util.Arrays.equals(graph.channels().get(channel.impliedBy().getFirst()).vector(), channel.vector())
                && graph.channels().get(channel.impliedBy().getFirst()).policy() == channel.policy();
        check(channel.impliedBy().size() >= 2 || repeat, name + " is implied by fewer than two channels, and repeats none");
        int[] sum = new int[graph.rank()];
        int at = channel.producer();
        for (int link : channel.impliedBy()) {
            check(link >= 0 && link < graph.channels().size() && link != index, name + " implied by a missing channel #" + link);
            IrChannel step = graph.channels().get(link);
            check(!step.isImplied(), name + " implied through implied channel #" + link);
            check(step.producer() == at, name + " chain is not connected at #" + link);
            for (int d = 0; d < sum.length; d++) {
                check(Integer.signum(step.vector()[d]) * Integer.signum(channel.vector()[d]) >= 0
                        && (channel.vector()[d] != 0 || step.vector()[d] == 0), name + " chain leaves the box at #" + link);
                sum[d] += step.vector()[d];
            }
            at = step.consumer();
        }
        check(at == channel.consumer(), name + " chain does not end at its consumer");
        check(java.util.Arrays.equals(sum, channel.vector()), name + " chain sums to " + DependenceMath.format(sum));
    }

    private void checkActorOrder() {
        List<Integer> order = graph.actorOrder();
        if (order.isEmpty()) {
            return;
        }
        check(order.size() == graph.actors().size() && new HashSet<>(order).size() == order.size(), "actor order is not a permutation");
        for (IrChannel channel : graph.channels()) {
            if (DependenceMath.isZero(channel.vector())) {
                check(order.indexOf(channel.producer()) < order.indexOf(channel.consumer()),
                        "actor order fires " + graph.actor(channel.consumer()).name() + " before its producer");
            }
        }
    }

    private void checkExpression(IrExpr expr, int slots, String where) {
        switch (expr) {
            case IrExpr.Const c -> { }
            case IrExpr.IndexVar v -> check(v.dimension() < graph.rank(), where + ": index of dimension " + v.dimension());
            case IrExpr.SizeVar v -> check(v.dimension() < graph.rank(), where + ": size of dimension " + v.dimension());
            case IrExpr.ParamVar p -> {
                List<ParamSpec> params = graph.kernel().params();
                check(p.param() < params.size() && params.get(p.param()).type() == p.type(), where + ": param " + p.param());
            }
            case IrExpr.Load load -> {
                check(load.field() < graph.fields().size(), where + ": load of field " + load.field());
                IrField field = graph.field(load.field());
                check(load.type() == field.type(), where + ": load type of " + field.name());
                check(load.offset().length == graph.rank(), where + ": load offset rank");
                for (int d = 0; d < load.offset().length; d++) {
                    check(field.spans()[d] || load.offset()[d] == 0, where + ": load of sequence " + field.name() + " moves along a dimension it does not span");
                }
                for (int d = 0; d < load.offset().length; d++) {
                    check(-load.offset()[d] <= field.haloLow()[d] && load.offset()[d] <= field.haloHigh()[d],
                            where + ": load " + IrPrinter.load(graph, load.field(), load.offset()) + " leaves the storage of " + field.name());
                }
            }
            case IrExpr.Unary u -> {
                checkExpression(u.operand(), slots, where);
                check(TypeRules.unary(u.operator(), u.operand().type()).orElse(null) == u.type(), where + ": type of " + u.operator());
            }
            case IrExpr.Binary b -> {
                checkExpression(b.left(), slots, where);
                checkExpression(b.right(), slots, where);
                check(TypeRules.binary(b.operator(), b.left().type(), b.right().type()).orElse(null) == b.type(),
                        where + ": type of " + b.operator());
            }
            case IrExpr.Select s -> {
                checkExpression(s.condition(), slots, where);
                checkExpression(s.whenTrue(), slots, where);
                checkExpression(s.whenFalse(), slots, where);
                check(s.condition().type() == Type.BOOL && s.whenTrue().type() == s.type() && s.whenFalse().type() == s.type(),
                        where + ": select types");
            }
            case IrExpr.Cast c -> checkExpression(c.operand(), slots, where);
            case IrExpr.Lookup l -> {
                check(l.table() < graph.kernel().tables().size(), where + ": lookup of table " + l.table());
                check(l.indices().size() == graph.kernel().tables().get(l.table()).extents().size(), where + ": lookup arity");
                for (IrExpr index : l.indices()) {
                    checkExpression(index, slots, where);
                    check(index.type() == dev.finegrain.dsl.Type.INT, where + ": lookup index type");
                }
                check(l.type() == graph.kernel().tables().get(l.table()).type(), where + ": lookup type");
            }
            case IrExpr.Iterate it -> {
                check(it.slot() < slots, where + ": accumulator slot " + it.slot() + " of " + slots);
                check(it.count().type() == Type.INT && it.init().type() == it.type() && it.body().type() == it.type(),
                        where + ": iterate types");
                checkExpression(it.count(), slots, where);
                checkExpression(it.init(), slots, where);
                checkExpression(it.body(), slots, where);
            }
            case IrExpr.Accumulator a -> check(a.slot() < slots, where + ": accumulator slot " + a.slot());
        }
    }

    private void check(boolean condition, String problem) {
        if (!condition) {
            throw new CompilerBugException(pass, problem, IrPrinter.print(graph));
        }
    }
}
