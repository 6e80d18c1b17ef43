package dev.finegrain.compiler.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A finegrain process of its own for the tests that signal one: the CLI over the tests' catalog, exiting as the real one does. */
final class CliChild {

    private CliChild() {}

    public static void main(String[] args) {
        System.exit(FinegrainCli.execute(CliBehaviourTest.CATALOG, new PrintWriter(System.out, true),
                new PrintWriter(System.err, true), args));
    }

    /** A command line that runs this class with {@code args} in a new JVM with this one's class path and options. */
    static ProcessBuilder process(String... args) {
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(javaCommand, "--add-modules",
                "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"), CliChild.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }
}
