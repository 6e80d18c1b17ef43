package dev.finegrain.compiler.api;

import com.palantir.javapoet.JavaFile;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ahead-of-time compilation for build tools: each kernel x schedule (x mechanism) becomes one class file, whose
 * class implements {@code dev.finegrain.runtime.jvm.TeamTask}, plus its Java source. A schedule that cannot plan a
 * kernel (tiles against its dependences) is skipped and reported; a user's bad kernel throws
 * {@link dev.finegrain.dsl.KernelDefinitionException}; an I/O failure throws {@link IOException}.
 */
public final class KernelCompiler {

    /** One generated class: its binary name and the files written for it. */
    public record Generated(String className, Path classFile, Path sourceFile) {}

    /** The classes written, and one line for each kernel and schedule that could not be compiled (and why). */
    public record Output(List<Generated> classes, List<String> skipped) {
        public Output {
            classes = List.copyOf(classes);
            skipped = List.copyOf(skipped);
        }
    }

    private KernelCompiler() {}

    public static Output compile(CompileRequest request) throws IOException {
        JvmBackend backend = new JvmBackend();
        List<Generated> generated = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Map<String, String> kernelOfClass = new HashMap<>();
        for (Kernel kernel : request.kernels()) {
            for (Schedule schedule : request.schedules()) {
                KernelGraph graph = Pipeline.compile(schedule.appliedTo(kernel));
                ExecutionPlan plan;
                try {
                    plan = SchedulePlanner.plan(graph, schedule);
                } catch (KernelDefinitionException cannotPlan) {
                    skipped.add(kernel.name() + " under " + schedule.cliName() + ": " + cannotPlan.getMessage());
                    continue;
                }
                List<Optional<LockMechanism>> mechanisms = new ArrayList<>();
                List<LockMechanism> supported = backend.mechanisms(graph, schedule);
                Optional<LockMechanism> own = schedule instanceof Schedule.LockDataflow dataflow
                        ? dataflow.mechanismFor(kernel) : Optional.empty();
                if (supported.isEmpty()) {
                    mechanisms.add(Optional.empty());
                } else {
                    List<LockMechanism> wanted = !request.mechanisms().isEmpty() ? request.mechanisms()
                            : own.map(List::of).orElse(supported);
                    List<LockMechanism> chosen = wanted.stream().filter(supported::contains).toList();
                    if (chosen.isEmpty()) {
                        // a request's mistake, reported as the kernel's (one line, no exception name)
                        throw new KernelDefinitionException("kernel '" + kernel.name() + "' under " + schedule.cliName()
                                + " supports none of the requested mechanisms " + wanted.stream().map(LockMechanism::cliName).toList()
                                + "; it supports " + supported.stream().map(LockMechanism::cliName).toList()
                                + "; list one of those, or none for every one it supports");
                    }
                    chosen.forEach(m -> mechanisms.add(Optional.of(m)));
                }
                for (Optional<LockMechanism> mechanism : mechanisms) {
                    JClass generatedClass = JvmCodegen.generate(plan, mechanism, request.packageName());
                    String earlier = kernelOfClass.putIfAbsent(generatedClass.name(), kernel.name());
                    if (earlier != null && !earlier.equals(kernel.name())) {
                        throw new KernelDefinitionException("kernels '" + earlier + "' and '" + kernel.name()
                                + "' both compile to class " + generatedClass.name() + ", so one would overwrite the other; "
                                + "rename one of them");
                    }
                    generated.add(write(generatedClass, request));
                }
            }
        }
        return new Output(generated, skipped);
    }

    private static Generated write(JClass generated, CompileRequest request) throws IOException {
        Path classFile = request.classesDirectory().resolve(generated.internalName() + ".class");
        Files.createDirectories(classFile.getParent());
        Files.write(classFile, AsmEmitter.emit(generated));
        JavaFile source = JavaSourceEmitter.emit(generated);
        Path sourceFile = source.writeToPath(request.sourcesDirectory());
        return new Generated(generated.name(), classFile, sourceFile);
    }
}
