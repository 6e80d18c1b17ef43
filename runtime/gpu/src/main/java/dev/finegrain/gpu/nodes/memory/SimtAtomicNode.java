package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtMemory;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code ATOMS.op} (shared) and {@code ATOM.op} (global): each active lane, in lane order, reads the old value into Rd
 * and writes the updated one, indivisibly. Shared atomics serialize per word in the SM (each lane on the busiest word
 * costs {@code latency.sharedAtomic}); global ones go through the line model of {@code SimtCostModel}. A shared
 * atomic holds the SM's shared-memory port for a pass per serialised lane ({@link dev.finegrain.gpu.runtime.SimtSharedPort},
 * Fermi) or waits for the port as stores do ({@link SimtSharedPollPort}, Hopper). The model's shared atomics do not
 * consult the lock unit.
 */
@NodeInfo(shortName = "ATOM")
public final class SimtAtomicNode extends SimtMemoryAccessNode {
    private final SimtAtomicOp op;
    private final boolean shared;
    private final int destination;
    @Child private SimtOperandNode b;
    @Child private SimtOperandNode c;
    private final int sharedLatency;
    private final int sharedAtomicCycles;

    public SimtAtomicNode(SimtInstruction instruction, SimtAtomicOp op, boolean shared, int destination,
                          SimtOperand.Address address, SimtOperandNode b, SimtOperandNode c, SimtProfile profile) {
        super(instruction, address, profile);
        this.op = op;
        this.shared = shared;
        this.destination = destination;
        this.b = b;
        this.c = c;
        this.sharedLatency = profile.sharedLatency();
        this.sharedAtomicCycles = profile.sharedAtomicCycles();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        SimtMemory memory = shared ? warp.block().shared() : warp.machine().global();
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = shared ? sharedWord(warp, lane, addresses[i]) : globalWord(warp, lane, addresses[i]);
            i++;
            int old = memory.load(word);
            int updated = op.update(old, b.read(warp, lane), c == null ? 0 : c.read(warp, lane));
            if (memory.store(word, updated)) {
                warp.machine().noteProgress();
            }
            warp.writeRegister(lane, destination, old);
        }
        fallThrough(warp);
        warp.machine().counters().atomics += count;
        if (!shared) {
            return SimtGlobalLines.atomicCycles(warp, addresses, count);
        }
        noteAtomicPoll(warp, active, count, addresses);
        int serialized = sameWordDegree(addresses, count);
        int portWait = count == 0 ? 0 : sharedPortWait(warp, serialized);
        return portWait + pollPortStoreWait(warp, count) + sharedLatency + sharedAtomicCycles * serialized;
    }
}
