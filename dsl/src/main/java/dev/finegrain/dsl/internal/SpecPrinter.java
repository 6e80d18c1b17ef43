package dev.finegrain.dsl.internal;

import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Storage;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Dimension;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.ActorSpec;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.Boundary;
import dev.finegrain.dsl.ChannelSpec;
import dev.finegrain.dsl.TableSpec;
import dev.finegrain.dsl.KeepSpec;
import dev.finegrain.dsl.ReductionSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Prints kernel specs and expression trees as readable text; the compiler's IR printer reuses it. */
public final class SpecPrinter {

    private SpecPrinter() {}

    public static String print(Kernel kernel) {
        StringBuilder out = new StringBuilder();
        out.append("kernel ").append(kernel.name()).append(" over ").append(kernel.domain()).append('\n');
        for (ParamSpec param : kernel.params()) {
            out.append("  ").append(param).append('\n');
        }
        for (FieldSpec field : kernel.fields()) {
            out.append("  ").append(field(field, kernel.domain())).append('\n');
        }
        for (TableSpec table : kernel.tables()) {
            out.append("  table ").append(table.name()).append(": ").append(table.type()).append(' ')
                    .append(table.extents().stream().map(String::valueOf).reduce((a, b) -> a + " x " + b).orElseThrow()).append('\n');
        }
        for (KeepSpec keep : kernel.keeps()) {
            out.append("  keep ").append(keep.field()).append(": ").append(keep.keep()).append('\n');
        }
        for (ReductionSpec reduction : kernel.reductions()) {
            out.append("  reduce ").append(reduction.name()).append(reduction.withPosition() ? " with its position" : "").append('\n');
        }
        for (ActorSpec actor : kernel.actors()) {
            out.append("  actor ").append(actor.name()).append(": ").append(actor.writes()).append(" = ")
                    .append(expression(actor.body(), kernel)).append('\n');
        }
        for (ChannelSpec channel : kernel.channels()) {
            out.append("  channel ").append(channel.producer()).append(" -> ").append(channel.consumer())
                    .append(" distance ").append(DependenceMath.format(toArray(channel.distance())));
            if (channel.policy() != null) {
                out.append(' ').append(channel.policy());
            }
            out.append('\n');
        }
        out.append("  channels ").append(kernel.channelPolicy()).append(", granularity ").append(kernel.granularity());
        if (kernel.granularity() == LockGranularity.WARP_SHARED) {
            out.append(" (group of ").append(kernel.groupSize()).append(')');
        }
        kernel.mechanism().ifPresent(m -> out.append(", mechanism ").append(m));
        return out.append('\n').toString();
    }

    public static String field(FieldSpec field, List<Dimension> domain) {
        String head = (field.isInput() ? "input " : "state ") + field.name() + ": " + field.type();
        if (field.isInput()) {
            String stored = field.storage() == Storage.BYTE ? ", stored in bytes" : "";
            String along = field.isSequence() ? ", along " + String.join(", ", field.along()) : "";
            return (field.halo() == 0 ? head : head + ", halo " + field.halo()) + along + stored;
        }
        return switch (field.boundary()) {
            case Boundary.None none -> head;
            case Boundary.FromExpression(Expr value) -> head + ", boundary " + expression(value, domain);
            case Boundary.FromInput(String input) -> head + ", boundary from input " + input;
        };
    }

    /** {@code score[i-1, j]} for a read at offset (-1, 0) over dimensions i, j. */
    public static String read(String field, List<Integer> offset, List<Dimension> domain) {
        return readOver(field, offset, domain.stream().map(Dimension::index).toList());
    }

    /** {@code a[i-1]} for a read at offset (-1) of a field spanning the dimension indexed by i. */
    public static String readOver(String field, List<Integer> offset, List<String> indices) {
        if (offset.size() != indices.size()) {
            return field + "@" + DependenceMath.format(toArray(offset));
        }
        StringBuilder text = new StringBuilder(field).append('[');
        for (int d = 0; d < offset.size(); d++) {
            int c = offset.get(d);
            text.append(d == 0 ? "" : ", ").append(indices.get(d));
            if (c != 0) {
                text.append(c > 0 ? "+" : "").append(c);
            }
        }
        return text.append(']').toString();
    }

    public static String expression(Expr expr, List<Dimension> domain) {
        List<String> indices = domain.stream().map(Dimension::index).toList();
        return new ExpressionPrinter(field -> indices).print(expr, false);
    }

    /** As {@link #expression(Expr, List)}, reads of sequence inputs printed over the dimensions they span. */
    public static String expression(Expr expr, Kernel kernel) {
        return new ExpressionPrinter(field -> kernel.field(field).map(f -> f.spannedIndices(kernel.domain()))
                .orElse(kernel.domain().stream().map(Dimension::index).toList())).print(expr, false);
    }

    private static int[] toArray(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    private static final class ExpressionPrinter {
        /** The indices of the dimensions a field spans, by field name. */
        private final Function<String, List<String>> indicesOf;
        private final Map<Integer, String> accumulatorNames = new HashMap<>();

        ExpressionPrinter(Function<String, List<String>> indicesOf) {
            this.indicesOf = indicesOf;
        }

        String print(Expr expr, boolean nested) {
            return switch (expr) {
                case Expr.Constant c -> constant(c);
                case Expr.Index index -> index.name();
                case Expr.Param param -> param.name();
                case Expr.Size size -> size.name();
                case Expr.Read read -> readOver(read.field(), read.offset(), indicesOf.apply(read.field()));
                case Expr.Lookup lookup -> lookup.table() + lookup.indices().stream().map(i -> print(i, false))
                        .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
                case Expr.Unary unary -> switch (unary.operator()) {
                    case ABS -> "abs(" + print(unary.operand(), false) + ")";
                    case NEG, NOT -> unary.operator().symbol() + print(unary.operand(), true);
                };
                case Expr.Binary binary when binary.operator().printsAsCall() ->
                        binary.operator().symbol() + "(" + print(binary.left(), false) + ", " + print(binary.right(), false) + ")";
                case Expr.Binary binary -> {
                    String text = print(binary.left(), true) + " " + binary.operator().symbol() + " " + print(binary.right(), true);
                    yield nested ? "(" + text + ")" : text;
                }
                case Expr.Select select -> "select(" + print(select.condition(), false) + ", "
                        + print(select.whenTrue(), false) + ", " + print(select.whenFalse(), false) + ")";
                case Expr.Cast cast -> cast.type() + "(" + print(cast.operand(), false) + ")";
                case Expr.Iterate iterate -> {
                    String name = accumulatorNames.size() == 0 ? "acc" : "acc" + (accumulatorNames.size() + 1);
                    accumulatorNames.put(iterate.accumulator().id(), name);
                    yield "iterate(" + print(iterate.count(), false) + ", " + print(iterate.init(), false) + ", "
                            + name + " -> " + print(iterate.body(), false) + ")";
                }
                case Expr.Accumulator accumulator -> accumulatorNames.getOrDefault(accumulator.id(), "acc?");
            };
        }

        private static String constant(Expr.Constant c) {
            return switch (c.type()) {
                case INT -> Long.toString(c.integral());
                case LONG -> c.integral() + "L";
                case DOUBLE -> Double.toString(c.real());
                case BOOL -> c.integral() != 0 ? "true" : "false";
            };
        }
    }
}
