package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dynamicDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sizes the tiles do not divide, on the JVM: the class for such sizes cuts the tiles at the high edges short. A whole
 * tile keeps its form (a row scan, strips, scalar loops in column blocks) and a short one runs scalar
 * loops in the same storage; where the form is lanes across tiles, every tile runs scalar loops. Each form at 128 and
 * 512 bits, on one to three workers, under data-parallel and dynamic dataflow, against the oracle.
 */
class RaggedTilesTest {

    private static final int[] WIDTHS = {128, 512};

    @Test
    void shortTilesAtTheEdgesMatchTheOracleBesideEveryFormOfAWholeTile() {
        List<Kernel> kernels = List.of(GoldenKernels.needlemanWunsch(), RowScanTilesTest.indicesAndOffsets(),
                LaneStripsTest.longsWithIndices(), LaneStripsTest.unskewed(), TileGroupLanesTest.neighboursAndIndices(),
                TileGroupLanesTest.westTwo());
        java.util.Set<String> forms = new java.util.TreeSet<>();
        for (Kernel kernel : kernels) {
            if (!Pipeline.compile(kernel).tiling().legal()) {
                continue;
            }
            for (int bits : WIDTHS) {
                int k = bits / (kernel.fields().stream().anyMatch(f -> f.type() == Type.LONG) ? 64 : 32);
                for (int[] tile : new int[][] {{k, k}, {2 * k, k}, {3, 2 * k}}) {
                    for (int threads = 1; threads <= 3; threads++) {
                        int[] sizes = {3 * tile[0] + 1, 2 * tile[1] + tile[1] / 2 + 1};
                        forms.add(check(kernel, sizes, dataParallel(tile), bits, threads));
                        check(kernel, new int[] {tile[0] - 1, 3 * tile[1] - 1}, dataParallel(tile), bits, threads);
                        check(kernel, new int[] {2 * tile[0], 3 * tile[1] + 1}, dataParallel(tile), bits, threads);   // columns short
                        check(kernel, new int[] {2 * tile[0] + 1, 3 * tile[1]}, dataParallel(tile), bits, threads);   // rows short
                    }
                    check(kernel, new int[] {2 * tile[0] + 3, 3 * tile[1] + 5}, dynamicDataflow().tile(tile), bits, 2);
                }
            }
        }
        // whole tiles kept a row scan, strips and scalar loops in column blocks; lanes across tiles left every tile scalar
        for (String form : List.of("Row scan", "Lanes: strips of ", "Lanes: none; lanes across tiles need",
                "Lanes: none; the tiles do not divide the sizes")) {
            assertTrue(forms.stream().anyMatch(line -> line.contains(form)), form + " in " + forms);
        }
    }

    @Test
    void theClassNamesItselfAndSaysHowItsTilesRun() {
        ExecutionPlan rowScan = SchedulePlanner.plan(Pipeline.compile(GoldenKernels.needlemanWunsch()), dataParallel(16));
        JClass ragged = JvmCodegen.generate(rowScan, Optional.empty(), "p", VectorWidth.of(512), true);
        assertTrue(ragged.name().endsWith("RaggedTiles"), ragged.name());
        assertTrue(JavaSourceEmitter.emit(ragged).toString().contains("a whole tile in its form; a tile cut short at the domain's high edge"
                + " in scalar loops"), ragged.name());
        JClass whole = JvmCodegen.generate(rowScan, Optional.empty(), "p", VectorWidth.of(512));
        assertTrue(!whole.name().endsWith("RaggedTiles") && !ragged.fingerprint().equals(whole.fingerprint()));
        // strips run inside the whole tile's branch only: a short tile runs its points once, in scalar loops (the review
        // found the strips before the branch, so that a short tile ran them and then every point again)
        ExecutionPlan strips = SchedulePlanner.plan(Pipeline.compile(LaneStripsTest.unskewed()), dataParallel(16, 64));
        String source = JavaSourceEmitter.emit(JvmCodegen.generate(strips, Optional.empty(), "p", VectorWidth.of(512), true)).toString();
        int branch = source.indexOf("a whole tile in its form");
        int stripsEnd = source.indexOf("the rows after the last whole strip");
        assertTrue(branch > 0 && stripsEnd > branch, source);
    }

    /** Runs the ragged class against the oracle; returns what its Javadoc says of its lanes (the whole tiles' form). */
    private static String check(Kernel kernel, int[] sizes, Schedule schedule, int bits, int threads) {
        KernelGraph graph = Pipeline.compile(kernel);
        ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
        JClass generated = JvmCodegen.generate(plan, Optional.empty(), GeneratedKernels.PACKAGE, VectorWidth.of(bits), true);
        String what = kernel.name() + " " + sizes[0] + "x" + sizes[1] + " " + schedule.cliName() + " " + bits + " bits, " + threads
                + " thread(s)";
        Invocation invocation = LaneStripsTest.inputs(kernel, sizes);
        BackendRun run;
        try {
            run = new JvmBackend().runWith(GeneratedKernels.define(AsmEmitter.emit(generated)), new Variant(graph, plan, Optional.empty()),
                    invocation, RunSettings.once(1, threads));
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), what + "\n" + JavaSourceEmitter.emit(generated));
        return generated.javadoc().lines().filter(line -> line.startsWith("Lanes: ")).findFirst().orElse("");
    }
}
