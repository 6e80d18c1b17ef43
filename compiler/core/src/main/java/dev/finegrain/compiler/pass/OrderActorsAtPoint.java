package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.ArrayList;
import java.util.List;

/** Orders the actors of one point so every zero-distance channel's producer fires first (stable by declaration order); needs channels. */
public final class OrderActorsAtPoint implements Pass {

    @Override
    public String name() {
        return "order-actors-at-point";
    }

    @Override
    public String contract() {
        return "Orders the actors of one point so every zero-distance channel's producer fires first (stable by "
                + "declaration order); needs channels.";
    }

    @Override
    public KernelGraph apply(KernelGraph graph) {
        int actors = graph.actors().size();
        int[] waitingFor = new int[actors];
        for (IrChannel channel : graph.channels()) {
            if (DependenceMath.isZero(channel.vector())) {
                waitingFor[channel.consumer()]++;
            }
        }
        List<Integer> order = new ArrayList<>();
        boolean[] placed = new boolean[actors];
        while (order.size() < actors) {
            int next = -1;
            for (int a = 0; a < actors && next < 0; a++) {
                if (!placed[a] && waitingFor[a] == 0) {
                    next = a;
                }
            }
            if (next < 0) {
                throw new IllegalStateException("zero-distance cycle survived validation in " + graph.name());
            }
            placed[next] = true;
            order.add(next);
            for (IrChannel channel : graph.channels()) {
                if (channel.producer() == next && DependenceMath.isZero(channel.vector())) {
                    waitingFor[channel.consumer()]--;
                }
            }
        }
        return graph.withActorOrder(order);
    }
}
