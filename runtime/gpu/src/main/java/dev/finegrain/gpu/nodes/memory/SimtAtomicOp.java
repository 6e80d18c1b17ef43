package dev.finegrain.gpu.nodes.memory;

/** The read-modify-write of ATOMS and ATOM: the new value from the old one and the operands. */
public enum SimtAtomicOp {
    /** {@code CAS Rd, [a], Rcompare, Rnew}: stores Rnew when the old value equals Rcompare. */
    CAS,
    /** {@code EXCH Rd, [a], Rb}: stores Rb. */
    EXCH,
    /** {@code ADD Rd, [a], b}: stores old + b. */
    ADD;

    public int update(int old, int b, int c) {
        return switch (this) {
            case CAS -> old == b ? c : old;
            case EXCH -> b;
            case ADD -> old + b;
        };
    }
}
