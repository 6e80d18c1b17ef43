package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.Dimension;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.TableSpec;

import java.util.List;
import java.util.stream.Collectors;

/** Prints a {@link KernelGraph} as stable, readable text: what {@code finegrain show --ir} and the pass goldens show. */
public final class IrPrinter {

    private IrPrinter() {}

    public static String print(KernelGraph graph) {
        List<Dimension> domain = graph.kernel().domain();
        StringBuilder out = new StringBuilder();
        out.append("kernel ").append(graph.name()).append(" over ").append(domain).append('\n');
        graph.kernel().params().forEach(p -> out.append("  ").append(p).append('\n'));
        for (IrField field : graph.fields()) {
            out.append("  ").append(field.isInput() ? "input " : "state ").append(field.name()).append(": ").append(field.type());
            if (field.boundary() != null) {
                out.append(", boundary ").append(expression(graph, field.boundary()));
            }
            if (field.boundaryInput() != IrField.NO_INPUT) {
                out.append(", boundary from input ").append(graph.field(field.boundaryInput()).name());
            }
            if (field.isSequence()) {
                out.append(", along");
                for (int d = 0; d < domain.size(); d++) {
                    if (field.spans()[d]) {
                        out.append(' ').append(domain.get(d).index());
                    }
                }
            }
            if (field.hasHalo()) {
                out.append(", halo");
                for (int d = 0; d < domain.size(); d++) {
                    out.append(' ').append(domain.get(d).index()).append(':').append(field.haloLow()[d]).append('/').append(field.haloHigh()[d]);
                }
            }
            out.append('\n');
        }
        for (TableSpec table : graph.kernel().tables()) {
            out.append("  table ").append(table.name()).append(": ").append(table.type()).append(' ')
                    .append(table.extents().stream().map(String::valueOf).reduce((a, b) -> a + " x " + b).orElseThrow()).append('\n');
        }
        for (dev.finegrain.dsl.KeepSpec keep : graph.kernel().keeps()) {
            IrField kept = graph.field(keep.field());
            int window = kept.haloLow()[0] + 1;
            out.append("  keep ").append(keep.field()).append(": ").append(keep.keep()).append("; storage folded in the oracle to ")
                    .append(window).append(window == 1 ? " row" : " rows").append(" along ").append(domain.get(0).index())
                    .append(", and by the jvm's spsc-ring where its class says so; whole in the other compiled backends\n");
        }
        for (dev.finegrain.dsl.ReductionSpec reduction : graph.kernel().reductions()) {
            out.append("  reduce ").append(reduction.name()).append(reduction.withPosition() ? " with its position" : "").append('\n');
        }
        for (IrActor actor : graph.actors()) {
            out.append("  actor ").append(actor.name()).append(": ")
                    .append(load(graph, actor.writes(), new int[domain.size()])).append(" = ")
                    .append(expression(graph, actor.body())).append('\n');
        }
        for (int c = 0; c < graph.channels().size(); c++) {
            IrChannel channel = graph.channels().get(c);
            out.append("  channel #").append(c).append(' ').append(graph.actor(channel.producer()).name()).append(" -> ")
                    .append(graph.actor(channel.consumer()).name()).append(' ').append(DependenceMath.format(channel.vector()))
                    .append(" via ").append(channel.via()).append(", ").append(channel.policy());
            if (channel.isImplied()) {
                out.append(", implied by ").append(channel.impliedBy().stream().map(i -> "#" + i).collect(Collectors.joining(" + ")));
            }
            out.append('\n');
        }
        if (!graph.actorOrder().isEmpty()) {
            out.append("  actor order: ").append(graph.actorOrder().stream().map(a -> graph.actor(a).name())
                    .collect(Collectors.joining(", "))).append('\n');
        }
        if (graph.hyperplane() != null) {
            out.append("  hyperplane ").append(DependenceMath.format(graph.hyperplane())).append('\n');
        }
        if (graph.tiling() != null) {
            out.append("  tiling ").append(graph.tiling().legal() ? "legal"
                    : "illegal: dependence " + DependenceMath.format(graph.tiling().offendingVector())).append('\n');
        }
        out.append("  locks: channels ").append(graph.kernel().channelPolicy()).append(", granularity ").append(graph.kernel().granularity());
        if (graph.kernel().granularity() == LockGranularity.WARP_SHARED) {
            out.append(" (group of ").append(graph.kernel().groupSize()).append(')');
        }
        graph.kernel().mechanism().ifPresent(m -> out.append(", mechanism ").append(m));
        return out.append('\n').toString();
    }

    public static String load(KernelGraph graph, int field, int[] offset) {
        List<Dimension> domain = graph.kernel().domain();
        IrField spec = graph.field(field);
        StringBuilder text = new StringBuilder(spec.name()).append('[');
        boolean first = true;
        for (int d = 0; d < offset.length; d++) {
            if (!spec.spans()[d]) {
                continue;
            }
            text.append(first ? "" : ", ").append(domain.get(d).index());
            first = false;
            if (offset[d] != 0) {
                text.append(offset[d] > 0 ? "+" : "").append(offset[d]);
            }
        }
        return text.append(']').toString();
    }

    public static String expression(KernelGraph graph, IrExpr expr) {
        return print(graph, expr, false);
    }

    private static String print(KernelGraph graph, IrExpr expr, boolean nested) {
        return switch (expr) {
            case IrExpr.Const c -> switch (c.type()) {
                case INT -> Long.toString(c.integral());
                case LONG -> c.integral() + "L";
                case DOUBLE -> Double.toString(c.real());
                case BOOL -> c.integral() != 0 ? "true" : "false";
            };
            case IrExpr.IndexVar v -> graph.kernel().domain().get(v.dimension()).index();
            case IrExpr.SizeVar v -> graph.kernel().domain().get(v.dimension()).size();
            case IrExpr.ParamVar p -> graph.kernel().params().get(p.param()).name();
            case IrExpr.Load load -> load(graph, load.field(), load.offset());
            case IrExpr.Lookup l -> graph.kernel().tables().get(l.table()).name() + l.indices().stream().map(i -> print(graph, i, false))
                    .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
            case IrExpr.Unary u -> switch (u.operator()) {
                case ABS -> "abs(" + print(graph, u.operand(), false) + ")";
                case NEG, NOT -> u.operator().symbol() + print(graph, u.operand(), true);
            };
            case IrExpr.Binary b when b.operator().printsAsCall() ->
                    b.operator().symbol() + "(" + print(graph, b.left(), false) + ", " + print(graph, b.right(), false) + ")";
            case IrExpr.Binary b -> {
                String text = print(graph, b.left(), true) + " " + b.operator().symbol() + " " + print(graph, b.right(), true);
                yield nested ? "(" + text + ")" : text;
            }
            case IrExpr.Select s -> "select(" + print(graph, s.condition(), false) + ", " + print(graph, s.whenTrue(), false)
                    + ", " + print(graph, s.whenFalse(), false) + ")";
            case IrExpr.Cast c -> c.type() + "(" + print(graph, c.operand(), false) + ")";
            case IrExpr.Iterate it -> "iterate(" + print(graph, it.count(), false) + ", " + print(graph, it.init(), false)
                    + ", acc" + it.slot() + " -> " + print(graph, it.body(), false) + ")";
            case IrExpr.Accumulator a -> "acc" + a.slot();
        };
    }
}
