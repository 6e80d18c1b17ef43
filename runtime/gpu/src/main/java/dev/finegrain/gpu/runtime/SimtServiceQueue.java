package dev.finegrain.gpu.runtime;

/**
 * A unit of one SM that serves one request at a time: a request waits until the unit is free, then holds it. The
 * queue behind {@link SimtSharedPort}, {@link SimtSharedPollPort} and {@link SimtMbarrierUnit}, which differ only in
 * what a request holds and which requests wait. Times are doubles because the poll port's hold is fitted in fractions
 * of a cycle; whole-cycle holds stay exact.
 */
final class SimtServiceQueue {
    /** The cycle from which the unit is free: the end of the last request it took. */
    private double freeAt;

    /** A request at {@code cycle} that holds the unit {@code hold} cycles once served: the whole cycles it waits. */
    int enter(long cycle, double hold) {
        double start = Math.max(cycle, freeAt);
        freeAt = start + hold;
        return (int) Math.ceil(start - cycle);
    }

    /** A request at {@code cycle} that goes first, without waiting, and keeps the unit busy {@code hold} cycles. */
    void passAhead(long cycle, double hold) {
        freeAt = Math.max(freeAt, cycle + hold);
    }

    /** The first cycle, not before {@code cycle}, by which the unit has served every request given to it so far. */
    long drainedBy(long cycle) {
        return Math.max(cycle, (long) Math.ceil(freeAt));
    }
}
