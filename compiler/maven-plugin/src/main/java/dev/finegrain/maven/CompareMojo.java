package dev.finegrain.maven;

import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.toolchain.ToolchainManager;

import javax.inject.Inject;
import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code finegrain compare} on the project's own kernels: every size x schedule x backend x mechanism, each row
 * verified against the sequential oracle, e.g.
 * {@code mvn finegrain:compare -Dfinegrain.kernel=edit-traceback -Dfinegrain.sizes=256,512 -Dfinegrain.out=target/report}.
 * Compiles the project first.
 */
@Mojo(name = "compare", threadSafe = true, requiresDependencyResolution = ResolutionScope.RUNTIME)
@Execute(phase = LifecyclePhase.COMPILE)
public class CompareMojo extends CliMojo {

    /** Sizes, each N or NxM, separated by commas (default: the kernel's own). */
    @Parameter(property = "finegrain.sizes")
    private String sizes;

    /** Schedules, e.g. {@code wavefront,lock-dataflow,data-parallel:32} (default: the three schedules). */
    @Parameter(property = "finegrain.schedules")
    private String schedules;

    /** Backends, e.g. {@code reference,jvm,gpu-model:hopper-h200} (default: reference and jvm). */
    @Parameter(property = "finegrain.backends")
    private String backends;

    /** Lock mechanisms, or {@code all} (default: the kernel's own if it names one, else all). */
    @Parameter(property = "finegrain.mechanisms")
    private String mechanisms;

    /** Also write results.json, results.csv and report.html into this folder. */
    @Parameter(property = "finegrain.out")
    private File out;

    @Inject
    public CompareMojo(ToolchainManager toolchainManager) {
        super(toolchainManager);
    }

    @Override
    String goal() {
        return "compare";
    }

    @Override
    List<String> command() {
        List<String> command = new ArrayList<>(List.of(goal(), kernel));
        option(command, "--sizes", sizes);
        option(command, "--schedules", schedules);
        option(command, "--backends", backends);
        option(command, "--mechanisms", mechanisms);
        if (out != null) {
            command.addAll(List.of("--out", out.getAbsolutePath()));
        }
        return command;
    }

    static void option(List<String> command, String name, String value) {
        if (value != null && !value.isBlank()) {
            command.addAll(List.of(name, value.trim()));
        }
    }
}
