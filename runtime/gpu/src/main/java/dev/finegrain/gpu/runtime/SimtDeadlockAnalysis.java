package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.DeadlockKind;
import dev.finegrain.gpu.DeadlockReport;
import dev.finegrain.gpu.DeadlockReport.BlockedLanes;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.nodes.SimtNodeFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Explains a deadlock: for every live lane of every resident warp, where it is and what it waits for, classified
 * as in {@link DeadlockKind}. A lane that last failed an LDSLK waits for that lock bit; the lock unit's record of who
 * took the bit, and through which address, tells alias (different address), SIMD (a masked-off lane of the same
 * warp) and plain lock deadlocks apart. A lane the lock box suspended waits for its lock-box lock; the lock box's
 * record of the holder says why nobody will release it.
 */
public final class SimtDeadlockAnalysis {
    private SimtDeadlockAnalysis() {
    }

    public static DeadlockReport analyze(SimtMachine machine) {
        Map<String, int[]> groups = new LinkedHashMap<>();
        Map<String, BlockedLanes> templates = new LinkedHashMap<>();
        for (SimtBlock block : machine.blocks()) {
            if (block.isDone()) {
                continue;
            }
            for (SimtWarp warp : block.warps()) {
                for (int lanes = warp.divergence().alive(); lanes != 0; lanes &= lanes - 1) {
                    int lane = Integer.numberOfTrailingZeros(lanes);
                    BlockedLanes entry = explain(machine, warp, lane);
                    String key = block.id() + "/" + warp.index() + "/" + entry.pc() + "/" + entry.kind() + "/"
                            + entry.detail();
                    templates.putIfAbsent(key, entry);
                    groups.computeIfAbsent(key, unused -> new int[1])[0] |= 1 << lane;
                }
            }
        }
        List<BlockedLanes> entries = new ArrayList<>();
        for (Map.Entry<String, BlockedLanes> e : templates.entrySet()) {
            BlockedLanes t = e.getValue();
            entries.add(new BlockedLanes(t.block(), t.warp(), laneRanges(groups.get(e.getKey())[0]), t.pc(),
                    t.instruction(), t.kind(), t.detail()));
        }
        DeadlockKind overall = entries.stream().map(BlockedLanes::kind).min(Comparator.naturalOrder())
                .orElse(DeadlockKind.SPIN);
        return new DeadlockReport(overall, machine.cycle(), entries);
    }

    private static BlockedLanes explain(SimtMachine machine, SimtWarp warp, int lane) {
        SimtProgram program = machine.program();
        boolean atBarrier = (warp.waitingLanes() & 1 << lane) != 0;
        boolean suspended = (warp.lockBoxLanes() & 1 << lane) != 0;
        int pc = atBarrier ? warp.barrierPcOf(lane) : suspended ? warp.lockBoxPcOf(lane) : warp.divergence().pcOf(lane);
        SimtInstruction at = pc < program.size() ? program.instruction(pc) : SimtNodeFactory.implicitExit(program);
        DeadlockKind kind;
        String detail;
        if (atBarrier) {
            kind = DeadlockKind.BARRIER;
            detail = "waits at " + warp.block().barriers().describe(warp.barrierOf(lane));
        } else if (suspended) {
            return lockBoxWait(machine, warp, lane, at);
        } else if (warp.failedLockAddress(lane) >= 0) {
            return lockWait(machine, warp, lane, at);
        } else if (warp.divergence().isMaskedOff(lane)) {
            kind = DeadlockKind.RECONVERGENCE;
            detail = "masked off, waits at the reconvergence point for the other lanes of its warp"
                    + heldLocks(warp, lane);
        } else if (maskedOff(warp) != 0) {
            kind = DeadlockKind.SIMD;
            detail = "issues but changes nothing, while lanes " + laneRanges(maskedOff(warp))
                    + " of its own warp are masked off, waiting for it at a reconvergence point" + heldLocks(warp, lane);
        } else {
            kind = DeadlockKind.SPIN;
            detail = "issues but changes nothing" + heldLocks(warp, lane);
        }
        return new BlockedLanes(warp.block().id(), warp.index(), "", at.address(), at.text(), kind, detail);
    }

    private static BlockedLanes lockWait(SimtMachine machine, SimtWarp warp, int lane, SimtInstruction at) {
        SimtLockUnit locks = warp.block().sm().lockUnit();
        int address = warp.failedLockAddress(lane);
        int bit = locks.lockAddress(warp.block().sharedBase() + address);
        SimtThread holder = locks.holder(bit);
        String wanted = String.format("waits for lock bit %d of shared [0x%x]", bit, address);
        DeadlockKind kind;
        String detail;
        if (holder == null && maskedOff(warp) != 0) {
            kind = DeadlockKind.SIMD;
            detail = wanted + ", which is free now, while lanes " + laneRanges(maskedOff(warp)) + " of its warp are"
                    + " masked off, waiting for it at a reconvergence point";
        } else if (holder == null) {
            kind = DeadlockKind.SPIN;
            detail = wanted + ", which is free now";
        } else {
            int heldThrough = locks.holderAddress(bit);
            SimtWarp holderWarp = warpOf(machine, holder);
            String who = holder.equals(warp.thread(lane)) ? "itself" : holder.toString();
            detail = wanted + ", held by " + who + " through [0x" + Integer.toHexString(heldThrough) + "]";
            if (heldThrough != address || holder.block() != warp.block().id()) {
                kind = DeadlockKind.ALIAS;
            } else if (holderWarp == warp && warp.divergence().isMaskedOff(holder.lane())) {
                kind = DeadlockKind.SIMD;
                detail += ", masked off by its own warp's reconvergence";
            } else if (holderWarp == warp && maskedOff(warp) != 0) {
                kind = DeadlockKind.SIMD;
                detail += ", while lanes " + laneRanges(maskedOff(warp)) + " of their warp are masked off, waiting for"
                        + " them at a reconvergence point";
            } else {
                kind = DeadlockKind.LOCK;
                detail += holderWarp == null || (holderWarp.divergence().alive() & 1 << holder.lane()) == 0
                        ? ", which has exited" : "";
            }
            if (holderWarp != null && (holderWarp.waitingLanes() & 1 << holder.lane()) != 0) {
                detail += ", which waits at " + holderWarp.block().barriers().describe(
                        holderWarp.barrierOf(holder.lane()));
            }
        }
        return new BlockedLanes(warp.block().id(), warp.index(), "", at.address(), at.text(), kind, detail);
    }

