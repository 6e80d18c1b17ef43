package dev.finegrain.gpu.nodes;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.nodes.expression.SimtConvertNode;
import dev.finegrain.gpu.nodes.expression.SimtImmediateNode;
import dev.finegrain.gpu.nodes.expression.SimtIntegerOp;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.nodes.expression.SimtPredicateLogic;
import dev.finegrain.gpu.nodes.expression.SimtRegisterReadNode;
import dev.finegrain.gpu.nodes.expression.SimtWideOp;
import dev.finegrain.gpu.nodes.expression.SimtWideOpNode;
import dev.finegrain.gpu.nodes.expression.SimtWideOperandNode;
import dev.finegrain.gpu.nodes.expression.SimtWideSelNode;
import dev.finegrain.gpu.nodes.expression.SimtWideSetpNode;
import dev.finegrain.gpu.nodes.memory.SimtGlobalLoadNode;
import dev.finegrain.gpu.nodes.memory.SimtGlobalStoreNode;
import dev.finegrain.gpu.nodes.memory.SimtLdsNode;
import dev.finegrain.gpu.nodes.memory.SimtStsNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSequences;

/**
 * Nodes for the instructions on 64-bit register pairs ({@link SimtPairs}), the fp32 comparisons, the conversions and
 * the division pseudo-instructions, with the costs of {@link SimtSequences}; kept apart from {@link SimtNodeFactory}
 * so that the 32-bit integer instructions build exactly as before.
 */
final class SimtWideNodes {

    private SimtWideNodes() {}

    static SimtInstructionNode create(SimtInstruction in, SimtProfile profile) {
        SimtSequences cost = profile.sequences();
        return switch (in.opcode()) {
            case MOV -> wide(in, SimtWideOp.MOV, cost.pairAlu(), 1);
            case IADD -> wide(in, SimtWideOp.IADD, cost.pairAlu(), 1, 2);
            case IMUL -> wide(in, SimtWideOp.IMUL, cost.pairMultiply(), 1, 2);
            case SHL -> wide(in, SimtWideOp.SHL, cost.pairAlu(), 1, 2);
            case SHR -> wide(in, in.has("U64") ? SimtWideOp.SHR_U64 : SimtWideOp.SHR, cost.pairAlu(), 1, 2);
            case LOP_AND -> wide(in, SimtWideOp.AND, cost.pairAlu(), 1, 2);
            case LOP_OR -> wide(in, SimtWideOp.OR, cost.pairAlu(), 1, 2);
            case LOP_XOR -> wide(in, SimtWideOp.XOR, cost.pairAlu(), 1, 2);
            case IDIV -> in.has("64") ? wide(in, SimtWideOp.IDIV, cost.divide64(), 1, 2)
                    : SimtNodeFactory.alu(in, SimtIntegerOp.IDIV, cost.divide(), 1, 2);
            case IREM -> in.has("64") ? wide(in, SimtWideOp.IREM, cost.divide64(), 1, 2)
                    : SimtNodeFactory.alu(in, SimtIntegerOp.IREM, cost.divide(), 1, 2);
            case DADD -> subtraction(in) ? new SimtWideOpNode(in, SimtWideOp.DSUB, SimtNodeFactory.register(in, 0),
                    profile.fp64Latency(), operand(in, 1), SimtWideOperandNode.pair(
                            ((SimtOperand.Register) in.operand(2)).index(), false, true), null)
                    : wide(in, SimtWideOp.DADD, profile.fp64Latency(), 1, 2);
            case DMUL -> wide(in, SimtWideOp.DMUL, profile.fp64Latency(), 1, 2);
            case DFMA -> wide(in, SimtWideOp.DFMA, profile.fp64Latency(), 1, 2, 3);
            case DDIV -> wide(in, SimtWideOp.DDIV, cost.divideDouble(), 1, 2);
            case DMNMX -> wide(in, minimum(in) ? SimtWideOp.DMIN : SimtWideOp.DMAX, cost.minMaxDouble(), 1, 2);
            case SEL -> new SimtWideSelNode(in, SimtNodeFactory.register(in, 0), operand(in, 1), operand(in, 2), SimtNodeFactory.predicate(in, 3),
                    SimtNodeFactory.negated(in, 3), cost.pairAlu());
            case ISETP -> setp(in, in.has("U32") ? SimtWideSetpNode.Kind.U64 : SimtWideSetpNode.Kind.S64, cost.pairAlu());
            case DSETP -> setp(in, SimtWideSetpNode.Kind.F64, profile.fp64Latency());
            case FSETP -> setp(in, SimtWideSetpNode.Kind.F32, profile.fp32Latency());
            case I2F, F2I, F2F -> convert(in, profile);
            case LDS -> new SimtLdsNode(in, SimtNodeFactory.register(in, 0), SimtNodeFactory.address(in, 1), true, profile);
            case LDG, LD -> new SimtGlobalLoadNode(in, SimtNodeFactory.register(in, 0), SimtNodeFactory.address(in, 1), true, profile);
            case STS -> new SimtStsNode(in, SimtNodeFactory.address(in, 0), SimtNodeFactory.source(in, 1),
                    highWord(in, 1), profile);
            case STG, ST -> new SimtGlobalStoreNode(in, SimtNodeFactory.address(in, 0), SimtNodeFactory.source(in, 1),
                    highWord(in, 1), profile);
            default -> throw new SimUserException(in.position() + ": expected no '.64' on " + in.opcode().mnemonic()
                    + " (it has no 64-bit form)");
        };
    }

