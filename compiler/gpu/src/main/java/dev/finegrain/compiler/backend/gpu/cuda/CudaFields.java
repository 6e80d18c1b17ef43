package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.CommonHalo;
import dev.finegrain.compiler.backend.gpu.DeviceStorage;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;

/**
 * How a variant's fields lie in device memory: one array per field, each the domain padded by the common halo (the
 * widest any field needs), row-major, so that one index {@code g} addresses a point in every field, as on the model.
 */
record CudaFields(KernelGraph graph, int[] sizes, CommonHalo halo) {

    static CudaFields of(KernelGraph graph, int[] sizes) {
        return new CudaFields(graph, sizes.clone(), CommonHalo.of(graph));
    }

    int rank() {
        return sizes.length;
    }

    long extent(int d) {
        return halo.extent(sizes, d);
    }

    long paddedLength() {
        long length = 1;
        for (int d = 0; d < rank(); d++) {
            length *= extent(d);
        }
        return length;
    }

    /** The padded index of the point whose coordinates are {@code point} (expressions), as a {@code long long}. */
    String index(String[] point) {
        StringBuilder index = new StringBuilder("(long long) (" + point[0] + " + " + halo.low()[0] + ")");
        for (int d = 1; d < rank(); d++) {
            index.insert(0, "(").append(") * " + extent(d) + " + (" + point[d] + " + " + halo.low()[d] + ")");
        }
        return index.toString();
    }

    /**
     * Elements of a folded 2D field's buffer ({@link dev.finegrain.compiler.backend.gpu.BandFolding}), its halo frame:
     * the halo rows above the domain, whole padded rows, then the halo columns left of each row of the domain.
     */
    long frameElements() {
        return halo.low()[0] * extent(1) + (long) sizes[0] * halo.low()[1];
    }

    /** The frame index of a point above the domain (its row negative). */
    String frameAbove(String row, String column) {
        return "(long long) (" + row + " + " + halo.low()[0] + ") * " + extent(1) + " + (" + column + " + " + halo.low()[1] + ")";
    }

    /** The frame index of a point left of the domain (its row in the domain, its column negative). */
    String frameLeft(String row, String column) {
        return halo.low()[0] * extent(1) + " + (long long) (" + row + ") * " + halo.low()[1] + " + (" + column + " + " + halo.low()[1] + ")";
    }

    /** The element offset from a point to the point {@code offset} away, in the padded layout. */
    long offset(int[] offset) {
        long linear = 0;
        for (int d = 0; d < rank(); d++) {
            linear = linear * extent(d) + offset[d];
        }
        return linear;
    }

    /**
     * Whether {@code field} lies in device memory a byte an element ({@link DeviceStorage}): a byte input, on every CUDA
     * target (each loads bytes, {@link CudaLowering#target}), so one bundle's inputs serve every architecture.
     */
    static boolean packsBytes(KernelGraph graph, IrField field) {
        return graph.declaresBytes(field);
    }

    /** The C type of one element of {@code field} in device memory. */
    static String elementType(KernelGraph graph, IrField field) {
        return packsBytes(graph, field) ? "signed char" : CudaExpressions.type(field.type());
    }

    /** The bytes of one element of {@code field} in device memory. */
    static int elementBytes(KernelGraph graph, IrField field) {
        return packsBytes(graph, field) ? 1 : GpuTarget.elementBytes(field.type());
    }

    /** The {@code Fields} struct: one device pointer per field, inputs const, then one per lookup table. */
    void emitStruct(CudaWriter out) {
        out.comment("one device array per field, the domain padded by the common halo, row-major"
                + (graph.fields().stream().anyMatch(IrField::isSequence) || !graph.kernel().tables().isEmpty()
                        ? " (a sequence as given, along its own dimensions); then each lookup table" : ""));
        out.open("struct Fields");
        for (IrField field : graph.fields()) {
            out.line((field.isInput() ? "const " : "") + elementType(graph, field) + "* " + CudaNames.member(field.name())
                    + ";   // " + (field.isSequence() ? "sequence input" : field.isInput() ? "input" : "state") + " field '" + field.name() + "'"
                    + (packsBytes(graph, field) ? ", a byte an element" : ""));
        }
        for (TableSpec table : graph.kernel().tables()) {
            out.line("const " + CudaExpressions.type(table.type()) + "* " + CudaNames.member(table.name()) + ";   // lookup table '"
                    + table.name() + "', " + table.extents().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" x ")));
        }
        out.close("};");
    }
}
