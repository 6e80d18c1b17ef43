package dev.finegrain.samples;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;

/**
 * Sample 5, seed 003's synchronisation efficiency test (Figure 1): {@code A[i] = A[i-1] + temp(i)} where
 * {@code temp} is {@code work} rounds of a load, a multiply and an add, independent of the chain.
 *
 * <p>What it shows: the {@code iterate} fold, and the knob behind seed 003's break-even metric: the amount of
 * independent work per link (1 to 128) at which a threaded chain starts to beat a single thread.
 *
 * <p>Run it: {@code ./finegrain compare efficiency-loop}.
 */
public final class Sample05EfficiencyLoop {

    public static final String NAME = "efficiency-loop";
    public static final int DEFAULT_WORK = 16;
    public static final double DECAY = 0.5;

    private Sample05EfficiencyLoop() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "n"))
                .param("work", INT)
                .param("decay", DOUBLE)
                .input("b", DOUBLE)
                .state("a", DOUBLE, boundary(constant(0.0)))
                .actor("link", "a", a -> a.read("a", -1).plus(
                        iterate(a.param("work"), constant(0.0), temp -> temp.times(a.param("decay")).plus(a.read("b", 0)))))
                .build();
    }

    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        return inputs(kernel, sizes, seed, DEFAULT_WORK);
    }

    public static Invocation inputs(Kernel kernel, int[] sizes, long seed, int work) {
        double[] b = SampleInputs.uniform(new SplittableRandom(seed), sizes[0], -1.0, 1.0);
        return kernel.invocation().sizes(sizes).param("work", work).param("decay", DECAY).input("b", b).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "Tullsen et al.'s efficiency loop: a serial chain plus 'work' rounds of independent work",
                "Each link adds to its predecessor a value computed independently: work rounds (1 to 128 in Tullsen et al.) of a "
                        + "load, a floating-point multiply and an add. The serial part is one add per link; the parallel "
                        + "part grows with work, which sets the break-even point where synchronising threads pays off.",
                Sample05EfficiencyLoop::inputs, List.of(new int[] {1024}, new int[] {4096}));
    }
}
