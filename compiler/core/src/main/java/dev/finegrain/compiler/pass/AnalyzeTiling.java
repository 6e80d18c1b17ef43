package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.Arrays;

/** Records whether rectangular tiles run in block-diagonal order respect every channel: legal exactly when no vector has a negative component; needs channels. */
public final class AnalyzeTiling implements Pass {

    @Override
    public String name() {
        return "analyze-tiling";
    }

    @Override
    public String contract() {
        return "Records whether rectangular tiles in block-diagonal order respect every channel (no negative component); needs channels.";
    }

    @Override
    public KernelGraph apply(KernelGraph graph) {
        return graph.channels().stream().map(IrChannel::vector)
                .filter(v -> Arrays.stream(v).anyMatch(c -> c < 0))
                .findFirst()
                .map(v -> graph.withTiling(new KernelGraph.Tiling(false, v.clone())))
                .orElseGet(() -> graph.withTiling(KernelGraph.Tiling.legalTiling()));
    }
}
