package dev.finegrain.maven;

import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.KernelLibrary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceConfigurationError;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The worker in-process, over a user project compiled here into a temporary output directory. */
class CompileWorkerTest {

    @TempDir
    static Path project;

    static Path output;
    static Path dslJar;

    @BeforeAll
    static void compileAUserProject() throws Exception {
        dslJar = Path.of(KernelLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path source = project.resolve("src/com/example/Ramp.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, """
                package com.example;
                import dev.finegrain.dsl.*;
                import java.util.List;
                import static dev.finegrain.dsl.Finegrain.*;
                public final class Ramp implements KernelLibrary {
                    public List<LibraryKernel> kernels() {
                        Kernel k = kernel("ramp").domain(dim("i", "n")).state("a", INT, boundary(constant(0)))
                                .actor("step", "a", c -> c.read("a", -1).plus(1)).build();
                        return List.of(new LibraryKernel(k, "ramp", "ramp", (kk, s, seed) -> kk.invocation().sizes(s).build(),
                                List.of(new int[] {8})));
                    }
                }
                """);
        output = project.resolve("classes");
        Files.createDirectories(output.resolve("META-INF/services"));
        Files.writeString(output.resolve("META-INF/services/dev.finegrain.dsl.KernelLibrary"), "com.example.Ramp\n");
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", output.toString(), "-cp", dslJar.toString(), source.toString());
        assertEquals(0, status);
    }

    private static Properties request(String schedules, String mechanisms, String kernels) {
        Properties request = new Properties();
        request.setProperty("kernels", kernels);
        request.setProperty("schedules", schedules);
        request.setProperty("mechanisms", mechanisms);
        request.setProperty("packageName", "com.example.aot");
        request.setProperty("classesDirectory", project.resolve("out/classes").toString());
        request.setProperty("sourcesDirectory", project.resolve("out/sources").toString());
        request.setProperty("projectOutput", output.toString());
        // the project's own copy of finegrain-dsl on its class path too: parent-first loading must still give one KernelLibrary
        request.setProperty("projectClasspath", output + File.pathSeparator + dslJar);
        return request;
    }

    @Test
    void compilesTheProjectsLibraryWithTheDslLoadedOnce() {
        List<String> result = new ArrayList<>();
        assertEquals(CompileWorker.OK, CompileWorker.execute(request("wavefront,data-parallel:4", "", ""), result), result::toString);
        assertEquals(List.of("com.example.aot.RampWavefront", "com.example.aot.RampDataParallel4", "com.example.aot.RampDataParallel4RaggedTiles"),
                result.stream().filter(l -> l.startsWith("generated\t")).map(l -> l.split("\t")[1]).toList());
        assertEquals("kernels\tramp", result.get(result.size() - 1));
        assertTrue(Files.isRegularFile(project.resolve("out/classes/com/example/aot/RampWavefront.class")));
        assertTrue(Files.isRegularFile(project.resolve("out/sources/com/example/aot/RampWavefront.java")));
    }

    @Test
    void aBadScheduleMechanismOrKernelNameIsTheUsersMistakeAndNamed() {
        List<String> result = new ArrayList<>();
        assertEquals(CompileWorker.FAILURE, CompileWorker.execute(request("wavefront,zigzag", "", ""), result));
        assertTrue(result.get(0).startsWith("failure\tfinegrain schedules: 'zigzag' is not a schedule"), result::toString);
        result.clear();
        assertEquals(CompileWorker.FAILURE, CompileWorker.execute(request("data-parallel:0", "", ""), result));
        assertTrue(result.get(0).startsWith("failure\tfinegrain schedules: 'data-parallel:0': tile extents must be positive"),
                result::toString);
        result.clear();
        assertEquals(CompileWorker.FAILURE, CompileWorker.execute(request("wavefront", "carrier-pigeon", ""), result));
        assertTrue(result.get(0).startsWith("failure\tfinegrain mechanisms: 'carrier-pigeon' is not a lock mechanism"), result::toString);
        result.clear();
        assertEquals(CompileWorker.FAILURE, CompileWorker.execute(request("wavefront", "", "nope"), result));
        assertEquals("failure\tfinegrain kernels: no kernel library defines 'nope' (the project defines ramp)", result.get(0));
    }

    /**
     * Found in review: with no mechanisms configured, the compile goal left tiny-lock out of a kernel with long state
     * without a word (the CLI notes it). The worker now passes KernelCompiler's note on, one record per kernel, which
     * the Mojo logs as "finegrain: note: ...".
     */
    @Test
    void mechanismsLeftOutOfAKernelAreOneNoteRecordNamingThemAndWhy() throws Exception {
        Path longs = project.resolve("longs");
        Path source = longs.resolve("src/com/example/LongRamp.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, """
                package com.example;
                import dev.finegrain.dsl.*;
                import java.util.List;
                import static dev.finegrain.dsl.Finegrain.*;
                public final class LongRamp implements KernelLibrary {
                    public List<LibraryKernel> kernels() {
                        Kernel k = kernel("long-ramp").domain(dim("i", "n")).state("a", LONG, boundary(constant(0L)))
                                .actor("step", "a", c -> c.read("a", -1).plus(constant(1L))).build();
                        return List.of(new LibraryKernel(k, "ramp", "ramp", (kk, s, seed) -> kk.invocation().sizes(s).build(),
                                List.of(new int[] {8})));
                    }
                }
                """);
        Path classes = longs.resolve("classes");
        Files.createDirectories(classes.resolve("META-INF/services"));
        Files.writeString(classes.resolve("META-INF/services/dev.finegrain.dsl.KernelLibrary"), "com.example.LongRamp\n");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", classes.toString(), "-cp", dslJar.toString(), source.toString()));
        Properties request = request("wavefront,lock-dataflow", "", "");
        request.setProperty("projectOutput", classes.toString());
        request.setProperty("projectClasspath", classes + File.pathSeparator + dslJar);
        request.setProperty("classesDirectory", longs.resolve("out/classes").toString());
        request.setProperty("sourcesDirectory", longs.resolve("out/sources").toString());
        List<String> result = new ArrayList<>();
        assertEquals(CompileWorker.OK, CompileWorker.execute(request, result), result::toString);
        assertEquals(List.of("note\tkernel 'long-ramp' under lock-dataflow: left out tiny-lock (tiny-lock packs the ready bit"
                        + " beside a 32-bit int value, and state field 'a' is long), as the jvm backend cannot use it for this"
                        + " kernel; compiled acquire-release, atomic-spin-lock, shared-spin-lock, blocking, lock-box, spsc-ring"),
                result.stream().filter(l -> l.startsWith("note\t")).toList());
    }

    @Test
    void aKernelMistakeIsFoundBehindServiceLoaderAndInitializerWrappers() {
        KernelDefinitionException mistake = new KernelDefinitionException("kernel 'k': field 'x' is not declared");
        Throwable wrapped = new ServiceConfigurationError("provider failed", new ExceptionInInitializerError(mistake));
        assertSame(mistake, CompileWorker.kernelMistake(wrapped));
        assertEquals(null, CompileWorker.kernelMistake(new IllegalStateException(new RuntimeException())));
    }
}
