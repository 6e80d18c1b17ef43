package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.dsl.WaitPolicy;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
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
    final LockDataflowMapping mapping;
    /** Tiny-lock's shared channels: the register each channel's LDSLK loaded the producer's value into. */
    final Map<Integer, String> tokenValues = new HashMap<>();
    /** Registers the prologue sets: thread id, the constant 1, this thread's byte offset in every shared array. */
    String tid;
    String one;
    String sharedOffset;
    /** This thread's byte offset in the tile copies of 8-byte fields (twice sharedOffset), when the kernel has some. */
    String wideSharedOffset;
    /** Warp mechanisms: this thread's warp, and the warp's byte offset in a warp-token array. */
    String warp;
    String warpOffset;

    /** The wait policy's nap, in nanoseconds, when it naps; allocated by the first {@link #napStart}. */
    private String nap;

    SimtSyncContext(SimtAssembler asm, LockDataflowMapping mapping) {
        this.asm = asm;
        this.mapping = mapping;
        this.atomics = new SharedAtomics(asm, mapping.target().sharedAtomicsAsLockLoops(), this::pause);
    }

    /** Where a wait for one token begins: its first nap ({@link GpuWaits}); nothing for a spinning wait. */
    void napStart() {
        WaitPolicy policy = mapping.waitPolicy();
        if (!GpuWaits.naps(policy)) {
            return;
        }
        if (nap == null) {
            nap = asm.register();
        }
        asm.emit("MOV32I " + nap + ", " + SimtAssembler.immediate(policy == WaitPolicy.BACKOFF ? GpuWaits.FIRST_NAP_NS
                : GpuWaits.SLEEP_NS) + "   // the wait's first nap, ns");
    }

    /** How the spin-locks take their mutex words, for the mapping's mutex. */
    SimtMutex mutex() {
        return new SimtMutex(this);
    }

    /**
     * Before a wait loop branches back for the lanes in {@code guard}: they sleep their nap, and a backing-off wait
     * doubles it up to the most (min(2 nap, most) in integer operations, since every predicate may be in use here);
     * nothing for a spinning wait.
     */
    void pause(String guard) {
        WaitPolicy policy = mapping.waitPolicy();
        if (!GpuWaits.naps(policy)) {
            return;
        }
        asm.emit(guard, "NANOSLEEP " + nap);
        if (policy == WaitPolicy.BACKOFF) {
            String below = asm.register();
            String doubled = asm.register();
            asm.emit(guard, "IADD " + below + ", " + nap + ", " + SimtAssembler.immediate(-GpuWaits.MAX_NAP_NS / 2));
            asm.emit(guard, "SHR " + below + ", " + below + ", 0x1f   // -1 while the nap is under half the most");
            asm.emit(guard, "SHL " + doubled + ", " + nap + ", 0x1");
            asm.emit(guard, "LOP.AND " + doubled + ", " + doubled + ", " + below);
            asm.emit(guard, "LOP.XOR " + below + ", " + below + ", -0x1");
            asm.emit(guard, "LOP.AND " + below + ", " + below + ", " + SimtAssembler.immediate(GpuWaits.MAX_NAP_NS));
            asm.emit(guard, "LOP.OR " + nap + ", " + doubled + ", " + below + "   // the next nap");
        }
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
    String ownDataAddress(int field, int plus) {
        return SimtAssembler.address(elementBytes(field) == 8 ? wideSharedOffset : sharedOffset,
                (long) mapping.dataBase()[field] + plus);
    }

    /** The type of the field channel c carries. */
    dev.finegrain.dsl.Type channelType(int c) {
        return mapping.graph().field(channel(c).producerField()).type();
    }

    private int elementBytes(int field) {
        return GpuTarget.elementBytes(mapping.graph().field(field).type());
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
