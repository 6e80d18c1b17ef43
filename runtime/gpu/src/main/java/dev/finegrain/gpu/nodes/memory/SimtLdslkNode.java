package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtLockUnit;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtStoreVisibility;
import dev.finegrain.gpu.runtime.SimtThread;
import dev.finegrain.gpu.runtime.SimtWarp;

import java.util.Arrays;

/**
 * {@code LDSLK Pd, Rd, [addr]} (seed 001 §3.2): per active lane, in lane order, loads the shared word into Rd and
 * reads the lock bit of the address into Pd, clearing it. Pd true means this lane took the lock; a bit already
 * cleared (by anyone, through any aliased address) leaves Pd false. Lanes of one warp that hit the same bit conflict:
 * the first takes it, the rest fail, and each extra lane replays. A word another thread stored too recently arrives
 * when the store becomes visible ({@link SimtStoreVisibility}), and a poll waits for the SM's shared port
 * ({@link SimtSharedPollPort}), as for LDS.
 */
@NodeInfo(shortName = "LDSLK")
public final class SimtLdslkNode extends SimtMemoryAccessNode {
    private final int predicate;
    private final int destination;
    private final boolean hasLockUnit;

    public SimtLdslkNode(SimtInstruction instruction, int predicate, int destination, SimtOperand.Address address,
                         SimtProfile profile) {
        super(instruction, address, profile);
        this.predicate = predicate;
        this.destination = destination;
        this.hasLockUnit = profile.lockBits() > 0;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        SimtLockUnit locks = warp.block().sm().lockUnit();
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int[] bits = warp.laneLockBits();
        int acquired = 0;
        SimtStoreVisibility visibility = warp.block().storeVisibility();
        int queued = pollPortLoadWait(warp, active, count, addresses);
        long cycle = warp.machine().cycle() + queued;
        int unseen = 0;
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1, i++) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = sharedWord(warp, lane, addresses[i]);
            if (!hasLockUnit) {
                throw missingFeature(warp, lane, "lock unit");
            }
            int bit = locks.lockAddress(warp.block().sharedBase() + addresses[i]);
            bits[i] = bit;
            if (!locks.isTaken(bit)) {
                locks.take(bit, warp.thread(lane), addresses[i]);
                acquired |= 1 << lane;
                warp.block().sm().noteLockBitTaken(bit);
                warp.recordLockWait(lane, -1);
            } else {
                warp.recordLockWait(lane, addresses[i]);
                SimtThread holder = locks.holder(bit);
                if (holder != null && holder.block() != warp.block().id()) {
                    // another block's word holds this bit: shared memory is per block, so only aliasing gets here
                    warp.machine().counters().lockBitAliases++;
                }
            }
            if (visibility != null) {
                unseen = Math.max(unseen, visibility.waitFor(word, warp.threadIndex(lane), cycle));
            }
            warp.writeRegister(lane, destination, warp.block().shared().load(word));
        }
        warp.writePredicate(predicate, active, acquired);
        fallThrough(warp);
        if (count == 0) {
            return issueCycles;
        }
        var counters = warp.machine().counters();
        counters.lockAttempts += count;
        counters.lockFailures += count - Integer.bitCount(acquired);
        counters.sharedLoads += count;
        int bankPasses = warp.machine().costs().bankConflictDegree(addresses, count);
        int degree = Math.max(bankPasses, sameBitDegree(bits, count));
        counters.sharedBankConflictReplays += degree - 1;
        // lanes on one bit through one word are one pass of the banks (a broadcast); the lock unit answers them beside
        // the data access (seed 001 section 3.1), so their serialisation costs this warp, not the SM's port
        return sharedPortWait(warp, bankPasses) + queued + unseen + sharedAccessCycles(degree);
    }

    /**
     * The most active lanes on one lock bit: 1 when the bits rise lane by lane (the usual case: lanes lock their
     * own words in order), else the longest run of equal bits once sorted. Comparing every pair of lanes cost a
     * quadratic scan per LDSLK.
     */
    @TruffleBoundary
    private static int sameBitDegree(int[] bits, int count) {
        int rising = 1;
        while (rising < count && bits[rising] > bits[rising - 1]) {
            rising++;
        }
        if (rising >= count) {
            return 1;
        }
        Arrays.sort(bits, 0, count);
        int worst = 1;
        int run = 1;
        for (int i = 1; i < count; i++) {
            run = bits[i] == bits[i - 1] ? run + 1 : 1;
            worst = Math.max(worst, run);
        }
        return worst;
    }
}
