package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.runtime.ProfileProvenance;
import dev.finegrain.gpu.runtime.SimtProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "profiles", description = "List the GPU model's profiles, or print one profile's every value with where it"
        + " comes from (a measurement, a specification, an estimate, or a mechanism left off).")
final class ProfilesCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "PROFILE", description = "a built-in profile or a profile file")
    String profile;

    @Option(names = "--full", description = "each source whole, not its first sentence")
    boolean full;

    @Option(names = "--properties", description = "print the profile's file as written (every key, each with its source),"
            + " to start a profile file of your own from: finegrain profiles hopper-h200 --properties > mine.properties")
    boolean properties;

    @Override
    public Integer call() {
        if (profile == null && properties) {
            throw new UsageException("--properties prints one profile's file: name it, e.g. finegrain profiles hopper-h200 --properties");
        }
        if (profile != null && properties && profile.contains(SimtProfile.SETTING)) {
            throw new UsageException("--properties prints a profile's file as written, and " + profile + " sets keys beyond it;"
                    + " print " + profile.substring(0, profile.indexOf(SimtProfile.SETTING)) + " and change those keys in the copy");
        }
        if (profile == null) {
            for (String name : SimtProfile.BUILT_IN) {
                out().println(name + "  " + SimtProfile.load(name).description());
            }
            out().println();
            out().println("finegrain profiles PROFILE prints a profile's values and where each comes from.");
            return 0;
        }
        Map<String, ProfileProvenance.Entry> entries;
        try {
            SimtProfile.load(profile);
            if (properties) {
                out().print(SimtProfile.text(profile));
                return 0;
            }
            entries = ProfileProvenance.of(SimtProfile.text(profile));
        } catch (SimUserException unknown) {
            throw new UsageException(unknown.getMessage());
        }
        out().println(entries.getOrDefault("profile.name", new ProfileProvenance.Entry(profile, "")).value() + ": "
                + entries.getOrDefault("profile.description", new ProfileProvenance.Entry("", "")).value());
        entries.keySet().removeIf(key -> key.startsWith("profile.name") || key.startsWith("profile.description"));
        int keyWidth = entries.keySet().stream().mapToInt(String::length).max().orElse(0);
        int valueWidth = entries.values().stream().mapToInt(entry -> entry.value().length()).max().orElse(0);
        out().println(pad("key", keyWidth) + "  " + pad("value", valueWidth) + "  where it comes from");
        entries.forEach((key, entry) -> out().println(pad(key, keyWidth) + "  " + pad(entry.value(), valueWidth) + "  "
                + (full ? entry.source() : firstSentence(entry.source()))));
        return 0;
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    /** Up to the first full stop that ends a sentence, or the whole source. */
    static String firstSentence(String source) {
        java.util.regex.Matcher end = java.util.regex.Pattern.compile("[.;](\\s|$)").matcher(source);
        return end.find() ? source.substring(0, end.start() + 1) : source;
    }
}
