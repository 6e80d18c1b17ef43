package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.WavefrontPlan;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.DependenceMath;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Type;
import dev.finegrain.gpu.runtime.SimtProfile;

import java.util.Arrays;
import java.util.Optional;

/**
 * The entry to the GPU model's lowering: checks that a kernel fits the model ISA (32-bit integers, 1D or 2D
 * domains, dependences that point backwards in every dimension), then hands the plan to the schedule's lowering.
 */
public final class SimtLowering {

    private SimtLowering() {}

    /** Why the GPU model cannot run this kernel at all, if it cannot. */
    public static Optional<String> unsupportedKernel(KernelGraph graph) {
        if (graph.rank() > 2) {
            return Optional.of("the GPU model lowers 1D and 2D domains; " + graph.name() + " has " + graph.rank());
        }
        for (IrField field : graph.fields()) {
            if (field.type() != Type.INT) {
                return Optional.of("the GPU model's backend holds int fields only; field '" + field.name()
                        + "' of " + graph.name() + " is " + field.type());
            }
        }
        for (ParamSpec param : graph.kernel().params()) {
            if (!SimtAssembler.fitsRegister(param.type())) {
                return Optional.of("the GPU model ISA has 32-bit integer registers only; param '" + param.name()
                        + "' of " + graph.name() + " is " + param.type());
            }
        }
        for (IrChannel channel : graph.channels()) {
            if (Arrays.stream(channel.vector()).anyMatch(component -> component < 0)) {
                return Optional.of("the GPU model's tiles need dependences that point backwards in every dimension; "
                        + graph.name() + " has " + DependenceMath.format(channel.vector()) + " (" + channel.via() + ")");
            }
        }
        return graph.actors().stream().map(actor -> unsupportedExpression(actor.body())).flatMap(Optional::stream)
                .findFirst();
    }

    private static Optional<String> unsupportedExpression(IrExpr expr) {
        if (!SimtAssembler.fitsRegister(expr.type())) {
            return Optional.of("the GPU model ISA has 32-bit integer registers only; an expression is " + expr.type());
        }
        return switch (expr) {
            case IrExpr.Binary b when b.operator() == BinaryOperator.DIV
                    || b.operator() == BinaryOperator.REM ->
                    Optional.of("the GPU model ISA has no integer division (operator " + b.operator().symbol() + ")");
            case IrExpr.Binary b -> unsupportedExpression(b.left()).or(() -> unsupportedExpression(b.right()));
            case IrExpr.Unary u -> unsupportedExpression(u.operand());
            case IrExpr.Select s -> unsupportedExpression(s.condition()).or(() -> unsupportedExpression(s.whenTrue()))
                    .or(() -> unsupportedExpression(s.whenFalse()));
            case IrExpr.Cast c -> unsupportedExpression(c.operand());
            case IrExpr.Iterate it -> unsupportedExpression(it.count()).or(() -> unsupportedExpression(it.init()))
                    .or(() -> unsupportedExpression(it.body()));
            default -> Optional.empty();
        };
    }

    /**
     * Lowers {@code plan} for {@code sizes}: sizes are folded into the program as constants, params are read from
     * global memory. Throws {@link GpuLoweringException} when the variant cannot run on {@code profile}.
     */
    public static SimtKernel lower(ExecutionPlan plan, Optional<LockMechanism> mechanism, SimtProfile profile,
                                   int[] sizes) {
        KernelGraph graph = plan.graph();
        unsupportedKernel(graph).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        GlobalLayout layout = new GlobalLayout(graph, sizes);
        return lower(plan, mechanism, profile, layout);
    }

    static SimtKernel lower(ExecutionPlan plan, Optional<LockMechanism> mechanism, SimtProfile profile,
                            GlobalLayout layout) {
        KernelGraph graph = plan.graph();
        return switch (plan) {
            case WavefrontPlan wavefront -> WavefrontSimt.lower(graph, wavefront, profile, layout);
            case DataParallelPlan dataParallel -> DataParallelSimt.lower(graph, dataParallel, profile, layout);
            case DataflowPlan dataflow -> LockDataflowSimt.lower(graph, dataflow, mechanism.orElseThrow(() ->
                    new GpuLoweringException("lock-dataflow on the GPU model needs a lock mechanism")), profile, layout);
        };
    }
}
