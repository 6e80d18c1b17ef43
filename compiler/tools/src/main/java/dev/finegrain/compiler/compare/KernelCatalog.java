package dev.finegrain.compiler.compare;

import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/**
 * Every kernel of every {@link KernelLibrary} service on the class path, plus those of a user's extra class path
 * entries (jars and class folders), in library order.
 *
 * <p>A library that cannot be loaded (a missing class, a kernel that does not build, an exception in its code) is
 * one line in {@link #problems()}, naming the library, and its kernels are left out; the others still load. Two
 * kernels with one name are a {@link UsageException} naming both libraries, since a command could not know which
 * one is meant.
 */
public final class KernelCatalog {

    private final List<LibraryKernel> kernels;
    private final List<String> problems;

    private KernelCatalog(List<LibraryKernel> kernels, List<String> problems) {
        this.kernels = List.copyOf(kernels);
        this.problems = List.copyOf(problems);
    }

    /** The libraries on the JVM's own class path. */
    public static KernelCatalog load() {
        return load(List.of());
    }

    /**
     * The libraries on the JVM's class path and on {@code extraClassPath}, whose entries must exist.
     *
     * @throws UsageException for an entry that does not exist, or two kernels with one name
     */
    public static KernelCatalog load(List<Path> extraClassPath) {
        ClassLoader loader = extraClassPath.isEmpty() ? Thread.currentThread().getContextClassLoader()
                : new URLClassLoader("finegrain-user-kernels", urls(extraClassPath), KernelCatalog.class.getClassLoader());
        Map<String, LibraryKernel> byName = new LinkedHashMap<>();
        Map<String, String> libraryOf = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>(unreadableJars(extraClassPath));
        problems.addAll(entriesWithoutKernels(extraClassPath));
        Iterator<ServiceLoader.Provider<KernelLibrary>> providers = ServiceLoader.load(KernelLibrary.class, loader).stream().iterator();
        while (true) {
            ServiceLoader.Provider<KernelLibrary> provider;
            try {
                if (!providers.hasNext()) {
                    break;
                }
                provider = providers.next();
            } catch (ServiceConfigurationError broken) {
                problems.add("a kernel library listed in " + listedIn(loader, broken)
                        + " could not be loaded, so its kernels are left out: " + reason(broken));
                continue;
            }
            String library = describe(provider.type());
            List<LibraryKernel> offered;
            try {
                offered = List.copyOf(provider.get().kernels());
            } catch (RuntimeException | LinkageError | ServiceConfigurationError broken) {
                problems.add("kernel library " + library + " could not be loaded, so its kernels are left out: " + reason(broken));
                continue;
            }
            for (LibraryKernel kernel : offered) {
                String earlier = libraryOf.putIfAbsent(kernel.name(), library);
                if (earlier != null) {
                    throw new UsageException("kernel '" + kernel.name() + "' is defined twice, by " + earlier + " and by "
                            + library + "; rename one of them");
                }
                byName.put(kernel.name(), kernel);
            }
        }
        return new KernelCatalog(new ArrayList<>(byName.values()), problems);
    }

    /** A line for each file on the class path that is not a readable jar: the JVM would skip it without a word. */
    private static List<String> unreadableJars(List<Path> extraClassPath) {
        List<String> problems = new ArrayList<>();
        for (Path entry : extraClassPath) {
            if (!Files.isRegularFile(entry)) {
                continue;
            }
            try (ZipFile jar = new ZipFile(entry.toFile())) {
                jar.size();
            } catch (IOException notAJar) {
                problems.add("class path entry " + entry + " is not a readable jar (" + notAJar.getMessage()
                        + "), so no kernel library in it is loaded; rebuild it or drop it from the class path");
            }
        }
        return problems;
    }

    private static final String SERVICE_FILE = "META-INF/services/" + KernelLibrary.class.getName();
    /** How many files {@link #entriesWithoutKernels} looks at in one class folder before it gives up, saying nothing. */
    private static final int FILES_LOOKED_AT = 20_000;

