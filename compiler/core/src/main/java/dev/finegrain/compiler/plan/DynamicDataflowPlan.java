package dev.finegrain.compiler.plan;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.ReadyQueue;
import dev.finegrain.dsl.Schedule;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Dynamic dataflow over the tiles of {@code tiles}: a tile runs its points in lexicographic order on one worker, as in
 * data-parallel, but instead of a barrier between block-diagonals each tile waits for its neighbours one step below it
 * along any nonempty set of dimensions (tile t waits for t - s, s in {0,1}^rank without 0). By induction every tile
 * below t in each coordinate has finished before t starts, which is what any dependence a legal tiling allows (no
 * component positive) needs, however far it reaches. At run time each tile keeps a join counter of the neighbours it
 * still waits for, and the ones a finishing tile brings to zero go into the ready structure: the one the schedule
 * names ({@code named}), or else the target's default ({@link #readyOr}).
 */
public record DynamicDataflowPlan(DataParallelPlan tiles, java.util.Optional<ReadyQueue> named) implements ExecutionPlan {

    /** The ready structure on a target whose default is {@code targetDefault}: the one named, or that default. */
    public ReadyQueue readyOr(ReadyQueue targetDefault) {
        return named.orElse(targetDefault);
    }

    @Override
    public KernelGraph graph() {
        return tiles.graph();
    }

    @Override
    public Schedule schedule() {
        return new Schedule.DynamicDataflow(Arrays.stream(tiles.tile()).boxed().toList(), named);
    }

    /** The tile extents, one per dimension. */
    public int[] tile() {
        return tiles.tile();
    }

    @Override
    public String describe() {
        return "dynamic dataflow over " + Arrays.stream(tiles.tile()).mapToObj(String::valueOf).collect(Collectors.joining("x"))
                + " tiles: a tile runs its points in lexicographic order once its neighbours below it have run\n"
                + "  sync: a join counter per tile; tiles that become ready wait in "
                + named.map(q -> "a " + q.cliName() + " structure").orElse("the target's default ready structure") + "\n";
    }

    @Override
    public TaskGraph materialize(int[] sizes) {
        Domain domain = new Domain(sizes);
        Domain grid = tiles.tileGrid(sizes);
        int rank = sizes.length;
        TaskGraphBuilder tasks = new TaskGraphBuilder(grid.points(), (long) domain.points() * graph().actors().size(),
                graph().actorOrder());
        int[] tile = new int[rank];
        int[] below = new int[rank];
        for (int t = 0; t < grid.points(); t++) {
            grid.coordinates(t, tile);
            // the tasks go in lexicographic order, so every neighbour below is an earlier task
            java.util.List<Integer> waits = new java.util.ArrayList<>();
            for (int step = 1; step < 1 << rank; step++) {
                boolean inGrid = true;
                for (int d = 0; d < rank; d++) {
                    below[d] = tile[d] - (step >> d & 1);
                    inGrid &= below[d] >= 0;
                }
                if (inGrid) {
                    waits.add(grid.linear(below));
                }
            }
            tasks.addPointsTask(0, tiles.tilePoints(domain, tile), waits.stream().mapToInt(Integer::intValue).toArray());
        }
        return tasks.build();
    }
}
