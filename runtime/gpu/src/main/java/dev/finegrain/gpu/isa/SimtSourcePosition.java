package dev.finegrain.gpu.isa;

/** Where something was written: file name, 1-based line and column, printed the way compilers print them. */
public record SimtSourcePosition(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
