package dev.finegrain.gpu.nodes;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.isa.SimtSourcePosition;
import dev.finegrain.gpu.nodes.controlflow.SimtBraNodeGen;
import dev.finegrain.gpu.nodes.controlflow.SimtExitNode;
import dev.finegrain.gpu.nodes.controlflow.SimtNopNode;
import dev.finegrain.gpu.nodes.controlflow.SimtSsyNode;
import dev.finegrain.gpu.nodes.controlflow.SimtSyncNode;
import dev.finegrain.gpu.nodes.expression.SimtImmediateNode;
import dev.finegrain.gpu.nodes.expression.SimtIntegerOp;
import dev.finegrain.gpu.nodes.expression.SimtIntegerOpNodeGen;
import dev.finegrain.gpu.nodes.expression.SimtIsetpNode;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.nodes.expression.SimtPredicateLogic;
import dev.finegrain.gpu.nodes.expression.SimtPsetpNode;
import dev.finegrain.gpu.nodes.expression.SimtRegisterReadNode;
import dev.finegrain.gpu.nodes.expression.SimtS2rNode;
import dev.finegrain.gpu.nodes.expression.SimtSelNode;
import dev.finegrain.gpu.nodes.memory.SimtAsyncCopyNode;
import dev.finegrain.gpu.nodes.memory.SimtAtomicNode;
import dev.finegrain.gpu.nodes.memory.SimtAtomicOp;
import dev.finegrain.gpu.nodes.memory.SimtGlobalLoadNode;
import dev.finegrain.gpu.nodes.memory.SimtGlobalStoreNode;
import dev.finegrain.gpu.nodes.memory.SimtLdsNode;
import dev.finegrain.gpu.nodes.memory.SimtLdslkNode;
import dev.finegrain.gpu.nodes.memory.SimtStsNode;
import dev.finegrain.gpu.nodes.memory.SimtStsulNode;
import dev.finegrain.gpu.nodes.sync.SimtBarArriveNode;
import dev.finegrain.gpu.nodes.sync.SimtDepbarNode;
import dev.finegrain.gpu.nodes.sync.SimtLaunchDependenceNode;
import dev.finegrain.gpu.nodes.sync.SimtBarRedPopcNode;
import dev.finegrain.gpu.nodes.sync.SimtBarSyncNode;
import dev.finegrain.gpu.nodes.sync.SimtLockBoxNode;
import dev.finegrain.gpu.nodes.sync.SimtMbarrierNode;
import dev.finegrain.gpu.nodes.sync.SimtMembarNode;
import dev.finegrain.gpu.nodes.sync.SimtNanosleepNode;
import dev.finegrain.gpu.nodes.sync.SimtShuffleNode;
import dev.finegrain.gpu.nodes.sync.SimtVoteNode;
import dev.finegrain.gpu.nodes.sync.SimtWarpSyncNode;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Turns parsed instructions into Truffle nodes, one per instruction plus the implicit EXIT after the last. */
public final class SimtNodeFactory {
    private SimtNodeFactory() {
    }

    /** The EXIT that lanes falling off the end of the program execute, for {@code profile}. */
    static SimtInstructionNode exit(SimtInstruction implicitExit, SimtProfile profile) {
        return new SimtExitNode(implicitExit, profile);
    }

    /** The EXIT that lanes falling off the end of the program execute. */
    public static SimtInstruction implicitExit(SimtProgram program) {
        int address = program.size() == 0 ? 0 : program.instruction(program.size() - 1).address() + 8;
        SimtSourcePosition end = program.size() == 0 ? new SimtSourcePosition(program.file(), 1, 1)
                : program.instruction(program.size() - 1).position();
        return new SimtInstruction(program.size(), address, null, SimtOpcode.EXIT, List.of(), List.of(),
                "EXIT (implicit, after the last instruction)", end);
    }

    /**
     * The node of one instruction of {@code program} for {@code profile}: it reads the latencies and features it needs
     * into final fields, which compiled code has as constants, so the node serves only runs on this profile. It
     * depends on the program only through a branch's reconvergence point.
     */
    static SimtInstructionNode create(SimtInstruction in, SimtProgram program, SimtProfile profile) {
        SimtInstructionNode node = createNode(in, program, profile);
        if (profile.pipelinedIssue() && oneHardwareInstruction(in)) {
            node.pipelineIssue(in.opcode().sharedPipe() ? profile.sharedIssueIntervalCycles() : profile.issueIntervalCycles());
        }
        return node;
    }

