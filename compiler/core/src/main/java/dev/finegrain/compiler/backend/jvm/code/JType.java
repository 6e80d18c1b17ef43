package dev.finegrain.compiler.backend.jvm.code;

/**
 * The types of the loop IR: JVM primitives, references by internal name (e.g. {@code [I},
 * {@code dev/finegrain/runtime/jvm/Watchdog}), and the Vector API's vectors and masks of one lane type.
 *
 * @param lane for a vector or a mask, the type of one lane ({@link #INT}, {@link #LONG} or {@link #DOUBLE}); else null
 */
public record JType(Kind kind, String internalName, JType lane) {

    /** INTERFACE is a reference whose methods are called through {@code invokeinterface}. */
    public enum Kind { INT, LONG, DOUBLE, BOOLEAN, VOID, REFERENCE, INTERFACE, VECTOR, MASK }

    static final String VECTOR_PACKAGE = "jdk/incubator/vector/";

    public static final JType INT = new JType(Kind.INT, "I", null);
    public static final JType LONG = new JType(Kind.LONG, "J", null);
    public static final JType DOUBLE = new JType(Kind.DOUBLE, "D", null);
    public static final JType BOOLEAN = new JType(Kind.BOOLEAN, "Z", null);
    public static final JType VOID = new JType(Kind.VOID, "V", null);
    public static final JType INT_ARRAY = reference("[I");
    public static final JType LONG_ARRAY = reference("[J");
    public static final JType DOUBLE_ARRAY = reference("[D");
    /**
     * An int input kept in bytes ({@code Storage.BYTE}): its elements load as ints ({@link #element} is {@link #INT}),
     * and a vector load widens them ({@code ByteVector} to {@code IntVector}).
     */
    public static final JType BYTE_ARRAY = reference("[B");

    public static JType reference(String internalName) {
        return new JType(Kind.REFERENCE, internalName, null);
    }

    /** A reference to an interface ({@code StepBarrier}): its methods are called through {@code invokeinterface}. */
    public static JType interfaceReference(String internalName) {
        return new JType(Kind.INTERFACE, internalName, null);
    }

    public static JType arrayOf(JType element) {
        return reference("[" + element.internalName);
    }

    /** {@code IntVector}, {@code LongVector} or {@code DoubleVector}: a vector of lanes of {@code lane}. */
    public static JType vectorOf(JType lane) {
        return new JType(Kind.VECTOR, VECTOR_PACKAGE + boxName(lane) + "Vector", lane);
    }

    /** {@code VectorMask<Integer>} and so on: one boolean per lane of a vector of {@code lane}. */
    public static JType maskOf(JType lane) {
        return new JType(Kind.MASK, VECTOR_PACKAGE + "VectorMask", lane);
    }

    /** {@code Integer}, {@code Long} or {@code Double}: the lane type's box, as the Vector API's names and generics use it. */
    static String boxName(JType lane) {
        return switch (lane.kind) {
            case INT -> "Int";
            case LONG -> "Long";
            case DOUBLE -> "Double";
            default -> throw new IllegalArgumentException("no vector lanes of " + lane);
        };
    }

    /** The last segment of a class's internal name: {@code IntVector}, {@code Watchdog}. */
    public String simpleName() {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }

    /** The JVM descriptor: {@code I}, {@code [D}, {@code Ldev/finegrain/runtime/jvm/Watchdog;}. */
    public String descriptor() {
        return isReference() && !internalName.startsWith("[") ? "L" + internalName + ";" : internalName;
    }

    /** Whether values of this type are references on the JVM (objects, arrays, vectors and masks). */
    public boolean isReference() {
        return kind == Kind.REFERENCE || kind == Kind.INTERFACE || kind == Kind.VECTOR || kind == Kind.MASK;
    }

    public boolean isWide() {
        return kind == Kind.LONG || kind == Kind.DOUBLE;
    }

    /** The element type of an array type (a byte array's elements load as ints). */
    public JType element() {
        return switch (internalName.substring(1)) {
            case "I", "B" -> INT;
            case "J" -> LONG;
            case "D" -> DOUBLE;
            default -> throw new IllegalStateException("not a primitive array: " + internalName);
        };
    }

    /** The type as Java source spells it. */
    public String javaName() {
        return switch (kind) {
            case INT -> "int";
            case LONG -> "long";
            case DOUBLE -> "double";
            case BOOLEAN -> "boolean";
            case VOID -> "void";
            case REFERENCE -> equals(BYTE_ARRAY) ? "byte[]"
                    : internalName.startsWith("[") ? element().javaName() + "[]" : internalName.replace('/', '.');
            case INTERFACE, VECTOR -> internalName.replace('/', '.');
            case MASK -> internalName.replace('/', '.') + "<java.lang." + (lane.kind == Kind.INT ? "Integer" : boxName(lane)) + ">";
        };
    }
}
