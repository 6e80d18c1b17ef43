package dev.finegrain.compiler.validate;

import java.util.List;

/**
 * The compared variants of one kernel at one size, fastest first by the real GPU ({@code realOrder}) and by the model
 * ({@code modelOrder}), with the statistics the report judges them by.
 *
 * @param kendallTau    Kendall's tau-a between the two orders: 1 for the same order, -1 for the reverse
 * @param realMargin    how much slower the real second-fastest variant is than the real winner, relative
 */
public record ValidationGroup(String kernel, String size, List<ValidationPair> realOrder, List<ValidationPair> modelOrder,
                              double kendallTau, double realMargin) {

    public ValidationGroup {
        realOrder = List.copyOf(realOrder);
        modelOrder = List.copyOf(modelOrder);
    }

    public ValidationPair realWinner() {
        return realOrder.getFirst();
    }

    public ValidationPair modelWinner() {
        return modelOrder.getFirst();
    }

    /** Whether the model picks the variant the real GPU ran fastest. */
    public boolean sameWinner() {
        return realWinner().variant().equals(modelWinner().variant());
    }

    /**
     * Whether the model's pick, though another variant than the real winner, ran on the GPU within the timed runs'
     * spread of the winner (its real time at most the larger of the two rows' spreads above the winner's): a near tie,
     * which no model can be asked to break. False where a spread is unknown.
     */
    public boolean nearTie() {
        return !sameWinner() && !Double.isNaN(pickSpread()) && pickMargin() <= pickSpread();
    }

    /** How much slower the model's pick ran on the GPU than the real winner, relative. */
    public double pickMargin() {
        return modelWinner().realUs() / realWinner().realUs() - 1;
    }

    /** The larger of the real winner's and the model's pick's spreads (NaN where one is unknown). */
    public double pickSpread() {
        return Math.max(realWinner().realSpread(), modelWinner().realSpread());
    }

    /** Whether the model picks the real winner, or a variant in a near tie with it ({@link #nearTie}). */
    public boolean winnerOrTie() {
        return sameWinner() || nearTie();
    }

    /** Whether the model orders every variant exactly as the real GPU does. */
    public boolean sameOrder() {
        for (int v = 0; v < realOrder.size(); v++) {
            if (!realOrder.get(v).variant().equals(modelOrder.get(v).variant())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The variant of the two winners whose modelled/real ratio lies further from the group's median ratio, in log
     * terms: the one the model mis-costs relative to the rest, so the one a wrong pick points to.
     */
    public ValidationPair misCosted(double medianRatio) {
        double real = Math.abs(Math.log(realWinner().ratio() / medianRatio));
        double model = Math.abs(Math.log(modelWinner().ratio() / medianRatio));
        return model >= real ? modelWinner() : realWinner();
    }
}