    /** Instructions whose results a pipelined profile's scoreboard tracks: those the hardware runs as one instruction. */
    private static final Set<SimtOpcode> PIPELINED = EnumSet.of(SimtOpcode.MOV, SimtOpcode.MOV32I, SimtOpcode.IADD,
            SimtOpcode.IMUL, SimtOpcode.IMAD, SimtOpcode.SHL, SimtOpcode.SHR, SimtOpcode.LOP_AND, SimtOpcode.LOP_OR,
            SimtOpcode.LOP_XOR, SimtOpcode.SEL, SimtOpcode.ISETP, SimtOpcode.VIADDMNMX, SimtOpcode.FADD, SimtOpcode.FMUL,
            SimtOpcode.FFMA, SimtOpcode.FMNMX, SimtOpcode.FSETP, SimtOpcode.DADD, SimtOpcode.DMUL, SimtOpcode.DFMA,
            SimtOpcode.DSETP, SimtOpcode.I2F, SimtOpcode.F2I, SimtOpcode.F2F, SimtOpcode.PSETP, SimtOpcode.S2R,
            SimtOpcode.SHFL_UP, SimtOpcode.SHFL_IDX);
    /** Of those, the ones whose 64-bit integer forms are sequences of 32-bit instructions ({@code SimtSequences}). */
    private static final Set<SimtOpcode> INTEGER = EnumSet.of(SimtOpcode.MOV, SimtOpcode.IADD, SimtOpcode.IMUL,
            SimtOpcode.SHL, SimtOpcode.SHR, SimtOpcode.LOP_AND, SimtOpcode.LOP_OR, SimtOpcode.LOP_XOR, SimtOpcode.SEL,
            SimtOpcode.ISETP);

    private static boolean oneHardwareInstruction(SimtInstruction in) {
        return PIPELINED.contains(in.opcode()) && !(INTEGER.contains(in.opcode()) && SimtPairs.usesPairs(in));
    }

