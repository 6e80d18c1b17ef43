package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.nodes.SimtKernelRootNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The modeled GPU running one kernel launch: places blocks on SMs under the occupancy limits, lets each SM's
 * scheduler issue warps cycle by cycle (skipping cycles in which every warp waits on latency) while the kernel's
 * Truffle {@link SimtKernelRootNode} loops over the cycles and calls each issued instruction (so the machine must be
 * built inside an entered {@link SimtLanguage} context), and stops when every thread exited, when no warp
 * can issue or nothing changed for {@code watchdogCycles} (deadlock), or at {@code maxCycles}.
 */
public final class SimtMachine {
    /** How a run ended. */
    public enum Ending { COMPLETED, DEADLOCK, MAX_CYCLES }

    private final SimtProgram program;
    private final SimtProfile profile;
    private final SimMode mode;
    private final SimtLaunch launch;
    private final SimtCostModel costs;
    private final SimtCounters counters = new SimtCounters();
    private final SimtMemory global;
    private final List<SimtSm> sms = new ArrayList<>();
    /** The SMs' schedulers in SM order: the per-cycle sweep reads them without going through the SMs. */
    private final SimtWarpScheduler[] schedulers;
    /** The SMs' lock boxes, empty when the profile has none. */
    private final SimtLockBox[] lockBoxes;
    private final List<SimtBlock> allBlocks = new ArrayList<>();
    private final CallTarget kernel;
    private final CallTarget[] instructions;
    private final Consumer<SimtBlock> blockInitializer;
    private int nextBlock;
    private int residentBlocks;
    private boolean blockFinished;
    private int smCursor;
    private int slotCursor;
    private boolean issuedThisCycle;
    private Ending ending;
    private long cycle;
    private long lastProgress;

    /**
     * {@code kernel} is the language's {@link SimtKernelRootNode} call target and {@code instructions} the program's
     * instructions' call targets, the implicit EXIT last (both reused across launches, so what Graal compiled for one
     * run serves the next); {@code global} is the grid's global memory; {@code blockInitializer} fills each block's
     * shared window as the block is placed.
     */
    public SimtMachine(SimtProgram program, SimtProfile profile, SimMode mode, SimtLaunch launch, CallTarget kernel,
                       CallTarget[] instructions, SimtMemory global, Consumer<SimtBlock> blockInitializer) {
        this.program = program;
        this.profile = profile;
        this.mode = mode;
        this.launch = launch;
        this.costs = new SimtCostModel(profile);
        this.global = global;
        this.schedulers = new SimtWarpScheduler[profile.smCount()];
        for (int i = 0; i < profile.smCount(); i++) {
            sms.add(new SimtSm(i, profile));
            schedulers[i] = sms.get(i).scheduler();
        }
        this.lockBoxes = profile.hasLockBox() ? sms.stream().map(SimtSm::lockBox).toArray(SimtLockBox[]::new)
                : new SimtLockBox[0];
        this.kernel = kernel;
        this.instructions = instructions;
        this.blockInitializer = blockInitializer;
    }

    public SimtProgram program() {
        return program;
    }

    public SimtProfile profile() {
        return profile;
    }

    public SimMode mode() {
        return mode;
    }

    public SimtLaunch launch() {
        return launch;
    }

    public SimtCostModel costs() {
        return costs;
    }

    public SimtCounters counters() {
        return counters;
    }

    /** The call target of each instruction by index, the implicit EXIT after the last. */
    public CallTarget[] instructions() {
        return instructions;
    }

    public SimtMemory global() {
        return global;
    }

    public List<SimtSm> sms() {
        return sms;
    }

    /** Every block placed so far, in block order once the run has ended. */
    public List<SimtBlock> blocks() {
        return allBlocks;
    }

    public long cycle() {
        return cycle;
    }

    /**
     * Something changed (a register or memory word took a new value, a barrier was reached or opened, a lock-box lock
     * was handed to a waiting lane, a thread exited, a block started): the watchdog starts counting again. Predicates
     * and lock bits do not count: spinning lanes flip them back and forth forever; nor do lanes the lock box
     * suspended, which wait.
     */
    public void noteProgress() {
        lastProgress = cycle;
    }

    /** Runs the launch to its end: the kernel's root node drives {@link #nextIssue} and {@link #finishCycle}. */
    public Ending run() {
        return (Ending) kernel.call(this);
    }

    /** Places the first blocks. */
    @TruffleBoundary
    public void start() {
        placeBlocks();
    }

    /**
     * The next warp to issue in the current cycle, with its group chosen and counted, going through the SMs and each
     * SM's scheduler slots; null when no more warps issue this cycle.
     */
    @TruffleBoundary
    public SimtWarp nextIssue() {
        while (smCursor < schedulers.length) {
            SimtWarpScheduler scheduler = schedulers[smCursor];
            if (slotCursor < profile.schedulersPerSm() && scheduler.wakeAt() <= cycle) {
                SimtWarp warp = scheduler.pick(cycle);
                if (warp != null) {
                    if (!warp.divergence().selectGroup(warp.runnableLanes())) {
                        // under Fermi its stack's top came to wait for lanes the lock box suspended: not runnable
                        scheduler.runnableChanged(warp);
                        continue;
                    }
                    slotCursor++;
                    issuedThisCycle = true;
                    counters.warpInstructions++;
                    counters.threadInstructions += Integer.bitCount(warp.divergence().groupMask());
                    return warp;
                }
            }
            smCursor++;
            slotCursor = 0;
        }
        return null;
    }

    /** The picked warp's instruction waited on the scoreboard instead of issuing: it is not counted. */
    public void notIssued(SimtWarp warp) {
        counters.warpInstructions--;
        counters.threadInstructions -= Integer.bitCount(warp.divergence().groupMask());
    }

