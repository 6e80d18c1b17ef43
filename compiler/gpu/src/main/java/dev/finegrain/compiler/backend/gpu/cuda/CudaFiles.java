package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.CommonHaloArrays;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.ParamSpec;

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
 * and state fields with their halos filled), {@code params.bin} one 8-byte slot per param (integers sign-extended,
 * doubles as their bits, bools 0 or 1), and each state field's domain (the oracle's expected values, or the GPU's).
 */
final class CudaFiles {

    private static final int CHUNK = 1 << 20;

    private CudaFiles() {}

    static void writeInputs(Path folder, KernelGraph graph, Invocation invocation) throws IOException {
        Files.createDirectories(folder);
        Object[] padded = CommonHaloArrays.of(graph, invocation);
        for (IrField field : graph.fields()) {
            write(folder.resolve(field.name() + ".bin"), padded[field.id()]);
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

    /** Each state field's whole domain (by field name), as the oracle (or any backend) computed it. */
    static void writeDomains(Path folder, KernelGraph graph, Map<String, Object> domains) throws IOException {
        Files.createDirectories(folder);
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                write(folder.resolve(field.name() + ".bin"), domains.get(field.name()));
            }
        }
    }

    /** The state fields' domains the harness wrote with {@code --outputs}. */
    static KernelOutputs readDomains(Path folder, KernelGraph graph, int[] sizes) throws IOException {
        long points = java.util.Arrays.stream(sizes).asLongStream().reduce(1, Math::multiplyExact);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(folder.resolve(field.name() + ".bin"))).order(ByteOrder.LITTLE_ENDIAN);
            int count = Math.toIntExact(points);
            fields.put(field.name(), switch (field.type()) {
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
            });
        }
        return KernelOutputs.ofDomain(graph, sizes, fields);
    }

    private static void write(Path file, Object array) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ByteBuffer buffer = ByteBuffer.allocate(CHUNK * 8).order(ByteOrder.LITTLE_ENDIAN);
            int length = java.lang.reflect.Array.getLength(array);
            for (int start = 0; start < length; start += CHUNK) {
                int end = Math.min(length, start + CHUNK);
                buffer.clear();
                switch (array) {
                    case int[] ints -> buffer.asIntBuffer().put(ints, start, end - start);
                    case long[] longs -> buffer.asLongBuffer().put(longs, start, end - start);
                    case double[] doubles -> buffer.asDoubleBuffer().put(doubles, start, end - start);
                    default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
                }
                int bytes = (end - start) * (array instanceof int[] ? 4 : 8);
                out.write(buffer.array(), 0, bytes);
            }
        }
    }
}
