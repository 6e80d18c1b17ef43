package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrChannel;

/**
 * A channel a lock-dataflow thread waits on, placed in the mapping.
 *
 * @param channel        the IR's channel
 * @param threadDistance how many threads of the block lie between a consumer and its producer
 * @param tokenArray     which token array holds the producer's token (-1 when the mechanism keeps none)
 * @param producerField  the field the producer writes, whose tile copy the consumer reads
 */
public record SyncChannel(IrChannel channel, int threadDistance, int tokenArray, int producerField) {

    /** How many warps back the producer's warp lies. */
    public int warpDistance() {
        return threadDistance / GpuTarget.WARP;
    }
}
