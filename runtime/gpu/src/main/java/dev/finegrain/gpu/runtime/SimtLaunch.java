package dev.finegrain.gpu.runtime;

/**
 * The shape of one kernel launch, already checked: grid and block size, the shared memory and lock bits each block
 * claims for occupancy, the size of global memory, and the two limits that keep a run from hanging.
 */
public record SimtLaunch(int blocks, int threadsPerBlock, int sharedBytesPerBlock, int lockBitsPerBlock,
                         int globalBytes, long maxCycles, long watchdogCycles) {
}
