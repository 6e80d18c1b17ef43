package com.example.kernels;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.Random;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;

/**
 * A 2D stencil in doubles whose dependences are (1,0) and (0,2): {@code s[i,j] = (s[i-1,j] + s[i,j-2]) / 2 + src[i,j]}.
 * The compiler's wavefront is {@code i + j} (the hyperplane (1,1) orders both dependences). Under lock-dataflow each
 * worker owns a band of columns: the north channel stays inside a band and needs no sync word, while the west one,
 * two columns back, crosses band edges and waits on tokens ({@code finegrain show skewed-stencil --java} prints the
 * awaits).
 */
public final class SkewedStencil {

    public static final String NAME = "skewed-stencil";

    private SkewedStencil() {}

    public static Kernel definition() {
        return kernel(NAME)
                .domain(dim("i", "rows"), dim("j", "cols"))
                .input("src", DOUBLE)
                .state("s", DOUBLE, boundary(constant(0)))
                .actor("relax", "s", a -> a.read("s", -1, 0).plus(a.read("s", 0, -2)).times(0.5).plus(a.read("src", 0, 0)))
                .build();
    }

    public static Invocation inputs(Kernel kernel, int[] sizes, long seed) {
        double[] src = new Random(seed).doubles(sizes[0] * sizes[1], -1, 1).toArray();
        return kernel.invocation().sizes(sizes).input("src", src).build();
    }

    public static LibraryKernel entry() {
        return new LibraryKernel(definition(), "a relaxation with a (0,2) dependence, in doubles",
                "Each point averages its north neighbour and the point two columns west, then adds a source term.",
                SkewedStencil::inputs, List.of(new int[] {64, 64}, new int[] {256, 256}));
    }
}
