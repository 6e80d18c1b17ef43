package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtReadOnlyCache;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code LDG Rd, [addr]} (also {@code LD}): a volatile global load per active lane, one access per distinct line.
 * {@code LDG.64} loads the pair {@code Rd:Rd+1} from an 8-byte aligned address (one line, as the low word's).
 * {@code LDG.CONSTANT} (CUDA's {@code __ldg}) goes through the SM's read-only cache where the profile has one
 * ({@link SimtReadOnlyCache}): served at {@code latency.readOnlyHit} when it holds every line the lanes read.
 */
@NodeInfo(shortName = "LDG")
public final class SimtGlobalLoadNode extends SimtMemoryAccessNode {
    private final int destination;
    private final boolean wide;
    private final boolean readOnly;
    private final int readOnlyHitLatency;

    public SimtGlobalLoadNode(SimtInstruction instruction, int destination, SimtOperand.Address address, boolean wide,
                              SimtProfile profile) {
        super(instruction, address, profile);
        this.destination = destination;
        this.wide = wide;
        this.readOnly = instruction.has("CONSTANT") && profile.readOnlyCacheLines() > 0;
        this.readOnlyHitLatency = profile.readOnlyHitLatency();
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int[] addresses = warp.laneAddresses();
        int count = collectAddresses(warp, active, addresses);
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int word = globalWord(warp, lane, addresses[i++]);
            if (wide) {
                checkPairAligned(warp, lane, addresses[i - 1]);
                warp.writeRegister(lane, destination + 1, warp.machine().global().load(word + 1));
            }
            warp.writeRegister(lane, destination, warp.machine().global().load(word));
        }
        fallThrough(warp);
        warp.machine().counters().globalLoads += count;
        if (readOnly && count != 0 && warp.block().sm().readOnlyCache().access(addresses, count)) {
            return issueLoad(warp, destination, wide, count, readOnlyHitLatency);
        }
        return issueLoad(warp, destination, wide, count, SimtGlobalLines.loadCycles(warp, addresses, count));
    }
}
