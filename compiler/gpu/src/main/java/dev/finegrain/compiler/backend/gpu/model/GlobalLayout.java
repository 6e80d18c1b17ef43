package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.CommonHalo;
import dev.finegrain.compiler.backend.gpu.CommonHaloArrays;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.gpu.GlobalMemory;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a kernel's data lives in the model's global memory. Word 0 is the launch's index (the block-diagonal it
 * runs), word 1 the counter of the wavefront's inter-block barrier, then the kernel's params, like the parameter
 * bank a CUDA launch fills (4 bytes for int and bool, 8 for long and double at an 8-byte boundary); the fields follow
 * from the next 64-byte boundary, each padded by one common halo (the widest any field needs, per side and
 * dimension) so that one point index addresses a point in every field: its byte offset is the index times the
 * field's element size (4 bytes, or 8 for long and double, low word first). Halo values come from the reference
 * semantics of the boundaries ({@link PaddedFields}); words a field's own halo lacks stay 0. A kernel with integer
 * division has an error word after the fields, which a division by zero sets to 1.
 */
final class GlobalLayout {

    static final int LAUNCH_INDEX_BYTE = 0;
    static final int BARRIER_COUNTER_BYTE = 4;
    private static final int FIRST_PARAM_BYTE = 8;
    /** What a division by zero writes to the error word. */
    static final int DIVISION_BY_ZERO = 1;
    /** The first error word of a lookup index outside its table: {@link #lookupError}. */
    static final int LOOKUP_ERROR = 1 << 16;

    private final KernelGraph graph;
    private final int[] sizes;
    private final int[] haloLow;
    private final int[] haloHigh;
    private final int[] extents;
    /** Every field's padded layout: the domain grown by the common halo, row-major. */
    private final Domain paddedLayout;
    private final int fieldWords;
    private final int[] paramBytes;
    private final int[] fieldBytes;
    /** Per field, the elements of its own array: the common layout's, or a sequence's own length. */
    private final int[] ownElements;
    private final int[] tableBytes;
    private final int fieldsEndByte;
    private final boolean hasErrorWord;

    GlobalLayout(KernelGraph graph, int[] sizes) {
        this.graph = graph;
        this.sizes = sizes.clone();
        int rank = sizes.length;
        CommonHalo halo = CommonHalo.of(graph);
        haloLow = halo.low();
        haloHigh = halo.high();
        extents = new int[rank];
        long words = 1;
        for (int d = 0; d < rank; d++) {
            extents[d] = halo.extent(sizes, d);
            words *= extents[d];
        }
        paramBytes = new int[graph.kernel().params().size()];
        int next = FIRST_PARAM_BYTE;
        for (int p = 0; p < paramBytes.length; p++) {
            int size = GpuTarget.elementBytes(graph.kernel().params().get(p).type());
            next = (next + size - 1) / size * size;
            paramBytes[p] = next;
            next += size;
        }
        long bytes = (next + 63) / 64 * 64;
        fieldBytes = new int[graph.fields().size()];
        ownElements = new int[graph.fields().size()];
        for (IrField field : graph.fields()) {
            int size = GpuTarget.elementBytes(field.type());
            bytes = (bytes + size - 1) / size * size;
            fieldBytes[field.id()] = (int) Math.min(bytes, Integer.MAX_VALUE);
            // a sequence lies as given, along its own dimensions (GlobalReads): not in the common halo's layout
            long elements = words;
            if (field.isSequence()) {
                elements = 1;
                for (int d = 0; d < rank; d++) {
                    elements *= field.spans()[d] ? sizes[d] : 1;
                }
            }
            ownElements[field.id()] = (int) Math.min(elements, Integer.MAX_VALUE);
            bytes += size * elements;
        }
        tableBytes = new int[graph.kernel().tables().size()];
        for (int t = 0; t < tableBytes.length; t++) {
            dev.finegrain.dsl.TableSpec table = graph.kernel().tables().get(t);
            int size = GpuTarget.elementBytes(table.type());
            bytes = (bytes + size - 1) / size * size;
            tableBytes[t] = (int) Math.min(bytes, Integer.MAX_VALUE);
            bytes += (long) size * table.length();
        }
        if (bytes > Integer.MAX_VALUE / 2) {
            throw new GpuLoweringException("the fields of " + graph.name() + " at these sizes need " + bytes
                    + " bytes of global memory; the GPU model addresses at most 1 GiB; use smaller sizes");
        }
        fieldWords = (int) words;
        fieldsEndByte = (int) bytes;
        hasErrorWord = graph.actors().stream().anyMatch(actor -> divides(actor.body())) || tableBytes.length > 0;
        paddedLayout = new Domain(extents);
    }

    /**
     * Whether evaluating an expression may set the run's error word: it divides integers or looks a table up (an index
     * outside the table fails the run), anywhere inside, a lookup's indices included.
     */
    static boolean mayFail(IrExpr expr) {
        return mayFail(expr, true);
    }

