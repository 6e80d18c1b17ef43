package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanism;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanisms;
import dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.LockMechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Maps a lock-dataflow plan onto a GPU as seed 001 §6 does (one thread per word of a tile, one launch per
 * block-diagonal; in 3D the tile is planes of such rows, and a block-diagonal is I + J + K = d), choosing the tile, the token layout, the wait form and the shared memory, and checking them
 * against the machine; throws {@link GpuLoweringException} with the reason when the mechanism or the kernel does not fit.
 */
final class MapLockDataflow {

    private static final int WARP = GpuTarget.WARP;

    private final KernelGraph graph;
    private final GpuTarget target;
    private final int[] sizes;
    private final TileSkew skew;
    private final CommonHalo halo;
    private final LockMechanism requested;
    private final GpuMechanism mechanism;
    private final List<IrChannel> waits;
    private final boolean privateChannels;
    private final TokenStorage storage;
    private final LockChoices choices;

    private MapLockDataflow(KernelGraph graph, DataflowPlan plan, LockMechanism requested, GpuTarget target, int[] sizes) {
        this.graph = graph;
        this.target = target;
        this.sizes = sizes.clone();
        // a 2D dependence forward in j is ordered by skewed tiles; GpuMapper refuses a kernel no skew orders
        this.skew = TileSkew.of(graph).orElse(TileSkew.NONE);
        this.halo = skew.halo(graph);
        this.requested = requested;
        this.choices = plan.lockChoices();
        this.mechanism = effectiveMechanism(choices, requested);
        this.waits = GpuMapper.tokenWaits(plan);
        this.privateChannels = choices.channelPolicy() == ChannelPolicy.PRIVATE;
        TokenStorage asked = mechanism.storage(choices.channelPolicy(), target);
        // a ready bit beside a 32-bit value fills a 64-bit word; a long or double leaves it no room, so its token is a
        // ready word of its own (released after the value, acquired before it is read)
        boolean wideState = graph.fields().stream().anyMatch(field -> field.isState() && GpuTarget.elementBytes(field.type()) > 4);
        this.storage = asked == TokenStorage.READY_BIT_BESIDE_VALUE && wideState ? TokenStorage.TOKEN_WORD : asked;
    }

    static LockDataflowMapping map(KernelGraph graph, DataflowPlan plan, LockMechanism requested, GpuTarget target,
                                   int[] sizes) {
        return new MapLockDataflow(graph, plan, requested, target, sizes).map();
    }

    /**
     * Why no size of the kernel can be mapped with this mechanism on this machine, if none can: the checks that do
     * not depend on the sizes (the machine's features, warp-shared granularity, which warps the channels link).
     */
    static Optional<String> unsupported(KernelGraph graph, DataflowPlan plan, LockMechanism requested, GpuTarget target) {
        try {
            MapLockDataflow mapper = new MapLockDataflow(graph, plan, requested, target, new int[graph.rank()]);
            mapper.checkMechanism();
            // in 2D and 3D the tile's shape does not depend on the sizes (in 1D its width does, and a channel's distance not)
            TileGeometry tile = graph.rank() > 1 ? mapper.chooseTile(mapper.tokenArrays()) : null;
            mapper.checkWarpDistances(mapper.waits.stream().map(c -> new SyncChannel(c,
                    tile == null ? c.vector()[0] : threadDistance(tile, c), -1, -1)).toList());
            return Optional.empty();
        } catch (GpuLoweringException reason) {
            return Optional.of(reason.getMessage());
        }
    }

    /** The mechanism the program runs for this kernel: the requested one or its warp-shared form. */
    static LockMechanism effectiveMechanism(DataflowPlan plan, LockMechanism requested) {
        return effectiveMechanism(plan.lockChoices(), requested).id();
    }

    /**
     * Warp-shared granularity (seed 001 §4.5) turns a per-thread lock into its one-token-per-warp form: the tiny-lock
     * becomes the warp-shared lock bit of Listing 9 (warp vote), the atomic spin-lock the warp's shared spin-lock.
     */
    private static GpuMechanism effectiveMechanism(LockChoices choices, LockMechanism requested) {
        GpuMechanism asked = GpuMechanisms.of(requested).orElseThrow(() ->
                new GpuLoweringException(GpuMechanisms.whyNoGpuForm(requested)));
        if (!choices.warpShared()) {
            return asked;
        }
        return asked.warpSharedForm().flatMap(GpuMechanisms::of).orElse(asked);
    }

