package dev.finegrain.dsl;

/** The scalar types of kernel values. BOOL is the type of comparisons and only feeds select, and/or/xor/not. */
public enum Type {
    INT("int"),
    LONG("long"),
    DOUBLE("double"),
    BOOL("bool");

    private final String spelling;

    Type(String spelling) {
        this.spelling = spelling;
    }

    public boolean isIntegral() {
        return this == INT || this == LONG;
    }

    public boolean isNumeric() {
        return this != BOOL;
    }

    @Override
    public String toString() {
        return spelling;
    }
}
