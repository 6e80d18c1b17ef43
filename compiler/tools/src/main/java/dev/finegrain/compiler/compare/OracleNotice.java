package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.plan.Domain;

import java.io.PrintWriter;

/**
 * The line a command prints before it computes the sequential oracle of a large size, which runs one point at a time
 * (about half a minute for 2^28 points on one core, minutes from 2^30 on), so that a user does not take the silence
 * for a hang.
 */
public final class OracleNotice {

    /** From this many points on, a command says that it is computing the oracle. */
    static final long SLOW_POINTS = 1L << 28;

    private OracleNotice() {}

    /** Says, on {@code progress} (none: nothing), that the oracle of {@code sizes} is being computed and for what. */
    public static void before(PrintWriter progress, int[] sizes, String purpose) {
        if (progress == null || Domain.pointCount(sizes) < SLOW_POINTS) {
            return;
        }
        progress.println("finegrain: computing the sequential oracle for size " + Domain.sizeText(sizes) + " ("
                + Domain.pointCount(sizes) + " points), " + purpose + ": one point at a time, minutes from 2^30 points on");
        progress.flush();
    }
}
