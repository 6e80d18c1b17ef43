package dev.finegrain.dsl;

/**
 * A field over the whole domain. An INPUT is given at run time, padded by {@code halo} cells on every side of
 * every dimension (so a stencil may read past the edges), and may be declared to fit a narrower {@link Storage}. A
 * STATE field is written by exactly one actor, one value per point, and its halo comes from its {@link Boundary}.
 */
public record FieldSpec(String name, Type type, Role role, Boundary boundary, int halo, Storage storage, CallSite site) {

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
