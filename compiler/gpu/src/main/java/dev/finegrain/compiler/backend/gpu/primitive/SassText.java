package dev.finegrain.compiler.backend.gpu.primitive;

/** A model-ISA program being written: one statement a line, labels on their own. */
public final class SassText {
    private final StringBuilder text = new StringBuilder();

    public SassText line(String statement) {
        text.append("        ").append(statement).append(";\n");
        return this;
    }

    public SassText label(String name) {
        text.append(name).append(":\n");
        return this;
    }

    public SassText comment(String comment) {
        text.append("        // ").append(comment).append('\n');
        return this;
    }

    /** A byte address as the ISA writes an immediate. */
    public static String hex(int value) {
        return value < 0 ? "-0x" + Integer.toHexString(-value) : "0x" + Integer.toHexString(value);
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