    /**
     * A line for each class path entry that cannot add a kernel: one that holds neither a class file nor a kernel
     * library service file (an empty folder, the wrong folder), or a folder whose service file lies below it (a
     * project's folder given for its {@code target/classes}). The class loader would load nothing from it without a
     * word, and a command would then say nothing of the kernels the user meant. A jar or folder of classes without a
     * service file is a dependency of a library, and says nothing.
     */
    private static List<String> entriesWithoutKernels(List<Path> extraClassPath) {
        List<String> problems = new ArrayList<>();
        String todo = "point --classpath (or $FINEGRAIN_CLASSPATH) at the folder or jar holding your compiled classes with "
                + "their " + SERVICE_FILE + " file (for a Maven project: target/classes)";
        for (Path entry : extraClassPath) {
            if (Files.isRegularFile(entry)) {
                try (ZipFile jar = new ZipFile(entry.toFile())) {
                    if (jar.getEntry(SERVICE_FILE) == null && jar.stream().noneMatch(e -> e.getName().endsWith(".class"))) {
                        problems.add("class path entry " + entry + " holds no class file and no " + SERVICE_FILE
                                + ", so it adds no kernels; " + todo);
                    }
                } catch (IOException notAJar) {
                    // said by unreadableJars
                }
            } else if (Files.isDirectory(entry) && !Files.isRegularFile(entry.resolve(SERVICE_FILE))) {
                Contents contents = Contents.of(entry);
                if (contents.nestedService() != null) {
                    problems.add("class path entry " + entry + " holds no " + SERVICE_FILE + " of its own, so it adds no "
                            + "kernels, but " + contents.nestedService() + " below it does; point --classpath at "
                            + contents.nestedService());
                } else if (contents.complete() && !contents.classFiles()) {
                    problems.add("class path entry " + entry + " holds no class file and no " + SERVICE_FILE
                            + ", so it adds no kernels; " + todo);
                }
            }
        }
        return problems;
    }

    /**
     * What a class folder holds: whether any class file, the first folder below it whose {@code META-INF/services}
     * lists kernel libraries (null: none), and whether every file was looked at.
     */
    private record Contents(boolean classFiles, Path nestedService, boolean complete) {
        static Contents of(Path folder) {
            boolean[] classes = {false};
            Path[] nested = {null};
            int[] seen = {0};
            try {
                Files.walkFileTree(folder, java.util.Set.of(), 16, new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attributes) {
                        classes[0] |= file.getFileName().toString().endsWith(".class");
                        if (nested[0] == null && file.endsWith(SERVICE_FILE)) {
                            nested[0] = file.getParent().getParent().getParent();
                        }
                        return nested[0] != null || ++seen[0] >= FILES_LOOKED_AT ? java.nio.file.FileVisitResult.TERMINATE
                                : java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException unreadable) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException unreadable) {
                return new Contents(true, null, false);
            }
            return new Contents(classes[0], nested[0], seen[0] < FILES_LOOKED_AT && nested[0] == null);
        }
    }

    public static KernelCatalog of(List<LibraryKernel> kernels) {
        return new KernelCatalog(kernels, List.of());
    }

    public List<LibraryKernel> kernels() {
        return kernels;
    }

    /** One line per library that could not be loaded. */
    public List<String> problems() {
        return problems;
    }

