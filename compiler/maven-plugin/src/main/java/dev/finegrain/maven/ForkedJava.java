package dev.finegrain.maven;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A JDK 25 to run the Finegrain compiler in, for goals whose Mojo runs in Maven's own JVM (which may be a JDK 17):
 * which {@code java} (the project's JDK toolchain), which class path (this plugin and its dependencies, then the
 * project's classes and the dependencies the plugin does not carry), and the Graal JIT for the GPU model.
 *
 * <p>Parent-first class loading with the plugin's artifacts first means {@code dev.finegrain.*} exists once, so a
 * project's {@code KernelLibrary} implements the very interface the compiler knows.
 */
final class ForkedJava {

    /** The Graal compiler jars the GPU model's Truffle runtime runs with, on {@code --upgrade-module-path}. */
    static final Set<String> GRAAL_JIT = Set.of("org.graalvm.compiler:compiler", "org.graalvm.truffle:truffle-compiler",
            "org.graalvm.sdk:collections", "org.graalvm.sdk:word");
    /** Only on the upgrade module path: the compiler itself; the other three are also ordinary class path entries. */
    private static final String GRAAL_COMPILER = "org.graalvm.compiler:compiler";

    private final MavenProject project;
    private final MavenSession session;
    private final PluginDescriptor plugin;
    private final ToolchainManager toolchains;

    ForkedJava(MavenProject project, MavenSession session, PluginDescriptor plugin, ToolchainManager toolchains) {
        this.project = project;
        this.session = session;
        this.plugin = plugin;
        this.toolchains = toolchains;
    }

    /**
     * The java of the project's JDK toolchain (selected by maven-toolchains-plugin in this build), else one that
     * toolchains.xml lists for version 25, else the JDK running Maven.
     */
    String java() {
        Toolchain toolchain = toolchains == null ? null : toolchains.getToolchainFromBuildContext("jdk", session);
        if (toolchain == null && toolchains != null) {
            toolchain = toolchains.getToolchains(session, "jdk", Map.of("version", "[25,26)")).stream().findFirst().orElse(null);
        }
        String java = toolchain == null ? null : toolchain.findTool("java");
        if (java != null) {
            return java;
        }
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        return Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java").toString();
    }

    /** This plugin's jar and its runtime dependencies (the Finegrain compiler), less the Graal compiler itself. */
    List<String> pluginClasspath() throws MojoExecutionException {
        Set<String> path = new LinkedHashSet<>();
        if (plugin.getPluginArtifact() != null && plugin.getPluginArtifact().getFile() != null) {
            path.add(plugin.getPluginArtifact().getFile().getAbsolutePath());
        }
        for (Artifact artifact : plugin.getArtifacts()) {
            if (artifact.getFile() != null && !key(artifact).equals(GRAAL_COMPILER)) {
                path.add(artifact.getFile().getAbsolutePath());
            }
        }
        if (path.isEmpty()) {
            throw new MojoExecutionException("cannot find finegrain-maven-plugin's own artifacts");
        }
        return new ArrayList<>(path);
    }

    /**
     * The project's side of the class path: its output directory and its compile/runtime dependencies, less every
     * artifact the plugin itself carries (finegrain-dsl, -compiler, -runtime-jvm and their dependencies).
     */
    List<String> projectClasspath() {
        Set<String> provided = new LinkedHashSet<>();
        for (Artifact artifact : plugin.getArtifacts()) {
            provided.add(key(artifact));
        }
        List<String> path = new ArrayList<>();
        path.add(project.getBuild().getOutputDirectory());
        path.addAll(projectDependencies(project.getArtifacts(), provided));
        return path;
    }

    static List<String> projectDependencies(Collection<Artifact> artifacts, Set<String> providedByPlugin) {
        List<String> path = new ArrayList<>();
        for (Artifact artifact : artifacts) {
            boolean onClasspath = artifact.getArtifactHandler() == null || artifact.getArtifactHandler().isAddedToClasspath();
            if (artifact.getFile() != null && onClasspath && !Artifact.SCOPE_TEST.equals(artifact.getScope())
                    && !providedByPlugin.contains(key(artifact))) {
                path.add(artifact.getFile().getAbsolutePath());
            }
        }
        return path;
    }

    /**
     * The options that run the GPU model with the Graal JIT, as the {@code finegrain} launcher does, when the plugin
     * carries the four Graal jars; without them Truffle interprets (and says so once).
     */
    List<String> graalOptions() {
        List<String> jars = new ArrayList<>();
        for (Artifact artifact : plugin.getArtifacts()) {
            if (artifact.getFile() != null && GRAAL_JIT.contains(key(artifact))) {
                jars.add(artifact.getFile().getAbsolutePath());
            }
        }
        if (jars.size() != GRAAL_JIT.size()) {
            return List.of();
        }
        return List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                "--upgrade-module-path=" + String.join(File.pathSeparator, jars), "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow");
    }

    /**
     * {@code -XX:+UseTransparentHugePages} where Linux lends transparent huge pages ({@code always} or {@code madvise}
     * in {@code thpMode}, the text of {@code /sys/kernel/mm/transparent_hugepage/enabled}), as the {@code finegrain}
     * launcher does: the jvm backend's kernels ran faster on 2 MiB pages (docs/jvm-backend.md, "Huge pages"); elsewhere
     * the flag would only print a warning.
     */
    static List<String> hugePageOptions(String thpMode) {
        return thpMode.contains("[always]") || thpMode.contains("[madvise]") ? List.of("-XX:+UseTransparentHugePages") : List.of();
    }

    /** {@link #hugePageOptions(String)} for this machine; none where the setting cannot be read (not Linux). */
    static List<String> hugePageOptions() {
        try {
            return hugePageOptions(Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")));
        } catch (IOException | RuntimeException unreadable) {
            return List.of();
        }
    }

    /** Writes the java command's arguments to an argument file (class paths can be longer than a command line). */
    Path argumentFile(Path folder, String name, List<String> arguments) throws MojoExecutionException {
        Path file = folder.resolve(name);
        try {
            Files.createDirectories(folder);
            Files.write(file, arguments.stream().map(ForkedJava::argFileQuote).toList(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the finegrain argument file " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    static String argFileQuote(String arg) {
        return "\"" + arg.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String key(Artifact artifact) {
        return artifact.getGroupId() + ":" + artifact.getArtifactId();
    }
}
