package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.LockMechanism;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Lowers one plan (with its lock mechanism, for dataflow) to the loop IR of one kernel class. */
public final class JvmCodegen {

    private JvmCodegen() {}

    /** With lanes as wide as this JVM's preferred vector shape ({@link VectorWidth#preferred()}). */
    public static JClass generate(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName) {
        return generate(plan, mechanism, packageName, PreferredWidth.WIDTH);
    }

    /** @throws IllegalArgumentException when the mechanism cannot implement this kernel's channels, saying why */
    public static JClass generate(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName, VectorWidth width) {
        mechanism.flatMap(m -> SyncLayout.unsupported(plan.graph(), m)).ifPresent(reason -> {
            throw new IllegalArgumentException("the jvm backend cannot use mechanism '" + mechanism.orElseThrow() + "' for kernel '"
                    + plan.graph().name() + "': " + reason);
        });
        String name = packageName + "." + className(plan, mechanism);
        return switch (plan) {
            case DataflowPlan dataflow -> DataflowLoops.lower(name, dataflow, SyncLayout.of(plan.graph(), dataflow.waits(),
                    mechanism.orElseThrow(() -> new IllegalArgumentException("lock-dataflow needs a lock mechanism"))), width);
            case WavefrontPlan wavefront -> WavefrontLoops.lower(name, wavefront);
            case DataParallelPlan dataParallel -> DataParallelLoops.lower(name, dataParallel, width);
        };
    }

    /** Asked once: the JVM's preferred shape does not change while it runs. */
    private static final class PreferredWidth {
        static final VectorWidth WIDTH = VectorWidth.preferred();
    }

    /** e.g. {@code NeedlemanWunschLockDataflowAcquireReleasePerThreadShared}. */
    static String className(ExecutionPlan plan, Optional<LockMechanism> mechanism) {
        StringBuilder name = new StringBuilder(camel(plan.graph().name())).append(camel(plan.schedule().cliName()));
        mechanism.ifPresent(m -> name.append(camel(m.cliName()))
                .append(camel(plan.graph().kernel().granularity().cliName()))
                .append(camel(plan.graph().kernel().channelPolicy().cliName())));
        return name.toString();
    }

    private static String camel(String words) {
        return Arrays.stream(words.split("[^A-Za-z0-9]+")).filter(w -> !w.isEmpty())
                .map(w -> w.substring(0, 1).toUpperCase(Locale.ROOT) + w.substring(1))
                .collect(Collectors.joining());
    }
}
