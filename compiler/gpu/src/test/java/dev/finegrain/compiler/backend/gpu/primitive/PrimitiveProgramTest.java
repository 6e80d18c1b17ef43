package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.gpu.DumpRange;
import dev.finegrain.gpu.MemoryInit;
import dev.finegrain.gpu.MemorySpace;
import dev.finegrain.gpu.SimMode;
import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimStatus;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every primitive keeps its guarantee on the model, in both divergence modes, under contention. */
class PrimitiveProgramTest {

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (SyncPrimitive primitive : SyncPrimitive.ALL) {
            for (String profile : List.of("fermi-gtx580", "hopper-h200")) {
                cases.add(Arguments.of(primitive.name(), profile, 1));
                if (primitive.kind() == PrimitiveKind.SEMAPHORE) {
                    cases.add(Arguments.of(primitive.name(), profile, 3));
                }
            }
        }
        return cases.stream();
    }

    @Test
    void aBarrierWaitingForBlocksThatCannotStartIsADeadlockReportNotAHang() {
        // fermi-gtx580 holds 16 SMs x 8 blocks: the 129th block waits for a slot the 128 waiting at the barrier never free
        for (SyncPrimitive barrier : List.of(SyncPrimitive.named("atomic-barrier").orElseThrow(),
                SyncPrimitive.named("xf-barrier").orElseThrow())) {
            PrimitiveProgram program = new PrimitiveProgram(barrier, 2, 1, false);
            SimResult result = SimtSimulator.run(SimRequest.builder(barrier.name() + ".sass", program.text())
                    .profile("fermi-gtx580").blocks(129).threads(PrimitiveProgram.THREADS_PER_BLOCK)
                    .sharedBytesPerBlock(128).globalBytes(PrimitiveLayout.GLOBAL_BYTES).build());
            assertEquals(SimStatus.DEADLOCK, result.status(), result.toTable());
            assertTrue(result.program().startsWith(barrier.name()), result.program());
        }
    }

    @ParameterizedTest(name = "{0} on {1}, capacity {2}")
    @MethodSource("cases")
    void keepsItsGuaranteeUnderContention(String name, String profile, int capacity) {
        SyncPrimitive primitive = SyncPrimitive.named(name).orElseThrow();
        int blocks = 24;
        PrimitiveProgram program = new PrimitiveProgram(primitive, 6, capacity, true);
        for (SimMode mode : SimMode.values()) {
            SimRequest.Builder request = SimRequest.builder(name + ".sass", program.text()).profile(profile)
                    .blocks(blocks).threads(PrimitiveProgram.THREADS_PER_BLOCK).mode(mode)
                    .globalBytes(PrimitiveLayout.GLOBAL_BYTES)
                    .dump(new DumpRange(MemorySpace.GLOBAL, 0, 0x200));
            program.initialWords().forEach((address, value) ->
                    request.init(new MemoryInit(MemorySpace.GLOBAL, address, new int[] {value})));
            SimResult result = SimtSimulator.run(request.build());
            assertEquals(SimStatus.COMPLETED, result.status(), () -> mode + ": " + result.toTable());
            assertEquals(0, result.word(MemorySpace.GLOBAL, -1, PrimitiveLayout.ERROR), mode + ": violations");
            assertEquals(program.expectedCount(blocks), result.word(MemorySpace.GLOBAL, -1, PrimitiveLayout.COUNTER),
                    mode + ": entries counted");
        }
    }
}
