package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanism;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.TableSpec;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Lock-dataflow with one persistent launch ({@code lock-dataflow:persistent}): the domain's columns are cut into
 * bands of one warp's width, a lane per column, and each warp walks its band's rows with its lanes one row apart,
 * lane l at row s - l in step s, so that every value a lane reads from its own band was computed by a lane to its
 * left one or more steps earlier and comes by warp shuffle from that lane's last values. Only reads that cross the
 * band's left edge need tokens: the band to the left publishes its edge columns row by row (or per group of rows,
 * with warp-shared granularity) in device memory, and the warp waits for a chunk of 32 rows at a time and copies
 * them into a window in shared memory. The warps stay resident for the whole run, each walking bands w, w + W, ...;
 * band b waits only for band b - 1, so the lowest unfinished band can always move and no band waits forever. The
 * JVM backend's workers own bands the same way.
 *
 * @param requested     the mechanism asked for, which spells the edge tokens
 * @param mechanism     its GPU form
 * @param bands         bands of {@link #bandWidth()} columns; the last may be partial
 * @param laneColumns   columns each lane owns, side by side: 1, or an even number (a wider lane does more work per
 *                      step and per shuffle, and the run has fewer bands, each of which waits for the one to its left)
 * @param warpsPerBlock warps (one band at a time each) per block
 * @param blocks        blocks of the one launch, no more than the machine keeps resident
 * @param reads         the distinct reads of state fields, each with where its value comes from
 * @param history       per state field (by field id), how many of a lane's last values the band's reads reach back
 * @param edge          what crosses a band's left edge and how its tokens are kept
 * @param inputRings    inputs read in the lane's own column: each band's columns of the rows a chunk reads, copied
 *                      into shared memory a chunk ahead while the warp computes (cp.async), so that the lanes, each on
 *                      its own row, read shared memory rather than 32 lines of global memory per step
 * @param outputRings   state fields: each lane leaves its values in shared memory, and the warp writes every row it
 *                      finished in a chunk as whole rows (the edge columns also go straight to global memory, where
 *                      the band to the right reads them)
 * @param profiles      the lookup tables a warp keeps as query profiles for its band's columns ({@link LaneProfile})
 * @param warpSharedBytes the rings and profiles of one warp, in dynamic shared memory
 * @param resources     per block: the rings and the edge window
 * @param folding       the state fields kept in part, which have no array over the domain ({@link BandFolding})
 * @param raggedBand    how the last band runs where it is narrower than the others ({@link RaggedBand})
 * @param firstChunk    how a band runs its first chunk, checked in the chunk loop or peeled and steady ({@link FirstChunk})
 * @param guardedSteps  whether a band's chunks that are not steady take the checked steps or the guarded ones ({@link GuardedSteps})
 * @param oneWarpBecause why a band on a target that takes helper warps ({@link #helpers}) has none ("" where it has
 *                      them, or where the target never takes them)
 */
public record BandMapping(KernelGraph graph, GpuTarget target, int[] sizes, LockMechanism requested, GpuMechanism mechanism,
                          int bands, int laneColumns, int warpsPerBlock, int blocks, List<BandRead> reads, int[] history, BandEdge edge,
                          List<Ring> inputRings, List<Ring> outputRings, List<LaneProfile> profiles, int warpSharedBytes, Resources resources,
                          BandFolding folding, RaggedBand raggedBand, FirstChunk firstChunk, GuardedSteps guardedSteps, String oneWarpBecause)
        implements GpuMapping {

    public BandMapping {
        if (firstChunk.peeled() && !(target.bandHelpers() && oneWarpBecause.isEmpty())) {
            throw new IllegalArgumentException("a first chunk is peeled only in a band with helper warps, whose chunk loop spells it");
        }
        if (guardedSteps.guarded() && raggedBand.checksEachColumn()) {
            throw new IllegalArgumentException("guarded steps compute every column untested: the last band must run as a full one");
        }
        reads = List.copyOf(reads);
        inputRings = List.copyOf(inputRings);
        outputRings = List.copyOf(outputRings);
        profiles = List.copyOf(profiles);
    }

    /** Rows of an input ring: the 63 a chunk's lanes span, plus the reads' reach, plus the next chunk's 32. */
    public static final int INPUT_RING_ROWS = 128;
    /** Rows of an output ring: the 63 rows a chunk's lanes have in flight, rounded up. */
    public static final int OUTPUT_RING_ROWS = 64;
    /**
     * With {@link #helpers}: an input ring holds the 63 rows the next chunk's lanes span, their reach, and the two
     * chunks after it (the one landed and the one being copied); an output ring holds a chunk being written back while
     * the next one is computed.
     */
    public static final int HELPER_INPUT_RING_ROWS = 256;
    public static final int HELPER_OUTPUT_RING_ROWS = 128;
    /** The helper warps of a band ({@link #helpers}): one copies rows in and waits for the edge, one writes rows back. */
    public static final int HELPER_WARPS = 2;
    /** The named barriers the helpers meet warp 0 at: a chunk handed to it (64 threads), a chunk handed back (96). */
    public static final int CHUNK_READY_BARRIER = 1;
    public static final int CHUNK_DONE_BARRIER = 2;

    /**
     * A ring of rows of one field, the band's columns each, in a warp's shared memory; row r sits at r mod rows.
     *
     * @param stride      elements from one row to the next: the band's width, plus one when lanes own several columns,
     *                    so that 32 lanes, each on its own row, hit 32 different banks; for a ring of bytes, the band's
     *                    width plus a word ({@link #byteRingStride})
     * @param offsetBytes where it starts in the warp's part of dynamic shared memory
     * @param lowestRowBack the smallest row offset back the reads take (negative for rows below), for inputs
     * @param highestRowBack the largest
     * @param elementBytes the bytes of one element: the field's in device memory ({@link DeviceStorage})
     */
    public record Ring(IrField field, int rows, int stride, int offsetBytes, int lowestRowBack, int highestRowBack, int elementBytes) {
        public int bytes() {
            return rows * stride * elementBytes;
        }

        /**
         * Whether the ring holds a byte input as bytes. A copy to shared memory moves 4, 8 or 16 aligned bytes, and a
         * band's first column lies anywhere in a word of a padded row, so the warp copies each row's band in whole words
         * from the word holding its first column, and column e of row r sits at its {@link ByteShift} plus e.
         */
        public boolean packsBytes() {
            return elementBytes == 1;
        }
    }

    /**
     * Bytes per row of a byte ring: the band's width and the word its first column may be shifted into, and one word
     * more where that keeps the lanes, each on its own row, off one bank. Lane l reads byte {@code l * laneColumns} of
     * row s - l, so with 4 or more columns the step from lane to lane is {@code laneColumns / 4} words less a row's words,
     * which must be odd for 32 lanes to meet 32 banks (4 columns in 33 words would put all 32 on one); with one column
     * four lanes share a word and 10 words a row leave at most two lanes on a bank where 9 leave three. Over every
     * row shift, this is the least worst-case conflict of the strides up to 8 words longer.
     */
    public static int byteRingStride(int laneColumns) {
        int words = GpuTarget.WARP * laneColumns / 4 + 1;
        if (laneColumns == 1 || (laneColumns >= 4 && (laneColumns / 4 - words) % 2 == 0)) {
            words++;
        }
        return 4 * words;
    }

    /**
     * Where, in its word, the first column of a band's row r lies in a byte field's padded array: {@code (r * step +
     * constant) & 3}. The padded index of (r, band * width) is {@code (r + haloRows) * extent + band * width +
     * haloColumns}, and the band's width is a multiple of 4, so only the row decides the place, through the extent mod 4.
     *
     * @param step     the extent mod 4
     * @param constant what the halos add, mod 4
     */
    public record ByteShift(int step, int constant) {

        public static ByteShift of(int haloRows, long extent, int haloColumns) {
            int step = (int) (extent & 3);
            return new ByteShift(step, (haloRows * step + haloColumns) & 3);
        }

        /** The place of row {@code row} (any int, negative rows of the halo included). */
        public int at(int row) {
            return (row * step + constant) & 3;
        }

        /** The same as an expression of {@code row}, with the same coefficients. */
        public String spell(String row) {
            if (step == 0) {
                return String.valueOf(constant);
            }
            return "((" + row + ")" + (step == 1 ? "" : " * " + step) + (constant == 0 ? "" : " + " + constant) + ") & 3";
        }
    }

    /** Columns in a band: a warp's lanes, each with its {@link #laneColumns}. */
    public int bandWidth() {
        return GpuTarget.WARP * laneColumns;
    }

    /** The schedule as the command line spells it, with the columns per lane where they are more than one. */
    String scheduleName() {
        return "lock-dataflow:persistent" + (laneColumns > 1 ? ":columns=" + laneColumns : "");
    }

    /** Elements per row of a ring: see {@link Ring#stride}. */
    public static int ringStride(int laneColumns) {
        return GpuTarget.WARP * laneColumns + (laneColumns > 1 ? 1 : 0);
    }

    /**
     * Lookup tables of at most this many bytes in all are copied into every block's shared memory before its bands run:
     * a band's cell reads its table element on the chain of its steps, and from shared memory that chain is shorter
     * (needleman-wunsch-seq at 16384^2 on an H200: 7.12 ms staged against 8.18 ms through the read-only cache).
     */
    public static final int STAGED_TABLE_BYTES = 16 * 1024;

    /** The bytes of shared memory a block's staged tables take: all the kernel's tables, when they fit {@link #STAGED_TABLE_BYTES}; else 0. */
    public static int stagedTableBytes(KernelGraph graph) {
        int bytes = graph.kernel().tables().stream().mapToInt(t -> t.length() * GpuTarget.elementBytes(t.type())).sum();
        return bytes <= STAGED_TABLE_BYTES ? bytes : 0;
    }

    /** Whether each block stages the kernel's lookup tables in shared memory ({@link #stagedTableBytes}). */
    public boolean stagesTables() {
        return stagedTableBytes(graph) > 0;
    }

    /**
     * The sequence inputs that hold one value per lane for a band's whole run, those spanning the columns alone: a lane
     * reads each once, before its first step, instead of in every step (6.66 against 7.12 ms in the run above).
     */
    public List<IrField> laneSequences() {
        return laneSequences(graph);
    }

    public static List<IrField> laneSequences(KernelGraph graph) {
        return sequencesAlongOnly(graph, 1);
    }

    /**
     * The sequence inputs along the rows, which every step reads a step ahead: a sequence is read at the point's own
     * index (it has no halo), so each step loads the value for the lane's next row into a register for the step after
     * it, and the load's latency passes under a step instead of stalling the step that uses it (needleman-wunsch-seq
     * 65536² on an H200: 9.95 against 10.66 ms with eight columns a lane, 11.75 against 13.00 with four, when only the
     * steady steps did so). A checked step (a band's first and last chunks) loads at its rows clamped into the domain;
     * a band's first chunk lies on the chain every band to its right waits along, and loading ahead there too ran 8.11
     * against 8.39 ms with eight columns, 8.89 against 9.90 with four, smith-waterman-seq 11.50 against 12.10 with four.
     */
    public List<IrField> rowSequences() {
        return rowSequences(graph);
    }

    public static List<IrField> rowSequences(KernelGraph graph) {
        return sequencesAlongOnly(graph, 0);
    }

    /** The sequence inputs of a 2D kernel that span dimension {@code d} and not the other. */
    private static List<IrField> sequencesAlongOnly(KernelGraph graph, int d) {
        return graph.fields().stream().filter(f -> f.isSequence() && f.spans()[d] && !f.spans()[1 - d]).toList();
    }

    /** Where a folded field's kept values go, chunk by chunk and step by step ({@link BandKeptValues}). */
    public BandKeptValues kept() {
        return new BandKeptValues(this);
    }

    /**
     * The bands that may take the steady steps: every band, or, where the last band is narrower and checked in every
     * chunk ({@link RaggedBand}), the full ones before it.
     */
    public int steadyBands() {
        return raggedBand().runsAsFull() ? bands : columns() / bandWidth();
    }

    /**
     * The profiled lookups whose other index is the same in all of a lane's columns (a sequence along the rows), which
     * every cell evaluates, in the actors' order: a step checks each index once, before its columns.
     */
    public List<dev.finegrain.compiler.ir.IrExpr.Lookup> rowLookups() {
        return rowLookups(graph, profiles);
    }

    static List<dev.finegrain.compiler.ir.IrExpr.Lookup> rowLookups(KernelGraph graph, List<LaneProfile> profiles) {
        List<dev.finegrain.compiler.ir.IrExpr.Lookup> lookups = new java.util.ArrayList<>();
        for (var actor : graph.actors()) {
            for (var lookup : LaneProfile.unconditionalLookups(actor.body())) {
                LaneProfile.of(profiles, graph, laneSequences(graph), lookup)
                        .filter(profile -> LaneProfile.columnInvariant(graph, lookup.indices().get(profile.otherAxis())))
                        .ifPresent(profile -> lookups.add(lookup));
            }
        }
        return lookups;
    }

    /**
     * Whether some {@link #rowLookups row lookup}'s index reads the row index itself: a checked step then computes that
     * index at its row clamped into the domain. The other reads such an index may make are constants, params, sizes and
     * {@link #rowSequences sequences along the rows}, which a step holds already, loaded at the clamped row.
     */
    public boolean rowLookupsReadTheRow() {
        return rowLookups().stream().anyMatch(lookup -> readsTheRow(lookup.indices().get(
                LaneProfile.of(profiles, graph, laneSequences(), lookup).orElseThrow().otherAxis())));
    }

    static boolean readsTheRow(dev.finegrain.compiler.ir.IrExpr expr) {
        return expr instanceof dev.finegrain.compiler.ir.IrExpr.IndexVar v ? v.dimension() == 0
                : dev.finegrain.compiler.ir.Subexpressions.of(expr).stream().anyMatch(BandMapping::readsTheRow);
    }

    /** Whether an input read comes from its ring rather than from global memory. */
    public boolean staged(IrField field) {
        return inputRings.stream().anyMatch(ring -> ring.field().equals(field));
    }

    public int dynamicSharedBytes() {
        return warpsPerBlock * warpSharedBytes;
    }

    /**
     * A read of a state field {@code rowsBack} rows and {@code columnsBack} columns behind the point: in the band it is
     * the value lane l - columnsBack computed {@code rowsBack + columnsBack} steps earlier; lanes left of
     * {@code columnsBack} take it from the edge window; before row 0 or column 0 it is the boundary, in the field's halo.
     */
    public record BandRead(IrField field, int rowsBack, int columnsBack) {
        /** How many steps back the producing lane computed it. */
        public int stepsBack() {
            return rowsBack + columnsBack;
        }

        public boolean samePoint() {
            return rowsBack == 0 && columnsBack == 0;
        }
    }

    /**
     * The band edge: the last {@code columns} columns of the band to the left, of every field in {@code fields}, as the
     * reads reach them, for rows up to {@code rowsBack} before a lane's own.
     *
     * @param readyWords  tiny-lock's form: each edge value is a 64-bit word of its own in device memory with a ready
     *                    bit beside it, so the value is its token; otherwise a token word per group of rows
     * @param groupRows   rows one token covers: 1 per thread, the group size with warp-shared granularity
     * @param ringRows    0: the edge holds every row; else the rows it holds at once, a ring in which row r lies at
     *                    r mod ringRows ({@link #ring()})
     * @param tokenBytes  the device memory the tokens (or ready words), and a ring's free counters, take after the
     *                    run's first 256 bytes
     */
    public record BandEdge(List<IrField> fields, int columns, int rowsBack, boolean readyWords, int groupRows, int ringRows,
                           long tokenBytes) {
        public BandEdge {
            fields = List.copyOf(fields);
        }

        /** The edge of {@code bands} bands over {@code rows} rows, its device memory counted from its shape. */
        public static BandEdge of(List<IrField> fields, int columns, int rowsBack, boolean readyWords, int groupRows, int ringRows,
                                  int rows, int bands) {
            int held = ringRows > 0 ? ringRows : rows;
            long tokenBytes = columns == 0 ? 0 : (readyWords ? 8L * fields.size() * bands * columns * held
                    : 4L * bands * Math.ceilDiv(held, groupRows)) + (ringRows > 0 ? freeCounterBytes(bands) : 0);
            return new BandEdge(fields, columns, rowsBack, readyWords, groupRows, ringRows, tokenBytes);
        }

        public boolean crossed() {
            return columns > 0;
        }

        /**
         * Whether the edge is a ring: its values and tokens for a row lie at the row mod {@link #ringRows}, each tagged
         * with its lap (row / ringRows + 1), and a band writes a row only once the band to its right has copied the row
         * a lap before it, which that band says in its free counter (the rows it will not read again).
         */
        public boolean ring() {
            return ringRows > 0;
        }

        /** Rows of the shared-memory window that one chunk of 32 steps reads. */
        public int windowRows() {
            return GpuTarget.WARP + columns - 1 + rowsBack;
        }

        /** The bytes of one window: each edge field's columns of its rows (none where no read crosses the edge). */
        public int windowBytes() {
            return crossed() ? fields.stream().mapToInt(field -> columns * windowRows() * GpuTarget.elementBytes(field.type())).sum() : 0;
        }

        /**
         * Rows a chunk's window shares with the last chunk's (the rows above the chunk's first step), which a warp keeps
         * from that window instead of loading them again, where one lane holds each of them over the copy: then each lane
         * loads one row of a one-column edge, where lane 0 would load two one after the other (needleman-wunsch-seq
         * 65536², four columns a lane, on an H200: 15.23 against 16.10 ms). 0 where every chunk loads its whole window.
         */
        public int carriedRows() {
            int shared = windowRows() - GpuTarget.WARP;
            return shared > 0 && columns * shared <= GpuTarget.WARP ? shared : 0;
        }

        /** Rows above a chunk's first step where its window starts: the window's first row is base - lookbackRows. */
        public int lookbackRows() {
            return columns - 1 + rowsBack;
        }

        /** Rows of edge values a band holds: every row, or a ring's. */
        public int heldRows(int rows) {
            return ring() ? ringRows : rows;
        }

        public int tokensPerBand(int rows) {
            return Math.ceilDiv(heldRows(rows), groupRows);
        }
    }

    /** Where the edge tokens start in the run's scratch memory: after the error word and the barrier counters. */
    public static final int TOKEN_BASE_BYTES = 256;

    public int rows() {
        return sizes[0];
    }

    public int columns() {
        return sizes[1];
    }

    /** Steps a warp takes per band: one per row, plus the lanes' stagger. */
    public int stepsPerBand() {
        return rows() + GpuTarget.WARP - 1;
    }

    /**
     * Whether each band's warp, alone in its block, takes two helper warps ({@link #HELPER_WARPS}): the target takes
     * them and nothing kept this band from them. Warp 1 copies the input rows two chunks ahead of the steps and waits for
     * the left band's edge into a second window, warp 2 writes the finished rows back a chunk behind, and warp 0 only
     * steps. A warp alone on its scheduler spent two thirds of each chunk copying rows, writing them back and waiting for
     * its window; on an H200 the helpers ran needleman-wunsch 1.66 to 1.71 times as fast at 4096^2 to 16384^2.
     */
    public boolean helpers() {
        return target.bandHelpers() && oneWarpBecause.isEmpty();
    }

    @Override
    public int threadsPerBlock() {
        return threadsPerBlock(helpers(), warpsPerBlock);
    }

    /** Edge windows a band keeps: with helpers, the chunk being stepped and the next one being filled. */
    public static int windowsPerBand(boolean helpers) {
        return helpers ? 2 : 1;
    }

    /** A block's threads: a band's warp and its helpers, or the bands' warps. */
    public static int threadsPerBlock(boolean helpers, int warpsPerBlock) {
        return (helpers ? 1 + HELPER_WARPS : warpsPerBlock) * GpuTarget.WARP;
    }

    /** The persistent launch, then, when reductions of folded fields stream, one warp that combines the bands' partials. */
    @Override
    public List<Integer> blocksPerLaunch() {
        return folding.reductions().isEmpty() ? List.of(blocks) : List.of(blocks, 1);
    }

    /** Where the folded fields' parts start in scratch memory: after the edge tokens. */
    public long foldingBase() {
        return TOKEN_BASE_BYTES + edge.tokenBytes();
    }

    /** A ring's free counters in scratch memory, after the token words: per band, the rows it will not read again. */
    public long freeCountersAt() {
        return TOKEN_BASE_BYTES + edge.tokenBytes() - freeCounterBytes(bands);
    }

    /** The bytes of a ring's free counters: an int per band, rounded up to 16. */
    public static long freeCounterBytes(int bands) {
        return (4L * bands + 15) / 16 * 16;
    }

    @Override
    public long scratchBytes() {
        return foldingBase() + folding.bytes();
    }

    @Override
    public String launchPlan() {
        return scheduleName() + " with " + requested + ": " + bands + " bands of " + bandWidth() + " columns, a warp"
                + " each, lanes one row apart" + (helpers() ? ", with 2 helper warps that move its rows and wait for its edge" : "") + "; " + (edge.crossed() ? (edge.readyWords() ? "a ready word per edge value"
                : "a token per " + (edge.groupRows() == 1 ? "row" : edge.groupRows() + " rows")) + " on each band edge"
                : "no channel crosses a band edge") + "; 1 launch of " + blocks + " resident blocks of " + threadsPerBlock()
                + " threads" + (folding.reductions().isEmpty() ? "" : ", then 1 launch of 1 block combining the bands' reductions");
    }

    @Override
    public String describe() {
        return BandPlanText.describe(this);
    }
}
