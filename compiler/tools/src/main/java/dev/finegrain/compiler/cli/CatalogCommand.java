package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** A subcommand that reads the kernel catalog (loaded when first asked for) and writes to the command line's streams. */
abstract class CatalogCommand {

    @Spec
    protected CommandSpec spec;

    protected KernelCatalog catalog() {
        return ((FinegrainCli) spec.root().userObject()).catalog();
    }

    /** {@code --classpath PATH } as the user gave it, to repeat in a command this one suggests; empty without it. */
    protected String classpathOption() {
        String classpath = ((FinegrainCli) spec.root().userObject()).classpath;
        if (classpath == null) {
            return "";
        }
        return "--classpath " + (classpath.chars().anyMatch(Character::isWhitespace) ? "'" + classpath + "'" : classpath) + " ";
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
