package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.CommonHaloArrays;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.ReductionSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files the host harness reads and writes, little endian: {@code <field>.bin} each field's padded array (inputs,
 * a byte input a byte an element, and state fields with their halos filled), {@code params.bin} one 8-byte slot per param (integers sign-extended,
 * doubles as their bits, bools 0 or 1), and each state field's domain (the oracle's expected values, or the GPU's).
 */
final class CudaFiles {

    private static final int CHUNK = 1 << 20;

    private CudaFiles() {}

    /**
     * Writes a run's inputs, tables, params and each folded field's halo frame ({@code <field>.frame.bin}); with
     * {@code stateWhole} also every state field's padded array, which only a run that stores the field whole reads.
     */
    static void writeInputs(Path folder, KernelGraph graph, Invocation invocation, boolean stateWhole) throws IOException {
        Files.createDirectories(folder);
        invocation.checkStorage();   // a byte input's values are narrowed below: one that no longer fits is refused, not wrapped
        Object[] padded = CommonHaloArrays.of(graph, invocation, stateWhole);
        for (IrField field : graph.fields()) {
            if (stateWhole || !field.isState()) {
                write(folder.resolve(field.name() + ".bin"), CudaFields.packsBytes(graph, field)
                        ? KernelGraph.narrowed((int[]) padded[field.id()]) : padded[field.id()]);
            }
        }
        if (graph.rank() == 2) {
            CudaFields layout = CudaFields.of(graph, invocation.sizes());
            for (IrField field : BandFolding.foldedFields(graph)) {
                write(folder.resolve(field.name() + ".frame.bin"), frame(layout, field, PaddedFields.frame(graph, invocation, field)));
            }
        }
        for (int t = 0; t < graph.kernel().tables().size(); t++) {
            write(folder.resolve(graph.kernel().tables().get(t).name() + ".bin"), padded[graph.fields().size() + t]);
        }
        List<ParamSpec> params = graph.kernel().params();
        long[] slots = new long[params.size()];
        for (int p = 0; p < slots.length; p++) {
            slots[p] = switch (invocation.param(params.get(p).name())) {
                case Double d -> Double.doubleToRawLongBits(d);
                case Boolean b -> b ? 1 : 0;
                case Number n -> n.longValue();
                default -> throw new IllegalStateException("a validated param is " + invocation.param(params.get(p).name()));
            };
        }
        write(folder.resolve("params.bin"), slots);
    }

    /**
     * A folded 2D field's halo frame ({@link CudaFields#frameElements}) in the common halo's layout, from the field's own
     * ({@link PaddedFields#frame}); words its own halo does not reach stay zero, as in the padded arrays.
     */
    private static Object frame(CudaFields layout, IrField field, Object own) {
        int top = layout.halo().low()[0];
        int left = layout.halo().low()[1];
        int width = Math.toIntExact(layout.extent(1));
        int ownTop = field.haloLow()[0];
        int ownLeft = field.haloLow()[1];
        int ownWidth = field.paddedExtent(1, layout.sizes()[1]);
        int rows = layout.sizes()[0];
        Object frame = java.lang.reflect.Array.newInstance(own.getClass().getComponentType(), Math.toIntExact(layout.frameElements()));
        for (int row = -ownTop; row < 0; row++) {
            System.arraycopy(own, (row + ownTop) * ownWidth, frame, (row + top) * width + (left - ownLeft), ownWidth);
        }
        for (int r = 0; r < rows; r++) {
            System.arraycopy(own, ownTop * ownWidth + r * ownLeft, frame, top * width + r * left + (left - ownLeft), ownLeft);
        }
        return frame;
    }

