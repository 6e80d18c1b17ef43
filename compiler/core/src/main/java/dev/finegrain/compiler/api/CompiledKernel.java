package dev.finegrain.compiler.api;

import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.CompiledJvmKernel;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.runtime.jvm.TeamTask;
import dev.finegrain.runtime.jvm.WorkerTeam;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * A kernel compiled for the JVM under one schedule, ready to run many times from Java:
 *
 * <pre>{@code
 * CompiledKernel nw = CompiledKernel.compile(kernel, lockDataflow().mechanism(TINY_LOCK));   // at run time
 * CompiledKernel aot = CompiledKernel.load(kernel, lockDataflow(), "com.example.finegrain"); // the Maven plugin's class
 * KernelResult result = nw.run(kernel.invocation().sizes(512, 512).param("penalty", 10).input("reference", ref).build());
 * int[] score = result.ints("score");
 * }</pre>
 *
 * The schedule's lock choices override the kernel's; lock-dataflow without a mechanism uses the kernel's, else
 * {@code acquire-release}. Runs use a team of worker threads shared by the whole JVM (one per thread count).
 *
 * <p>Errors: a definition the JVM backend cannot compile is an {@link IllegalArgumentException} with the reason;
 * a class that is missing or was compiled from another definition of the kernel is an
 * {@link IllegalStateException} saying what to rebuild; an invocation of another kernel, or of another definition of
 * this one, is an {@link IllegalArgumentException} naming both fingerprints; a {@code Storage.BYTE} input written out
 * of range since {@code Invocation.build()} is the {@link KernelDefinitionException} build() gives, raised where the
 * run reads it into bytes; a run's own error (an integer division by zero) is a
 * {@link dev.finegrain.compiler.ir.KernelExecutionException}, a stalled wait a
 * {@link dev.finegrain.runtime.jvm.StallException}.
 */
public final class CompiledKernel {

    private final Kernel kernel;
    private final Schedule schedule;
    private final Optional<LockMechanism> mechanism;
    private final String className;
    private final CompiledJvmKernel compiled;
    /**
     * The class for sizes the tiles do not divide ({@code JvmCodegen.tilesCutShort}), made at the first such run: compiled
     * here for a kernel compiled here, loaded beside the class compiled ahead of time (the plugin writes both); none
     * where that class is missing, and such a run then says which tile extent does not divide which size.
     */
    private volatile Optional<CompiledJvmKernel> raggedTiles;
    private final java.util.function.Supplier<Optional<CompiledJvmKernel>> raggedSource;
    /** Other {@link Kernel} objects found to compile to this class's fingerprint (weak: kernels come and go). */
    private final Map<Kernel, Boolean> sameDefinition = Collections.synchronizedMap(new WeakHashMap<>());

    private CompiledKernel(Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism, String className,
                           CompiledJvmKernel compiled, java.util.function.Supplier<Optional<CompiledJvmKernel>> raggedSource) {
        this.raggedSource = raggedSource;
        this.kernel = kernel;
        this.schedule = schedule;
        this.mechanism = mechanism;
        this.className = className;
        this.compiled = compiled;
    }

    /** Compiles the kernel under the schedule now, into a class of this JVM's own. */
    public static CompiledKernel compile(Kernel kernel, Schedule schedule) {
        Variant variant = variant(kernel, schedule);
        JClass generated = JvmCodegen.generate(variant.plan(), variant.mechanism(), GeneratedKernels.PACKAGE);
        try {
            Class<?> type = GeneratedKernels.define(AsmEmitter.emit(generated));
            return new CompiledKernel(kernel, schedule, variant.mechanism(), generated.name(), CompiledJvmKernel.of(variant, type),
                    () -> Optional.of(CompiledJvmKernel.compile(variant, true)));
        } catch (IllegalAccessException failure) {
            throw new IllegalStateException("cannot define the generated class of kernel '" + kernel.name() + "'", failure);
        }
    }

    /** The class the Maven plugin compiled ahead of time for this kernel and schedule, from the context class loader. */
    public static CompiledKernel load(Kernel kernel, Schedule schedule, String packageName) {
        return load(kernel, schedule, packageName, Thread.currentThread().getContextClassLoader());
    }

