package dev.finegrain.gpu.runtime;

/**
 * The shared-memory port of one SM: the load/store units and banks through which every warp-wide shared-memory or
 * lock-bit access (LDS, STS, LDSLK, STSUL, ATOMS) passes, one pass at a time, for {@code shared.portCycles} cycles
 * per pass. An access takes one pass plus one per bank-conflict replay (each extra word in its busiest bank), the
 * degree its node already computes; an ATOMS takes one pass per lane on its busiest word, since each applies its
 * update in turn. Lanes on one lock bit through one word are one pass, a broadcast: the lock unit answers them beside
 * the data access (seed 001 section 3.1). On Fermi a warp of 32 lanes passes 16 load/store units in two cycles, so a
 * thousand lanes spinning on LDSLK hold the port that the lanes doing useful work need.
 *
 * <p>The issuing warp's own passes are in its latency already ({@code latency.shared} holds one pass, each replay adds
 * {@code latency.sharedReplay}); what the port adds is the wait for the passes of other warps queued before it. The
 * access is dispatched when the port frees, so its warp issues nothing else until then and its result comes that
 * much later. On a profile without the key (0) the SM has no port: every access dispatches at once.
 */
public final class SimtSharedPort {
    private final int passCycles;
    private final SimtServiceQueue queue = new SimtServiceQueue();

    SimtSharedPort(int passCycles) {
        this.passCycles = passCycles;
    }

    /**
     * Queues an access of {@code passes} passes issued at {@code now} behind those queued before it; returns the
     * cycles it waits for the port before its first pass (0 when the port is free).
     */
    public int dispatch(long now, int passes) {
        return queue.enter(now, (double) passes * passCycles);
    }
}
