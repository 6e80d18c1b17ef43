package dev.finegrain.dsl;

import java.util.List;

/**
 * A field over the whole domain. An INPUT is given at run time, padded by {@code halo} cells on every side of
 * every dimension (so a stencil may read past the edges), and may be declared to fit a narrower {@link Storage}. A
 * STATE field is written by exactly one actor, one value per point, and its halo comes from its {@link Boundary}.
 *
 * <p>An input declared {@link Finegrain#along along} some dimensions is a sequence over those alone (a residue per row,
 * say): {@code along} names their indices in domain order, and a read gives one offset per named dimension. Empty
 * {@code along} means the whole domain, as for every state field.
 */
public record FieldSpec(String name, Type type, Role role, Boundary boundary, int halo, Storage storage, List<String> along,
                        CallSite site) {

    public FieldSpec {
        along = List.copyOf(along);
    }

    /** Whether the field spans only some of the domain's dimensions (an input declared {@code along} them). */
    public boolean isSequence() {
        return !along.isEmpty();
    }

    /** The indices of the dimensions the field spans, in domain order: {@code along}, or every dimension of {@code domain}. */
    public List<String> spannedIndices(List<Dimension> domain) {
        return isSequence() ? along : domain.stream().map(Dimension::index).toList();
    }

    public enum Role {
        INPUT,
        STATE
    }

    public boolean isInput() {
        return role == Role.INPUT;
    }

    public boolean isState() {
        return role == Role.STATE;
    }
}
