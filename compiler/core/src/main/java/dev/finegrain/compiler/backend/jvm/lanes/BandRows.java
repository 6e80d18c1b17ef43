package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;

import java.util.List;

/**
 * How a lock-dataflow band runs its rows in lanes where its kernel is a {@link WestMaxRecurrence}: as row scans in
 * storage ({@link RowScanBands}), or in Farrar's striped layout in the band's own rows ({@link StripedRows}). The band
 * loop awaits a row's tokens before {@link #row} and publishes them after it.
 */
public interface BandRows {

    /** Once per band, before its rows: the band's columns, from {@code from} to {@code to}. */
    List<JStmt> columns(JExpr from, JExpr to);

    /**
     * The current row of the band (row bases set); {@code plain} runs scalar points of the row where lanes cannot. Every
     * point the row reads west of the band must be final.
     */
    List<JStmt> row(RowScanBands.Plain plain);

    /** The summary line {@code show --java} adds. */
    String summary();
}
