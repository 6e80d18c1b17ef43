package dev.finegrain.dsl;

/**
 * Passed to an actor's body callback, which runs once, when the actor is declared, and returns the body's
 * expression tree. Offers the reads and names an actor body uses; the same nodes as {@link Finegrain}'s
 * static factories, so a body may use either.
 */
public final class ActorContext {

    private final String actor;

    ActorContext(String actor) {
        this.actor = actor;
    }

    /** The actor being declared. */
    public String actor() {
        return actor;
    }

    /** The field's value at the current point plus {@code offset} (one component per dimension). */
    public Expr read(String field, int... offset) {
        return new Expr.Read(field, Expr.offsetList(offset), CallSite.capture());
    }

    /** The element of a lookup table at {@code indices}, one int per axis. */
    public Expr lookup(String table, Expr... indices) {
        return new Expr.Lookup(table, java.util.List.of(indices), CallSite.capture());
    }

    public Expr index(String name) {
        return new Expr.Index(name, CallSite.capture());
    }

    public Expr param(String name) {
        return new Expr.Param(name, CallSite.capture());
    }

    public Expr size(String name) {
        return new Expr.Size(name, CallSite.capture());
    }
}
