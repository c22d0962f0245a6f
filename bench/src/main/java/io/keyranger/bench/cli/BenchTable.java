package io.keyranger.bench.cli;

import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRounds;
import io.keyranger.bench.BenchRun;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchShape;
import io.keyranger.bench.BenchSummary;
import io.keyranger.bench.BenchSummary.Spread;
import io.keyranger.model.ModelServer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table a bench prints: one row a strategy, each figure the median of its timed runs with their min-max, its speed
 * against linear and the oracle round by round, the warm-up rounds' runs apart, and the targets the medians meet.
 */
final class BenchTable {
    private static final String ROW = "%-18s %4s %24s %10s %19s %19s %9s %8s %6s %6s %8s %9s%n";

    private BenchTable() {
    }

    static void print(PrintWriter out, String server, BenchRunner.Settings s, BenchRounds rounds, List<BenchRun> runs) {
        out.printf("%s shape, %,d entities, %d workers, page %d, %d ms latency per call%n", s.shape().id(), s.entities(), s.workers(), s.pageSize(), s.latencyMs());
        if ("model".equals(server)) {
            out.printf("production's scatter rate: about %.1f samples per planned shard%n",
                    s.entities() * ModelServer.SCATTER_PER_10K / 10_000.0 / s.workers());
        }
        Map<String, List<BenchResult>> byStrategy = BenchSummary.byStrategy(BenchSummary.timed(runs));
        out.println(rounds.describe(byStrategy.size()));
        out.println("Each figure: the median of the strategy's timed runs, (min-max) when they differ; x LINEAR and "
                + "x ORACLE: the ratio of entities/s to theirs in the same round, median (min-max) over the rounds.");
        out.printf(ROW, "STRATEGY", "RUNS", "WALL ms", "ENTITY/s", "x LINEAR", "x ORACLE", "READS", "COMMITS", "DEPTH",
                "TAIL", "VERIFIED", "HEAP MiB");
        byStrategy.forEach((strategy, results) -> {
            Spread peak = Spread.of(results, r -> r.heapPeakKb() < 0 ? Double.NaN : r.heapPeakKb() / 1024.0);
            // retained may be below zero (the heap ended smaller than it started): unknown only with the peak
            Spread retained = Spread.of(results, r -> r.heapPeakKb() < 0 ? Double.NaN : r.heapRetainedKb() / 1024.0);
            out.printf(Locale.ROOT, ROW, strategy, results.size(),
                    (results.stream().anyMatch(BenchResult::extrapolated) ? "~" : "")
                            + count(Spread.of(results, BenchResult::wallMillis)),
                    String.format(Locale.ROOT, "%.0f", Spread.of(results, BenchResult::entitiesPerSecond).median()),
                    fraction(BenchSummary.paired(runs, strategy, "linear"), "%.2f"),
                    fraction(BenchSummary.paired(runs, strategy, "oracle"), "%.2f"),
                    median(Spread.of(results, BenchResult::reads), "%.0f"),
                    median(Spread.of(results, BenchResult::commits), "%.0f"),
                    median(Spread.of(results, BenchResult::maxDepth), "%.0f"),
                    median(Spread.of(results, r -> r.tailShare() * 100), "%.1f%%"),
                    results.stream().filter(BenchResult::verified).count() + "/" + results.size(),
                    !peak.known() ? "-" : String.format(Locale.ROOT, "%.0f/%.0f", peak.median(), retained.median()));
        });
        printWarmUps(out, runs);
        byStrategy.forEach((strategy, results) -> {
            Spread added = Spread.of(results, BenchResult::newcomersAdded);
            if (added.median() > 0) {
                out.printf("%s: %s entities were added while the job ran; it processed %s of them (each once), the "
                                + "rest landed behind its cursors%n", strategy, count(added),
                        count(Spread.of(results, BenchResult::newcomersProcessed)));
            }
        });
        printTargets(out, server, s, runs);
        printSummary(out, BenchSummary.timed(runs));
        out.flush();
    }

    /** The warm-up rounds' runs, one line a round: verified, and left out of every figure above. */
    static void printWarmUps(PrintWriter out, List<BenchRun> runs) {
        runs.stream().filter(BenchRun::warmUp).collect(Collectors.groupingBy(BenchRun::round,
                Collectors.toList())).entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(round ->
                out.printf("Warm-up round %d, left out of the medians: %s%n", round.getKey(), round.getValue().stream()
                        .map(r -> String.format(Locale.ROOT, "%s %s%,d ms%s", r.strategy(),
                                r.result().extrapolated() ? "~" : "", r.result().wallMillis(),
                                r.result().verified() ? "" : " NOT VERIFIED"))
                        .collect(Collectors.joining(", "))));
    }

