package dev.finegrain.samples;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample under every schedule x mechanism x granularity x channel policy on the jvm backend is bit-identical to
 * the oracle, on random sizes (multiples of the tile, so data-parallel applies), inputs and thread counts.
 */
class JvmBackendPropertiesTest {

    @Property(tries = 25, seed = "20261122")
    void everyVariantOfEverySampleMatchesTheOracle(@ForAll @IntRange(min = 0, max = 6) int sampleIndex,
                                                   @ForAll @IntRange(min = 1, max = 6) int tiles,
                                                   @ForAll @IntRange(min = 1, max = 5) int otherTiles,
                                                   @ForAll @IntRange(min = 1, max = 9) int groupSize,
                                                   @ForAll boolean warpShared, @ForAll boolean privateChannels,
                                                   @ForAll @IntRange(min = 1, max = 3) int threads,
                                                   @ForAll long seed) {
        LibraryKernel sample = new SampleLibrary().kernels().get(sampleIndex);
        Kernel.Builder variant = sample.kernel().toBuilder().channelPolicy(privateChannels ? ChannelPolicy.PRIVATE : ChannelPolicy.SHARED);
        if (warpShared) {
            variant.warpShared(groupSize);
        }
        Kernel kernel = variant.build();
        LibraryKernel library = new LibraryKernel(kernel, sample.summary(), sample.description(), sample.inputs(), sample.defaultSizes());
        int tile = 4;
        int[] size = kernel.rank() == 1 ? new int[] {tile * tiles * 8 + 3 * tile} : new int[] {tile * tiles, tile * otherTiles};
        List<Schedule> schedules = List.of(wavefront(), lockDataflow(), dataParallel(tile));
        List<ResultRow> rows = ComparisonRunner.run(ComparisonRequest.builder(library).sizes(List.of(size)).schedules(schedules)
                .backends(List.of(new JvmBackend())).seed(seed).threads(threads).build()).rows();
        for (ResultRow row : rows) {
            assertTrue(row.verified(), kernel.name() + " " + ComparisonRunner.sizeText(size) + " " + row.schedule() + " "
                    + row.mechanism() + " " + row.granularity() + " " + row.channels() + " threads " + threads + ": " + row.problem());
        }
    }

    /**
     * The 2D samples in strips of lanes (2 to 16 of them, so that domains of 12 to 48 rows hold whole strips and blocks)
     * under every schedule and mechanism, per-thread and warp-shared, on 1 to 3 threads, equal the oracle bit for bit.
     */
    @Property(tries = 20, seed = "20261124")
    void everyTwoDimensionalSampleInStripsOfLanesMatchesTheOracle(@ForAll @IntRange(min = 0, max = 3) int sampleIndex,
                                                                  @ForAll @IntRange(min = 1, max = 4) int tiles,
                                                                  @ForAll @IntRange(min = 1, max = 4) int otherTiles,
                                                                  @ForAll @IntRange(min = 0, max = 2) int widthIndex,
                                                                  @ForAll boolean warpShared,
                                                                  @ForAll @IntRange(min = 1, max = 3) int threads,
                                                                  @ForAll long seed) {
        List<LibraryKernel> twoDimensional = new SampleLibrary().kernels().stream().filter(k -> k.kernel().rank() == 2).toList();
        LibraryKernel sample = twoDimensional.get(sampleIndex % twoDimensional.size());
        Kernel kernel = warpShared ? sample.kernel().toBuilder().warpShared(16).build() : sample.kernel();
        int[] tile = {12, 20};
        int[] size = {tile[0] * tiles, tile[1] * otherTiles + tile[1]};
        Invocation invocation = sample.inputs().generate(kernel, size, seed);
        KernelGraph graph = Pipeline.compile(kernel);
        KernelOutputs oracle = SequentialOracle.run(graph, invocation);
        JvmBackend jvm = new JvmBackend(VectorWidth.of(new int[] {128, 256, 512}[widthIndex]));
        for (Schedule schedule : List.of(wavefront(), lockDataflow(), dataParallel(tile), dataParallel(size))) {
            ExecutionPlan plan = SchedulePlanner.plan(graph, schedule);
            List<Optional<LockMechanism>> mechanisms = jvm.mechanisms(SchedulePlanner.plan(graph, schedule)).stream().map(Optional::of).toList();
            for (Optional<LockMechanism> mechanism : mechanisms.isEmpty() ? List.of(Optional.<LockMechanism>empty()) : mechanisms) {
                BackendRun run = jvm.run(new Variant(graph, plan, mechanism), invocation, RunSettings.once(1, threads));
                assertEquals(Optional.empty(), oracle.firstDifference(graph, size, run.outputs()), kernel.name() + " " + size[0] + "x"
                        + size[1] + " " + schedule.cliName() + " " + mechanism + " threads " + threads);
            }
        }
    }
}
