package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.internal.DependenceMath;

import java.util.Map;
import java.util.function.Function;

/**
 * The operands of one point's actors, as every schedule's lowering supplies them: index registers, param
 * registers loaded once, a field this point's earlier actors already produced (a register), and otherwise the
 * schedule's own way to read a field ({@code memory}: shared tile, global memory, or a token's value).
 */
record PointOperands(String[] point, Map<Integer, String> params, Map<Integer, String> produced,
                     Function<IrExpr.Load, String> memory) implements SimtExpressions.Operands {

    @Override
    public String index(int dimension) {
        return point[dimension];
    }

    @Override
    public String param(int param) {
        return params.get(param);
    }

    @Override
    public String load(IrExpr.Load load) {
        if (DependenceMath.isZero(load.offset()) && produced.containsKey(load.field())) {
            return produced.get(load.field());
        }
        return memory.apply(load);
    }
}
