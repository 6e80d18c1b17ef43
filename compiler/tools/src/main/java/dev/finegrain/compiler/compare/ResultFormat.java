package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Renders result rows as an aligned table, a JSON array of objects, or CSV with a header line. */
public enum ResultFormat {
    TABLE,
    JSON,
    CSV;

    /** The columns every format shows, in order; {@link #cells} gives a row's text for each. */
    static final List<String> COLUMNS = List.of("kernel", "size", "schedule", "backend", "mechanism",
            "granularity", "channels", "status", "metric", "value", "unit", "of_bound", "ms", "min_ms", "max_ms");

    public String render(List<ResultRow> rows) {
        return switch (this) {
            case TABLE -> table(rows);
            case JSON -> json(rows);
            case CSV -> csv(rows);
        };
    }

    static List<String> cells(ResultRow row) {
        return List.of(row.kernel(), row.size(), row.schedule(), row.backend(), row.mechanism(), row.granularity(),
                row.channels(), row.status().label(), row.metric(), number(row.value()), row.unit(), ofBound(row), millis(row),
                spreadMillis(row, true), spreadMillis(row, false));
    }

    /** Whether a column holds numbers, which tables align right. */
    static boolean isNumeric(String column) {
        return column.equals("value") || column.endsWith("ms") || column.equals("of_bound");
    }

