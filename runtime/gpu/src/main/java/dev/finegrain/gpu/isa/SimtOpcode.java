package dev.finegrain.gpu.isa;

import java.util.List;
import java.util.Set;

/**
 * The instructions of the model ISA, with the operands each one takes and the modifiers it accepts.
 *
 * <p>An operand signature is a string of letters, one per operand: {@code d} register written, {@code r} register
 * read, {@code b} register or immediate read, {@code i} immediate, {@code p} predicate written, {@code q} predicate
 * read, {@code a} memory address, {@code s} special register, {@code t} branch target, {@code n} barrier or count
 * (register or immediate). A trailing {@code ?} makes the rest optional.
 */
public enum SimtOpcode {
    MOV("MOV", "db"),
    MOV32I("MOV32I", "di"),
    IADD("IADD", "drb"),
    IMUL("IMUL", "drb", "U32", "S32"),
    IMAD("IMAD", "drbr", "U32", "S32"),
    SHL("SHL", "drb", "W"),
    SHR("SHR", "drb", "U32", "S32", "W"),
    LOP_AND("LOP.AND", "drb"),
    LOP_OR("LOP.OR", "drb"),
    LOP_XOR("LOP.XOR", "drb"),
    SEL("SEL", "drbq"),
    ISETP("ISETP", "pprbq", "EQ", "NE", "LT", "LE", "GT", "GE", "U32", "S32", "AND", "OR", "XOR"),
    PSETP("PSETP", "ppqqq", "AND", "OR", "XOR"),
    S2R("S2R", "ds"),
    LDS("LDS", "da", "32", "U32", "S32"),
    STS("STS", "ar", "32"),
    LDSLK("LDSLK", "pda"),
    STSUL("STSUL", "ar"),
    LDG("LDG", "da", "E", "32", "CG", "CV", "VOLATILE"),
    STG("STG", "ar", "E", "32", "CG", "CV", "VOLATILE"),
    LD("LD", "da", "E", "32", "CG", "CV", "VOLATILE"),
    ST("ST", "ar", "E", "32", "CG", "CV", "VOLATILE"),
    ATOMS_CAS("ATOMS.CAS", "darr"),
    ATOMS_EXCH("ATOMS.EXCH", "dar"),
    ATOMS_ADD("ATOMS.ADD", "dab"),
    ATOM_CAS("ATOM.CAS", "darr", "E"),
    ATOM_EXCH("ATOM.EXCH", "dar", "E"),
    ATOM_ADD("ATOM.ADD", "dab", "E"),
    BRA("BRA", "t", "U"),
    SSY("SSY", "t"),
    SYNC("SYNC", ""),
    EXIT("EXIT", ""),
    NOP("NOP", ""),
    BAR_SYNC("BAR.SYNC", "n?n"),
    BAR_ARRIVE("BAR.ARRIVE", "nn"),
    BAR_RED_POPC("BAR.RED.POPC", "dn?q"),
    VOTE_ANY("VOTE.ANY", "dpq"),
    VOTE_ALL("VOTE.ALL", "dpq"),
    MEMBAR("MEMBAR", "", "CTA", "GL", "SYS"),
    NANOSLEEP("NANOSLEEP", "b"),
    MBARRIER_INIT("MBARRIER.INIT", "ab"),
    MBARRIER_ARRIVE("MBARRIER.ARRIVE", "da"),
    MBARRIER_TRY_WAIT("MBARRIER.TRY_WAIT", "par");

    /** The modifier that any instruction may carry: execute, then reconverge as SYNC does (Fermi's {@code .S}). */
    public static final String SYNC_MODIFIER = "S";

    private final String mnemonic;
    private final List<String> mnemonicParts;
    private final String signature;
    private final Set<String> modifiers;

    SimtOpcode(String mnemonic, String signature, String... modifiers) {
        this.mnemonic = mnemonic;
        this.mnemonicParts = List.of(mnemonic.split("\\."));
        this.signature = signature;
        this.modifiers = Set.of(modifiers);
    }

    public String mnemonic() {
        return mnemonic;
    }

    public String signature() {
        return signature;
    }

    public boolean accepts(String modifier) {
        return modifiers.contains(modifier) || modifier.equals(SYNC_MODIFIER);
    }

    public Set<String> modifiers() {
        return modifiers;
    }

    /** The opcode whose mnemonic is the longest prefix of the dot-separated words, or null. */
    public static SimtOpcode lookup(List<String> words) {
        SimtOpcode best = null;
        for (SimtOpcode opcode : values()) {
            List<String> parts = opcode.mnemonicParts;
            if (parts.size() <= words.size() && words.subList(0, parts.size()).equals(parts)
                    && (best == null || parts.size() > best.mnemonicParts.size())) {
                best = opcode;
            }
        }
        return best;
    }

    public int mnemonicLength() {
        return mnemonicParts.size();
    }
}
