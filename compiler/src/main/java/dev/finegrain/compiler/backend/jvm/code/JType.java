package dev.finegrain.compiler.backend.jvm.code;

/**
 * The types of the loop IR: JVM primitives and references by internal name (e.g. {@code [I},
 * {@code dev/finegrain/runtime/jvm/Watchdog}).
 */
public record JType(Kind kind, String internalName) {

    public enum Kind { INT, LONG, DOUBLE, BOOLEAN, VOID, REFERENCE }

    public static final JType INT = new JType(Kind.INT, "I");
    public static final JType LONG = new JType(Kind.LONG, "J");
    public static final JType DOUBLE = new JType(Kind.DOUBLE, "D");
    public static final JType BOOLEAN = new JType(Kind.BOOLEAN, "Z");
    public static final JType VOID = new JType(Kind.VOID, "V");
    public static final JType INT_ARRAY = reference("[I");
    public static final JType LONG_ARRAY = reference("[J");
    public static final JType DOUBLE_ARRAY = reference("[D");

    public static JType reference(String internalName) {
        return new JType(Kind.REFERENCE, internalName);
    }

    public static JType arrayOf(JType element) {
        return reference("[" + element.internalName);
    }

    /** The JVM descriptor: {@code I}, {@code [D}, {@code Ldev/finegrain/runtime/jvm/Watchdog;}. */
    public String descriptor() {
        return kind == Kind.REFERENCE && !internalName.startsWith("[") ? "L" + internalName + ";" : internalName;
    }

    public boolean isWide() {
        return kind == Kind.LONG || kind == Kind.DOUBLE;
    }

    /** The element type of an array type. */
    public JType element() {
        return switch (internalName.substring(1)) {
            case "I" -> INT;
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
            case REFERENCE -> internalName.startsWith("[") ? element().javaName() + "[]" : internalName.replace('/', '.');
        };
    }
}
