package dev.finegrain.compiler.compare;

import dev.finegrain.dsl.LockMechanism;

import java.util.List;

/**
 * Which lock mechanisms a comparison runs lock-dataflow with.
 *
 * <ul>
 *   <li>{@link #ownOrAll()}: the one the schedule or the kernel names, if either does; otherwise every mechanism each
 *       backend can use for the kernel.</li>
 *   <li>{@link #all()}: every mechanism each backend can use, whatever the kernel names.</li>
 *   <li>{@link #listed(List)}: exactly these; one that a backend cannot use for the kernel is a skipped row.</li>
 * </ul>
 * In a sweep over every mechanism, those a backend implements but cannot use for this kernel are left out and
 * named in one note, never dropped silently.
 */
public record MechanismChoice(Kind kind, List<LockMechanism> listed) {

    public enum Kind { OWN_OR_ALL, ALL, LISTED }

    public MechanismChoice {
        listed = List.copyOf(listed);
        if ((kind == Kind.LISTED) == listed.isEmpty()) {
            throw new IllegalArgumentException("a listed choice needs mechanisms, the others none: " + kind + " " + listed);
        }
    }

    public static MechanismChoice ownOrAll() {
        return new MechanismChoice(Kind.OWN_OR_ALL, List.of());
    }

    public static MechanismChoice all() {
        return new MechanismChoice(Kind.ALL, List.of());
    }

    public static MechanismChoice listed(List<LockMechanism> mechanisms) {
        return new MechanismChoice(Kind.LISTED, mechanisms.stream().distinct().toList());
    }

    public boolean isListed() {
        return kind == Kind.LISTED;
    }
}
