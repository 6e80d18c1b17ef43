package dev.finegrain.dsl;

/** What a kernel keeps of state field {@code field} ({@link Kernel.Builder#keep}). */
public record KeepSpec(String field, Keep keep, CallSite site) {}