    /** Whether an expression divides integers (whose divisor may be zero), a lookup's indices included. */
    static boolean divides(IrExpr expr) {
        return mayFail(expr, false);
    }

    /** An integer division anywhere inside, or (with {@code lookups}) a table lookup. */
    private static boolean mayFail(IrExpr expr, boolean lookups) {
        return switch (expr) {
            case IrExpr.Lookup l -> lookups || l.indices().stream().anyMatch(index -> mayFail(index, false));
            case IrExpr.Binary b -> (b.operator() == BinaryOperator.DIV || b.operator() == BinaryOperator.REM)
                    && b.type().isIntegral() || mayFail(b.left(), lookups) || mayFail(b.right(), lookups);
            case IrExpr.Unary u -> mayFail(u.operand(), lookups);
            case IrExpr.Select sel -> mayFail(sel.condition(), lookups) || mayFail(sel.whenTrue(), lookups)
                    || mayFail(sel.whenFalse(), lookups);
            case IrExpr.Cast c -> mayFail(c.operand(), lookups);
            case IrExpr.Iterate it -> mayFail(it.count(), lookups) || mayFail(it.init(), lookups) || mayFail(it.body(), lookups);
            default -> false;
        };
    }

    int[] haloLow() {
        return haloLow.clone();
    }

    int[] haloHigh() {
        return haloHigh.clone();
    }

    /**
     * Spells the padded row-major index of a domain point into {@code index}: (point[0] + low[0]), then for each
     * further dimension times its padded extent plus point[d] + low[d]. The one place the model ISA writes it.
     */
    void emitPaddedIndex(SimtAssembler asm, String index, String[] point) {
        asm.emit("IADD " + index + ", " + point[0] + ", " + SimtAssembler.immediate(haloLow[0]));
        for (int d = 1; d < point.length; d++) {
            asm.emit("IMAD " + index + ", " + index + ", " + SimtAssembler.immediate(extents[d]) + ", " + point[d]);
            asm.emit("IADD " + index + ", " + index + ", " + SimtAssembler.immediate(haloLow[d]));
        }
    }

    /** Padded extent of dimension {@code d}. */
    int extent(int d) {
        return extents[d];
    }

    int size(int d) {
        return sizes[d];
    }

    int rank() {
        return sizes.length;
    }

    KernelGraph graph() {
        return graph;
    }

    int paramByte(int param) {
        return paramBytes[param];
    }

    int fieldByte(int field) {
        return fieldBytes[field];
    }

    /** Where lookup table {@code table} starts, after the fields. */
    int tableByte(int table) {
        return tableBytes[table];
    }

    /** The error word of a lookup index outside axis {@code axis} of table {@code table}. */
    static int lookupError(int table, int axis) {
        return LOOKUP_ERROR + 4 * table + axis;
    }

    /** The table and axis of a lookup index that left its table, when the run's error word says one did. */
    java.util.Optional<int[]> lookupFailure(GlobalMemory memory) {
        if (!hasErrorWord || tableBytes.length == 0) {
            return java.util.Optional.empty();
        }
        int word = memory.read(errorByte(), 1)[0];
        return word >= LOOKUP_ERROR ? java.util.Optional.of(new int[] {(word - LOOKUP_ERROR) / 4, (word - LOOKUP_ERROR) % 4})
                : java.util.Optional.empty();
    }

    dev.finegrain.dsl.Type fieldType(int field) {
        return graph.field(field).type();
    }

    /** Whether some field holds 64-bit elements, so that programs need a point's 8-byte offset too. */
    boolean hasWideFields() {
        return graph.fields().stream().anyMatch(field -> GpuTarget.elementBytes(field.type()) == 8);
    }

    /** The byte address of the error word; only a kernel with integer division has one. */
    int errorByte() {
        if (!hasErrorWord) {
            throw new IllegalStateException(graph.name() + " divides no integers and has no error word");
        }
        return (fieldsEndByte + 7) / 8 * 8;
    }

    int totalBytes() {
        return hasErrorWord ? errorByte() + 8 : fieldsEndByte;
    }

    /**
     * Where a mapping's scratch words beyond the layout's own start (XF's flags, dynamic dataflow's ring): after the
     * kernel's data, on an 8-byte boundary, in the zeroed bytes the upload adds.
     */
    int scratchByte() {
        return (totalBytes() + 7) / 8 * 8;
    }

    /**
     * Byte distance between a point and the point {@code offset} away in the padded layout of {@code field}.
     */
    int byteOffset(int field, int[] offset) {
        return GpuTarget.elementBytes(graph.field(field).type()) * paddedLayout.linear(offset);
    }

