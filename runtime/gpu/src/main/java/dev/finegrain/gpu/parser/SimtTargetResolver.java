package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns every branch target, written as a label or an instruction address, into an instruction index (the end of the
 * program for the address just after the last instruction), rejecting undefined labels and addresses.
 */
final class SimtTargetResolver {
    private final List<SimtInstruction> instructions;
    private final Map<String, Integer> labels;

    private SimtTargetResolver(List<SimtInstruction> instructions, Map<String, Integer> labels) {
        this.instructions = instructions;
        this.labels = labels;
    }

    /** The instructions, in order, with each target resolved; {@code labels} maps a label to its instruction index. */
    static List<SimtInstruction> resolve(List<SimtInstruction> instructions, Map<String, Integer> labels) {
        SimtTargetResolver resolver = new SimtTargetResolver(instructions, labels);
        List<SimtInstruction> resolved = new ArrayList<>();
        for (SimtInstruction instruction : instructions) {
            resolved.add(resolver.resolveTargets(instruction));
        }
        return resolved;
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
        if (!instructions.isEmpty()
                && target.address() == instructions.getLast().address() + SimtParser.INSTRUCTION_BYTES) {
            // The end of the program, where the listings of seed 001 put their reconvergence points.
            return instructions.size();
        }
        throw new SimUserException(target.position() + ": expected the address of an instruction, found 0x"
                + Integer.toHexString(target.address()) + " (no instruction there)");
    }
}
