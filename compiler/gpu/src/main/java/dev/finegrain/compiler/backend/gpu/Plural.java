package dev.finegrain.compiler.backend.gpu;

/** A count and its noun as the plans print them: "1 tile", "2 tiles", "1 launch", "3 launches". */
public final class Plural {

    private Plural() {}

    /** {@code count} and {@code noun}, with an s (es after ch, s or x) unless the count is one. */
    public static String of(long count, String noun) {
        boolean sibilant = noun.endsWith("ch") || noun.endsWith("s") || noun.endsWith("x");
        return count + " " + noun + (count == 1 ? "" : sibilant ? "es" : "s");
    }
}
