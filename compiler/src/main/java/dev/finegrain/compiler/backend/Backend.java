package dev.finegrain.compiler.backend;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;

import java.util.List;

/**
 * Runs a compiled variant on some machine, real or modelled, and reports one metric. Backends translate the plan;
 * they hold no optimisation logic. Whoever calls a backend verifies its outputs against the oracle.
 */
public interface Backend {

    /** The name used on the command line, e.g. {@code reference}. */
    String name();

    /** The lock mechanisms it implements channels with; empty when it models sync points abstractly. */
    List<LockMechanism> mechanisms();

    BackendRun run(Variant variant, Invocation invocation, long seed);
}
