package dev.finegrain.gpu.isa;

import java.util.List;

/**
 * A parsed kernel: its instructions in source order and, per instruction, where divergent lanes reconverge when the
 * program gives no SSY (the immediate post-dominator, {@link #EXIT_INDEX} when lanes only meet again at exit).
 */
public record SimtProgram(String file, List<SimtInstruction> instructions, int[] immediatePostDominators,
                          int registerCount) {

    /** The reconvergence point of a branch whose paths only meet when the lanes exit. */
    public static final int EXIT_INDEX = -1;

    public SimtInstruction instruction(int index) {
        return instructions.get(index);
    }

    public int size() {
        return instructions.size();
    }

    public int reconvergenceIndex(int branchIndex) {
        return immediatePostDominators[branchIndex];
    }
}
