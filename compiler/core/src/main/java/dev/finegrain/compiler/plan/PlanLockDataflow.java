package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.Schedule;

import java.util.List;

/**
 * Lowers the lock-dataflow schedule to one task per actor instance waiting on every channel that is not implied, with
 * the lock choices decided once (the schedule's, else the kernel's) and each channel's policy as they make it; needs
 * reduce-channels.
 */
public final class PlanLockDataflow {

    private PlanLockDataflow() {}

    public static DataflowPlan plan(KernelGraph graph, Schedule.LockDataflow schedule) {
        LockChoices choices = LockChoices.of(graph.kernel(), schedule);
        List<IrChannel> channels = graph.channels().stream().map(c -> c.withPolicy(choices.policyOf(c))).toList();
        // the kernel's own graph where the choices change no policy, so that every plan of one kernel shares it
        KernelGraph chosen = samePolicies(channels, graph.channels()) ? graph : graph.withChannels(channels);
        return new DataflowPlan(chosen, chosen.syncChannels(), schedule.persistentLaunch(), schedule.interleavedChains(), choices);
    }

    private static boolean samePolicies(List<IrChannel> chosen, List<IrChannel> declared) {
        for (int c = 0; c < chosen.size(); c++) {
            if (chosen.get(c).policy() != declared.get(c).policy()) {
                return false;
            }
        }
        return true;
    }
}
