package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code SHFL.UP Rd, Ra, b} and {@code SHFL.IDX Rd, Ra, b}, CUDA's {@code __shfl_up_sync} and {@code __shfl_sync} with
 * every live lane of the warp: each active lane's Rd receives Ra of lane {@code l - b} (UP; a lane below b keeps its
 * own Ra) or of lane {@code b mod 32} (IDX), b read per lane. Every live lane must be at the instruction together
 * ({@link SimtWarpConvergence}); the guard only says which lanes write. It costs {@code latency.shuffle}, on profiles
 * with {@code feature.warpShuffle} (Kepler and later); elsewhere it faults.
 */
@NodeInfo(shortName = "SHFL")
public final class SimtShuffleNode extends SimtInstructionNode {
    private final boolean up;
    private final int destination;
    private final int source;
    @Child private SimtOperandNode lanes;
    private final boolean available;
    private final int latency;

    public SimtShuffleNode(SimtInstruction instruction, boolean up, int destination, int source, SimtOperandNode lanes,
                           SimtProfile profile) {
        super(instruction);
        this.up = up;
        this.destination = destination;
        this.source = source;
        this.lanes = lanes;
        this.available = profile.hasWarpShuffle();
        this.latency = profile.shuffleLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        if (!available) {
            throw missingFeature(warp, Integer.numberOfTrailingZeros(warp.divergence().groupMask()),
                    "warp shuffle (feature.warpShuffle)");
        }
        int wait = SimtWarpConvergence.waitCycles(warp, "SHFL");
        if (wait > 0) {
            return wait;
        }
        // every lane reads Ra as it was before any lane writes Rd: a copy only where Rd is Ra
        int[] values = destination == source ? sources(warp) : null;
        for (int remaining = active; remaining != 0; remaining &= remaining - 1) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            int b = lanes.read(warp, lane);
            int from = up ? (lane - b >= 0 ? lane - b : lane) : b & (SimtWarp.WARP_SIZE - 1);
            warp.writeRegister(lane, destination, values != null ? values[from] : warp.readRegister(from, source));
        }
        fallThrough(warp);
        return completed(warp, latency);
    }

    private int[] sources(SimtWarp warp) {
        int[] values = new int[SimtWarp.WARP_SIZE];
        for (int lane = 0; lane < SimtWarp.WARP_SIZE; lane++) {
            values[lane] = warp.readRegister(lane, source);
        }
        return values;
    }
}
