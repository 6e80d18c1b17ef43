package dev.finegrain.gpu.isa;

import java.util.List;
import java.util.Set;

/**
 * The instructions of the model ISA, with the operands each one takes and the modifiers it accepts.
 *
 * <p>An operand signature is a string of letters, one per operand: {@code d} register written, {@code r} register
 * read, {@code b} register or immediate read, {@code i} immediate, {@code p} predicate written, {@code q} predicate
 * read, {@code a} memory address, {@code s} special register, {@code t} branch target, {@code n} barrier or count
 * (register or immediate). A trailing {@code ?} makes the rest optional. Which register operands are 64-bit
 * register pairs is {@link SimtPairs}' business.
 */
public enum SimtOpcode {
    MOV("MOV", "db", "64"),
    MOV32I("MOV32I", "di"),
    IADD("IADD", "drb", "64"),
    IMUL("IMUL", "drb", "U32", "S32", "64"),
    IMAD("IMAD", "drbr", "U32", "S32"),
    SHL("SHL", "drb", "W", "64"),
    SHR("SHR", "drb", "U32", "S32", "W", "64", "U64"),
    LOP_AND("LOP.AND", "drb", "64"),
    LOP_OR("LOP.OR", "drb", "64"),
    LOP_XOR("LOP.XOR", "drb", "64"),
    SEL("SEL", "drbq", "64"),
    ISETP("ISETP", "pprbq", "EQ", "NE", "LT", "LE", "GT", "GE", "U32", "S32", "AND", "OR", "XOR", "64"),
    /**
     * Hopper's DPX add-then-max, max(a + b, c) on signed 32-bit integers, the add wrapping (SASS VIADDMNMX); with
     * {@code .RELU} clamped at zero, max(a + b, c, 0).
     */
    VIADDMNMX("VIADDMNMX", "drbr", "RELU"),
    IDIV("IDIV", "drr", "64"),
    IREM("IREM", "drr", "64"),
    FADD("FADD", "drr"),
    FMUL("FMUL", "drr"),
    FFMA("FFMA", "drrr"),
    FMNMX("FMNMX", "drrq"),
    FSETP("FSETP", "pprrq", "EQ", "NE", "NEU", "LT", "LE", "GT", "GE", "AND", "OR", "XOR"),
    DADD("DADD", "drr"),
    DMUL("DMUL", "drr"),
    DFMA("DFMA", "drrr"),
    DDIV("DDIV", "drr"),
    DMNMX("DMNMX", "drrq"),
    DSETP("DSETP", "pprrq", "EQ", "NE", "NEU", "LT", "LE", "GT", "GE", "AND", "OR", "XOR"),
    I2F("I2F", "dr", "F32", "F64", "S32", "S64"),
    F2I("F2I", "dr", "S32", "S64", "F32", "F64", "TRUNC"),
    F2F("F2F", "dr", "F32", "F64"),
    PSETP("PSETP", "ppqqq", "AND", "OR", "XOR"),
    S2R("S2R", "ds"),
    LDS("LDS", "da", "32", "U32", "S32", "64", "STRONG"),
    STS("STS", "ar", "32", "64"),
    LDSLK("LDSLK", "pda"),
    STSUL("STSUL", "ar"),
    LDG("LDG", "da", "E", "32", "CG", "CV", "VOLATILE", "64", "CONSTANT"),
    /**
     * An asynchronous copy of a word (or a pair with {@code .64}) per active lane from global memory (second address)
     * to shared memory (first address), while the warp goes on (cp.async, SASS LDGSTS); {@link #DEPBAR} waits for it.
     */
    LDGSTS("LDGSTS", "aa", "64"),
    /** Waits until every asynchronous copy the warp issued has landed (cp.async.wait_all). */
    DEPBAR("DEPBAR", ""),
    STG("STG", "ar", "E", "32", "CG", "CV", "VOLATILE", "64"),
    LD("LD", "da", "E", "32", "CG", "CV", "VOLATILE", "64"),
    ST("ST", "ar", "E", "32", "CG", "CV", "VOLATILE", "64"),
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
    /** A warp shuffle (shfl.sync with every live lane): Rd = Ra of lane l - b (UP) or of lane b (IDX). */
    SHFL_UP("SHFL.UP", "drb"),
    SHFL_IDX("SHFL.IDX", "drb"),
    /** Every live lane of the warp meets here before any goes on (__syncwarp, SASS WARPSYNC). */
    WARPSYNC("WARPSYNC", ""),
    VOTE_ANY("VOTE.ANY", "dpq"),
    VOTE_ALL("VOTE.ALL", "dpq"),
    MEMBAR("MEMBAR", "", "CTA", "GL", "SYS"),
    NANOSLEEP("NANOSLEEP", "b"),
    MBARRIER_INIT("MBARRIER.INIT", "ab"),
    MBARRIER_ARRIVE("MBARRIER.ARRIVE", "da"),
    MBARRIER_TRY_WAIT("MBARRIER.TRY_WAIT", "par"),
    /**
     * Waits until the launch before this one on the stream has ended and its stores are visible (griddepcontrol.wait,
     * SASS ACQBULK): a programmatic dependent launch's blocks may start before it has.
     */
    ACQBULK("ACQBULK", ""),
    /** Lets the next launch on the stream start once every block of this one has passed here (griddepcontrol.launch_dependents). */
    PREEXIT("PREEXIT", ""),
    LBACQ("LBACQ", "a"),
    LBREL("LBREL", "a");

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

    /** Whether the instruction goes through the SM's shared-memory pipe: shared loads, stores and atomics, shuffles. */
    public boolean sharedPipe() {
        return switch (this) {
            case LDS, STS, LDSLK, STSUL, ATOMS_ADD, ATOMS_CAS, ATOMS_EXCH, SHFL_UP, SHFL_IDX -> true;
            default -> false;
        };
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
