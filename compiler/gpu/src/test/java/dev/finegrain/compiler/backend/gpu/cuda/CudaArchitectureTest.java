package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CudaArchitectureTest {

    @Test
    void eachArchitectureTakesItsOwnLimitsNotHoppersOrAmperes() {
        GpuTarget ada = CudaLowering.target("sm_89");
        assertEquals(128, ada.smCount());
        assertEquals(1536, ada.maxThreadsPerSm());
        assertEquals(24, ada.maxBlocksPerSm());
        assertEquals(99 * 1024, ada.sharedBytesPerBlockOptIn());
        GpuTarget turing = CudaLowering.target("sm_75");
        assertEquals(64 * 1024, turing.sharedBytesPerSm());
        assertEquals(1024, turing.maxThreadsPerSm());
        assertEquals(0, turing.reservedSharedBytesPerBlock());
        GpuTarget hopper = CudaLowering.target("sm_90");
        assertEquals(132, hopper.smCount());
        assertEquals(227 * 1024, hopper.sharedBytesPerBlockOptIn());
    }

    @Test
    void residencyCountsTheKilobyteTheHardwareKeepsInEveryBlock() {
        GpuTarget hopper = CudaLowering.target("sm_90");
        // two blocks of 113.5 KiB fill 227 KiB of the SM's 228, but each keeps 1 KiB more: only one is resident
        assertEquals(1, hopper.residentBlocksPerSm(96, 113 * 1024 + 512));
        assertEquals(2, hopper.residentBlocksPerSm(96, 113 * 1024));
        // threads bound where shared memory does not
        assertEquals(21, hopper.residentBlocksPerSm(96, 0));
        assertEquals(16, CudaLowering.target("sm_86").residentBlocksPerSm(32, 0));
    }

    @Test
    void anArchitectureWithoutKnownLimitsIsRefusedByNameNotGuessed() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new CudaBackend("sm_91"));
        assertEquals("'sm_91' is an architecture whose SM limits Finegrain does not know; use one of sm_75, sm_80, sm_86,"
                + " sm_87, sm_89, sm_90, sm_100, sm_120", refused.getMessage());
        assertTrue(new CudaBackend("sm_90a").target().dpx());
        assertEquals("sm_90a", new CudaBackend("sm_90a").target().name(), "the header's first line names what nvcc builds");
        IllegalArgumentException noAForm = assertThrows(IllegalArgumentException.class, () -> new CudaBackend("sm_80a"));
        assertEquals("'sm_80a' is not an architecture nvcc builds (only sm_90a, sm_100a and sm_120a have an a form); use sm_80",
                noAForm.getMessage());
        assertEquals("'sm_70' is older than nvcc 13 builds for; use sm_75 or newer (sm_90 for Hopper)",
                assertThrows(IllegalArgumentException.class, () -> new CudaBackend("sm_70")).getMessage());
    }
}
