package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.TruffleLanguage;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions' call targets, shared by every kernel that holds the same instruction: a sweep runs one variant
 * at many sizes, and its programs differ only in the few instructions whose immediates hold a size, so sharing lets
 * Graal compile the rest once for the whole sweep instead of once per size (compiling was about a third of a
 * {@code finegrain fidelity} run when every program had its own). An instruction's node is a function of the
 * instruction (index, address, operands and source position included, so faults still name the right line), the
 * branch's reconvergence point in its program, and the profile; the key holds exactly those, with the language the
 * call target belongs to.
 */
public final class SimtInstructionTargets {
    private static final int CAPACITY = 16_384;
    private static final Map<List<Object>, CallTarget> TARGETS = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<List<Object>, CallTarget> eldest) {
                    return size() > CAPACITY;
                }
            });

    private SimtInstructionTargets() {
    }

    /** One call target per instruction of the program, in order, plus the implicit EXIT after the last. */
    public static CallTarget[] of(TruffleLanguage<?> language, SimtProgram program, SimtProfile profile) {
        CallTarget[] targets = new CallTarget[program.size() + 1];
        for (SimtInstruction instruction : program.instructions()) {
            List<Object> key = List.of(language, instruction, program.reconvergenceIndex(instruction.index()), profile);
            targets[instruction.index()] = TARGETS.computeIfAbsent(key, unused -> new SimtInstructionRootNode(language,
                    SimtNodeFactory.create(instruction, program, profile)).getCallTarget());
        }
        SimtInstruction exit = SimtNodeFactory.implicitExit(program);
        targets[program.size()] = TARGETS.computeIfAbsent(List.of(language, exit, -1, profile),
                unused -> new SimtInstructionRootNode(language, SimtNodeFactory.exit(exit, profile)).getCallTarget());
        return targets;
    }
}
