package io.keyranger.bench;

/**
 * One run of one strategy in a bench sitting.
 *
 * @param round  the round it ran in, counted from 1 over the whole sitting (warm-up rounds first)
 * @param warmUp whether that round was a warm-up round: run, verified and listed, but left out of every median and
 *               ratio
 * @param result its figures
 */
public record BenchRun(int round, boolean warmUp, BenchResult result) {
    public String strategy() {
        return result.strategy();
    }
}
