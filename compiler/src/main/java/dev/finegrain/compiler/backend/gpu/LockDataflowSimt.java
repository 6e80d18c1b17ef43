package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.DependenceMath;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lowers lock-based dataflow to the GPU model as seed 001 §6 does: one thread per point of a sub-grid, one launch
 * per block-diagonal of sub-grids. A block is the tile plus its halo (32 x 32 threads for Needleman-Wunsch: a 31 x
 * 31 interior plus the boundary row and column, the paper's mapping); each thread copies its own word of every
 * field into shared memory, halo threads stop there, and interior threads wait for their channels' tokens, fire,
 * and publish their own token.
 *
 * <p>Per-thread mechanisms (tiny-lock, atomic spin-lock, acquire/release flags) wait in seed 001's critical-section
 * form (Listings 8, 14, 15): one loop tries every channel not yet held, and a lane fires inside the loop as soon as
 * it holds them all, so a producer never waits at a reconvergence point for a consumer of its own warp (no SIMD
 * deadlock under Fermi). Warp mechanisms (shared spin-lock, warp vote, named barriers) need every channel to cross
 * whole warps; one token per warp, published after the warp's lanes reconverge.
 */
final class LockDataflowSimt {

    private static final int WARP = 32;
    /** P1..P4 hold "channel c's token is held"; P0 and P5 are scratch, P6 says "this thread computes a point". */
    private static final int MAX_CHANNELS = 4;

    private final KernelGraph graph;
    /** The protocol emitted: the requested mechanism, or its warp-shared form when the kernel asks for one. */
    private final LockMechanism mechanism;
    private final LockMechanism requested;
    private final SimtProfile profile;
    private final GlobalLayout layout;
    private final List<IrChannel> channels;
    private final boolean warpTokens;
    private final boolean privateChannels;
    private final SimtAssembler asm = new SimtAssembler();
    private final SharedAtomics atomics;

    private TileGeometry tile;
    private int[] dataBase;
    private int[] tokenBase;
    private int syncSharedBytes;
    private int sharedBytes;

    private LockDataflowSimt(KernelGraph graph, DataflowPlan plan, LockMechanism mechanism, SimtProfile profile,
                             GlobalLayout layout) {
        this.graph = graph;
        this.requested = mechanism;
        this.mechanism = warpSharedForm(graph, mechanism);
        this.profile = profile;
        this.layout = layout;
        this.channels = plan.waits().stream().filter(c -> !DependenceMath.isZero(c.vector())).toList();
        this.warpTokens = this.mechanism.oneTokenPerWarp();
        this.privateChannels = graph.kernel().channelPolicy() == ChannelPolicy.PRIVATE;
        this.atomics = new SharedAtomics(asm, profile.sharedAtomicsAsLockLoops());
    }

    /**
     * Warp-shared granularity (seed 001 §4.5) turns a per-thread lock into its one-token-per-warp form: the tiny-lock
     * becomes the warp-shared lock bit of Listing 9 (warp vote), the atomic spin-lock the warp's shared spin-lock.
     */
    private static LockMechanism warpSharedForm(KernelGraph graph, LockMechanism mechanism) {
        if (graph.kernel().granularity() != LockGranularity.WARP_SHARED) {
            return mechanism;
        }
        return switch (mechanism) {
            case TINY_LOCK -> LockMechanism.WARP_VOTE;
            case ATOMIC_SPIN_LOCK -> LockMechanism.SHARED_SPIN_LOCK;
            default -> mechanism;
        };
    }

    static SimtKernel lower(KernelGraph graph, DataflowPlan plan, LockMechanism mechanism, SimtProfile profile,
                            GlobalLayout layout) {
        return new LockDataflowSimt(graph, plan, mechanism, profile, layout).lower();
    }

    private SimtKernel lower() {
        checkMechanism();
        if (profile.sharedAtomicsAsLockLoops() && mechanism == LockMechanism.ATOMIC_SPIN_LOCK && channels.size() > 2) {
            throw new GpuLoweringException("kernel " + graph.name() + " has " + channels.size() + " channels to"
                    + " synchronise per point; with " + profile.name() + "'s lock-bit atomics the lowering holds at"
                    + " most 2 (it needs the other predicates for the loops)");
        }
        if (channels.size() > MAX_CHANNELS) {
            throw new GpuLoweringException("kernel " + graph.name() + " has " + channels.size() + " channels to"
                    + " synchronise per point; the GPU model's lowering holds at most " + MAX_CHANNELS);
        }
        tile = chooseTile();
        checkWarpDistances();
        layOutShared();
        emitProgram();
        int threads = tile.words();
        int explicitBits = switch (mechanism) {
            case TINY_LOCK -> tokenArrays() * tile.words();
            case WARP_VOTE -> tokenArrays() * warps();
            default -> 0;
        };
        int implicitBits = switch (mechanism) {
            case ATOMIC_SPIN_LOCK -> tokenArrays() * tile.words();
            case SHARED_SPIN_LOCK -> tokenArrays() * warps();
            default -> 0;
        };
        int barriers = mechanism == LockMechanism.NAMED_BARRIER ? warps() - minimumWarpDistance() : 0;
        SimtKernel.Resources resources = new SimtKernel.Resources(syncSharedBytes, sharedBytes - syncSharedBytes,
                explicitBits, implicitBits, barriers, asm.registersUsed());
        int claimedBits = explicitBits + (profile.sharedAtomicsAsLockLoops() ? implicitBits : 0);
        StaticChecks.check(graph, profile, threads, sharedBytes, claimedBits, barriers, mechanism);
        String plan = "lock-dataflow with " + requested + (requested != mechanism ? " in its warp-shared form, "
                + mechanism : "") + " (" + (privateChannels ? "private" : "shared")
                + " channels, " + (warpTokens ? "one token per warp" : "one token per thread") + "): "
                + tile.describe() + "; blocks of " + threads + " threads, one thread per word of the tile; "
                + tile.blocksPerLaunch().size() + " launches, one per block-diagonal";
        return new SimtKernel(asm.text(), plan, threads, tile.blocksPerLaunch(), sharedBytes,
                claimedBits, layout.totalBytes(), resources);
    }

    /** Refuses a mechanism the profile cannot run, judged in the mode its programs run in (its default). */
    private void checkMechanism() {
        switch (mechanism) {
            case TINY_LOCK, ATOMIC_SPIN_LOCK, NAMED_BARRIER -> { }
            case ACQUIRE_RELEASE_FLAG -> { }
            case MBARRIER -> {
                if (!profile.hasMbarrier()) {
                    throw new GpuLoweringException("mbarrier needs a profile with feature.mbarrier (hopper-h200); "
                            + profile.name() + " has none");
                }
            }
            case SHARED_SPIN_LOCK, WARP_VOTE -> {
                if (profile.defaultMode() == SimMode.ITS) {
                    throw new GpuLoweringException(mechanism + " publishes a warp's token after its lanes reconverge,"
                            + " which independent thread scheduling (profile " + profile.name() + ") does not"
                            + " guarantee; use a Fermi profile or a per-thread mechanism");
                }
            }
            case BLOCKING -> throw new GpuLoweringException("blocking (seed 003's lock-box) is a CPU mechanism with no"
                    + " GPU analogue");
        }
        if ((mechanism == LockMechanism.TINY_LOCK || mechanism == LockMechanism.WARP_VOTE) && profile.lockBits() == 0) {
            throw new GpuLoweringException(mechanism + " needs shared-memory lock bits, which profile "
                    + profile.name() + " does not have");
        }
        if (graph.kernel().granularity() == LockGranularity.WARP_SHARED
                && graph.kernel().groupSize() != WARP) {
            throw new GpuLoweringException("warp-shared groups of " + graph.kernel().groupSize() + " actor instances"
                    + " do not match the GPU model's warps of " + WARP + "; use warpShared(32)");
        }
        if (!warpTokens && graph.kernel().granularity() == LockGranularity.WARP_SHARED) {
            throw new GpuLoweringException(mechanism + " has no warp-shared form on the GPU model; with warp-shared"
                    + " granularity use tiny-lock (as warp vote), atomic-spin-lock (as shared spin-lock) or named-barrier");
        }
    }

    /**
     * Token arrays: per state field (shared channels) or per channel (private). Tiny-lock's shared form counts its
     * state fields here too, but its tokens are the data words' own lock bits, so {@link #layOutShared} gives it no
     * separate arrays.
     */
    private int tokenArrays() {
        if (mechanism == LockMechanism.NAMED_BARRIER) {
            return 0;
        }
        if (privateChannels) {
            return channels.size();
        }
        return stateFields().size();
    }

    private List<IrField> stateFields() {
        return graph.fields().stream().filter(IrField::isState).toList();
    }

    private int warps() {
        return Math.ceilDiv(tile.words(), WARP);
    }

    /**
     * The largest tile whose block fits the profile: threads per block, and for lock-bit mechanisms one lock bit
     * per token word without aliasing (seed 001 §4.4.2); named barriers allow 16 producer warps.
     */
    private TileGeometry chooseTile() {
        int[] low = layout.haloLow();
        int[] high = layout.haloHigh();
        int threadLimit = profile.maxThreadsPerBlock();
        boolean tokenPerThreadTakesALockBit = mechanism == LockMechanism.TINY_LOCK
                || mechanism == LockMechanism.ATOMIC_SPIN_LOCK && profile.sharedAtomicsAsLockLoops();
        if (tokenPerThreadTakesALockBit) {
            threadLimit = Math.min(threadLimit, profile.lockBits() / Math.max(1, tokenArrays()));
        }
        if (mechanism == LockMechanism.NAMED_BARRIER) {
            threadLimit = Math.min(threadLimit, WARP * (StaticChecks.NAMED_BARRIERS + Math.max(1, warpsBackInOneDimension())));
        }
        int[] sizes = new int[graph.rank()];
        for (int d = 0; d < sizes.length; d++) {
            sizes[d] = layout.size(d);
        }
        if (graph.rank() == 1) {
            int width = Math.min(Math.ceilDiv(layout.extent(0), WARP) * WARP, threadLimit / WARP * WARP);
            int interior = width - low[0] - high[0];
            if (interior < 1) {
                throw new GpuLoweringException("the halo of " + graph.name() + " (" + (low[0] + high[0])
                        + " points) leaves no room for a tile in a block of " + width + " threads");
            }
            return new TileGeometry(1, new int[] {interior}, low, high, sizes);
        }
        int columns = WARP - low[1] - high[1];
        int rows = Math.min(WARP, threadLimit / WARP) - low[0] - high[0];
        if (columns < 1 || rows < 1) {
            throw new GpuLoweringException("the halo of " + graph.name() + " leaves no room for a tile in a block of "
                    + threadLimit + " threads (32 per row)");
        }
        return new TileGeometry(2, new int[] {rows, columns}, low, high, sizes);
    }

    /** In 1D, how many warps back the nearest channel's producer lies (known before the tile is); 1 in 2D. */
    private int warpsBackInOneDimension() {
        return graph.rank() == 1 ? channels.stream().mapToInt(c -> c.vector()[0] / WARP).min().orElse(1) : 1;
    }

    /** Thread distance from a consumer to the producer of channel c within the block. */
    private int threadDistance(IrChannel channel) {
        int[] v = channel.vector();
        return graph.rank() == 1 ? v[0] : v[0] * tile.width() + v[1];
    }

    private int minimumWarpDistance() {
        return channels.stream().mapToInt(c -> threadDistance(c) / WARP).min().orElse(1);
    }

    private void checkWarpDistances() {
        if (!warpTokens) {
            return;
        }
        for (IrChannel channel : channels) {
            if (threadDistance(channel) % WARP != 0) {
                throw new GpuLoweringException("channel " + channel.via() + " " + DependenceMath.format(channel.vector())
                        + " of " + graph.name() + " links threads " + threadDistance(channel) + " apart, inside or across"
                        + " part of a warp; " + mechanism + " keeps one token per warp, so use a per-thread mechanism"
                        + " (tiny-lock, atomic-spin-lock)");
            }
        }
        if (mechanism == LockMechanism.NAMED_BARRIER && channels.size() != 1) {
            throw new GpuLoweringException("named-barrier pairs one producer warp with one consumer warp (seed 001"
                    + " Listing 12); " + graph.name() + " synchronises " + channels.size() + " channels per point");
        }
    }

    /** Token arrays from shared byte 0 (so lock bits do not alias), then one tile copy per field. */
    private void layOutShared() {
        int tokenWords = warpTokens ? warps() : tile.words();
        boolean tokensAreDataWords = mechanism == LockMechanism.TINY_LOCK && !privateChannels;
        tokenBase = new int[tokensAreDataWords ? 0 : tokenArrays()];
        int next = 0;
        for (int a = 0; a < tokenBase.length; a++) {
            tokenBase[a] = next;
            next += 4 * tokenWords;
        }
        syncSharedBytes = next;
        dataBase = new int[graph.fields().size()];
        for (IrField field : stateFields()) {
            dataBase[field.id()] = next;
            next += 4 * tile.words();
        }
        for (IrField field : graph.fields()) {
            if (field.isInput()) {
                dataBase[field.id()] = next;
                next += 4 * tile.words();
            }
        }
        sharedBytes = next;
    }

    /** The token array channel c waits on. */
    private int tokenArray(int channel) {
        if (privateChannels) {
            return channel;
        }
        return stateFields().indexOf(graph.field(graph.actor(channels.get(channel).producer()).writes()));
    }

    // ---------------------------------------------------------------------------------------------- the program

    private String tid;
    private String one;
    private String sharedOffset;
    private String globalOffset;
    private String[] point;
    private final Map<Integer, String> params = new HashMap<>();

    private void emitProgram() {
        asm.section(graph.name() + ": lock-dataflow, " + mechanism + ", " + tile.describe());
        emitPrologue();
        expressions = new SimtExpressions(asm, operands(), one, layout);
        asm.section("independent computation: every part of the actors that reads no state, before any wait");
        asm.comment("only threads that compute a point: a halo thread's neighbours may lie outside the tile");
        asm.emit("!P6", "BRA independent_done");
        for (int actorId : graph.actorOrder()) {
            expressions.precomputeStateFree(graph.actor(actorId).body(), field -> graph.field(field).isState());
        }
        asm.place("independent_done");
        String phaseStart = asm.register();
        asm.emit("S2R " + phaseStart + ", SR_CLOCKLO");
        if (warpTokens) {
            emitWarpWaitFire(phaseStart);
        } else if (channels.stream().allMatch(c -> threadDistance(c) >= WARP) && (channels.size() == 1 || privateChannels)) {
            emitWaitlocks(phaseStart);
        } else {
            emitCriticalSection(phaseStart);
        }
        asm.place("end");
        asm.emit("EXIT");
    }

    private void emitPrologue() {
        asm.section("prologue: who am I, copy my word of every field into shared memory, lock my own tokens");
        tid = asm.register();
        asm.emit("S2R " + tid + ", SR_TID.X");
        one = asm.constant(1);
        sharedOffset = asm.register();
        asm.emit("SHL " + sharedOffset + ", " + tid + ", 0x2");
        String row = "RZ";
        String column = tid;
        if (graph.rank() == 2) {
            row = asm.register();
            column = asm.register();
            asm.emit("SHR " + row + ", " + tid + ", 0x5");
            asm.emit("LOP.AND " + column + ", " + tid + ", 0x1f");
        }
        String[] origin = tile.emitOrigin(asm);
        int[] low = layout.haloLow();
        point = new String[graph.rank()];
        globalOffset = asm.register();
        if (graph.rank() == 1) {
            point[0] = asm.register();
            asm.emit("IADD " + globalOffset + ", " + origin[0] + ", " + tid);
            asm.emit("IADD " + point[0] + ", " + globalOffset + ", " + SimtAssembler.immediate(-low[0]));
        } else {
            point[0] = asm.register();
            point[1] = asm.register();
            asm.emit("IADD " + point[0] + ", " + origin[0] + ", " + row);
            asm.emit("IMAD " + globalOffset + ", " + point[0] + ", " + SimtAssembler.immediate(layout.extent(1))
                    + ", " + origin[1]);
            asm.emit("IADD " + globalOffset + ", " + globalOffset + ", " + column);
            asm.emit("IADD " + point[0] + ", " + point[0] + ", " + SimtAssembler.immediate(-low[0]));
            asm.emit("IADD " + point[1] + ", " + origin[1] + ", " + column);
            asm.emit("IADD " + point[1] + ", " + point[1] + ", " + SimtAssembler.immediate(-low[1]));
        }
        asm.emit("SHL " + globalOffset + ", " + globalOffset + ", 0x2");
        asm.comment("P6: my word lies in the padded fields");
        emitInside(layout.haloHigh());
        for (IrField field : graph.fields()) {
            String value = asm.register();
            asm.emit("MOV " + value + ", RZ");
            asm.emit("P6", "LDG " + value + ", " + SimtAssembler.address(globalOffset, layout.fieldByte(field.id())));
            asm.emit("STS " + SimtAssembler.address(sharedOffset, dataBase[field.id()]) + ", " + value);
        }
        asm.comment("P6: I compute a point (inside the tile's interior and the domain)");
        emitInside(new int[graph.rank()]);
        if (graph.rank() == 2) {
            asm.emit("ISETP.GE.AND P6, PT, " + row + ", " + SimtAssembler.immediate(low[0]) + ", P6");
            asm.emit("ISETP.LT.AND P6, PT, " + row + ", " + SimtAssembler.immediate(low[0] + tile.interior()[0])
                    + ", P6");
        }
        asm.emit("ISETP.GE.AND P6, PT, " + column + ", " + SimtAssembler.immediate(low[graph.rank() - 1]) + ", P6");
        asm.emit("ISETP.LT.AND P6, PT, " + column + ", "
                + SimtAssembler.immediate(low[graph.rank() - 1] + tile.interior()[graph.rank() - 1]) + ", P6");
        for (int p = 0; p < graph.kernel().params().size(); p++) {
            String param = asm.register();
            asm.emit("LDG " + param + ", [" + SimtAssembler.immediate(GlobalLayout.paramByte(p)) + "]");
            params.put(p, param);
        }
        emitTokenInit();
        if (needsBlockBarrier()) {
            asm.comment("every word and token is in place");
            asm.emit("BAR.RED.POPC RZ, RZ");
        }
    }

    /** P6 = every coordinate of my point is below size + extra. */
    private void emitInside(int[] extra) {
        for (int d = 0; d < graph.rank(); d++) {
            asm.emit("ISETP.LT.AND P6, PT, " + point[d] + ", " + SimtAssembler.immediate(layout.size(d) + extra[d])
                    + ", " + (d == 0 ? "PT" : "P6"));
        }
    }

    /** Named barriers order the channel itself; a block barrier is still needed for words read without a token. */
    private boolean needsBlockBarrier() {
        if (mechanism != LockMechanism.NAMED_BARRIER) {
            return true;
        }
        boolean impliedReads = graph.channels().stream().anyMatch(IrChannel::isImplied);
        boolean neighbourInputs = graph.actors().stream().anyMatch(actor -> readsInputAtOffset(actor.body()));
        return impliedReads || neighbourInputs;
    }

    private boolean readsInputAtOffset(IrExpr expr) {
        return Loads.anyMatch(expr, load -> graph.field(load.field()).isInput() && !DependenceMath.isZero(load.offset()));
    }

    private void emitTokenInit() {
        switch (mechanism) {
            case TINY_LOCK -> {
                asm.comment("Lock (seed 001 Listing 4): producers take their own lock bits; halo words stay free");
                if (privateChannels) {
                    for (int c = 0; c < channels.size(); c++) {
                        asm.emit("P6", "LDSLK P0, RZ, " + SimtAssembler.address(sharedOffset, tokenBase[c]));
                    }
                } else {
                    for (IrField field : stateFields()) {
                        asm.emit("P6", "LDSLK P0, RZ, " + SimtAssembler.address(sharedOffset, dataBase[field.id()]));
                    }
                }
            }
            case ATOMIC_SPIN_LOCK, ACQUIRE_RELEASE_FLAG -> {
                boolean flags = mechanism == LockMechanism.ACQUIRE_RELEASE_FLAG;
                asm.comment(flags ? "ready flags: 0 until my point is published, 1 for halo words"
                        : "mutexes: producers start locked (1), halo words free (0)");
                String initial = asm.register();
                asm.emit("SEL " + initial + ", " + (flags ? "RZ, " + one : one + ", RZ") + ", P6");
                for (int base : tokenBase) {
                    asm.emit("STS " + SimtAssembler.address(sharedOffset, base) + ", " + initial);
                }
            }
            case MBARRIER -> {
                asm.comment("one mbarrier per token word, armed for its producer's one arrival; halo words arrive now");
                for (int base : tokenBase) {
                    asm.emit("MBARRIER.INIT " + SimtAssembler.address(sharedOffset, base) + ", 0x1");
                    asm.emit("!P6", "MBARRIER.ARRIVE RZ, " + SimtAssembler.address(sharedOffset, base));
                }
            }
            case SHARED_SPIN_LOCK, WARP_VOTE, NAMED_BARRIER -> emitWarpTokenInit();
            default -> throw new IllegalStateException(mechanism.toString());
        }
    }

    private String warp;
    private String warpOffset;

    private void emitWarpTokenInit() {
        warp = asm.register();
        asm.emit("SHR " + warp + ", " + tid + ", 0x5");
        warpOffset = asm.register();
        asm.emit("SHL " + warpOffset + ", " + warp + ", 0x2");
        String lane = asm.register();
        asm.emit("LOP.AND " + lane + ", " + tid + ", 0x1f");
        asm.comment("P5: lane 0, the warp's representative; P4: some lane of my warp computes");
        asm.emit("ISETP.EQ.AND P5, PT, " + lane + ", RZ, PT");
        asm.emit("VOTE.ANY RZ, P4, P6");
        switch (mechanism) {
            case SHARED_SPIN_LOCK -> {
                asm.comment("one mutex per warp: locked (1) when the warp computes, free (0) for halo warps");
                String initial = asm.register();
                asm.emit("SEL " + initial + ", " + one + ", RZ, P4");
                for (int base : tokenBase) {
                    asm.emit("P5", "STS " + SimtAssembler.address(warpOffset, base) + ", " + initial);
                }
            }
            case WARP_VOTE -> {
                asm.comment("Lock (seed 001 Listing 9): a computing warp takes its warp-shared lock bit");
                for (int base : tokenBase) {
                    asm.emit("P4", "LDSLK P0, RZ, " + SimtAssembler.address(warpOffset, base));
                }
            }
            default -> { }
        }
    }

    // ------------------------------------------------------------------------------- per-thread critical section

    private void emitCriticalSection(String phaseStart) {
        asm.section("wait and fire, critical-section form: a lane fires inside the loop once it holds every token");
        asm.emit("!P6", "BRA end");
        String done = asm.register();
        asm.emit("MOV " + done + ", RZ");
        asm.place("spin");
        for (int c = 0; c < channels.size(); c++) {
            emitTry(c);
        }
        asm.comment("P0: every token held");
        asm.emit("PSETP.AND.AND P0, PT, " + held(0) + ", " + held(1) + ", PT");
        if (channels.size() > 2) {
            asm.emit("PSETP.AND.AND P0, PT, P0, " + held(2) + ", " + held(3));
        }
        asm.emit("!P0", "BRA check");
        asm.section("fire: compute, publish my token, finalize private channels");
        Map<Integer, String> produced = emitFire();
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        for (int c = 0; c < channels.size() && privateChannels; c++) {
            emitFinalize(c);
        }
        asm.emit("MOV32I " + done + ", 0x1");
        asm.place("check");
        asm.emit("ISETP.EQ.AND P0, PT, " + done + ", RZ, PT");
        asm.emit("P0", "BRA spin");
        emitWriteBack("PT", produced, phaseStart, phaseEnd);
    }

    /** The predicate that says channel c's token is held; PT for channels the kernel does not have. */
    private String held(int channel) {
        return channel < channels.size() ? "P" + (channel + 1) : "PT";
    }

    private String channelAddress(int c, boolean token) {
        int delta = -4 * threadDistance(channels.get(c));
        int base = token ? tokenBase[tokenArray(c)] : dataBase[graph.actor(channels.get(c).producer()).writes()];
        return SimtAssembler.address(sharedOffset, base + delta);
    }

    private void emitTry(int c) {
        IrChannel channel = channels.get(c);
        String have = held(c);
        asm.comment("channel " + channel.via() + " " + DependenceMath.format(channel.vector()));
        switch (mechanism) {
            case TINY_LOCK -> {
                if (privateChannels) {
                    asm.emit("!" + have, "LDSLK " + have + ", RZ, " + channelAddress(c, true));
                } else {
                    String value = asm.register();
                    tokenValues.put(c, value);
                    asm.comment("as Listing 15: once held, the token is restored on every pass; the value is final,"
                            + " so a second restore only frees a bit that no one needs held");
                    asm.emit("!" + have, "LDSLK " + have + ", " + value + ", " + channelAddress(c, false));
                    asm.emit(have, "STSUL " + channelAddress(c, false) + ", " + value + "   // restore the token");
                }
            }
            case ATOMIC_SPIN_LOCK -> {
                String old = asm.register();
                atomics.exchange(old, channelAddress(c, true), one, "!" + have, "P4", "P3", "take the token");
                asm.emit("ISETP.EQ.AND P5, PT, " + old + ", RZ, !" + have);
                if (!privateChannels) {
                    atomics.exchange("RZ", channelAddress(c, true), "RZ", "P5", "P4", "P3", "restore the token");
                }
                asm.emit("PSETP.OR.AND " + have + ", PT, " + have + ", P5, PT");
            }
            case ACQUIRE_RELEASE_FLAG -> {
                String flag = asm.register();
                asm.emit("!" + have, "LDS " + flag + ", " + channelAddress(c, true));
                asm.emit("!" + have, "ISETP.NE.AND " + have + ", PT, " + flag + ", RZ, PT");
            }
            case MBARRIER -> asm.emit("!" + have, "MBARRIER.TRY_WAIT " + have + ", " + channelAddress(c, true)
                    + ", RZ   // has phase 0 completed?");
            default -> throw new IllegalStateException(mechanism.toString());
        }
    }

    /**
     * When no channel links two lanes of one warp, a lane can simply wait for each token in turn (seed 001
     * Listings 4, 11, 13): lanes that got theirs wait at the loop's end for the others, whose producers are in other
     * warps and so can still fire. Tokens are restored (shared channels) or freed (private ones) after publishing,
     * so a lane holds what it took while it waits for the rest: that is safe for one shared channel or any number
     * of private ones, but two shared channels could each be held by a lane that waits for the other (hold and
     * wait), so those take the critical-section form, which restores at once.
     */
    private void emitWaitlocks(String phaseStart) {
        asm.section("wait: every channel links different warps, so each lane waits for its tokens in turn");
        asm.emit("!P6", "BRA end");
        for (int c = 0; c < channels.size(); c++) {
            IrChannel channel = channels.get(c);
            String wait = asm.label("wait");
            asm.comment("channel " + channel.via() + " " + DependenceMath.format(channel.vector()));
            asm.place(wait);
            switch (mechanism) {
                case TINY_LOCK -> {
                    if (privateChannels) {
                        asm.emit("LDSLK P1, RZ, " + channelAddress(c, true) + "   // Waitlock");
                    } else {
                        String value = asm.register();
                        tokenValues.put(c, value);
                        asm.emit("LDSLK P1, " + value + ", " + channelAddress(c, false) + "   // Waitlock");
                    }
                    asm.emit("!P1", "BRA " + wait);
                }
                case ATOMIC_SPIN_LOCK -> atomics.lock(asm.register(), channelAddress(c, true), one, "P4", "P3", "P1");
                case ACQUIRE_RELEASE_FLAG -> {
                    String flag = asm.register();
                    asm.emit("LDS " + flag + ", " + channelAddress(c, true) + "   // acquire");
                    asm.emit("ISETP.EQ.AND P1, PT, " + flag + ", RZ, PT");
                    asm.emit("P1", "BRA " + wait);
                }
                case MBARRIER -> {
                    asm.emit("MBARRIER.TRY_WAIT P1, " + channelAddress(c, true) + ", RZ   // has phase 0 completed?");
                    asm.emit("!P1", "BRA " + wait);
                }
                default -> throw new IllegalStateException(mechanism.toString());
            }
        }
        asm.section("fire: compute, publish my token");
        Map<Integer, String> produced = emitFire();
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        for (int c = 0; c < channels.size(); c++) {
            if (privateChannels) {
                emitFinalize(c);
                continue;
            }
            switch (mechanism) {
                case TINY_LOCK -> asm.emit("STSUL " + channelAddress(c, false) + ", " + tokenValues.get(c)
                        + "   // restore the token");
                case ATOMIC_SPIN_LOCK -> atomics.exchange("RZ", channelAddress(c, true), "RZ", "PT", "P4", "P3",
                        "restore the token");
                default -> { }
            }
        }
        emitWriteBack("PT", produced, phaseStart, phaseEnd);
    }

    private void emitFinalize(int c) {
        switch (mechanism) {
            case TINY_LOCK -> asm.emit("STSUL " + channelAddress(c, true) + ", RZ   // finalize: free the private bit");
            case ATOMIC_SPIN_LOCK -> atomics.exchange("RZ", channelAddress(c, true), "RZ", "PT", "P4", "P3", "finalize");
            default -> { }
        }
    }

    // --------------------------------------------------------------------------------------------- warp tokens

    private void emitWarpWaitFire(String phaseStart) {
        asm.section("wait: one token per producer warp");
        asm.emit("!P4", "BRA waited");
        for (int c = 0; c < channels.size(); c++) {
            int warpDistance = threadDistance(channels.get(c)) / WARP;
            asm.comment("channel " + channels.get(c).via() + ": the warp " + warpDistance + " before mine");
            switch (mechanism) {
                case NAMED_BARRIER -> {
                    String id = asm.register();
                    asm.emit("IADD " + id + ", " + warp + ", " + SimtAssembler.immediate(-warpDistance));
                    asm.emit("BAR.SYNC " + id + ", 0x40");
                }
                case SHARED_SPIN_LOCK -> {
                    String skip = asm.label("representative_waited");
                    String old = asm.register();
                    String address = SimtAssembler.address(warpOffset, tokenBase[tokenArray(c)] - 4 * warpDistance);
                    asm.emit("!P5", "BRA " + skip);
                    atomics.lock(old, address, one, "P1", "P2", "P3");
                    atomics.exchange("RZ", address, "RZ", "PT", "P1", "P2", "restore the token");
                    asm.place(skip);
                }
                case WARP_VOTE -> {
                    String spin = asm.label("vote_spin");
                    String address = SimtAssembler.address(warpOffset, tokenBase[tokenArray(c)] - 4 * warpDistance);
                    asm.place(spin);
                    asm.emit("LDSLK P0, RZ, " + address + "   // Waitlock (Listing 9)");
                    asm.emit("VOTE.ANY RZ, P1, P0");
                    asm.emit("!P1", "BRA " + spin);
                }
                default -> throw new IllegalStateException(mechanism.toString());
            }
        }
        asm.place("waited");
        asm.emit("!P6", "BRA fired");
        asm.section("fire");
        Map<Integer, String> produced = emitFire();
        asm.place("fired");
        asm.section("publish: the warp's token, once its lanes have reconverged");
        switch (mechanism) {
            case NAMED_BARRIER -> {
                int distance = minimumWarpDistance();
                asm.emit("ISETP.LT.AND P0, PT, " + warp + ", " + SimtAssembler.immediate(warps() - distance) + ", PT");
                asm.emit("P0", "BAR.ARRIVE " + warp + ", 0x40");
            }
            case SHARED_SPIN_LOCK -> {
                asm.emit("PSETP.AND.AND P1, PT, P5, P4, PT");
                for (int base : tokenBase) {
                    atomics.exchange("RZ", SimtAssembler.address(warpOffset, base), "RZ", "P1", "P2", "P3", "unlock");
                }
            }
            case WARP_VOTE -> {
                asm.emit("PSETP.AND.AND P0, PT, P5, P4, PT");
                for (int base : tokenBase) {
                    asm.emit("P0", "STSUL " + SimtAssembler.address(warpOffset, base) + ", RZ   // Unlock");
                }
                asm.comment("give back the producers' bits (the representative frees them: any lane may STSUL)");
                for (int c = 0; c < channels.size(); c++) {
                    int warpDistance = threadDistance(channels.get(c)) / WARP;
                    asm.emit("P0", "STSUL " + SimtAssembler.address(warpOffset, tokenBase[tokenArray(c)]
                            - 4 * warpDistance) + ", RZ   // restore the token");
                }
            }
            default -> throw new IllegalStateException(mechanism.toString());
        }
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        emitWriteBack("P6", produced, phaseStart, phaseEnd);
    }

    // ---------------------------------------------------------------------------------------------------- fire

    private SimtExpressions expressions;
    /** This point's values by field, for later actors of the point and the write-back. */
    private final Map<Integer, String> produced = new LinkedHashMap<>();
    /** Tiny-lock's shared channels: the register each channel's LDSLK loaded the producer's value into. */
    private final Map<Integer, String> tokenValues = new HashMap<>();

    /** Loads read the value a token brought (tiny-lock's LDSLK), else the shared tile. */
    private SimtExpressions.Operands operands() {
        return new PointOperands(point, params, produced, load -> {
            for (Map.Entry<Integer, String> token : tokenValues.entrySet()) {
                IrChannel channel = channels.get(token.getKey());
                if (graph.actor(channel.producer()).writes() == load.field()
                        && Arrays.equals(negate(channel.vector()), load.offset())) {
                    return token.getValue();
                }
            }
            String value = asm.register();
            asm.emit("LDS " + value + ", " + SimtAssembler.address(sharedOffset,
                    dataBase[load.field()] + tileByteOffset(load.offset())));
            return value;
        });
    }

    /** Computes and publishes the point's values; returns them by field, for the write-back after the loop. */
    private Map<Integer, String> emitFire() {
        expressions.lowerActors(graph, produced, (actor, value) -> {
            if (!warpTokens) {
                emitPublish(actor, value);
            } else {
                asm.emit("STS " + SimtAssembler.address(sharedOffset, dataBase[actor.writes()]) + ", " + value);
            }
        });
        return produced;
    }

    /** Global stores come after the sync phase: no consumer in the block waits for them, so the spin loop stays short. */
    private void emitWriteBack(String guard, Map<Integer, String> produced, String phaseStart, String phaseEnd) {
        asm.section("write back my point and my sync phase's clocks");
        for (Map.Entry<Integer, String> field : produced.entrySet()) {
            asm.emit(guard, "STG " + SimtAssembler.address(globalOffset, layout.fieldByte(field.getKey())) + ", "
                    + field.getValue());
        }
        emitPhaseClock(guard, phaseStart, phaseEnd);
    }

    private void emitPublish(IrActor actor, String value) {
        String own = SimtAssembler.address(sharedOffset, dataBase[actor.writes()]);
        switch (mechanism) {
            case TINY_LOCK -> {
                if (privateChannels) {
                    asm.emit("STS " + own + ", " + value);
                    for (int c = 0; c < channels.size(); c++) {
                        if (channels.get(c).producer() == actor.id()) {
                            asm.emit("STSUL " + SimtAssembler.address(sharedOffset, tokenBase[c]) + ", RZ   // Unlock");
                        }
                    }
                } else {
                    asm.emit("STSUL " + own + ", " + value + "   // store and Unlock");
                }
            }
            case ATOMIC_SPIN_LOCK, ACQUIRE_RELEASE_FLAG, MBARRIER -> {
                asm.emit("STS " + own + ", " + value);
                for (int a = 0; a < tokenBase.length; a++) {
                    if (publishes(actor, a)) {
                        String token = SimtAssembler.address(sharedOffset, tokenBase[a]);
                        if (mechanism == LockMechanism.ATOMIC_SPIN_LOCK) {
                            atomics.exchange("RZ", token, "RZ", "PT", "P4", "P3", "unlock");
                        } else if (mechanism == LockMechanism.MBARRIER) {
                            asm.emit("MBARRIER.ARRIVE RZ, " + token + "   // completes phase 0");
                        } else {
                            asm.emit("MEMBAR.CTA");
                            asm.emit("STS " + token + ", " + one + "   // release the flag");
                        }
                    }
                }
            }
            default -> asm.emit("STS " + own + ", " + value);
        }
    }

    /** Whether token array {@code array} belongs to {@code actor}'s output. */
    private boolean publishes(IrActor actor, int array) {
        if (privateChannels) {
            return channels.get(array).producer() == actor.id();
        }
        return stateFields().get(array).id() == actor.writes();
    }

    private void emitPhaseClock(String guard, String start, String end) {
        String slot = asm.register();
        String block = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        asm.emit("IMAD " + slot + ", " + block + ", " + SimtAssembler.immediate(tile.words()) + ", " + tid);
        asm.emit("SHL " + slot + ", " + slot + ", 0x3");
        asm.emit(guard, "STG " + SimtAssembler.address(slot, layout.totalBytes()) + ", " + start);
        asm.emit(guard, "STG " + SimtAssembler.address(slot, layout.totalBytes() + 4) + ", " + end);
    }

    private int tileByteOffset(int[] offset) {
        return graph.rank() == 1 ? 4 * offset[0] : 4 * (offset[0] * tile.width() + offset[1]);
    }

    private static int[] negate(int[] vector) {
        return Arrays.stream(vector).map(x -> -x).toArray();
    }
}
