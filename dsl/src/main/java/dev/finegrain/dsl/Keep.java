package dev.finegrain.dsl;

/**
 * What a run keeps of a state field, and so what its result gives: the whole domain, or a slice of it. A field kept
 * in part may be stored in part (a backend may fold it into a rolling window, Halide's storage folding); its values
 * outside the slice are computed, read by the actors that need them, and then dropped.
 *
 * <p>The slice is a box of the domain: {@link #extents} long from {@link #first}, row-major like a whole field.
 */
public enum Keep {
    /** Every point (the default). */
    ALL("all"),
    /** The points whose first index is last: the bottom row of a 2D field, the last plane of a 3D one, one value in 1D. */
    LAST_ROW("last-row"),
    /** The points whose last index is last: the rightmost column of a 2D field, one value in 1D. */
    LAST_COLUMN("last-column"),
    /** The last point alone: a global alignment's score. */
    FINAL("final");

    private final String cliName;

    Keep(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The extent of the kept box along each dimension of a domain of {@code sizes}. */
    public int[] extents(int[] sizes) {
        int[] extents = sizes.clone();
        int last = sizes.length - 1;
        switch (this) {
            case ALL -> { }
            case LAST_ROW -> extents[0] = 1;
            case LAST_COLUMN -> extents[last] = 1;
            case FINAL -> java.util.Arrays.fill(extents, 1);
        }
        return extents;
    }

    /** The coordinates of the kept box's first point. */
    public int[] first(int[] sizes) {
        int[] extents = extents(sizes);
        int[] first = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            first[d] = sizes[d] - extents[d];
        }
        return first;
    }

    /** The number of kept points. */
    public long points(int[] sizes) {
        return java.util.Arrays.stream(extents(sizes)).asLongStream().reduce(1, Math::multiplyExact);
    }

    @Override
    public String toString() {
        return cliName;
    }
}
