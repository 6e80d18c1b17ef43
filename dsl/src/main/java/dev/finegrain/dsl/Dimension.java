package dev.finegrain.dsl;

/** One axis of the rectangular domain: an index variable ranging over [0, size), the size given at run time. */
public record Dimension(String index, String size) {
    @Override
    public String toString() {
        return index + " < " + size;
    }
}
