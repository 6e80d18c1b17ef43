package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtStoreVisibility;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code LDS Rd, [addr]}: loads a shared word per active lane; bank conflicts replay. {@code LDS.64} loads the pair
 * {@code Rd:Rd+1} from an 8-byte aligned address, one pass more than its low words' conflicts need. A word that
 * another thread stored too recently arrives when the store becomes visible ({@link SimtStoreVisibility}); a poll
 * first waits for the SM's shared port ({@link SimtSharedPollPort}).
 */
@NodeInfo(shortName = "LDS")
public final class SimtLdsNode extends SimtMemoryAccessNode {
    private final int destination;
    private final boolean wide;
    /**
     * {@code .STRONG}: the load is a strong (acquire) load through a generic pointer, as CUDA's {@code ld.acquire.cta}
     * of a shared word compiles (SASS {@code LD.E.STRONG.SM}), which costs {@code latency.sharedStrong} where LDS costs
     * {@code latency.shared}: the cycles it adds.
     */
    private final int strongExtra;

    public SimtLdsNode(SimtInstruction instruction, int destination, SimtOperand.Address address, boolean wide,
                       SimtProfile profile) {
        super(instruction, address, profile);
        this.destination = destination;
        this.wide = wide;
        this.strongExtra = instruction.has("STRONG") ? profile.sharedStrongLatency() - profile.sharedLatency() : 0;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        SimtStoreVisibility visibility = warp.block().storeVisibility();
        int queued = pollPortLoadWait(warp, active, count, addresses);
        long cycle = warp.machine().cycle() + queued;
        int unseen = 0;
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i++]);
            if (wide) {
                // a misaligned or out-of-range pair faults here, before its second word is looked up anywhere
                checkPairAligned(warp, lane, addresses[i - 1]);
                warp.writeRegister(lane, destination + 1, warp.block().shared().load(word + 1));
            }
            warp.writeRegister(lane, destination, warp.block().shared().load(word));
            if (visibility != null) {
                int thread = warp.threadIndex(lane);
                unseen = Math.max(unseen, visibility.waitFor(word, thread, cycle));
                if (wide) {
                    unseen = Math.max(unseen, visibility.waitFor(word + 1, thread, cycle));
                }
            }
        }
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        int degree = warp.machine().costs().bankConflictDegree(addresses, count) + (wide ? 1 : 0);
        warp.machine().counters().sharedLoads += count;
        warp.machine().counters().sharedBankConflictReplays += degree - 1;
        int portWait = sharedPortWait(warp, degree);
        return portWait + issueLoad(warp, destination, wide, count, portWait + queued + unseen + sharedAccessCycles(degree) + strongExtra);
    }
}
