package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Dimension;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;

import java.util.List;
import java.util.Optional;

/**
 * How many points a run may have. Backends hold fields in int-indexed arrays padded by halos, so an array over the
 * domain holds at most {@link #MAX_ARRAY_POINTS}. A kernel that reads its inputs along fewer dimensions (sequences)
 * and keeps every state field in part needs no array over the domain where a run folds every field: the oracle does,
 * and so do the JVM's spsc-ring rings of rows and a GPU mapping that folds them ({@link Backend#foldsEveryField}); such
 * a run may go beyond, each extent an int and the points numbered by a long.
 */
public final class DomainLimits {

    /** Points an array over the domain may hold: 2^30, which leaves room for the halos below 2^31 elements. */
    public static final long MAX_ARRAY_POINTS = 1L << 30;

    private DomainLimits() {}

    /** Whether a run at {@code sizes} has more points than an array over the domain holds. */
    public static boolean beyondArrays(int[] sizes) {
        return Domain.pointCount(sizes) > MAX_ARRAY_POINTS;
    }

    /**
     * Why no run of {@code kernel} at {@code sizes} can hold what it must, if none can: an input spans more points than
     * an array holds, or the run goes beyond arrays and the kernel keeps a state field whole, which every run must
     * then return.
     */
    public static Optional<String> tooLarge(Kernel kernel, int[] sizes) {
        List<Dimension> domain = kernel.domain();
        String size = Domain.sizeText(sizes);
        for (int extent : sizes) {
            if (extent > MAX_ARRAY_POINTS) {
                return Optional.of("size " + size + " has an extent of " + extent + ", more than a row of an array holds with its"
                        + " halo (" + MAX_ARRAY_POINTS + "); choose smaller extents");
            }
        }
        for (FieldSpec field : kernel.fields()) {
            if (!field.isInput()) {
                continue;
            }
            long points = 1;
            for (String index : field.spannedIndices(domain)) {
                for (int d = 0; d < domain.size(); d++) {
                    if (domain.get(d).index().equals(index)) {
                        points *= sizes[d];
                    }
                }
            }
            if (points > MAX_ARRAY_POINTS) {
                return Optional.of("input '" + field.name() + "' of kernel '" + kernel.name() + "' spans " + points + " points at size "
                        + size + ", more than an array holds (" + MAX_ARRAY_POINTS + "); choose smaller extents, or read the"
                        + " input along fewer dimensions (along(...))");
            }
        }
        if (beyondArrays(sizes)) {
            for (FieldSpec field : kernel.fields()) {
                if (field.isState() && kernel.keep(field.name()) == Keep.ALL) {
                    return Optional.of("size " + size + " has " + Domain.pointCount(sizes) + " points and kernel '" + kernel.name()
                            + "' keeps state field '" + field.name() + "' whole, more than an array holds (" + MAX_ARRAY_POINTS
                            + "); choose smaller extents, or keep the field in part (keep(LAST_ROW), keep(FINAL), ...)");
                }
            }
        }
        return Optional.empty();
    }

    /** Why {@code backend}, which indexes the domain with ints under the variant's schedule, cannot run a size beyond arrays. */
    public static String beyondArraysOn(String backend, int[] sizes) {
        return "size " + Domain.sizeText(sizes) + " has " + Domain.pointCount(sizes) + " points, more than an int-indexed array over"
                + " the domain holds (" + MAX_ARRAY_POINTS + "), and backend '" + backend + "' indexes the domain with ints under"
                + " this schedule and mechanism; run it on the jvm under lock-dataflow with spsc-ring, or on cuda under lock-dataflow:persistent,"
                + " which hold no array over the domain for a kernel that keeps every state field in part";
    }
}
