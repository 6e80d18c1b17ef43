package dev.finegrain.compiler.backend.jvm.code;

import java.util.List;

/** An expression of the loop IR; translates one for one to bytecode (AsmEmitter) and Java source (JavaSourceEmitter). */
public sealed interface JExpr {

    JType type();

    record Const(JType type, long integral, double real) implements JExpr {
        public static Const ofInt(int value) { return new Const(JType.INT, value, 0); }
        public static Const ofLong(long value) { return new Const(JType.LONG, value, 0); }
        public static Const ofDouble(double value) { return new Const(JType.DOUBLE, 0, value); }
        public static Const ofBoolean(boolean value) { return new Const(JType.BOOLEAN, value ? 1 : 0, 0); }
    }

    /** A method local (parameters included), by slot in the method's local table. */
    record Local(int slot, String name, JType type) implements JExpr {}

    /** A final instance field of the generated class. */
    record Field(String name, JType type) implements JExpr {}

    record ArrayLoad(JExpr array, JExpr index) implements JExpr {
        @Override
        public JType type() { return array.type().element(); }
    }

    /** Arithmetic, bitwise and shift operators on operands of one type (a shift's count is int); comparisons yield boolean. */
    record Binary(Op op, JExpr left, JExpr right) implements JExpr {
        public enum Op {
            ADD("+"), SUB("-"), MUL("*"), DIV("/"), REM("%"), AND("&"), OR("|"), XOR("^"), SHL("<<"), SHR(">>"), USHR(">>>"),
            LT("<"), LE("<="), GT(">"), GE(">="), EQ("=="), NE("!=");

            public final String symbol;

            Op(String symbol) { this.symbol = symbol; }

            public boolean isComparison() { return ordinal() >= LT.ordinal(); }
        }

        @Override
        public JType type() { return op.isComparison() ? JType.BOOLEAN : left.type(); }
    }

    record Negate(JExpr operand) implements JExpr {
        @Override
        public JType type() { return operand.type(); }
    }

    /** {@code !operand} on booleans. */
    record Not(JExpr operand) implements JExpr {
        @Override
        public JType type() { return JType.BOOLEAN; }
    }

    record Conditional(JExpr condition, JExpr whenTrue, JExpr whenFalse) implements JExpr {
        @Override
        public JType type() { return whenTrue.type(); }
    }

    /** A primitive conversion (i2l, l2i, i2d, d2i, l2d, d2l, boolean to int). */
    record Convert(JExpr operand, JType type) implements JExpr {}

    /** A static method call. */
    record InvokeStatic(String owner, String name, List<JType> parameters, JType type, List<JExpr> arguments) implements JExpr {
        public InvokeStatic {
            parameters = List.copyOf(parameters);
            arguments = List.copyOf(arguments);
        }

        public String descriptor() {
            StringBuilder d = new StringBuilder("(");
            parameters.forEach(p -> d.append(p.descriptor()));
            return d.append(')').append(type.descriptor()).toString();
        }
    }

    /** An instance method call on a final class. */
    record InvokeVirtual(JExpr target, String name, List<JType> parameters, JType type, List<JExpr> arguments) implements JExpr {
        public InvokeVirtual {
            parameters = List.copyOf(parameters);
            arguments = List.copyOf(arguments);
        }

        public String descriptor() {
            StringBuilder d = new StringBuilder("(");
            parameters.forEach(p -> d.append(p.descriptor()));
            return d.append(')').append(type.descriptor()).toString();
        }
    }
}