    private LockDataflowMapping map() {
        checkMechanism();
        int arrays = tokenArrays();
        TileGeometry tile = chooseTile(arrays);
        List<SyncChannel> channels = new ArrayList<>();
        for (int c = 0; c < waits.size(); c++) {
            IrChannel channel = waits.get(c);
            channels.add(new SyncChannel(channel, threadDistance(tile, channel), tokenArray(c, channel),
                    graph.actor(channel.producer()).writes()));
        }
        checkWarpDistances(channels);
        int warps = Math.ceilDiv(tile.words(), WARP);
        int wordsPerArray = mechanism.oneTokenPerWarp() ? warps : tile.words();
        int[] tokenBase = new int[storage == TokenStorage.TOKEN_WORD ? arrays : 0];
        int next = 0;
        for (int a = 0; a < tokenBase.length; a++) {
            tokenBase[a] = next;
            next += mechanism.tokenWordBytes(target) * wordsPerArray;
        }
        int syncBytes = next;
        int[] dataBase = new int[graph.fields().size()];
        for (IrField field : stateFields()) {
            // a ready bit beside the value makes every state word 64 bits
            int bytes = storage == TokenStorage.READY_BIT_BESIDE_VALUE ? 8 : GpuTarget.elementBytes(field.type());
            next = Math.ceilDiv(next, bytes) * bytes;
            dataBase[field.id()] = next;
            next += bytes * tile.words();
        }
        for (IrField field : graph.fields()) {
            if (field.isInput() && GlobalReads.staged(field)) {
                int bytes = GpuTarget.elementBytes(field.type());
                next = Math.ceilDiv(next, bytes) * bytes;
                dataBase[field.id()] = next;
                next += bytes * tile.words();
            }
        }
        int sharedBytes = next;
        TokenLayout tokens = new TokenLayout(storage, privateChannels, arrays, wordsPerArray, tokenBase);
        int tokenWords = tokens.words();
        boolean claims = mechanism.claimsLockBit(target);
        int explicitBits = claims && !mechanism.tokenIsMutex() ? tokenWords : 0;
        int implicitBits = mechanism.tokenIsMutex() ? tokenWords : 0;
        int claimedBits = explicitBits + (claims && mechanism.tokenIsMutex() ? implicitBits : 0);
        int minimumWarpDistance = channels.stream().mapToInt(SyncChannel::warpDistance).min().orElse(1);
        GpuMapping.Resources resources = new GpuMapping.Resources(syncBytes, sharedBytes - syncBytes, explicitBits,
                implicitBits, claimedBits, mechanism.namedBarriers(warps, minimumWarpDistance));
        StaticChecks.check(graph, target, tile.words(), resources, mechanism.id());
        return new LockDataflowMapping(graph, target, sizes, requested, mechanism, tile, channels, tokens,
                waitForm(channels), blockBarrierAfterCopy(), dataBase, sharedBytes, resources, choices.waitPolicy(),
                choices.mutexOr(target.defaultMutex()), choices.mutex().isPresent() ? "named by the schedule"
                        : "the target's default: " + target.defaultMutexSource());
    }

    /** Refuses a mechanism the machine cannot run, and warp-shared granularity it cannot give. */
    private void checkMechanism() {
        mechanism.unsupportedOn(target).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        if (mechanism.claimsLockBit(target) && target.lockBits() == 0) {
            throw new GpuLoweringException(mechanism.id() + " takes a lock bit per token word (" + target.called()
                    + " runs shared atomics as loops on lock bits) but has none; use a mechanism without atomics");
        }
        boolean warpShared = choices.warpShared();
        if (warpShared && choices.groupSize() != WARP) {
            throw new GpuLoweringException("warp-shared groups of " + choices.groupSize() + " actor instances"
                    + " do not match the GPU model's warps of " + WARP + "; use warpShared(32)");
        }
        if (warpShared && !mechanism.oneTokenPerWarp()) {
            throw new GpuLoweringException(mechanism.id() + " has no warp-shared form on the GPU model; with warp-shared"
                    + " granularity use tiny-lock (as warp vote), atomic-spin-lock (as shared spin-lock) or named-barrier");
        }
    }

