package dev.finegrain.runtime.jvm;

/**
 * Turns the numbers a waiter passes to {@link Watchdog#check} into a sentence for the stall report, e.g.
 * {@code "cell(3, 7) waits on channel north for cell(2, 7)"}. Only called once a stall is declared, so it may
 * allocate freely; several stalled waiters may call it at once, so it must be thread-safe. A {@link SenseBarrier} wait passes {@code -1} for all three numbers.
 */
@FunctionalInterface
public interface WaitDescriber {
    /**
     * @param channel       the channel index the waiter waits on, or {@code -1} at a barrier
     * @param consumerPoint the waiting actor instance (its linear point), or {@code -1}
     * @param producerPoint the actor instance that should have produced the token, or {@code -1}
     * @return one line naming who waits on what for whom
     */
    String describe(int channel, long consumerPoint, long producerPoint);
}
