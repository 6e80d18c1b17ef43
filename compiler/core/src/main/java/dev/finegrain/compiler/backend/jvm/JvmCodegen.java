package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.loops.DataParallelLoops;
import dev.finegrain.compiler.backend.jvm.loops.DataflowLoops;
import dev.finegrain.compiler.backend.jvm.loops.WavefrontLoops;
import dev.finegrain.compiler.ir.IrPrinter;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Storage;

import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.MethodModel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Lowers one plan (with its lock mechanism, for dataflow) to the loop IR of one kernel class. */
public final class JvmCodegen {

    /** What the name and fingerprint of a class for sizes its tiles do not divide end with. */
    public static final String RAGGED_SUFFIX = "RaggedTiles";

    private JvmCodegen() {}

    /** With lanes as wide as this JVM's preferred vector shape ({@link VectorWidth#preferred()}). */
    public static JClass generate(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName) {
        return generate(plan, mechanism, packageName, PreferredWidth.WIDTH);
    }

    /**
     * HotSpot leaves a method of more bytecode than this to the interpreter ({@code -XX:+DontCompileHugeMethods}, on by
     * default), where the Vector API allocates every vector: strips unrolled past it would run a hundred times slower
     * than scalar loops.
     */
    static final int HUGE_METHOD_LIMIT = 8000;

    /**
     * @throws IllegalArgumentException when the mechanism cannot implement this kernel's channels, saying why
     */
    public static JClass generate(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName, VectorWidth width) {
        return generate(plan, mechanism, packageName, width, false);
    }

    /**
     * The class of a tiled plan for sizes its tiles do not divide ({@code raggedTiles}): the tiles at the high edges cut
     * short and run in scalar loops, the whole ones in their form ({@link DataParallelLoops}); its name and fingerprint
     * end with {@link #RAGGED_SUFFIX}, which is how a run knows it may take such sizes. For
     * the other plans, and with {@code raggedTiles} false, the class {@link #generate(ExecutionPlan, Optional, String,
     * VectorWidth)} makes.
     */
    public static JClass generate(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName, VectorWidth width,
                                  boolean raggedTiles) {
        boolean ragged = raggedTiles && DataParallelPlan.tilesOf(plan).isPresent();
        mechanism.filter(m -> plan instanceof DataflowPlan).flatMap(m -> SyncLayout.unsupported((DataflowPlan) plan, m))
                .ifPresent(reason -> {
            throw new IllegalArgumentException("the jvm backend cannot use mechanism '" + mechanism.orElseThrow() + "' for kernel '"
                    + plan.graph().name() + "': " + reason);
        });
        JClass generated = lower(plan, mechanism, packageName, width, ragged);
        var largest = ClassFile.of().parse(AsmEmitter.emit(generated)).methods().stream()
                .filter(m -> !m.methodName().equalsString("<init>"))
                .max(Comparator.comparingInt(JvmCodegen::bytecodeSize)).orElseThrow();
        int size = bytecodeSize(largest);
        if (width.bits() > 0 && size > HUGE_METHOD_LIMIT) {
            String method = largest.methodName().equalsString("run") ? "the run method" : "the method " + largest.methodName().stringValue();
            return lower(plan, mechanism, packageName, VectorWidth.none("with lanes " + method + " holds " + size
                    + " bytes of bytecode, more than the " + HUGE_METHOD_LIMIT + " HotSpot compiles"), ragged);
        }
        return generated;
    }

    private static int bytecodeSize(MethodModel method) {
        return method.findAttribute(Attributes.code()).orElseThrow().codeLength();
    }

    /** Whether the plan's tiles do not divide {@code sizes}, so that a run needs the class whose edge tiles are cut short. */
    public static boolean tilesCutShort(ExecutionPlan plan, int[] sizes) {
        return DataParallelPlan.tilesOf(plan).flatMap(tiles -> tiles.tileMisfit(sizes)).isPresent();
    }

    private static JClass lower(ExecutionPlan plan, Optional<LockMechanism> mechanism, String packageName, VectorWidth width,
                                boolean raggedTiles) {
        String name = packageName + "." + className(plan, mechanism) + (raggedTiles ? RAGGED_SUFFIX : "");
        JClass lowered = switch (plan) {
            case DataflowPlan dataflow -> DataflowLoops.lower(name, dataflow, SyncLayout.of(dataflow,
                    mechanism.orElseThrow(() -> new IllegalArgumentException("lock-dataflow needs a lock mechanism"))), width);
            case WavefrontPlan wavefront -> WavefrontLoops.lower(name, wavefront, width);
            case DataParallelPlan dataParallel -> DataParallelLoops.lower(name, dataParallel, width, raggedTiles);
            case DynamicDataflowPlan dynamic -> DataParallelLoops.lower(name, dynamic, width, raggedTiles);
        };
        return lowered.withFingerprint(fingerprint(plan, mechanism) + (raggedTiles ? RAGGED_SUFFIX : ""));
    }

    /**
     * A digest of what a class is generated from: the kernel's IR (fields, actors, channels with their policies),
     * its lock granularity, the plan and the mechanism, the inputs declared {@code Storage.BYTE} (where there are any),
     * and the constructor protocol's version. Two definitions that would generate different code get different
     * fingerprints.
     */
    public static String fingerprint(ExecutionPlan plan, Optional<LockMechanism> mechanism) {
        String bytes = plan.graph().kernel().fields().stream().filter(f -> f.storage() == Storage.BYTE).map(FieldSpec::name)
                .collect(java.util.stream.Collectors.joining(","));
        String source = "protocol 1\n" + IrPrinter.print(plan.graph()) + plan.describe()
                + "granularity " + plan.lockChoices().granularity() + " group " + plan.lockChoices().groupSize()
                + "\nmechanism " + mechanism.map(LockMechanism::cliName).orElse("-") + "\n"
                + (bytes.isEmpty() ? "" : "bytes " + bytes + "\n");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }

    /** The lanes' width a class gets when none is asked for: this JVM's preferred shape. */
    public static VectorWidth preferredWidth() {
        return PreferredWidth.WIDTH;
    }

    /** Asked once: the JVM's preferred shape does not change while it runs. */
    private static final class PreferredWidth {
        static final VectorWidth WIDTH = VectorWidth.preferred();
    }

    /**
     * e.g. {@code NeedlemanWunschLockDataflowAcquireReleasePerThreadShared}: kernel, schedule, mechanism, the
     * granularity the mechanism runs with (a warp mechanism's class says {@code WarpShared}) and the channel policy.
     */
    public static String className(ExecutionPlan plan, Optional<LockMechanism> mechanism) {
        StringBuilder name = new StringBuilder(camel(plan.graph().name())).append(camel(plan.schedule().cliName()));
        mechanism.ifPresent(m -> name.append(camel(m.cliName()))
                .append(camel(plan.lockChoices().granularityWith(m).cliName()))
                .append(camel(plan.lockChoices().channelPolicy().cliName())));
        return name.toString();
    }

    private static String camel(String words) {
        return Arrays.stream(words.split("[^A-Za-z0-9]+")).filter(w -> !w.isEmpty())
                .map(w -> w.substring(0, 1).toUpperCase(Locale.ROOT) + w.substring(1))
                .collect(Collectors.joining());
    }
}
