package dev.finegrain.dsl;

import java.util.List;

/** Overrides the kernel's channel policy for the channel derived from one read: consumer actor, field, offset. */
public record ChannelOverride(String consumer, String field, List<Integer> offset, ChannelPolicy policy, CallSite site) {
    public ChannelOverride {
        offset = List.copyOf(offset);
    }
}
