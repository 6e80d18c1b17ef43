package dev.finegrain.dsl;

import java.util.List;

/**
 * A small lookup table given at run time, independent of the domain: a substitution matrix such as BLOSUM62 (24 x 24),
 * read by {@link Finegrain#lookup} at indices an actor computes. Row-major, {@code extents} long along each axis.
 */
public record TableSpec(String name, Type type, List<Integer> extents, CallSite site) {
    public TableSpec {
        extents = List.copyOf(extents);
    }

    /** The number of elements: the product of the extents. */
    public int length() {
        return extents.stream().reduce(1, Math::multiplyExact);
    }
}