    /**
     * Global memory holding the params, a zeroed barrier counter, and every field with its halo, plus
     * {@code extraBytes} of zeros after the fields.
     */
    GlobalMemory upload(Invocation invocation, int extraBytes) {
        GlobalMemory memory = new GlobalMemory(totalBytes() + extraBytes);
        for (int p = 0; p < graph.kernel().params().size(); p++) {
            Object value = invocation.param(graph.kernel().params().get(p).name());
            switch (value) {
                case Boolean flag -> memory.writeWord(paramByte(p), flag ? 1 : 0);
                case Long wide -> memory.write(paramByte(p), words(wide));
                case Double real -> memory.write(paramByte(p), words(Double.doubleToRawLongBits(real)));
                default -> memory.writeWord(paramByte(p), (Integer) value);
            }
        }
        // the fields laid out as every GPU target holds them; here each element becomes one or two 32-bit words
        Object[] padded = CommonHaloArrays.of(graph, invocation);
        for (int t = 0; t < tableBytes.length; t++) {
            memory.write(tableByte(t), wordsOf(padded[graph.fields().size() + t], GpuTarget.elementBytes(graph.kernel().tables().get(t).type()) / 4,
                    java.lang.reflect.Array.getLength(padded[graph.fields().size() + t])));
        }
        for (IrField field : graph.fields()) {
            memory.write(fieldByte(field.id()), wordsOf(padded[field.id()], GpuTarget.elementBytes(field.type()) / 4, ownElements[field.id()]));
        }
        return memory;
    }

    /** {@code count} elements of an int[], long[] or double[] as 32-bit words, {@code elementWords} an element. */
    private static int[] wordsOf(Object values, int elementWords, int count) {
        int[] words = new int[count * elementWords];
        for (int index = 0; index < count; index++) {
            int at = index * elementWords;
            switch (values) {
                case int[] ints -> words[at] = ints[index];
                case long[] longs when elementWords == 1 -> words[at] = (int) longs[index];
                case long[] longs -> System.arraycopy(words(longs[index]), 0, words, at, 2);
                case double[] doubles -> System.arraycopy(words(Double.doubleToRawLongBits(doubles[index])), 0, words, at, 2);
                default -> throw new IllegalStateException("not a field array: " + values.getClass());
            }
        }
        return words;
    }

    /** Whether the run divided by zero: the error word is set. */
    boolean dividedByZero(GlobalMemory memory) {
        return hasErrorWord && memory.read(errorByte(), 1)[0] == DIVISION_BY_ZERO;
    }

    private static int[] words(long value) {
        return new int[] {(int) value, (int) (value >>> 32)};
    }

    /**
     * What a run gives back after its last launch: each state field's values over the domain, cut to what the kernel
     * keeps, and its reductions; a reduction of a field the mapping folds is the one its run wrote into scratch memory
     * (its value as a long, then its point's row-major index, -1 for none), the rest are computed from the domain.
     */
    KernelOutputs download(GlobalMemory memory, dev.finegrain.compiler.backend.gpu.BandFolding folding) {
        KernelOutputs whole = download(memory);
        if (folding.reductions().isEmpty()) {
            return whole;
        }
        Map<String, KernelOutputs.Reduced> reductions = new LinkedHashMap<>(whole.reductions());
        for (dev.finegrain.dsl.ReductionSpec reduction : folding.reductions()) {
            int[] words = memory.read(Math.toIntExact(SimtBandFolding.resultByte(this, folding, reduction)), 4);
            long value = Integer.toUnsignedLong(words[0]) | (long) words[1] << 32;
            long at = Integer.toUnsignedLong(words[2]) | (long) words[3] << 32;
            reductions.put(reduction.name(), new KernelOutputs.Reduced(value, !reduction.withPosition() || at < 0
                    ? java.util.List.of() : java.util.List.of(Math.toIntExact(at / sizes[1]), Math.toIntExact(at % sizes[1]))));
        }
        return new KernelOutputs(whole.fields(), reductions);
    }

    /** The state fields' values over the domain, read back after the last launch. */
    KernelOutputs download(GlobalMemory memory) {
        Domain domain = new Domain(sizes);
        Map<String, Object> outputs = new LinkedHashMap<>();
        int[] point = new int[sizes.length];
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            int elementWords = GpuTarget.elementBytes(field.type()) / 4;
            int[] words = memory.read(fieldByte(field.id()), fieldWords * elementWords);
            int[] ints = new int[elementWords == 1 ? domain.points() : 0];
            long[] longs = new long[elementWords == 2 ? domain.points() : 0];
            for (int p = 0; p < domain.points(); p++) {
                domain.coordinates(p, point);
                for (int d = 0; d < point.length; d++) {
                    point[d] += haloLow[d];
                }
                int at = paddedLayout.linear(point) * elementWords;
                if (elementWords == 1) {
                    ints[p] = words[at];
                } else {
                    longs[p] = Integer.toUnsignedLong(words[at]) | (long) words[at + 1] << 32;
                }
            }
            outputs.put(field.name(), switch (field.type()) {
                case LONG -> longs;
                case DOUBLE -> Arrays.stream(longs).mapToDouble(Double::longBitsToDouble).toArray();
                default -> ints;
            });
        }
        return KernelOutputs.ofDomain(graph, sizes, outputs);
    }
}
