package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.isa.SimtOperand;

import java.util.Arrays;

/**
 * Up to 32 lanes that issue together: their registers and predicates, where they are ({@link SimtDivergence}),
 * which of them wait at a barrier, and when the warp may issue again.
 */
public final class SimtWarp {
    public static final int WARP_SIZE = 32;
    private static final int PREDICATES = 7;

    private final SimtMachine machine;
    private final SimtBlock block;
    private final int index;
    private final int firstThread;
    private final int laneCount;
    private final int registerCount;
    private final int[] registers;
    /** Scoreboard: the cycle at which each register's pending result (a load's, or an instruction's on a pipelined profile) is ready (0: nothing pending). */
    private final long[] registerReadyAt;
    /** The same for predicates, written by compares on a profile that pipelines issue. */
    private final long[] predicateReadyAt = new long[PREDICATES];
    private final int[] predicates = new int[PREDICATES];
    private final SimtDivergence divergence;
    private final int[] barrierOfLane = new int[WARP_SIZE];
    private final int[] barrierPcOfLane = new int[WARP_SIZE];
    private final int[] failedLockAddress = new int[WARP_SIZE];
    /** Each lane's name, made once: LDSLK names every lane that takes a lock bit, run after run of a spin loop. */
    private final SimtThread[] threads = new SimtThread[WARP_SIZE];
    /**
     * Scratch of the instruction the warp is executing, here rather than in the instruction's node because a node
     * is shared by every warp of every run of its kernel, on any thread, while a warp issues one instruction at a
     * time on its machine's thread.
     */
    private final int[] laneAddresses = new int[WARP_SIZE];
    private final int[] laneLockBits = new int[WARP_SIZE];
    /**
     * Per shared load instruction (by index), the byte address each lane read last through it in this warp, -1 before
     * it did; made on the first question and per instruction on its first run, so only profiles with a shared poll
     * port pay for it.
     */
    private int[][] lastSharedLoads;
    /** Whether a poll was issued since the warp's last backward branch ({@link SimtPollLoop}). */
    private boolean polledSinceBackBranch;
    private int waitingLanes;
    /** Lanes suspended by the lock box: waiting for a lock, or granted it and waiting out the restart penalty. */
    private int lockBoxLanes;
    /** Per lock-box lane: the LBACQ's instruction index, its block-relative address, since when, when it restarts. */
    private int[] lockBoxPc;
    private int[] lockBoxAddress;
    private long[] lockBoxSince;
    private long[] lockBoxRestart;
    private long readyAt;
    /** When the last of the warp's asynchronous copies (LDGSTS) lands in shared memory; 0 before any. */
    private long asyncCopiesLandAt;
    private int schedulerSlot = -1;

    SimtWarp(SimtMachine machine, SimtBlock block, int index, int firstThread, int laneCount, int registerCount) {
        this.machine = machine;
        this.block = block;
        this.index = index;
        this.firstThread = firstThread;
        this.laneCount = laneCount;
        this.registerCount = registerCount;
        this.registers = new int[WARP_SIZE * registerCount];
        this.registerReadyAt = new long[registerCount];
        int lanes = laneCount == WARP_SIZE ? -1 : (1 << laneCount) - 1;
        this.divergence = machine.mode() == SimMode.FERMI ? new SimtReconvergenceStack(lanes)
                : new SimtIndependentThreads(lanes);
        Arrays.fill(failedLockAddress, -1);
    }

    public SimtMachine machine() {
        return machine;
    }