    public Optional<LibraryKernel> find(String name) {
        return kernels.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    public List<String> names() {
        return kernels.stream().map(LibraryKernel::name).toList();
    }

    /**
     * The entries of a class path in the JVM's spelling: separated by the platform's path separator, each a jar or
     * a class folder, or {@code folder/*} for every jar in a folder.
     *
     * @throws UsageException naming an entry that does not exist
     */
    public static List<Path> classPath(String text, String option) {
        List<Path> entries = new ArrayList<>();
        for (String entry : text.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            if (entry.endsWith("/*") || entry.equals("*")) {
                Path folder = Path.of(entry.length() == 1 ? "." : entry.substring(0, entry.length() - 2));
                if (!Files.isDirectory(folder)) {
                    throw new UsageException(option + " entry '" + entry + "': " + folder + " is not a folder");
                }
                int before = entries.size();
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(folder, "*.{jar,JAR}")) {
                    jars.forEach(entries::add);
                } catch (IOException unreadable) {
                    throw new UsageException(option + " entry '" + entry + "': cannot list " + folder + ": " + unreadable.getMessage());
                }
                if (entries.size() == before) {
                    // the JVM would add nothing for it without a word
                    throw new UsageException(option + " entry '" + entry + "': " + folder + " holds no .jar file; give the "
                            + "folder of your jars, or a class folder without '/*'");
                }
                continue;
            }
            Path path = Path.of(entry);
            if (!Files.exists(path)) {
                throw new UsageException(option + " entry '" + entry + "' does not exist; give jars or class folders"
                        + " separated by '" + java.io.File.pathSeparator + "' (for a Maven project: target/classes and its"
                        + " dependencies' jars)");
            }
            entries.add(path);
        }
        return entries;
    }

    private static URL[] urls(List<Path> entries) {
        List<URL> urls = new ArrayList<>();
        for (Path entry : entries) {
            try {
                urls.add(entry.toAbsolutePath().toUri().toURL());
            } catch (MalformedURLException impossible) {
                throw new UsageException("class path entry " + entry + " cannot be read as a URL: " + impossible.getMessage());
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The library's class and where it was loaded from, so that two libraries of one name can be told apart. */
    private static String describe(Class<?> library) {
        CodeSource source = library.getProtectionDomain().getCodeSource();
        String location = source == null || source.getLocation() == null ? "" : " (" + source.getLocation().getPath() + ")";
        return library.getName() + location;
    }

    /**
     * The service files that list the provider a {@link ServiceConfigurationError} names, with the jar or class
     * folder each is in, so that the warning says which library to fix; just the service file's name when the
     * error names no provider or no file lists it.
     */
    private static String listedIn(ClassLoader loader, ServiceConfigurationError broken) {
        String service = "META-INF/services/" + KernelLibrary.class.getName();
        Matcher provider = Pattern.compile("Provider (\\S+)").matcher(String.valueOf(broken.getMessage()));
        if (!provider.find()) {
            return service;
        }
        List<String> places = new ArrayList<>();
        try {
            for (URL file : Collections.list(loader.getResources(service))) {
                try (InputStream in = file.openStream()) {
                    if (new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                            .map(line -> line.replaceFirst("#.*", "").trim()).anyMatch(provider.group(1)::equals)) {
                        places.add(entryOf(file, service));
                    }
                }
            }
        } catch (IOException unreadable) {
            return service;
        }
        return places.isEmpty() ? service : service + " of " + String.join(" and ", places);
    }

    /** The class path entry a resource comes from: the jar of a {@code jar:} URL, else the folder above the resource. */
    private static String entryOf(URL resource, String name) {
        String text = resource.toString();
        if (text.startsWith("jar:file:") && text.contains("!/")) {
            return Path.of(URI.create(text.substring("jar:".length(), text.indexOf("!/")))).toString();
        }
        if (text.startsWith("file:") && text.endsWith(name)) {
            return Path.of(URI.create(text.substring(0, text.length() - name.length()))).toString();
        }
        return text;
    }

    /** The innermost cause's message: a ServiceConfigurationError wraps the error that matters. */
    private static String reason(Throwable broken) {
        Throwable cause = broken;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? "" : cause.getMessage().replaceAll("\\s*\\R\\s*", " ");
        // a kernel's own definition error already says what is wrong and where, in the DSL's words
        return cause instanceof dev.finegrain.dsl.KernelDefinitionException ? message
                : cause.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    }
}
