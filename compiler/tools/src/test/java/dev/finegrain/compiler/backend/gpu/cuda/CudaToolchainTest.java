package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.GpuGoldenCatalog;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.GridBarrier;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;
import dev.finegrain.dsl.WaitPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static dev.finegrain.dsl.Type.INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Building a variant with the host harness, which only a machine with a GPU runs: the binary is linked, a second
 * build of the same sources comes from the cache, and a source nvcc rejects gives one line naming the file and nvcc's
 * first error. Skipped where nvcc is missing.
 */
class CudaToolchainTest {

    /**
     * Compiles {@code sources} as two translation units side by side (nvcc runs on one core; the build machines have two),
     * so that nvcc's start-up, half of a variant's build, is paid once a unit instead of once a variant; a unit is never
     * twice in one translation unit. None is linked with the host harness here: every unit exports the same two
     * functions, which {@link #buildsAVariantOnceAndTakesItFromTheCacheAfterwards} links, and the harness's own build took
     * as long as a test's units (7.7 of 12 s a test). {@code sources} maps what a failure names to the source; a unit that
     * fails names every source in it.
     */
    private static void buildAll(java.util.Map<String, CudaSource> sources, Path cache) {
        List<java.util.Map.Entry<String, CudaSource>> entries = List.copyOf(sources.entrySet());
        List<java.util.Map<String, CudaSource>> together = new java.util.ArrayList<>(List.of(
                new java.util.LinkedHashMap<>(), new java.util.LinkedHashMap<>()));
        for (int n = 0; n < entries.size(); n++) {
            CudaSource source = entries.get(n).getValue();
            java.util.Map<String, CudaSource> unit = together.get(n % 2).containsKey(source.id())
                    ? together.stream().filter(u -> !u.containsKey(source.id())).findFirst().orElseGet(() -> {
                        together.add(new java.util.LinkedHashMap<>());
                        return together.getLast();
                    })
                    : together.get(n % 2);
            unit.put(source.id(), source);
        }
        List<Runnable> builds = new java.util.ArrayList<>();
        for (int u = 0; u < together.size(); u++) {
            Path folder = cache.resolve("together-" + u);
            List<CudaSource> unit = List.copyOf(together.get(u).values());
            List<String> names = entries.stream().filter(entry -> unit.contains(entry.getValue())).map(java.util.Map.Entry::getKey).toList();
            if (!unit.isEmpty()) {
                builds.add(() -> {
                    try {
                        Files.createDirectories(folder);
                        NvccTogether.compile(folder, unit);
                    } catch (java.io.IOException | CudaToolchain.CompileException e) {
                        throw new AssertionError("one of " + names + ": " + e.getMessage(), e);
                    }
                });
            }
        }
        builds.parallelStream().forEach(Runnable::run);
    }

