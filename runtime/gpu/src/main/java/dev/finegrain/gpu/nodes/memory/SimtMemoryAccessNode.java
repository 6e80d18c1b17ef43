package dev.finegrain.gpu.nodes.memory;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtMemory;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtSharedPollPort;
import dev.finegrain.gpu.runtime.SimtSharedPort;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * An instruction with an {@code [Rn+offset]} operand: computes each active lane's byte address and turns a misaligned
 * or out-of-range one into a fault that names the thread; and what an access costs its warp, from the latencies of
 * the profile the kernel was built for.
 */
public abstract class SimtMemoryAccessNode extends SimtInstructionNode {
    private final int baseRegister;
    private final int offset;
    /**
     * One issue slot: a shared-memory access's ({@link SimtProfile#sharedIssueSlotCycles}) or any other's
     * ({@link SimtProfile#issueSlotCycles}).
     */
    protected final int issueCycles;
    private final int sharedLatency;
    private final int sharedReplayCycles;
    /** Whether the SM's shared-memory port limits accesses (a profile constant, so Graal folds the check away). */
    private final boolean hasSharedPort;
    /** Whether polls and stores queue at the SM's shared poll port (a profile constant, as above). */
    private final boolean hasPollPort;

    protected SimtMemoryAccessNode(SimtInstruction instruction, SimtOperand.Address address, SimtProfile profile) {
        super(instruction);
        this.baseRegister = address.baseRegister();
        this.offset = address.offset();
        this.issueCycles = instruction.opcode().sharedPipe() ? profile.sharedIssueSlotCycles() : profile.issueSlotCycles();
        this.sharedLatency = profile.sharedLatency();
        this.sharedReplayCycles = profile.sharedReplayCycles();
        this.hasSharedPort = profile.sharedPortCycles() > 0;
        this.hasPollPort = profile.sharedPollCycles() > 0;
    }

    protected final int byteAddress(SimtWarp warp, int lane) {
        return warp.readRegister(lane, baseRegister) + offset;
    }

