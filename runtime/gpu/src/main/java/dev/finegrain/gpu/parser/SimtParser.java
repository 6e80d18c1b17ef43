package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtOperand.SpecialRegister;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.isa.SimtSourcePosition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the SASS-like text of docs/simt-isa.md into a {@link SimtProgram}: one pass of a hand-written scanner that
 * keeps line and column, so every error reads {@code file:line:column: expected ...}.
 *
 * <p>Hex block comments of up to eight digits are addresses; longer ones are cuobjdump's encodings and are ignored.
 *
 * <p>Accepted as the seed listings print them: {@code /*00a8*}{@code /} address comments (other block comments are
 * comments), {@code @P0}, {@code @!P0} and the listings' {@code !@P0}, targets by address (the address just after the last
 * instruction means the end of the program) or label, {@code ;} after
 * each instruction, {@code //} comments, case-insensitive names ({@code pt}, {@code SR_LaneId}), and {@code ...}
 * lines (also guarded, as in {@code @P0 ...}) that stand for elided code and assemble to
 * nothing.
 */
public final class SimtParser {
    private static final int INSTRUCTION_BYTES = 8;
    private static final int PREDICATE_REGISTERS = 7;
    private static final int GENERAL_REGISTERS = 255;

    private final String file;
    private final String text;
    private int offset;
    private int line = 1;
    private int column = 1;

    private final List<SimtInstruction> instructions = new ArrayList<>();
    private final Map<String, Integer> labels = new HashMap<>();
    private final List<String> pendingLabels = new ArrayList<>();
    private Integer pendingAddress;
    private int maxRegister = -1;

    private SimtParser(String file, String text) {
        this.file = file;
        this.text = text;
    }

    /** Parses a whole program; throws {@link SimUserException} with {@code file:line:column: expected ...}. */
    public static SimtProgram parse(String file, String text) {
        return new SimtParser(file, text).program();
    }

    private SimtProgram program() {
        while (true) {
            skipBlanksAndComments();
            if (atEnd()) {
                break;
            }
            statement();
        }
        if (!pendingLabels.isEmpty()) {
            throw error(position(), "an instruction after label '" + pendingLabels.getLast() + "'");
        }
        if (instructions.isEmpty()) {
            throw new SimUserException(file + ": the program has no instructions; write one per line as in docs/simt-isa.md,"
                    + " ending with EXIT");
        }
        List<SimtInstruction> resolved = new ArrayList<>();
        for (SimtInstruction instruction : instructions) {
            resolved.add(resolveTargets(instruction));
        }
        int[] reconvergence = SimtPostDominators.immediatePostDominators(resolved);
        return new SimtProgram(file, List.copyOf(resolved), reconvergence, Math.max(1, maxRegister + 1));
    }

    private void statement() {
        if (lookingAt("...")) {
            advance(3);
            pendingAddress = null;
            skipBlanksAndComments();
            if (peek() == ';') {
                advance(1);
            }
            return;
        }
        SimtSourcePosition start = position();
        int startOffset = offset;
        SimtOperand.Predicate guard = null;
        if (peek() == '@' || (peek() == '!' && peekAt(1) == '@')) {
            boolean negated = peek() == '!';
            advance(negated ? 2 : 1);
            if (peek() == '!') {
                negated = true;
                advance(1);
            }
            guard = predicate(false, negated, position());
            skipBlanksAndComments();
            if (lookingAt("...")) {
                statement();
                return;
            }
        }
        SimtSourcePosition wordPosition = position();
        String word = word();
        if (word.isEmpty()) {
            throw error(wordPosition, "an instruction mnemonic");
        }
        skipSpaces();
        if (guard == null && peek() == ':' ) {
            advance(1);
            String label = word.toUpperCase(Locale.ROOT);
            if (labels.containsKey(label) || pendingLabels.contains(label)) {
                throw new SimUserException(wordPosition + ": expected a new label, found '" + word
                        + "' (defined before)");
            }
            pendingLabels.add(label);
            return;
        }
        instruction(guard, word, wordPosition, start, startOffset);
    }

    private void instruction(SimtOperand.Predicate guard, String word, SimtSourcePosition wordPosition,
                             SimtSourcePosition start, int startOffset) {
        List<String> parts = List.of(word.toUpperCase(Locale.ROOT).split("\\.", -1));
        SimtOpcode opcode = SimtOpcode.lookup(parts);
        if (opcode == null) {
            throw error(wordPosition, "an instruction mnemonic", word);
        }
        List<String> modifiers = parts.subList(opcode.mnemonicLength(), parts.size());
        for (String modifier : modifiers) {
            if (!opcode.accepts(modifier)) {
                throw new SimUserException(wordPosition + ": expected a modifier of " + opcode.mnemonic() + " (one of "
                        + String.join(", ", opcode.modifiers().stream().sorted().toList()) + ", S), found '."
                        + modifier + "'");
            }
        }
        checkRequiredModifiers(opcode, modifiers, wordPosition);
        List<SimtOperand> operands = operands(opcode.signature());
        skipBlanksAndComments();
        if (peek() != ';') {
            throw error(position(), operands.isEmpty() && !opcode.signature().isEmpty() ? "an operand" : "';'");
        }
        String written = text.substring(startOffset, offset).replaceAll("\\s+", " ").trim();
        advance(1);
        int index = instructions.size();
        int address = pendingAddress != null ? pendingAddress
                : instructions.isEmpty() ? 0 : instructions.getLast().address() + INSTRUCTION_BYTES;
        pendingAddress = null;
        for (String label : pendingLabels) {
            labels.put(label, index);
        }
        pendingLabels.clear();
        SimtInstruction instruction = new SimtInstruction(index, address, guard, opcode, List.copyOf(modifiers),
                operands, written, start);
        checkPairs(instruction);
        instructions.add(instruction);
    }

    /** A pair operand names an even register (its high word is the next one, which the program then uses too). */
    private void checkPairs(SimtInstruction instruction) {
        for (int i = 0; i < instruction.operandCount(); i++) {
            if (instruction.operand(i) instanceof SimtOperand.Register r && r.index() != SimtOperand.RZ
                    && SimtPairs.isPair(instruction, i)) {
                if (r.index() % 2 != 0 || r.index() + 1 >= GENERAL_REGISTERS) {
                    throw new SimUserException(r.position() + ": expected an even register below R254 for a 64-bit"
                            + " operand (the pair Rn:Rn+1), found '" + r + "'");
                }
                maxRegister = Math.max(maxRegister, r.index() + 1);
            }
        }
    }

    private static void checkRequiredModifiers(SimtOpcode opcode, List<String> modifiers, SimtSourcePosition at) {
        if (opcode == SimtOpcode.ISETP && modifiers.stream().noneMatch(SimtParser::isComparison)) {
            throw new SimUserException(at + ": expected a comparison after ISETP (EQ, NE, LT, LE, GT or GE)");
        }
        if ((opcode == SimtOpcode.DSETP || opcode == SimtOpcode.FSETP)
                && modifiers.stream().noneMatch(m -> isComparison(m) || m.equals("NEU"))) {
            throw new SimUserException(at + ": expected a comparison after " + opcode.mnemonic()
                    + " (EQ, NE, NEU, LT, LE, GT or GE)");
        }
        if ((opcode == SimtOpcode.I2F || opcode == SimtOpcode.F2I || opcode == SimtOpcode.F2F)
                && modifiers.stream().filter(SimtPairs::isNumberType).count() != 2) {
            throw new SimUserException(at + ": expected the destination and source types after " + opcode.mnemonic()
                    + " (e.g. I2F.F64.S32, F2I.S32.F64, F2F.F32.F64)");
        }
        if (opcode == SimtOpcode.PSETP && modifiers.stream().noneMatch(m -> m.equals("AND") || m.equals("OR")
                || m.equals("XOR"))) {
            throw new SimUserException(at + ": expected a boolean operation after PSETP (AND, OR or XOR)");
        }
    }

    private static boolean isComparison(String modifier) {
        return switch (modifier) {
            case "EQ", "NE", "LT", "LE", "GT", "GE" -> true;
            default -> false;
        };
    }

    private List<SimtOperand> operands(String signature) {
        List<SimtOperand> operands = new ArrayList<>();
        boolean optional = false;
        for (int i = 0; i < signature.length(); i++) {
            char kind = signature.charAt(i);
            if (kind == '?') {
                optional = true;
                continue;
            }
            skipBlanksAndComments();
            if (!operands.isEmpty()) {
                if (peek() != ',') {
                    if (optional) {
                        break;
                    }
                    throw error(position(), "','");
                }
                advance(1);
                skipBlanksAndComments();
            } else if (optional && peek() == ';') {
                break;
            }
            operands.add(operand(kind));
        }
        return operands;
    }

    private SimtOperand operand(char kind) {
        SimtSourcePosition at = position();
        return switch (kind) {
            case 'd' -> register(false, at);
            case 'r' -> register(true, at);
            case 'b', 'n' -> peek() == '-' && isRegisterStart(1) || isRegisterStart(0) ? register(kind == 'b', at)
                    : immediate(at, "a register or an immediate");
            case 'i' -> immediate(at, "an immediate");
            case 'p' -> predicate(false, false, at);
            case 'q' -> predicate(true, false, at);
            case 'a' -> address(at);
            case 's' -> special(at);
            case 't' -> target(at);
            default -> throw new IllegalStateException("operand kind " + kind);
        };
    }

    private boolean isRegisterStart(int ahead) {
        char c = Character.toUpperCase(peekAt(ahead));
        char next = Character.toUpperCase(peekAt(ahead + 1));
        return c == 'R' && (Character.isDigit(next) || next == 'Z');
    }

    private SimtOperand.Register register(boolean mayNegate, SimtSourcePosition at) {
        boolean negated = false;
        if (mayNegate && peek() == '-') {
            negated = true;
            advance(1);
        }
        String written = word();
        String word = written.toUpperCase(Locale.ROOT);
        if (word.equals("RZ")) {
            return new SimtOperand.Register(SimtOperand.RZ, negated, at);
        }
        if (word.matches("R[0-9]+")) {
            int index = Integer.parseInt(word.substring(1));
            if (index < GENERAL_REGISTERS) {
                maxRegister = Math.max(maxRegister, index);
                return new SimtOperand.Register(index, negated, at);
            }
        }
        throw error(at, "a register (R0 to R254 or RZ)", written);
    }

    private SimtOperand.Predicate predicate(boolean mayNegate, boolean negatedAlready, SimtSourcePosition at) {
        boolean negated = negatedAlready;
        if (mayNegate && peek() == '!') {
            negated = true;
            advance(1);
        }
        String written = word();
        String word = written.toUpperCase(Locale.ROOT);
        if (word.equals("PT")) {
            return new SimtOperand.Predicate(SimtOperand.PT, negated, at);
        }
        if (word.matches("P[0-9]") && word.charAt(1) - '0' < PREDICATE_REGISTERS) {
            return new SimtOperand.Predicate(word.charAt(1) - '0', negated, at);
        }
        throw error(at, "a predicate (P0 to P6 or PT)", written);
    }

    private SimtOperand.Immediate immediate(SimtSourcePosition at, String expected) {
        boolean negative = false;
        if (peek() == '-') {
            negative = true;
            advance(1);
        }
        String word = word();
        Long value = number(word);
        if (value == null) {
            throw error(at, expected, (negative ? "-" : "") + word);
        }
        return new SimtOperand.Immediate((int) (negative ? -value : value), at);
    }

    private static Long number(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        try {
            long value = lower.startsWith("0x") ? Long.parseLong(lower.substring(2), 16) : Long.parseLong(lower);
            return value >= 0 && value <= 0xFFFF_FFFFL ? value : null;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private SimtOperand.Address address(SimtSourcePosition at) {
        if (peek() != '[') {
            throw error(at, "an address ([Rn], [Rn+imm], [Rn+-imm] or [imm])", word());
        }
        advance(1);
        skipSpaces();
        int base = SimtOperand.RZ;
        int displacement = 0;
        if (isRegisterStart(0)) {
            base = register(false, position()).index();
            skipSpaces();
            if (peek() == '+' || peek() == '-') {
                boolean minus = peek() == '-';
                advance(1);
                skipSpaces();
                int value = immediate(position(), "an offset").value();
                displacement = minus ? -value : value;
            }
        } else {
            displacement = immediate(position(), "a register or an offset").value();
        }
        skipSpaces();
        if (peek() != ']') {
            throw error(position(), "']'");
        }
        advance(1);
        return new SimtOperand.Address(base, displacement, at);
    }

    private SimtOperand.Special special(SimtSourcePosition at) {
        String word = word();
        SpecialRegister register = SpecialRegister.lookup(word);
        if (register == null) {
            throw error(at, "a special register (SR_TID.X, SR_LANEID, SR_WARPID, SR_CTAID.X, SR_CLOCKLO, SR_NTID.X,"
                    + " SR_NCTAID.X)", word);
        }
        return new SimtOperand.Special(register, at);
    }

    private SimtOperand.Target target(SimtSourcePosition at) {
        String word = word();
        Long address = number(word);
        if (address != null) {
            return new SimtOperand.Target(null, address.intValue(), -1, at);
        }
        if (word.isEmpty() || !Character.isLetter(word.charAt(0)) && word.charAt(0) != '_') {
            throw error(at, "a branch target (an instruction address or a label)", word);
        }
        return new SimtOperand.Target(word.toUpperCase(Locale.ROOT), 0, -1, at);
    }

    private SimtInstruction resolveTargets(SimtInstruction instruction) {
        List<SimtOperand> operands = new ArrayList<>(instruction.operands());
        for (int i = 0; i < operands.size(); i++) {
            if (operands.get(i) instanceof SimtOperand.Target target) {
                operands.set(i, target.resolvedTo(resolve(target)));
            }
        }
        return instruction.withOperands(List.copyOf(operands));
    }

    private int resolve(SimtOperand.Target target) {
        if (target.label() != null) {
            Integer index = labels.get(target.label());
            if (index == null) {
                throw new SimUserException(target.position() + ": expected a defined label, found '" + target.label()
                        + "'");
            }
            return index;
        }
        for (SimtInstruction instruction : instructions) {
            if (instruction.address() == target.address()) {
                return instruction.index();
            }
        }
        if (!instructions.isEmpty() && target.address() == instructions.getLast().address() + INSTRUCTION_BYTES) {
            // The end of the program, where the listings of seed 001 put their reconvergence points.
            return instructions.size();
        }
        throw new SimUserException(target.position() + ": expected the address of an instruction, found 0x"
                + Integer.toHexString(target.address()) + " (no instruction there)");
    }

    private String word() {
        int start = offset;
        while (!atEnd() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == '.')) {
            advance(1);
        }
        return text.substring(start, offset);
    }

    private void skipSpaces() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
            advance(1);
        }
    }

    private void skipBlanksAndComments() {
        while (!atEnd()) {
            char c = peek();
            if (Character.isWhitespace(c)) {
                advance(1);
            } else if (lookingAt("//")) {
                while (!atEnd() && peek() != '\n') {
                    advance(1);
                }
            } else if (lookingAt("/*")) {
                blockComment();
            } else {
                return;
            }
        }
    }

    private void blockComment() {
        SimtSourcePosition at = position();
        int end = text.indexOf("*/", offset + 2);
        if (end < 0) {
            throw new SimUserException(at + ": expected '*/' to close this comment");
        }
        String body = text.substring(offset + 2, end).trim();
        if (body.matches("(?i)(0x)?[0-9a-f]{1,8}")) {
            pendingAddress = (int) Long.parseLong(body.replaceFirst("(?i)^0x", ""), 16);
        }
        advance(end + 2 - offset);
    }

    private SimUserException error(SimtSourcePosition at, String expected) {
        String found = atEnd() ? "end of file" : "'" + peek() + "'";
        return new SimUserException(at + ": expected " + expected + ", found " + found);
    }

    private SimUserException error(SimtSourcePosition at, String expected, String found) {
        return new SimUserException(at + ": expected " + expected + ", found "
                + (found.isEmpty() ? (atEnd() ? "end of file" : "'" + peek() + "'") : "'" + found + "'"));
    }

    private SimtSourcePosition position() {
        return new SimtSourcePosition(file, line, column);
    }

    private boolean atEnd() {
        return offset >= text.length();
    }

    private char peek() {
        return peekAt(0);
    }

    private char peekAt(int ahead) {
        return offset + ahead < text.length() ? text.charAt(offset + ahead) : '\0';
    }

    private boolean lookingAt(String s) {
        return text.startsWith(s, offset);
    }

    private void advance(int count) {
        for (int i = 0; i < count && !atEnd(); i++) {
            if (text.charAt(offset) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            offset++;
        }
    }

    /** Immediate post-dominators over the program's control-flow graph, with a virtual exit node. */
    static final class SimtPostDominators {
        private SimtPostDominators() {
        }

        static int[] immediatePostDominators(List<SimtInstruction> program) {
            int n = program.size();
            int exit = n;
            List<int[]> successors = new ArrayList<>();
            for (SimtInstruction instruction : program) {
                successors.add(successors(instruction, n));
            }
            BitSet[] postDominators = new BitSet[n + 1];
            for (int i = 0; i < n; i++) {
                postDominators[i] = new BitSet(n + 1);
                postDominators[i].set(0, n + 1);
            }
            postDominators[exit] = new BitSet(n + 1);
            postDominators[exit].set(exit);
            boolean changed = true;
            while (changed) {
                changed = false;
                for (int i = n - 1; i >= 0; i--) {
                    BitSet next = new BitSet(n + 1);
                    next.set(0, n + 1);
                    for (int successor : successors.get(i)) {
                        next.and(postDominators[successor]);
                    }
                    next.set(i);
                    if (!next.equals(postDominators[i])) {
                        postDominators[i] = next;
                        changed = true;
                    }
                }
            }
            int[] immediate = new int[n];
            Arrays.fill(immediate, SimtProgram.EXIT_INDEX);
            for (int i = 0; i < n; i++) {
                if (!postDominators[i].get(exit)) {
                    continue;
                }
                int best = exit;
                int bestSize = -1;
                for (int d = postDominators[i].nextSetBit(0); d >= 0; d = postDominators[i].nextSetBit(d + 1)) {
                    if (d != i && postDominators[d].cardinality() > bestSize) {
                        best = d;
                        bestSize = postDominators[d].cardinality();
                    }
                }
                immediate[i] = best == exit ? SimtProgram.EXIT_INDEX : best;
            }
            return immediate;
        }

        private static int[] successors(SimtInstruction instruction, int exit) {
            boolean alwaysTaken = instruction.guard() == null
                    || instruction.guard().index() == SimtOperand.PT && !instruction.guard().negated();
            int next = instruction.index() + 1;
            if (instruction.opcode() == SimtOpcode.SYNC || instruction.has(SimtOpcode.SYNC_MODIFIER)) {
                // SYNC leaves the SSY region for the SSY target, which the stack (not the graph) knows: paths that
                // end in SYNC meet only there, so no post-dominator may be placed after it.
                return alwaysTaken ? new int[] {exit} : new int[] {exit, next};
            }
            return switch (instruction.opcode()) {
                case BRA -> {
                    int target = ((SimtOperand.Target) instruction.operand(0)).instructionIndex();
                    yield alwaysTaken ? new int[] {target} : new int[] {target, next};
                }
                case EXIT -> alwaysTaken ? new int[] {exit} : new int[] {exit, next};
                default -> new int[] {next};
            };
        }
    }
}