    /**
     * Token arrays: per state field (shared channels) or per channel (private). Tiny-lock's shared form counts its
     * state fields here too, but its tokens are the data words' own lock bits, so it gets no separate arrays.
     */
    private int tokenArrays() {
        if (storage == TokenStorage.NONE) {
            return 0;
        }
        return privateChannels ? waits.size() : stateFields().size();
    }

    private int tokenArray(int index, IrChannel channel) {
        if (storage == TokenStorage.NONE) {
            return -1;
        }
        return privateChannels ? index : stateFields().indexOf(graph.field(graph.actor(channel.producer()).writes()));
    }

    private List<IrField> stateFields() {
        return graph.fields().stream().filter(IrField::isState).toList();
    }

    /**
     * The largest tile whose block fits the machine: threads per block and, for mechanisms whose per-thread tokens
     * claim lock bits, one lock bit per token word without aliasing (seed 001 §4.4.2); named barriers allow 16
     * producer warps.
     */
    private TileGeometry chooseTile(int arrays) {
        int[] low = halo.low();
        int[] high = halo.high();
        int threadLimit = mechanism.maxThreadsPerBlock(target, arrays, warpsBackInOneDimension());
        if (!mechanism.oneTokenPerWarp() && mechanism.claimsLockBit(target)) {
            threadLimit = Math.min(threadLimit, target.lockBits() / Math.max(1, lockBitsPerThread(arrays)));
        }
        if (graph.rank() == 1) {
            int width = Math.min(Math.ceilDiv(halo.extent(sizes, 0), WARP) * WARP, threadLimit / WARP * WARP);
            int interior = width - low[0] - high[0];
            if (interior < 1) {
                throw new GpuLoweringException("the halo of " + graph.name() + " (" + (low[0] + high[0])
                        + " points) leaves no room for a tile in a block of " + width + " threads");
            }
            return new TileGeometry(1, new int[] {interior}, low, high, sizes);
        }
        int last = graph.rank() - 1;
        int columns = WARP - low[last] - high[last];
        int copyRows = Math.min(WARP, threadLimit / WARP);
        if (graph.rank() == 3) {
            return cubeTile(copyRows, columns, low, high, threadLimit);
        }
        int rows = copyRows - low[0] - high[0];
        if (columns < 1 || rows < 1) {
            throw new GpuLoweringException("the halo of " + graph.name() + " leaves no room for a tile in a block of "
                    + threadLimit + " threads (32 per row)" + (skew.skews() ? ": its tiles are skewed (" + skew.column()
                    + ") for a dependence forward in j, which widens the halo to " + (low[1] + high[1]) + " columns; use"
                    + " wavefront" : ""));
        }
        return new TileGeometry(2, new int[] {rows, columns}, low, high, skew.iterationSizes(sizes), skew);
    }

    /**
     * A 3D tile: the block's {@code copyRows} rows of a warp split into planes and rows per plane so that the interior
     * holds the most points once the halos are taken off (32 rows and a halo of one: 4 planes of 8, a 3 x 7 interior),
     * which keeps a block-diagonal of tiles short along both outer dimensions; ties go to fewer planes.
     */
    private TileGeometry cubeTile(int copyRows, int columns, int[] low, int[] high, int threadLimit) {
        int best = 0;
        int bestPlanes = 0;
        for (int planes = 1; planes <= copyRows; planes++) {
            int interiorPlanes = planes - low[0] - high[0];
            int interiorRows = copyRows / planes - low[1] - high[1];
            if (interiorPlanes >= 1 && interiorRows >= 1 && interiorPlanes * interiorRows > best) {
                best = interiorPlanes * interiorRows;
                bestPlanes = planes;
            }
        }
        if (best == 0 || columns < 1) {
            throw new GpuLoweringException("the halo of " + graph.name() + " (" + (low[0] + high[0]) + " planes, " + (low[1] + high[1])
                    + " rows, " + (low[2] + high[2]) + " columns) leaves no room for a tile in a block of " + threadLimit
                    + " threads (planes of rows of 32); use wavefront or data-parallel");
        }
        int rowsPerPlane = copyRows / bestPlanes;
        return new TileGeometry(3, new int[] {bestPlanes - low[0] - high[0], rowsPerPlane - low[1] - high[1], columns}, low, high, sizes);
    }

