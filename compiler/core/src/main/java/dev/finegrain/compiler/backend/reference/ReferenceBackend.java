package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.plan.TaskGraph;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Backend {@code reference}: runs a plan through the {@link ScheduleChecker} in a random legal interleaving
 * (seeded) and reports the plan's critical path: the longest chain of actor firings that must run one after
 * another with unbounded workers. It models sync points abstractly, so it takes no lock mechanism.
 */
public final class ReferenceBackend implements Backend {

    @Override
    public String name() {
        return "reference";
    }

    @Override
    public boolean modelsSyncAbstractly() {
        return true;
    }

    @Override
    public List<LockMechanism> sweep() {
        return List.of();
    }

    /** Persistence changes how a GPU launches the plan, not the plan's critical path, which is what this backend reports. */
    @Override
    public Optional<String> repeatsAnotherRow(Schedule schedule) {
        if (schedule instanceof Schedule.LockDataflow dataflow && (dataflow.waitPolicy()
                .filter(policy -> policy != dev.finegrain.dsl.WaitPolicy.ADAPTIVE).isPresent()
                || dataflow.mutex().isPresent())) {
            return Optional.of("its critical path is lock-dataflow's: how a waiter waits or takes a lock changes no task's"
                    + " order");
        }
        if (schedule instanceof Schedule.LockDataflow dataflow && dataflow.capacity().isPresent()) {
            return Optional.of("it models channels abstractly: a ring's capacity sizes spsc-ring's storage on threads and"
                    + " changes no task's order");
        }
        if (schedule instanceof Schedule.Wavefront wavefront && wavefront.waitPolicy()
                .filter(policy -> policy != dev.finegrain.dsl.WaitPolicy.ADAPTIVE).isPresent()) {
            return Optional.of("its critical path is the wavefront's: how the barrier's waiters wait changes no task's"
                    + " order");
        }
        if (schedule instanceof Schedule.LockDataflow dataflow && dataflow.interleavedChains()) {
            return Optional.of("its critical path is lock-dataflow's: interleaving changes which worker runs an instance,"
                    + " not the plan");
        }
        return schedule instanceof Schedule.LockDataflow dataflow && dataflow.persistentLaunch()
                ? Optional.of("its critical path is lock-dataflow's: persistence changes the launches, not the plan")
                : Optional.empty();
    }

    /** The plan's tiles cut short at the high edges ({@code DataParallelPlan#materialize}); the checker runs them as any tiles. */
    @Override
    public boolean takesRaggedTiles() {
        return true;
    }

    @Override
    public Optional<String> unsupported(ExecutionPlan plan, LockMechanism mechanism) {
        return Optional.of("the reference backend models sync points abstractly");
    }

    @Override
    public BackendRun run(Variant variant, Invocation invocation, RunSettings settings) {
        long seed = settings.seed();
        long started = System.nanoTime();
        TaskGraph tasks = variant.plan().materialize(invocation.sizes());
        ScheduleChecker.Result result = ScheduleChecker.run(variant.graph(), tasks, invocation, new Random(seed));
        double millis = (System.nanoTime() - started) / 1e6;
        return new BackendRun(result.outputs(), "critical_path", tasks.criticalPath(), "firings",
                Map.of("tasks", tasks.tasks(), "phases", tasks.phases(), "sync_points", tasks.syncPoints(),
                        "check_ms", Math.round(millis * 10) / 10.0),
                result.violation());
    }
}