    /** {@code DADD Rd, Ra, -Rb} with a plain {@code Ra} is a subtraction, and gives Java's {@code a - b} bits. */
    private static boolean subtraction(SimtInstruction in) {
        return in.operand(1) instanceof SimtOperand.Register a && !a.negated()
                && in.operand(2) instanceof SimtOperand.Register b && b.negated();
    }

    /** FMNMX and DMNMX: {@code PT} asks for the minimum, {@code !PT} for the maximum. */
    static boolean minimum(SimtInstruction in) {
        SimtOperand.Predicate p = (SimtOperand.Predicate) in.operand(3);
        if (p.index() != SimtOperand.PT) {
            throw new SimUserException(in.position() + ": expected PT (minimum) or !PT (maximum) as the last operand"
                    + " of " + in.opcode().mnemonic());
        }
        return !p.negated();
    }

    private static SimtInstructionNode wide(SimtInstruction in, SimtWideOp op, int latency, int... sources) {
        return new SimtWideOpNode(in, op, SimtNodeFactory.register(in, 0), latency, operand(in, sources[0]),
                sources.length > 1 ? operand(in, sources[1]) : null, sources.length > 2 ? operand(in, sources[2]) : null);
    }

    private static SimtInstructionNode setp(SimtInstruction in, SimtWideSetpNode.Kind kind, int latency) {
        SimtWideSetpNode.Comparison comparison = null;
        SimtPredicateLogic combine = SimtPredicateLogic.AND;
        for (String modifier : in.modifiers()) {
            switch (modifier) {
                case "EQ", "NE", "NEU", "LT", "LE", "GT", "GE" -> comparison = SimtWideSetpNode.Comparison.valueOf(modifier);
                case "AND", "OR", "XOR" -> combine = SimtPredicateLogic.valueOf(modifier);
                default -> {
                    // 64, U32 and S are read by the caller or the base node
                }
            }
        }
        return new SimtWideSetpNode(in, kind, comparison, combine, SimtNodeFactory.predicate(in, 0),
                SimtNodeFactory.predicate(in, 1), SimtNodeFactory.predicate(in, 4), SimtNodeFactory.negated(in, 4),
                operand(in, 2), operand(in, 3), latency);
    }

    private static SimtInstructionNode convert(SimtInstruction in, SimtProfile profile) {
        var types = in.modifiers().stream().filter(SimtPairs::isNumberType).map(SimtConvertNode.Type::valueOf).toList();
        SimtConvertNode.Type to = types.get(0);
        SimtConvertNode.Type from = types.get(1);
        boolean wide = to.name().endsWith("64") || from.name().endsWith("64");
        return new SimtConvertNode(in, to, from, SimtNodeFactory.register(in, 0), operand(in, 1),
                wide ? profile.convert64Latency() : profile.convertLatency());
    }

    /** A 64-bit source: a pair, a 32-bit register where the instruction reads one, or an immediate. */
    private static SimtWideOperandNode operand(SimtInstruction in, int i) {
        boolean floating = switch (in.opcode()) {
            case DADD, DMUL, DFMA, DDIV, DMNMX, DSETP -> true;
            default -> false;
        };
        return switch (in.operand(i)) {
            case SimtOperand.Register r when SimtPairs.isPair(in, i) -> SimtWideOperandNode.pair(r.index(), r.negated(),
                    floating);
            case SimtOperand.Register r -> SimtWideOperandNode.word(new SimtRegisterReadNode(r.index(), r.negated()));
            case SimtOperand.Immediate imm -> SimtWideOperandNode.immediate(imm.value(), floating);
            default -> throw new IllegalStateException("operand " + i + " of " + in.text() + " is not a value");
        };
    }

    /** The high word of a stored pair. */
    private static SimtOperandNode highWord(SimtInstruction in, int i) {
        SimtOperand.Register r = (SimtOperand.Register) in.operand(i);
        return r.index() == SimtOperand.RZ ? new SimtImmediateNode(0)
                : new SimtRegisterReadNode(r.index() + 1, false);
    }
}
