package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a run computed: each state field's values over the domain (no halo), row-major, as int[], long[] or
 * double[]. Two runs agree only bit for bit: doubles are compared by their raw bits.
 */
public record KernelOutputs(Map<String, Object> fields) {

    public KernelOutputs {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /**
     * The interiors of the state fields of padded storage laid out as {@link
     * dev.finegrain.compiler.backend.reference.PaddedFields} lays it out; an int field held in long words (a value
     * beside its ready bit) yields the words' low 32 bits.
     */
    public static KernelOutputs fromPadded(KernelGraph graph, int[] sizes, Object[] arrays) {
        Domain domain = new Domain(sizes);
        Map<String, Object> fields = new LinkedHashMap<>();
        int[] point = new int[sizes.length];
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            int[] extents = new int[sizes.length];
            for (int d = 0; d < sizes.length; d++) {
                extents[d] = sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
            }
            Object padded = arrays[field.id()];
            boolean packedInts = padded instanceof long[] && field.type() != dev.finegrain.dsl.Type.LONG;
            Object out = switch (padded) {
                case double[] d -> new double[domain.points()];
                case long[] l -> packedInts ? new int[domain.points()] : new long[domain.points()];
                default -> new int[domain.points()];
            };
            for (int p = 0; p < domain.points(); p++) {
                domain.coordinates(p, point);
                int index = 0;
                for (int d = 0; d < sizes.length; d++) {
                    index = index * extents[d] + point[d] + field.haloLow()[d];
                }
                switch (out) {
                    case double[] o -> o[p] = ((double[]) padded)[index];
                    case long[] o -> o[p] = ((long[]) padded)[index];
                    case int[] o -> o[p] = packedInts ? (int) ((long[]) padded)[index] : ((int[]) padded)[index];
                    default -> throw new IllegalStateException();
                }
            }
            fields.put(field.name(), out);
        }
        return new KernelOutputs(fields);
    }

    public Object field(String name) {
        return fields.get(name);
    }

    /**
     * The first point where {@code actual} differs from these outputs, as a readable sentence. Values compare bit for
     * bit, except that every NaN equals every NaN: Java leaves a NaN's sign and payload unspecified, and HotSpot's
     * tiers give {@code 0.0 / 0.0} different sign bits, so raw bits would call a run wrong that computed the same NaN.
     */
    public Optional<String> firstDifference(KernelGraph graph, int[] sizes, KernelOutputs actual) {
        Domain domain = new Domain(sizes);
        int[] point = new int[sizes.length];
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            Object want = fields.get(field.name());
            Object got = actual.fields.get(field.name());
            if (got == null) {
                return Optional.of("field " + field.name() + " is missing");
            }
            for (int p = 0; p < domain.points(); p++) {
                long wantBits = bits(want, p);
                long gotBits = bits(got, p);
                if (wantBits != gotBits) {
                    domain.coordinates(p, point);
                    return Optional.of(field.name() + java.util.Arrays.toString(point) + ": expected " + text(want, p)
                            + ", got " + text(got, p));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A digest of the state fields' domains (SHA-256, the first 16 bytes in hex), in the graph's field order, each value
     * as the bits {@link #firstDifference} compares (every NaN alike): two runs that verify against each other have the
     * same digest. An exported row carries its oracle's digest, so a merge can tell which computation it was checked
     * against.
     */
    public String digest(KernelGraph graph, int[] sizes) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
        int points = new Domain(sizes).points();
        ByteBuffer value = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            sha.update(field.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            Object array = fields.get(field.name());
            for (int p = 0; p < points; p++) {
                value.clear();
                value.putLong(bits(array, p));
                sha.update(value.array());
            }
        }
        return HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    private static long bits(Object array, int index) {
        return switch (array) {
            case int[] ints -> ints[index];
            case long[] longs -> longs[index];
            case double[] doubles -> Double.doubleToLongBits(doubles[index]);   // one bit pattern for every NaN
            default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
        };
    }

    private static String text(Object array, int index) {
        return switch (array) {
            case int[] ints -> Integer.toString(ints[index]);
            case long[] longs -> Long.toString(longs[index]);
            case double[] doubles -> Double.toString(doubles[index]);
            default -> throw new IllegalArgumentException("not a field array: " + array.getClass());
        };
    }
}
