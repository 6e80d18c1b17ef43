package dev.finegrain.compiler.resolve;

import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/**
 * Why a request has no variant: what stood in the way ({@code reason}), the target's or compiler's own words for it
 * ({@code detail}), the whole sentence a sweep row or a command shows ({@code message}), and the mechanism the skip is
 * about, where it is about one (the one asked for, or the default the resolver chose).
 */
public record Skip(Reason reason, String detail, String message, Optional<LockMechanism> mechanism) {

    public Skip(Reason reason, String detail, String message) {
        this(reason, detail, message, Optional.empty());
    }

    /** What stood in the way, in the order the resolver asks. */
    public enum Reason {
        /** The schedule cannot order this kernel at all (a tiling its dependences forbid, a tile of the wrong rank). */
        SCHEDULE_DOES_NOT_FIT_KERNEL,
        /** The target never runs this schedule, whatever the kernel (its machine cannot express it, or it would repeat another row). */
        TARGET_NEVER_RUNS_SCHEDULE,
        /** The target cannot run this kernel under this schedule with any mechanism. */
        TARGET_CANNOT_RUN_KERNEL,
        /** A mechanism was named for a schedule that synchronises with barriers only. */
        SCHEDULE_TAKES_NO_MECHANISM,
        /** No mechanism the target implements fits this kernel and schedule. */
        NO_MECHANISM_FITS,
        /** The mechanism asked for does not fit this kernel and schedule on the target. */
        MECHANISM_DOES_NOT_FIT,
        /** The schedule's tiles do not divide the size asked for. */
        TILES_DO_NOT_DIVIDE_SIZE,
        /** The size has more points than an array holds, and the target keeps a field in one under this schedule. */
        SIZE_BEYOND_ARRAYS
    }
}
