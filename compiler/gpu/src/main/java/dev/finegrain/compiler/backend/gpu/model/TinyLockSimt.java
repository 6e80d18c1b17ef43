package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;

/**
 * Tiny-lock in the model ISA (seed 001 Listings 4, 15): LDSLK takes a lock bit (and, for a shared channel, the
 * producer's value with it), STSUL stores and frees it. Shared channels use the data words' own bits; private ones a
 * token word per channel, freed for good once the consumer fired. A long or double value is a pair of words: the lock
 * bit of its low word is the token, so the producer stores the high word with STS first and then the low word with
 * STSUL, and a consumer that took the bit with LDSLK loads the high word with LDS (the model is sequentially
 * consistent, so the high word is there once the bit is free).
 *
 * <p>On a machine without lock bits (the Hopper profiles) it takes CUDA's form there: a shared channel's token is a
 * ready bit beside the producer's 32-bit value in one 64-bit word, stored at once with the value and read with it in
 * one load; a consumer takes nothing, so nothing is restored. A private channel, and every channel of a kernel with a
 * long or double state (no room for the bit), takes a ready flag of its own: acquire-release's flags.
 */
public final class TinyLockSimt implements SimtSync {

    private static final AcquireReleaseSimt READY_FLAGS = new AcquireReleaseSimt();

    /** Whether the machine has no lock bits, so the tokens are words. */
    private static boolean words(SimtSyncContext cx) {
        return cx.mapping.target().lockBits() == 0;
    }

    /** Whether a token is a ready flag of its own (a private channel, or a long or double state), on such a machine. */
    private static boolean flags(SimtSyncContext cx) {
        return words(cx) && !cx.packed;
    }

