package io.keyranger.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The runs of a bench sitting, summed up: each strategy's median and range (min-max) of each figure over its timed
 * runs (never its warm-up rounds'), its speed against another strategy round by round, and issue 48's targets, each a
 * ratio of two medians from the same invocation.
 */
public final class BenchSummary {
    private BenchSummary() {
    }

    /**
     * A figure over a strategy's runs: the median (of two middle runs, their mean), the least and the most; NaN
     * throughout when no run measured it.
     */
    public record Spread(double median, double min, double max) {
        static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN);

        /** {@code figure} over {@code runs}, leaving out the runs where it is NaN (not measured). */
        public static Spread of(List<BenchResult> runs, ToDoubleFunction<BenchResult> figure) {
            return of(runs.stream().mapToDouble(figure).toArray());
        }

        /** The median, least and most of {@code figures}, leaving out NaN. */
        public static Spread of(double... figures) {
            double[] values = Arrays.stream(figures).filter(v -> !Double.isNaN(v)).sorted().toArray();
            if (values.length == 0) {
                return NONE;
            }
            int mid = values.length / 2;
            double median = values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
            return new Spread(median, values[0], values[values.length - 1]);
        }

        public boolean known() {
            return !Double.isNaN(median);
        }
    }

    /**
     * One strategy's runs.
     *
     * @param strategy        the strategy
     * @param runs            how many timed runs it had
     * @param wallMillis      wall time
     * @param entitiesPerSec  entities over wall time
     * @param writesBilled    entity writes paid for (NaN: a pipeline, which does not say)
     * @param undoRecords     undo records kept
     * @param calls           the server's calls during the job
     * @param cpuMsPerEntity  CPU per entity, in ms, of the JVM that ran the job
     * @param revertWall      its reverts' wall time (NaN: not reverted)
     * @param revertWrites    its reverts' writes
     * @param revertToJob     each revert's wall time over its own job's
     * @param reverts         how many of its runs were reverted
     * @param revertsVerified how many of those reverts were verified
     */
    public record Medians(String strategy, int runs, Spread wallMillis, Spread entitiesPerSec, Spread writesBilled,
                          Spread undoRecords, Spread calls, Spread cpuMsPerEntity, Spread revertWall,
                          Spread revertWrites, Spread revertToJob, int reverts, int revertsVerified) {
    }

    /**
     * A target of issue 48, met or not.
     *
     * @param what     what is compared
     * @param measured the ratio of the two medians
     * @param target   the bound
     * @param atMost   whether the ratio must stay at or below the bound (else reach it)
     */
    public record Ratio(String what, double measured, double target, boolean atMost) {
        public boolean met() {
            return atMost ? measured <= target : measured >= target;
        }
    }

    /**
     * The results that medians and ratios are made of: the timed rounds', not the warm-up rounds', each strategy's in
     * the order they ran, the strategies in the order they first ran (warm-up rounds included: the order asked for).
     */
    public static List<BenchResult> timed(List<BenchRun> runs) {
        List<String> order = runs.stream().map(BenchRun::strategy).distinct().toList();
        return runs.stream().filter(r -> !r.warmUp()).sorted(Comparator.comparingInt(r -> order.indexOf(r.strategy())))
                .map(BenchRun::result).toList();
    }

    /** Each strategy's results, in the order the strategies first ran. */
    public static Map<String, List<BenchResult>> byStrategy(List<BenchResult> results) {
        Map<String, List<BenchResult>> byStrategy = new LinkedHashMap<>();
        results.forEach(r -> byStrategy.computeIfAbsent(r.strategy(), s -> new ArrayList<>()).add(r));
        return byStrategy;
    }

    /**
     * {@code strategy}'s entities per second over {@code base}'s, round by round over the timed rounds: each ratio
     * compares two runs of one round, which met their JVMs at the same point of the sitting. {@link Spread#NONE} when
     * no timed round ran both.
     */
    public static Spread paired(List<BenchRun> runs, String strategy, String base) {
        Map<Integer, Double> bases = new HashMap<>();
        runs.stream().filter(r -> !r.warmUp() && r.strategy().equals(base))
                .forEach(r -> bases.put(r.round(), r.result().entitiesPerSecond()));
        return Spread.of(runs.stream().filter(r -> !r.warmUp() && r.strategy().equals(strategy)
                        && bases.containsKey(r.round()))
                .mapToDouble(r -> r.result().entitiesPerSecond() / bases.get(r.round())).toArray());
    }

    /**
     * Each strategy as one row of its medians over {@code results} (wall time, entities per second; verified when
     * every run was, extrapolated when any was), for a chart of one bar a strategy.
     */
    public static List<BenchResult> medianRows(List<BenchResult> results) {
        List<BenchResult> rows = new ArrayList<>();
        byStrategy(results).forEach((strategy, runs) -> rows.add(new BenchResult(strategy, runs.get(0).entities(),
                Math.round(Spread.of(runs, BenchResult::wallMillis).median()),
                Spread.of(runs, BenchResult::entitiesPerSecond).median(), 0, 0, 0, 0,
                runs.stream().allMatch(BenchResult::verified), runs.stream().anyMatch(BenchResult::extrapolated))));
        return rows;
    }

    /** Each strategy's medians, in the order the strategies first ran. */
    public static List<Medians> medians(List<BenchResult> results) {
        List<Medians> medians = new ArrayList<>();
        byStrategy(results).forEach((strategy, runs) -> {
            List<BenchResult> reverted = runs.stream().filter(r -> r.costs().revert() != null).toList();
            medians.add(new Medians(strategy, runs.size(), Spread.of(runs, r -> r.wallMillis()),
                    Spread.of(runs, BenchResult::entitiesPerSecond),
                    Spread.of(runs, r -> known(r.costs().writesBilled())),
                    Spread.of(runs, r -> known(r.costs().undoRecords())), Spread.of(runs, r -> known(r.costs().calls())),
                    Spread.of(runs, r -> r.costs().cpuMillisPerEntity(r.entities())),
                    Spread.of(reverted, r -> r.costs().revert().wallMillis()),
                    Spread.of(reverted, r -> r.costs().revert().writesBilled()),
                    Spread.of(reverted, r -> r.costs().revert().wallMillis() / (double) r.wallMillis()),
                    reverted.size(), (int) reverted.stream().filter(r -> r.costs().revert().verified()).count()));
        });
        return medians;
    }

    /**
     * Issue 48's targets that these runs can answer: undo against --no-undo (wall time and writes), a revert against
     * the job it reverts, and KeyRanger's pipeline on Flink against local adaptive (speed, and CPU per entity; on the
     * DirectRunner, CPU per entity only).
     */
    public static List<Ratio> ratios(List<Medians> medians) {
        Medians adaptive = find(medians, BenchStrategy.ADAPTIVE);
        Medians noUndo = find(medians, BenchStrategy.ADAPTIVE_NO_UNDO);
        List<Ratio> ratios = new ArrayList<>();
        if (adaptive != null && noUndo != null) {
            add(ratios, "adaptive vs adaptive-no-undo, wall time", adaptive.wallMillis(), noUndo.wallMillis(), 1.10,
                    true);
            add(ratios, "adaptive vs adaptive-no-undo, writes billed", adaptive.writesBilled(), noUndo.writesBilled(),
                    1.05, true);
        }
        if (adaptive != null) {
            add(ratios, "adaptive's revert vs its job, wall time", adaptive.revertWall(), adaptive.wallMillis(), 1.2,
                    true);
            for (BenchStrategy beam : List.of(BenchStrategy.BEAM_KEYRANGER_FLINK, BenchStrategy.BEAM_KEYRANGER)) {
                Medians pipeline = find(medians, beam);
                if (pipeline == null) {
                    continue;
                }
                if (beam == BenchStrategy.BEAM_KEYRANGER_FLINK) {
                    add(ratios, beam.id() + " vs adaptive, speed", pipeline.entitiesPerSec(),
                            adaptive.entitiesPerSec(), 0.7, false);
                }
                add(ratios, beam.id() + " vs adaptive, CPU per entity", pipeline.cpuMsPerEntity(),
                        adaptive.cpuMsPerEntity(), 1.5, true);
            }
        }
        return ratios;
    }

    private static void add(List<Ratio> ratios, String what, Spread measured, Spread base, double target,
                            boolean atMost) {
        if (measured.known() && base.known() && base.median() > 0) {
            ratios.add(new Ratio(what, measured.median() / base.median(), target, atMost));
        }
    }

    private static Medians find(List<Medians> medians, BenchStrategy strategy) {
        return medians.stream().filter(m -> Objects.equals(m.strategy(), strategy.id())).findFirst().orElse(null);
    }

    private static double known(long value) {
        return value < 0 ? Double.NaN : value;
    }
}
