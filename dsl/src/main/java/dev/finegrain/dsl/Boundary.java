package dev.finegrain.dsl;

/** Values a field takes outside the domain (its halo), where reads at an offset land. */
public sealed interface Boundary {

    /** No halo: every read of the field must stay inside the domain. */
    record None() implements Boundary {
        @Override
        public String toString() {
            return "none";
        }
    }

    /** The halo value at a point is an expression of the indices and params, e.g. NW's {@code -(i+j)*penalty}. */
    record FromExpression(Expr value) implements Boundary {}

    /** The halo value at a point is read from an input field with a declared halo, at the same point. */
    record FromInput(String input) implements Boundary {
        @Override
        public String toString() {
            return "from input " + input;
        }
    }
}
