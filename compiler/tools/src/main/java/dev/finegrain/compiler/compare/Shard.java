package dev.finegrain.compiler.compare;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A deterministic slice of a sweep, for sweeps too big for one machine: shard {@code index} of {@code count} runs the
 * rows whose position in the sweep's order is {@code index} modulo {@code count}. Each row a shard runs carries the
 * sweep's identity and its position ({@code sweep}, {@code sweep_row}, {@code sweep_rows}), so that {@code finegrain
 * merge} can put the shards' rows back in order and refuse rows of another sweep.
 *
 */
public record Shard(int index, int count) {

    /** The whole sweep, on one machine. */
    public static final Shard WHOLE = new Shard(0, 1);

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

    /**
     * A row of this shard with its place in the sweep named ({@link Sweep#identity()}), for the merge; the whole
     * sweep's rows as they are.
     */
    ResultRow tag(ResultRow row, int position, int total, String sweep) {
        if (whole()) {
            return row;
        }
        Map<String, Object> details = new LinkedHashMap<>(row.details());
        details.put(SWEEP, sweep);
        details.put(ROW, (long) position);
        details.put(ROWS, (long) total);
        return row.withDetails(details);
    }
}