    /**
     * Whether shared load (or atomic) {@code instruction}, run for the {@code active} lanes reading {@code addresses} (in lane
     * order), is a poll: its first active lane reads the address that lane read the last time it ran this instruction
     * ({@link SimtSharedPollPort}). Remembers every active lane's address either way. Asking the lane rather than the
     * warp finds the poll of a lane waiting in a token chain, whose warp's first waiting lane changes at every hand-off.
     */
    public boolean repeatsSharedLoad(int instruction, int active, int[] addresses) {
        if (lastSharedLoads == null) {
            lastSharedLoads = new int[machine.program().size()][];
        }
        int[] last = lastSharedLoads[instruction];
        if (last == null) {
            // -1 is no address a load can read without a fault, so it marks a lane that has not run it
            last = new int[WARP_SIZE];
            Arrays.fill(last, -1);
            lastSharedLoads[instruction] = last;
        }
        boolean repeated = last[Integer.numberOfTrailingZeros(active)] == addresses[0];
        int i = 0;
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            last[Integer.numberOfTrailingZeros(lanes)] = addresses[i++];
        }
        polledSinceBackBranch |= repeated;
        return repeated;
    }

    /** Whether the warp polled since it last asked (at a backward branch, {@link SimtPollLoop}); forgets it. */
    public boolean takePolledSinceBackBranch() {
        boolean polled = polledSinceBackBranch;
        polledSinceBackBranch = false;
        return polled;
    }

    /** Scratch for the executing instruction: the active lanes' byte addresses, in lane order. */
    public int[] laneAddresses() {
        return laneAddresses;
    }

    /** Scratch for the executing instruction: the lock bits of the active lanes' addresses, in lane order. */
    public int[] laneLockBits() {
        return laneLockBits;
    }

    /** A load into {@code register} delivers at {@code cycle}; instructions that touch it wait until then. */
    public void loadPending(int register, long cycle) {
        if (register != SimtOperand.RZ) {
            registerReadyAt[register] = cycle;
        }
    }

    /** An asynchronous copy of the warp lands at {@code cycle} (DEPBAR waits for the last one). */
    public void asyncCopyPending(long cycle) {
        asyncCopiesLandAt = Math.max(asyncCopiesLandAt, cycle);
    }

    public long asyncCopiesLandAt() {
        return asyncCopiesLandAt;
    }

    /** The results of an instruction, {@code registers} and {@code predicates}, are ready at {@code cycle}. */
    public void resultsPending(int[] registers, int[] predicates, long cycle) {
        for (int register : registers) {
            registerReadyAt[register] = cycle;
        }
        for (int predicate : predicates) {
            predicateReadyAt[predicate] = cycle;
        }
    }

    /**
     * Cycles until every register in {@code registers} and predicate in {@code predicates} has its pending result, 0
     * when none is pending.
     */
    public int scoreboardStall(int[] registers, int[] predicates) {
        long now = machine.cycle();
        long ready = 0;
        for (int register : registers) {
            ready = Math.max(ready, registerReadyAt[register]);
        }
        for (int predicate : predicates) {
            ready = Math.max(ready, predicateReadyAt[predicate]);
        }
        return ready > now ? (int) Math.min(Integer.MAX_VALUE, ready - now) : 0;
    }

    public SimtBlock block() {
        return block;
    }

    public int index() {
        return index;
    }

    public int laneCount() {
        return laneCount;
    }

    public SimtDivergence divergence() {
        return divergence;
    }

    /** Thread index within the block (what SR_TID.X reads). */
    public int threadIndex(int lane) {
        return firstThread + lane;
    }

    @TruffleBoundary
    public SimtThread thread(int lane) {
        if (threads[lane] == null) {
            threads[lane] = new SimtThread(block.id(), index, lane);
        }
        return threads[lane];
    }

    public int readRegister(int lane, int register) {
        return register == SimtOperand.RZ ? 0 : registers[lane * registerCount + register];
    }

    /** Writes a register; a write that changes the value is progress for the deadlock watchdog. */
    public void writeRegister(int lane, int register, int value) {
        if (register == SimtOperand.RZ) {
            return;
        }
        int slot = lane * registerCount + register;
        if (registers[slot] != value) {
            registers[slot] = value;
            machine.noteProgress();
        }
    }

    /** The 64-bit value of the pair {@code Rn:Rn+1} (low word in {@code Rn}); RZ reads as 0. */
    public long readPair(int lane, int register) {
        if (register == SimtOperand.RZ) {
            return 0;
        }
        int slot = lane * registerCount + register;
        return Integer.toUnsignedLong(registers[slot]) | (long) registers[slot + 1] << 32;
    }

    /** Writes the pair {@code Rn:Rn+1}, word by word as {@link #writeRegister} does. */
    public void writePair(int lane, int register, long value) {
        writeRegister(lane, register, (int) value);
        if (register != SimtOperand.RZ) {
            writeRegister(lane, register + 1, (int) (value >>> 32));
        }
    }

    /** The lanes for which predicate {@code index} is true; PT is true for all. */
    public int predicate(int index) {
        return index == SimtOperand.PT ? -1 : predicates[index];
    }

    /**
     * Sets predicate {@code index} of {@code lanes} to the matching bits of {@code values}. Not progress for the
     * watchdog: lanes contending in a spin loop flip their predicates forever (seed 001's Listing 3 in one warp).
     */
    public void writePredicate(int index, int lanes, int values) {
        if (index != SimtOperand.PT) {
            predicates[index] = predicates[index] & ~lanes | values & lanes;
        }
    }

    /**
     * Lanes that could issue now: not exited, not parked at a barrier (under Fermi one parked lane parks all) and not
     * suspended by the lock box (under Fermi, none while the stack's top entry waits for a suspended lane).
     */
    public int runnableLanes() {
        if (machine.mode() == SimMode.FERMI) {
            if (waitingLanes != 0) {
                return 0;
            }
            if (lockBoxLanes == 0) {
                return divergence.alive();
            }
            int runnable = divergence.alive() & ~lockBoxLanes;
            return divergence.canIssue(runnable) ? runnable : 0;
        }
        return divergence.alive() & ~waitingLanes & ~lockBoxLanes;
    }

    public boolean isDone() {
        return divergence.alive() == 0;
    }

    public long readyAt() {
        return readyAt;
    }

    void setReadyAt(long cycle) {
        readyAt = cycle;
    }

    /** Where the SM's scheduler keeps this warp; -1 while it is not resident. */
    int schedulerSlot() {
        return schedulerSlot;
    }

    void setSchedulerSlot(int slot) {
        schedulerSlot = slot;
    }

    public int waitingLanes() {
        return waitingLanes;
    }

    public int barrierOf(int lane) {
        return barrierOfLane[lane];
    }

    /** The instruction index of the barrier a waiting lane arrived at (its PC has already moved past it). */
    public int barrierPcOf(int lane) {
        return barrierPcOfLane[lane];
    }

    void waitAtBarrier(int lanes, int barrier, int instructionIndex) {
        waitingLanes |= lanes;
        for (int remaining = lanes; remaining != 0; remaining &= remaining - 1) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            barrierOfLane[lane] = barrier;
            barrierPcOfLane[lane] = instructionIndex;
        }
        block.sm().scheduler().runnableChanged(this);
    }

    void leaveBarrier(int lanes) {
        waitingLanes &= ~lanes;
        block.sm().scheduler().runnableChanged(this);
        machine.noteProgress();
    }

    /** Lanes suspended by the lock box (waiting for a lock, or granted it and waiting out the restart penalty). */
    public int lockBoxLanes() {
        return lockBoxLanes;
    }

    /**
     * {@code lanes} of the current group, which the lock box queued at their LBACQ ({@code addresses}: the active lanes'
     * block-relative addresses in lane order, {@code active} those lanes), are suspended: they stop issuing and resume at
     * the next instruction once granted ({@link SimtDivergence#suspend}); the rest of the group moves on.
     */
    @TruffleBoundary
    public void suspendOnLockBox(int lanes, int active, int[] addresses, int instructionIndex) {
        if (lockBoxPc == null) {
            lockBoxPc = new int[WARP_SIZE];
            lockBoxAddress = new int[WARP_SIZE];
            lockBoxSince = new long[WARP_SIZE];
            lockBoxRestart = new long[WARP_SIZE];
        }
        int i = 0;
        for (int remaining = active; remaining != 0; remaining &= remaining - 1, i++) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            if ((lanes & 1 << lane) != 0) {
                lockBoxPc[lane] = instructionIndex;
                lockBoxAddress[lane] = addresses[i];
                lockBoxSince[lane] = machine.cycle();
                lockBoxRestart[lane] = -1;
            }
        }
        lockBoxLanes |= lanes;
        divergence.suspend(lanes);
        block.sm().scheduler().runnableChanged(this);
    }

    /** The lock box granted {@code lane} its lock; it issues again at {@code restartCycle}. */
    void lockBoxGranted(int lane, long restartCycle) {
        lockBoxRestart[lane] = restartCycle;
    }

    /** The restart penalty of {@code lanes} has passed: they issue again from the instruction after their LBACQ. */
    void resumeFromLockBox(int lanes) {
        for (int remaining = lanes; remaining != 0; remaining &= remaining - 1) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            machine.counters().lockBoxSuspendedLaneCycles += machine.cycle() - lockBoxSince[lane];
        }
        lockBoxLanes &= ~lanes;
        divergence.resume(lanes);
        block.sm().scheduler().runnableChanged(this);
    }

    /** The instruction index of the LBACQ at which a suspended lane waits. */
    public int lockBoxPcOf(int lane) {
        return lockBoxPc[lane];
    }

    /** The block-relative address of the lock-box lock a suspended lane waits for. */
    public int lockBoxAddressOf(int lane) {
        return lockBoxAddress[lane];
    }

    /** The cycle at which a suspended lane was suspended. */
    public long lockBoxSinceOf(int lane) {
        return lockBoxSince[lane];
    }

    /** The cycle at which a granted lane issues again; -1 while it waits for the lock. */
    public long lockBoxRestartOf(int lane) {
        return lockBoxRestart[lane];
    }

    /** Remembers the block-relative address of a lane's failed LDSLK (or forgets it with -1), for reports. */
    public void recordLockWait(int lane, int byteAddress) {
        failedLockAddress[lane] = byteAddress;
    }

    public int failedLockAddress(int lane) {
        return failedLockAddress[lane];
    }

    /** {@code lanes} of the current group exit; the others move on. */
    @TruffleBoundary
    public void exit(int lanes) {
        int exiting = lanes & divergence.alive();
        divergence.exit(lanes);
        block.sm().scheduler().runnableChanged(this);
        if (exiting != 0) {
            machine.noteProgress();
            block.threadsExited(Integer.bitCount(exiting));
        }
    }
}
