package dev.finegrain.compiler.backend.gpu.cuda;

/**
 * Writes CUDA C++ text with indentation, and hands out the names of temporaries: an emitter says what to write, this
 * says how it is laid out.
 */
final class CudaWriter {

    private final StringBuilder text = new StringBuilder();
    private int depth;
    private int nextTemporary;

    /** A fresh local name with a readable stem. */
    String temporary(String stem) {
        return stem + nextTemporary++;
    }

    /** One line at the current indentation. */
    CudaWriter line(String code) {
        text.append("    ".repeat(depth)).append(code).append('\n');
        return this;
    }

    CudaWriter blank() {
        text.append('\n');
        return this;
    }

    /** {@code // why}, at the current indentation. */
    CudaWriter comment(String why) {
        return line("// " + why);
    }

    /** A line ending in an opening brace; what follows is indented until {@link #close}. */
    CudaWriter open(String head) {
        line(head + " {");
        depth++;
        return this;
    }

    /** A bare block, its opening brace followed by why it is there; what follows is indented until {@link #close}. */
    CudaWriter block(String why) {
        line("{   // " + why);
        depth++;
        return this;
    }

    CudaWriter close() {
        return close("}");
    }

    /** Ends the innermost block with {@code end} (e.g. {@code "} else {"}, {@code "};"}). */
    CudaWriter close(String end) {
        depth--;
        line(end);
        return this;
    }

    /** Continues a block on a line like {@code "} else {"}: closes one level and opens another. */
    CudaWriter reopen(String head) {
        depth--;
        line("} " + head + " {");
        depth++;
        return this;
    }

    String text() {
        return text.toString();
    }
}
