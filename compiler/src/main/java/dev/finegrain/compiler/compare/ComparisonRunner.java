package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs every combination of size x schedule x backend x mechanism for one kernel and verifies each result
 * against the sequential oracle on the same inputs. Plans are lowered once per schedule, inputs and the oracle
 * once per size.
 */
public final class ComparisonRunner {

    /**
     * @param mechanisms requested lock mechanisms; empty means every mechanism each backend implements
     * @param progress   where to report progress of long sweeps, or null
     */
    public record Request(LibraryKernel kernel, List<int[]> sizes, List<Schedule> schedules, List<Backend> backends,
                          List<LockMechanism> mechanisms, long seed, PrintWriter progress) {}

    private ComparisonRunner() {}

    public static List<ResultRow> run(Request request) {
        Kernel kernel = request.kernel().kernel();
        KernelGraph graph = Pipeline.compile(kernel);
        Map<Schedule, ExecutionPlan> plans = new LinkedHashMap<>();
        for (Schedule schedule : request.schedules()) {
            plans.put(schedule, SchedulePlanner.plan(graph, schedule));
        }
        Map<Backend, List<Optional<LockMechanism>>> mechanisms = new LinkedHashMap<>();
        for (Backend backend : request.backends()) {
            mechanisms.put(backend, mechanismsFor(backend, request.mechanisms()));
        }
        int total = request.sizes().size() * plans.size()
                * mechanisms.values().stream().mapToInt(List::size).sum();
        List<ResultRow> rows = new ArrayList<>();
        for (int[] sizes : request.sizes()) {
            Invocation invocation = request.kernel().inputs().generate(kernel, sizes, request.seed());
            KernelOutputs oracle = SequentialOracle.run(graph, invocation);
            for (Map.Entry<Schedule, ExecutionPlan> plan : plans.entrySet()) {
                for (Map.Entry<Backend, List<Optional<LockMechanism>>> backend : mechanisms.entrySet()) {
                    for (Optional<LockMechanism> mechanism : backend.getValue()) {
                        if (request.progress() != null && total > 1) {
                            request.progress().printf("[%d/%d] %s %s %s %s%n", rows.size() + 1, total, kernel.name(),
                                    sizeText(sizes), plan.getValue().schedule().cliName(), backend.getKey().name());
                            request.progress().flush();
                        }
                        Variant variant = new Variant(graph, plan.getValue(), mechanism);
                        BackendRun run = backend.getKey().run(variant, invocation, request.seed());
                        rows.add(row(variant, backend.getKey(), sizes, run, oracle, request.seed()));
                    }
                }
            }
        }
        return rows;
    }

    private static List<Optional<LockMechanism>> mechanismsFor(Backend backend, List<LockMechanism> requested) {
        if (backend.mechanisms().isEmpty()) {
            if (!requested.isEmpty()) {
                throw new UsageException("backend '" + backend.name() + "' models sync points abstractly and takes no lock "
                        + "mechanism; drop --mechanisms or choose a backend that implements " + requested.getFirst());
            }
            return List.of(Optional.empty());
        }
        if (requested.isEmpty()) {
            return backend.mechanisms().stream().map(Optional::of).toList();
        }
        for (LockMechanism mechanism : requested) {
            if (!backend.mechanisms().contains(mechanism)) {
                throw new UsageException("backend '" + backend.name() + "' does not implement mechanism '" + mechanism
                        + "'; it implements " + backend.mechanisms().stream().map(LockMechanism::cliName)
                        .collect(Collectors.joining(", ")));
            }
        }
        return requested.stream().map(Optional::of).toList();
    }

    private static ResultRow row(Variant variant, Backend backend, int[] sizes, BackendRun run, KernelOutputs oracle, long seed) {
        Kernel kernel = variant.graph().kernel();
        Optional<String> problem = run.failure().or(() -> oracle.firstDifference(variant.graph(), sizes, run.outputs()));
        return new ResultRow(kernel.name(), sizeText(sizes), variant.plan().schedule().cliName(), backend.name(),
                variant.mechanism().map(LockMechanism::cliName).orElse("-"), kernel.granularity().cliName(),
                kernel.channelPolicy().cliName(), problem.isEmpty(), run.metric(), run.value(), run.unit(), seed,
                problem.orElse(""), run.details());
    }

    public static String sizeText(int[] sizes) {
        return Arrays.stream(sizes).mapToObj(String::valueOf).collect(Collectors.joining("x"));
    }
}
