package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's kernels on the command line: {@code --classpath} (or {@code FINEGRAIN_CLASSPATH}) adds class folders and
 * jars whose kernel libraries join the catalog; a broken library is one warning and the rest still works; two
 * kernels of one name are an error naming both libraries.
 */
class UserClassPathTest {

    @TempDir
    static Path work;

    private static Path good;
    private static Path broken;
    private static Path duplicate;

    /** A library with one kernel: a running sum over a 1D domain, inputs made from the seed. */
    private static String library(String className, String kernelName) {
        return """
                package com.example;

                import dev.finegrain.dsl.*;
                import java.util.List;
                import static dev.finegrain.dsl.Finegrain.*;

                public final class %s implements KernelLibrary {
                    @Override
                    public List<LibraryKernel> kernels() {
                        Kernel sum = kernel("%s").domain(dim("i", "n")).input("x", LONG)
                                .state("total", LONG, boundary(constant(0)))
                                .actor("add", "total", a -> a.read("total", -1).plus(a.read("x", 0)).times(3))
                                .build();
                        return List.of(new LibraryKernel(sum, "a running sum in longs", "Each total is three times the sum.",
                                (kernel, sizes, seed) -> kernel.invocation().sizes(sizes)
                                        .input("x", java.util.stream.LongStream.range(0, sizes[0]).map(k -> k * seed %% 7).toArray())
                                        .build(), List.of(new int[] {40})));
                    }
                }
                """.formatted(className, kernelName);
    }

    private static final String BROKEN = """
            package com.example;

            import dev.finegrain.dsl.*;
            import java.util.List;
            import static dev.finegrain.dsl.Finegrain.*;

            public final class BrokenLibrary implements KernelLibrary {
                @Override
                public List<LibraryKernel> kernels() {
                    Kernel bad = kernel("bad").domain(dim("i", "n")).state("s", INT).actor("a", "scor", c -> c.read("s", -1)).build();
                    return List.of();
                }
            }
            """;

    /** A library with a 3D kernel: a recurrence in doubles and ints reading back along i, j and k. */
    private static final String CUBES = """
            package com.example;

            import dev.finegrain.dsl.*;
            import java.util.List;
            import static dev.finegrain.dsl.Finegrain.*;

            public final class CubeLibrary implements KernelLibrary {
                @Override
                public List<LibraryKernel> kernels() {
                    Kernel cube = kernel("cube-sum").domain(dim("i", "ni"), dim("j", "nj"), dim("k", "nk"))
                            .input("w", DOUBLE)
                            .state("c", INT, boundary(index("i").times(3).plus(index("k"))))
                            .state("u", DOUBLE, boundary(constant(0.5)))
                            .actor("count", "c", a -> a.read("c", -1, 0, 0).plus(a.read("c", 0, -1, 0))
                                    .minus(a.read("c", 0, 0, -1)).remainder(1000003))
                            .actor("average", "u", a -> a.read("u", -1, 0, 0).plus(a.read("u", 0, -1, 0))
                                    .plus(a.read("u", 0, 0, -1)).times(0.3).plus(a.read("w", 0, 0, 0))
                                    .plus(a.read("c", 0, 0, 0).castTo(Type.DOUBLE)))
                            .build();
                    return List.of(new LibraryKernel(cube, "a 3D recurrence", "Each point sums its three predecessors.",
                            (kernel, sizes, seed) -> kernel.invocation().sizes(sizes)
                                    .input("w", new java.util.Random(seed).doubles(sizes[0] * sizes[1] * sizes[2], -1, 1).toArray())
                                    .build(), List.of(new int[] {8, 6, 10})));
                }
            }
            """;

    private static Path cubes;

    @BeforeAll
    static void compileLibraries() throws IOException {
        cubes = compile("cubes", "CubeLibrary", CUBES);
        good = compile("good", "UserLibrary", library("UserLibrary", "triple-sum"));
        broken = compile("broken", "BrokenLibrary", BROKEN);
        duplicate = compile("duplicate", "OtherLibrary", library("OtherLibrary", "triple-sum"));
    }

