package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.lowering.RowLayout;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * Storage for a class whose rows are aligned for lanes ({@link RowLayout#alignRows}): each field's halo-padded
 * rows, laid out as the reference lays them out, copied to rows of a chosen pitch after a chosen front (elements
 * before the field's first), and back; the class reads each field's pitch and front from its frame ({@link #frame}).
 *
 * <p>Why. A strip's lane r loads and stores k elements of row r starting {@code skew * r} columns west of lane 0.
 * With a row pitch equal to the skew modulo k, all k lanes of a block start at the same place within a vector, and with
 * the field's first point on a vector boundary a block starting at the right column loads and stores whole cache
 * lines (a vector of 16 ints or 8 longs is one 64-byte line). Whether that pays depends on the array's start, which
 * Java does not choose: HotSpot's G1 collector puts an array of at least half a heap region at a region's start, so
 * its elements begin a header's size after a line boundary; such a field gets the aligned pitch and front. Any other
 * array (another collector, a small array) keeps dense rows: the same rows at a start Java chose anywhere would put
 * every lane of a block across two lines alike, which ran slower than dense rows (docs/jvm-backend.md, "Aligned rows").
 *
 * <p>Band blocks. A class whose workers run bands of columns as row scans ({@link JClass.RowAlignment#bandGroup}) gets
 * each band's columns, with the halo columns either side, as a block of rows of its own: a worker's loads and stores
 * then stream through one contiguous block, where rows of the whole width would make them jump from row to row, which
 * ran almost twice as slow on one core (docs/jvm-backend.md, "Band blocks"). The band width depends on the number of
 * workers, so this layout is made per team size.
 *
 * <p>Column blocks. A class of data-parallel tiles of a 2D kernel ({@link JClass.RowAlignment#blockColumns}; all but
 * lanes across tiles) gets blocks of the tile's width, whatever the team: a tile's rows, with the halo columns, are then
 * one contiguous run of storage, where rows of the whole width would put its rows a whole row of storage apart, which
 * ran more than twice as slow for row-scan tiles (docs/jvm-backend.md, "Column blocks"). Their rows are dense: a row
 * of 17 ints padded to two lines of its own doubled the lines a tile touches, and ran slower.
 */
public final class AlignedStorage implements StorageLayout {

    /** The smallest array G1 starts on a region boundary, in bytes; -1 when the JVM does not run G1 (or will not say). */
    private static final long REGION_START_BYTES = g1HumongousThreshold();
    /** Bytes before element 0 of an int[] and of a long[] or double[]; -1 where unknown. */
    private static final int INT_BASE = baseOffset("ARRAY_INT_BASE_OFFSET");
    private static final int LONG_BASE = baseOffset("ARRAY_LONG_BASE_OFFSET");

    private final KernelGraph graph;
    private final Rows[] rows;
    private final int[] frame;

    /**
     * Where one field's rows lie: the front, the pitch, the number of rows (all outer dimensions), their padded width,
     * and whether they are aligned (or dense); the band width in columns, the number of blocks, and the padded columns
     * a block's rows hold ({@code span}: its band and the halo columns either side). Without bands one block holds all:
     * the band is the domain's width and the span the padded width.
     */
    private record Rows(int front, int pitch, int rows, int width, boolean aligned, int band, int blocks, int span) {
        int blockStride() {
            return rows * pitch;
        }

        int length() {
            return front + blocks * blockStride();
        }

        /** Whether the storage differs from the reference's layout, and so is a copy. */
        boolean copied() {
            return aligned || blocks > 1;
        }

        /** The storage index of padded row {@code row}, padded column {@code column}, in block {@code block}. */
        int index(int block, int row, int column) {
            return front + block * blockStride() + row * pitch + column - block * band;
        }

        /** How many padded columns block {@code block} holds, from its first, {@code block * band}. */
        int blockWidth(int block) {
            return Math.min(span, width - block * band);
        }
    }

    private AlignedStorage(KernelGraph graph, Rows[] rows, int[] frame) {
        this.graph = graph;
        this.rows = rows;
        this.frame = frame;
    }

    /** Where the frame holds field {@code field}'s row pitch, after the {@code rank} sizes. */
    public static int pitchIndex(int rank, int field) {
        return rank + 2 * field;
    }

    /** Where the frame holds field {@code field}'s block stride (the elements from one band's block to the next), after the block alignment. */
    public static int blockStrideIndex(int rank, int fields, int field) {
        return rank + 2 * fields + 1 + field;
    }

    /** Where the frame holds field {@code field}'s front. */
    public static int frontIndex(int rank, int field) {
        return rank + 2 * field + 1;
    }

    /**
     * Where the frame holds the block alignment of a kernel with {@code fields} fields: the lanes when some field's rows
     * are aligned, so a strip's blocks start on a line, and 1 when all are dense, so they start where they would anyway.
     */
    public static int blockAlignmentIndex(int rank, int fields) {
        return rank + 2 * fields;
    }

    /**
     * The columns of each worker's band under the dataflow schedule, a whole number of sync groups: the generated code
     * computes the same ({@code DataflowLoops} spells it).
     */
    public static int bandWidth(int columns, int workers, int group) {
        return Math.ceilDiv(Math.ceilDiv(columns, workers), group) * group;
    }

    /** Whether this JVM starts an array of so many bytes on a cache line: G1 does for its humongous objects. */
    public static boolean startsOnLine(long bytes) {
        return REGION_START_BYTES > 0 && bytes >= REGION_START_BYTES;
    }

    /**
     * The layout of every field of {@code graph} at {@code sizes} for a team of {@code workers}, for storage laid out as
     * {@code padded} is; {@code startsOnLine} says which array sizes (in bytes) start on a cache line.
     */
    public static AlignedStorage of(KernelGraph graph, int[] sizes, JClass.RowAlignment alignment, Object[] padded, int workers,
                             LongPredicate startsOnLine) {
        Rows[] rows = new Rows[graph.fields().size()];
        int[] frame = Arrays.copyOf(sizes, sizes.length + 3 * rows.length + 1);
        int columns = sizes[sizes.length - 1];
        int band = alignment.blockColumns() > 0 ? alignment.blockColumns()
                : alignment.bandGroup() == 0 ? columns : Math.max(1, bandWidth(columns, workers, alignment.bandGroup()));
        boolean anyAligned = false;
        for (IrField field : graph.fields()) {
            int f = field.id();
            rows[f] = rows(field, sizes, alignment, band, padded[f] instanceof int[] ? Integer.BYTES : Long.BYTES, startsOnLine);
            frame[pitchIndex(sizes.length, f)] = rows[f].pitch();
            frame[frontIndex(sizes.length, f)] = rows[f].front();
            frame[blockStrideIndex(sizes.length, rows.length, f)] = rows[f].blockStride();
            anyAligned |= rows[f].aligned();
        }
        frame[blockAlignmentIndex(sizes.length, rows.length)] = anyAligned ? alignment.lanes() : 1;
        return new AlignedStorage(graph, rows, frame);
    }

    /** The sizes the class is constructed with: the domain's, then each field's pitch and front, then the block alignment. */
    @Override
    public int[] frame() {
        return frame.clone();
    }

    /** The fields of {@code padded} (the reference's layout) copied into this layout; dense fields of one block are the same arrays. */
    @Override
    public Object[] align(Object[] padded) {
        Object[] aligned = padded.clone();
        for (IrField field : graph.fields()) {
            Rows r = rows[field.id()];
            if (!r.copied()) {
                continue;
            }
            Object out = Array.newInstance(padded[field.id()].getClass().getComponentType(), r.length());
            for (int row = 0; row < r.rows(); row++) {
                for (int b = 0; b < r.blocks(); b++) {
                    System.arraycopy(padded[field.id()], row * r.width() + b * r.band(), out, r.index(b, row, b * r.band()), r.blockWidth(b));
                }
            }
            aligned[field.id()] = out;
        }
        return aligned;
    }

    /** The state fields of storage in this layout copied back to the reference's layout (the inputs as they are). */
    @Override
    public Object[] padded(Object[] aligned) {
        Object[] padded = aligned.clone();
        for (IrField field : graph.fields()) {
            Rows r = rows[field.id()];
            if (!field.isState() || !r.copied()) {
                continue;
            }
            Object out = Array.newInstance(aligned[field.id()].getClass().getComponentType(), r.rows() * r.width());
            int haloLow = field.haloLow()[field.haloLow().length - 1];
            for (int row = 0; row < r.rows(); row++) {
                // each column from the block that computed it; the halo columns west of the domain from the first, east from the last
                for (int b = 0; b < r.blocks(); b++) {
                    int from = b == 0 ? 0 : b * r.band() + haloLow;
                    int to = b == r.blocks() - 1 ? r.width() : (b + 1) * r.band() + haloLow;
                    System.arraycopy(aligned[field.id()], r.index(b, row, from), out, row * r.width() + from, to - from);
                }
            }
            padded[field.id()] = out;
        }
        return padded;
    }

    /**
     * One field's rows in blocks of {@code band} columns: aligned when G1 will start its array on a region boundary (the
     * array is at least the humongous threshold) and the array header's size is known, dense otherwise; blocks of a
     * fixed width are always dense. Strides run from the last dimension outward, as the generated prologue computes them.
     */
    private static Rows rows(IrField field, int[] sizes, JClass.RowAlignment alignment, int band, int elementBytes, LongPredicate startsOnLine) {
        int last = sizes.length - 1;
        if (field.isSequence()) {
            // read by its own coordinates (ActorLowering.sequenceIndex), never by rows: one dense block, as given
            int length = 1;
            for (int d = 0; d <= last; d++) {
                length *= field.paddedExtent(d, sizes[d]);
            }
            return new Rows(0, length, 1, length, false, length, 1, length);
        }
        int width = sizes[last] + field.haloLow()[last] + field.haloHigh()[last];
        int outer = 1;
        for (int d = 0; d < last; d++) {
            outer *= sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
        }
        int blocks = Math.max(1, Math.ceilDiv(sizes[last], band));
        int span = blocks == 1 ? width : band + width - sizes[last];
        int pitch = span + Math.floorMod(alignment.skew() - span, alignment.lanes());
        int origin = field.haloLow()[last];
        int stride = pitch;
        for (int d = last - 1; d >= 0; d--) {
            origin += field.haloLow()[d] * stride;
            stride *= sizes[d] + field.haloLow()[d] + field.haloHigh()[d];
        }
        int base = elementBytes == Integer.BYTES ? INT_BASE : LONG_BASE;
        Rows aligned = new Rows(Math.floorMod(-(base / elementBytes) - origin, alignment.lanes()), pitch, outer, width, true, band, blocks, span);
        boolean lineStart = base > 0 && base % elementBytes == 0 && startsOnLine.test((long) aligned.length() * elementBytes);
        boolean denseBlocks = alignment.blockColumns() > 0;
        return lineStart && !denseBlocks ? aligned : new Rows(0, span, outer, width, false, band, blocks, span);
    }

    /** Half of G1's region size: G1 allocates an object at least that large at the start of a region of its own. */
    private static long g1HumongousThreshold() {
        try {
            var vm = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (vm == null || !Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
                return -1;
            }
            return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue()) / 2;
        } catch (RuntimeException | LinkageError unknown) {
            return -1;
        }
    }

    /** The array header size HotSpot reports through {@code sun.misc.Unsafe}'s constants, read reflectively; -1 if absent. */
    private static int baseOffset(String constant) {
        try {
            return Class.forName("sun.misc.Unsafe").getField(constant).getInt(null);
        } catch (ReflectiveOperationException | RuntimeException unknown) {
            return -1;
        }
    }
}
