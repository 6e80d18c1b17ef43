package dev.finegrain.compiler.backend.gpu.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * nvcc and the GPU of this machine: whether they are there, building a variant with the host harness (cached by the
 * hash of everything that goes into the binary), and running it with a time limit.
 */
public final class CudaToolchain {

    /** nvcc's flags: no fused multiply-add, which Java never does, so doubles match the oracle bit for bit. */
    static final List<String> FLAGS = List.of("-O3", "-fmad=false", "-std=c++17");

    private static volatile Optional<String> nvccProblem;
    private static volatile Boolean gpuPresent;

    private CudaToolchain() {}

    /** The files a bundle or a build puts beside the generated sources. */
    public static String prelude() {
        return resource(CudaSource.PRELUDE);
    }

    public static String harness() {
        return resource("harness.cu");
    }

    private static String resource(String name) {
        try (InputStream in = CudaToolchain.class.getResourceAsStream("/dev/finegrain/compiler/cuda/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the CUDA resource " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** Why nvcc cannot be used here, if it cannot. */
    public static Optional<String> nvccProblem() {
        if (nvccProblem == null) {
            nvccProblem = exitsCleanly(List.of("nvcc", "--version")) ? Optional.empty()
                    : Optional.of("nvcc is not on the PATH; install the CUDA toolkit, or write a bundle with finegrain export"
                    + " and run it where nvcc and a GPU are");
        }
        return nvccProblem;
    }

    /** Whether this machine has an NVIDIA GPU that the driver sees. */
    public static boolean gpuPresent() {
        if (gpuPresent == null) {
            gpuPresent = Files.exists(Path.of("/dev/nvidia0")) || exitsCleanly(List.of("nvidia-smi", "-L"));
        }
        return gpuPresent;
    }

    private static boolean exitsCleanly(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException notThere) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What compiling a variant failed with: nvcc's first error, with the generated file and line. */
    public static final class CompileException extends RuntimeException {
        CompileException(String message) {
            super(message);
        }
    }

    /**
     * The harness built with the variant for {@code arch}, from the cache when the same sources were built before.
     *
     * @throws CompileException with nvcc's first error line when the source does not compile
     */
    public static Path build(CudaSource source, String arch, Path cache) {
        String key = digest(prelude() + harness() + source.text() + arch + FLAGS);
        Path folder = cache.resolve(source.id() + "-" + key);
        Path binary = folder.resolve(source.id());
        if (Files.isExecutable(binary)) {
            return binary;
        }
        try {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve(CudaSource.PRELUDE), prelude());
            Files.writeString(folder.resolve("harness.cu"), harness());
            Files.writeString(folder.resolve(source.id() + ".cu"), source.text());
            Nvcc nvcc = nvcc(folder, arch, List.of("-DFG_VARIANT=" + source.id(), "harness.cu", source.id() + ".cu", "-o",
                    source.id() + ".partial"));
            if (nvcc.exit() != 0) {
                String first = nvcc.log().lines().filter(line -> line.contains("error")).findFirst().orElse(nvcc.log().strip());
                throw new CompileException("nvcc could not compile " + folder.resolve(source.id() + ".cu") + ": " + first);
            }
            Files.move(folder.resolve(source.id() + ".partial"), binary);
            return binary;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /**
     * Compiles {@code file} in {@code folder} to an object file, with the flags of {@link #build}, and returns nvcc's
     * output (its warnings). Tests compile many variants as one translation unit this way, so that they pay nvcc's
     * start-up once instead of linking a harness per variant.
     *
     * @throws CompileException with nvcc's whole output when the file does not compile
     */
    public static String compileObject(Path folder, String file, String arch, String... defines) {
        List<String> arguments = new ArrayList<>(List.of(defines));
        arguments.addAll(List.of("-c", file, "-o", file + ".o"));
        Nvcc nvcc = nvcc(folder, arch, arguments);
        if (nvcc.exit() != 0) {
            throw new CompileException("nvcc could not compile " + folder.resolve(file) + ":\n" + nvcc.log());
        }
        return nvcc.log();
    }

    /** How long one nvcc run may take; a hung nvcc fails the build instead of stopping it. */
    private static final long NVCC_SECONDS = 600;

    private record Nvcc(int exit, String log) {}

    private static Nvcc nvcc(Path folder, String arch, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of("nvcc"));
        command.addAll(FLAGS);
        command.add("-arch=" + arch);
        command.addAll(arguments);
        try {
            // the output goes to a file, so that a hung nvcc is caught by the time limit rather than by a blocked read
            Path logFile = Files.createTempFile(folder, "nvcc", ".log");
            Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                    .redirectOutput(logFile.toFile()).start();
            if (!process.waitFor(NVCC_SECONDS, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new CompileException("nvcc did not finish within " + NVCC_SECONDS + " s in " + folder);
            }
            return new Nvcc(process.exitValue(), Files.readString(logFile, StandardCharsets.UTF_8));
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while nvcc compiled in " + folder, interrupted);
        }
    }

    /** The harness's exit and the row it wrote; {@code timedOut} when it was killed at the limit. */
    public record Outcome(int exit, String row, boolean timedOut, String log) {}

    public static Outcome run(Path binary, List<String> arguments, long timeoutSeconds) {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(arguments);
        try {
            Path result = Files.createTempFile(binary.getParent(), "result-", ".json");
            command.addAll(List.of("--result", result.toString()));
            Process harness = new ProcessBuilder(command).redirectErrorStream(true).start();
            StringBuilder log = new StringBuilder();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    log.append(new String(harness.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the process ended; what it printed so far is what there is
                }
            });
            boolean finished = harness.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!finished) {
                harness.destroyForcibly().waitFor();
            }
            reader.join();
            String row = Files.exists(result) ? Files.readString(result) : "";
            Files.deleteIfExists(result);
            return new Outcome(finished ? harness.exitValue() : -1, row, !finished, log.toString());
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + binary + " ran", interrupted);
        }
    }

    static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }
}
