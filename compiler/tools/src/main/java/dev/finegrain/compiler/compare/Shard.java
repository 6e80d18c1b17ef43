package dev.finegrain.compiler.compare;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A deterministic slice of a sweep, for sweeps too big for one machine: shard {@code index} of {@code count} runs the
 * rows whose position in the sweep's order is {@code index} modulo {@code count}. Each row a shard runs carries the
 * sweep's identity and its position ({@code sweep}, {@code sweep_row}, {@code sweep_rows}), so that {@code finegrain
 * merge} can put the shards' rows back in order and refuse rows of another sweep.
 *
 * @param sweep an identity of the sweep's options, the same on every shard of one sweep
 */
public record Shard(int index, int count, String sweep) {

    /** The whole sweep, on one machine. */
    public static final Shard WHOLE = new Shard(0, 1, "");

    public static final String SWEEP = "sweep";
    public static final String ROW = "sweep_row";
    public static final String ROWS = "sweep_rows";

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count + " is not one of 0/N to (N-1)/N");
        }
    }

    public boolean whole() {
        return count == 1;
    }

    /** Whether this shard runs the row at {@code position} of the sweep's order. */
    public boolean runs(int position) {
        return position % count == index;
    }

    /** A row of this shard with its place in the sweep named, for the merge; the whole sweep's rows as they are. */
    ResultRow tag(ResultRow row, int position, int total) {
        if (whole()) {
            return row;
        }
        Map<String, Object> details = new LinkedHashMap<>(row.details());
        details.put(SWEEP, sweep);
        details.put(ROW, (long) position);
        details.put(ROWS, (long) total);
        return new ResultRow(row.kernel(), row.size(), row.schedule(), row.backend(), row.mechanism(), row.granularity(),
                row.channels(), row.status(), row.metric(), row.value(), row.unit(), row.seed(), row.problem(), details);
    }
}
