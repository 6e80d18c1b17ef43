package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.ActorSpec;
import dev.finegrain.dsl.Boundary;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.internal.TypeRules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lowers a built (so already validated) kernel spec to a graph of typed, name-resolved expressions, with each
 * state field's storage padded by exactly the halo its reads reach; no channels or analyses yet.
 */
public final class LowerSpecToGraph {

    private LowerSpecToGraph() {}

    public static KernelGraph lower(Kernel kernel) {
        List<IrField> fields = new ArrayList<>();
        int rank = kernel.rank();
        for (FieldSpec spec : kernel.fields()) {
            boolean[] spans = spans(kernel, spec);
            int[] halo = new int[rank];
            for (int d = 0; d < rank; d++) {
                halo[d] = spans[d] ? spec.halo() : 0;
            }
            fields.add(new IrField(fields.size(), spec.name(), spec.type(), spec.role(), null,
                    IrField.NO_INPUT, halo, halo.clone(), spans));
        }
        List<IrActor> actors = new ArrayList<>();
        for (ActorSpec spec : kernel.actors()) {
            Resolver resolver = new Resolver(kernel);
            IrExpr body = resolver.resolve(spec.body());
            actors.add(new IrActor(actors.size(), spec.name(), indexOfField(kernel, spec.writes()), body, resolver.slots));
        }
        for (FieldSpec spec : kernel.fields()) {
            IrField field = fields.get(indexOfField(kernel, spec.name()));
            if (spec.isState()) {
                field = withStateHalo(field, actors, rank);
                field = switch (spec.boundary()) {
                    case Boundary.None none -> field;
                    case Boundary.FromExpression(Expr value) -> new IrField(field.id(), field.name(), field.type(), field.role(),
                            new Resolver(kernel).resolve(value), IrField.NO_INPUT, field.haloLow(), field.haloHigh(), field.spans());
                    case Boundary.FromInput(String input) -> new IrField(field.id(), field.name(), field.type(), field.role(),
                            null, indexOfField(kernel, input), field.haloLow(), field.haloHigh(), field.spans());
                };
                fields.set(field.id(), field);
            }
        }
        return new KernelGraph(kernel, fields, actors, List.of(), List.of(), null, null);
    }

    /** A state field's storage reaches exactly as far as the furthest read along each side of each dimension. */
    private static IrField withStateHalo(IrField field, List<IrActor> actors, int rank) {
        int[] low = new int[rank];
        int[] high = new int[rank];
        for (IrActor actor : actors) {
            Loads.forEach(actor.body(), load -> {
                if (load.field() == field.id()) {
                    for (int d = 0; d < rank; d++) {
                        low[d] = Math.max(low[d], -load.offset()[d]);
                        high[d] = Math.max(high[d], load.offset()[d]);
                    }
                }
            });
        }
        return field.withHalo(low, high);
    }

    /** Per domain dimension, whether the field spans it: all of them but for a sequence input. */
    private static boolean[] spans(Kernel kernel, FieldSpec spec) {
        List<String> spanned = spec.spannedIndices(kernel.domain());
        boolean[] spans = new boolean[kernel.rank()];
        for (int d = 0; d < spans.length; d++) {
            spans[d] = spanned.contains(kernel.domain().get(d).index());
        }
        return spans;
    }

    private static int indexOfField(Kernel kernel, String name) {
        for (int f = 0; f < kernel.fields().size(); f++) {
            if (kernel.fields().get(f).name().equals(name)) {
                return f;
            }
        }
        throw new IllegalStateException("validated kernel names unknown field " + name);
    }

    /**
     * Resolves one tree's names. Every fold gets its own slot, numbered in order of appearance, even when the same
     * fold node appears twice in the tree (a shared subtree); {@code inScope} maps a DSL accumulator to the slot of
     * the fold whose body is being resolved.
     */
    private static final class Resolver {
        private final Kernel kernel;
        private final Map<Integer, IrExpr.Accumulator> inScope = new HashMap<>();
        private int slots;

        Resolver(Kernel kernel) {
            this.kernel = kernel;
        }

        IrExpr resolve(Expr expr) {
            return switch (expr) {
                case Expr.Constant c -> new IrExpr.Const(c.type(), c.integral(), c.real());
                case Expr.Index index -> new IrExpr.IndexVar(dimensionOf(index.name(), true));
                case Expr.Size size -> new IrExpr.SizeVar(dimensionOf(size.name(), false));
                case Expr.Param param -> {
                    int id = kernel.params().indexOf(kernel.param(param.name()).orElseThrow());
                    yield new IrExpr.ParamVar(id, kernel.params().get(id).type());
                }
                case Expr.Read read -> {
                    int field = indexOfField(kernel, read.field());
                    yield new IrExpr.Load(field, domainOffset(kernel.fields().get(field), read.offsetArray()), kernel.fields().get(field).type());
                }
                case Expr.Lookup lookup -> {
                    int table = kernel.tables().indexOf(kernel.table(lookup.table()).orElseThrow());
                    yield new IrExpr.Lookup(table, lookup.indices().stream().map(this::resolve).toList(), kernel.tables().get(table).type());
                }
                case Expr.Unary unary -> {
                    IrExpr operand = resolve(unary.operand());
                    yield new IrExpr.Unary(unary.operator(), operand, TypeRules.unary(unary.operator(), operand.type()).orElseThrow());
                }
                case Expr.Binary binary -> {
                    IrExpr left = resolve(binary.left());
                    IrExpr right = resolve(binary.right());
                    yield new IrExpr.Binary(binary.operator(), left, right,
                            TypeRules.binary(binary.operator(), left.type(), right.type()).orElseThrow());
                }
                case Expr.Select select -> {
                    IrExpr whenTrue = resolve(select.whenTrue());
                    yield new IrExpr.Select(resolve(select.condition()), whenTrue, resolve(select.whenFalse()), whenTrue.type());
                }
                case Expr.Cast cast -> new IrExpr.Cast(resolve(cast.operand()), cast.type());
                case Expr.Iterate iterate -> {
                    IrExpr count = resolve(iterate.count());
                    IrExpr init = resolve(iterate.init());
                    IrExpr.Accumulator accumulator = new IrExpr.Accumulator(slots++, init.type());
                    IrExpr.Accumulator outer = inScope.put(iterate.accumulator().id(), accumulator);
                    IrExpr body = resolve(iterate.body());
                    if (outer == null) {
                        inScope.remove(iterate.accumulator().id());
                    } else {
                        inScope.put(iterate.accumulator().id(), outer);
                    }
                    yield new IrExpr.Iterate(count, init, accumulator.slot(), body, init.type());
                }
                case Expr.Accumulator accumulator -> inScope.get(accumulator.id());
            };
        }

        /** A read's offset with one component per domain dimension: a sequence's reads give only those it spans. */
        private int[] domainOffset(FieldSpec field, int[] offset) {
            if (!field.isSequence()) {
                return offset;
            }
            int[] full = new int[kernel.rank()];
            for (int k = 0; k < offset.length; k++) {
                full[dimensionOf(field.along().get(k), true)] = offset[k];
            }
            return full;
        }

        private int dimensionOf(String name, boolean isIndex) {
            for (int d = 0; d < kernel.rank(); d++) {
                String candidate = isIndex ? kernel.domain().get(d).index() : kernel.domain().get(d).size();
                if (candidate.equals(name)) {
                    return d;
                }
            }
            throw new IllegalStateException("validated kernel names unknown dimension " + name);
        }
    }
}
