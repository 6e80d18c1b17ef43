package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.KernelExecutionException;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.runtime.jvm.StallException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * {@code finegrain}: list the kernels on the class path, show their IR and plans, run one combination, or compare
 * many. User mistakes end with one line on stderr and exit code 2; unverified results with exit code 1.
 */
@Command(name = "finegrain", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
        version = "finegrain 0.1.0",
        description = "Compile fine-grained dataflow kernels and compare their schedules.",
        subcommands = {ListCommand.class, ShowCommand.class, RunCommand.class, CompareCommand.class, SimCommand.class,
                FidelityCommand.class, CommandLine.HelpCommand.class})
public final class FinegrainCli {

    public static final int EXIT_NOT_VERIFIED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 70;

    private final KernelCatalog catalog;

    public FinegrainCli(KernelCatalog catalog) {
        this.catalog = catalog;
    }

    KernelCatalog catalog() {
        return catalog;
    }

    public static void main(String[] args) {
        System.exit(execute(KernelCatalog.load(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given catalog and streams; returns the exit code. */
    public static int execute(KernelCatalog catalog, PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new FinegrainCli(catalog), new Factory(catalog));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((problem, arguments) -> {
            err.println("finegrain: " + problem.getMessage() + " (see '"
                    + problem.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((problem, line, result) -> {
            if (problem instanceof UsageException || problem instanceof KernelDefinitionException
                    || problem instanceof KernelExecutionException
                    || problem instanceof GpuLoweringException) {
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

    /** Gives every subcommand the catalog. */
    private record Factory(KernelCatalog catalog) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (CatalogCommand.class.isAssignableFrom(type)) {
                return type.getDeclaredConstructor(KernelCatalog.class).newInstance(catalog);
            }
            return CommandLine.defaultFactory().create(type);
        }
    }
}
