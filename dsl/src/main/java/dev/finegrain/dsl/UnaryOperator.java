package dev.finegrain.dsl;

/** Unary operators: NEG and ABS on numbers (Java semantics, so abs(MIN_VALUE) stays negative), NOT on integral or bool. */
public enum UnaryOperator {
    NEG("-"),
    ABS("abs"),
    NOT("~");

    private final String symbol;

    UnaryOperator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}
