package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rows read back from a {@code results.json}: what {@code --format json} and {@code --out} write, and what an exported
 * CUDA bundle's run script writes on a GPU machine. The columns every row has become the row's fields; every other
 * member is a detail.
 */
public final class ImportedRows {

    private static final Set<String> COLUMNS = Set.of("kernel", "size", "schedule", "backend", "mechanism", "granularity",
            "channels", "status", "verified", "metric", "value", "unit", "seed", "problem");

    private ImportedRows() {}

    /** @throws UsageException naming the file when it cannot be read or does not hold rows */
    public static List<ResultRow> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException missing) {
            throw new UsageException("results file " + file + " does not exist");
        } catch (IOException unreadable) {
            throw new UsageException("cannot read results file " + file + ": " + unreadable.getMessage());
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (IllegalArgumentException malformed) {
            throw new UsageException("results file " + file + " is not JSON: " + malformed.getMessage());
        }
        if (!(parsed instanceof List<?> elements)) {
            throw new UsageException("results file " + file + " holds no array of rows; give a results.json that compare --out"
                    + " or an exported bundle's run.sh wrote");
        }
        List<ResultRow> rows = new ArrayList<>();
        for (int r = 0; r < elements.size(); r++) {
            if (!(elements.get(r) instanceof Map<?, ?> object)) {
                throw new UsageException("results file " + file + ": element " + r + " is not a row object");
            }
            rows.add(row(file, r, object));
        }
        return rows;
    }

    /** A row read back from its JSON object, as {@link ResultFormat#jsonObject} wrote it; the file names it in errors. */
    static ResultRow row(Path file, int index, Map<?, ?> object) {
        Map<String, Object> details = new LinkedHashMap<>();
        object.forEach((key, value) -> {
            if (!COLUMNS.contains(String.valueOf(key)) && value != null) {
                details.put(String.valueOf(key), value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15
                        ? (Object) d.longValue() : value);
            }
        });
        RowStatus status;
        try {
            status = object.get("status") instanceof String label ? RowStatus.fromLabel(label)
                    : Boolean.TRUE.equals(object.get("verified")) ? RowStatus.VERIFIED : RowStatus.NOT_VERIFIED;
        } catch (IllegalArgumentException unknown) {
            throw new UsageException("results file " + file + ": row " + index + " has status '" + object.get("status")
                    + "'; a row is verified, NOT VERIFIED, failed or skipped");
        }
        return new ResultRow(text(file, index, object, "kernel"), text(file, index, object, "size"),
                text(file, index, object, "schedule"), text(file, index, object, "backend"), optional(object, "mechanism", "-"),
                optional(object, "granularity", "-"), optional(object, "channels", "-"), status, optional(object, "metric", "-"),
                object.get("value") instanceof Double value ? value : Double.NaN, optional(object, "unit", "-"),
                object.get("seed") instanceof Double seed ? seed.longValue() : 0, optional(object, "problem", ""), details);
    }

    private static String text(Path file, int index, Map<?, ?> object, String key) {
        if (!(object.get(key) instanceof String value)) {
            throw new UsageException("results file " + file + ": row " + index + " has no '" + key + "'");
        }
        return value;
    }

    private static String optional(Map<?, ?> object, String key, String fallback) {
        return object.get(key) instanceof String value ? value : fallback;
    }
}
