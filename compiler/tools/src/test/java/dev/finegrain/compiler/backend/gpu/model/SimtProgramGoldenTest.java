package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.cli.FinegrainCli;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
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
 * FileCheck-style goldens of the model-ISA emitter: the whole of {@code finegrain show KERNEL --simt ...} (launch plan,
 * resources, program) for one variant of each idea the lowering handles, 64-bit values (a double stencil, a long
 * hash) and a 3D domain among them. After a deliberate change, regenerate with
 * {@code ./mvnw -pl compiler/tools -am test -Dtest=SimtProgramGoldenTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfinegrain.golden.update=true} and review the diff; a refactor keeps every file byte for byte.
 */
class SimtProgramGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/simt");

    private static final KernelCatalog CATALOG = GpuGoldenCatalog.CATALOG;

    static Stream<Arguments> variants() {
        return Stream.of(
                Arguments.of("nw-tiny-lock-fermi", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("nw-atomic-spin-lock-fermi", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "atomic-spin-lock")),
                Arguments.of("nw-acquire-release-fermi", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "acquire-release")),
                Arguments.of("nw-mbarrier-hopper", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "mbarrier",
                        "--profile", "hopper-h200")),
                Arguments.of("nw-private-tiny-lock-fermi", List.of("nw-private", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("nw-private-atomic-spin-lock-fermi", List.of("nw-private", "--schedule", "lock-dataflow",
                        "--mechanism", "atomic-spin-lock")),
                Arguments.of("nw-data-parallel-16-fermi", List.of("nw", "--schedule", "data-parallel:16", "--sizes", "64")),
                Arguments.of("nw-data-parallel-16-hopper", List.of("nw", "--schedule", "data-parallel:16", "--sizes", "64",
                        "--profile", "hopper-h200")),
                Arguments.of("nw-seq-data-parallel-16-hopper", List.of("nw-seq", "--schedule", "data-parallel:16", "--sizes", "64",
                        "--profile", "hopper-h200")),
                Arguments.of("nw-dynamic-dataflow-16-fermi", List.of("nw", "--schedule", "dynamic-dataflow:16", "--sizes", "64")),
                Arguments.of("nw-wavefront-hopper-persistent", List.of("nw", "--schedule", "wavefront", "--profile", "hopper-h200",
                        "--sizes", "2048")),
                Arguments.of("chain-tiny-lock-fermi", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("chain-shared-spin-lock-fermi", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "shared-spin-lock")),
                Arguments.of("chain-named-barrier-fermi", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "named-barrier")),
                Arguments.of("chain-warp-vote-fermi", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "warp-vote")),
                Arguments.of("chain-warp-shared-tiny-lock-fermi", List.of("chain-warp-shared", "--schedule", "lock-dataflow",
                        "--mechanism", "tiny-lock")),
                Arguments.of("chain-wavefront-fermi", List.of("chain", "--schedule", "wavefront")),
                Arguments.of("chain-lock-box-fermi", List.of("chain", "--schedule", "lock-dataflow", "--mechanism", "lock-box",
                        "--profile", "fermi-gtx570@feature.lockBox=true")),
                Arguments.of("nw-lock-box-hopper", List.of("nw", "--schedule", "lock-dataflow", "--mechanism", "lock-box",
                        "--profile", "hopper-h200@feature.lockBox=true")),
                Arguments.of("chain-atomic-spin-lock-hopper", List.of("chain", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--profile", "hopper-h200")),
                Arguments.of("chain-mbarrier-warp-hopper", List.of("chain", "--schedule", "lock-dataflow", "--mechanism",
                        "mbarrier-warp", "--profile", "hopper-h200")),
                Arguments.of("nw-wavefront-xf-fermi", List.of("nw", "--schedule", "wavefront:xf", "--sizes", "2048")),
                Arguments.of("nw-wavefront-relaunch-fermi", List.of("nw", "--schedule", "wavefront:relaunch", "--sizes", "2048")),
                Arguments.of("nw-wavefront-atomic-sleep-hopper", List.of("nw", "--schedule", "wavefront:atomic", "--wait-policy",
                        "sleep", "--sizes", "4096", "--profile", "hopper-h200")),
                Arguments.of("nw-atomic-spin-lock-ticket-fermi", List.of("nw", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--mutex", "ticket")),
                Arguments.of("nw-atomic-spin-lock-ttas-hopper", List.of("nw", "--schedule", "lock-dataflow", "--mechanism",
                        "atomic-spin-lock", "--mutex", "ttas", "--profile", "hopper-h200")),
                Arguments.of("nw-tiny-lock-backoff-hopper", List.of("nw", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock", "--wait-policy", "backoff", "--profile", "hopper-h200")),
                Arguments.of("chain-atomic-spin-lock-sleep-hopper", List.of("chain", "--schedule", "lock-dataflow",
                        "--mechanism", "atomic-spin-lock", "--wait-policy", "sleep", "--profile", "hopper-h200")),
                Arguments.of("smooth-tiny-lock-fermi", List.of("smooth", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock")),
                Arguments.of("smooth-data-parallel-16-fermi", List.of("smooth", "--schedule", "data-parallel:16", "--sizes",
                        "64")),
                Arguments.of("long-hash-wavefront-fermi", List.of("long-hash", "--schedule", "wavefront")),
                Arguments.of("long-hash-acquire-release-fermi", List.of("long-hash", "--schedule", "lock-dataflow",
                        "--mechanism", "acquire-release")),
                Arguments.of("box-3d-wavefront-fermi", List.of("box-3d", "--schedule", "wavefront")),
                Arguments.of("box-3d-data-parallel-4x5x3-hopper", List.of("box-3d", "--schedule", "data-parallel:4x5x3",
                        "--profile", "hopper-h200")),
                Arguments.of("box-3d-dynamic-dataflow-4x5x3-hopper", List.of("box-3d", "--schedule", "dynamic-dataflow:4x5x3",
                        "--profile", "hopper-h200")),
                Arguments.of("cube-3d-data-parallel-4x5x3-hopper", List.of("cube-3d", "--schedule", "data-parallel:4x5x3",
                        "--sizes", "12x10x9", "--profile", "hopper-h200")),
                Arguments.of("cube-3d-tiny-lock-hopper", List.of("cube-3d", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock",
                        "--sizes", "6x20x40", "--profile", "hopper-h200")),
                Arguments.of("north-east-tiny-lock-hopper", List.of("north-east", "--schedule", "lock-dataflow", "--mechanism",
                        "tiny-lock", "--sizes", "40x70", "--profile", "hopper-h200")),
                Arguments.of("nw-seq-tiny-lock-fermi", List.of("nw-seq", "--schedule", "lock-dataflow", "--mechanism", "tiny-lock")),
                Arguments.of("nw-persistent-tiny-lock-hopper", List.of("nw", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "256", "--profile", "hopper-h200")),
                Arguments.of("nw-persistent-acquire-release-hopper", List.of("nw", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "acquire-release", "--sizes", "256", "--profile", "hopper-h200")),
                // folded storage: a query profile, a staged table and a lane sequence; a ring edge, streamed reductions
                Arguments.of("nw-seq-persistent-tiny-lock-hopper", List.of("nw-seq", "--schedule", "lock-dataflow:persistent",
                        "--mechanism", "tiny-lock", "--sizes", "256", "--profile", "hopper-h200")),
                Arguments.of("fold-mix-persistent-acquire-release-ring-hopper", List.of("fold-mix", "--schedule",
                        "lock-dataflow:persistent", "--mechanism", "acquire-release", "--sizes", "4200x70", "--profile", "hopper-h200")),
                Arguments.of("fold-last-row-persistent-atomic-spin-lock-hopper", List.of("fold-last-row", "--schedule",
                        "lock-dataflow:persistent", "--mechanism", "atomic-spin-lock", "--sizes", "256", "--profile", "hopper-h200")),
                // lanes of four columns: coalesced ring copies and writes, a profile per column, the columns' loads first
                Arguments.of("nw-seq-persistent-columns-4-tiny-lock-hopper", List.of("nw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "256x300", "--profile", "hopper-h200")),
                Arguments.of("sw-seq-persistent-columns-4-tiny-lock-hopper", List.of("sw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=4", "--mechanism", "tiny-lock", "--sizes", "256x300", "--profile", "hopper-h200")),
                // lanes of eight columns: a wide profile, four columns side by side (read a word at a time on the model)
                Arguments.of("nw-seq-persistent-columns-8-tiny-lock-hopper", List.of("nw-seq", "--schedule",
                        "lock-dataflow:persistent:columns=8", "--mechanism", "tiny-lock", "--sizes", "512x300", "--profile", "hopper-h200")),
                Arguments.of("nw-persistent-columns-2-acquire-release-hopper", List.of("nw", "--schedule",
                        "lock-dataflow:persistent:columns=2", "--mechanism", "acquire-release", "--sizes", "256", "--profile", "hopper-h200")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theProgramOfEachVariantMatchesItsGolden(String name, List<String> arguments) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] command = Stream.concat(Stream.of("show"), Stream.concat(arguments.stream(), Stream.of("--simt")))
                .toArray(String[]::new);
        int exit = FinegrainCli.execute(CATALOG, new PrintWriter(out), new PrintWriter(err), command);
        assertEquals(0, exit, err.toString());
        Path golden = GOLDEN.resolve(name + ".sass");
        if (Boolean.getBoolean("finegrain.golden.update")) {
            Files.writeString(golden, out.toString());
        }
        assertEquals(Files.readString(golden), out.toString(), "golden " + golden);
    }
}
