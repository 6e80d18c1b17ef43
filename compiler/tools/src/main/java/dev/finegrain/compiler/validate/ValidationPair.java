package dev.finegrain.compiler.validate;

/**
 * One variant measured on a real GPU beside the model's time for it: a kernel at one size under one schedule and
 * lock mechanism. {@code modelUs} is NaN when the model did not run the variant, and {@code note} then says why.
 *
 * @param realSpread the relative spread of the real timed runs, (slowest - fastest) / median, or NaN if unknown
 */
public record ValidationPair(String kernel, String size, String schedule, String mechanism, double realUs,
                             double realSpread, double modelUs, String note) {

    /** Whether both a real and a modelled time exist, so that the row is a data point. */
    public boolean compared() {
        return !Double.isNaN(realUs) && !Double.isNaN(modelUs) && realUs > 0;
    }

    /** Modelled time over real time. */
    public double ratio() {
        return modelUs / realUs;
    }

    /** |modelled / real - 1|, the row's error. */
    public double error() {
        return Math.abs(ratio() - 1);
    }

    /** The variant as a report names it: the schedule, with the mechanism for lock-dataflow. */
    public String variant() {
        return mechanism.equals("-") ? schedule : schedule + " " + mechanism;
    }
}
