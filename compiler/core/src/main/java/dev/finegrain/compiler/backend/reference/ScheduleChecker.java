package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.compiler.plan.TaskGraph;
import dev.finegrain.dsl.Invocation;

import java.util.Optional;
import java.util.Random;

/**
 * Runs a materialised plan in one random interleaving that respects only the plan's own sync points: a task
 * becomes ready when its phase has begun (every earlier phase finished) and its predecessors finished, and the
 * next task is drawn at random from all ready ones. A missing sync point shows up as a read of a value not yet
 * produced (reported at once) or as outputs that differ from the oracle.
 */
public final class ScheduleChecker {

    /** The outputs, or the first read that happened before its producer fired. */
    public record Result(KernelOutputs outputs, Optional<String> violation) {}

    private ScheduleChecker() {}

    public static Result run(KernelGraph graph, TaskGraph tasks, Invocation invocation, Random random) {
        Interpreter interpreter = new Interpreter(graph, invocation, true);
        Domain domain = new Domain(invocation.sizes());
        int count = tasks.tasks();
        int[] unmet = new int[count];
        int[] successorCount = new int[count + 1];
        for (int t = 0; t < count; t++) {
            unmet[t] = tasks.predecessors()[t].length;
            for (int p : tasks.predecessors()[t]) {
                successorCount[p + 1]++;
            }
        }
        for (int t = 0; t < count; t++) {
            successorCount[t + 1] += successorCount[t];
        }
        int[] successors = new int[successorCount[count]];
        int[] fill = successorCount.clone();
        for (int t = 0; t < count; t++) {
            for (int p : tasks.predecessors()[t]) {
                successors[fill[p]++] = t;
            }
        }

        int[] ready = new int[count];
        int readyCount = 0;
        int nextUnstarted = 0;
        int currentPhase = -1;
        int remainingInPhase = 0;
        int[] point = new int[domain.rank()];
        try {
            for (int done = 0; done < count; done++) {
                if (readyCount == 0) {
                    if (remainingInPhase > 0) {
                        throw new IllegalStateException("plan deadlocks: tasks of phase " + currentPhase + " wait forever");
                    }
                    currentPhase = tasks.phase()[nextUnstarted];
                    while (nextUnstarted < count && tasks.phase()[nextUnstarted] == currentPhase) {
                        if (unmet[nextUnstarted] == 0) {
                            ready[readyCount++] = nextUnstarted;
                        }
                        nextUnstarted++;
                        remainingInPhase++;
                    }
                    if (readyCount == 0) {
                        throw new IllegalStateException("plan deadlocks: no task of phase " + currentPhase + " can start");
                    }
                }
                int pick = random.nextInt(readyCount);
                int task = ready[pick];
                ready[pick] = ready[--readyCount];
                for (int f = tasks.firingOffsets()[task]; f < tasks.firingOffsets()[task + 1]; f++) {
                    domain.coordinates(tasks.firingPoints()[f], point);
                    interpreter.fire(tasks.firingActors()[f], point);
                }
                remainingInPhase--;
                for (int s = successorCount[task]; s < successorCount[task + 1]; s++) {
                    int successor = successors[s];
                    if (--unmet[successor] == 0 && successor < nextUnstarted) {
                        ready[readyCount++] = successor;
                    }
                }
            }
        } catch (ReadBeforeProducedException violation) {
            return new Result(interpreter.outputs(), Optional.of(violation.getMessage()));
        }
        return new Result(interpreter.outputs(), Optional.empty());
    }
}
