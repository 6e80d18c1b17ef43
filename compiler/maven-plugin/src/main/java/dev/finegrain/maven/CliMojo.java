package dev.finegrain.maven;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A goal that runs one {@code finegrain} command on the project's own kernels: the command line's output, formats,
 * {@code --out} report and exit statuses, in a forked JDK 25 whose class path holds the project's compiled classes
 * (so its {@code KernelLibrary} services are found) beside the Finegrain compiler. A usage mistake or a row that is
 * not verified fails the build after the command has printed why.
 */
abstract class CliMojo extends AbstractMojo {

    /** The kernel, by the name its library gives it. */
    @Parameter(property = "finegrain.kernel")
    protected String kernel;

    /** The input and interleaving seed. */
    @Parameter(property = "finegrain.seed", defaultValue = "42")
    protected long seed;

    /** Worker threads for the jvm backend (default: the machine's processors). */
    @Parameter(property = "finegrain.threads")
    protected Integer threads;

    /** Rows to run at once; rows timed on real hardware always run alone (default: the machine's processors). */
    @Parameter(property = "finegrain.jobs")
    protected Integer jobs;

    /** Run each combination once: no warm-up, no repeated timing. */
    @Parameter(property = "finegrain.quick", defaultValue = "false")
    protected boolean quick;

    /** How to print the rows: table, json or csv. */
    @Parameter(property = "finegrain.format", defaultValue = "table")
    protected String format;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    private final ToolchainManager toolchainManager;

    CliMojo(ToolchainManager toolchainManager) {
        this.toolchainManager = toolchainManager;
    }

    /** The goal's name, as in {@code finegrain:GOAL}, which is also the CLI's subcommand. */
    abstract String goal();

    /** The subcommand and its own arguments, e.g. {@code compare KERNEL --sizes 512}. */
    abstract List<String> command();

    /**
     * Checks, before anything runs, the parameters the goal needs: the kernel, and what {@link #requireOwnParameters}
     * adds. A missing one fails in one line naming its property (Maven's own message names the field only).
     */
    final void requireParameters() throws MojoFailureException {
        require(kernel, "finegrain.kernel", "the kernel, by its library's name");
        requireOwnParameters();
    }

    /** The goal's own required parameters, besides the kernel. */
    void requireOwnParameters() throws MojoFailureException {}

    final void require(String value, String property, String what) throws MojoFailureException {
        if (value == null || value.isBlank()) {
            throw new MojoFailureException("finegrain:" + goal() + " needs " + what + ": add -D" + property + "=...");
        }
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        requireParameters();
        List<String> arguments = new ArrayList<>(command());
        arguments.addAll(List.of("--seed", Long.toString(seed), "--format", format));
        if (threads != null) {
            arguments.addAll(List.of("--threads", threads.toString()));
        }
        if (jobs != null) {
            arguments.addAll(List.of("--jobs", jobs.toString()));
        }
        if (quick) {
            arguments.add("--quick");
        }
        ForkedJava fork = new ForkedJava(project, session, plugin, toolchainManager);
        // the jvm backend's lanes run on the Vector API, on G1 their rows lie on cache lines, and huge pages serve them, as in the launcher
        List<String> java = new ArrayList<>(List.of("-XX:+UseG1GC", "-Xss16m", "--add-modules", "jdk.incubator.vector"));
        java.addAll(ForkedJava.hugePageOptions());
        java.addAll(fork.graalOptions());
        List<String> classpath = new ArrayList<>(fork.pluginClasspath());
        classpath.addAll(fork.projectClasspath());
        java.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), "dev.finegrain.compiler.cli.FinegrainCli"));
        java.addAll(arguments);
        Path argFile = fork.argumentFile(Path.of(project.getBuild().getDirectory(), "finegrain-worker"),
                command().get(0) + ".args", java);
        String executable = fork.java();
        getLog().debug("finegrain: forking " + executable + " @" + argFile);
        int exit;
        try {
            Process process = new ProcessBuilder(executable, "@" + argFile).directory(project.getBasedir()).inheritIO().start();
            exit = process.waitFor();
        } catch (java.io.IOException e) {
            throw new MojoExecutionException("cannot run " + executable + " for finegrain " + command().get(0) + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while running finegrain " + command().get(0), e);
        }
        switch (exit) {
            case 0 -> { }
            case 1 -> throw new MojoFailureException("finegrain " + command().get(0) + ": a row was not verified or"
                    + " failed; its reason is printed above");
            case 2 -> throw new MojoFailureException("finegrain " + command().get(0) + " refused the request; the"
                    + " reason is printed above");
            default -> throw new MojoExecutionException("finegrain " + command().get(0) + " (" + executable
                    + ") ended with status " + exit + (exit == 70 ? "; its trace is printed above" : ""));
        }
    }
}
