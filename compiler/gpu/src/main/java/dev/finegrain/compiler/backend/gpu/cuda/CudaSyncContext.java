package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.GpuWaits;
import dev.finegrain.compiler.backend.gpu.LockDataflowMapping;
import dev.finegrain.compiler.backend.gpu.SyncChannel;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;

import java.util.HashMap;
import java.util.Map;

/**
 * What a mechanism's {@link CudaSync} spelling reads and writes while {@link CudaLockDataflow} writes a kernel: the
 * writer, the mapping, and the names of the tile's shared arrays and of this thread's variables.
 */
public final class CudaSyncContext {

    final CudaWriter out;
    final LockDataflowMapping mapping;
    /** Tiny-lock's shared channels: the local each channel's read of the producer's word left its value in. */
    final Map<Integer, String> tokenValues = new HashMap<>();

    CudaSyncContext(CudaWriter out, LockDataflowMapping mapping) {
        this.out = out;
        this.mapping = mapping;
    }

    /**
     * A loop that waits while {@code condition} holds (the token is not there yet), as the mapping's wait policy
     * spells it ({@link GpuWaits}): an empty spin; a nap that doubles from look to look; or a fixed nap.
     */
    String waitWhile(String condition) {
        return switch (mapping.waitPolicy()) {
            case BACKOFF -> "for (unsigned nap = " + GpuWaits.FIRST_NAP_NS + "u; " + condition + "; nap = fg::nap(nap, "
                    + GpuWaits.MAX_NAP_NS + "u)) { }";
            case SLEEP -> "while (" + condition + ") { __nanosleep(" + GpuWaits.SLEEP_NS + "u); }";
            case ADAPTIVE, SPIN -> "while (" + condition + ") { }";
        };
    }

    /**
     * A loop that runs {@code body} (a statement that loads the token) and looks again while {@code condition} holds,
     * as the mapping's wait policy spells it: {@code do ... while} when it spins, a nap between looks otherwise.
     */
    String doWhile(String body, String condition) {
        return switch (mapping.waitPolicy()) {
            case BACKOFF -> "for (unsigned nap = " + GpuWaits.FIRST_NAP_NS + "u;; nap = fg::nap(nap, " + GpuWaits.MAX_NAP_NS
                    + "u)) { " + body + " if (!(" + condition + ")) break; }";
            case SLEEP -> "for (;;) { " + body + " if (!(" + condition + ")) break; __nanosleep(" + GpuWaits.SLEEP_NS + "u); }";
            case ADAPTIVE, SPIN -> "do { " + body + " } while (" + condition + ");";
        };
    }

    /** How the spin-locks take their mutex words, for the mapping's mutex. */
    CudaMutex mutex() {
        return new CudaMutex(mapping.mutex());
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

    /** Where the mapping keeps a channel's token. */
    dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage tokenStorage() {
        return mapping.tokens().storage();
    }

    /** Token arrays with words of their own ({@code tok0}, {@code tok1}, ...). */
    int tokenArrays() {
        return mapping.tokens().tokenBase().length;
    }

    static String tokenArray(int array) {
        return "tok" + array;
    }

    /** The tile copy of a field in shared memory. */
    String tile(int field) {
        return "s_" + CudaNames.member(mapping.graph().field(field).name());
    }

    /** The producer's token word of channel c, as this thread addresses it. */
    String producerToken(int c) {
        return tokenArray(channel(c).tokenArray()) + "[t - " + channel(c).threadDistance() + "]";
    }

    /** The producer's word of channel c in the tile of the field it writes. */
    String producerWord(int c) {
        return tile(channel(c).producerField()) + "[t - " + channel(c).threadDistance() + "]";
    }

    /** This thread's own word in the tile of the field {@code actor} writes. */
    String ownWord(IrActor actor) {
        return tile(actor.writes()) + "[t]";
    }

    /** The producer warp's token word of channel c, {@code warpsBack} warps before this thread's. */
    String warpToken(int c, int warpsBack) {
        return tokenArray(channel(c).tokenArray()) + "[warp - " + warpsBack + "]";
    }

    /** Whether token array {@code array} belongs to {@code actor}'s output. */
    boolean publishes(IrActor actor, int array) {
        if (privateChannels()) {
            return channel(array).channel().producer() == actor.id();
        }
        return mapping.graph().fields().stream().filter(IrField::isState).toList().get(array).id() == actor.writes();
    }
}
