package io.keyranger.bench;

import io.keyranger.KeyRangerException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The rounds of a bench sitting: first {@code warmUp} rounds, then {@code timed} ones, each running every strategy
 * once, in an order rotated by one from the round before, so that no strategy always runs first or last.
 *
 * <p>Why warm-up rounds: the local strategies share the bench's JVM (a Beam strategy keeps a pipeline JVM of its own),
 * so the first strategy of the first round meets code that nothing has compiled yet, and the strategies after it meet
 * code it compiled. A warm-up round takes those first runs out of every median and ratio. With {@code freshJvm} every
 * run has a JVM started for it, so every run is a first run alike and none needs taking out.
 *
 * @param warmUp   rounds run before the timed ones: verified and listed, left out of the medians
 * @param timed    rounds whose runs make the medians and the ratios
 * @param freshJvm whether each run ran in a bench JVM started for it ({@code bench --fresh-jvm})
 */
public record BenchRounds(int warmUp, int timed, boolean freshJvm) {
    public BenchRounds {
        if (timed < 1) {
            throw new KeyRangerException("--repeat takes 1 or more runs of each strategy, not " + timed + ".");
        }
        if (warmUp < 0) {
            throw new KeyRangerException("--warmup-rounds takes 0 or more rounds, not " + warmUp + ".");
        }
    }

    /** All the rounds of the sitting, warm-up ones included. */
    public int total() {
        return warmUp + timed;
    }

    /** Whether {@code round} (from 1, over the whole sitting) is a warm-up round. */
    public boolean isWarmUp(int round) {
        return round <= warmUp;
    }

    /** The order in which {@code round} (from 1) runs the strategies: the first round's order rotated by round - 1. */
    public <T> List<T> order(List<T> strategies, int round) {
        List<T> order = new ArrayList<>(strategies);
        Collections.rotate(order, -((round - 1) % Math.max(1, order.size())));
        return order;
    }

    /** What the bench says as {@code round} starts: "Warm-up round 1 of 1 (left out of the medians)", "Round 2 of 5". */
    public String label(int round) {
        return isWarmUp(round) ? "Warm-up round " + round + " of " + warmUp + " (left out of the medians)"
                : "Round " + (round - warmUp) + " of " + timed;
    }

    /**
     * Whether a strategy's first run in a JVM can meet another's warm one among the runs compared: only when there is
     * no warm-up round, the strategies share a JVM and there are two or more of them.
     */
    public boolean firstRunsCompared(int strategies) {
        return warmUp == 0 && !freshJvm && strategies > 1;
    }

    /** How the sitting ran, in one sentence, for the head of its table. */
    public String describe(int strategies) {
        String rounds = timed == 1 ? "1 timed round"
                : timed + " timed rounds, interleaved (each round rotates the order by one)";
        if (freshJvm) {
            return rounds + (warmUp == 0 ? "" : ", after " + warmUps() + " left out of the medians")
                    + "; every run in a bench JVM started for it (--fresh-jvm), so every run is a first run alike.";
        }
        if (warmUp > 0) {
            return rounds + ", after " + warmUps() + " of every strategy in the same JVMs, listed below and left out "
                    + "of every median and ratio: no strategy's first run in a JVM is compared with another's warm one.";
        }
        return !firstRunsCompared(strategies) ? rounds + ", without a warm-up round."
                : rounds + ", without a warm-up round: round 1's first strategy met a JVM that no strategy had run in, "
                + "the others one it had warmed, so the ratios are not like for like.";
    }

    private String warmUps() {
        return warmUp + " warm-up round" + (warmUp == 1 ? "" : "s");
    }
}
