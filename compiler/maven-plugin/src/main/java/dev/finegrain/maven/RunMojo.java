package dev.finegrain.maven;

import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.toolchain.ToolchainManager;

import javax.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code finegrain run} on one of the project's own kernels: one combination, verified against the oracle, e.g.
 * {@code mvn finegrain:run -Dfinegrain.kernel=edit-traceback -Dfinegrain.size=512 -Dfinegrain.backend=jvm}.
 * Compiles the project first.
 */
@Mojo(name = "run", threadSafe = true, requiresDependencyResolution = ResolutionScope.RUNTIME)
@Execute(phase = LifecyclePhase.COMPILE)
public class RunMojo extends CliMojo {

    /** The domain size: N, or one extent per dimension joined by x. */
    @Parameter(property = "finegrain.size")
    private String size;

    /** wavefront, lock-dataflow or data-parallel[:B]. */
    @Parameter(property = "finegrain.schedule", defaultValue = "lock-dataflow")
    private String schedule;

    /** reference, jvm or gpu-model:PROFILE. */
    @Parameter(property = "finegrain.backend", defaultValue = "reference")
    private String backend;

    /** The lock mechanism (default: the kernel's own, else the backend's). */
    @Parameter(property = "finegrain.mechanism")
    private String mechanism;

    @Inject
    public RunMojo(ToolchainManager toolchainManager) {
        super(toolchainManager);
    }

    @Override
    String goal() {
        return "run";
    }

    @Override
    void requireOwnParameters() throws MojoFailureException {
        require(size, "finegrain.size", "the domain size, N or NxM");
    }

    @Override
    List<String> command() {
        List<String> command = new ArrayList<>(List.of(goal(), kernel, "--size", size, "--schedule", schedule, "--backend", backend));
        CompareMojo.option(command, "--mechanism", mechanism);
        return command;
    }
}
