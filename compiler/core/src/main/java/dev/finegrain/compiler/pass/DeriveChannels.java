package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.dsl.ChannelOverride;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.ChannelSpec;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.internal.SpecPrinter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Adds one channel per distinct read of a state field (vector = minus the read's offset) and one per explicit channel, each with its policy. */
public final class DeriveChannels implements Pass {

    @Override
    public String name() {
        return "derive-channels";
    }

    @Override
    public String contract() {
        return "Adds one channel per distinct read of a state field (vector = minus the read's offset) and one per "
                + "explicit channel, each with its policy.";
    }

    @Override
    public KernelGraph apply(KernelGraph graph) {
        Kernel kernel = graph.kernel();
        List<IrChannel> channels = new ArrayList<>();
        for (IrActor consumer : graph.actors()) {
            Map<String, IrChannel> distinct = new LinkedHashMap<>();
            Loads.forEach(consumer.body(), load -> {
                if (!graph.field(load.field()).isState()) {
                    return;
                }
                String via = IrPrinter.load(graph, load.field(), load.offset());
                int[] vector = java.util.Arrays.stream(load.offset()).map(c -> -c).toArray();
                int producer = writerOf(graph, load.field());
                Optional<ChannelPolicy> declared = declaredPolicy(kernel, consumer.name(), via);
                distinct.putIfAbsent(via, new IrChannel(producer, consumer.id(), vector, via,
                        declared.orElse(kernel.channelPolicy()), declared.isPresent(), List.of()));
            });
            channels.addAll(distinct.values());
        }
        for (ChannelSpec explicit : kernel.channels()) {
            int[] vector = explicit.distance().stream().mapToInt(Integer::intValue).toArray();
            ChannelPolicy policy = explicit.policy() != null ? explicit.policy() : kernel.channelPolicy();
            channels.add(new IrChannel(actorId(graph, explicit.producer()), actorId(graph, explicit.consumer()), vector,
                    "explicit", policy, explicit.policy() != null, List.of()));
        }
        return graph.withChannels(channels);
    }

    /** The policy the kernel declared for one read's channel by an override, if it did. */
    private static Optional<ChannelPolicy> declaredPolicy(Kernel kernel, String consumer, String via) {
        for (ChannelOverride override : kernel.channelOverrides()) {
            if (override.consumer().equals(consumer)
                    && SpecPrinter.read(override.field(), override.offset(), kernel.domain()).equals(via)) {
                return Optional.of(override.policy());
            }
        }
        return Optional.empty();
    }

    private static int writerOf(KernelGraph graph, int field) {
        return graph.actors().stream().filter(a -> a.writes() == field).findFirst().orElseThrow().id();
    }

    private static int actorId(KernelGraph graph, String name) {
        return graph.actors().stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow().id();
    }
}
