package dev.finegrain.gpu.runtime;

import dev.finegrain.gpu.SimRequest;
import dev.finegrain.gpu.SimResult;
import dev.finegrain.gpu.SimtSimulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's three-parameter abstraction, as the cost model realizes it. */
class SimtCostModelTest {

    /** One thread per block adds 1 to a global word 100 times: the same word for all, or its own 256-byte line. */
    private static long atomicCycles(String profile, boolean contentious) {
        String address = contentious ? "MOV R2, RZ;" : "S2R R1, SR_CTAID.X; SHL R2, R1, 0x8;";
        String program = address + """
                MOV32I R5, 0x64;
                MOV32I R6, 0x1;
                loop: ATOM.ADD R3, [R2], R6;
                IADD R5, R5, -0x1;
                ISETP.NE.AND P0, pt, R5, RZ, pt;
                @P0 BRA loop;
                """;
        SimResult result = SimtSimulator.run(SimRequest.builder("atomics.sass", program).profile(profile)
                .blocks(64).threads(1).build());
        return result.kernelCycles();
    }

    @Test
    void contentiousAtomicsHurtTeslaFarMoreThanFermi() {
        double tesla = (double) atomicCycles("tesla-gtx295", true) / atomicCycles("tesla-gtx295", false);
        double fermi = (double) atomicCycles("fermi-gtx580", true) / atomicCycles("fermi-gtx580", false);
        assertTrue(fermi > 1.0, "contention costs on Fermi too: " + fermi);
        assertTrue(tesla > 5 * fermi, "Tesla " + tesla + " vs Fermi " + fermi);
    }

    @Test
    void onFermiAVolatileLoadQueuedBehindAtomicsIsServedAsAnAtomic() {
        SimtCostModel fermi = new SimtCostModel(SimtProfile.load("fermi-gtx580"));
        SimtCostModel tesla = new SimtCostModel(SimtProfile.load("tesla-gtx295"));
        SimtProfile f = fermi.profile();
        fermi.globalAccess(0, 0x40, true);
        assertEquals(f.atomicServiceCycles() + f.atomicServiceCycles() + f.globalLatency(),
                fermi.globalAccess(0, 0x44, false), "waits for the atomic, then is served as one");
        SimtProfile t = tesla.profile();
        tesla.globalAccess(0, 0x40, true);
        assertEquals(t.atomicServiceCycles() + t.volatileServiceCycles() + t.globalLatency(),
                tesla.globalAccess(0, 0x44, false), "waits for the atomic, then is served as a volatile");
    }

    @Test
    void hopperServesContendedAccessesInFractionsOfACycleAndAtomicsTakeTheirOwnLatency() {
        SimtCostModel hopper = new SimtCostModel(SimtProfile.load("hopper-h200"));
        assertEquals(2 + 473, hopper.globalAccess(0, 0x80, true), "1.46 cycles of service, waited in whole cycles");
        assertEquals(3 + 473, hopper.globalAccess(0, 0x84, true), "queued behind it: 2.92, so 3");
        assertEquals(5 + 473, hopper.globalAccess(0, 0x88, true), "4.38, so 5");
        assertEquals(1 + 280, hopper.globalAccess(0, 0x1000, false), "a volatile load elsewhere: 0.59 of service");
    }

    @Test
    void bankConflictsCountDistinctWordsInOneBank() {
        SimtCostModel costs = new SimtCostModel(SimtProfile.load("fermi-gtx570"));
        assertEquals(1, costs.bankConflictDegree(new int[] {0, 4, 8, 0}, 4), "a broadcast is no conflict");
        assertEquals(3, costs.bankConflictDegree(new int[] {0, 128, 256, 4}, 4), "stride of 32 words");
    }

    @Test
    void lockBitsLimitHowManyBlocksShareAnSm() {
        String validation = """
                S2R R3, SR_TID.X;
                SHL R5, R3, 0x2;
                LDSLK P0, RZ, [R5];
                STSUL [R5], RZ;
                """;
        SimRequest.Builder request = SimRequest.builder("v.sass", validation).blocks(45).threads(512);
        SimResult byLockBits = SimtSimulator.run(request.build());
        SimResult byThreads = SimtSimulator.run(request.lockBitsPerBlock(0).build());
        assertEquals(2L, byLockBits.resources().get("residentBlocksPerSm"), "1024 lock bits / 512 per block");
        assertEquals(3L, byThreads.resources().get("residentBlocksPerSm"), "1536 threads / 512 per block");
        assertTrue(byLockBits.kernelCycles() > byThreads.kernelCycles());
    }

    @Test
    void lockAddressesAliasEvery4096BytesAcrossBlocksOfOneSm() {
        SimtLockUnit locks = new SimtLockUnit(1024, 2);
        assertEquals(locks.lockAddress(0x40), locks.lockAddress(0x40 + 4096));
        assertEquals(locks.lockAddress(0x40) + 1, locks.lockAddress(0x44));
        SimtThread holder = new SimtThread(0, 0, 0);
        assertFalse(locks.isTaken(locks.lockAddress(0x40)));
        locks.take(locks.lockAddress(0x40), holder, 0x40);
        assertTrue(locks.isTaken(locks.lockAddress(0x1040)), "0x1040 aliases 0x40");
        assertEquals(holder, locks.holder(16));
    }
}
