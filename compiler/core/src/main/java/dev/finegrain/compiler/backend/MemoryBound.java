package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * How close a run came to the memory bound, the flat part of a roofline: the least traffic a point needs (each input
 * element read once, each state element written once, in the backend's storage) against a copy bandwidth measured on
 * the same machine by the same run, on a copy that moves as many bytes (so that it meets the same level of the memory
 * hierarchy: a run whose data fits a cache is bound by the cache's bandwidth), counted as STREAM counts a copy, bytes
 * read plus bytes written. A full-matrix
 * Needleman-Wunsch moves 8 bytes a cell (an int of the reference read, an int of the score written); a run that
 * reads a neighbour from memory again, or spills, moves more, and reaches a smaller fraction.
 *
 * @param bytesPerPoint       the least bytes a point moves
 * @param copyBytesPerSecond  the measured copy bandwidth
 */
public record MemoryBound(long bytesPerPoint, double copyBytesPerSecond) {

    public MemoryBound {
        if (bytesPerPoint < 1 || !(copyBytesPerSecond > 0)) {
            throw new IllegalArgumentException("a bound needs bytes and a bandwidth: " + bytesPerPoint + ", " + copyBytesPerSecond);
        }
    }

    /**
     * The least bytes a point of {@code graph} moves, each field's element taking {@code elementBytes} in storage. A
     * sequence input (an element per row or column, not per point) and a lookup table are read again and again from
     * cache, so they add nothing per point, and so does a field an element of which takes no bytes (held in a
     * cache-sized ring): 0 when no field moves a byte per point, and then a run has no memory bound.
     */
    public static long bytesPerPoint(KernelGraph graph, ToIntFunction<IrField> elementBytes) {
        long bytes = 0;
        for (IrField field : graph.fields()) {
            if (!field.isSequence()) {
                bytes += elementBytes.applyAsInt(field);
            }
        }
        return bytes;
    }

    /** The most points a second the bandwidth allows. */
    public double boundPointsPerSecond() {
        return copyBytesPerSecond / bytesPerPoint;
    }

    /** The share of the bound a rate of {@code pointsPerSecond} reaches. */
    public double fraction(double pointsPerSecond) {
        return pointsPerSecond / boundPointsPerSecond();
    }

    /** What a row carries of the bound: bytes a cell, the copy bandwidth, the bound and the share of it reached. */
    public Map<String, Object> details(double pointsPerSecond) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("bytes_per_cell", bytesPerPoint);
        details.put("copy_gbps", Math.round(copyBytesPerSecond / 1e8) / 10.0);
        details.put("bound_cells_per_s", (double) Math.round(boundPointsPerSecond()));
        details.put("bound_fraction", Math.round(fraction(pointsPerSecond) * 1e4) / 1e4);
        return details;
    }
}