    @Override
    public void initTokens(SimtSyncContext cx) {
        if (flags(cx)) {
            READY_FLAGS.initTokens(cx);
            return;
        }
        if (cx.packed) {
            cx.asm.comment("the ready bits were set with the copy: halo words ready, producers' words not yet");
            return;
        }
        cx.asm.comment("Lock (seed 001 Listing 4): producers take their own lock bits; halo words stay free");
        if (cx.privateChannels()) {
            for (int c = 0; c < cx.channels(); c++) {
                cx.asm.emit("P6", "LDSLK P0, RZ, " + SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[c]));
            }
        } else {
            cx.mapping.graph().fields().stream().filter(f -> f.isState()).forEach(field -> cx.asm.emit("P6",
                    "LDSLK P0, RZ, " + cx.ownDataAddress(field.id(), 0)));
        }
    }

    @Override
    public void tryTake(SimtSyncContext cx, int c, String have) {
        if (flags(cx)) {
            READY_FLAGS.tryTake(cx, c, have);
            return;
        }
        if (cx.packed) {
            String word = loadWord(cx, c);
            cx.asm.emit("!" + have, "ISETP.NE.AND " + have + ", PT, " + SimtAssembler.high(word) + ", RZ, PT   // its ready bit");
            return;
        }
        if (cx.privateChannels()) {
            cx.asm.emit("!" + have, "LDSLK " + have + ", RZ, " + cx.channelAddress(c, true));
            return;
        }
        String value = cx.asm.register(cx.channelType(c));
        cx.tokenValues.put(c, value);
        cx.asm.comment("as Listing 15: once held, the token is restored on every pass; the value is final,"
                + " so a second restore only frees a bit that no one needs held");
        cx.asm.emit("!" + have, "LDSLK " + have + ", " + value + ", " + cx.channelAddress(c, false));
        loadHighWord(cx, c, have, value);
        cx.asm.emit(have, "STSUL " + cx.channelAddress(c, false) + ", " + value + "   // restore the token");
    }

    @Override
    public void waitInTurn(SimtSyncContext cx, int c, String wait) {
        if (flags(cx)) {
            READY_FLAGS.waitInTurn(cx, c, wait);
            return;
        }
        if (cx.packed) {
            String word = loadWord(cx, c);
            cx.asm.emit("ISETP.EQ.AND P1, PT, " + SimtAssembler.high(word) + ", RZ, PT   // not ready yet");
            cx.pause("P1");
            cx.asm.emit("P1", "BRA " + wait);
            return;
        }
        if (cx.privateChannels()) {
            cx.asm.emit("LDSLK P1, RZ, " + cx.channelAddress(c, true) + "   // Waitlock");
        } else {
            String value = cx.asm.register(cx.channelType(c));
            cx.tokenValues.put(c, value);
            cx.asm.emit("LDSLK P1, " + value + ", " + cx.channelAddress(c, false) + "   // Waitlock");
            cx.pause("!P1");
            cx.asm.emit("!P1", "BRA " + wait);
            loadHighWord(cx, c, "PT", value);
            return;
        }
        cx.pause("!P1");
        cx.asm.emit("!P1", "BRA " + wait);
    }

    /** A fresh pair holding {@code value} in its low word and the ready bit ({@code one}) in its high word. */
    private static String readyWord(SimtAssembler asm, String value, String one) {
        String word = asm.pair();
        asm.emit("MOV " + word + ", " + value);
        asm.emit("MOV " + SimtAssembler.high(word) + ", " + one);
        return word;
    }

    /** The producer's 64-bit word of channel c, value and ready bit in one load; the value is the pair's low word. */
    private static String loadWord(SimtSyncContext cx, int c) {
        String word = cx.asm.pair();
        cx.polls.emit("PT", word, cx.channelAddress(c, false), true, "value and ready bit in one load");
        cx.tokenValues.put(c, word);
        return word;
    }

    /** A long or double value's high word, beside the low word whose lock bit {@code held} lanes took. */
    private static void loadHighWord(SimtSyncContext cx, int c, String held, String value) {
        if (SimtAssembler.isWide(cx.channelType(c))) {
            cx.asm.emit(held, "LDS " + SimtAssembler.high(value) + ", " + cx.channelAddress(c, false, 4)
                    + "   // the high word, beside the token's low word");
        }
    }

    @Override
    public void publish(SimtSyncContext cx, IrActor actor, String value) {
        if (flags(cx)) {
            READY_FLAGS.publish(cx, actor, value);
            return;
        }
        if (cx.packed) {
            String word = readyWord(cx.asm, value, cx.one);
            cx.asm.emit("MEMBAR.CTA   // a release store");
            cx.asm.emit("STS.64 " + cx.ownDataAddress(actor) + ", " + word + "   // store and unlock: value and ready bit in one store");
            return;
        }
        String own = cx.ownDataAddress(actor);
        if (!cx.privateChannels()) {
            if (SimtAssembler.isWide(cx.mapping.graph().field(actor.writes()).type())) {
                cx.asm.emit("STS " + cx.ownDataAddress(actor.writes(), 4) + ", " + SimtAssembler.high(value)
                        + "   // the high word first");
            }
            cx.asm.emit("STSUL " + own + ", " + value + "   // store and Unlock");
            return;
        }
        cx.asm.emit(cx.storeOwnData(actor, value));
        for (int c = 0; c < cx.channels(); c++) {
            if (cx.channel(c).channel().producer() == actor.id()) {
                cx.asm.emit("STSUL " + SimtAssembler.address(cx.sharedOffset, cx.tokenBase()[c]) + ", RZ   // Unlock");
            }
        }
    }

    @Override
    public void restore(SimtSyncContext cx, int c) {
        if (words(cx)) {
            return;   // a consumer of a ready word or flag took nothing
        }
        cx.asm.emit("STSUL " + cx.channelAddress(c, false) + ", " + cx.tokenValues.get(c) + "   // restore the token");
    }

    @Override
    public void finalizePrivate(SimtSyncContext cx, int c) {
        if (words(cx)) {
            return;
        }
        cx.asm.emit("STSUL " + cx.channelAddress(c, true) + ", RZ   // finalize: free the private bit");
    }

    // ---- band edges: a lock bit belongs to one SM and the bands hand tokens between blocks, so on every machine the
    // edge's token is the ready bit beside each value in one 64-bit word of global memory, as CUDA keeps it on GPUs
    // without lock bits; a long or double edge has no room for the bit and takes acquire-release's flags (the
    // mapping's choice)


    @Override
    public void bandWait(SimtBandContext cx, String last) {
        if (!cx.readyWords()) {
            READY_FLAGS.bandWait(cx, last);
        }
    }

    @Override
    public void bandLoadEdge(SimtBandContext cx, IrField field, String row, int slot, String target) {
        if (!cx.readyWords()) {
            cx.loadEdgeAfterToken(field, row, slot, target);
            return;
        }
        String address = cx.readyWordAddress(field, -1, cx.asm.constant(slot), row);
        String lap = cx.ring() ? cx.readyTag(row) : null;
        String word = cx.asm.pair();
        String spin = cx.asm.label("ready");
        cx.asm.place(spin);
        cx.asm.emit("LDG.64 " + word + ", " + SimtAssembler.address(address, 0) + "   // the value's own ready bit");
        cx.asm.emit(lap == null ? "ISETP.EQ.AND P5, PT, " + SimtAssembler.high(word) + ", RZ, PT"
                : "ISETP.NE.AND P5, PT, " + SimtAssembler.high(word) + ", " + lap + ", PT   // not this lap's value yet");
        cx.asm.emit("P5", "BRA " + spin);
        cx.asm.emit("MOV " + target + ", " + word);
    }

    @Override
    public void bandPublishValue(SimtBandContext cx, IrField field, String row, String value) {
        String address = cx.myReadyWord(field, row);
        String word = readyWord(cx.asm, value, cx.readyTag(row));
        cx.asm.emit("STG.64 " + SimtAssembler.address(address, 0) + ", " + word + "   // value and ready bit in one store");
    }

    @Override
    public void bandPublishToken(SimtBandContext cx, String token) {
        READY_FLAGS.bandPublishToken(cx, token);
    }
}
