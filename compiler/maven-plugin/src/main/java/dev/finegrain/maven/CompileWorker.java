package dev.finegrain.maven;

import dev.finegrain.compiler.api.CompileRequest;
import dev.finegrain.compiler.api.KernelCompiler;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The forked half of {@code finegrain:compile}: loads the project's kernels and calls
 * {@link KernelCompiler#compile(CompileRequest)}.
 *
 * <p>Why a fork: Maven may run on an older JDK (17 on the build machines) than the Java 25 that the Finegrain
 * compiler and the user's kernels are compiled for, so neither can be loaded in Maven's JVM. The Mojo runs this
 * class with the java of the project's JDK toolchain.
 *
 * <p>Class loading: this JVM's class path is the plugin and its dependencies (finegrain-tools, -gpu, -core, -dsl,
 * -runtime-jvm, ASM, JavaPoet). The project's classes live in a child {@link URLClassLoader} over the project's
 * output directory and those dependencies the plugin does not carry; parent-first delegation means
 * {@code dev.finegrain.*} resolves to the plugin's single copy, so the project's {@code KernelLibrary}
 * implementations implement the very interface the compiler knows. Libraries are found with
 * {@code ServiceLoader.load(KernelLibrary.class, projectLoader)}, keeping those whose class comes from the
 * project's output directory.
 *
 * <p>Protocol: one argument, a properties file written by {@link CompileMojo}; the outcome goes to the
 * {@code resultFile} it names, one tab-separated record a line ({@code generated}, {@code skipped}, {@code note}
 * (mechanisms left out of a kernel, and why), {@code kernels}, and at most
 * one {@code failure} for the user's mistakes or {@code error} for anything else), and to the exit status.
 */
public final class CompileWorker {

    static final int OK = 0;
    static final int FAILURE = 2;
    static final int ERROR = 3;

    /** A mistake in the user's kernels or in the goal's configuration: fails the build with this message. */
    static final class UserMistake extends Exception {
        UserMistake(String message) {
            super(message);
        }
    }

    private CompileWorker() {}

    public static void main(String[] args) throws IOException {
        Properties request = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            request.load(in);
        }
        List<String> result = new ArrayList<>();
        int status = execute(request, result);
        Files.write(Path.of(request.getProperty("resultFile")), result, StandardCharsets.UTF_8);
        System.exit(status);
    }

    /** Runs one request, appending the result records to {@code result}; returns the exit status. */
    static int execute(Properties request, List<String> result) {
        try {
            Outcome outcome = compile(request);
            for (KernelCompiler.Generated generated : outcome.generated().classes()) {
                result.add("generated\t" + generated.className() + "\t" + generated.classFile() + "\t" + generated.sourceFile());
            }
            for (String skipped : outcome.generated().skipped()) {
                result.add("skipped\t" + oneLine(skipped));
            }
            for (String note : outcome.generated().notes()) {
                result.add("note\t" + oneLine(note));
            }
            result.add("kernels\t" + String.join(", ", outcome.kernels()));
            return OK;
        } catch (UserMistake e) {
            result.add("failure\t" + oneLine(e.getMessage()));
            return FAILURE;
        } catch (Throwable e) {
            KernelDefinitionException mistake = kernelMistake(e);
            if (mistake != null) {
                result.add("failure\t" + oneLine(mistake.getMessage()));
                return FAILURE;
            }
            if (Boolean.parseBoolean(request.getProperty("debug"))) {
                e.printStackTrace();
            }
            result.add("error\t" + oneLine(e.toString()));
            return ERROR;
        }
    }

    record Outcome(List<String> kernels, KernelCompiler.Output generated) {}

    static Outcome compile(Properties request) throws UserMistake, IOException {
        List<Schedule> schedules = schedules(list(request, "schedules"));
        List<LockMechanism> mechanisms = mechanisms(list(request, "mechanisms"));
        Path projectOutput = Path.of(request.getProperty("projectOutput")).toAbsolutePath().normalize();
        List<URL> urls = new ArrayList<>();
        for (String entry : list(request, "projectClasspath", File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader projectLoader = new URLClassLoader("finegrain-project", urls.toArray(URL[]::new),
                CompileWorker.class.getClassLoader())) {
            thread.setContextClassLoader(projectLoader);
            List<Kernel> kernels = select(discover(projectLoader, projectOutput), list(request, "kernels"));
            CompileRequest compileRequest;
            try {
                compileRequest = new CompileRequest(kernels, schedules, mechanisms, request.getProperty("packageName"),
                        Path.of(request.getProperty("classesDirectory")), Path.of(request.getProperty("sourcesDirectory")));
            } catch (IllegalArgumentException e) {
                throw new UserMistake("finegrain packageName: " + e.getMessage());
            }
            List<String> names = kernels.stream().map(Kernel::name).toList();
            return new Outcome(names, KernelCompiler.compile(compileRequest));
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Every kernel of the project's own KernelLibrary services, by name, in service order. */
    static Map<String, LibraryKernel> discover(ClassLoader projectLoader, Path projectOutput) throws UserMistake {
        Map<String, LibraryKernel> kernels = new LinkedHashMap<>();
        Map<String, String> definedBy = new LinkedHashMap<>();
        int libraries = 0;
        for (ServiceLoader.Provider<KernelLibrary> provider
                : ServiceLoader.load(KernelLibrary.class, projectLoader).stream().toList()) {
            if (!isIn(provider.type(), projectOutput)) {
                continue;
            }
            libraries++;
            KernelLibrary library = provider.get();
            for (LibraryKernel kernel : library.kernels()) {
                String earlier = definedBy.putIfAbsent(kernel.name(), provider.type().getName());
                if (earlier != null) {
                    throw new UserMistake("kernel '" + kernel.name() + "' is defined twice, by " + earlier + " and "
                            + provider.type().getName() + "; rename one of them");
                }
                kernels.put(kernel.name(), kernel);
            }
        }
        if (libraries == 0) {
            throw new UserMistake("no kernel library in " + projectOutput + ": implement dev.finegrain.dsl.KernelLibrary "
                    + "and list the class in src/main/resources/META-INF/services/dev.finegrain.dsl.KernelLibrary");
        }
        return kernels;
    }

    private static boolean isIn(Class<?> type, Path directory) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return false;
        }
        try {
            return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize().equals(directory);
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            return false;
        }
    }

    static List<Kernel> select(Map<String, LibraryKernel> available, List<String> names) throws UserMistake {
        if (names.isEmpty()) {
            return available.values().stream().map(LibraryKernel::kernel).toList();
        }
        List<Kernel> selected = new ArrayList<>();
        for (String name : names) {
            LibraryKernel kernel = available.get(name);
            if (kernel == null) {
                throw new UserMistake("finegrain kernels: no kernel library defines '" + name + "' (the project defines "
                        + String.join(", ", available.keySet()) + ")");
            }
            selected.add(kernel.kernel());
        }
        return selected;
    }

    static List<Schedule> schedules(List<String> names) throws UserMistake {
        if (names.isEmpty()) {
            throw new UserMistake("finegrain schedules: none given; use wavefront, lock-dataflow, data-parallel or data-parallel:BxB");
        }
        List<Schedule> schedules = new ArrayList<>();
        for (String name : names) {
            Optional<Schedule> parsed;
            try {
                parsed = Schedule.parse(name);
            } catch (IllegalArgumentException badTile) {
                throw new UserMistake("finegrain schedules: '" + name + "': " + badTile.getMessage());
            }
            schedules.add(parsed.orElseThrow(() -> new UserMistake("finegrain schedules: '" + name
                    + "' is not a schedule; use wavefront, lock-dataflow, data-parallel, data-parallel:B or data-parallel:BxB")));
        }
        return schedules;
    }

    static List<LockMechanism> mechanisms(List<String> names) throws UserMistake {
        if (names.equals(List.of("all"))) {
            return List.of(LockMechanism.values());
        }
        List<LockMechanism> mechanisms = new ArrayList<>();
        for (String name : names) {
            mechanisms.add(LockMechanism.fromCliName(name).orElseThrow(() -> new UserMistake("finegrain mechanisms: '"
                    + name + "' is not a lock mechanism; use all or one of " + Arrays.stream(LockMechanism.values())
                    .map(LockMechanism::cliName).collect(Collectors.joining(", ")))));
        }
        return mechanisms;
    }

    /** The user's kernel mistake behind {@code e}, looking through ServiceConfigurationError, initializer errors and other wrappers. */
    static KernelDefinitionException kernelMistake(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof KernelDefinitionException mistake) {
                return mistake;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    private static List<String> list(Properties request, String key) {
        return list(request, key, ",");
    }

    private static List<String> list(Properties request, String key, String separator) {
        String value = request.getProperty(key, "");
        return value.isBlank() ? List.of()
                : Arrays.stream(value.split(java.util.regex.Pattern.quote(separator))).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String oneLine(String message) {
        return message == null ? "(no message)" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ").replace('\t', ' ');
    }
}
