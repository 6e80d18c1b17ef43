package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.backend.UnsupportedCombinationException;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.runtime.jvm.StallException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code finegrain}: list the kernels on the class path, show their IR and plans, run one combination, or compare
 * many. User mistakes end with one line on stderr and exit code 2; unverified or failed results with exit code 1.
 *
 * <p>Kernels come from the {@code KernelLibrary} services on the class path and on {@code --classpath} (and the
 * {@code FINEGRAIN_CLASSPATH} environment variable); the catalog is loaded when a command first needs it, so
 * {@code --help} and {@code sim} never load a user's libraries.
 */
@Command(name = "finegrain", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
        version = "finegrain 0.1.0",
        description = "Compile fine-grained dataflow kernels and compare their schedules.",
        subcommands = {ListCommand.class, ShowCommand.class, RunCommand.class, CompareCommand.class, ExportCommand.class,
                SimCommand.class, FidelityCommand.class, ValidateCommand.class, MergeCommand.class, CrossoverCommand.class, BreakevenCommand.class, PrimitivesCommand.class, ProfilesCommand.class,
                CommandLine.HelpCommand.class})
public final class FinegrainCli {

    public static final int EXIT_NOT_VERIFIED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 70;
    /** The environment variable whose class path is added to {@code --classpath}. */
    public static final String CLASSPATH_VARIABLE = "FINEGRAIN_CLASSPATH";

    @Option(names = {"--classpath", "-cp"}, paramLabel = "PATH", scope = CommandLine.ScopeType.INHERIT,
            description = "jars and class folders with your kernel libraries, separated by '${sys:path.separator}' "
                    + "(also read from $" + CLASSPATH_VARIABLE + "); their kernels join the samples")
    String classpath;

    private final Function<List<Path>, KernelCatalog> loader;
    private final Map<String, String> environment;
    private KernelCatalog catalog;
    private PrintWriter err;

    private FinegrainCli(Function<List<Path>, KernelCatalog> loader, Map<String, String> environment) {
        this.loader = loader;
        this.environment = environment;
    }

    /**
     * The kernels of the class path and of {@code --classpath} and {@code $FINEGRAIN_CLASSPATH}, loaded once; a
     * library that cannot be loaded is one warning line on stderr.
     */
    KernelCatalog catalog() {
        if (catalog == null) {
            List<Path> extra = new ArrayList<>();
            String fromEnvironment = environment.get(CLASSPATH_VARIABLE);
            if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                extra.addAll(KernelCatalog.classPath(fromEnvironment, CLASSPATH_VARIABLE));
            }
            if (classpath != null) {
                extra.addAll(KernelCatalog.classPath(classpath, "--classpath"));
            }
            catalog = loader.apply(extra);
            catalog.problems().forEach(problem -> err.println("finegrain: warning: " + problem));
            err.flush();
        }
        return catalog;
    }

    public static void main(String[] args) {
        System.exit(execute(KernelCatalog::load, System.getenv(), new PrintWriter(System.out, true),
                new PrintWriter(System.err, true), args));
    }

    /**
     * What a command line's mistake says: an unknown command (a word where the top level expects one) lists the commands,
     * an extra word after a command's options says that lists are comma-separated (the usual cause: {@code --sizes 64
     * 128}), and a suggestion is offered only where it is a likely misspelling of what was typed.
     */
    static String parameterProblem(CommandLine.ParameterException problem) {
        if (!(problem instanceof CommandLine.UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return problem.getMessage();
        }
        String word = unmatched.getUnmatched().get(0);
        List<String> close = unmatched.getSuggestions().stream().filter(suggestion -> likelyMisspelling(word, suggestion)).toList();
        String suggestion = close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?";
        if (word.startsWith("-")) {
            return problem.getMessage() + suggestion;
        }
        CommandLine.Model.CommandSpec spec = problem.getCommandLine().getCommandSpec();
        if (spec.parent() == null) {
            List<String> commands = spec.subcommands().keySet().stream().filter(name -> !name.equals("help")).toList();
            return "unknown command '" + word + "'" + suggestion + "; the commands are " + String.join(", ", commands);
        }
        return "unexpected argument '" + word + "'" + suggestion + ": an option takes one value, and a list is written"
                + " with commas (for example --sizes 64,128)";
    }

    /** Whether a suggestion is within a couple of edits of the word typed (picocli also offers unrelated names). */
    private static boolean likelyMisspelling(String typed, String suggestion) {
        String a = typed.replaceFirst("^-+", "").toLowerCase(java.util.Locale.ROOT);
        String b = suggestion.replaceFirst("^-+", "").toLowerCase(java.util.Locale.ROOT);
        if (a.length() >= 3 && (b.startsWith(a) || a.startsWith(b))) {
            return true;
        }
        int[] previous = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int[] current = new int[b.length() + 1];
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            previous = current;
        }
        return previous[b.length()] <= Math.max(2, a.length() / 4);
    }

    /** Runs the command line with a fixed catalog (tests); {@code --classpath} then adds nothing. */
    public static int execute(KernelCatalog catalog, PrintWriter out, PrintWriter err, String... args) {
        return execute(extra -> catalog, Map.of(), out, err, args);
    }

    /** Runs the command line with a catalog loaded for the extra class path entries; returns the exit code. */
    public static int execute(Function<List<Path>, KernelCatalog> loader, Map<String, String> environment, PrintWriter out,
                              PrintWriter err, String... args) {
        FinegrainCli cli = new FinegrainCli(loader, environment);
        cli.err = err;
        CommandLine commandLine = new CommandLine(cli);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((problem, arguments) -> {
            err.println("finegrain: " + parameterProblem(problem) + " (see '"
                    + problem.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((problem, line, result) -> {
            if (problem instanceof UsageException || problem instanceof KernelDefinitionException
                    || problem instanceof KernelExecutionException || problem instanceof UnsupportedCombinationException) {
                err.println("finegrain: " + problem.getMessage());
                return EXIT_USAGE;
            }
            if (problem instanceof StallException stall) {
                err.println("finegrain: " + stall.getMessage());
                return EXIT_NOT_VERIFIED;
            }
            err.println("finegrain: internal error, please report it with this trace:");
            problem.printStackTrace(err);
            return EXIT_INTERNAL;
        });
        int exit;
        try {
            exit = commandLine.execute(args);
        } catch (OutOfMemoryError tooLarge) {
            err.println("finegrain: out of memory: what this command holds at once (every field over the whole domain, or"
                    + " the simulated GPU's memory) does not fit; use smaller sizes or fewer blocks, or give the JVM more"
                    + " with FINEGRAIN_JAVA_OPTS=-Xmx<size>");
            exit = EXIT_USAGE;
        }
        out.flush();
        err.flush();
        return exit;
    }
}