    /**
     * Lock bits a thread's tokens span: one per token word, and for the data words' own bits one per 4 bytes of the
     * thread's state words (a long or double spans two bits, of which its low word's is the token).
     */
    private int lockBitsPerThread(int arrays) {
        if (storage != TokenStorage.LOCK_BIT_OF_DATA_WORD) {
            return arrays;
        }
        return stateFields().stream().mapToInt(field -> GpuTarget.elementBytes(field.type()) / 4).sum();
    }

    /** In 1D, how many warps back the nearest channel's producer lies (known before the tile is); 1 in 2D. */
    private int warpsBackInOneDimension() {
        return graph.rank() == 1 ? waits.stream().mapToInt(c -> c.vector()[0] / WARP).min().orElse(1) : 1;
    }

    /**
     * Threads between a consumer and its producer: one thread per word of the tile's copy, so the words between them
     * (rows a warp wide, planes of rows in 3D, the skew applied).
     */
    private static int threadDistance(TileGeometry tile, IrChannel channel) {
        return Math.toIntExact(tile.wordOffset(channel.vector()));
    }

    private void checkWarpDistances(List<SyncChannel> channels) {
        if (!mechanism.oneTokenPerWarp()) {
            return;
        }
        for (SyncChannel sync : channels) {
            if (sync.threadDistance() % WARP != 0) {
                throw new GpuLoweringException("channel " + sync.channel().via() + " "
                        + DependenceMath.format(sync.channel().vector()) + " of " + graph.name() + " links threads "
                        + sync.threadDistance() + " apart, inside or across part of a warp; " + mechanism.id() + " keeps"
                        + " one token per warp, so use a per-thread mechanism (tiny-lock, atomic-spin-lock)");
            }
        }
        mechanism.unsupportedChannels(graph.name(), channels.size()).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
    }

    /**
     * Warp tokens wait as warps. Otherwise a lane can wait for each token in turn when no channel links two lanes of
     * one warp and a lane cannot hold one shared token while waiting for another (one shared channel, or any number
     * of private ones); two shared channels could each be held by a lane that waits for the other, so those take the
     * critical-section form, which restores at once. A mechanism whose waiters the machine suspends (the lock-box)
     * waits in turn whatever the channels: it cannot try, and it gives a shared token on as soon as it has it.
     */
    private WaitForm waitForm(List<SyncChannel> channels) {
        if (mechanism.oneTokenPerWarp()) {
            return WaitForm.WARP;
        }
        if (mechanism.suspendsWaiters()) {
            // a suspending acquire cannot be tried; the machine parks the suspended lane as a path of its own
            return WaitForm.IN_TURN;
        }
        boolean acrossWarps = channels.stream().allMatch(c -> c.threadDistance() >= WARP);
        return acrossWarps && (channels.size() == 1 || privateChannels) ? WaitForm.IN_TURN : WaitForm.CRITICAL_SECTION;
    }

    /**
     * Token words must be initialised before anyone waits on them, so every mechanism with words needs a block
     * barrier after the copy-in; named barriers order their channel's words themselves, and need one only for words
     * read without a channel (an implied channel's, or an input's at an offset).
     */
    private boolean blockBarrierAfterCopy() {
        if (storage != TokenStorage.NONE) {
            return true;
        }
        boolean impliedReads = graph.channels().stream().anyMatch(IrChannel::isImplied);
        boolean neighbourInputs = graph.actors().stream().anyMatch(actor -> Loads.anyMatch(actor.body(),
                load -> graph.field(load.field()).isInput() && !DependenceMath.isZero(load.offset())));
        return impliedReads || neighbourInputs;
    }
}
