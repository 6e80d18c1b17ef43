package com.example.kernels;

import dev.finegrain.compiler.api.CompiledKernel;
import dev.finegrain.compiler.api.KernelResult;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;

import static dev.finegrain.dsl.Finegrain.lockDataflow;

/**
 * Runs the edit-distance kernel from Java, on the class the Finegrain Maven plugin compiled ahead of time into
 * {@code com.example.finegrain}, and reads the alignment back from the traceback field.
 */
public final class Align {

    private Align() {}

    /** The edit distance of the two strings behind {@code invocation} and the moves from the corner back to the start. */
    public static String align(Invocation invocation) {
        Kernel kernel = invocation.kernel();
        CompiledKernel compiled = CompiledKernel.load(kernel, lockDataflow(), "com.example.finegrain");
        KernelResult result = compiled.run(invocation);
        int rows = invocation.size(0);
        int cols = invocation.size(1);
        int[] dist = result.ints("dist");
        int[] move = result.ints("move");
        StringBuilder path = new StringBuilder();
        int i = rows - 1;
        int j = cols - 1;
        while (i >= 0 && j >= 0) {
            int step = move[i * cols + j];
            path.append("DNW".charAt(step));
            i -= step == 2 ? 0 : 1;
            j -= step == 1 ? 0 : 1;
        }
        return "distance " + dist[rows * cols - 1] + " on " + compiled.className() + ", moves from the corner: " + path;
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        Kernel kernel = EditDistance.definition();
        System.out.println(align(EditDistance.inputs(kernel, new int[] {size, size}, 42)));
    }
}
