package io.keyranger.bench.cli;

import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchShape;
import io.keyranger.bench.BenchSummary;
import io.keyranger.model.ModelServer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The table a bench prints: each strategy's figures, ratios to linear and the oracle, and the targets they meet. */
final class BenchTable {
    private BenchTable() {
    }

    private static Optional<BenchResult> find(List<BenchResult> results, String id) {
        return results.stream().filter(r -> r.strategy().equals(id)).findFirst();
    }

    static void print(PrintWriter out, String server, BenchRunner.Settings s, List<BenchResult> results) {
        out.printf("%s shape, %,d entities, %d workers, page %d, %d ms latency per call%n", s.shape().id(), s.entities(), s.workers(), s.pageSize(), s.latencyMs());
        if ("model".equals(server)) {
            out.printf("production's scatter rate: about %.1f samples per planned shard%n",
                    s.entities() * ModelServer.SCATTER_PER_10K / 10_000.0 / s.workers());
        }
        out.printf("%-18s %10s %10s %9s %9s %9s %8s %6s %6s %8s %9s%n", "STRATEGY", "WALL ms", "ENTITY/s", "x LINEAR",
                "x ORACLE", "READS", "COMMITS", "DEPTH", "TAIL", "VERIFIED", "HEAP MiB");
        double linear = find(results, "linear").map(BenchResult::entitiesPerSecond).orElse(Double.NaN);
        double oracle = find(results, "oracle").map(BenchResult::entitiesPerSecond).orElse(Double.NaN);
        for (BenchResult r : results) {
            out.printf("%-18s %10s %10.0f %9s %9s %9d %8d %6d %5.1f%% %8s %9s%n", r.strategy(),
                    (r.extrapolated() ? "~" : "") + r.wallMillis(), r.entitiesPerSecond(),
                    ratio(r.entitiesPerSecond(), linear), ratio(r.entitiesPerSecond(), oracle), r.reads(), r.commits(),
                    r.maxDepth(), r.tailShare() * 100, r.verified(), r.heapPeakKb() < 0 ? "-"
                            : String.format(Locale.ROOT, "%.0f/%.0f", r.heapPeakKb() / 1024.0,
                                    r.heapRetainedKb() / 1024.0));
        }
        results.stream().filter(r -> r.newcomersAdded() > 0).forEach(r -> out.printf(
                "%s: %,d entities were added while the job ran; it processed %,d of them (each once), the rest landed "
                        + "behind its cursors%n", r.strategy(), r.newcomersAdded(), r.newcomersProcessed()));
        printTargets(out, server, s, results);
        printSummary(out, results);
        out.flush();
    }

    /**
     * Each strategy's medians when it ran more than once or was reverted (--repeat, --revert), and issue 48's targets
     * that the runs can answer, each a ratio of two medians.
     */
    private static void printSummary(PrintWriter out, List<BenchResult> results) {
        List<BenchSummary.Medians> medians = BenchSummary.medians(results);
        if (medians.stream().anyMatch(m -> m.runs() > 1 || m.reverts() > 0)) {
            out.println("Each strategy over its runs, median (min-max):");
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
            out.println("Ratios (issue 48's targets, each from the medians of this run):");
            for (BenchSummary.Ratio r : ratios) {
                out.printf(Locale.ROOT, "  %-46s %6.2fx  target %s %.2fx: %s%n", r.what(), r.measured(),
                        r.atMost() ? "<=" : ">=", r.target(), r.met() ? "met" : "MISSED");
            }
        }
    }

    private static String count(BenchSummary.Spread s) {
        return !s.known() ? "-" : s.min() == s.max() ? String.format(Locale.ROOT, "%,.0f", s.median())
                : String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", s.median(), s.min(), s.max());
    }

    private static String fraction(BenchSummary.Spread s, String format) {
        return !s.known() ? "-" : s.min() == s.max() ? String.format(Locale.ROOT, format, s.median())
                : String.format(Locale.ROOT, format + " (" + format + "-" + format + ")", s.median(), s.min(), s.max());
    }

    /** A ratio to a strategy that may not have run ("-" then). */
    private static String ratio(double rate, double base) {
        return Double.isNaN(base) ? "-" : String.format(Locale.ROOT, "%.2f", rate / base);
    }

    /**
     * The targets KeyRanger sets itself (issues 7 and 16), for whichever of them this run's strategies can answer:
     * against the production model the tail target is 5%, against the emulator (one request at a time) 10%.
     */
    private static void printTargets(PrintWriter out, String server, BenchRunner.Settings s,
                                     List<BenchResult> results) {
        Optional<BenchResult> adaptive = find(results, "adaptive");
        if (adaptive.isEmpty()) {
            return;
        }
        double rate = adaptive.get().entitiesPerSecond();
        out.println("Targets (set for 1,000,000 mixed entities on the model and 50,000 mixed or skewed on the "
                + "emulator; fixed on skewed, filtered and growing):");
        find(results, "linear").ifPresent(r -> target(out, "adaptive vs linear", rate / r.entitiesPerSecond(), 10));
        find(results, "oracle").ifPresent(r -> target(out, "adaptive vs oracle", rate / r.entitiesPerSecond(), 0.9));
        if (s.shape() == BenchShape.SKEWED || s.shape() == BenchShape.FILTERED || s.shape() == BenchShape.GROWING) {
            find(results, "fixed").ifPresent(r -> target(out, "adaptive vs fixed", rate / r.entitiesPerSecond(), 1.5));
        }
        double tailTarget = "model".equals(server) ? 0.05 : 0.10;
        out.printf("  %-20s %7.1f%%  target <= %.0f%%: %s%n", "adaptive tail share", adaptive.get().tailShare() * 100,
                tailTarget * 100, adaptive.get().tailShare() <= tailTarget ? "met" : "MISSED");
    }

    /** A ratio target: at least {@code atLeast} times the other strategy. */
    private static void target(PrintWriter out, String what, double measured, double atLeast) {
        out.printf("  %-20s %7.2fx  target >= %sx: %s%n", what, measured, atLeast,
                measured >= atLeast ? "met" : "MISSED");
    }
}
