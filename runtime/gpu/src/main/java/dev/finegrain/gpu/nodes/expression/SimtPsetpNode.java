package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.CompilerDirectives.CompilationFinal;
import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtProfile;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code PSETP.op1[.op2] Pd, Pq, Pa, Pb, Pc}: {@code Pd = (Pa op1 Pb) op2 Pc}, {@code Pq = !(Pa op1 Pb) op2 Pc};
 * {@code op2} defaults to AND. Listing 15 uses {@code PSETP.AND.AND P2, pt, P3, P1, pt} for "both tokens ready".
 */
@NodeInfo(shortName = "PSETP")
public final class SimtPsetpNode extends SimtInstructionNode {
    private final SimtPredicateLogic first;
    private final SimtPredicateLogic second;
    private final int destination;
    private final int complement;
    @CompilationFinal(dimensions = 1) private final int[] sources;
    @CompilationFinal(dimensions = 1) private final boolean[] negated;
    private final int latency;

    public SimtPsetpNode(SimtInstruction instruction, SimtPredicateLogic first, SimtPredicateLogic second,
                         int destination, int complement, int[] sources, boolean[] negated, SimtProfile profile) {
        super(instruction);
        this.latency = profile.aluLatency();
        this.first = first;
        this.second = second;
        this.destination = destination;
        this.complement = complement;
        this.sources = sources;
        this.negated = negated;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        int combined = first.apply(read(warp, 0), read(warp, 1));
        int carried = read(warp, 2);
        warp.writePredicate(destination, active, second.apply(combined, carried));
        warp.writePredicate(complement, active, second.apply(~combined, carried));
        fallThrough(warp);
        return completed(warp, latency);
    }

    private int read(SimtWarp warp, int i) {
        int value = warp.predicate(sources[i]);
        return negated[i] ? ~value : value;
    }
}
