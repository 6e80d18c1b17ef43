package dev.finegrain.compiler.api;

import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.nio.file.Path;
import java.util.List;

/**
 * What to compile ahead of time: every kernel under every schedule, lock-dataflow once per mechanism. When
 * {@code mechanisms} is empty: the one the schedule or the kernel names, else every mechanism the jvm backend
 * supports for that kernel.
 *
 * @param packageName      the Java package of the generated classes
 * @param classesDirectory where .class files go (e.g. target/classes)
 * @param sourcesDirectory where the readable .java sources go (e.g. target/generated-sources/finegrain)
 */
public record CompileRequest(List<Kernel> kernels, List<Schedule> schedules, List<LockMechanism> mechanisms,
                             String packageName, Path classesDirectory, Path sourcesDirectory) {

    public CompileRequest {
        kernels = List.copyOf(kernels);
        schedules = List.copyOf(schedules);
        mechanisms = List.copyOf(mechanisms);
        if (!packageName.matches("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*")) {
            throw new IllegalArgumentException("package name '" + packageName + "' is not a Java package name; use e.g. com.example.kernels");
        }
    }
}
