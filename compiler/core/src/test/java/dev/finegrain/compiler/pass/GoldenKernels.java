package dev.finegrain.compiler.pass;

import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;

import java.util.Map;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;
import static dev.finegrain.dsl.Finegrain.select;

/** Kernels whose printed IR after each pass is kept as a golden file, one per idea the passes handle. */
public final class GoldenKernels {

    private GoldenKernels() {}

    /** Three reads, one of them implied. */
    public static Kernel needlemanWunsch() {
        return kernel("nw")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT)
                .state("score", INT, boundary(index("i").plus(index("j")).plus(2).times(param("penalty")).negate()))
                .actor("cell", "score", a -> max(
                        a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                        a.read("score", -1, 0).minus(a.param("penalty")),
                        a.read("score", 0, -1).minus(a.param("penalty"))))
                .build();
    }

    /**
     * Two actors per point: 'mix' needs 'carry' at the same point (a zero-distance channel, so carry must fire
     * first although declared second), an explicit private channel, and a read of distance 2 implied by two of 1.
     */
    public static Kernel twoActors() {
        return kernel("two-actors")
                .domain(dim("i", "n"))
                .param("scale", LONG)
                .state("mixed", LONG, boundary(constant(0L)))
                .state("carried", LONG, boundary(index("i").castTo(LONG).times(param("scale"))))
                .actor("mix", "mixed", a -> a.read("carried", 0).plus(a.read("mixed", -2)).plus(a.read("mixed", -1)))
                .actor("carry", "carried", a -> iterate(constant(2), a.read("carried", -1), x -> x.times(param("scale")))
                        .xor(a.index("i").castTo(LONG)))
                .channel("mix", "carry", ChannelPolicy.PRIVATE, 3)
                .channelPolicy("mix", "mixed", ChannelPolicy.PRIVATE, -2)
                .build();
    }

    /** A 3D stencil in doubles with a boundary from a padded input, whose skewed read makes tiling illegal. */
    public static Kernel skewed3d() {
        return kernel("skewed-3d")
                .domain(dim("x", "nx"), dim("y", "ny"), dim("z", "nz"))
                .input("field", DOUBLE, 1)
                .state("u", DOUBLE, boundaryFrom("field"))
                .actor("update", "u", a -> select(a.read("field", 0, 0, 0).greaterThan(constant(0.5)),
                        a.read("u", -1, 1, 0), a.read("u", 0, 0, -1)).times(0.5))
                .build();
    }

    public static Map<String, Kernel> all() {
        return Map.of("nw", needlemanWunsch(), "two-actors", twoActors(), "skewed-3d", skewed3d());
    }

    /** Random inputs and params of every type for a kernel (small positive params, values in [-50, 50)), from a seed. */
    public static dev.finegrain.dsl.Invocation randomInputs(Kernel kernel, int[] sizes, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        dev.finegrain.dsl.Invocation.Builder builder = kernel.invocation().sizes(sizes);
        kernel.params().forEach(p -> builder.param(p.name(), switch (p.type()) {
            case INT -> random.nextInt(1, 5);
            case LONG -> random.nextLong(1, 5);
            case DOUBLE -> random.nextDouble();
            case BOOL -> random.nextBoolean();
        }));
        kernel.fields().stream().filter(f -> f.isInput()).forEach(f -> {
            int length = dev.finegrain.dsl.Invocation.paddedLength(sizes, f.halo());
            builder.input(f.name(), switch (f.type()) {
                case INT, BOOL -> random.ints(length, -50, 50).toArray();
                case LONG -> random.longs(length, -50, 50).toArray();
                case DOUBLE -> random.doubles(length).toArray();
            });
        });
        return builder.build();
    }
}