    /**
     * Each strategy's costs when it ran more than once or was reverted (--repeat, --revert), and issue 48's targets
     * that the runs can answer, each a ratio of two medians.
     */
    private static void printSummary(PrintWriter out, List<BenchResult> results) {
        List<BenchSummary.Medians> medians = BenchSummary.medians(results);
        if (medians.stream().anyMatch(m -> m.runs() > 1 || m.reverts() > 0)) {
            out.println("Each strategy over its timed runs, median (min-max):");
            out.printf("%-22s %4s %24s %24s %22s %22s %22s%n", "STRATEGY", "RUNS", "WALL ms", "WRITES BILLED",
                    "UNDO RECORDS", "SERVER CALLS", "CPU ms/ENTITY");
            for (BenchSummary.Medians m : medians) {
                out.printf("%-22s %4d %24s %24s %22s %22s %22s%n", m.strategy(), m.runs(), count(m.wallMillis()),
                        count(m.writesBilled()), count(m.undoRecords()), count(m.calls()),
                        fraction(m.cpuMsPerEntity(), "%.3f"));
            }
            for (BenchSummary.Medians m : medians) {
                if (m.reverts() > 0) {
                    out.printf("revert of %s: %d of %d verified (every entity back to its seeded value)%s; wall %s ms, "
                                    + "%s its job, %s writes billed%n", m.strategy(), m.revertsVerified(), m.reverts(),
                            m.revertsVerified() == m.reverts() ? "" : " REVERT CHECK FAILED", count(m.revertWall()),
                            fraction(m.revertToJob(), "%.2fx"), count(m.revertWrites()));
                }
            }
        }
        List<BenchSummary.Ratio> ratios = BenchSummary.ratios(medians);
        if (!ratios.isEmpty()) {
            out.println("Ratios (issue 48's targets, each from the medians of this run's timed rounds):");
            for (BenchSummary.Ratio r : ratios) {
                out.printf(Locale.ROOT, "  %-46s %6.2fx  target %s %.2fx: %s%n", r.what(), r.measured(),
                        r.atMost() ? "<=" : ">=", r.target(), r.met() ? "met" : "MISSED");
            }
        }
    }

    static String count(Spread s) {
        return !s.known() ? "-" : s.min() == s.max() ? String.format(Locale.ROOT, "%,.0f", s.median())
                : String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", s.median(), s.min(), s.max());
    }

    static String fraction(Spread s, String format) {
        return !s.known() ? "-" : s.min() == s.max() ? String.format(Locale.ROOT, format, s.median())
                : String.format(Locale.ROOT, format + " (" + format + "-" + format + ")", s.median(), s.min(), s.max());
    }

    private static String median(Spread s, String format) {
        return s.known() ? String.format(Locale.ROOT, format, s.median()) : "-";
    }

    /**
     * The targets KeyRanger sets itself (issues 7 and 16), for whichever of them this run's strategies can answer,
     * each from runs of the same timed round: against the production model the tail target is 5%, against the
     * emulator (one request at a time) 10%.
     */
    private static void printTargets(PrintWriter out, String server, BenchRunner.Settings s, List<BenchRun> runs) {
        List<BenchResult> adaptive = BenchSummary.byStrategy(BenchSummary.timed(runs)).get("adaptive");
        if (adaptive == null) {
            return;
        }
        out.println("Targets (set for 1,000,000 mixed entities on the model and 50,000 mixed or skewed on the "
                + "emulator; fixed on skewed, filtered and growing), medians over the rounds (min-max):");
        target(out, "adaptive vs linear", BenchSummary.paired(runs, "adaptive", "linear"), 10);
        target(out, "adaptive vs oracle", BenchSummary.paired(runs, "adaptive", "oracle"), 0.9);
        if (s.shape() == BenchShape.SKEWED || s.shape() == BenchShape.FILTERED || s.shape() == BenchShape.GROWING) {
            target(out, "adaptive vs fixed", BenchSummary.paired(runs, "adaptive", "fixed"), 1.5);
        }
        double tailTarget = "model".equals(server) ? 0.05 : 0.10;
        Spread tail = Spread.of(adaptive, r -> r.tailShare() * 100);
        out.printf(Locale.ROOT, "  %-20s %7.1f%%  target <= %.0f%%: %s%s%n", "adaptive tail share", tail.median(),
                tailTarget * 100, tail.median() <= tailTarget * 100 ? "met" : "MISSED",
                tail.min() == tail.max() ? "" : String.format(Locale.ROOT, "  (%.1f%%-%.1f%%)", tail.min(), tail.max()));
    }

    /** A ratio target, when the other strategy ran: at least {@code atLeast} times it, by the median. */
    private static void target(PrintWriter out, String what, Spread measured, double atLeast) {
        if (!measured.known()) {
            return;
        }
        out.printf(Locale.ROOT, "  %-20s %7.2fx  target >= %sx: %s%s%n", what, measured.median(), atLeast,
                measured.median() >= atLeast ? "met" : "MISSED", measured.min() == measured.max() ? ""
                        : String.format(Locale.ROOT, "  (%.2fx-%.2fx)", measured.min(), measured.max()));
    }
}
