package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.isa.SimtSourcePosition;

import java.util.ArrayList;
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
 *
 * <p>This class reads statements (labels, {@code ...} lines, guarded instructions) and lays out addresses;
 * {@code SimtScanner} moves through the text, {@code SimtOperandParser} reads operands, {@code SimtModifierRules}
 * checks modifiers, {@code SimtTargetResolver} resolves branch targets and {@code SimtPostDominators} finds the
 * reconvergence points.
 */
public final class SimtParser {
    static final int INSTRUCTION_BYTES = 8;

    private final SimtScanner scanner;
    private final SimtOperandParser operandParser;

    private final List<SimtInstruction> instructions = new ArrayList<>();
    private final Map<String, Integer> labels = new HashMap<>();
    private final List<String> pendingLabels = new ArrayList<>();

    private SimtParser(String file, String text) {
        this.scanner = new SimtScanner(file, text);
        this.operandParser = new SimtOperandParser(scanner);
    }

    /** Parses a whole program; throws {@link SimUserException} with {@code file:line:column: expected ...}. */
    public static SimtProgram parse(String file, String text) {
        return new SimtParser(file, text).program();
    }

    private SimtProgram program() {
        while (true) {
            scanner.skipBlanksAndComments();
            if (scanner.atEnd()) {
                break;
            }
            statement();
        }
        if (!pendingLabels.isEmpty()) {
            throw scanner.error(scanner.position(), "an instruction after label '" + pendingLabels.getLast() + "'");
        }
        String file = scanner.file();
        if (instructions.isEmpty()) {
            throw new SimUserException(file + ": the program has no instructions; write one per line as in docs/simt-isa.md,"
                    + " ending with EXIT");
        }
        List<SimtInstruction> resolved = SimtTargetResolver.resolve(instructions, labels);
        int[] reconvergence = SimtPostDominators.immediatePostDominators(resolved);
        return new SimtProgram(file, List.copyOf(resolved), reconvergence, operandParser.registerCount());
    }

    private void statement() {
        if (scanner.lookingAt("...")) {
            scanner.advance(3);
            scanner.clearPendingAddress();
            scanner.skipBlanksAndComments();
            if (scanner.peek() == ';') {
                scanner.advance(1);
            }
            return;
        }
        SimtSourcePosition start = scanner.position();
        int startOffset = scanner.offset();
        SimtOperand.Predicate guard = null;
        if (scanner.peek() == '@' || (scanner.peek() == '!' && scanner.peekAt(1) == '@')) {
            boolean negated = scanner.peek() == '!';
            scanner.advance(negated ? 2 : 1);
            if (scanner.peek() == '!') {
                negated = true;
                scanner.advance(1);
            }
            guard = operandParser.predicate(false, negated, scanner.position());
            scanner.skipBlanksAndComments();
            if (scanner.lookingAt("...")) {
                statement();
                return;
            }
        }
        SimtSourcePosition wordPosition = scanner.position();
        String word = scanner.word();
        if (word.isEmpty()) {
            throw scanner.error(wordPosition, "an instruction mnemonic");
        }
        scanner.skipSpaces();
        if (guard == null && scanner.peek() == ':' ) {
            scanner.advance(1);
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
            throw scanner.error(wordPosition, "an instruction mnemonic", word);
        }
        List<String> modifiers = parts.subList(opcode.mnemonicLength(), parts.size());
        SimtModifierRules.check(opcode, modifiers, wordPosition);
        List<SimtOperand> operands = operandParser.operands(opcode.signature());
        scanner.skipBlanksAndComments();
        if (scanner.peek() != ';') {
            throw scanner.error(scanner.position(),
                    operands.isEmpty() && !opcode.signature().isEmpty() ? "an operand" : "';'");
        }
        String written = scanner.textFrom(startOffset).replaceAll("\\s+", " ").trim();
        scanner.advance(1);
        int index = instructions.size();
        Integer pendingAddress = scanner.pendingAddress();
        int address = pendingAddress != null ? pendingAddress
                : instructions.isEmpty() ? 0 : instructions.getLast().address() + INSTRUCTION_BYTES;
        scanner.clearPendingAddress();
        for (String label : pendingLabels) {
            labels.put(label, index);
        }
        pendingLabels.clear();
        SimtInstruction instruction = new SimtInstruction(index, address, guard, opcode, List.copyOf(modifiers),
                operands, written, start);
        operandParser.checkPairs(instruction);
        instructions.add(instruction);
    }
}
