package dev.finegrain.dsl;

/**
 * Binary operators with Java semantics: int and long arithmetic wraps, shifts mask their count, integer division
 * by zero is an error at run time. Both operands must have the same type (no implicit promotion: use
 * {@link Expr#castTo(Type)}), except shifts, whose count may be int or long.
 */
public enum BinaryOperator {
    ADD("+", Kind.ARITHMETIC),
    SUB("-", Kind.ARITHMETIC),
    MUL("*", Kind.ARITHMETIC),
    DIV("/", Kind.ARITHMETIC),
    REM("%", Kind.INTEGRAL),
    MIN("min", Kind.ARITHMETIC),
    MAX("max", Kind.ARITHMETIC),
    AND("&", Kind.BITWISE),
    OR("|", Kind.BITWISE),
    XOR("^", Kind.BITWISE),
    SHL("<<", Kind.SHIFT),
    SHR(">>", Kind.SHIFT),
    USHR(">>>", Kind.SHIFT),
    LT("<", Kind.COMPARISON),
    LE("<=", Kind.COMPARISON),
    GT(">", Kind.COMPARISON),
    GE(">=", Kind.COMPARISON),
    EQ("==", Kind.EQUALITY),
    NE("!=", Kind.EQUALITY);

    /** How an operator constrains its operand types and what it yields. */
    public enum Kind {
        /** numeric operands of one type, yields that type */
        ARITHMETIC,
        /** integral operands of one type, yields that type */
        INTEGRAL,
        /** integral or bool operands of one type, yields that type */
        BITWISE,
        /** integral value shifted by an integral count */
        SHIFT,
        /** numeric operands of one type, yields bool */
        COMPARISON,
        /** operands of one type, yields bool */
        EQUALITY
    }

    private final String symbol;
    private final Kind kind;

    BinaryOperator(String symbol, Kind kind) {
        this.symbol = symbol;
        this.kind = kind;
    }

    public String symbol() {
        return symbol;
    }

    public Kind kind() {
        return kind;
    }

    /** min and max print as calls, the others infix. */
    public boolean printsAsCall() {
        return this == MIN || this == MAX;
    }
}