    private static SimtInstructionNode createNode(SimtInstruction in, SimtProgram program, SimtProfile profile) {
        if (SimtPairs.usesPairs(in) || in.opcode() == SimtOpcode.IDIV || in.opcode() == SimtOpcode.IREM) {
            return SimtWideNodes.create(in, profile);
        }
        return switch (in.opcode()) {
            case MOV, MOV32I -> alu(in, SimtIntegerOp.MOV, profile.aluLatency(), 1);
            case IADD -> alu(in, SimtIntegerOp.IADD, profile.aluLatency(), 1, 2);
            case VIADDMNMX -> {
                if (!profile.hasDpx()) {
                    throw new SimUserException(in.position() + ": VIADDMNMX is a DPX instruction, which profile "
                            + profile.name() + " does not have (feature.dpx=false)");
                }
                yield alu(in, in.has("RELU") ? SimtIntegerOp.ADD_MAX_RELU : SimtIntegerOp.ADD_MAX, profile.dpxLatency(), 1, 2, 3);
            }
            case IMUL -> alu(in, SimtIntegerOp.IMUL, profile.multiplyLatency(), 1, 2);
            case IMAD -> alu(in, SimtIntegerOp.IMAD, profile.multiplyLatency(), 1, 2, 3);
            case SHL -> alu(in, SimtIntegerOp.SHL, profile.aluLatency(), 1, 2);
            case SHR -> alu(in, in.has("U32") ? SimtIntegerOp.SHR_U32 : SimtIntegerOp.SHR, profile.aluLatency(), 1, 2);
            case LOP_AND -> alu(in, SimtIntegerOp.AND, profile.aluLatency(), 1, 2);
            case LOP_OR -> alu(in, SimtIntegerOp.OR, profile.aluLatency(), 1, 2);
            case LOP_XOR -> alu(in, SimtIntegerOp.XOR, profile.aluLatency(), 1, 2);
            case SEL -> new SimtSelNode(in, register(in, 0), source(in, 1), source(in, 2), predicate(in, 3),
                    negated(in, 3), profile);
            case ISETP -> isetp(in, profile);
            case PSETP -> psetp(in, profile);
            case S2R -> new SimtS2rNode(in, register(in, 0), ((SimtOperand.Special) in.operand(1)).register(),
                    profile);
            case LDS -> new SimtLdsNode(in, register(in, 0), address(in, 1), false, profile);
            case STS -> new SimtStsNode(in, address(in, 0), source(in, 1), null, profile);
            case LDSLK -> new SimtLdslkNode(in, predicate(in, 0), register(in, 1), address(in, 2), profile);
            case STSUL -> new SimtStsulNode(in, address(in, 0), source(in, 1), profile);
            case LDG, LD -> new SimtGlobalLoadNode(in, register(in, 0), address(in, 1), false, profile);
            case LDGSTS -> new SimtAsyncCopyNode(in, address(in, 0), address(in, 1), in.has("64"), profile);
            case DEPBAR -> new SimtDepbarNode(in, profile);
            case ACQBULK, PREEXIT -> new SimtLaunchDependenceNode(in, profile);
            case STG, ST -> new SimtGlobalStoreNode(in, address(in, 0), source(in, 1), null, profile);
            case ATOMS_CAS -> atomic(in, SimtAtomicOp.CAS, true, profile);
            case ATOMS_EXCH -> atomic(in, SimtAtomicOp.EXCH, true, profile);
            case ATOMS_ADD -> atomic(in, SimtAtomicOp.ADD, true, profile);
            case ATOM_CAS -> atomic(in, SimtAtomicOp.CAS, false, profile);
            case ATOM_EXCH -> atomic(in, SimtAtomicOp.EXCH, false, profile);
            case ATOM_ADD -> atomic(in, SimtAtomicOp.ADD, false, profile);
            case BRA -> {
                rejectSynchronizeModifier(in);
                int target = ((SimtOperand.Target) in.operand(0)).instructionIndex();
                yield SimtBraNodeGen.create(in, target, program.reconvergenceIndex(in.index()), profile);
            }
            case SSY -> {
                rejectSynchronizeModifier(in);
                yield new SimtSsyNode(in, ((SimtOperand.Target) in.operand(0)).instructionIndex(), profile);
            }
            case SYNC -> new SimtSyncNode(in, profile);
            case EXIT -> {
                rejectSynchronizeModifier(in);
                yield new SimtExitNode(in, profile);
            }
            case NOP -> new SimtNopNode(in, profile);
            case BAR_SYNC -> new SimtBarSyncNode(in, source(in, 0), in.operandCount() > 1 ? source(in, 1) : null,
                    profile);
            case BAR_ARRIVE -> new SimtBarArriveNode(in, source(in, 0), source(in, 1), profile);
            case BAR_RED_POPC -> new SimtBarRedPopcNode(in, register(in, 0), source(in, 1),
                    in.operandCount() > 2 ? predicate(in, 2) : SimtOperand.PT, in.operandCount() > 2 && negated(in, 2),
                    profile);
            case VOTE_ANY, VOTE_ALL -> new SimtVoteNode(in, in.opcode() == SimtOpcode.VOTE_ALL, register(in, 0),
                    predicate(in, 1), predicate(in, 2), negated(in, 2), profile);
            case SHFL_UP, SHFL_IDX -> new SimtShuffleNode(in, in.opcode() == SimtOpcode.SHFL_UP, register(in, 0),
                    register(in, 1), source(in, 2), profile);
            case WARPSYNC -> new SimtWarpSyncNode(in, profile);
            case MEMBAR -> new SimtMembarNode(in, profile);
            case NANOSLEEP -> new SimtNanosleepNode(in, source(in, 0), profile);
            case MBARRIER_INIT -> new SimtMbarrierNode(in, SimtMbarrierNode.Operation.INIT, -1, address(in, 0),
                    source(in, 1), profile);
            case MBARRIER_ARRIVE -> new SimtMbarrierNode(in, SimtMbarrierNode.Operation.ARRIVE, register(in, 0),
                    address(in, 1), null, profile);
            case MBARRIER_TRY_WAIT -> new SimtMbarrierNode(in, SimtMbarrierNode.Operation.TRY_WAIT, predicate(in, 0),
                    address(in, 1), source(in, 2), profile);
            case LBACQ -> {
                rejectSynchronizeModifier(in);
                yield new SimtLockBoxNode(in, true, address(in, 0), profile);
            }
            case LBREL -> new SimtLockBoxNode(in, false, address(in, 0), profile);
            case FADD -> alu(in, SimtIntegerOp.FADD, profile.fp32Latency(), 1, 2);
            case FMUL -> alu(in, SimtIntegerOp.FMUL, profile.fp32Latency(), 1, 2);
            case FFMA -> alu(in, SimtIntegerOp.FFMA, profile.fp32Latency(), 1, 2, 3);
            case FMNMX -> alu(in, SimtWideNodes.minimum(in) ? SimtIntegerOp.FMIN : SimtIntegerOp.FMAX,
                    profile.fp32Latency(), 1, 2);
            case FSETP, I2F, F2I, F2F, IDIV, IREM, DADD, DMUL, DFMA, DDIV, DMNMX, DSETP -> SimtWideNodes.create(in, profile);
        };
    }

