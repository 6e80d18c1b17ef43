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
 * A language's instruction call targets, shared by every kernel that holds the same instruction: a sweep runs one
 * variant at many sizes, and its programs differ only in the few instructions whose immediates hold a size, so sharing
 * lets Graal compile the rest once for the whole sweep instead of once per size (compiling was about a third of a
 * {@code finegrain fidelity} run when every program had its own). An instruction's node is a function of the
 * instruction (index, address, operands and source position included, so faults still name the right line), the
 * branch's reconvergence point in its program, and the profile; the key holds exactly those. The language owns its
 * cache, so call targets live as long as the language they belong to, and no longer.
 */
public final class SimtInstructionTargets {
    private static final int CAPACITY = 16_384;

    private final TruffleLanguage<?> language;
    private final Map<List<Object>, CallTarget> targets = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<List<Object>, CallTarget> eldest) {
                    return size() > CAPACITY;
                }
            });

    public SimtInstructionTargets(TruffleLanguage<?> language) {
        this.language = language;
    }

    /** One call target per instruction of the program, in order, plus the implicit EXIT after the last. */
    public CallTarget[] of(SimtProgram program, SimtProfile profile) {
        CallTarget[] result = new CallTarget[program.size() + 1];
        for (SimtInstruction instruction : program.instructions()) {
            List<Object> key = List.of(instruction, program.reconvergenceIndex(instruction.index()), profile);
            result[instruction.index()] = targets.computeIfAbsent(key, unused -> new SimtInstructionRootNode(language,
                    SimtNodeFactory.create(instruction, program, profile)).getCallTarget());
        }
        SimtInstruction exit = SimtNodeFactory.implicitExit(program);
        result[program.size()] = targets.computeIfAbsent(List.of(exit, -1, profile),
                unused -> new SimtInstructionRootNode(language, SimtNodeFactory.exit(exit, profile)).getCallTarget());
        return result;
    }
}
