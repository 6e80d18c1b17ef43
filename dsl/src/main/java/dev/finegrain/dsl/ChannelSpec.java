package dev.finegrain.dsl;

import java.util.List;

/**
 * A producer/consumer ordering declared explicitly between actors, beyond the ones derived from reads: the
 * instance of {@code consumer} at point p waits for the instance of {@code producer} at p - distance.
 * The policy is null when the kernel's default applies.
 */
public record ChannelSpec(String producer, String consumer, List<Integer> distance, ChannelPolicy policy, CallSite site) {
    public ChannelSpec {
        distance = List.copyOf(distance);
    }
}
