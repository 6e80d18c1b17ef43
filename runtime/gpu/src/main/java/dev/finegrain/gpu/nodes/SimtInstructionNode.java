package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CompilerDirectives.CompilationFinal;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.nodes.Node;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtPairs;
import dev.finegrain.gpu.runtime.SimtWarp;

import java.util.stream.IntStream;

/**
 * One instruction of the kernel as a Truffle node. The kernel's root node calls {@link #executeGroup} for the lanes
 * the warp issues; the node applies the guard predicate, does its work for the lanes whose guard holds, moves the
 * lanes on (or, for control flow, wherever they go), and returns the cycles before the warp may issue again.
 */
public abstract class SimtInstructionNode extends Node {
    protected final SimtInstruction instruction;
    private final int guardIndex;
    private final boolean guardNegated;
    private final boolean synchronizeAfter;
    /** Registers it reads or writes (RZ left out): it may not issue while a result for one is pending. */
    @CompilationFinal(dimensions = 1) private final int[] registersTouched;
    /** Predicates it reads (its guard included) or writes (PT left out), for the scoreboard of a pipelined profile. */
    @CompilationFinal(dimensions = 1) private final int[] predicatesTouched;
    /** Registers and predicates it writes: where {@link #completed} marks its results pending. */
    @CompilationFinal(dimensions = 1) private final int[] registersWritten;
    @CompilationFinal(dimensions = 1) private final int[] predicatesWritten;
    /**
     * 0: the warp waits out the instruction's whole latency before it issues again (a profile that issues one
     * instruction at a time); else the cycles before it issues again while the results are pending on the scoreboard
     * ({@link #pipelineIssue}).
     */
    @CompilationFinal private int pipelinedIssueCycles;

    protected SimtInstructionNode(SimtInstruction instruction) {
        this.instruction = instruction;
        this.guardIndex = instruction.guard() == null ? -1 : instruction.guard().index();
        this.guardNegated = instruction.guard() != null && instruction.guard().negated();
        this.synchronizeAfter = instruction.has(SimtOpcode.SYNC_MODIFIER);
        this.registersTouched = registersTouched(instruction);
        this.predicatesTouched = predicates(instruction, false);
        this.registersWritten = registersWritten(instruction);
        this.predicatesWritten = predicates(instruction, true);
    }

    /** The registers its {@code d} operands name, both halves of a pair, RZ left out. */
    private static int[] registersWritten(SimtInstruction instruction) {
        IntStream.Builder written = IntStream.builder();
        String signature = instruction.opcode().signature().replace("?", "");
        for (int i = 0; i < instruction.operands().size() && i < signature.length(); i++) {
            if (signature.charAt(i) == 'd' && instruction.operand(i) instanceof SimtOperand.Register register
                    && register.index() != SimtOperand.RZ) {
                written.add(register.index());
                if (SimtPairs.isPair(instruction, i)) {
                    written.add(register.index() + 1);
                }
            }
        }
        return written.build().distinct().toArray();
    }

    /** The predicates it writes ({@code p} operands), or every predicate it names with its guard; PT left out. */
    private static int[] predicates(SimtInstruction instruction, boolean writtenOnly) {
        IntStream.Builder named = IntStream.builder();
        String signature = instruction.opcode().signature().replace("?", "");
        if (!writtenOnly && instruction.guard() != null) {
            named.add(instruction.guard().index());
        }
        for (int i = 0; i < instruction.operands().size() && i < signature.length(); i++) {
            if (instruction.operand(i) instanceof SimtOperand.Predicate predicate
                    && (!writtenOnly || signature.charAt(i) == 'p')) {
                named.add(predicate.index());
            }
        }
        return named.build().filter(index -> index != SimtOperand.PT).distinct().toArray();
    }

    /**
     * On a profile that pipelines issue ({@code issue.pipelined}): the warp may issue its next instruction
     * {@code issueCycles} after this one, and only instructions that touch this one's results wait for them. The node
     * factory sets it for instructions that are one instruction of the hardware, whose nodes end in {@link #completed}.
     */
    public final void pipelineIssue(int issueCycles) {
        this.pipelinedIssueCycles = issueCycles;
    }

    /**
     * The cycles before the warp issues again after this instruction, whose results are ready {@code latency} cycles
     * from now: the whole latency, or, where issue is pipelined, the issue interval, with the results pending on the
     * warp's scoreboard until then.
     */
    protected final int completed(SimtWarp warp, int latency) {
        if (pipelinedIssueCycles == 0) {
            return latency;
        }
        warp.resultsPending(registersWritten, predicatesWritten, warp.machine().cycle() + latency);
        return pipelinedIssueCycles;
    }

    /** Every register an operand names, both halves of a 64-bit pair, so a load into either half holds the warp. */
    private static int[] registersTouched(SimtInstruction instruction) {
        IntStream.Builder touched = IntStream.builder();
        for (int i = 0; i < instruction.operands().size(); i++) {
            switch (instruction.operand(i)) {
                case SimtOperand.Register register -> {
                    touched.add(register.index());
                    if (register.index() != SimtOperand.RZ && SimtPairs.isPair(instruction, i)) {
                        touched.add(register.index() + 1);
                    }
                }
                case SimtOperand.Address address -> touched.add(address.baseRegister());
                default -> { }
            }
        }
        return touched.build().filter(register -> register != SimtOperand.RZ).distinct().toArray();
    }

    /**
     * Runs for the warp's current group; returns the cycles until the warp may issue again. When a register or
     * predicate it touches still waits for a result (the scoreboard), it does nothing and the warp retries once the
     * result is ready.
     */
    public final int executeGroup(SimtWarp warp) {
        if (registersTouched.length > 0 || predicatesTouched.length > 0) {
            int stall = warp.scoreboardStall(registersTouched, predicatesTouched);
            if (stall > 0) {
                warp.machine().notIssued(warp);
                return stall;
            }
        }
        int group = warp.divergence().groupMask();
        int active = guardIndex < 0 ? group : group & (guardNegated ? ~warp.predicate(guardIndex)
                : warp.predicate(guardIndex));
        return execute(warp, active);
    }

    /** Does the work for the {@code active} lanes of the current group and moves the group on. */
    protected abstract int execute(SimtWarp warp, int active);

    /** Moves the whole group past this instruction, reconverging first when it carries {@code .S}. */
    protected final void fallThrough(SimtWarp warp) {
        if (synchronizeAfter) {
            warp.divergence().sync(warp.divergence().groupMask());
        } else {
            warp.divergence().advance();
        }
    }

    public SimtInstruction instruction() {
        return instruction;
    }

    /** A fault of the kernel, reported at this instruction with the thread that caused it. */
    @TruffleBoundary
    protected final SimUserException fault(SimtWarp warp, int lane, String what) {
        return new SimUserException(instruction.position() + ": " + instruction.opcode().mnemonic() + ": " + what
                + " (" + warp.thread(lane) + ")");
    }

    /**
     * A fault for a feature the profile lacks; the message is built behind the boundary, so that compiled
     * instructions carry no string building.
     */
    @TruffleBoundary
    protected final SimUserException missingFeature(SimtWarp warp, int lane, String feature) {
        return fault(warp, lane, "the profile " + warp.machine().profile().name() + " has no " + feature);
    }

    @Override
    public String toString() {
        return instruction.describe();
    }
}
