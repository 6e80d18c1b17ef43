package dev.finegrain.compiler.compare;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Fermi fit: a bisection to the value whose speed-up lands closest to the paper's cell. */
class FermiCalibrationTest {

    @Test
    void theFitFindsTheWholeValueClosestToThePapersSpeedup() {
        // a scheme whose link costs 100 + value cycles against 1000 for the atomic lock: 2.6x at value 284.6
        FermiCalibration.Fit fit = FermiCalibration.fit(FermiCalibration.FITTED.getFirst(), value -> 1000.0 / (100 + value)
                * 1.0);
        assertEquals(285, fit.value());
        assertEquals(2.6, fit.speedup(), 0.01);
        assertTrue(fit.steps().size() <= 14, fit.stepsText());
    }

    @Test
    void aSpeedupOutOfReachEndsAtTheEdgeOfTheRange() {
        FermiCalibration.Fit tooSlow = FermiCalibration.fit(FermiCalibration.FITTED.getFirst(), value -> 1.0);
        assertEquals(FermiCalibration.LOWEST, tooSlow.value());
        FermiCalibration.Fit tooFast = FermiCalibration.fit(FermiCalibration.FITTED.getLast(), value -> 9.0);
        assertEquals(FermiCalibration.HIGHEST, tooFast.value());
    }

    @Test
    void aProfileKeyIsReplacedAndRead() {
        String profile = "# comment latency.barrier=3\nlatency.barrier=20\nlatency.membar=50\n";
        String fitted = FermiCalibration.withValue(profile, "latency.barrier", 77);
        assertEquals("# comment latency.barrier=3\nlatency.barrier=77\nlatency.membar=50\n", fitted);
        assertEquals(77, FermiCalibration.valueIn(fitted, "latency.barrier"));
        assertThrows(IllegalArgumentException.class, () -> FermiCalibration.withValue(profile, "latency.vote", 1));
        assertEquals("calibrated on Li et al. Table 2, shrd lock", FermiCalibration.FITTED.getLast().mark());
    }
}