    private static BlockedLanes lockBoxWait(SimtMachine machine, SimtWarp warp, int lane, SimtInstruction at) {
        SimtLockBox lockBox = warp.block().sm().lockBox();
        int address = warp.lockBoxAddressOf(lane);
        String lock = String.format("the lock-box lock of shared [0x%x]", address);
        if (warp.lockBoxRestartOf(lane) >= 0) {
            // stopped (watchdog or cycle limit) during the restart penalty of a grant: not waiting on anyone
            return new BlockedLanes(warp.block().id(), warp.index(), "", at.address(), at.text(), DeadlockKind.SPIN,
                    "was granted " + lock + ", issues again at cycle " + warp.lockBoxRestartOf(lane));
        }
        SimtLockBox.LockState state = lockBox.state(warp.block(), address);
        String detail = "suspended on " + lock + " (" + state.waiters() + (state.waiters() == 1 ? " lane" : " lanes")
                + " queued)";
        SimtThread holder = state.holder();
        if (holder == null) {
            detail += ", held since the launch: no LBREL released it";
        } else if (holder.equals(warp.thread(lane))) {
            detail += ", held by itself";
        } else {
            detail += ", held by " + holder;
            SimtWarp holderWarp = warpOf(machine, holder);
            int bit = 1 << holder.lane();
            if (holderWarp == null || (holderWarp.divergence().alive() & bit) == 0) {
                detail += ", which has exited";
            } else if ((holderWarp.lockBoxLanes() & bit) != 0) {
                detail += String.format(", which is suspended on the lock-box lock of shared [0x%x]",
                        holderWarp.lockBoxAddressOf(holder.lane()));
            } else if ((holderWarp.waitingLanes() & bit) != 0) {
                detail += ", which waits at " + holderWarp.block().barriers().describe(holderWarp.barrierOf(holder.lane()));
            } else if (holderWarp.divergence().isMaskedOff(holder.lane())) {
                detail += ", which is masked off, waiting at a reconvergence point for the lanes of its warp that the"
                        + " lock box suspended";
            } else if (holderWarp.failedLockAddress(holder.lane()) >= 0) {
                detail += String.format(", which spins on the lock bit of shared [0x%x]",
                        holderWarp.failedLockAddress(holder.lane()));
            }
        }
        return new BlockedLanes(warp.block().id(), warp.index(), "", at.address(), at.text(), DeadlockKind.LOCK_BOX,
                detail + heldLocks(warp, lane));
    }

    /** Lanes of the warp parked by Fermi's reconvergence stack (none under independent thread scheduling). */
    private static int maskedOff(SimtWarp warp) {
        int parked = 0;
        for (int lanes = warp.divergence().alive(); lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            if (warp.divergence().isMaskedOff(lane)) {
                parked |= 1 << lane;
            }
        }
        return parked;
    }

    private static String heldLocks(SimtWarp warp, int lane) {
        SimtLockUnit locks = warp.block().sm().lockUnit();
        SimtThread self = warp.thread(lane);
        List<String> held = new ArrayList<>();
        for (int bit = 0; bit < machineLockBits(warp); bit++) {
            if (self.equals(locks.holder(bit))) {
                held.add(bit + " ([0x" + Integer.toHexString(locks.holderAddress(bit)) + "])");
            }
        }
        String text = held.isEmpty() ? "" : "; holds lock bit " + String.join(", ", held);
        SimtLockBox lockBox = warp.block().sm().lockBox();
        if (lockBox != null) {
            List<String> boxes = lockBox.heldBy(warp.block(), self).stream()
                    .map(address -> "[0x" + Integer.toHexString(address) + "]").toList();
            if (!boxes.isEmpty()) {
                text += "; holds the lock-box lock" + (boxes.size() > 1 ? "s of shared " : " of shared ")
                        + String.join(", ", boxes);
            }
        }
        return text;
    }

    private static int machineLockBits(SimtWarp warp) {
        return warp.machine().profile().lockBits();
    }

    private static SimtWarp warpOf(SimtMachine machine, SimtThread thread) {
        for (SimtBlock block : machine.blocks()) {
            if (block.id() == thread.block() && thread.warp() < block.warps().size()) {
                return block.warps().get(thread.warp());
            }
        }
        return null;
    }

    /** Lane masks as {@code 0, 2-5, 31}. */
    static String laneRanges(int mask) {
        StringBuilder text = new StringBuilder();
        int lane = 0;
        while (lane < 32) {
            if ((mask & 1 << lane) == 0) {
                lane++;
                continue;
            }
            int end = lane;
            while (end + 1 < 32 && (mask & 1 << end + 1) != 0) {
                end++;
            }
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(end == lane ? Integer.toString(lane) : lane + "-" + end);
            lane = end + 1;
        }
        return text.toString();
    }
}
