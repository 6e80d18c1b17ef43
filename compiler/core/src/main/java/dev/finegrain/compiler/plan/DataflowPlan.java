package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.Schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * Lock-based dataflow: every actor instance is a task that fires once each channel in {@code waits} has its
 * producer's token (the producer instance at p - vector, when that point is in the domain). No barriers.
 *
 * @param graph       the kernel's graph with each channel's policy as the lock choices make it
 * @param persistent  one launch for the whole domain, workers owning bands of the last dimension
 *                    ({@link Schedule.LockDataflow#persistent()}); the order and the waits are the same
 * @param interleaved a chain's instances dealt to workers in turn ({@link Schedule.LockDataflow#interleaved()})
 * @param lockChoices the mechanism asked for, the granularity and the channel policy, decided once
 */
public record DataflowPlan(KernelGraph graph, List<IrChannel> waits, boolean persistent, boolean interleaved,
                           LockChoices lockChoices) implements ExecutionPlan {

    public DataflowPlan {
        waits = List.copyOf(waits);
        java.util.Objects.requireNonNull(lockChoices, "lockChoices");
    }

    /** A plan with the kernel's own lock choices (tests build plans this way, broken ones included). */
    public DataflowPlan(KernelGraph graph, List<IrChannel> waits, boolean persistent) {
        this(graph, waits, persistent, false, LockChoices.of(graph.kernel()));
    }

    public DataflowPlan(KernelGraph graph, List<IrChannel> waits) {
        this(graph, waits, false);
    }

    @Override
    public Schedule schedule() {
        Schedule.LockDataflow schedule = persistent ? new Schedule.LockDataflow().persistent() : new Schedule.LockDataflow();
        if (persistent && lockChoices.laneColumns().isPresent()) {
            schedule = schedule.columnsPerLane(lockChoices.laneColumns().get());
        }
        return interleaved ? schedule.interleaved() : schedule;
    }

    @Override
    public String describe() {
        StringBuilder text = new StringBuilder(schedule().cliName() + ": every actor instance fires once its channels hold tokens"
                + (persistent ? "; one launch, workers own bands of columns" : "")
                + (interleaved ? "; a chain's instances dealt to workers in turn" : "") + "\n");
        for (IrChannel channel : waits) {
            text.append("  sync: ").append(graph.actor(channel.consumer()).name()).append(" waits for ")
                    .append(graph.actor(channel.producer()).name()).append(' ').append(DependenceMath.format(channel.vector()))
                    .append(" via ").append(channel.via()).append(", ").append(channel.policy()).append(" channel\n");
        }
        for (IrChannel channel : graph.channels()) {
            if (channel.isImplied()) {
                text.append("  no sync: ").append(channel.via()).append(" is implied by other channels\n");
            }
        }
        return text.toString();
    }

    @Override
    public TaskGraph materialize(int[] sizes) {
        Domain domain = new Domain(sizes);
        List<Integer> order = graph.actorOrder();
        int actors = order.size();
        int[] slotOfActor = new int[actors];
        for (int slot = 0; slot < actors; slot++) {
            slotOfActor[order.get(slot)] = slot;
        }
        TaskGraphBuilder tasks = new TaskGraphBuilder((long) domain.points() * actors, (long) domain.points() * actors, order);
        int[] point = new int[domain.rank()];
        int[] source = new int[domain.rank()];
        List<Integer> waitsFor = new ArrayList<>();
        for (int p = 0; p < domain.points(); p++) {
            domain.coordinates(p, point);
            for (int actor : order) {
                waitsFor.clear();
                for (IrChannel channel : waits) {
                    if (channel.consumer() != actor) {
                        continue;
                    }
                    for (int d = 0; d < point.length; d++) {
                        source[d] = point[d] - channel.vector()[d];
                    }
                    if (domain.contains(source)) {
                        waitsFor.add(domain.linear(source) * actors + slotOfActor[channel.producer()]);
                    }
                }
                tasks.addFiringTask(actor, p, waitsFor.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return tasks.build();
    }
}
