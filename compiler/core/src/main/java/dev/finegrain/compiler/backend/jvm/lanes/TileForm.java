package dev.finegrain.compiler.backend.jvm.lanes;

import dev.finegrain.compiler.backend.jvm.loops.DataParallelLoops;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.plan.DataParallelPlan;

import java.util.Optional;

/**
 * How a data-parallel tile runs its points: the decision, one of six forms, apart from its spelling
 * ({@link DataParallelLoops} emits the chosen form). In order of preference: a row scan where the kernel allows (faster
 * than strips and than scalar tiles, docs/jvm-backend.md): vector after vector in tiles of up to
 * {@link RowScanTiles#MAX_VECTORS} whole vectors ({@link RowScan}), else as a band's rows, the west value carried beside
 * the scan ({@link BandRowScan}); else in strips where they pay ({@link Strips}, {@link #stripsPay}); else lanes across
 * tiles where the kernel allows ({@link LanesAcrossTiles}); else one skewed strip of its own ({@link SkewedStrip}); and
 * with no lanes at all, scalar loops ({@link Scalar}). Each form carries the line {@code show --java} says about it.
 * The chosen lowering declares its locals as it is made, so only it is made.
 */
public sealed interface TileForm {

    /** The line {@code show --java} and the generated class say about the form. */
    String summary();

    /** Whether the tile's columns are stored in blocks (a 2D kernel, every form but a row scan and lanes across tiles). */
    default boolean columnBlocks() {
        return false;
    }

    /** Scalar loops: no lanes. */
    record Scalar(boolean columnBlocks, String summary) implements TileForm {}

    /** Row scans vector after vector, the west value meeting each vector's scan at its end. */
    record RowScan(RowScanTiles scan, String summary) implements TileForm {}

    /** A tile's rows as a band's row scans, the west value carried beside the scan. */
    record BandRowScan(RowScanBands rows, boolean columnBlocks, String summary) implements TileForm {}

    /** Strips of lanes down the tile's rows. */
    record Strips(LaneStrips strips, boolean columnBlocks, String summary) implements TileForm {}

    /** Lanes across tiles: a group of tiles runs one tile per lane, replacing the whole tile nest. */
    record LanesAcrossTiles(TileGroupLanes groups, String summary) implements TileForm {}

    /** One skewed strip of the tile's rows, its loads and stores rotated and transposed whole. */
    record SkewedStrip(TileLanes lanes, boolean columnBlocks, String summary) implements TileForm {}

    /**
     * The form, and the storage it takes: blocks of the tile's columns for every form of a 2D kernel but lanes across
     * tiles (whose group of tiles spans several blocks), bound before the chosen lowering is made; a row scan binds
     * its own and reads its west values from the west block, the others copy them into their block's halo first.
     */
    static TileForm of(LoweringContext cx, DataParallelPlan plan, LaneVectors.Choice lanes) {
        return of(cx, plan, lanes, true);
    }

    /**
     * The form, where {@code acrossTiles} says whether the tiles of a block-diagonal run together (data-parallel), so
     * that lanes across tiles are a choice; dynamic dataflow runs one tile at a time, and its lanes never choose them
     * ({@link #onlyOneTile}).
     */
    static TileForm of(LoweringContext cx, DataParallelPlan plan, LaneVectors.Choice lanes, boolean acrossTiles) {
        int[] tile = plan.tile();
        if (lanes.lanes().isEmpty()) {
            boolean blocks = columnBlocks(cx, tile, 1);
            return new Scalar(blocks, lanes.summary() + blocksSummary(blocks, tile));
        }
        LaneVectors l = lanes.lanes().get();
        Optional<String> notScan = RowScanTiles.against(plan.graph(), l.k, tile);
        if (notScan.isEmpty() && RowScanTiles.fits(tile[1], l.k)) {
            RowScanTiles scan = new RowScanTiles(l, tile[1]);
            return new RowScan(scan, l.lanesSummary() + scan.summary() + "\nStorage: blocks of " + tile[1] + " columns"
                    + " (FINEGRAIN_ROW_BLOCK_COLUMNS), so a tile's rows are one contiguous run; a tile reads the values west"
                    + " of it from the west block's last column.");
        }
        if (notScan.isEmpty()) {
            boolean blocks = columnBlocks(cx, tile, l.k);
            RowScanBands rows = new RowScanBands(l);
            return new BandRowScan(rows, blocks, l.lanesSummary() + rows.summary("a tile's row") + blocksSummary(blocks, tile));
        }
        if (stripsPay(tile, l.k, l.skew)) {
            boolean blocks = columnBlocks(cx, tile, l.k);
            return new Strips(new LaneStrips(l), blocks, lanes.summary() + blocksSummary(blocks, tile));
        }
        Optional<String> notAcross = acrossTiles ? TileGroupLanes.against(plan.graph(), l.k, tile)
                : Optional.of("dynamic dataflow runs one tile at a time");
        if (notAcross.isEmpty()) {
            TileGroupLanes groups = new TileGroupLanes(l, tile[0]);
            return new LanesAcrossTiles(groups, l.lanesSummary() + " No row scan: " + notScan.get() + "." + groups.summary());
        }
        boolean blocks = columnBlocks(cx, tile, l.k);
        return new SkewedStrip(new TileLanes(l), blocks, lanes.summary() + " No lanes across tiles: " + notAcross.get() + "."
                + " A tile is " + tile[1] + " columns wide: one strip of its rows is " + (2 * tile[1] - 1) + " steps, its loads"
                + " and stores rotated and transposed whole." + blocksSummary(blocks, tile));
    }

