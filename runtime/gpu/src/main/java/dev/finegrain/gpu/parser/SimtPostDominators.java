package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtProgram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/** Immediate post-dominators over the program's control-flow graph, with a virtual exit node. */
final class SimtPostDominators {
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