    @Test
    void buildsAVariantOnceAndTakesItFromTheCacheAfterwards(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.box3d());
        CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH)
                .source(new Variant(graph, SchedulePlanner.plan(graph, wavefront()), Optional.empty()), new int[] {6, 5, 4});

        Path binary = CudaToolchain.build(source, CudaBackend.DEFAULT_ARCH, cache);
        assertTrue(Files.isExecutable(binary), binary + " is not an executable");
        // a mark that a second link would replace, whatever the file system's timestamp resolution
        Files.setLastModifiedTime(binary, FileTime.fromMillis(0));

        assertEquals(binary, CudaToolchain.build(source, CudaBackend.DEFAULT_ARCH, cache));
        assertEquals(0, Files.getLastModifiedTime(binary).toMillis(), "the second build linked again");
    }

    /**
     * Tiny-lock on a double state: a ready word of its own beside each value, where a 32-bit value takes the bit; on a
     * persistent band's edge, a ready word per row.
     */
    @Test
    void buildsTinyLockOnA64BitState(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        Kernel smooth = GpuGoldenCatalog.CATALOG.find("smooth").orElseThrow().kernel();
        KernelGraph graph = Pipeline.compile(smooth);
        CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                SchedulePlanner.plan(graph, lockDataflow()), Optional.of(LockMechanism.TINY_LOCK)), new int[] {70, 50});
        assertTrue(source.text().contains("fg::store_release_cta(&") && !source.text().contains("fg::u64"), source.text());
        // the persistent bands: a ready word per row of the edge, released after the row's values
        CudaSource bands = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph, SchedulePlanner.plan(graph,
                lockDataflow().persistent()), Optional.of(LockMechanism.TINY_LOCK)), new int[] {70, 50});
        assertTrue(bands.text().contains("fg::store_release_gpu(&tokens[") && bands.text().contains("fg::load_acquire_gpu(&tokens["),
                bands.text());
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        sources.put("tiles", source);
        sources.put("bands", bands);
        buildAll(sources, cache);
    }

    /**
     * Persistent bands whose lanes own several columns build: tiny-lock's ready words (NW, four columns: the input ring
     * copied and the output ring written by the lanes together) and acquire-release's token words (Smith-Waterman, two
     * columns, whose step names enough temporaries that one was once called like the token's row and clashed).
     */
    @Test
    void buildsPersistentBandsOfWideLanes(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        Kernel nw = GpuGoldenCatalog.CATALOG.find("nw").orElseThrow().kernel();
        Kernel smithWaterman = kernel("sw").domain(dim("i", "rows"), dim("j", "cols")).param("gap", INT)
                .input("similarity", INT).state("h", INT, boundary(constant(0)))
                .actor("cell", "h", a -> max(constant(0), a.read("h", -1, -1).plus(a.read("similarity", 0, 0)),
                        a.read("h", -1, 0).minus(a.param("gap")), a.read("h", 0, -1).minus(a.param("gap"))))
                .build();
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (var pair : List.of(java.util.Map.entry(nw, 4), java.util.Map.entry(smithWaterman, 2))) {
            KernelGraph graph = Pipeline.compile(pair.getKey());
            LockMechanism mechanism = pair.getValue() == 4 ? LockMechanism.TINY_LOCK : LockMechanism.ACQUIRE_RELEASE_FLAG;
            CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph, SchedulePlanner.plan(graph,
                    lockDataflow().persistent().columnsPerLane(pair.getValue())), Optional.of(mechanism)), new int[] {100, 300});
            int width = 32 * pair.getValue();
            assertTrue(source.text().contains("for (int e = lane; e < " + width + "; e += 32)"), source.text());
            sources.put(pair.getKey().name(), source);
        }
        buildAll(sources, cache);
    }

    /**
     * Folded persistent bands build: every keep and reduction (fold-mix: a long edge through an edge array, ints kept
     * whole beside it, the second launch that combines the bands' partials) under each mechanism that hands a band edge
     * over, one and two columns per lane, and a two-column edge through tiny-lock's ready words (fold-last-row); each also
     * with 2000 rows, where the edge is a ring.
     */
    @Test
    void buildsFoldedBands(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        KernelGraph mix = Pipeline.compile(GpuGoldenCatalog.foldMix());
        for (LockMechanism mechanism : List.of(LockMechanism.TINY_LOCK, LockMechanism.ACQUIRE_RELEASE_FLAG, LockMechanism.ATOMIC_SPIN_LOCK)) {
            for (int columns : new int[] {1, 2}) {
                CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(mix, SchedulePlanner.plan(mix,
                        lockDataflow().persistent().columnsPerLane(columns)), Optional.of(mechanism)), new int[] {100, 70});
                assertTrue(source.text().contains("combine_reductions<<<1, 32, 0, stream>>>") && source.text().contains("edge_t["),
                        source.text());
                sources.put("fold-mix " + mechanism + " " + columns, source);
            }
            // 4200 rows: the edge is a ring of 2048, its tokens tagged with their lap, and the free counters go back
            CudaSource ring = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(mix, SchedulePlanner.plan(mix,
                    lockDataflow().persistent()), Optional.of(mechanism)), new int[] {4200, 70});
            assertTrue(ring.text().contains("freed[band + 1]"), ring.text());
            sources.put("fold-mix " + mechanism + " ring", ring);
        }
        KernelGraph lastRow = Pipeline.compile(GpuGoldenCatalog.foldLastRow());
        for (int rows : new int[] {100, 4200}) {
            sources.put("fold-last-row " + rows, new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(lastRow,
                    SchedulePlanner.plan(lastRow, lockDataflow().persistent()), Optional.of(LockMechanism.TINY_LOCK)), new int[] {rows, 70}));
        }
        buildAll(sources, cache);
    }

    /**
     * A lookup table indexed by the lane's own sequence value builds as a query profile in each warp's dynamic shared
     * memory, at one, four and eight columns per lane (four columns at 256 x 65536: 512 bands, each a block of one warp
     * with its 12 KiB profile), with a ragged last band; and a kernel that indexes
     * one table by its lane's value on either axis, two profiles side by side.
     */
    @Test
    void buildsQueryProfiles(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.CATALOG.find("nw-seq").orElseThrow().kernel());
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (int columns : new int[] {1, 4, 8}) {
            int[] sizes = columns == 4 ? new int[] {256, 65536} : new int[] {1000, 700};
            CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph, SchedulePlanner.plan(graph,
                    lockDataflow().persistent().columnsPerLane(columns)), Optional.of(LockMechanism.TINY_LOCK)), sizes);
            // eight columns a lane: the wide profile, four columns side by side, read by a 16-byte load (LaneProfile)
            String fill = columns == 8 ? "p_blosum62_b[((x * 2 + 0) * 32 + lane) * 4 + 0] = s_table_blosum62[x * 24 + t]"
                    : "p_blosum62_b[(x * " + columns + " + 0) * 32 + lane] = s_table_blosum62[x * 24 + t]";
            assertTrue(source.text().contains(fill), source.text());
            assertEquals(columns == 8, source.text().contains("reinterpret_cast<const int4*>(p_blosum62_b)"), source.text());
            if (columns == 4) {
                assertTrue(source.text().contains("dim3(512), dim3(32), arguments, 12288, stream"), source.text());
            }
            sources.put("nw-seq " + columns, source);
        }
        Kernel bothAxes = kernel("both-axes").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j")).table("sub", INT, 24, 24)
                .state("s", INT, boundary(constant(0)))
                .actor("cell", "s", c -> max(c.read("s", -1, -1).plus(c.lookup("sub", c.read("a", 0), c.read("b", 0))),
                        c.read("s", 0, -1).plus(c.lookup("sub", c.read("b", 0), c.read("a", 0)))))
                .build();
        KernelGraph both = Pipeline.compile(bothAxes);
        CudaSource twoProfiles = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(both, SchedulePlanner.plan(both,
                lockDataflow().persistent().columnsPerLane(2)), Optional.of(LockMechanism.TINY_LOCK)), new int[] {300, 200});
        assertTrue(twoProfiles.text().contains("p_sub_b[") && twoProfiles.text().contains("p_sub_b_first["), twoProfiles.text());
        sources.put("both-axes", twoProfiles);
        buildAll(sources, cache);
    }

    /** Dynamic dataflow's persistent blocks and the prelude's ready ring build in 2D and 3D, with ragged edge tiles. */
    @Test
    void buildsDynamicDataflowWithItsReadyRing(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        Kernel nw = GpuGoldenCatalog.CATALOG.find("nw").orElseThrow().kernel();
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (Kernel kernel : List.of(nw, GpuGoldenCatalog.box3d())) {
            KernelGraph graph = Pipeline.compile(kernel);
            int[] sizes = kernel.rank() == 3 ? new int[] {13, 10, 7} : new int[] {100, 70};
            CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                    SchedulePlanner.plan(graph, dev.finegrain.dsl.Finegrain.dynamicDataflow().tile(4)), Optional.empty()), sizes);
            assertTrue(source.text().contains("fg::ring_take(ring, ") && source.text().contains("fg::ring_arrive(ring, "),
                    source.text());
            sources.put(kernel.name(), source);
        }
        buildAll(sources, cache);
    }

    @Test
    void buildsAWavefrontWithEachGridBarrier(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        Kernel wide = kernel("wide").domain(dim("i", "n")).state("a", INT, boundary(index("i")))
                .actor("step", "a", a -> a.read("a", -2500).plus(3)).build();
        KernelGraph graph = Pipeline.compile(wide);
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (GridBarrier barrier : java.util.Arrays.stream(GridBarrier.values()).filter(GridBarrier::onGpu).toList()) {
            CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                    SchedulePlanner.plan(graph, wavefront().barrier(barrier)), Optional.empty()), new int[] {7000});
            assertTrue(source.text().contains(switch (barrier) {
                case ATOMIC -> "fg::grid_barrier(";
                case XF -> "fg::xf_grid_barrier(";
                case COOPERATIVE -> "cudaLaunchCooperativeKernel(";
                case RELAUNCH -> "(f, p, error, barrier, step);";
                case DISSEMINATION -> throw new AssertionError("the JVM's");
            }), source.text());
            sources.put(barrier.cliName(), source);
        }
        // the barrier's polls back off: the prelude's nap arguments
        CudaSource napping = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph, SchedulePlanner.plan(graph,
                wavefront().barrier(GridBarrier.XF).waitPolicy(WaitPolicy.BACKOFF)), Optional.empty()), new int[] {7000});
        assertTrue(napping.text().contains("fg::xf_grid_barrier(barrier + 1, ") && napping.text().contains(", 32u, 1024u);"),
                napping.text());
        sources.put("xf backoff", napping);
        buildAll(sources, cache);
    }

    /**
     * A dependence forward in j: the wavefront's steps follow the plane 2i + j = s (persistent blocks; the relaunched
     * form's host loop is the golden north-east-wavefront-relaunch.cu).
     */
    @Test
    void buildsAWavefrontAlongASteeperPlane(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.northEast());
        CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                SchedulePlanner.plan(graph, wavefront()), Optional.empty()), new int[] {3000, 2500});
        assertTrue(source.text().contains("const int j = step - 2 * i;") && source.text().contains("fg::grid_barrier("),
                source.text());
        assertTrue(Files.isExecutable(CudaToolchain.build(source, CudaBackend.DEFAULT_ARCH, cache)));
        // one column: every other step of 2i + j = s holds no point, and its relaunch still takes one block
        CudaSource narrow = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                SchedulePlanner.plan(graph, wavefront().barrier(GridBarrier.RELAUNCH)), Optional.empty()), new int[] {40, 1});
        assertTrue(narrow.text().contains("wavefront<<<max(1, (count + 31) / 32), 32, 0, stream>>>"), narrow.text());
    }

    @Test
    void buildsTheSpinLocksWithEachMutex(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        // the chain, whose links are a warp apart, takes both spin-locks
        KernelGraph graph = Pipeline.compile(GpuGoldenCatalog.CATALOG.find("chain").orElseThrow().kernel());
        // each mutex's spelling once, on one mechanism each: both mechanisms call the same CudaMutex (two builds, not four)
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (dev.finegrain.dsl.Mutex mutex : List.of(dev.finegrain.dsl.Mutex.TEST_AND_TEST_AND_SET, dev.finegrain.dsl.Mutex.TICKET)) {
            for (LockMechanism mechanism : List.of(mutex == dev.finegrain.dsl.Mutex.TICKET ? LockMechanism.SHARED_SPIN_LOCK
                    : LockMechanism.ATOMIC_SPIN_LOCK)) {
                Schedule.LockDataflow schedule = lockDataflow().mutex(mutex);
                CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                        SchedulePlanner.plan(graph, schedule), Optional.of(mechanism)), new int[] {512});
                assertTrue(source.text().contains(mutex == dev.finegrain.dsl.Mutex.TICKET ? "fg::ticket_draw"
                        : "fg::load_acquire_cta(&"), source.text());
                sources.put(mutex + " " + mechanism, source);
            }
        }
        buildAll(sources, cache);
    }

    @Test
    void buildsTokenWaitsThatBackOffOrSleep(@TempDir Path cache) throws Exception {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        KernelGraph graph = Pipeline.compile(dev.finegrain.compiler.pass.GoldenKernels.needlemanWunsch());
        // each policy's spelling on one mechanism each (both go through CudaSyncContext.waitWhile): three builds, not six
        java.util.Map<String, CudaSource> sources = new java.util.LinkedHashMap<>();
        for (WaitPolicy policy : List.of(WaitPolicy.BACKOFF, WaitPolicy.SLEEP)) {
            for (LockMechanism mechanism : List.of(policy == WaitPolicy.BACKOFF ? LockMechanism.TINY_LOCK
                    : LockMechanism.ATOMIC_SPIN_LOCK)) {
                CudaSource source = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(graph,
                        SchedulePlanner.plan(graph, lockDataflow().waitPolicy(policy)), Optional.of(mechanism)),
                        new int[] {64, 64});
                assertTrue(source.text().contains("nap") || source.text().contains("__nanosleep"), source.text());
                sources.put(policy + " " + mechanism, source);
            }
            if (policy == WaitPolicy.SLEEP) {
                continue;   // the in-turn wait's nap is the same doWhile under either policy
            }
            // the chain's tiny-lock waits in turn with its value in the token word: the load loop naps too
            KernelGraph chain = Pipeline.compile(GpuGoldenCatalog.CATALOG.find("chain").orElseThrow().kernel());
            CudaSource inTurn = new CudaBackend(CudaBackend.DEFAULT_ARCH).source(new Variant(chain,
                    SchedulePlanner.plan(chain, lockDataflow().waitPolicy(policy)), Optional.of(LockMechanism.TINY_LOCK)),
                    new int[] {512});
            assertTrue(!inTurn.text().contains("do {"), inTurn.text());
            sources.put(policy + " chain", inTurn);
        }
        buildAll(sources, cache);
    }

    @Test
    void aSourceNvccRejectsIsOneLineNamingTheFileAndTheError(@TempDir Path cache) {
        assumeTrue(CudaToolchain.nvccProblem().isEmpty(), "nvcc is not on the PATH: the CUDA build test is skipped");
        CudaSource broken = new CudaSource("broken", "#include \"finegrain.cuh\"\nint fg_broken() { return undeclared_name; }\n");

        CudaToolchain.CompileException failure = assertThrows(CudaToolchain.CompileException.class,
                () -> CudaToolchain.build(broken, CudaBackend.DEFAULT_ARCH, cache));
        assertTrue(failure.getMessage().startsWith("nvcc could not compile "), failure.getMessage());
        assertTrue(failure.getMessage().contains("broken.cu"), failure.getMessage());
        assertTrue(failure.getMessage().contains("undeclared_name"), failure.getMessage());
        assertEquals(1, failure.getMessage().lines().count(), failure.getMessage());
    }
}
