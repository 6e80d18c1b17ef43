package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code NANOSLEEP b}: the warp sleeps for about b nanoseconds of the profile's clock (for back-off loops), as the
 * profile's GPU rounds the request ({@link SimtProfile#sleepNanoseconds}).
 */
@NodeInfo(shortName = "NANOSLEEP")
public final class SimtNanosleepNode extends SimtInstructionNode {
    @Child private SimtOperandNode duration;
    private final SimtProfile profile;
    private final int issueCycles;
    private final boolean hasNanosleep;

    public SimtNanosleepNode(SimtInstruction instruction, SimtOperandNode duration, SimtProfile profile) {
        super(instruction);
        this.duration = duration;
        this.profile = profile;
        this.issueCycles = profile.issueSlotCycles();
        this.hasNanosleep = profile.hasNanosleep();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        if (active == 0) {
            fallThrough(warp);
            return issueCycles;
        }
        int lane = Integer.numberOfTrailingZeros(active);
        if (!hasNanosleep) {
            throw missingFeature(warp, lane, "NANOSLEEP");
        }
        long nanoseconds = Integer.toUnsignedLong(duration.read(warp, lane));
        fallThrough(warp);
        warp.machine().counters().sleeps++;
        return sleepCycles(nanoseconds);
    }

    @TruffleBoundary
    private int sleepCycles(long nanoseconds) {
        return (int) Math.min(Integer.MAX_VALUE, profile.cyclesFor(profile.sleepNanoseconds(nanoseconds)));
    }
}