    /** The issued instruction keeps its warp busy for {@code latency} cycles. */
    @TruffleBoundary
    public void issued(SimtWarp warp, int latency) {
        warp.block().sm().scheduler().issued(warp, cycle + Math.max(1, latency));
    }

    /**
     * Retires finished blocks (placing waiting ones), moves to the next cycle (or, when every warp waits on latency,
     * to the first cycle in which one is ready), and says whether the run goes on; when not, {@link #ending()} says
     * why.
     */
    @TruffleBoundary
    public boolean finishCycle() {
        retireFinishedBlocks();
        if (issuedThisCycle) {
            cycle++;
        } else {
            long next = Math.min(earliestReady(), nextLockBoxWake());
            if (next == Long.MAX_VALUE) {
                ending = allBlocksDone() ? Ending.COMPLETED : Ending.DEADLOCK;
                settleLockBoxCounters();
                return false;
            }
            cycle = Math.min(Math.max(cycle + 1, next), launch.maxCycles());
        }
        for (SimtLockBox lockBox : lockBoxes) {
            if (lockBox.nextWake() <= cycle) {
                lockBox.wake(cycle);
            }
        }
        smCursor = 0;
        slotCursor = 0;
        issuedThisCycle = false;
        if (cycle - lastProgress > launch.watchdogCycles()) {
            ending = Ending.DEADLOCK;
        } else if (allBlocksDone()) {
            ending = Ending.COMPLETED;
        } else if (cycle >= launch.maxCycles()) {
            ending = Ending.MAX_CYCLES;
        }
        if (ending != null) {
            settleLockBoxCounters();
        }
        return ending == null;
    }

    /** The first cycle at which a lane the lock box granted a lock issues again, or {@code Long.MAX_VALUE}. */
    private long nextLockBoxWake() {
        long next = Long.MAX_VALUE;
        for (SimtLockBox lockBox : lockBoxes) {
            next = Math.min(next, lockBox.nextWake());
        }
        return next;
    }

    /** At the end of a run, counts the cycles of lanes still suspended by the lock box. */
    private void settleLockBoxCounters() {
        if (lockBoxes.length == 0) {
            return;
        }
        for (SimtBlock block : allBlocks) {
            for (SimtWarp warp : block.warps()) {
                for (int lanes = warp.lockBoxLanes(); lanes != 0; lanes &= lanes - 1) {
                    counters.lockBoxSuspendedLaneCycles += cycle - warp.lockBoxSinceOf(Integer.numberOfTrailingZeros(lanes));
                }
            }
        }
    }

    /** How the run ended, once {@link #finishCycle} returned false. */
    public Ending ending() {
        return ending;
    }

    private long earliestReady() {
        long earliest = Long.MAX_VALUE;
        for (SimtSm sm : sms) {
            earliest = Math.min(earliest, sm.scheduler().earliestReady());
        }
        return earliest;
    }

    private boolean allBlocksDone() {
        return nextBlock >= launch.blocks() && residentBlocks == 0;
    }

    /** A block's last thread exited: it retires at the end of this cycle. */
    void blockFinished() {
        blockFinished = true;
    }

    /** Retires blocks whose threads all exited during the current cycle, so they end with it. */
    private void retireFinishedBlocks() {
        if (!blockFinished) {
            return;
        }
        blockFinished = false;
        boolean retired = false;
        for (SimtSm sm : sms) {
            for (SimtBlock block : List.copyOf(sm.blocks())) {
                if (block.isDone()) {
                    block.finish(cycle + 1);
                    sm.retire(block, launch.threadsPerBlock(), launch.sharedBytesPerBlock(), launch.lockBitsPerBlock());
                    residentBlocks--;
                    retired = true;
                }
            }
        }
        if (retired) {
            placeBlocks();
        }
    }

    private void placeBlocks() {
        while (nextBlock < launch.blocks()) {
            SimtSm target = null;
            for (int k = 0; k < sms.size() && target == null; k++) {
                SimtSm sm = sms.get((nextBlock + k) % sms.size());
                if (sm.fits(launch.threadsPerBlock(), launch.sharedBytesPerBlock(), launch.lockBitsPerBlock())) {
                    target = sm;
                }
            }
            if (target == null) {
                return;
            }
            SimtBlock block = target.place(this, nextBlock, launch.threadsPerBlock(), launch.sharedBytesPerBlock(),
                    launch.lockBitsPerBlock(), cycle);
            blockInitializer.accept(block);
            allBlocks.add(block);
            residentBlocks++;
            nextBlock++;
            noteProgress();
        }
    }

    /** Fails fast when one block could never be resident on an empty SM. */
    public static void checkFits(SimtProfile profile, SimtLaunch launch) {
        if (launch.threadsPerBlock() > profile.maxThreadsPerBlock()) {
            throw new SimUserException("a block of " + launch.threadsPerBlock() + " threads exceeds " + profile.name()
                    + "'s limit of " + profile.maxThreadsPerBlock());
        }
        if (launch.threadsPerBlock() > profile.maxThreadsPerSm()
                || launch.sharedBytesPerBlock() > profile.sharedBytesPerSm()
                || launch.lockBitsPerBlock() > profile.lockBits()) {
            throw new SimUserException("one block (" + launch.threadsPerBlock() + " threads, "
                    + launch.sharedBytesPerBlock() + " shared bytes, " + launch.lockBitsPerBlock()
                    + " lock bits) does not fit an SM of " + profile.name() + " (" + profile.maxThreadsPerSm()
                    + " threads, " + profile.sharedBytesPerSm() + " shared bytes, " + profile.lockBits()
                    + " lock bits)");
        }
    }
}
