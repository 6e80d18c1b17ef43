package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.cli.FinegrainCli;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FileCheck-style goldens of the CUDA emitter: the whole translation unit of {@code finegrain show KERNEL --cuda ...}
 * for one variant of each schedule, each mechanism's protocol, private channels, warp-shared locks and the 64-bit
 * types. After a deliberate change, regenerate with {@code ./mvnw -pl compiler/tools -am test -Dtest=CudaSourceGoldenTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfinegrain.golden.update=true} and review the diff; a refactor keeps every
 * file byte for byte. {@code CudaCompileTest} in the samples checks that nvcc accepts what is emitted.
 */
class CudaSourceGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/cuda");

    static Stream<Arguments> variants() {
        return Stream.of(
                Arguments.of("nw-wavefront", List.of("nw", "--schedule", "wavefront")),
                Arguments.of("nw-data-parallel-16", List.of("nw", "--schedule", "data-parallel:16", "--sizes", "64")),
                Arguments.of("nw-data-parallel-16-sm80", List.of("nw", "--schedule", "data-parallel:16", "--sizes", "64",
                        "--arch", "sm_80")),
                Arguments.of("chain-data-parallel-16", List.of("chain", "--schedule", "data-parallel:16", "--sizes", "100")),
                Arguments.of("nw-dynamic-dataflow-16", List.of("nw", "--schedule", "dynamic-dataflow:16", "--sizes", "64")),
                Arguments.of("nw-tiny-lock", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("nw-acquire-release", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "acquire-release")),
                Arguments.of("nw-atomic-spin-lock", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "atomic-spin-lock")),
                Arguments.of("nw-mbarrier", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "mbarrier")),
                Arguments.of("nw-private-tiny-lock", List.of("nw-private", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("chain-shared-spin-lock", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "shared-spin-lock")),
                Arguments.of("chain-named-barrier", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "named-barrier")),
                Arguments.of("chain-warp-vote", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "warp-vote")),
                Arguments.of("chain-mbarrier-warp", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "mbarrier-warp")),
                Arguments.of("nw-wavefront-xf", List.of("nw", "--schedule", "wavefront:xf", "--sizes", "2048")),
                Arguments.of("nw-tiny-lock-backoff", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock",
                        "--wait-policy", "backoff")),
                Arguments.of("chain-acquire-release-sleep", List.of("chain", "--schedule", "lock-dataflow", "--mechanism",
                        "acquire-release", "--wait-policy", "sleep")),
                Arguments.of("chain-tiny-lock-backoff", List.of("chain", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock", "--wait-policy", "backoff")),
                Arguments.of("nw-wavefront-cooperative", List.of("nw", "--schedule", "wavefront:cooperative", "--sizes", "2048")),
                Arguments.of("nw-wavefront-relaunch", List.of("nw", "--schedule", "wavefront:relaunch", "--sizes", "2048")),
                Arguments.of("nw-wavefront-xf-backoff", List.of("nw", "--schedule", "wavefront:xf", "--wait-policy", "backoff",
                        "--sizes", "2048")),
                Arguments.of("nw-atomic-spin-lock-ttas", List.of("nw", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--mutex", "ttas")),
                Arguments.of("nw-atomic-spin-lock-ticket", List.of("nw", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--mutex", "ticket")),
                Arguments.of("chain-warp-shared-tiny-lock", List.of("chain-warp-shared", "--schedule", "lock-dataflow",
                        "--mechanism", "tiny-lock")),
                Arguments.of("chain-wavefront-sm80", List.of("chain", "--schedule", "wavefront", "--arch", "sm_80")),
                Arguments.of("nw-persistent-tiny-lock", List.of("nw", "--schedule", "lock-dataflow:persistent", "--mechanism",
                        "tiny-lock", "--sizes", "100x70")),
                Arguments.of("nw-persistent-tiny-lock-columns-4", List.of("nw", "--schedule", "lock-dataflow:persistent:columns=4",
                        "--mechanism", "tiny-lock", "--sizes", "100x300")),
                // every band full: the first chunk peeled into the steady steps (FirstChunk), tiny-lock's ready words held by i >= 0
                Arguments.of("nw-persistent-tiny-lock-columns-4-peeled", List.of("nw", "--schedule", "lock-dataflow:persistent:columns=4",
                        "--mechanism", "tiny-lock", "--sizes", "128x256")),
                Arguments.of("nw-byte-persistent-tiny-lock", List.of("nw-byte", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "100x70")),
                Arguments.of("nw-byte-persistent-tiny-lock-columns-4", List.of("nw-byte", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "100x300")),
                Arguments.of("nw-byte-data-parallel-16", List.of("nw-byte", "--schedule", "data-parallel:16", "--sizes", "64")),
                Arguments.of("smooth-persistent-acquire-release-columns-2", List.of("smooth", "--schedule",
                        "lock-dataflow:persistent:columns=2", "--mechanism", "acquire-release", "--sizes", "40x200")),
                Arguments.of("nw-seq-persistent-tiny-lock-columns-8", List.of("nw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=8", "--mechanism", "tiny-lock", "--sizes", "100x300")),
                Arguments.of("nw-persistent-atomic-spin-lock", List.of("nw", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "atomic-spin-lock", "--sizes", "64")),
                Arguments.of("smooth-persistent-acquire-release", List.of("smooth", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "acquire-release", "--sizes", "40x200")),
                Arguments.of("smooth-persistent-tiny-lock", List.of("smooth", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "40x200")),
                Arguments.of("smooth-acquire-release", List.of("smooth", "--schedule", "lock-dataflow", "--mechanism",
                        "acquire-release")),
                Arguments.of("smooth-tiny-lock", List.of("smooth", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("long-hash-atomic-spin-lock", List.of("long-hash", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock")),
                Arguments.of("north-east-wavefront", List.of("north-east", "--schedule", "wavefront", "--sizes", "40x50")),
                Arguments.of("north-east-wavefront-relaunch", List.of("north-east", "--schedule", "wavefront:relaunch", "--sizes",
                        "40x50")),
                Arguments.of("box-3d-wavefront", List.of("box-3d", "--schedule", "wavefront", "--sizes", "40x40x40")),
                Arguments.of("box-3d-data-parallel-4x5x3", List.of("box-3d", "--schedule", "data-parallel:4x5x3")),
                Arguments.of("box-3d-dynamic-dataflow-4x5x3", List.of("box-3d", "--schedule", "dynamic-dataflow:4x5x3")),
                Arguments.of("north-east-lock-dataflow-tiny-lock", List.of("north-east", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock", "--sizes", "40x70")),
                Arguments.of("box-3d-lock-dataflow-tiny-lock", List.of("box-3d", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock", "--sizes", "6x20x40")),
                Arguments.of("nw-seq-data-parallel-16", List.of("nw-seq", "--schedule", "data-parallel:16", "--sizes", "64")),
                Arguments.of("nw-seq-persistent-tiny-lock", List.of("nw-seq", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "100x70")),
                Arguments.of("fold-mix-persistent-acquire-release", List.of("fold-mix", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "acquire-release", "--sizes", "100x70")),
                Arguments.of("fold-last-row-persistent-tiny-lock-columns-2", List.of("fold-last-row", "--schedule",
                        "lock-dataflow:persistent:columns=2", "--mechanism", "tiny-lock", "--sizes", "100x70")),
                Arguments.of("sw-seq-persistent-tiny-lock-columns-4", List.of("sw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "100x300")),
                Arguments.of("sw-seq-persistent-tiny-lock-columns-4-full", List.of("sw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "100x256")),
                Arguments.of("sw-seq-persistent-tiny-lock-columns-4-straddling", List.of("sw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "100x90")),
                Arguments.of("fold-all-persistent-tiny-lock-columns-4-straddling", List.of("fold-all", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "130x102")),
                Arguments.of("nw-seq-persistent-tiny-lock-ring", List.of("nw-seq", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "4200x70")),
                Arguments.of("fold-mix-persistent-atomic-spin-lock-ring", List.of("fold-mix", "--schedule",
                        "lock-dataflow:persistent", "--mechanism", "atomic-spin-lock", "--sizes", "4200x70")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theSourceOfEachVariantMatchesItsGolden(String name, List<String> arguments) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] command = Stream.concat(Stream.of("show"), Stream.concat(arguments.stream(), Stream.of("--cuda")))
                .toArray(String[]::new);
        int exit = FinegrainCli.execute(GpuGoldenCatalog.CATALOG, new PrintWriter(out), new PrintWriter(err), command);
        assertEquals(0, exit, err.toString());
        Path golden = GOLDEN.resolve(name + ".cu");
        if (Boolean.getBoolean("finegrain.golden.update")) {
            Files.writeString(golden, out.toString());
        }
        assertEquals(Files.readString(golden), out.toString(), "golden " + golden);
    }
}
