package io.keyranger.bench.cli;

import io.keyranger.bench.BackupsBench;
import io.keyranger.bench.BenchRunner;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The table of {@code bench --scenario backups}: each step's wall time, its ratio to the increment, and issue 43's targets. */
final class BackupsTable {
    /** Issue 43: a restore and an import each take at most this many times the increment's wall time. */
    static final double TARGET = 1.25;

    private BackupsTable() {
    }

    static void print(PrintWriter out, BenchRunner.Settings s, double p99Ms, List<BackupsBench.Step> steps) {
        out.printf(Locale.ROOT, "backups on the production model: %s shape, %,d entities, %d workers, page %d, %d ms "
                + "median latency per call (p99 %.0f ms)%n", s.shape().id(), s.entities(), s.workers(), s.pageSize(),
                s.latencyMs(), p99Ms);
        out.printf("%-18s %10s %10s %11s %8s%n", "STEP", "WALL ms", "ENTITY/s", "x INCREMENT", "VERIFIED");
        double increment = find(steps, BackupsBench.INCREMENT).map(BackupsBench.Step::wallMillis).orElse(0L);
        for (BackupsBench.Step step : steps) {
            out.printf(Locale.ROOT, "%-18s %,10d %,10.0f %11.2f %8s%n", step.name(), step.wallMillis(),
                    step.entitiesPerSecond(), step.wallMillis() / increment, step.verified());
        }
        for (String name : List.of(BackupsBench.RESTORE, BackupsBench.IMPORT)) {
            find(steps, name).ifPresent(step -> {
                double ratio = step.wallMillis() / increment;
                out.printf(Locale.ROOT, "%s / increment: %.2fx (target: at most %.2fx) %s%n", name, ratio, TARGET,
                        ratio <= TARGET ? "met" : "MISSED");
            });
        }
        steps.stream().filter(step -> !step.verified()).forEach(step -> out.printf("NOT VERIFIED: %s: %s%n",
                step.name(), step.detail()));
        out.flush();
    }

    private static Optional<BackupsBench.Step> find(List<BackupsBench.Step> steps, String name) {
        return steps.stream().filter(step -> step.name().equals(name)).findFirst();
    }
}
