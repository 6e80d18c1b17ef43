package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FileCheck-style goldens of the generated Java source ({@code finegrain show --java}): the kernel, schedule and
 * mechanism in, the exact source out. A change to the lowering that alters a class shows up here as a diff to review;
 * after a deliberate change, rewrite them with
 * {@code ./mvnw -pl compiler/core test -Dtest=JavaSourceGoldenTest -Dfinegrain.golden.update=true}.
 */
class JavaSourceGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/java");
    private static final VectorWidth AVX_512 = new VectorWidth(512, "the preferred vector shape of the JVM that generated this class");

    /**
     * One generated class: a golden file name, the kernel, the schedule, the lock mechanism (lock-dataflow only) and the
     * vector width, fixed here so that the goldens do not depend on the machine's.
     */
    record Case(String file, Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism, VectorWidth width) {
        Case(String file, Kernel kernel, Schedule schedule, Optional<LockMechanism> mechanism) {
            this(file, kernel, schedule, mechanism, AVX_512);
        }

        @Override
        public String toString() {
            return file;
        }
    }

    /** Gauss-Seidel in doubles, as the samples have it: a 2D kernel with a double state field and a padded input. */
    static Kernel gaussSeidel() {
        return kernel("gs")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("grid", DOUBLE, 1)
                .state("u", DOUBLE, boundaryFrom("grid"))
                .actor("relax", "u", a -> a.read("u", -1, 0).plus(a.read("u", 0, -1))
                        .plus(a.read("grid", 1, 0)).plus(a.read("grid", 0, 1)).times(0.25))
                .build();
    }

    static List<Case> cases() {
        Kernel nw = GoldenKernels.needlemanWunsch();
        return List.of(
                new Case("nw-serial", nw, dataParallel(4096, 4096), Optional.empty()),
                new Case("nw-data-parallel-16", nw, dataParallel(16), Optional.empty()),
                new Case("nw-wavefront", nw, wavefront(), Optional.empty()),
                new Case("nw-lock-dataflow-acquire-release", nw, lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)),
                new Case("nw-lock-dataflow-tiny-lock", nw, lockDataflow(), Optional.of(LockMechanism.TINY_LOCK)),
                new Case("nw-lock-dataflow-blocking-warp-shared", nw.toBuilder().warpShared(32).build(), lockDataflow(),
                        Optional.of(LockMechanism.BLOCKING)),
                new Case("nw-serial-8-lanes", nw, dataParallel(4096, 4096), Optional.empty(), VectorWidth.of(256)),
                new Case("nw-serial-no-lanes", nw, dataParallel(4096, 4096), Optional.empty(), VectorWidth.none("no lanes asked for")),
                new Case("gs-serial", gaussSeidel(), dataParallel(1024, 1024), Optional.empty()),
                new Case("gs-lock-dataflow-acquire-release", gaussSeidel(), lockDataflow(), Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)),
                new Case("two-actors-lock-dataflow-acquire-release", GoldenKernels.twoActors(), lockDataflow(),
                        Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG)),
                new Case("align-seq-lock-dataflow-spsc-ring-striped", StripedRowsTest.alignment(StripedRowsTest.Score.PROFILE,
                        dev.finegrain.dsl.Type.INT, dev.finegrain.dsl.Keep.FINAL), lockDataflow(), Optional.of(LockMechanism.SPSC_RING)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void generatedSourceMatchesGolden(Case golden) throws IOException {
        KernelGraph graph = Pipeline.compile(golden.kernel());
        String actual = JavaSourceEmitter.emit(JvmCodegen.generate(SchedulePlanner.plan(graph, golden.schedule()), golden.mechanism(),
                "dev.finegrain.generated", golden.width())).toString();
        Path file = GOLDEN.resolve(golden.file() + ".java.txt");
        if (Boolean.getBoolean("finegrain.golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, actual);
        }
        assertEquals(Files.readString(file), actual, golden.file());
    }
}
