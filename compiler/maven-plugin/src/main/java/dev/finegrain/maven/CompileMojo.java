package dev.finegrain.maven;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;

import javax.inject.Inject;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Compiles the project's kernels ahead of time: every kernel x schedule (lock-dataflow once per lock mechanism)
 * becomes one class implementing {@code dev.finegrain.runtime.jvm.TeamTask}, written as a .class file to
 * {@link #classesDirectory} and as readable Java source to {@link #sourcesDirectory}.
 *
 * <p>Kernels are found as a {@code dev.finegrain.dsl.KernelLibrary} service (the mechanism the {@code finegrain}
 * CLI uses too): list the implementation in {@code src/main/resources/META-INF/services/dev.finegrain.dsl.KernelLibrary}.
 * Only libraries whose class is in the project's own output directory are compiled; libraries that come with a
 * dependency are that dependency's business.
 *
 * <p>The work happens in a forked JVM of the project's JDK toolchain (see {@link CompileWorker} for why and how).
 * A mistake in a user's kernel or in this goal's configuration fails the build with
 * {@link MojoFailureException} carrying the DSL's one-line message; anything else is a {@link MojoExecutionException}.
 */
@Mojo(name = "compile", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME)
public class CompileMojo extends AbstractMojo {

    /** By name: the worker's class refers to Java 25 classes and must never be loaded in Maven's JVM. */
    static final String WORKER = "dev.finegrain.maven.CompileWorker";

    /**
     * Names of the kernels to compile, e.g. {@code needleman-wunsch,chain}. Empty (the default): every kernel of
     * the project's kernel libraries. A name no library defines fails the build.
     */
    @Parameter(property = "finegrain.kernels")
    private List<String> kernels;

    /**
     * Schedules to compile each kernel with, in the CLI's spelling: {@code wavefront}, {@code lock-dataflow},
     * {@code data-parallel} (16-wide tiles) or {@code data-parallel:B} / {@code data-parallel:BxB}.
     */
    @Parameter(property = "finegrain.schedules", defaultValue = "wavefront,lock-dataflow,data-parallel")
    private List<String> schedules;

    /**
     * Lock mechanisms for the lock-dataflow schedule, in the CLI's spelling (e.g. {@code acquire-release},
     * {@code atomic-spin-lock}, {@code blocking}), or {@code all}. Empty (the default): the mechanism the kernel
     * names, if it names one, else every mechanism the jvm backend supports for the kernel. Mechanisms the backend
     * does not support for a kernel are left out for that kernel, with one note per kernel naming them and why
     * (tiny-lock, for one, packs its ready bit beside a 32-bit int and so leaves out kernels with long or double state).
     */
    @Parameter(property = "finegrain.mechanisms")
    private List<String> mechanisms;

    /**
     * Java package of the generated classes. Default: the project's groupId made into a package name (lower
     * case, other characters as {@code _}) followed by {@code .finegrain}, e.g. {@code com.example.finegrain}.
     * Keep it distinct from the packages the finegrain CLI generates into at run time.
     */
    @Parameter(property = "finegrain.packageName")
    private String packageName;

    /** Where the generated .class files go. */
    @Parameter(property = "finegrain.classesDirectory", defaultValue = "${project.build.outputDirectory}", required = true)
    private File classesDirectory;

    /** Where the readable Java sources of the generated classes go (for reading; they are not compiled again). */
    @Parameter(property = "finegrain.sourcesDirectory",
            defaultValue = "${project.build.directory}/generated-sources/finegrain", required = true)
    private File sourcesDirectory;

    /** Skips this goal. */
    @Parameter(property = "finegrain.skip", defaultValue = "false")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    private final ToolchainManager toolchainManager;

    @Inject
    public CompileMojo(ToolchainManager toolchainManager) {
        this.toolchainManager = toolchainManager;
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("finegrain:compile skipped (finegrain.skip)");
            return;
        }
        long start = System.nanoTime();
        Path work = Path.of(project.getBuild().getDirectory(), "finegrain-worker");
        Path requestFile = work.resolve("request.properties");
        Path resultFile = work.resolve("result.txt");
        ForkedJava fork = new ForkedJava(project, session, plugin, toolchainManager);
        Path argFile;
        try {
            Files.createDirectories(work);
            Files.deleteIfExists(resultFile);
            Properties request = new Properties();
            request.setProperty("kernels", join(kernels));
            request.setProperty("schedules", join(schedules));
            request.setProperty("mechanisms", join(mechanisms));
            request.setProperty("packageName", packageName != null && !packageName.isBlank()
                    ? packageName.trim() : defaultPackage(project.getGroupId()));
            request.setProperty("classesDirectory", classesDirectory.getAbsolutePath());
            request.setProperty("sourcesDirectory", sourcesDirectory.getAbsolutePath());
            request.setProperty("projectOutput", project.getBuild().getOutputDirectory());
            request.setProperty("projectClasspath", String.join(File.pathSeparator, fork.projectClasspath()));
            request.setProperty("resultFile", resultFile.toString());
            request.setProperty("debug", String.valueOf(getLog().isDebugEnabled()));
            try (OutputStream out = Files.newOutputStream(requestFile)) {
                request.store(out, "finegrain:compile request for " + WORKER);
            }
            // the Vector API module lets the compiler give kernels strips of lanes as wide as this machine's vectors
            argFile = fork.argumentFile(work, "worker.args", List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "--add-modules", "jdk.incubator.vector",
                    "-cp", String.join(File.pathSeparator, fork.pluginClasspath()), WORKER, requestFile.toString()));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the finegrain worker's request in " + work + ": " + e.getMessage(), e);
        }

        String java = fork.java();
        getLog().debug("finegrain: forking " + java + " @" + argFile);
        int exit;
        List<String> output = new ArrayList<>();
        try {
            Process process = new ProcessBuilder(java, "@" + argFile)
                    .directory(project.getBasedir()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    output.add(line);
                    getLog().info(line);
                }
            }
            exit = process.waitFor();
        } catch (IOException e) {
            throw new MojoExecutionException("cannot run " + java + " for the finegrain compiler: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while compiling kernels", e);
        }
        report(exit, resultFile, java, output, start);
    }

    private void report(int exit, Path resultFile, String java, List<String> output, long start)
            throws MojoExecutionException, MojoFailureException {
        List<String> lines;
        try {
            lines = Files.exists(resultFile) ? Files.readAllLines(resultFile, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read the finegrain worker's result " + resultFile + ": " + e.getMessage(), e);
        }
        int classes = 0;
        String kernelNames = "";
        for (String line : lines) {
            String[] parts = line.split("\t", -1);
            switch (parts[0]) {
                case "generated" -> {
                    classes++;
                    getLog().info("Generated " + parts[1] + " -> " + relative(parts[2]));
                }
                case "kernels" -> kernelNames = parts[1];
                case "skipped" -> getLog().warn("finegrain: skipped " + parts[1]);
                case "note" -> getLog().info("finegrain: note: " + parts[1]);
                case "failure" -> throw new MojoFailureException(parts[1]);
                case "error" -> throw new MojoExecutionException("finegrain compiler failed: " + parts[1]
                        + (getLog().isDebugEnabled() ? "" : " (run with -X for the stack trace)"));
                default -> throw new MojoExecutionException("unexpected line from the finegrain worker: " + line);
            }
        }
        if (exit != 0 || lines.isEmpty()) {
            String hint = output.stream().anyMatch(l -> l.contains("UnsupportedClassVersionError"))
                    ? "; the finegrain compiler needs JDK 25: select one with maven-toolchains-plugin's select-jdk-toolchain"
                    : "";
            throw new MojoExecutionException("the finegrain worker (" + java + ") exited with status " + exit
                    + " without a result" + hint);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        getLog().info("finegrain: compiled " + (kernelNames.isEmpty() ? "0 kernels" : "kernels " + kernelNames)
                + " into " + classes + " classes in " + millis + " ms (sources in " + relative(sourcesDirectory.getPath()) + ")");
    }

    /**
     * {@code com.Example-Tools} becomes {@code com.example_tools.finegrain}: lower case, characters a package
     * name cannot hold as {@code _}, a segment that starts with a digit or is a Java keyword gets a {@code _}.
     */
    static String defaultPackage(String groupId) {
        List<String> segments = new ArrayList<>();
        for (String segment : groupId.toLowerCase(Locale.ROOT).split("\\.")) {
            String clean = segment.replaceAll("[^a-z0-9_]", "_");
            if (clean.isEmpty()) {
                continue;
            }
            if (Character.isDigit(clean.charAt(0))) {
                clean = "_" + clean;
            }
            if (javax.lang.model.SourceVersion.isKeyword(clean)) {
                clean = clean + "_";
            }
            segments.add(clean);
        }
        segments.add("finegrain");
        return String.join(".", segments);
    }

    private static String join(List<String> values) {
        if (values == null) {
            return "";
        }
        List<String> cleaned = new ArrayList<>();
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                cleaned.add(value.trim());
            }
        }
        return String.join(",", cleaned);
    }

    private String relative(String path) {
        try {
            return project.getBasedir().toPath().relativize(Path.of(path).toAbsolutePath()).toString();
        } catch (IllegalArgumentException e) {
            return path;
        }
    }
}
