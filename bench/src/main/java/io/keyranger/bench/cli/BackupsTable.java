package io.keyranger.bench.cli;

import io.keyranger.bench.BackupsBench;
import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRounds;
import io.keyranger.bench.BenchRun;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchSummary;
import io.keyranger.bench.BenchSummary.Spread;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table of {@code bench --scenario backups}: each step's wall time over the timed rounds (median, min-max), its
 * time against the increment's of the same round, and issue 65's targets, each a ratio of two steps of one round
 * (median and min-max over the rounds).
 */
final class BackupsTable {
    /** Issue 65: a restore, an import and {@code restore --as-of --until} each take at most this many increments. */
    static final double TARGET = 1.25;
    /** Issue 65: a snapshot export takes at most this many times a live one. */
    static final double SNAPSHOT_TARGET = 1.1;

    private static final String ROW = "%-18s %4s %24s %9s %20s %22s %21s %8s%n";

    private BackupsTable() {
    }

    static void print(PrintWriter out, BenchRunner.Settings s, double p99Ms, BenchRounds rounds, List<BenchRun> runs) {
        out.printf(Locale.ROOT, "backups on the production model: %s shape, %,d entities, %d workers, page %d, %d ms "
                + "median latency per call (p99 %.0f ms)%n", s.shape().id(), s.entities(), s.workers(), s.pageSize(),
                s.latencyMs(), p99Ms);
        Map<String, List<BenchResult>> bySteps = BenchSummary.byStrategy(BenchSummary.timed(runs));
        out.println(rounds.describe(bySteps.size()).replace("strategy", "step"));
        out.println("Each figure: the median of the step's timed runs, (min-max) when they differ; x INCREMENT: its "
                + "wall time over the increment's of the same round, median (min-max) over the rounds.");
        out.printf(ROW, "STEP", "RUNS", "WALL ms", "ENTITY/s", "x INCREMENT", "SERVER CALLS", "CPU ms/ENTITY",
                "VERIFIED");
        bySteps.forEach((step, results) -> out.printf(Locale.ROOT, ROW, step, results.size(),
                BenchTable.count(Spread.of(results, BenchResult::wallMillis)),
                String.format(Locale.ROOT, "%,.0f", Spread.of(results, BenchResult::entitiesPerSecond).median()),
                BenchTable.fraction(wallOver(runs, step, BackupsBench.INCREMENT), "%.2f"),
                BenchTable.count(Spread.of(results, r -> r.costs().calls() < 0 ? Double.NaN : r.costs().calls())),
                BenchTable.fraction(Spread.of(results, r -> r.costs().cpuMillisPerEntity(r.entities())), "%.3f"),
                results.stream().filter(BenchResult::verified).count() + "/" + results.size()));
        BenchTable.printWarmUps(out, runs);
        out.println("Targets (issues 65 and 66: a copy at 0.8x an increment's speed or more), each the ratio of two steps' wall times in the same round, median (min-max) "
                + "over the rounds:");
        target(out, BackupsBench.EXPORT_SNAPSHOT + " / " + BackupsBench.EXPORT_LIVE,
                wallOver(runs, BackupsBench.EXPORT_SNAPSHOT, BackupsBench.EXPORT_LIVE), SNAPSHOT_TARGET);
        for (String name : List.of(BackupsBench.RESTORE, BackupsBench.IMPORT, BackupsBench.RESTORE_UNTIL,
                BackupsBench.COPY)) {
            target(out, name + " / increment", wallOver(runs, name, BackupsBench.INCREMENT), TARGET);
        }
        runs.stream().filter(r -> !r.result().verified()).forEach(r -> out.printf("NOT VERIFIED: round %d, %s%n",
                r.round(), r.strategy()));
        out.flush();
    }

    /**
     * {@code step}'s wall time over {@code base}'s, round by round over the timed rounds. Both cover the same entities,
     * so it is {@code base}'s entities per second over {@code step}'s ({@link BenchSummary#paired}).
     */
    static Spread wallOver(List<BenchRun> runs, String step, String base) {
        return BenchSummary.paired(runs, base, step);
    }

    private static void target(PrintWriter out, String what, Spread measured, double atMost) {
        if (!measured.known()) {
            return;
        }
        out.printf(Locale.ROOT, "  %-34s %6.2fx  target <= %.2fx: %s%s%n", what, measured.median(), atMost,
                measured.median() <= atMost ? "met" : "MISSED", measured.min() == measured.max() ? ""
                        : String.format(Locale.ROOT, "  (%.2fx-%.2fx)", measured.min(), measured.max()));
    }
}
