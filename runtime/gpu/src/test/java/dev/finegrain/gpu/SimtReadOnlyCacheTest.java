package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LDG.CONSTANT (CUDA's __ldg) through an SM's read-only cache: a second read of a line the cache holds costs
 * {@code latency.readOnlyHit}, a first read a plain load's; plain loads neither use it nor fill it; a profile without
 * the cache serves LDG.CONSTANT as a plain load; the value read is memory's either way.
 */
class SimtReadOnlyCacheTest {

    /** Loads word 0x80 twice, the second load's result used at once, and stores it at word 0. */
    private static String twice(String first, String second) {
        return "MOV32I R1, 0x80;\n" + first + " R2, [R1];\nIADD R2, R2, 0x1;\n" + second + " R3, [R1];\nIADD R3, R3, R2;\n"
                + "STG [RZ], R3;\n";
    }

    @Test
    void aSecondReadOfAHeldLineCostsTheHitLatency() {
        SimtProfile profile = SimtProfile.load("hopper-h200");
        long plain = kernelCycles("hopper-h200", twice("LDG", "LDG"));
        long cached = kernelCycles("hopper-h200", twice("LDG.CONSTANT", "LDG.CONSTANT"));
        // a plain load of an idle line: the L2's latency and the line's service time, rounded up to a cycle
        long plainLoad = profile.globalLatency() + (long) Math.ceil(profile.volatileServiceCycles());
        assertEquals(plainLoad - profile.readOnlyHitLatency(), plain - cached, "the second load hits: " + plain + " against "
                + cached + " cycles");
        // a plain load leaves nothing in the cache, and a read-only load does not fill it for a plain one
        assertEquals(plain, kernelCycles("hopper-h200", twice("LDG", "LDG.CONSTANT")));
        assertEquals(plain, kernelCycles("hopper-h200", twice("LDG.CONSTANT", "LDG")));
        // without the cache, LDG.CONSTANT is a plain load
        assertEquals(plain, kernelCycles("hopper-h200@cache.readOnlyLines=0", twice("LDG.CONSTANT", "LDG.CONSTANT")));
        assertEquals(kernelCycles("fermi-gtx570", twice("LDG", "LDG")), kernelCycles("fermi-gtx570", twice("LDG.CONSTANT", "LDG.CONSTANT")));
    }

    /** A cache of one line holds the last line read: reading another line in between evicts it. */
    @Test
    void theLeastRecentlyUsedLineLeavesAFullCache() {
        String evicting = "MOV32I R1, 0x80;\nLDG.CONSTANT R2, [R1];\nLDG.CONSTANT R4, [R1+0x80];\nIADD R2, R2, R4;\n"
                + "LDG.CONSTANT R3, [R1];\nIADD R3, R3, R2;\nSTG [RZ], R3;\n";
        long two = kernelCycles("hopper-h200@cache.readOnlyLines=2", evicting);
        long one = kernelCycles("hopper-h200@cache.readOnlyLines=1", evicting);
        assertTrue(one > two, "with one line the third load misses: " + one + " against " + two + " cycles");
    }

    @Test
    void theValueIsMemorysEitherWay() {
        GlobalMemory memory = new GlobalMemory(0x200);
        memory.writeWord(0x80, 41);
        SimResult result = SimtSimulator.run(SimRequest.builder("ro.sass", twice("LDG.CONSTANT", "LDG.CONSTANT"))
                .profile("hopper-h200").threads(1).globalMemory(memory).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        assertEquals(41 + 42, memory.read(0, 1)[0]);
    }

    private static long kernelCycles(String profile, String program) {
        SimResult result = SimtSimulator.run(SimRequest.builder("ro.sass", program).profile(profile).threads(1)
                .globalMemory(new GlobalMemory(0x200)).build());
        assertEquals(SimStatus.COMPLETED, result.status(), result.toString());
        return result.kernelCycles();
    }
}
