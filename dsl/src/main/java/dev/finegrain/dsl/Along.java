package dev.finegrain.dsl;

import java.util.List;

/**
 * The dimensions an input spans, by their index names: {@code along("i")} makes a sequence indexed by i alone. Made by
 * {@link Finegrain#along}; checked against the domain when the kernel is built.
 */
public record Along(List<String> indices, CallSite site) {
    public Along {
        indices = List.copyOf(indices);
    }
}
