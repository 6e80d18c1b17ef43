package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.CommonHalo;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.gpu.GlobalMemory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a kernel's data lives in the model's global memory. Word 0 is the launch's index (the block-diagonal it
 * runs), word 1 the counter of the wavefront's inter-block barrier, words 2.. the kernel's params, like the
 * parameter bank a CUDA launch fills; the fields follow from the next 64-byte boundary, each padded by one common
 * halo (the widest any field needs, per side and dimension) so that one index register addresses a point in every
 * field. Halo values come from the reference semantics of the boundaries ({@link PaddedFields}); words a field's
 * own halo lacks stay 0.
 */
final class GlobalLayout {

    static final int LAUNCH_INDEX_BYTE = 0;
    static final int BARRIER_COUNTER_BYTE = 4;
    private static final int FIRST_PARAM_BYTE = 8;

    private final KernelGraph graph;
    private final int[] sizes;
    private final int[] haloLow;
    private final int[] haloHigh;
    private final int[] extents;
    /** Every field's padded layout: the domain grown by the common halo, row-major. */
    private final Domain paddedLayout;
    private final int fieldWords;
    private final int fieldsStartByte;

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
        fieldsStartByte = (FIRST_PARAM_BYTE + 4 * graph.kernel().params().size() + 63) / 64 * 64;
        long bytes = fieldsStartByte + 4 * words * graph.fields().size();
        if (bytes > Integer.MAX_VALUE / 2) {
            throw new GpuLoweringException("the fields of " + graph.name() + " at these sizes need " + bytes
                    + " bytes of global memory; the GPU model addresses at most 1 GiB; use smaller sizes");
        }
        fieldWords = (int) words;
        paddedLayout = new Domain(extents);
    }

    int[] haloLow() {
        return haloLow.clone();
    }

    int[] haloHigh() {
        return haloHigh.clone();
    }

    /** Padded extent of dimension {@code d}. */
    int extent(int d) {
        return extents[d];
    }

    int size(int d) {
        return sizes[d];
    }

    static int paramByte(int param) {
        return FIRST_PARAM_BYTE + 4 * param;
    }

    int fieldByte(int field) {
        return fieldsStartByte + 4 * fieldWords * field;
    }

    int totalBytes() {
        return fieldByte(graph.fields().size());
    }

    /**
     * Byte distance between a point and the point {@code offset} away in the padded layout of any field.
     */
    int byteOffset(int[] offset) {
        return 4 * paddedLayout.linear(offset);
    }

    /**
     * Global memory holding the params, a zeroed barrier counter, and every field with its halo, plus
     * {@code extraBytes} of zeros after the fields.
     */
    GlobalMemory upload(Invocation invocation, int extraBytes) {
        GlobalMemory memory = new GlobalMemory(totalBytes() + extraBytes);
        for (int p = 0; p < graph.kernel().params().size(); p++) {
            Object value = invocation.param(graph.kernel().params().get(p).name());
            memory.writeWord(paramByte(p), value instanceof Boolean flag ? (flag ? 1 : 0) : (Integer) value);
        }
        Object[] padded = PaddedFields.prepare(graph, invocation);
        for (IrField field : graph.fields()) {
            int[] values = (int[]) padded[field.id()];
            int[] fieldExtents = new int[sizes.length];
            for (int d = 0; d < sizes.length; d++) {
                fieldExtents[d] = sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
            }
            Domain fieldLayout = new Domain(fieldExtents);
            int[] words = new int[fieldWords];
            int[] point = new int[sizes.length];
            for (int index = 0; index < values.length; index++) {
                fieldLayout.coordinates(index, point);
                for (int d = 0; d < point.length; d++) {
                    point[d] += haloLow[d] - field.haloLow()[d];
                }
                words[paddedLayout.linear(point)] = values[index];
            }
            memory.write(fieldByte(field.id()), words);
        }
        return memory;
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
            int[] words = memory.read(fieldByte(field.id()), fieldWords);
            int[] values = new int[domain.points()];
            for (int p = 0; p < values.length; p++) {
                domain.coordinates(p, point);
                for (int d = 0; d < point.length; d++) {
                    point[d] += haloLow[d];
                }
                values[p] = words[paddedLayout.linear(point)];
            }
            outputs.put(field.name(), values);
        }
        return new KernelOutputs(outputs);
    }
}
