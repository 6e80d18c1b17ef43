package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.dsl.WaitPolicy;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanism;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.LockMechanism;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lock-based dataflow as seed 001 §6 maps it: one thread per word of a tile plus its halo (32 x 32 threads for
 * Needleman-Wunsch: a 31 x 31 interior and the boundary row and column), one launch per block-diagonal of tiles.
 * Each thread copies its word of every field into shared memory; halo threads stop there, interior threads wait for
 * their channels' tokens, fire, and publish their own.
 *
 * @param requested             the mechanism asked for
 * @param mechanism             the one the program runs: the requested one, or its warp-shared form
 * @param channels              the channels threads wait on (zero-distance channels are program order)
 * @param blockBarrierAfterCopy whether a block barrier follows the copy-in (every mechanism with token words needs
 *                              one; named barriers only for words read without a channel)
 * @param dataBase              shared byte offset of each field's tile copy, by field id
 * @param sharedBytes           shared memory the block claims, tokens and data
 * @param waitPolicy            how a waiter passes the time ({@link GpuWaits})
 * @param mutex                 how the mechanisms that hold a lock take it ({@link GpuMutexes}): the schedule's, else
 *                              target's default
 * @param mutexChoice           where the mutex came from, for {@code show --gpu-plan}
 */
public record LockDataflowMapping(KernelGraph graph, GpuTarget target, int[] sizes, LockMechanism requested,
                                  GpuMechanism mechanism, TileGeometry tile, List<SyncChannel> channels, TokenLayout tokens,
                                  WaitForm waitForm, boolean blockBarrierAfterCopy, int[] dataBase, int sharedBytes,
                                  Resources resources, WaitPolicy waitPolicy, dev.finegrain.dsl.Mutex mutex,
                                  String mutexChoice)
        implements GpuMapping {

    public LockDataflowMapping {
        channels = List.copyOf(channels);
    }

    @Override
    public int threadsPerBlock() {
        return tile.words();
    }

    @Override
    public List<Integer> blocksPerLaunch() {
        return tile.blocksPerLaunch();
    }

    public int warps() {
        return Math.ceilDiv(tile.words(), GpuTarget.WARP);
    }

    /** The nearest producer warp's distance in warps (what the named barriers of one block must cover). */
    public int minimumWarpDistance() {
        return channels.stream().mapToInt(SyncChannel::warpDistance).min().orElse(1);
    }

    public boolean oneTokenPerWarp() {
        return mechanism.oneTokenPerWarp();
    }

    @Override
    public String launchPlan() {
        return "lock-dataflow with " + requested + (requested != mechanism.id() ? " in its warp-shared form, "
                + mechanism.id() : "") + " (" + (tokens.privateChannels() ? "private" : "shared")
                + " channels, " + (oneTokenPerWarp() ? "one token per warp" : "one token per thread") + "): "
                + tile.describe() + "; blocks of " + threadsPerBlock() + " threads, one thread per word of the tile; "
                + Plural.of(launches(), "launch") + ", one per block-diagonal";
    }

    @Override
    public String describe() {
        StringBuilder text = new StringBuilder();
        text.append("schedule:   lock-dataflow with ").append(mechanism.id())
                .append(requested != mechanism.id() ? " (the warp-shared form of " + requested + ")" : "").append('\n');
        text.append("tiles:      ").append(tile.describe()).append('\n');
        text.append("launches:   ").append(launches()).append(", one per block-diagonal; blocks per launch ")
                .append(blocksPerLaunch().stream().map(String::valueOf).collect(Collectors.joining(" "))).append('\n');
        text.append("ownership:  ").append(threadsPerBlock()).append(" threads per block, one per word of the tile and its halo,"
                + " row-major; halo threads copy and stop\n");
        for (SyncChannel sync : channels) {
            text.append("channel:    ").append(sync.channel().via()).append(' ').append(DependenceMath.format(sync.channel().vector()))
                    .append(": producer ").append(Plural.of(sync.threadDistance(), "thread")).append(" back (").append(Plural.of(sync.warpDistance(), "warp"))
                    .append(")").append(sync.tokenArray() < 0 ? "" : ", token array " + sync.tokenArray()).append('\n');
        }
        text.append("tokens:     ").append(tokens).append(", ").append(tokens.privateChannels() ? "private" : "shared")
                .append(" channels\n");
        text.append("wait:       ").append(waitForm.description()).append('\n');
        if (GpuWaits.naps(waitPolicy)) {
            text.append("waiting:    ").append(GpuWaits.describe(waitPolicy)).append('\n');
        }
        if (mechanism.tokenIsMutex()) {
            text.append("mutex:      ").append(GpuMutexes.describe(mutex)).append(" (").append(mutexChoice).append(")\n");
        }
        text.append("copy-in:    ").append(blockBarrierAfterCopy ? "a block barrier after every thread copied its words"
                : "no block barrier: the named barriers order every word read").append('\n');
        text.append("shared:     ").append(sharedBytes).append(" bytes: tokens ").append(resources.syncSharedBytes())
                .append(", each field's tile copy at ").append(Arrays.toString(dataBase)).append('\n');
        text.append("resources:  lock bits ").append(resources.explicitLockBits()).append(" explicit, ")
                .append(resources.implicitLockBits()).append(" implicit (").append(resources.claimedLockBits())
                .append(" claimed on ").append(target.name()).append("); named barriers ").append(resources.namedBarriers()).append('\n');
        return text.toString();
    }
}
