package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage;
import dev.finegrain.compiler.backend.gpu.LockDataflowMapping;
import dev.finegrain.compiler.backend.gpu.SyncChannel;
import dev.finegrain.compiler.ir.IrActor;

import java.util.HashMap;
import java.util.Map;

/**
 * What a mechanism's {@link SimtSync} spelling reads and writes while {@link SimtLockDataflow} lays out a program:
 * the assembler, the mapping, the registers the prologue set, and the addresses of this thread's tokens.
 */
public final class SimtSyncContext {

    final SimtAssembler asm;
    final SharedAtomics atomics;
    /** How the wait loops load the words they poll. */
    final SimtPollLoad polls;
    final LockDataflowMapping mapping;
    /** Tiny-lock's shared channels: the register each channel's LDSLK loaded the producer's value into. */
    final Map<Integer, String> tokenValues = new HashMap<>();
    /** Registers the prologue sets: thread id, the constant 1, this thread's byte offset in every shared array. */
    String tid;
    String one;
    String sharedOffset;
    /** This thread's byte offset in the tile copies of 8-byte fields (twice sharedOffset), when the kernel has some. */
    String wideSharedOffset;
    /**
     * Whether a state word of the tile copy is 64 bits, the value in the low word and its token (a ready bit) in the
     * high one, so that one load brings both: the mapping's token storage (tiny-lock without lock bits).
     */
    final boolean packed;
    /** Warp mechanisms: this thread's warp, and the warp's byte offset in a warp-token array. */
    String warp;
    String warpOffset;

    /** The wait policy's naps, for every token wait of the program. */
    private final SimtNaps naps;

    SimtSyncContext(SimtAssembler asm, LockDataflowMapping mapping) {
        this.asm = asm;
        this.mapping = mapping;
        this.packed = mapping.tokens().storage() == TokenStorage.READY_BIT_BESIDE_VALUE;
        this.naps = new SimtNaps(asm, mapping.waitPolicy());
        this.polls = new SimtPollLoad(asm, asNvcc());
        this.atomics = new SharedAtomics(asm, mapping.target().sharedAtomicsAsLockLoops(), this::pause, polls);
    }

    /** Where a wait for one token begins: its first nap ({@link GpuWaits}); nothing for a spinning wait. */
    void napStart() {
        naps.start();
    }

    /**
     * Whether the tiles' loops are spelled as nvcc compiles the CUDA emitter's for independent thread scheduling (read
     * from the H200's SASS of the generated tiles), rather than as seed 001's hand-written Fermi SASS.
     */
    boolean asNvcc() {
        return !mapping.target().reconvergesWarps();
    }

    /** How the spin-locks take their mutex words, for the mapping's mutex. */
    SimtMutex mutex() {
        return new SimtMutex(this);
    }

    /** Before a wait loop branches back for the lanes in {@code guard}: their nap ({@link SimtNaps#pause}). */
    void pause(String guard) {
        naps.pause(guard);
    }

    SyncChannel channel(int c) {
        return mapping.channels().get(c);
    }

    int channels() {
        return mapping.channels().size();
    }

    boolean privateChannels() {
        return mapping.tokens().privateChannels();
    }

    int[] tokenBase() {
        return mapping.tokens().tokenBase();
    }

    /**
     * The producer's token word of channel c ({@code token}) or its data word (for a long or double, the pair's low
     * word), as this thread addresses it; {@code plus} bytes further.
     */
    String channelAddress(int c, boolean token, int plus) {
        SyncChannel channel = channel(c);
        if (token) {
            return SimtAssembler.address(sharedOffset, tokenBase()[channel.tokenArray()] - 4L * channel.threadDistance()
                    + plus);
        }
        int bytes = elementBytes(channel.producerField());
        return SimtAssembler.address(bytes == 8 ? wideSharedOffset : sharedOffset,
                mapping.dataBase()[channel.producerField()] - (long) bytes * channel.threadDistance() + plus);
    }

    String channelAddress(int c, boolean token) {
        return channelAddress(c, token, 0);
    }

    /** This thread's own word of a field's tile copy, by field. */
    String ownDataAddress(int field, long plus) {
        return SimtAssembler.address(elementBytes(field) == 8 ? wideSharedOffset : sharedOffset,
                (long) mapping.dataBase()[field] + plus);
    }

    /** The type of the field channel c carries. */
    dev.finegrain.dsl.Type channelType(int c) {
        return mapping.graph().field(channel(c).producerField()).type();
    }

    /** Bytes of one word of a field's tile copy: 8 for a packed state word ({@link #packed}), else the type's. */
    int elementBytes(int field) {
        return packed && mapping.graph().field(field).isState() ? 8 : GpuTarget.elementBytes(mapping.graph().field(field).type());
    }

    /** This thread's own word of a field's tile copy. */
    String ownDataAddress(IrActor actor) {
        return ownDataAddress(actor.writes(), 0);
    }

    /** The store of an actor's value to this thread's word of its field's tile copy (a pair for long and double). */
    String storeOwnData(IrActor actor, String value) {
        return "STS" + SimtAssembler.width(mapping.graph().field(actor.writes()).type()) + " " + ownDataAddress(actor)
                + ", " + value;
    }

    /** The token word of warp {@code warpsBack} before this thread's, in token array {@code array}. */
    String warpTokenAddress(int array, int warpsBack) {
        return SimtAssembler.address(warpOffset, tokenBase()[array] - 4L * warpsBack);
    }

    /** Whether token array {@code array} belongs to {@code actor}'s output. */
    boolean publishes(IrActor actor, int array) {
        if (privateChannels()) {
            return channel(array).channel().producer() == actor.id();
        }
        return mapping.graph().fields().stream().filter(f -> f.isState()).toList().get(array).id() == actor.writes();
    }
}