    /**
     * The form for sizes the tiles do not divide: scalar loops in every tile, those at the high edges cut short (the
     * lanes' forms assume whole tiles), in blocks of the tile's columns where the kernel is 2D (the last block is
     * narrower, as {@code AlignedStorage} lays out a last band).
     */
    public static TileForm cutShort(LoweringContext cx, DataParallelPlan plan, String summary) {
        boolean blocks = columnBlocks(cx, plan.tile(), 1);
        return new Scalar(blocks, summary + blocksSummary(blocks, plan.tile()));
    }

    /**
     * Why tiles that run one at a time take no lanes of k lanes with this skew, or empty when they take some: a row
     * scan, strips where they pay, or one skewed strip of a tile (lanes across tiles need a block-diagonal's tiles).
     */
    static Optional<String> onlyOneTile(DataParallelPlan plan, int k, int skew) {
        int[] tile = plan.tile();
        if (RowScanTiles.against(plan.graph(), k, tile).isEmpty() || stripsPay(tile, k, skew)) {
            return Optional.empty();
        }
        return TileLanes.shapeAgainst(k, skew, tile[0], tile[1]).map(reason -> "dynamic dataflow runs one tile at a time,"
                + " with no lanes across tiles; " + reason);
    }

    /**
     * Tiles at most this many vectors wide run scalar loops rather than skewed strips (where they take no other lanes): a
     * strip's first and last triangles run as scalar points, and its blocks transpose their loads and stores, which
     * narrow tiles do not earn back. Gauss-Seidel (8 double lanes), one thread, strips against scalar tiles: data-parallel:16 61.19
     * against 46.33 ms, :32 54.15 against 41.25, :64 49.63 against 47.85, :128 44.27 against 51.89, :256 36.25 against
     * 54.73 (docs/jvm-backend.md, "Strips in tiles against scalar tiles").
     */
    int STRIP_MIN_VECTORS = 8;

    /**
     * Whether a tile runs in strips: it holds a block and, where the strips are skewed (their triangles run as scalar
     * points), is more than {@link #STRIP_MIN_VECTORS} vectors wide. Unskewed strips have no triangles, and keep every
     * tile that holds a block.
     */
    static boolean stripsPay(int[] tile, int k, int skew) {
        return holdsBlock(tile, k, skew) && (skew == 0 || tile[1] > STRIP_MIN_VECTORS * k);
    }

    /** Whether a tile holds a whole block of a strip of k lanes: k rows by skew * (k - 1) + k columns. */
    static boolean holdsBlock(int[] tile, int k, int skew) {
        return tile[0] >= k && tile[1] >= skew * (k - 1) + k;
    }

    /** Binds blocks of the tile's columns where the kernel is 2D; whether it did. */
    private static boolean columnBlocks(LoweringContext cx, int[] tile, int lanes) {
        if (cx.rank != 2) {
            return false;
        }
        cx.layout.alignRowsInColumnBlocks(lanes, tile[1]);
        return true;
    }

    private static String blocksSummary(boolean blocks, int[] tile) {
        return blocks ? "\nStorage: blocks of " + tile[1] + " columns (FINEGRAIN_ROW_BLOCK_COLUMNS), so a tile's rows are one"
                + " contiguous run; a tile first copies the values west of it from the west block into its halo columns." : "";
    }
}