    /** Compiles one library class into its own class folder with its service file, as a user's build would. */
    private static Path compile(String folder, String className, String source) throws IOException {
        Path root = work.resolve(folder);
        Path sources = root.resolve("src/com/example");
        Path classes = root.resolve("classes");
        Files.createDirectories(sources);
        Files.createDirectories(classes.resolve("META-INF/services"));
        Path file = sources.resolve(className + ".java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, null, diagnostics, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                file.toString());
        assertEquals(0, status, "the library compiles: " + diagnostics);
        Files.writeString(classes.resolve("META-INF/services/dev.finegrain.dsl.KernelLibrary"), "com.example." + className + "\n");
        return classes;
    }

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(KernelCatalog::load, environment, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static Outcome finegrain(String... args) {
        return finegrain(Map.of(), args);
    }

    @Test
    void aClassFolderOnTheClassPathAddsItsKernelsToEveryCommand() {
        Outcome list = finegrain("--classpath", good.toString(), "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().startsWith("triple-sum  a running sum in longs"), list.out());
        Outcome run = finegrain("--classpath", good.toString(), "run", "triple-sum", "--size", "40", "--backend", "jvm",
                "--schedule", "wavefront", "--quick");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains(" verified "), run.out());
    }

    /**
     * A user's 3D kernel verifies on the GPU model under wavefront and data-parallel; lock-dataflow's 3D tiles take it
     * but not its six channels a point, which the row names.
     */
    @Test
    void aUsersThreeDimensionalKernelVerifiesOnTheGpuModel() {
        Outcome compare = finegrain("--classpath", cubes.toString(), "compare", "cube-sum", "--backends",
                "gpu-model:hopper-h200,jvm", "--schedules", "wavefront,data-parallel:4x3x5,lock-dataflow", "--quick");
        assertEquals(0, compare.exit(), compare.err());
        List<String> gpuRows = compare.out().lines().filter(line -> line.startsWith("cube-sum") && line.contains("gpu-model:hopper-h200")).toList();
        assertEquals(3, gpuRows.size(), compare.out());
        for (String[] expected : new String[][] {{"wavefront", "verified"}, {"data-parallel:4x3x5", "verified"},
                {"lock-dataflow", "skipped"}}) {
            assertTrue(gpuRows.stream().anyMatch(row -> row.contains(" " + expected[0] + " ") && row.contains(" " + expected[1] + " ")),
                    () -> expected[0] + " should be " + expected[1] + ":\n" + compare.out());
        }
        assertTrue(compare.out().contains("kernel cube-sum has 6 channels to synchronise per point; the GPU model's lowering"
                + " holds at most 4"), compare.out());
        assertTrue(compare.out().lines().filter(line -> line.startsWith("cube-sum") && line.contains(" jvm ")).allMatch(line -> line.contains(" verified ")),
                compare.out());
    }

    @Test
    void theClassPathMayFollowTheSubcommandAndComeFromTheEnvironment() {
        Outcome after = finegrain("compare", "triple-sum", "--backends", "reference", "--classpath", good.toString());
        assertEquals(0, after.exit(), after.err());
        Outcome environment = finegrain(Map.of(FinegrainCli.CLASSPATH_VARIABLE, good.toString()), "list");
        assertEquals(0, environment.exit(), environment.err());
        assertTrue(environment.out().contains("triple-sum"), environment.out());
    }

    @Test
    void aServiceFileNamingAMissingClassIsOneWarningNamingItsClassFolder() throws IOException {
        Path listed = work.resolve("listed-missing/classes");
        Files.createDirectories(listed.resolve("META-INF/services"));
        Files.writeString(listed.resolve("META-INF/services/dev.finegrain.dsl.KernelLibrary"), "# renamed since\ncom.example.GoneLibrary\n");
        Outcome list = finegrain("--classpath", listed + File.pathSeparator + good, "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains("triple-sum"), "the good library's kernel is listed:\n" + list.out());
        List<String> warnings = list.err().lines().toList();
        assertEquals(1, warnings.size(), list.err());
        assertTrue(warnings.getFirst().startsWith("finegrain: warning: a kernel library listed in META-INF/services/"
                + "dev.finegrain.dsl.KernelLibrary of " + listed.toAbsolutePath() + " could not be loaded, so its kernels are left"
                + " out: ServiceConfigurationError: dev.finegrain.dsl.KernelLibrary: Provider com.example.GoneLibrary not found"),
                warnings.getFirst());
    }

    @Test
    void aLibraryThatFailsToLoadIsOneWarningAndTheOthersStillWork() {
        Outcome list = finegrain("--classpath", broken + File.pathSeparator + good, "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains("triple-sum"), "the good library's kernel is listed:\n" + list.out());
        List<String> warnings = list.err().lines().toList();
        assertEquals(1, warnings.size(), list.err());
        assertTrue(warnings.getFirst().startsWith("finegrain: warning: kernel library com.example.BrokenLibrary ("
                + broken.toUri().getPath() + ") could not be loaded, so its kernels are left out: kernel 'bad', actor 'a': field 'scor'"
                + " is not declared"), warnings.getFirst());
        assertFalse(list.err().contains("\tat "), "no stack trace");
    }

    @Test
    void aFileThatIsNotAJarIsAWarningNamingIt() throws IOException {
        Path garbage = Files.writeString(work.resolve("garbage.jar"), "not a zip");
        Outcome list = finegrain("--classpath", garbage + File.pathSeparator + good, "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains("triple-sum"), list.out());
        assertEquals(1, list.err().lines().count(), list.err());
        assertTrue(list.err().startsWith("finegrain: warning: class path entry " + garbage + " is not a readable jar"), list.err());
    }

    @Test
    void helpNeverLoadsTheLibraries() {
        Outcome help = finegrain("--classpath", broken.toString(), "compare", "--help");
        assertEquals(0, help.exit(), help.err());
        assertEquals("", help.err());
    }

    @Test
    void twoKernelsWithOneNameAreAnErrorNamingBothLibraries() {
        Outcome list = finegrain("--classpath", good + File.pathSeparator + duplicate, "list");
        assertEquals(FinegrainCli.EXIT_USAGE, list.exit(), list.err());
        assertEquals(List.of("finegrain: kernel 'triple-sum' is defined twice, by com.example.UserLibrary (" + good.toUri().getPath()
                + ") and by com.example.OtherLibrary (" + duplicate.toUri().getPath() + "); rename one of them"), list.err().lines().toList());
    }

    @Test
    void anEntryThatDoesNotExistIsAOneLineUsageError() {
        Outcome list = finegrain("--classpath", work.resolve("nowhere").toString(), "list");
        assertEquals(FinegrainCli.EXIT_USAGE, list.exit());
        List<String> lines = new ArrayList<>(list.err().lines().toList());
        assertEquals(1, lines.size(), list.err());
        assertTrue(lines.getFirst().startsWith("finegrain: --classpath entry '" + work.resolve("nowhere") + "' does not exist;"),
                lines.getFirst());
    }
}
