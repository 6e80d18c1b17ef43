package dev.finegrain.gpu.nodes.memory;

import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code LDGSTS [shared], [global]}: each active lane copies a word ({@code .64}: an 8-byte aligned pair) from global
 * to shared memory while the warp goes on after its issue ({@code asyncCopy.issueCycles}; CUDA's {@code cp.async}). The copy lands when a load of
 * the same lines would deliver, plus {@code latency.asyncCopy}; {@code DEPBAR} waits for the warp's last copy. The
 * model writes shared memory at issue, so a program that reads the words before its DEPBAR reads the copied value here
 * where the GPU might not: a missing DEPBAR costs only time on the model, and the CUDA run is what checks it.
 */
public final class SimtAsyncCopyNode extends SimtMemoryAccessNode {
    private final int sharedBase;
    private final int sharedOffset;
    private final boolean wide;
    private final boolean available;
    private final int extraLatency;
    private final int copyIssueCycles;

    public SimtAsyncCopyNode(SimtInstruction instruction, SimtOperand.Address shared, SimtOperand.Address global,
                             boolean wide, SimtProfile profile) {
        super(instruction, global, profile);
        this.sharedBase = shared.baseRegister();
        this.sharedOffset = shared.offset();
        this.wide = wide;
        this.available = profile.hasAsyncCopy();
        this.extraLatency = profile.asyncCopyLatency();
        this.copyIssueCycles = profile.asyncCopyIssueSlotCycles();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        if (!available) {
            throw missingFeature(warp, Integer.numberOfTrailingZeros(warp.divergence().groupMask()),
                    "asynchronous copy (feature.asyncCopy)");
        }
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int from = globalWord(warp, lane, addresses[i++]);
            int toByte = warp.readRegister(lane, sharedBase) + sharedOffset;
            int to = sharedWord(warp, lane, toByte);
            if (wide) {
                checkPairAligned(warp, lane, addresses[i - 1]);
                checkPairAligned(warp, lane, toByte);
                if (warp.block().shared().store(to + 1, warp.machine().global().load(from + 1))) {
                    warp.machine().noteProgress();
                }
            }
            if (warp.block().shared().store(to, warp.machine().global().load(from))) {
                warp.machine().noteProgress();
            }
        }
        fallThrough(warp);
        warp.machine().counters().globalLoads += count;
        if (count != 0) {
            warp.asyncCopyPending(warp.machine().cycle() + SimtGlobalLines.loadCycles(warp, addresses, count) + extraLatency);
        }
        return copyIssueCycles;
    }
}
