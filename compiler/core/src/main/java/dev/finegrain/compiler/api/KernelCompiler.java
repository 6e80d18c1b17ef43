package dev.finegrain.compiler.api;

import com.palantir.javapoet.JavaFile;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.resolve.Skip;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
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

    /**
     * The classes written; one line for each kernel and schedule that could not be compiled (and why); and one note
     * for each kernel and lock-dataflow schedule whose classes leave out mechanisms (each with the backend's reason),
     * since a build tool would otherwise drop them without a word.
     */
    public record Output(List<Generated> classes, List<String> skipped, List<String> notes) {
        public Output {
            classes = List.copyOf(classes);
            skipped = List.copyOf(skipped);
            notes = List.copyOf(notes);
        }

        /** Without notes. */
        public Output(List<Generated> classes, List<String> skipped) {
            this(classes, skipped, List.of());
        }
    }

    private KernelCompiler() {}

    public static Output compile(CompileRequest request) throws IOException {
        JvmBackend backend = new JvmBackend();
        List<Generated> generated = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, String> kernelOfClass = new HashMap<>();
        VariantResolver resolver = new VariantResolver();
        for (Kernel kernel : request.kernels()) {
            for (Schedule schedule : request.schedules()) {
                Optional<Skip> refused = resolver.refusal(kernel, schedule, backend);
                if (refused.isPresent()) {
                    skipped.add(kernel.name() + " under " + schedule.cliName() + ": " + refused.get().detail());
                    continue;
                }
                for (Variant variant : variants(resolver, kernel, schedule, backend, request.mechanisms(), notes)) {
                    // a tiled schedule gets a second class, for sizes its tiles do not divide (its edge tiles cut short)
                    for (boolean raggedTiles : dev.finegrain.compiler.plan.DataParallelPlan.tilesOf(variant.plan()).isPresent() ? List.of(false, true)
                            : List.of(false)) {
                        JClass generatedClass = JvmCodegen.generate(variant.plan(), variant.mechanism(), request.packageName(),
                                JvmCodegen.preferredWidth(), raggedTiles);
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
        }
        return new Output(generated, skipped, notes);
    }

    /**
     * The variants of one kernel and schedule: one for a barrier schedule; for lock-dataflow one per mechanism asked
     * for (the schedule's or kernel's own when none is, else every one the backend supports). A request none of whose
     * mechanisms the kernel supports is the request's mistake, reported as the kernel's (one line, no exception name);
     * mechanisms left out otherwise (asked for, or swept when none is asked for, and unsupported for this kernel) are
     * one line in {@code notes}, naming each with the backend's reason.
     */
    private static List<Variant> variants(VariantResolver resolver, Kernel kernel, Schedule schedule, JvmBackend backend,
                                          List<LockMechanism> requested, List<String> notes) {
        VariantRequest asked = VariantRequest.of(kernel, schedule, backend);
        if (!(schedule instanceof Schedule.LockDataflow dataflow)) {
            return List.of(resolver.resolve(asked).orElseThrow(skip -> new KernelDefinitionException(skip.message())));
        }
        ExecutionPlan plan = resolver.plan(kernel, schedule).plan().orElseThrow();
        List<LockMechanism> supported = backend.mechanisms(plan);
        List<LockMechanism> wanted = !requested.isEmpty() ? requested
                : dataflow.mechanismFor(kernel).map(List::of).orElse(backend.sweep());
        List<LockMechanism> chosen = wanted.stream().filter(supported::contains).toList();
        if (chosen.isEmpty()) {
            throw new KernelDefinitionException("kernel '" + kernel.name() + "' under " + schedule.cliName()
                    + " supports none of the requested mechanisms " + wanted.stream().map(LockMechanism::cliName).toList()
                    + "; it supports " + supported.stream().map(LockMechanism::cliName).toList()
                    + "; list one of those, or none for every one it supports");
        }
        List<String> leftOut = wanted.stream().filter(m -> !supported.contains(m)).distinct()
                .map(m -> m.cliName() + " (" + backend.unsupported(plan, m).orElse("the jvm backend does not implement it") + ")")
                .toList();
        if (!leftOut.isEmpty()) {
            notes.add("kernel '" + kernel.name() + "' under " + schedule.cliName() + ": left out " + String.join("; ", leftOut)
                    + ", as the jvm backend cannot use " + (leftOut.size() == 1 ? "it" : "them") + " for this kernel; compiled "
                    + String.join(", ", chosen.stream().map(LockMechanism::cliName).toList()));
        }
        return chosen.stream().map(mechanism -> resolver.resolve(asked.withMechanism(mechanism))
                .orElseThrow(skip -> new KernelDefinitionException(skip.message()))).toList();
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
