package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
/**
 * Independent thread scheduling (Volta and later): every lane has its own PC; a warp issues for the lanes that share
 * one PC. It prefers the lowest PC, which lets lanes that fell behind catch up and regroup, but after a group takes a
 * backward branch (a loop, perhaps a spin) it hands the next issue to the group after it, so no group starves the
 * others: the producer lane of a one-warp producer/consumer pair gets to release its lock.
 *
 * <p>SSY and SYNC only regroup: SYNC sends a lane to its innermost SSY target without waiting for anyone.
 */
public final class SimtIndependentThreads implements SimtDivergence {
    private static final int MAX_SYNCHRONIZATION_DEPTH = 64;

    private final int[] lanePc = new int[32];
    private final int[][] synchronizationTargets = new int[32][MAX_SYNCHRONIZATION_DEPTH];
    private final int[] synchronizationDepth = new int[32];
    private int alive;
    private int groupPc;
    private int groupMask;
    private int yieldAfterPc = -1;

    public SimtIndependentThreads(int lanes) {
        alive = lanes;
    }

    @Override
    public boolean selectGroup(int runnable) {
        int candidates = runnable & alive;
        if (candidates == 0) {
            return false;
        }
        int lowest = Integer.MAX_VALUE;
        int after = Integer.MAX_VALUE;
        for (int lanes = candidates; lanes != 0; lanes &= lanes - 1) {
            int pc = lanePc[Integer.numberOfTrailingZeros(lanes)];
            lowest = Math.min(lowest, pc);
            if (pc > yieldAfterPc && yieldAfterPc >= 0) {
                after = Math.min(after, pc);
            }
        }
        groupPc = after != Integer.MAX_VALUE ? after : lowest;
        yieldAfterPc = -1;
        groupMask = 0;
        for (int lanes = candidates; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            if (lanePc[lane] == groupPc) {
                groupMask |= 1 << lane;
            }
        }
        return true;
    }

    @Override
    public int groupPc() {
        return groupPc;
    }

    @Override
    public int groupMask() {
        return groupMask;
    }

    @Override
    @TruffleBoundary
    public void advance() {
        move(groupMask, groupPc + 1);
    }

    @Override
    @TruffleBoundary
    public void jump(int target) {
        move(groupMask, target);
        yieldIfBackward(target);
    }

    @Override
    @TruffleBoundary
    public void branch(int taken, int target, int reconvergence) {
        move(groupMask & ~taken, groupPc + 1);
        move(taken, target);
        yieldIfBackward(target);
    }

    @Override
    @TruffleBoundary
    public void setSynchronizationPoint(int target) {
        for (int lanes = groupMask; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            int[] targets = synchronizationTargets[lane];
            if (synchronizationDepth[lane] == MAX_SYNCHRONIZATION_DEPTH) {
                System.arraycopy(targets, 1, targets, 0, MAX_SYNCHRONIZATION_DEPTH - 1);
                synchronizationDepth[lane]--;
            }
            targets[synchronizationDepth[lane]++] = target;
            lanePc[lane] = groupPc + 1;
        }
    }

    @Override
    @TruffleBoundary
    public void sync(int lanes) {
        move(groupMask & ~lanes, groupPc + 1);
        for (int remaining = lanes; remaining != 0; remaining &= remaining - 1) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            lanePc[lane] = synchronizationDepth[lane] > 0
                    ? synchronizationTargets[lane][--synchronizationDepth[lane]] : groupPc + 1;
        }
    }

    @Override
    @TruffleBoundary
    public void exit(int lanes) {
        alive &= ~lanes;
        move(groupMask & ~lanes, groupPc + 1);
    }

    @Override
    @TruffleBoundary
    public void suspend(int lanes) {
        move(groupMask, groupPc + 1);
    }

    @Override
    public void resume(int lanes) {
        // each lane kept its PC; the warp offers it again
    }

    @Override
    public boolean waitForOthers() {
        yieldAfterPc = groupPc;
        return true;
    }

    @Override
    public boolean canIssue(int runnable) {
        return (runnable & alive) != 0;
    }

    @Override
    public int alive() {
        return alive;
    }

    @Override
    public int pcOf(int lane) {
        return lanePc[lane];
    }

    @Override
    public boolean isMaskedOff(int lane) {
        return false;
    }

    private void move(int lanes, int pc) {
        for (int remaining = lanes; remaining != 0; remaining &= remaining - 1) {
            lanePc[Integer.numberOfTrailingZeros(remaining)] = pc;
        }
    }

    private void yieldIfBackward(int target) {
        if (target <= groupPc) {
            yieldAfterPc = groupPc;
        }
    }
}
