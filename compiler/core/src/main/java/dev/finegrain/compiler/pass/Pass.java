package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.KernelGraph;

/** A stateless transformation or analysis of the IR, with a one-sentence contract. */
public interface Pass {

    String name();

    /** What it does, what it needs, what it guarantees. */
    String contract();

    KernelGraph apply(KernelGraph graph);
}
