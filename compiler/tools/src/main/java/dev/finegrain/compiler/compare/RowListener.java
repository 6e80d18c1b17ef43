package dev.finegrain.compiler.compare;

/**
 * Told of each row of a sweep as it is settled, with its position in the sweep's order, from whichever thread settled
 * it: what a journal records and what an interrupted run still writes.
 */
public interface RowListener {

    /** A row settled in this run: it ran, or was skipped or failed. */
    void finished(int position, ResultRow row);

    /** A row an earlier, interrupted run of the same sweep finished, kept in its place ({@code --resume}). */
    default void kept(int position, ResultRow row) {
    }

    RowListener NONE = (position, row) -> { };
}
