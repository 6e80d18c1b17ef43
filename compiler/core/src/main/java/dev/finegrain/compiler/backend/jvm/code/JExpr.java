package dev.finegrain.compiler.backend.jvm.code;

import java.util.List;

/**
 * An expression of the loop IR; translates one for one to bytecode (AsmEmitter) and Java source (JavaSourceEmitter).
 * Besides scalars it has the Vector API's vectors (one value per lane, {@link JType#vectorOf}) and their masks: a
 * vector expression is the Vector API call it names, so both emitters spell it the same way.
 */
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

    // ---- vectors (jdk.incubator.vector) ------------------------------------------------------------------------

    /** The species of {@code bits}-bit vectors of {@code lane}, e.g. {@code IntVector.SPECIES_512}. */
    record Species(JType lane, int bits) implements JExpr {
        public Species {
            JType.boxName(lane);
            if (bits != 64 && bits != 128 && bits != 256 && bits != 512) {
                throw new IllegalArgumentException("no vector species of " + bits + " bits");
            }
        }

        @Override
        public JType type() { return JType.reference(JType.VECTOR_PACKAGE + "VectorSpecies"); }

        public JType vector() { return JType.vectorOf(lane); }

        public int lanes() { return bits / (lane.isWide() ? 64 : 32); }

        /** The name of the species constant in the vector class: {@code SPECIES_512}. */
        public String constant() { return "SPECIES_" + bits; }

        /**
         * The {@code ByteVector} species constant of as many lanes, from which a load of a byte array widens: {@code
         * SPECIES_128} for 16 int lanes (int lanes only, at least 8 of them).
         */
        public String byteConstant() {
            if (lane.kind() != JType.Kind.INT || lanes() < 8) {
                throw new IllegalStateException("no byte species widens to " + lanes() + " lanes of " + lane);
            }
            return "SPECIES_" + 8 * lanes();
        }
    }

    /** {@code IntVector.fromArray(species, array, index)}: the elements from {@code index} on, one per lane. */
    record VectorLoad(Species species, JExpr array, JExpr index) implements JExpr {
        @Override
        public JType type() { return species.vector(); }
    }

    /**
     * {@code IntVector.fromArray(species, array, index, mask)}: the elements from {@code index} on where the mask is
     * set, 0 elsewhere; lanes not set may lie outside the array.
     */
    record MaskedVectorLoad(Species species, JExpr array, JExpr index, JExpr mask) implements JExpr {
        @Override
        public JType type() { return species.vector(); }
    }

    /**
     * {@code IntVector.fromArray(species, array, index, indexMap, mapOffset)}: lane l takes the element at {@code index +
     * indexMap[mapOffset + l]}, a gather; every lane's element must lie inside the array. Not of an input kept in bytes:
     * lowerings gather state fields only.
     */
    record VectorGather(Species species, JExpr array, JExpr index, JExpr indexMap, JExpr mapOffset) implements JExpr {
        public VectorGather {
            if (array.type().equals(JType.BYTE_ARRAY)) {
                throw new IllegalArgumentException("no gather of an input kept in bytes");
            }
        }

        @Override
        public JType type() { return species.vector(); }
    }

    /** {@code vector.lane(lane)}: the value of one lane. */
    record LaneValue(JExpr vector, int lane) implements JExpr {
        @Override
        public JType type() { return vector.type().lane(); }
    }

    /** {@code IntVector.broadcast(species, value)}: {@code value} in every lane. */
    record Broadcast(Species species, JExpr value) implements JExpr {
        @Override
        public JType type() { return species.vector(); }
    }

    /** The Vector API's lane-wise operations, by the method that applies them (XOR by {@code lanewise(XOR, v)}). */
    enum LaneOp {
        ADD("add", 2), SUB("sub", 2), MUL("mul", 2), MIN("min", 2), MAX("max", 2), AND("and", 2), OR("or", 2), XOR("lanewise", 2),
        NEG("neg", 1), ABS("abs", 1), NOT("not", 1);

        public final String method;
        public final int operands;

        LaneOp(String method, int operands) {
            this.method = method;
            this.operands = operands;
        }
    }

    /**
     * A lane-wise operation on vectors ({@code left.add(right)}, {@code left.neg()}) or on masks ({@code left.and(right)},
     * {@code left.not()}); {@code right} is null for a unary one.
     */
    record Lanewise(LaneOp op, JExpr left, JExpr right) implements JExpr {
        public Lanewise {
            if ((right == null) != (op.operands == 1)) {
                throw new IllegalArgumentException(op + " takes " + op.operands + " operand(s)");
            }
        }

        @Override
        public JType type() { return left.type(); }
    }

    /** {@code left.compare(VectorOperators.LT, right)}: the mask of lanes where the comparison holds. */
    record LaneCompare(Binary.Op op, JExpr left, JExpr right) implements JExpr {
        public LaneCompare {
            if (!op.isComparison()) {
                throw new IllegalArgumentException(op + " is no comparison");
            }
        }

        @Override
        public JType type() { return JType.maskOf(left.type().lane()); }
    }

    /** {@code whenFalse.blend(whenTrue, mask)}: per lane, {@code whenTrue} where the mask is set, else {@code whenFalse}. */
    record Blend(JExpr mask, JExpr whenTrue, JExpr whenFalse) implements JExpr {
        @Override
        public JType type() { return whenFalse.type(); }
    }

    /** {@code indexes.selectFrom(first, second)}: lane l takes lane {@code indexes[l]} of the lanes of first then second. */
    record Permute(JExpr indexes, JExpr first, JExpr second) implements JExpr {
        @Override
        public JType type() { return first.type(); }
    }

    /**
     * {@code indexes.selectFrom(source)}: lane l takes lane {@code indexes[l]} of source; one source, where {@link
     * Permute}'s two-source form costs more (a row scan's shifts run one in a few cycles fewer).
     */
    record Rearrange(JExpr indexes, JExpr source) implements JExpr {
        @Override
        public JType type() { return source.type(); }
    }

    /** {@code new int[length]}: a fresh array of zeros. */
    record NewArrayOfLength(JType element, JExpr length) implements JExpr {
        @Override
        public JType type() { return JType.arrayOf(element); }
    }

    /** {@code new int[] {values...}}: a fresh array holding the values. */
    record NewArray(JType element, List<JExpr> values) implements JExpr {
        public NewArray {
            values = List.copyOf(values);
        }

        @Override
        public JType type() { return JType.arrayOf(element); }
    }
}
