package dev.finegrain.dsl;

/** A scalar given at run time. */
public record ParamSpec(String name, Type type, CallSite site) {
    @Override
    public String toString() {
        return "param " + name + ": " + type;
    }
}
