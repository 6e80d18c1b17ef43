package com.example.bench;

import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;
import java.util.SplittableRandom;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.select;

/**
 * Kernels for the GPU benches that the samples do not cover, as a user's class folder: the longest common subsequence
 * of three sequences ({@code L[i,j,k] = a[i] == b[j] == c[k] ? L[i-1,j-1,k-1] + 1 : max of the three faces}, a channel
 * along every dimension), and a 2D recurrence reading north-east and west (a dependence forward in j, which tiles take
 * only skewed). Compile it beside a checkout ({@code javac -cp 'samples/target/lib/*' -d DIR
 * bench/cuda/kernels/com/example/bench/BenchKernels.java}, then copy {@code META-INF} into DIR) and pass DIR with
 * {@code finegrain --classpath DIR}.
 */
public final class BenchKernels implements KernelLibrary {

    static Kernel lcs3() {
        return kernel("lcs-3")
                .domain(dim("i", "n"), dim("j", "m"), dim("k", "p"))
                .input("a", INT, along("i"))
                .input("b", INT, along("j"))
                .input("c", INT, along("k"))
                .state("L", INT, boundary(constant(0)))
                .actor("cell", "L", x -> select(x.read("a", 0).isEqualTo(x.read("b", 0))
                                .and(x.read("b", 0).isEqualTo(x.read("c", 0))),
                        x.read("L", -1, -1, -1).plus(1),
                        max(x.read("L", -1, 0, 0), x.read("L", 0, -1, 0), x.read("L", 0, 0, -1))))
                .build();
    }

    /** s[i, j] = (s[i-1, j+1] + s[i, j-1]) % 1000 + i: north-east and west, (1,-1) and (0,1). */
    static Kernel northEastWest() {
        return kernel("north-east-west")
                .domain(dim("i", "n"), dim("j", "m"))
                .input("w", INT)
                .state("s", INT, boundary(index("i").minus(index("j"))))
                .actor("cell", "s", x -> x.read("s", -1, 1).plus(x.read("s", 0, -1)).remainder(1000).plus(x.read("w", 0, 0)))
                .build();
    }

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(new LibraryKernel(northEastWest(), "a recurrence reading north-east and west",
                "Each point adds its north-east and west neighbours (mod 1000) and its input: a dependence forward in j,"
                        + " which the wavefront takes along 2i + j and lock-dataflow's tiles take skewed (j + i).",
                (kernel, sizes, seed) -> kernel.invocation().sizes(sizes)
                        .input("w", new SplittableRandom(seed).ints((long) sizes[0] * sizes[1], 0, 100).toArray())
                        .build(), List.of(new int[] {64, 64})),
                new LibraryKernel(lcs3(), "longest common subsequence of three sequences (4 letters)",
                "Each point takes the diagonal predecessor plus one where the three residues agree, else the best of its"
                        + " three faces: a 3D wavefront with a channel along every dimension.",
                (kernel, sizes, seed) -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    return kernel.invocation().sizes(sizes)
                            .input("a", random.ints(sizes[0], 0, 4).toArray())
                            .input("b", random.ints(sizes[1], 0, 4).toArray())
                            .input("c", random.ints(sizes[2], 0, 4).toArray())
                            .build();
                }, List.of(new int[] {16, 16, 16})));
    }
}
