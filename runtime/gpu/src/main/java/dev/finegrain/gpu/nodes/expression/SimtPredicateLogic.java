package dev.finegrain.gpu.nodes.expression;

/** AND, OR, XOR on lane masks, as ISETP and PSETP combine predicates. */
public enum SimtPredicateLogic {
    AND, OR, XOR;

    public int apply(int x, int y) {
        return switch (this) {
            case AND -> x & y;
            case OR -> x | y;
            case XOR -> x ^ y;
        };
    }
}
