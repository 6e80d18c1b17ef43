package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.Kernel;

import java.util.List;
import java.util.Optional;

/**
 * The one IR: a kernel as a graph of fields, actors and channels with dependence vectors, plus what the
 * analyses found. Immutable; each pass returns a new graph. The analyses' results start absent
 * ({@code actorOrder} empty, {@code hyperplane} and {@code tiling} null) and are filled by their passes.
 *
 * @param kernel     the spec it was lowered from: names, domain, params, lock choices
 * @param actorOrder the order to fire the actors of one point, respecting zero-distance channels
 * @param hyperplane Lamport's h: every point with h.p = t depends only on points with h.p &lt; t
 * @param tiling     whether rectangular tiles respect every dependence
 */
public record KernelGraph(Kernel kernel, List<IrField> fields, List<IrActor> actors, List<IrChannel> channels,
                          List<Integer> actorOrder, int[] hyperplane, Tiling tiling) {

    /** The tiling analysis: legal, or the first dependence vector that a rectangular tiling would break. */
    public record Tiling(boolean legal, int[] offendingVector) {
        public static Tiling legalTiling() {
            return new Tiling(true, null);
        }
    }

    public KernelGraph {
        fields = List.copyOf(fields);
        actors = List.copyOf(actors);
        channels = List.copyOf(channels);
        actorOrder = List.copyOf(actorOrder);
    }

    public int rank() {
        return kernel.rank();
    }

    public String name() {
        return kernel.name();
    }

    public IrField field(int id) {
        return fields.get(id);
    }

    /** The field a keep or a reduction names (the DSL has checked that it exists). */
    public IrField field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(kernel.name() + " has no field '" + name + "'"));
    }

    /** Whether the kernel declares {@code field} an input whose values fit a byte ({@link dev.finegrain.dsl.Storage#BYTE}). */
    public boolean declaresBytes(IrField field) {
        return field.isInput() && kernel.field(field.name()).map(dev.finegrain.dsl.FieldSpec::storage)
                .orElse(dev.finegrain.dsl.Storage.NATURAL) == dev.finegrain.dsl.Storage.BYTE;
    }

    /** {@code values} narrowed to bytes, an input {@link #declaresBytes} whose values have been checked to fit. */
    public static byte[] narrowed(int[] values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    public IrActor actor(int id) {
        return actors.get(id);
    }

    /** The channels a schedule must synchronise on: every channel that no chain of others implies. */
    public List<IrChannel> syncChannels() {
        return channels.stream().filter(c -> !c.isImplied()).toList();
    }

    public Optional<int[]> hyperplaneIfFound() {
        return Optional.ofNullable(hyperplane);
    }

    public KernelGraph withFields(List<IrField> newFields) {
        return new KernelGraph(kernel, newFields, actors, channels, actorOrder, hyperplane, tiling);
    }

    public KernelGraph withChannels(List<IrChannel> newChannels) {
        return new KernelGraph(kernel, fields, actors, newChannels, actorOrder, hyperplane, tiling);
    }

    public KernelGraph withActorOrder(List<Integer> order) {
        return new KernelGraph(kernel, fields, actors, channels, order, hyperplane, tiling);
    }

    public KernelGraph withHyperplane(int[] h) {
        return new KernelGraph(kernel, fields, actors, channels, actorOrder, h.clone(), tiling);
    }

    public KernelGraph withTiling(Tiling result) {
        return new KernelGraph(kernel, fields, actors, channels, actorOrder, hyperplane, result);
    }
}
