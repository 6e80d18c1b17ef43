package dev.finegrain.gpu.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each value of a profile comes from, as its file says: the comment right above a key, or, for a key in a group
 * under one comment, that comment (a profile's comments name the measurement, the specification or the estimate
 * behind every number; {@code SimtProfileTest} holds them to it).
 */
public final class ProfileProvenance {

    private ProfileProvenance() {}

    /** Each key of the profile's text, in file order, with its value and the comment that says where it comes from. */
    public static Map<String, Entry> of(String text) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        StringBuilder comment = new StringBuilder();
        String group = "";
        boolean previousWasComment = false;
        for (String line : text.lines().toList()) {
            String stripped = line.strip();
            if (stripped.startsWith("#")) {
                if (!previousWasComment) {
                    comment.setLength(0);
                }
                comment.append(comment.isEmpty() ? "" : " ").append(stripped.substring(1).strip());
                previousWasComment = true;
                continue;
            }
            int equals = stripped.indexOf('=');
            if (stripped.isEmpty() || equals < 0) {
                previousWasComment = false;
                group = "";
                continue;
            }
            if (previousWasComment) {
                group = comment.toString();
            }
            previousWasComment = false;
            entries.put(stripped.substring(0, equals).strip(), new Entry(stripped.substring(equals + 1).strip(), group));
        }
        return entries;
    }

    /** A key's value as written and the comment that says where it comes from. */
    public record Entry(String value, String source) {}
}
