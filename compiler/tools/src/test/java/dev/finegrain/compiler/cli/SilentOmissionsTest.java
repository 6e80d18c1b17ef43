package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mistakes the CLI used to pass over without a word: an empty {@code --sizes} list (it printed an empty table and
 * blamed "the reasons in the table"), and a {@code --classpath} entry that loads no kernels (an empty folder, a jar
 * of nothing, a project's folder given for its {@code target/classes}, {@code lib/*} over a folder without jars).
 */
class SilentOmissionsTest {

    private static final String SERVICE = "META-INF/services/dev.finegrain.dsl.KernelLibrary";

    @TempDir
    Path work;

    private record Outcome(int exit, String out, String err) {}

    private static Outcome finegrain(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static Outcome loading(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FinegrainCli.execute(KernelCatalog::load, environment, new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    // ---- --sizes -------------------------------------------------------------------------------------------

    @Test
    void anEmptySizesListIsAOneLineUsageErrorWithAnExample() {
        for (String sizes : List.of(",", ",,", " ", "")) {
            Outcome compare = finegrain("compare", "pascal", "--sizes", sizes, "--backends", "reference");
            assertEquals(FinegrainCli.EXIT_USAGE, compare.exit(), compare.out() + compare.err());
            assertEquals(List.of("finegrain: --sizes '" + sizes + "' is an empty list; give one or more sizes separated by"
                    + " commas, e.g. --sizes 64,128 or --sizes 64x32"), compare.err().lines().toList());
            assertEquals("", compare.out(), "no empty table");
        }
    }

    @Test
    void anEmptyEntryInASizesListIsAOneLineUsageError() {
        for (String sizes : List.of("8,,16", "8,", ",8")) {
            Outcome compare = finegrain("compare", "pascal", "--sizes", sizes, "--backends", "reference");
            assertEquals(FinegrainCli.EXIT_USAGE, compare.exit(), compare.err());
            assertEquals(List.of("finegrain: --sizes '" + sizes + "' has an empty entry; separate sizes with single commas,"
                    + " e.g. --sizes 64,128 or --sizes 64x32,128x64"), compare.err().lines().toList());
        }
        Outcome export = finegrain("export", "pascal", "--sizes", ",", "--out", work.resolve("bundle").toString());
        assertEquals(FinegrainCli.EXIT_USAGE, export.exit(), export.err());
        assertTrue(export.err().startsWith("finegrain: --sizes ',' is an empty list;"), export.err());
    }

    // ---- --classpath ---------------------------------------------------------------------------------------

    private static String noKernels(Path entry) {
        return "finegrain: warning: class path entry " + entry + " holds no class file and no " + SERVICE + ", so it adds no"
                + " kernels; point --classpath (or $FINEGRAIN_CLASSPATH) at the folder or jar holding your compiled classes"
                + " with their " + SERVICE + " file (for a Maven project: target/classes)";
    }

    @Test
    void anEmptyClassFolderIsOneNoteNamingItAndWhatToDo() throws IOException {
        Path empty = Files.createDirectories(work.resolve("empty"));
        for (String command : List.of("list", "compare")) {
            Outcome outcome = command.equals("list") ? loading(Map.of(), "--classpath", empty.toString(), "list")
                    : loading(Map.of(), "--classpath", empty.toString(), "compare", "no-such-kernel");
            assertEquals(noKernels(empty), outcome.err().lines().findFirst().orElse(""), command);
            assertFalse(outcome.err().contains("\tat "), "no stack trace");
        }
        Outcome list = loading(Map.of(), "--classpath", empty.toString(), "list");
        assertEquals(0, list.exit(), list.err());
        assertEquals(List.of(noKernels(empty)), list.err().lines().toList());
        Outcome fromEnvironment = loading(Map.of(FinegrainCli.CLASSPATH_VARIABLE, empty.toString()), "list");
        assertEquals(List.of(noKernels(empty)), fromEnvironment.err().lines().toList());
    }

    @Test
    void aJarOfNothingIsOneNote() throws IOException {
        Path jar = work.resolve("nothing.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("README.txt"));
            out.write("no classes here".getBytes());
            out.closeEntry();
        }
        Outcome list = loading(Map.of(), "--classpath", jar.toString(), "list");
        assertEquals(0, list.exit(), list.err());
        assertEquals(List.of(noKernels(jar)), list.err().lines().toList());
    }

    @Test
    void aProjectFolderGivenForItsClassFolderIsOneNotePointingAtIt() throws IOException {
        Path project = work.resolve("my-kernels");
        Path classes = project.resolve("target/classes");
        Files.createDirectories(classes.resolve("META-INF/services"));
        Files.writeString(classes.resolve(SERVICE), "com.example.Nothing\n");
        Files.createDirectories(classes.resolve("com/example"));
        Files.write(classes.resolve("com/example/Nothing.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
        Outcome list = loading(Map.of(), "--classpath", project.toString(), "list");
        assertEquals(0, list.exit(), list.err());
        assertEquals(List.of("finegrain: warning: class path entry " + project + " holds no " + SERVICE + " of its own, so it"
                + " adds no kernels, but " + classes + " below it does; point --classpath at " + classes), list.err().lines().toList());
    }

    /** A folder or jar of classes without a service file is a library's dependency: nothing to say. */
    @Test
    void aDependencyOfClassesWithoutAServiceSaysNothing() throws IOException {
        Path dependency = Files.createDirectories(work.resolve("dependency/org/example"));
        Files.write(dependency.resolve("Helper.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
        Path jar = work.resolve("helpers.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("org/example/Helper.class"));
            out.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            out.closeEntry();
        }
        Outcome list = loading(Map.of(), "--classpath", work.resolve("dependency") + File.pathSeparator + jar, "list");
        assertEquals(0, list.exit(), list.err());
        assertEquals("", list.err());
    }

    @Test
    void aFolderOfJarsWithoutJarsIsAOneLineUsageError() throws IOException {
        Path lib = Files.createDirectories(work.resolve("lib"));
        Outcome list = loading(Map.of(), "--classpath", lib + "/*", "list");
        assertEquals(FinegrainCli.EXIT_USAGE, list.exit(), list.err());
        assertEquals(List.of("finegrain: --classpath entry '" + lib + "/*': " + lib + " holds no .jar file; give the folder of"
                + " your jars, or a class folder without '/*'"), list.err().lines().toList());
    }

    @Test
    void anEntryThatDoesNotExistIsStillOneLine() {
        Outcome list = loading(Map.of(), "--classpath", work.resolve("nowhere").toString(), "list");
        assertEquals(FinegrainCli.EXIT_USAGE, list.exit());
        assertEquals(1, list.err().lines().count(), list.err());
        assertTrue(list.err().startsWith("finegrain: --classpath entry '" + work.resolve("nowhere") + "' does not exist;"), list.err());
    }
}
