package dev.finegrain.maven;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CompileMojoTest {

    @Test
    void defaultPackageIsTheGroupIdMadeIntoAPackageName() {
        assertEquals("com.example.finegrain", CompileMojo.defaultPackage("com.example"));
        assertEquals("com.example_tools._2d.int_.finegrain", CompileMojo.defaultPackage("com.Example-Tools.2d.int"));
    }

    @Test
    void argFileEntriesAreQuotedAndEscaped() {
        assertEquals("\"C:\\\\my dir\\\\a.jar\"", ForkedJava.argFileQuote("C:\\my dir\\a.jar"));
    }

    @Test
    void theProjectContributesOnlyDependenciesThePluginDoesNotCarry() {
        List<Artifact> artifacts = List.of(
                artifact("dev.finegrain", "finegrain-dsl", Artifact.SCOPE_COMPILE),
                artifact("org.ow2.asm", "asm", Artifact.SCOPE_RUNTIME),
                artifact("com.example", "helpers", Artifact.SCOPE_COMPILE),
                artifact("com.example", "runtime-only", Artifact.SCOPE_RUNTIME),
                artifact("org.junit.jupiter", "junit-jupiter", Artifact.SCOPE_TEST));
        Set<String> plugin = Set.of("dev.finegrain:finegrain-dsl", "dev.finegrain:finegrain-tools", "org.ow2.asm:asm");
        assertEquals(List.of(new File("/repo/helpers.jar").getAbsolutePath(), new File("/repo/runtime-only.jar").getAbsolutePath()),
                ForkedJava.projectDependencies(artifacts, plugin));
    }

    private static Artifact artifact(String groupId, String artifactId, String scope) {
        DefaultArtifactHandler jar = new DefaultArtifactHandler("jar");
        jar.setAddedToClasspath(true);
        DefaultArtifact artifact = new DefaultArtifact(groupId, artifactId, "1.0", scope, "jar", null, jar);
        artifact.setFile(new File("/repo/" + artifactId + ".jar"));
        return artifact;
    }
}
