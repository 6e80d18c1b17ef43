package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.BackendRun;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import dev.finegrain.compiler.plan.ExecutionPlan;
import dev.finegrain.compiler.plan.SchedulePlanner;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 003's lock-box on the GPU model: lock-dataflow with the lock-box mechanism on a profile that has the unit
 * matches the oracle in both divergence modes, release prediction shortens the hand-offs, and a machine without the
 * unit says so.
 */
class LockBoxOnTheModelTest {

    private static final List<String> PROFILES = List.of("fermi-gtx570@feature.lockBox=true",
            "hopper-h200@feature.lockBox=true", "fermi-gtx570@feature.lockBox=true@lockBox.releasePrediction=true");

    @Test
    void everyGoldenKernelTheModelMapsMatchesTheOracleUnderTheLockBoxInBothModes() {
        List<String> ran = new ArrayList<>();
        for (Kernel kernel : GoldenKernels.all().values()) {
            if (kernel.rank() > 2) {
                continue;
            }
            KernelGraph graph = Pipeline.compile(kernel);
            ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
            int[] sizes = kernel.rank() == 1 ? new int[] {100} : new int[] {40, 36};
            Invocation invocation = inputs(kernel, sizes);
            KernelOutputs oracle = SequentialOracle.run(graph, invocation);
            for (String profile : PROFILES) {
                GpuModelBackend backend = new GpuModelBackend(profile);
                if (backend.unsupportedKernel(plan).or(() -> backend.unsupported(plan, LockMechanism.LOCK_BOX)).isPresent()) {
                    continue;
                }
                BackendRun run = backend.run(new Variant(graph, plan, Optional.of(LockMechanism.LOCK_BOX)), invocation,
                        RunSettings.once(1, 1));
                assertEquals(Optional.empty(), run.failure(), kernel.name() + " on " + profile);
                assertEquals(Optional.empty(), oracle.firstDifference(graph, sizes, run.outputs()), kernel.name() + " on " + profile);
                ran.add(kernel.name() + " " + profile);
            }
        }
        assertTrue(ran.stream().anyMatch(r -> r.startsWith("nw fermi")) && ran.stream().anyMatch(r -> r.startsWith("nw hopper")),
                "Needleman-Wunsch ran in both modes: " + ran);
    }

    /**
     * Seed 001's validation chain, element i after element i-32: every warp waits for the one before it, so the
     * hand-offs are the critical path and each is 6 cycles shorter with release prediction. (On Needleman-Wunsch the
     * grants are not the critical path: prediction moves its cycles by well under 1 %, either way.)
     */
    @Test
    void releasePredictionShortensAChainOfHandOffs() {
        Kernel chain = dev.finegrain.dsl.Finegrain.kernel("warp-chain").domain(dev.finegrain.dsl.Finegrain.dim("i", "n"))
                .input("x", dev.finegrain.dsl.Type.INT)
                .state("a", dev.finegrain.dsl.Type.INT, dev.finegrain.dsl.Finegrain.boundary(dev.finegrain.dsl.Finegrain.constant(0)))
                .actor("add", "a", a -> a.read("a", -32).plus(a.read("x", 0))).build();
        KernelGraph graph = Pipeline.compile(chain);
        ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
        Invocation invocation = inputs(chain, new int[] {1024});
        double plain = new GpuModelBackend(PROFILES.get(0)).run(new Variant(graph, plan, Optional.of(LockMechanism.LOCK_BOX)),
                invocation, RunSettings.once(1, 1)).value();
        double predicted = new GpuModelBackend(PROFILES.get(2)).run(new Variant(graph, plan, Optional.of(LockMechanism.LOCK_BOX)),
                invocation, RunSettings.once(1, 1)).value();
        // 32 warps, 31 hand-offs on the critical path, each 15 - 9 cycles shorter; the scheduler may shave a little off
        assertTrue(predicted < plain && plain - predicted <= 31 * (15 - 9),
                "9-cycle grants against 15: " + predicted + " against " + plain + " cycles");
    }

    @Test
    void aMachineWithoutTheUnitSaysHowToGetIt() {
        KernelGraph graph = Pipeline.compile(GoldenKernels.needlemanWunsch());
        ExecutionPlan plan = SchedulePlanner.plan(graph, lockDataflow());
        assertEquals(Optional.of("lock-box needs a lock-box unit, which profile fermi-gtx570 does not have (no real GPU has"
                        + " one); on the model, set the feature: gpu-model:PROFILE@feature.lockBox=true"),
                new GpuModelBackend("fermi-gtx570").unsupported(plan, LockMechanism.LOCK_BOX));
        assertEquals(Optional.of("lock-box needs a lock-box unit, which sm_90 does not have (no real GPU has one); on the"
                        + " model, set the feature: gpu-model:PROFILE@feature.lockBox=true"),
                new CudaBackend("sm_90").unsupported(plan, LockMechanism.LOCK_BOX));
    }

    private static Invocation inputs(Kernel kernel, int[] sizes) {
        return GoldenKernels.randomInputs(kernel, sizes, 5);
    }
}
