package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.ReductionSpec;

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
 * What a run computed: each state field's kept values ({@link Keep}: the whole domain unless the kernel keeps less, no
 * halo), row-major over the kept box, as int[], long[] or double[]; and each reduction the kernel declares, by its name
 * ({@code max(h)}). Two runs agree only bit for bit: doubles are compared by their raw bits.
 */
public record KernelOutputs(Map<String, Object> fields, Map<String, Reduced> reductions) {

    /** A reduction's value (a long, an int field's widened) and, for an extreme asked with its position, the point. */
    public record Reduced(long value, java.util.List<Integer> position) {
        public Reduced {
            position = java.util.List.copyOf(position);
        }

        @Override
        public String toString() {
            return position.isEmpty() ? Long.toString(value) : value + " at " + position;
        }
    }

    public KernelOutputs {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        reductions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(reductions));
    }

    /** Fields as they are, no reductions: for a kernel that keeps every field whole and reduces nothing. */
    public KernelOutputs(Map<String, Object> fields) {
        this(fields, Map.of());
    }

    /**
     * The outputs of a run that holds every state field over the whole domain ({@code whole}: no halo, row-major): each
     * field cut to what the kernel keeps of it, and each reduction computed over the whole field, in row-major order.
     */
    public static KernelOutputs ofDomain(KernelGraph graph, int[] sizes, Map<String, Object> whole) {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Map.Entry<String, Object> field : whole.entrySet()) {
            kept.put(field.getKey(), KeptBox.of(graph.kernel().keep(field.getKey()), sizes).cut(field.getValue()));
        }
        Map<String, Reduced> reductions = new LinkedHashMap<>();
        for (ReductionSpec reduction : graph.kernel().reductions()) {
            if (whole.containsKey(reduction.field())) {
                // a field not given whole (folded) is reduced by whoever folded it
                reductions.put(reduction.name(), Reducer.over(whole.get(reduction.field()), sizes, reduction));
            }
        }
        return new KernelOutputs(kept, reductions);
    }

    /**
     * The interiors of the state fields of padded storage laid out as {@link
     * dev.finegrain.compiler.backend.reference.PaddedFields} lays it out; an int field held in long words (a value
     * beside its ready bit) yields the words' low 32 bits. Then as {@link #ofDomain}.
     */
    public static KernelOutputs fromPadded(KernelGraph graph, int[] sizes, Object[] arrays) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (IrField field : graph.fields()) {
            if (field.isState()) {
                fields.put(field.name(), interior(field, sizes, arrays[field.id()]));
            }
        }
        return ofDomain(graph, sizes, fields);
    }

    /**
     * The interior (no halo) of one state field's padded storage, row-major; an int field held in long words (a value
     * beside its ready bit) yields the words' low 32 bits.
     */
    public static Object interior(IrField field, int[] sizes, Object padded) {
        Domain domain = new Domain(sizes);
        int[] point = new int[sizes.length];
        int[] extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
        }
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
        return out;
    }

    /** A state field's kept values. */
    public Object field(String name) {
        return fields.get(name);
    }

    /** A reduction by its name ({@code max(h)}), if the kernel declares it. */
    public Optional<Reduced> reduction(String name) {
        return Optional.ofNullable(reductions.get(name));
    }

    /**
     * The first point where {@code actual} differs from these outputs, or the first reduction, as a readable sentence.
     * Values compare bit for bit, except that every NaN equals every NaN: Java leaves a NaN's sign and payload
     * unspecified, and HotSpot's tiers give {@code 0.0 / 0.0} different sign bits, so raw bits would call a run wrong
     * that computed the same NaN.
     */
    public Optional<String> firstDifference(KernelGraph graph, int[] sizes, KernelOutputs actual) {
        int[] point = new int[sizes.length];
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            KeptBox kept = KeptBox.of(graph.kernel().keep(field.name()), sizes);
            Object want = fields.get(field.name());
            Object got = actual.fields.get(field.name());
            if (got == null) {
                return Optional.of("field " + field.name() + " is missing");
            }
            for (int p = 0; p < kept.points(); p++) {
                long wantBits = bits(want, p);
                long gotBits = bits(got, p);
                if (wantBits != gotBits) {
                    kept.pointOf(p, point);
                    return Optional.of(field.name() + java.util.Arrays.toString(point) + ": expected " + text(want, p)
                            + ", got " + text(got, p));
                }
            }
        }
        for (Map.Entry<String, Reduced> reduction : reductions.entrySet()) {
            Reduced got = actual.reductions.get(reduction.getKey());
            if (!reduction.getValue().equals(got)) {
                return Optional.of(reduction.getKey() + ": expected " + reduction.getValue() + ", got " + (got == null ? "none" : got));
            }
        }
        return Optional.empty();
    }

    /**
     * A digest of the state fields' kept values (SHA-256, the first 16 bytes in hex), in the graph's field order, each
     * value as the bits {@link #firstDifference} compares (every NaN alike), then of the reductions, if any: two runs
     * that verify against each other have the same digest. An exported row carries its oracle's digest, so a merge can
     * tell which computation it was checked against.
     */
    public String digest(KernelGraph graph, int[] sizes) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
        ByteBuffer value = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (IrField field : graph.fields()) {
            if (!field.isState()) {
                continue;
            }
            sha.update(field.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            Object array = fields.get(field.name());
            long points = graph.kernel().keep(field.name()).points(sizes);
            for (int p = 0; p < points; p++) {
                value.clear();
                value.putLong(bits(array, p));
                sha.update(value.array());
            }
        }
        for (Map.Entry<String, Reduced> reduction : reductions.entrySet()) {
            sha.update(reduction.getKey().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(reduction.getValue().toString().getBytes(StandardCharsets.UTF_8));
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
