package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.Diagnostics;
import dev.finegrain.dsl.Schedule;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Rodinia's data-parallel structure: the domain is cut into tiles of {@code tile} extents; a tile runs its points
 * in lexicographic order on one worker; the tiles of one block-diagonal (equal sum of tile coordinates) run in
 * any order; the only sync is a barrier between consecutive block-diagonals. Needs a legal tiling (no negative
 * dependence component). At a size the tile extents do not divide, the tiles at the high edges are cut short
 * ({@link #materialize}, as the GPU targets cut them); a backend that needs whole tiles checks the sizes first
 * ({@link #checkSizes}).
 */
public record DataParallelPlan(KernelGraph graph, int[] tile) implements ExecutionPlan {

    @Override
    public Schedule schedule() {
        return new Schedule.DataParallel(Arrays.stream(tile).boxed().toList());
    }

    @Override
    public String describe() {
        return "data-parallel with " + Arrays.stream(tile).mapToObj(String::valueOf).collect(Collectors.joining("x"))
                + " tiles: a tile runs its points in lexicographic order; the tiles of one block-diagonal in any order\n"
                + "  sync: a barrier between consecutive block-diagonals\n";
    }

    /** The tiles of a tiled plan (data-parallel's own, dynamic dataflow's), or empty for a plan without tiles. */
    public static java.util.Optional<DataParallelPlan> tilesOf(ExecutionPlan plan) {
        return switch (plan) {
            case DataParallelPlan tiles -> java.util.Optional.of(tiles);
            case DynamicDataflowPlan dynamic -> java.util.Optional.of(dynamic.tiles());
            default -> java.util.Optional.empty();
        };
    }

    /** Which extent of {@code sizes} the tile does not divide, in words ("rows = 30 is not a multiple of 16"), if any. */
    public java.util.Optional<String> tileMisfit(int[] sizes) {
        int d = firstUndivided(sizes);
        return d < 0 ? java.util.Optional.empty()
                : java.util.Optional.of(graph.kernel().domain().get(d).size() + " = " + sizes[d] + " is not a multiple of " + tile[d]);
    }

    /** Rejects sizes the tile extents do not divide. */
    public void checkSizes(int[] sizes) {
        int d = firstUndivided(sizes);
        if (d >= 0) {
            throw Diagnostics.tileDoesNotDivide(graph.name(), tile[d], graph.kernel().domain().get(d).size(), sizes[d],
                    graph.kernel().site());
        }
    }

    private int firstUndivided(int[] sizes) {
        for (int d = 0; d < sizes.length; d++) {
            if (sizes[d] % tile[d] != 0) {
                return d;
            }
        }
        return -1;
    }

    /** The grid of tiles at {@code sizes} (row-major, the last dimension fastest), a short tile at each high edge. */
    Domain tileGrid(int[] sizes) {
        int[] tilesPerDimension = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            tilesPerDimension[d] = Math.ceilDiv(sizes[d], tile[d]);
        }
        return new Domain(tilesPerDimension);
    }

    /**
     * The linear indexes of the points of the tile at {@code tileCoordinates}, in lexicographic order: the tile's
     * extents, cut short where they pass the domain's high edge.
     */
    int[] tilePoints(Domain domain, int[] tileCoordinates) {
        int[] extents = new int[tile.length];
        for (int d = 0; d < tile.length; d++) {
            extents[d] = Math.min(tile[d], domain.sizes()[d] - tileCoordinates[d] * tile[d]);
        }
        Domain inside = new Domain(extents);
        int[] offset = new int[tile.length];
        int[] point = new int[tile.length];
        int[] points = new int[inside.points()];
        for (int q = 0; q < inside.points(); q++) {
            inside.coordinates(q, offset);
            for (int d = 0; d < tile.length; d++) {
                point[d] = tileCoordinates[d] * tile[d] + offset[d];
            }
            points[q] = domain.linear(point);
        }
        return points;
    }

    @Override
    public TaskGraph materialize(int[] sizes) {
        Domain domain = new Domain(sizes);
        Domain tiles = tileGrid(sizes);
        int diagonals = Arrays.stream(tiles.sizes()).map(n -> n - 1).sum() + 1;
        TaskGraphBuilder tasks = new TaskGraphBuilder(tiles.points(), (long) domain.points() * graph.actors().size(), graph.actorOrder());
        int[] tileCoordinates = new int[sizes.length];
        for (int diagonal = 0; diagonal < diagonals; diagonal++) {
            for (int t = 0; t < tiles.points(); t++) {
                tiles.coordinates(t, tileCoordinates);
                if (Arrays.stream(tileCoordinates).sum() == diagonal) {
                    tasks.addPointsTask(diagonal, tilePoints(domain, tileCoordinates));
                }
            }
        }
        return tasks.build();
    }
}
