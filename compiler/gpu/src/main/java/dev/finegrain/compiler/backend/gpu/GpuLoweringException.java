package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.UnsupportedCombinationException;

/**
 * A kernel, schedule or mechanism that the GPU model cannot run, or a variant that does not fit the modelled GPU
 * (lock bits, named barriers, threads, shared memory). The message names the limit and what to change.
 */
public final class GpuLoweringException extends UnsupportedCombinationException {
    public GpuLoweringException(String message) {
        super(message);
    }
}
