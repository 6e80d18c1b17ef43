package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.dsl.LockMechanism;

import java.util.Optional;

/** One compiled combination: kernel graph, lowered schedule, and the lock mechanism (absent for abstract backends). */
public record Variant(KernelGraph graph, ExecutionPlan plan, Optional<LockMechanism> mechanism) {}
