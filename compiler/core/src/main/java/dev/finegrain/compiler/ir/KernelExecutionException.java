package dev.finegrain.compiler.ir;

/** A kernel that fails on its inputs at run time (e.g. an integer division by zero), named with actor and point. */
public final class KernelExecutionException extends RuntimeException {

    public KernelExecutionException(String message) {
        super(message);
    }
}
