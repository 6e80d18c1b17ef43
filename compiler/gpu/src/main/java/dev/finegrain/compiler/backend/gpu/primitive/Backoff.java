package dev.finegrain.compiler.backend.gpu.primitive;

/**
 * Stuart and Owens' backoff (their §5, Algorithm 2): a waiter keeps an iteration count I, from {@link #MIN} to
 * {@link #MAX}; after each failed attempt it sleeps I time units, the time of one noncontentious volatile read, and
 * increments I, starting again from {@link #MIN} once past {@link #MAX}. The paper leaves the two bounds to compile
 * time and does not print them; 1 and 8 are Finegrain's choice: eight reads (about 2,200 to 3,500 cycles on the
 * profiles) is a few contended hand-offs, so a backing-off waiter is never away long.
 *
 * <p>A sleep of I units is I dependent reads of the block's private word: each read's address adds the word read
 * before (always 0), so a GPU cannot overlap them, and the word's line is the block's own.
 */
public final class Backoff {
    public static final int MIN = 1;
    public static final int MAX = 8;

    private Backoff() {
    }

    /** Sets up the count (R20 = I) once per program. */
    static void sassSetUp(SassText out) {
        out.line("MOV32I R20, " + SassText.hex(MIN));
    }

    /** One backoff: I dependent reads of the private word (R6), then the next I. */
    static void sass(SassText out, String prefix) {
        out.comment("backoff: I dependent reads of this block's own word, then I + 1 (back to " + MIN + " past " + MAX + ")");
        out.line("MOV R21, R20");
        out.line("MOV R23, R6");
        out.label(prefix + "_backoff");
        out.line("LDG R22, [R23]");
        out.line("IADD R23, R23, R22");
        out.line("IADD R21, R21, -0x1");
        out.line("ISETP.GT.AND P5, PT, R21, RZ, PT");
        out.line("@P5 BRA " + prefix + "_backoff");
        out.line("IADD R20, R20, 0x1");
        out.line("ISETP.GT.AND P5, PT, R20, " + SassText.hex(MAX) + ", PT");
        out.line("@P5 MOV32I R20, " + SassText.hex(MIN));
    }

    /** The same in CUDA: {@code backoff_i} is the waiter's count, {@code mine} its private word. */
    static String cuda() {
        return "fgp::backoff(backoff_i, mine);";
    }
}
