package dev.finegrain.gpu.runtime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.SimUserException;

import java.util.Arrays;

/**
 * Fermi's SIMT reconvergence stack. Each entry is a PC, a lane mask, and the PC at which the entry is popped
 * (where its lanes reconverge with the entry below). The top entry issues.
 *
 * <p>A divergent branch turns the current entry into a waiting entry parked at the branch's reconvergence point (its
 * immediate post-dominator) and pushes one entry per path, taken path on top. SSY parks the current entry at the SSY
 * target and pushes a marked entry for the region; SYNC takes its lanes out of every entry down to the innermost
 * marked one, so they continue with the parked entry at the SSY target once the others have arrived too. Because
 * masked-off lanes only move when the lanes above them reconverge, a lane spinning on a lock held by one of them
 * spins forever: seed 001's SIMD deadlock.
 *
 * <p>Lanes the lock box suspends leave the top entry (the rest go on, as after a divergent branch) and are parked
 * outside the stack with where they resume (the instruction after their LBACQ) and the top entry's reconvergence point
 * and SSY mark. The entries below still hold them, so an entry waiting for them at a reconvergence point cannot
 * issue until they are back. Resumed lanes are pushed as a path of their own that pops at that reconvergence point,
 * exactly like the path of a divergent branch.
 */
public final class SimtReconvergenceStack implements SimtDivergence {
    private static final int NEVER = -3;
    private static final int NO_RECONVERGENCE = -2;
    private static final int MAX_DEPTH = 4096;

    private int[] pc = new int[16];
    private int[] mask = new int[16];
    private int[] reconvergePc = new int[16];
    private boolean[] synchronizationRegion = new boolean[16];
    private int size;
    private int alive;
    /** Lanes suspended by the lock box, and per lane where it resumes, its entry's reconvergence PC and SSY mark. */
    private int parked;
    private final int[] parkedPc = new int[32];
    private final int[] parkedReconvergence = new int[32];
    private final boolean[] parkedRegion = new boolean[32];

    public SimtReconvergenceStack(int lanes) {
        alive = lanes;
        push(0, lanes, NO_RECONVERGENCE, false);
    }

    @Override
    public boolean selectGroup(int runnable) {
        return size > 0 && (mask[size - 1] & alive) != 0 && (mask[size - 1] & alive & ~runnable) == 0;
    }

    @Override
    public int groupPc() {
        return pc[size - 1];
    }

    @Override
    public int groupMask() {
        return mask[size - 1] & alive;
    }

    @Override
    public void advance() {
        pc[size - 1]++;
        popReconverged();
    }

    @Override
    public void jump(int target) {
        pc[size - 1] = target;
        popReconverged();
    }

    @Override
    @TruffleBoundary
    public void branch(int taken, int target, int reconvergence) {
        int top = size - 1;
        int notTaken = groupMask() & ~taken;
        int next = pc[top] + 1;
        int meet = reconvergence < 0 ? NEVER : reconvergence;
        pc[top] = meet;
        push(next, notTaken, meet, false);
        push(target, taken, meet, false);
        popReconverged();
    }

    @Override
    @TruffleBoundary
    public void setSynchronizationPoint(int target) {
        int top = size - 1;
        int next = pc[top] + 1;
        int lanes = mask[top];
        pc[top] = target;
        push(next, lanes, target, true);
        popReconverged();
    }

    @Override
    @TruffleBoundary
    public void sync(int lanes) {
        pc[size - 1]++;
        int region = size - 1;
        while (region >= 0 && !synchronizationRegion[region]) {
            region--;
        }
        if (region >= 0) {
            for (int i = size - 1; i >= region; i--) {
                mask[i] &= ~lanes;
            }
        }
        compact();
    }

    @Override
    @TruffleBoundary
    public void exit(int lanes) {
        alive &= ~lanes;
        if ((groupMask()) != 0) {
            pc[size - 1]++;
        }
        compact();
    }

    @Override
    @TruffleBoundary
    public void suspend(int lanes) {
        int top = size - 1;
        int next = pc[top] + 1;
        for (int remaining = lanes; remaining != 0; remaining &= remaining - 1) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            parkedPc[lane] = next;
            parkedReconvergence[lane] = reconvergePc[top];
            parkedRegion[lane] = synchronizationRegion[top];
        }
        parked |= lanes;
        mask[top] &= ~lanes;
        pc[top] = next;
        compact();
    }

    @Override
    @TruffleBoundary
    public void resume(int lanes) {
        parked &= ~lanes;
        int remaining = lanes & alive;
        while (remaining != 0) {
            int lane = Integer.numberOfTrailingZeros(remaining);
            int path = 0;
            for (int others = remaining; others != 0; others &= others - 1) {
                int other = Integer.numberOfTrailingZeros(others);
                if (parkedPc[other] == parkedPc[lane] && parkedReconvergence[other] == parkedReconvergence[lane]
                        && parkedRegion[other] == parkedRegion[lane]) {
                    path |= 1 << other;
                }
            }
            push(parkedPc[lane], path, parkedReconvergence[lane], parkedRegion[lane]);
            popReconverged();
            remaining &= ~path;
        }
    }

    @Override
    public boolean canIssue(int runnable) {
        return selectGroup(runnable);
    }

    @Override
    public int alive() {
        return alive;
    }

    @Override
    public int pcOf(int lane) {
        if ((parked & 1 << lane) != 0) {
            return parkedPc[lane];
        }
        for (int i = size - 1; i >= 0; i--) {
            if ((mask[i] & (1 << lane)) != 0) {
                return pc[i];
            }
        }
        return -1;
    }

    @Override
    public boolean isMaskedOff(int lane) {
        if (size == 0 || (alive & (1 << lane)) == 0 || (parked & 1 << lane) != 0) {
            return false;
        }
        // in the top entry, it still waits when that entry waits for lanes the lock box suspended
        return (mask[size - 1] & (1 << lane)) == 0 || (mask[size - 1] & parked) != 0;
    }

    private void push(int entryPc, int lanes, int popAt, boolean region) {
        if (size == MAX_DEPTH) {
            throw new SimUserException("reconvergence stack overflow (" + MAX_DEPTH
                    + " entries): SSY executed in a loop without SYNC?");
        }
        if (size == pc.length) {
            int grown = size * 2;
            pc = Arrays.copyOf(pc, grown);
            mask = Arrays.copyOf(mask, grown);
            reconvergePc = Arrays.copyOf(reconvergePc, grown);
            synchronizationRegion = Arrays.copyOf(synchronizationRegion, grown);
        }
        pc[size] = entryPc;
        mask[size] = lanes;
        reconvergePc[size] = popAt;
        synchronizationRegion[size] = region;
        size++;
    }

    private void compact() {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if ((mask[i] & alive) != 0) {
                pc[kept] = pc[i];
                mask[kept] = mask[i] & alive;
                reconvergePc[kept] = reconvergePc[i];
                synchronizationRegion[kept] = synchronizationRegion[i];
                kept++;
            }
        }
        size = kept;
        popReconverged();
    }

    private void popReconverged() {
        while (size > 0 && pc[size - 1] == reconvergePc[size - 1]) {
            size--;
        }
    }
}
