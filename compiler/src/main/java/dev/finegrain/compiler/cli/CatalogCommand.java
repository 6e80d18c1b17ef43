package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.KernelCatalog;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** A subcommand that reads the kernel catalog and writes to the command line's streams. */
abstract class CatalogCommand {

    protected final KernelCatalog catalog;

    @Spec
    protected CommandSpec spec;

    CatalogCommand(KernelCatalog catalog) {
        this.catalog = catalog;
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