    /**
     * Fills {@code addresses} (the warp's {@link SimtWarp#laneAddresses() scratch}) with the active lanes' byte
     * addresses, in lane order; returns how many there are.
     */
    protected final int collectAddresses(SimtWarp warp, int active, int[] addresses) {
        int count = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            addresses[count++] = byteAddress(warp, Integer.numberOfTrailingZeros(lanes));
        }
        return count;
    }

    /** The word index of a lane's shared address, or a fault. */
    protected final int sharedWord(SimtWarp warp, int lane, int byteAddress) {
        SimtMemory shared = warp.block().shared();
        int word = shared.wordIndex(byteAddress);
        if (word < 0) {
            throw outOfRange(warp, lane, "shared", byteAddress, shared);
        }
        warp.block().touchShared(byteAddress);
        return word;
    }

    /** The word index of a lane's global address, or a fault. */
    protected final int globalWord(SimtWarp warp, int lane, int byteAddress) {
        SimtMemory global = warp.machine().global();
        int word = global.wordIndex(byteAddress);
        if (word < 0) {
            throw outOfRange(warp, lane, "global", byteAddress, global);
        }
        return word;
    }

    /** A 64-bit access needs an 8-byte aligned address (its second word is then in range whenever the first is). */
    protected final void checkPairAligned(SimtWarp warp, int lane, int byteAddress) {
        if ((byteAddress & 7) != 0) {
            throw misalignedPair(warp, lane, byteAddress);
        }
    }

    @TruffleBoundary
    private SimUserException misalignedPair(SimtWarp warp, int lane, int byteAddress) {
        return fault(warp, lane, "address 0x" + Integer.toHexString(byteAddress) + " of a 64-bit access is not 8-byte"
                + " aligned");
    }

    /** The fault for a bad address; built behind the boundary, so that compiled accesses carry no string code. */
    @TruffleBoundary
    private SimUserException outOfRange(SimtWarp warp, int lane, String space, int byteAddress, SimtMemory memory) {
        return fault(warp, lane, space + " address 0x" + Integer.toHexString(byteAddress) + ((byteAddress & 3) != 0
                ? " is not 4-byte aligned" : " is outside the " + memory.sizeBytes() + " bytes of " + space
                + " memory"));
    }

    /**
     * A load's issue: the warp goes on after one issue slot, and {@code destination} delivers {@code latency} cycles
     * from now (the scoreboard makes the first reader wait), with {@code destination + 1} when the load is 64-bit. A
     * load with no active lane writes nothing, so it leaves the registers alone and costs only the issue.
     */
    protected final int issueLoad(SimtWarp warp, int destination, boolean wide, int activeLaneCount, int latency) {
        if (activeLaneCount != 0) {
            warp.loadPending(destination, warp.machine().cycle() + latency);
            if (wide) {
                warp.loadPending(destination + 1, warp.machine().cycle() + latency);
            }
        }
        return issueCycles;
    }

    /**
     * Cycles a shared-memory or lock-bit access of {@code passes} passes (1 plus its replays) waits for its SM's
     * shared-memory port, which it then holds ({@link SimtSharedPort}); 0 on a profile without the port.
     */
    protected final int sharedPortWait(SimtWarp warp, int passes) {
        return hasSharedPort ? warp.block().sm().sharedPort().dispatch(warp.machine().cycle(), passes) : 0;
    }

    /**
     * A shared atomic of {@code count} {@code active} lanes on bytes {@code addresses} (in lane order): where its first
     * active lane takes the address it took last time through this instruction, it is a poll for the poll loop's costs
     * ({@code SimtPollLoop}), as a spin-lock's exchange loop is on the GPU; it queues at the poll port as every atomic
     * does. Nothing on a profile without the poll port.
     */
    protected final void noteAtomicPoll(SimtWarp warp, int active, int count, int[] addresses) {
        if (hasPollPort && count != 0) {
            warp.repeatsSharedLoad(instruction.index(), active, addresses);
        }
    }

    /**
     * Cycles a shared load of {@code count} {@code active} lanes reading bytes {@code addresses} (in lane order) waits
     * at its SM's shared poll port ({@link SimtSharedPollPort}): 0 unless it is a poll; 0 on a profile without the port.
     */
    protected final int pollPortLoadWait(SimtWarp warp, int active, int count, int[] addresses) {
        return hasPollPort && count != 0
                ? warp.block().sm().sharedPollPort().load(warp, instruction.index(), active, addresses,
                        warp.machine().cycle())
                : 0;
    }

    /** Cycles a shared store or atomic of {@code count} active lanes waits at its SM's shared poll port, as above. */
    protected final int pollPortStoreWait(SimtWarp warp, int count) {
        return hasPollPort && count != 0 ? warp.block().sm().sharedPollPort().store(warp.machine().cycle()) : 0;
    }

    /** Shared-memory latency plus one replay per conflict beyond the first access. */
    protected final int sharedAccessCycles(int conflictDegree) {
        return sharedLatency + (conflictDegree - 1) * sharedReplayCycles;
    }

    /**
     * What a store costs its warp: GPUs do not wait for a store to reach memory, so the warp pays the issue and the
     * replays of bank conflicts, not the memory latency. The store's effect is visible at issue, as every access is
     * in this sequentially consistent model.
     */
    protected final int storeIssueCycles(int conflictDegree) {
        return issueCycles + (conflictDegree - 1) * sharedReplayCycles;
    }

    /** The most active lanes that share one word: how often an atomic unit must serialize. */
    @TruffleBoundary
    protected static int sameWordDegree(int[] addresses, int count) {
        int worst = count == 0 ? 0 : 1;
        for (int i = 0; i < count; i++) {
            int same = 0;
            for (int j = 0; j < count; j++) {
                if (addresses[j] >>> 2 == addresses[i] >>> 2) {
                    same++;
                }
            }
            worst = Math.max(worst, same);
        }
        return worst;
    }
}
