package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtBarrierUnit;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * What BAR.SYNC, BAR.ARRIVE and BAR.RED.POPC share: the barrier id and optional thread count, read from the first
 * active lane (they must be warp-uniform), checked, and handed to the block's {@link SimtBarrierUnit}. One with a
 * thread count (a named barrier between producer and consumer warps) costs {@code latency.namedBarrier}, the block's
 * barrier {@code latency.barrier}. The lanes move
 * past the barrier first, so they continue after it once it opens.
 */
abstract class SimtBarrierNode extends SimtInstructionNode {
    @Child private SimtOperandNode id;
    @Child private SimtOperandNode count;
    private final int latency;

    SimtBarrierNode(SimtInstruction instruction, SimtOperandNode id, SimtOperandNode count, SimtProfile profile) {
        super(instruction);
        this.id = id;
        this.count = count;
        // a barrier with a thread count is a named one, handed between warps; without, it is the block's barrier
        this.latency = count == null ? profile.barrierLatency() : profile.namedBarrierLatency();
    }

    protected final int arrive(SimtWarp warp, int active, boolean wait, int reductionRegister, int reductionLanes) {
        fallThrough(warp);
        if (active != 0) {
            int lane = Integer.numberOfTrailingZeros(active);
            int barrier = id.read(warp, lane);
            int threads = count == null ? 0 : count.read(warp, lane);
            check(warp, lane, barrier, threads);
            warp.block().barriers().arrive(warp, instruction.index(), active, barrier, threads, wait,
                    reductionRegister, reductionLanes);
        }
        return latency;
    }

    @TruffleBoundary
    private void check(SimtWarp warp, int lane, int barrier, int threads) {
        if (barrier < 0 || barrier >= SimtBarrierUnit.BARRIERS) {
            throw fault(warp, lane, "barrier " + barrier + " does not exist (0 to " + (SimtBarrierUnit.BARRIERS - 1)
                    + ")");
        }
        if (threads < 0 || threads % SimtWarp.WARP_SIZE != 0) {
            throw fault(warp, lane, "barrier thread count " + threads + " is not a multiple of the warp size");
        }
    }
}