    /**
     * The row's time in milliseconds, comparable across backends: the median timed run where the backend measures
     * (jvm, cuda), the modelled GPU time where it models one (gpu-model), the checker's time for the reference.
     */
    static String millis(ResultRow row) {
        Object millis = row.details().get("median_ms");
        if (millis == null && row.details().get("us") instanceof Number micros) {
            millis = micros.doubleValue() / 1e3;
        }
        if (millis == null) {
            millis = row.details().get("check_ms");
        }
        return millis instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.doubleValue()) : "-";
    }

    /**
     * The share of its memory bound a row reached ({@link dev.finegrain.compiler.backend.MemoryBound}), as a percent,
     * where the run measured its machine's copy bandwidth; else "-".
     */
    static String ofBound(ResultRow row) {
        return row.verified() && row.details().get("bound_fraction") instanceof Number fraction
                ? String.format(Locale.ROOT, "%.1f%%", 100 * fraction.doubleValue()) : "-";
    }

    /** The fastest ({@code low}) or slowest timed run in ms, where the row was timed and its runs recorded; else "-". */
    static String spreadMillis(ResultRow row, boolean low) {
        return RowCost.of(row).filter(cost -> cost.unit().equals("ms") && cost.spreadKnown())
                .map(cost -> String.format(Locale.ROOT, "%.3f", low ? cost.low() : cost.high())).orElse("-");
    }

    /** The axes the rows name ({@link SweepAxes#PREFIX} details), in the order first met: a column each. */
    static List<String> axes(List<ResultRow> rows) {
        java.util.LinkedHashSet<String> axes = new java.util.LinkedHashSet<>();
        rows.forEach(row -> row.details().keySet().stream().filter(key -> key.startsWith(SweepAxes.PREFIX)).sorted()
                .forEach(axes::add));
        return List.copyOf(axes);
    }

    /** The columns of these rows: {@link #COLUMNS}, with a column per axis after the channels. */
    static List<String> columns(List<String> axes) {
        List<String> columns = new ArrayList<>(COLUMNS);
        int at = columns.indexOf("channels") + 1;
        for (int a = 0; a < axes.size(); a++) {
            columns.add(at + a, axes.get(a).substring(SweepAxes.PREFIX.length()));
        }
        return columns;
    }

    /** A row's cells under {@link #columns}: an axis the row does not name is "-". */
    static List<String> cells(ResultRow row, List<String> axes) {
        List<String> cells = new ArrayList<>(cells(row));
        int at = COLUMNS.indexOf("channels") + 1;
        for (int a = 0; a < axes.size(); a++) {
            cells.add(at + a, String.valueOf(row.details().getOrDefault(axes.get(a), "-")));
        }
        return cells;
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.4g", value);
    }

    private static String table(List<ResultRow> rows) {
        List<String> axes = axes(rows);
        List<String> columns = columns(axes);
        List<List<String>> lines = new ArrayList<>();
        lines.add(columns);
        rows.forEach(row -> lines.add(cells(row, axes)));
        int[] widths = new int[columns.size()];
        for (List<String> line : lines) {
            for (int c = 0; c < line.size(); c++) {
                widths[c] = Math.max(widths[c], line.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder text = new StringBuilder();
            for (int c = 0; c < line.size(); c++) {
                boolean numeric = isNumeric(columns.get(c));
                String cell = line.get(c);
                String padded = numeric ? " ".repeat(widths[c] - cell.length()) + cell : cell + " ".repeat(widths[c] - cell.length());
                text.append(c == 0 ? "" : "  ").append(padded);
            }
            out.append(text.toString().stripTrailing()).append('\n');
        }
        // each row that did not verify, named; rows that share a status and a reason under that reason once
        Map<String, List<ResultRow>> byReason = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (!row.verified()) {
                byReason.computeIfAbsent(row.status().label().toUpperCase(java.util.Locale.ROOT) + "\u0000" + row.problem(),
                        reason -> new ArrayList<>()).add(row);
            }
        }
        for (List<ResultRow> group : byReason.values()) {
            String status = group.getFirst().status().label().toUpperCase(java.util.Locale.ROOT);
            if (group.size() == 1) {
                out.append(status).append(": ").append(rowName(group.getFirst())).append(": ").append(group.getFirst().problem()).append('\n');
                continue;
            }
            out.append(status).append(", ").append(group.size()).append(" rows: ").append(group.getFirst().problem()).append('\n');
            group.forEach(row -> out.append("  ").append(rowName(row)).append('\n'));
        }
        return out.toString();
    }

    /** A row as the lines under the table name it: kernel, size, schedule, backend and mechanism. */
    private static String rowName(ResultRow row) {
        return row.kernel() + " " + row.size() + " " + row.schedule() + " " + row.backend()
                + (row.mechanism().equals("-") ? "" : " " + row.mechanism());
    }

    private static String json(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder("[\n");
        for (int r = 0; r < rows.size(); r++) {
            out.append("  ").append(jsonObject(rows.get(r))).append(r == rows.size() - 1 ? "\n" : ",\n");
        }
        return out.append("]\n").toString();
    }

    /** One row as the JSON object {@code --format json} writes for it, on one line (a journal's line too). */
    static String jsonObject(ResultRow row) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        List<String> cells = cells(row);
        for (int c = 0; c < COLUMNS.size(); c++) {
            fields.put(COLUMNS.get(c), cells.get(c));
        }
        // the times are details, as numbers, where the row has them
        fields.remove("ms");
        fields.remove("of_bound");
        fields.remove("min_ms");
        fields.remove("max_ms");
        fields.put("verified", row.verified());
        fields.put("value", row.value());
        fields.put("seed", row.seed());
        if (!row.verified()) {
            fields.put("problem", row.problem());
        }
        new TreeMap<>(row.details()).forEach(fields::put);
        StringBuilder out = new StringBuilder("{");
        int f = 0;
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            out.append(f++ == 0 ? "" : ", ").append(quote(field.getKey())).append(": ").append(jsonValue(field.getValue()));
        }
        return out.append('}').toString();
    }

    private static String jsonValue(Object value) {
        return switch (value) {
            case Boolean b -> b.toString();
            // full precision: JSON is for programs, which should get the number the table rounds for people
            case Double d -> d.isNaN() || d.isInfinite() ? "null"
                    : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : Double.toString(d);
            case Number n -> n.toString();
            // an imported row's lists (a CUDA bundle's runs_us) stay lists, so a report of reports keeps them
            case List<?> list -> Json.write(list);
            default -> quote(value.toString());
        };
    }

    private static String quote(String text) {
        return Json.quote(text);
    }

    private static String csv(List<ResultRow> rows) {
        List<String> axes = axes(rows);
        StringBuilder out = new StringBuilder(String.join(",", columns(axes))).append(",seed,problem\n");
        for (ResultRow row : rows) {
            List<String> cells = new ArrayList<>(cells(row, axes));
            cells.add(Long.toString(row.seed()));
            cells.add(row.problem());
            out.append(String.join(",", cells.stream().map(ResultFormat::csvCell).toList())).append('\n');
        }
        return out.toString();
    }

    private static String csvCell(String cell) {
        return cell.contains(",") || cell.contains("\"") || cell.contains("\n") ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
    }
}