    /**
     * The class compiled ahead of time into {@code packageName} for this kernel and schedule (the plugin's
     * {@code packageName}, by default the project's groupId followed by {@code .finegrain}).
     *
     * @throws IllegalStateException when no such class exists, or it was generated from another definition
     */
    public static CompiledKernel load(Kernel kernel, Schedule schedule, String packageName, ClassLoader loader) {
        Variant variant = variant(kernel, schedule);
        String name = packageName + "." + JvmCodegen.className(variant.plan(), variant.mechanism());
        String expected = JvmCodegen.fingerprint(variant.plan(), variant.mechanism());
        Class<?> type = loadCurrent(name, expected, kernel.name(), loader).orElseThrow(() -> new IllegalStateException("no class "
                + name + " for kernel '" + kernel.name() + "' under " + describe(schedule, variant.mechanism()) + ": compile it with"
                + " the finegrain-maven-plugin (goal compile, with this schedule and mechanism and packageName " + packageName
                + "), or use CompiledKernel.compile"));
        // the class for sizes the tiles do not divide, which the plugin writes beside it (one compiled without has none)
        return new CompiledKernel(kernel, schedule, variant.mechanism(), name, CompiledJvmKernel.of(variant, type),
                () -> loadCurrent(name + JvmCodegen.RAGGED_SUFFIX, expected + JvmCodegen.RAGGED_SUFFIX, kernel.name(), loader)
                        .map(ragged -> CompiledJvmKernel.of(variant, ragged)));
    }

