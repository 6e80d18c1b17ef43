package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.ChannelPolicy;

import java.util.List;

/**
 * A producer/consumer channel: the instance of {@code consumer} at p needs the instance of {@code producer} at
 * p - {@code vector}. {@code via} says where it came from (the read, or "explicit"). A channel that other
 * channels already imply (NW's north-west read, implied by north then west) keeps its data read but needs no
 * sync of its own: {@code impliedBy} lists the channels, by index, whose chain implies it; empty if none.
 * {@code policyDeclared} says whether the kernel declared this channel's policy itself (a per-channel override, or an
 * explicit channel's own policy), which a schedule's lock choices do not replace.
 */
public record IrChannel(int producer, int consumer, int[] vector, String via, ChannelPolicy policy, boolean policyDeclared,
                        List<Integer> impliedBy) {

    public IrChannel {
        impliedBy = List.copyOf(impliedBy);
    }

    public boolean isImplied() {
        return !impliedBy.isEmpty();
    }

    public IrChannel withImpliedBy(List<Integer> chain) {
        return new IrChannel(producer, consumer, vector, via, policy, policyDeclared, chain);
    }

    public IrChannel withPolicy(ChannelPolicy chosen) {
        return new IrChannel(producer, consumer, vector, via, chosen, policyDeclared, impliedBy);
    }
}
