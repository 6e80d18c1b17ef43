package dev.finegrain.compiler.cli;

import dev.finegrain.dsl.LibraryKernel;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "list", description = "List the kernels with their descriptions.")
final class ListCommand extends CatalogCommand implements Callable<Integer> {


    @Override
    public Integer call() {
        int width = catalog().names().stream().mapToInt(String::length).max().orElse(0);
        for (LibraryKernel kernel : catalog().kernels()) {
            out().println(kernel.name() + " ".repeat(width - kernel.name().length()) + "  " + kernel.summary());
            out().println(wrap(kernel.description(), 96, "    "));
            out().println();
        }
        return 0;
    }

    static String wrap(String text, int width, String indent) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.trim().split("\\s+")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(word);
        }
        return out.append(line).toString();
    }
}
