package dev.finegrain.samples;

import java.util.SplittableRandom;

/** Seeded input data shared by the samples: every generator is deterministic in its seed. */
final class SampleInputs {

    private SampleInputs() {}

    /** {@code length} residues drawn uniformly from [low, high], Rodinia-style. */
    static int[] residues(SplittableRandom random, int length, int low, int high) {
        int[] sequence = new int[length];
        for (int k = 0; k < length; k++) {
            sequence[k] = random.nextInt(low, high + 1);
        }
        return sequence;
    }

    static double[] uniform(SplittableRandom random, int length, double low, double high) {
        double[] values = new double[length];
        for (int k = 0; k < length; k++) {
            values[k] = random.nextDouble(low, high);
        }
        return values;
    }
}