    /**
     * The class {@code name} from {@code loader}, empty where there is none; refused where it was generated from another
     * definition of the kernel (its fingerprint is not {@code expected}).
     */
    private static Optional<Class<?>> loadCurrent(String name, String expected, String kernel, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(name, true, loader);
        } catch (ClassNotFoundException missing) {
            return Optional.empty();
        } catch (LinkageError unlinkable) {
            throw cannotLink(name, unlinkable);
        }
        String found = CompiledJvmKernel.fingerprintOf(type);
        if (!TeamTask.class.isAssignableFrom(type) || !expected.equals(found)) {
            throw new IllegalStateException("class " + name + " was generated from another definition of kernel '" + kernel
                    + "' (fingerprint " + found + ", this definition's is " + expected + "); rebuild it (mvn compile) after"
                    + " changing the kernel");
        }
        return Optional.of(type);
    }

    public Kernel kernel() {
        return kernel;
    }

    public Schedule schedule() {
        return schedule;
    }

    /** The lock mechanism lock-dataflow runs with; empty for the schedules that synchronise with barriers. */
    public Optional<LockMechanism> mechanism() {
        return mechanism;
    }

    /** The binary name of the class that runs. */
    public String className() {
        return className;
    }

    /** Runs once on as many worker threads as the machine has processors. */
    public KernelResult run(Invocation invocation) {
        return run(invocation, RunSettings.defaultThreads());
    }

    /**
     * Runs once on {@code threads} worker threads (fresh state each run) and returns the state fields.
     *
     * @throws IllegalArgumentException when the invocation is of another kernel or of another definition of this one
     *                                  (naming both fingerprints), or threads is not positive
     */
    public KernelResult run(Invocation invocation, int threads) {
        Objects.requireNonNull(invocation, "invocation");
        requireSameDefinition(invocation.kernel());
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        WorkerTeam team = JvmBackend.team(threads);
        CompiledJvmKernel.Prepared prepared = forSizes(invocation.sizes()).prepare(invocation, team.size(),
                RunSettings.DEFAULT_STALL_TIMEOUT_NANOS);
        long started = System.nanoTime();
        prepared.runOn(team);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        KernelGraph graph = compiled.variant().graph();
        return new KernelResult(kernel, graph, invocation.sizes(), prepared.outputs(), elapsed);
    }

    /** The class that runs {@code sizes}: this one, or where the tiles do not divide them the one whose edge tiles are cut short. */
    private CompiledJvmKernel forSizes(int[] sizes) {
        if (!JvmCodegen.tilesCutShort(compiled.variant().plan(), sizes)) {
            return compiled;
        }
        Optional<CompiledJvmKernel> ragged = raggedTiles;
        if (ragged == null) {
            synchronized (this) {
                if (raggedTiles == null) {
                    raggedTiles = raggedSource.get();
                }
                ragged = raggedTiles;
            }
        }
        // without one, the class for whole tiles checks the sizes and says which tile extent does not divide which size
        return ragged.orElse(compiled);
    }

    /**
     * Refuses an invocation built from another kernel than the one this class was compiled from: its sizes, params and
     * inputs would be read by code generated for other fields, actors or storage. The same {@link Kernel} object is
     * this kernel; another object of the same name is accepted when it would compile, under this schedule, to the
     * same fingerprint as this class ({@code JvmCodegen.fingerprint}: the IR, lock choices, plan, mechanism and byte
     * inputs), the test {@link #load} applies to a class compiled ahead of time. Each such kernel is compared once.
     */
    private void requireSameDefinition(Kernel other) {
        if (other == kernel || sameDefinition.containsKey(other)) {
            return;
        }
        if (!other.name().equals(kernel.name())) {
            throw new IllegalArgumentException("an invocation of kernel '" + other.name() + "' cannot run kernel '"
                    + kernel.name() + "'; build it with this kernel's invocation() (compiled.kernel().invocation())");
        }
        String ours = fingerprint();
        String theirs;
        try {
            Variant variant = variant(other, schedule);
            theirs = JvmCodegen.fingerprint(variant.plan(), variant.mechanism());
        } catch (RuntimeException doesNotCompile) {
            theirs = "none: it does not compile under " + schedule.cliName();
        }
        if (!theirs.equals(ours)) {
            throw new IllegalArgumentException("the invocation was built from another definition of kernel '" + kernel.name()
                    + "' (fingerprint " + theirs + ") than this compiled kernel's (fingerprint " + ours + "); build the "
                    + "invocation with compiled.kernel().invocation(), or compile the invocation's kernel");
        }
        sameDefinition.put(other, Boolean.TRUE);
    }

    /** The fingerprint of the class that runs, as {@link #load} checks it. */
    private String fingerprint() {
        Variant variant = compiled.variant();
        return JvmCodegen.fingerprint(variant.plan(), variant.mechanism());
    }

    /**
     * The variant a kernel and schedule compile to on the JVM, from the one resolver. A schedule that cannot order the
     * kernel is the definition's error, as the DSL reports it; any other refusal is an {@link IllegalArgumentException}.
     */
    private static Variant variant(Kernel kernel, Schedule schedule) {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(schedule, "schedule");
        return new VariantResolver().resolve(VariantRequest.of(kernel, schedule, new JvmBackend())).orElseThrow(skip ->
                switch (skip.reason()) {
                    case SCHEDULE_DOES_NOT_FIT_KERNEL -> new KernelDefinitionException(skip.message());
                    case MECHANISM_DOES_NOT_FIT -> new IllegalArgumentException("the jvm backend cannot use mechanism '"
                            + skip.mechanism().orElseThrow() + "' for kernel '" + kernel.name() + "': " + skip.detail());
                    default -> new IllegalArgumentException(skip.message());
                });
    }

    private static String describe(Schedule schedule, Optional<LockMechanism> mechanism) {
        return schedule.cliName() + mechanism.map(m -> " with " + m).orElse("");
    }

    /**
     * Why a class compiled ahead of time does not link in this JVM. The usual cause: it runs strips of SIMD lanes
     * (the plugin's JVM had the Vector API) and this JVM was started without the module.
     */
    static IllegalStateException cannotLink(String className, LinkageError unlinkable) {
        String missing = String.valueOf(unlinkable.getMessage());
        if (missing.startsWith(VectorWidth.MODULE.replace('.', '/'))) {
            return new IllegalStateException("class " + className + " computes in SIMD lanes with the Vector API, which "
                    + "this JVM was started without: add --add-modules " + VectorWidth.MODULE + " to the java command "
                    + "(and to surefire's argLine in tests), or compile the kernel without lanes on a JVM without it");
        }
        return new IllegalStateException("class " + className + " does not link in this JVM (" + unlinkable + "); "
                + "rebuild it (mvn compile) with the same Finegrain version and JDK that run it", unlinkable);
    }
}
