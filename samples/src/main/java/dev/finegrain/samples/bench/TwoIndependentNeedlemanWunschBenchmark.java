package dev.finegrain.samples.bench;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * This machine's ceiling for a two-thread schedule of Needleman-Wunsch whose cells cost what Rodinia's loop body
 * costs: {@link HandWrittenNeedlemanWunschBenchmark} run by two threads at once, each on state of its own
 * ({@code Scope.Thread}: its own matrix), so there is no synchronisation and no shared data to wait for, only two
 * cores sharing one memory system.
 *
 * <p>Read it as: ms/op is one thread's time for a whole 4096 x 4096 matrix while the other thread does the same;
 * cells per second for the pair = 2 x 4096² / (ms/op / 1000). A schedule that splits one matrix over two threads
 * with the same loop body cannot be expected to beat it: it moves the same bytes per cell and adds hand-offs.
 */
@State(Scope.Thread)
@Threads(2)
public class TwoIndependentNeedlemanWunschBenchmark extends HandWrittenNeedlemanWunschBenchmark {
}
