package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage;

/**
 * Tiny-lock on a GPU without lock bits: a shared channel's token is a ready bit beside the producer's 32-bit value in
 * one 64-bit word (bit 32), stored with release and read with acquire, so that one load brings token and value
 * together as LDSLK does (seed 001 Listing 4); a consumer takes nothing, so nothing is restored. A private channel has
 * a ready flag of its own. A kernel with a long or double state has no room for the bit beside its values, and the
 * mapping gives each value a ready word of its own ({@link TokenStorage#TOKEN_WORD}): the flags of
 * {@link AcquireReleaseCuda}.
 */
public final class TinyLockCuda implements CudaSync {

    private static final AcquireReleaseCuda READY_WORDS = new AcquireReleaseCuda();

    /** Whether a shared channel's token is a word of its own (a 64-bit state), not a bit beside the value. */
    private static boolean readyWords(CudaSyncContext cx) {
        return !cx.privateChannels() && cx.tokenStorage() == TokenStorage.TOKEN_WORD;
    }

    @Override
    public boolean packsStateWords(CudaSyncContext cx) {
        return !cx.privateChannels() && !readyWords(cx);
    }

    @Override
    public void initTokens(CudaSyncContext cx) {
        if (readyWords(cx)) {
            READY_WORDS.initTokens(cx);
            return;
        }
        if (cx.privateChannels()) {
            cx.out.comment("private channels: one ready flag per channel, set for halo words");
            for (int a = 0; a < cx.tokenArrays(); a++) {
                cx.out.line(CudaSyncContext.tokenArray(a) + "[t] = computes ? 0 : 1;");
            }
        } else {
            cx.out.comment("the ready bits were set with the copy: halo words ready, producers' words not yet");
        }
    }

    @Override
    public void tryTake(CudaSyncContext cx, int c, String have) {
        if (readyWords(cx)) {
            READY_WORDS.tryTake(cx, c, have);
            return;
        }
        if (cx.privateChannels()) {
            cx.out.line("if (!" + have + ") " + have + " = fg::load_acquire_cta(&" + cx.producerToken(c) + ") != 0;");
            return;
        }
        String word = cx.out.temporary("word");
        String value = cx.out.temporary("value");
        cx.tokenValues.put(c, value);
        cx.out.line("const fg::u64 " + word + " = fg::load_acquire_cta(&" + cx.producerWord(c) + ");");
        cx.out.line("if (!" + have + ") " + have + " = (" + word + " >> 32) != 0;");
        cx.out.line("const int " + value + " = (int) (unsigned) " + word + ";");
    }

    @Override
    public void waitInTurn(CudaSyncContext cx, int c) {
        if (readyWords(cx)) {
            READY_WORDS.waitInTurn(cx, c);
            return;
        }
        if (cx.privateChannels()) {
            cx.out.line(cx.waitWhile("fg::load_acquire_cta(&" + cx.producerToken(c) + ") == 0"));
            return;
        }
        String word = cx.out.temporary("word");
        String value = cx.out.temporary("value");
        cx.tokenValues.put(c, value);
        cx.out.line("fg::u64 " + word + ";");
        cx.out.line(cx.doWhile(word + " = fg::load_acquire_cta(&" + cx.producerWord(c) + ");", "(" + word + " >> 32) == 0"));
        cx.out.line("const int " + value + " = (int) (unsigned) " + word + ";");
    }

    @Override
    public void publish(CudaSyncContext cx, IrActor actor, String value) {
        if (readyWords(cx)) {
            READY_WORDS.publish(cx, actor, value);
            return;
        }
        if (!cx.privateChannels()) {
            cx.out.line("fg::store_release_cta(&" + cx.ownWord(actor) + ", (1ull << 32) | (unsigned) " + value + ");"
                    + "   // store and unlock");
            return;
        }
        cx.out.line(cx.ownWord(actor) + " = " + value + ";");
        for (int c = 0; c < cx.channels(); c++) {
            if (cx.channel(c).channel().producer() == actor.id()) {
                cx.out.line("fg::store_release_cta(&" + CudaSyncContext.tokenArray(c) + "[t], 1);   // unlock");
            }
        }
    }

    // ---- band edges: each edge value is a 64-bit word of its own with the ready bit beside it, so no fence is needed;
    // a long or double edge has no room for the bit, and takes the ready words of acquire-release (the mapping's choice)

    @Override
    public String bandTokenType(CudaBandContext cx) {
        return cx.readyWords() ? "fg::u64" : READY_WORDS.bandTokenType(cx);
    }

    @Override
    public void bandWait(CudaBandContext cx, String last, String seen) {
        if (!cx.readyWords()) {
            READY_WORDS.bandWait(cx, last, seen);
        }
    }

    @Override
    public void bandLoadEdge(CudaBandContext cx, IrField field, String row, String slot, String target) {
        if (!cx.readyWords()) {
            READY_WORDS.bandLoadEdge(cx, field, row, slot, target);
            return;
        }
        String word = cx.out.temporary("word");
        cx.out.line("fg::u64 " + word + ";");
        cx.out.line("do { " + word + " = fg::load_relaxed_gpu(&" + cx.readyWord(field, "band - 1", slot, row) + "); } while ("
                + cx.readyPending(word, row) + ");   // the value's own ready bit");
        cx.out.line(target + " = (int) (unsigned) " + word + ";");
    }

    @Override
    public void bandPublishValue(CudaBandContext cx, IrField field, String when, String slot, String value) {
        cx.out.line("fg::store_relaxed_gpu_if(" + when + ", &" + cx.readyWord(field, "band", slot, "i") + ", " + cx.readyTag("i")
                + " | (unsigned) " + value + ");   // value and ready bit in one predicated store");
    }

    @Override
    public void bandPublishToken(CudaBandContext cx, String token) {
        READY_WORDS.bandPublishToken(cx, token);
    }
}
