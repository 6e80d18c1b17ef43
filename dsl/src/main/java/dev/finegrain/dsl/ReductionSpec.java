package dev.finegrain.dsl;

/** A reduction a kernel declares: {@code reduction} of state field {@code field}, with its position when {@code withPosition}. */
public record ReductionSpec(String field, Reduction reduction, boolean withPosition, CallSite site) {

    /** Its name in a result: {@code max(h)}. */
    public String name() {
        return reduction.of(field);
    }
}