    /**
     * What a run that folds gives beside whole fields, as the oracle computed it: {@code <field>.kept.bin} each folded
     * field's kept values, {@code <field>.<reduction>.bin} each reduction of one (its value as a long, then its point's
     * row-major index, -1 when it has none).
     */
    static void writeFolded(Path folder, KernelGraph graph, int[] sizes, KernelOutputs oracle) throws IOException {
        if (graph.rank() != 2) {
            return;
        }
        Files.createDirectories(folder);
        for (IrField field : BandFolding.foldedFields(graph)) {
            write(folder.resolve(BandFolding.keptKey(field) + ".bin"), oracle.field(field.name()));
        }
        for (ReductionSpec reduction : BandFolding.foldedReductions(graph)) {
            KernelOutputs.Reduced reduced = oracle.reduction(reduction.name()).orElseThrow();
            long at = reduced.position().isEmpty() ? -1 : (long) reduced.position().get(0) * sizes[1] + reduced.position().get(1);
            write(folder.resolve(BandFolding.resultKey(reduction) + ".bin"), new long[] {reduced.value(), at});
        }
    }

    /**
     * What a run wrote with {@code --outputs}: each state field's domain, cut to what the kernel keeps, and its
     * reductions; for a field the variant folds ({@code folding}), its kept values and each of its reductions instead.
     */
    static KernelOutputs readOutputs(Path folder, KernelGraph graph, int[] sizes, BandFolding folding) throws IOException {
        long points = dev.finegrain.compiler.plan.Domain.pointCount(sizes);
        Map<String, Object> whole = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState() && !folding.folds(field)) {
                whole.put(field.name(), read(folder.resolve(field.name() + ".bin"), field, points));
            }
        }
        KernelOutputs unfolded = KernelOutputs.ofDomain(graph, sizes, whole);
        if (folding.isEmpty()) {
            return unfolded;
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                kept.put(field.name(), folding.folds(field)
                        ? read(folder.resolve(BandFolding.keptKey(field) + ".bin"), field,
                                KeptBox.of(graph.kernel().keep(field.name()), sizes).points())
                        : unfolded.field(field.name()));
            }
        }
        Map<String, KernelOutputs.Reduced> reductions = new LinkedHashMap<>(unfolded.reductions());
        for (ReductionSpec reduction : folding.reductions()) {
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(folder.resolve(BandFolding.resultKey(reduction) + ".bin")))
                    .order(ByteOrder.LITTLE_ENDIAN);
            long value = bytes.getLong();
            long at = bytes.getLong();
            reductions.put(reduction.name(), new KernelOutputs.Reduced(value, !reduction.withPosition() || at < 0 ? List.of()
                    : List.of(Math.toIntExact(at / sizes[1]), Math.toIntExact(at % sizes[1]))));
        }
        return new KernelOutputs(kept, reductions);
    }

    /** Each state field's whole domain (by field name), as the oracle (or any backend) computed it. */
    static void writeDomains(Path folder, KernelGraph graph, Map<String, Object> domains) throws IOException {
        Files.createDirectories(folder);
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                write(folder.resolve(field.name() + ".bin"), domains.get(field.name()));
            }
        }
    }

    /** {@code count} values of {@code field}'s type from a file the harness wrote. */
    private static Object read(Path file, IrField field, long points) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int count = Math.toIntExact(points);
        return switch (field.type()) {
            case INT, BOOL -> {
                int[] values = new int[count];
                bytes.asIntBuffer().get(values);
                yield values;
            }
            case LONG -> {
                long[] values = new long[count];
                bytes.asLongBuffer().get(values);
                yield values;
            }
            case DOUBLE -> {
                double[] values = new double[count];
                bytes.asDoubleBuffer().get(values);
                yield values;
            }
        };
    }

    private static void write(Path file, Object array) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ByteBuffer buffer = ByteBuffer.allocate(CHUNK * 8).order(ByteOrder.LITTLE_ENDIAN);
            int length = java.lang.reflect.Array.getLength(array);
            for (int start = 0; start < length; start += CHUNK) {
                int end = Math.min(length, start + CHUNK);
                buffer.clear();
                switch (array) {
                    case byte[] bytes -> buffer.put(bytes, start, end - start);
                    case int[] ints -> buffer.asIntBuffer().put(ints, start, end - start);
                    case long[] longs -> buffer.asLongBuffer().put(longs, start, end - start);
                    case double[] doubles -> buffer.asDoubleBuffer().put(doubles, start, end - start);
                    default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
                }
                int bytes = (end - start) * switch (array) {
                    case byte[] b -> 1;
                    case int[] i -> 4;
                    default -> 8;
                };
                out.write(buffer.array(), 0, bytes);
            }
        }
    }
}
