package dev.finegrain.gpu;

import java.util.List;

/**
 * What every unfinished lane was doing when the run was declared deadlocked.
 *
 * @param kind the overall classification: the most specific kind found among the lanes
 * @param cycle the cycle at which the watchdog fired
 * @param lanes one entry per group of lanes of one warp in the same situation
 */
public record DeadlockReport(DeadlockKind kind, long cycle, List<BlockedLanes> lanes) {
    public DeadlockReport {
        lanes = List.copyOf(lanes);
    }

    /**
     * Lanes of one warp stuck at the same instruction for the same reason.
     *
     * @param block block index
     * @param warp warp index within the block
     * @param lanes the lanes, as ranges ({@code 0}, {@code 1-31})
     * @param pc the address of the instruction they are at
     * @param instruction that instruction as written
     * @param kind why they cannot move
     * @param detail the address, the lock bit and who holds it, the barrier, or the reconvergence point
     */
    public record BlockedLanes(int block, int warp, String lanes, int pc, String instruction, DeadlockKind kind,
                               String detail) {
        @Override
        public String toString() {
            return String.format("block %d warp %d lanes %s at /*%04x*/ %s: %s: %s", block, warp, lanes, pc,
                    instruction, kind.description(), detail);
        }
    }
}
