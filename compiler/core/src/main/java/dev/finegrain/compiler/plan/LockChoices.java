package dev.finegrain.compiler.plan;

import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Mutex;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.WaitPolicy;

import java.util.Objects;
import java.util.Optional;

/**
 * The lock choices a lock-dataflow variant runs with, decided once from the schedule and the kernel (a choice the
 * schedule makes wins over the kernel's) and carried by the plan, so that every backend reads them from one value and
 * none reads them back from the kernel. The wait policy and barrier choices of further primitives belong here too.
 *
 * @param mechanism     the mechanism asked for, by the schedule or else the kernel; empty when neither names one (the
 *                      backend's default applies)
 * @param granularity   one sync word per actor instance, or per group of {@code groupSize}
 * @param groupSize     the actor instances that share a sync word under warp-shared granularity
 * @param channelPolicy the policy of every channel the kernel does not override one by one
 * @param waitPolicy    how a waiter passes the time until its token comes (the schedule's, else adaptive)
 * @param mutex         how the mechanisms that hold a lock take it, where the schedule names it; empty takes each
 *                      target's default ({@link #mutexOr})
 * @param capacity      the slots of spsc-ring's rings where the schedule names them; empty takes the ring's default
 *                      ({@link RingFolding})
 * @param laneColumns   the columns each lane of a persistent band owns where the schedule names them; empty takes 1
 */
public record LockChoices(Optional<LockMechanism> mechanism, LockGranularity granularity, int groupSize,
                          ChannelPolicy channelPolicy, WaitPolicy waitPolicy, Optional<Mutex> mutex,
                          Optional<Integer> capacity, Optional<Integer> laneColumns) {

    public LockChoices {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(granularity, "granularity");
        Objects.requireNonNull(channelPolicy, "channelPolicy");
        Objects.requireNonNull(waitPolicy, "waitPolicy");
        Objects.requireNonNull(mutex, "mutex");
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(laneColumns, "laneColumns");
        if (groupSize < 1) {
            throw new IllegalArgumentException("a sync word's group holds at least one actor instance, not " + groupSize);
        }
    }

    public LockChoices(Optional<LockMechanism> mechanism, LockGranularity granularity, int groupSize,
                       ChannelPolicy channelPolicy, WaitPolicy waitPolicy, Optional<Mutex> mutex) {
        this(mechanism, granularity, groupSize, channelPolicy, waitPolicy, mutex, Optional.empty(), Optional.empty());
    }

    /** The kernel's own choices, for a schedule that makes none. */
    public static LockChoices of(Kernel kernel) {
        return new LockChoices(kernel.mechanism(), kernel.granularity(), kernel.groupSize(), kernel.channelPolicy(),
                WaitPolicy.ADAPTIVE, Optional.empty());
    }

    /**
     * The choices a variant of {@code kernel} under {@code schedule} runs with: lock-dataflow makes its own, and a
     * wavefront its barrier waiters' wait policy.
     */
    public static LockChoices of(Kernel kernel, Schedule schedule) {
        if (schedule instanceof Schedule.Wavefront wavefront && wavefront.waitPolicy().isPresent()) {
            LockChoices own = of(kernel);
            return new LockChoices(own.mechanism, own.granularity, own.groupSize, own.channelPolicy,
                    wavefront.waitPolicy().get(), own.mutex);
        }
        return schedule instanceof Schedule.LockDataflow dataflow ? of(kernel, dataflow) : of(kernel);
    }

    /** The choices of {@code schedule} where it makes them, else the kernel's. */
    public static LockChoices of(Kernel kernel, Schedule.LockDataflow schedule) {
        LockGranularity granularity = schedule.granularity().orElse(kernel.granularity());
        int groupSize = granularity == LockGranularity.WARP_SHARED && schedule.granularity().isPresent()
                ? schedule.groupSize().orElse(kernel.groupSize()) : kernel.groupSize();
        return new LockChoices(schedule.mechanismFor(kernel), granularity, groupSize,
                schedule.channelPolicy().orElse(kernel.channelPolicy()), schedule.waitPolicy().orElse(WaitPolicy.ADAPTIVE),
                schedule.mutex(), schedule.capacity(), schedule.laneColumns());
    }

    /**
     * The mutex a target runs: the schedule's, else {@code targetDefault} (test-and-test-and-set on the JVM; on the GPU
     * targets test-and-set, the exchange loop of Li et al.'s listings, which every GPU number was measured with).
     */
    public Mutex mutexOr(Mutex targetDefault) {
        return mutex.orElse(targetDefault);
    }

    public boolean warpShared() {
        return granularity == LockGranularity.WARP_SHARED;
    }

    /** The granularity {@code chosen} runs with: a warp mechanism keeps one token per warp whatever was asked. */
    public LockGranularity granularityWith(LockMechanism chosen) {
        return chosen.granularityFor(granularity);
    }

    /** The policy of a channel: its own where the kernel declared one, else the default of these choices. */
    public ChannelPolicy policyOf(dev.finegrain.compiler.ir.IrChannel channel) {
        return channel.policyDeclared() ? channel.policy() : channelPolicy;
    }

    /** How a report names them: granularity (with its group), channel policy, and a wait policy other than the default. */
    public String describe() {
        return granularity.cliName() + (warpShared() ? " of " + groupSize : "") + ", " + channelPolicy.cliName() + " channels"
                + (waitPolicy == WaitPolicy.ADAPTIVE ? "" : ", " + waitPolicy.cliName() + " waits")
                + mutex.map(m -> ", " + m.cliName() + " mutexes").orElse("")
                + capacity.map(k -> ", rings of " + k).orElse("");
    }
}