    static SimtInstructionNode alu(SimtInstruction in, SimtIntegerOp op, int latency, int... sources) {
        SimtOperandNode a = source(in, sources[0]);
        SimtOperandNode b = sources.length > 1 ? source(in, sources[1]) : null;
        SimtOperandNode c = sources.length > 2 ? source(in, sources[2]) : null;
        return SimtIntegerOpNodeGen.create(in, op, register(in, 0), latency, a, b, c);
    }

    private static SimtInstructionNode isetp(SimtInstruction in, SimtProfile profile) {
        SimtIsetpNode.Comparison comparison = null;
        SimtPredicateLogic combine = SimtPredicateLogic.AND;
        for (String modifier : in.modifiers()) {
            switch (modifier) {
                case "EQ", "NE", "LT", "LE", "GT", "GE" -> comparison = SimtIsetpNode.Comparison.valueOf(modifier);
                case "AND", "OR", "XOR" -> combine = SimtPredicateLogic.valueOf(modifier);
                default -> {
                    // U32, S32 and S are read below or by the base node.
                }
            }
        }
        return new SimtIsetpNode(in, comparison, in.has("U32"), combine, predicate(in, 0), predicate(in, 1),
                predicate(in, 4), negated(in, 4), source(in, 2), source(in, 3), profile);
    }

    private static SimtInstructionNode psetp(SimtInstruction in, SimtProfile profile) {
        List<SimtPredicateLogic> logic = in.modifiers().stream().filter(m -> !m.equals(SimtOpcode.SYNC_MODIFIER))
                .map(SimtPredicateLogic::valueOf).toList();
        if (logic.size() > 2) {
            throw new SimUserException(in.position() + ": expected at most two boolean operations after PSETP");
        }
        SimtPredicateLogic second = logic.size() > 1 ? logic.get(1) : SimtPredicateLogic.AND;
        return new SimtPsetpNode(in, logic.getFirst(), second, predicate(in, 0), predicate(in, 1),
                new int[] {predicate(in, 2), predicate(in, 3), predicate(in, 4)},
                new boolean[] {negated(in, 2), negated(in, 3), negated(in, 4)}, profile);
    }

    private static SimtInstructionNode atomic(SimtInstruction in, SimtAtomicOp op, boolean shared,
                                              SimtProfile profile) {
        return new SimtAtomicNode(in, op, shared, register(in, 0), address(in, 1), source(in, 2),
                in.operandCount() > 3 ? source(in, 3) : null, profile);
    }

    private static void rejectSynchronizeModifier(SimtInstruction in) {
        if (in.has(SimtOpcode.SYNC_MODIFIER)) {
            throw new SimUserException(in.position() + ": expected no '.S' on " + in.opcode().mnemonic()
                    + " (it already decides where the lanes go)");
        }
    }

    static SimtOperandNode source(SimtInstruction in, int i) {
        return switch (in.operand(i)) {
            case SimtOperand.Register r -> new SimtRegisterReadNode(r.index(), r.negated());
            case SimtOperand.Immediate imm -> new SimtImmediateNode(imm.value());
            default -> throw new IllegalStateException("operand " + i + " of " + in.text() + " is not a value");
        };
    }

    static int register(SimtInstruction in, int i) {
        return ((SimtOperand.Register) in.operand(i)).index();
    }

    static int predicate(SimtInstruction in, int i) {
        return ((SimtOperand.Predicate) in.operand(i)).index();
    }

    static boolean negated(SimtInstruction in, int i) {
        return ((SimtOperand.Predicate) in.operand(i)).negated();
    }

    static SimtOperand.Address address(SimtInstruction in, int i) {
        return (SimtOperand.Address) in.operand(i);
    }
}
