package dev.finegrain.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code finegrain} launcher builds the CLI once when two commands start right after a source change: the second
 * waits for the first's build and reuses it, instead of building over it. The launcher runs here in a copy of the
 * repository's layout with a Maven that only records its builds (and takes two seconds) and a JDK that only answers.
 */
class LauncherTest {

    private static Path repositoryRoot() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("finegrain")) && Files.isRegularFile(folder.resolve("mvnw"))) {
                return folder;
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }

    private static void script(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void twoCommandsRightAfterASourceChangeBuildTheCliOnce(@TempDir Path root) throws Exception {
        script(root.resolve("finegrain"), Files.readString(repositoryRoot().resolve("finegrain")));
        script(root.resolve("mvnw"), """
                #!/usr/bin/env bash
                echo "build $$" >> builds.log
                sleep 2
                mkdir -p samples/target/lib
                touch samples/target/finegrain-samples.jar
                """);
        script(root.resolve("jdk/bin/java"), """
                #!/usr/bin/env bash
                if [[ "$1" == "-version" ]]; then echo 'openjdk version "25.0.1" 2025-10-21' >&2; exit 0; fi
                echo "ran the CLI"
                """);
        List<Process> commands = List.of(start(root), start(root));
        for (Process command : commands) {
            assertTrue(command.waitFor(60, TimeUnit.SECONDS), "the launcher did not finish");
            String output = new String(command.getInputStream().readAllBytes());
            assertEquals(0, command.exitValue(), output);
            assertTrue(output.contains("ran the CLI"), output);
        }
        assertEquals(1, Files.readAllLines(root.resolve("builds.log")).size(), "one build for both commands");
    }

    private static Process start(Path root) throws IOException {
        ProcessBuilder launcher = new ProcessBuilder("bash", root.resolve("finegrain").toString(), "list")
                .directory(root.toFile()).redirectErrorStream(true);
        launcher.environment().put("JAVA_HOME", root.resolve("jdk").toString());
        launcher.environment().remove("FINEGRAIN_JAVA_OPTS");
        return launcher.start();
    }
}
