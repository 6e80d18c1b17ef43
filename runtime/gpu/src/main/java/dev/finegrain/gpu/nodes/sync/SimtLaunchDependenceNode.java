package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code ACQBULK} and {@code PREEXIT}, the two halves of a programmatic dependent launch (profiles with
 * {@code feature.programmaticLaunch}): the wait for the launch before this one, and the word that lets the next one in.
 * The simulator runs one launch at a time, each after the one before it has ended, so the wait finds that launch ended
 * and both cost an issue slot; what overlapping the launches buys is the stream's
 * ({@code launch.programmaticGapCycles}, {@link dev.finegrain.gpu.runtime.SimtLaunchStream}).
 */
@NodeInfo(shortName = "ACQBULK|PREEXIT")
public final class SimtLaunchDependenceNode extends SimtInstructionNode {
    private final boolean available;
    private final int issueCycles;

    public SimtLaunchDependenceNode(SimtInstruction instruction, SimtProfile profile) {
        super(instruction);
        this.available = profile.hasProgrammaticLaunch();
        this.issueCycles = profile.issueSlotCycles();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        if (!available) {
            throw missingFeature(warp, Integer.numberOfTrailingZeros(warp.divergence().groupMask()),
                    (instruction().opcode() == SimtOpcode.ACQBULK ? "ACQBULK" : "PREEXIT")
                            + " (feature.programmaticLaunch)");
        }
        fallThrough(warp);
        return issueCycles;
    }
}
