package dev.finegrain.compiler.backend.gpu.model;

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
    /** Warp mechanisms: this thread's warp, and the warp's byte offset in a warp-token array. */
    String warp;
    String warpOffset;

    SimtSyncContext(SimtAssembler asm, LockDataflowMapping mapping) {
        this.asm = asm;
        this.mapping = mapping;
        this.atomics = new SharedAtomics(asm, mapping.target().sharedAtomicsAsLockLoops());
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

    /** The producer's token word of channel c ({@code token}) or its data word, as this thread addresses it. */
    String channelAddress(int c, boolean token) {
        SyncChannel channel = channel(c);
        int base = token ? tokenBase()[channel.tokenArray()] : mapping.dataBase()[channel.producerField()];
        return SimtAssembler.address(sharedOffset, base - 4L * channel.threadDistance());
    }

    /** This thread's own word of a field's tile copy. */
    String ownDataAddress(IrActor actor) {
        return SimtAssembler.address(sharedOffset, mapping.dataBase()[actor.writes()]);
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
