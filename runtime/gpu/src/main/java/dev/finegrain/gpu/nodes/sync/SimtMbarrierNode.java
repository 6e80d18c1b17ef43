package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.expression.SimtOperandNode;
import dev.finegrain.gpu.nodes.memory.SimtMemoryAccessNode;
import dev.finegrain.gpu.runtime.SimtMbarrierUnit;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * Hopper's shared-memory mbarrier, reduced to its phase protocol: {@code MBARRIER.INIT [a], count} arms it for count
 * arrivals; {@code MBARRIER.ARRIVE Rd, [a]} returns the current phase in Rd and counts one arrival, the last of which
 * completes the phase and re-arms it; {@code MBARRIER.TRY_WAIT Pd, [a], Rphase} sets Pd when the phase in Rphase has
 * completed. Waiting is a loop around TRY_WAIT, as in PTX. Only profiles with {@code feature.mbarrier} have it.
 * Each costs {@code latency.mbarrier} (default {@code latency.shared}), plus what the SM's {@link SimtMbarrierUnit}
 * takes for the distinct barriers its lanes name.
 */
@NodeInfo(shortName = "MBARRIER")
public final class SimtMbarrierNode extends SimtMemoryAccessNode {
    /** Which mbarrier operation. */
    public enum Operation { INIT, ARRIVE, TRY_WAIT }

    private static final int EXPECTED = 0;
    private static final int PENDING = 1;
    private static final int PHASE = 2;

    private final Operation operation;
    private final int destination;
    @Child private SimtOperandNode operand;
    private final boolean hasMbarrier;
    private final int latency;
    /** Whether the profile's mbarrier unit costs anything: only then are the distinct barriers counted. */
    private final boolean countsBarriers;

    public SimtMbarrierNode(SimtInstruction instruction, Operation operation, int destination,
                            SimtOperand.Address address, SimtOperandNode operand, SimtProfile profile) {
        super(instruction, address, profile);
        this.operation = operation;
        this.destination = destination;
        this.operand = operand;
        this.hasMbarrier = profile.hasMbarrier();
        this.latency = profile.mbarrierLatency();
        this.countsBarriers = profile.mbarrierAddressCycles() > 0;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int ready = 0;
        int[] words = warp.laneAddresses();
        int barriers = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            if (!hasMbarrier) {
                throw missingFeature(warp, lane, "mbarrier");
            }
            int word = sharedWord(warp, lane, byteAddress(warp, lane));
            if (step(warp, lane, word)) {
                ready |= 1 << lane;
            }
            if (countsBarriers) {
                barriers = addDistinct(words, barriers, word);
            }
        }
        if (operation == Operation.TRY_WAIT) {
            warp.writePredicate(destination, active, ready);
        }
        fallThrough(warp);
        return countsBarriers ? latency + warp.block().sm().mbarrierUnit().serve(warp.machine().cycle(), barriers) : latency;
    }

    /** Adds {@code word} to the first {@code count} entries of {@code words} unless it is there; the new count. */
    private static int addDistinct(int[] words, int count, int word) {
        for (int i = 0; i < count; i++) {
            if (words[i] == word) {
                return count;
            }
        }
        words[count] = word;
        return count + 1;
    }

    @TruffleBoundary
    private boolean step(SimtWarp warp, int lane, int word) {
        int[] state = warp.block().mbarriers().get(word);
        if (operation == Operation.INIT) {
            int count = operand.read(warp, lane);
            warp.block().mbarriers().put(word, new int[] {count, count, 0});
            warp.machine().noteProgress();
            return false;
        }
        if (state == null) {
            throw fault(warp, lane, "mbarrier at shared 0x" + Integer.toHexString(word * 4) + " was not initialized");
        }
        if (operation == Operation.ARRIVE) {
            warp.writeRegister(lane, destination, state[PHASE]);
            if (--state[PENDING] == 0) {
                state[PHASE]++;
                state[PENDING] = state[EXPECTED];
            }
            warp.machine().noteProgress();
            return false;
        }
        return state[PHASE] != operand.read(warp, lane);
    }
}
