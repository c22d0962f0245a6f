package io.keyranger.summary;

import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.backup.PastRestoreDryRun;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * Prints a dry run, a mapper's or a restore's: before and after per entity and property, then the whole job's
 * estimated operations ({@link DryRunSummary}, {@link RestoreDryRun}).
 */
public final class DryRunPrinter {
    private static final int MAX_ROWS = 200;
    private static final int MAX_PROBLEMS = 10;
    /** The differing properties a restore's dry run shows of each example. */
    private static final int SHOWN = 4;

    private DryRunPrinter() {
    }

    public static void print(DryRunner.Result result, PrintWriter out) {
        print(result, out, PriceTable.BUILT_IN);
    }

    /** As above, with the whole job's estimated price at these prices. */
    public static void print(DryRunner.Result result, PrintWriter out, PriceTable prices) {
        out.printf("Dry run on %s; nothing was written.%n", DryRunSummary.sample(result));
        if (!result.changes().isEmpty()) {
            out.printf("%-36s %-20s %-24s %s%n", "KEY", "PROPERTY", "BEFORE", "AFTER");
            result.changes().stream().limit(MAX_ROWS).forEach(c -> out.printf("%-36s %-20s %-24s %s%n",
                    cut(c.key(), 36), cut(c.property(), 20), cut(c.before(), 24), c.after()));
        }
        result.deletes().stream().limit(MAX_ROWS).forEach(k -> out.println("would delete " + k));
        result.copies().stream().limit(MAX_ROWS).forEach(k -> out.println("would write " + k));
        if (result.skipped() > 0) {
            out.printf("would skip %d of %d entities%n", result.skipped(), result.sampled());
        }
        result.problems().stream().limit(MAX_PROBLEMS).forEach(p -> out.printf("skip %s: %s%n", p.key(), p.reason()));
        if (result.problems().size() > MAX_PROBLEMS) {
            out.printf("... and %d more skipped with a reason%n", result.problems().size() - MAX_PROBLEMS);
        }
        result.counters().forEach((name, value) -> out.printf("counter %s += %d%n", name, value));
        DryRunSummary.wholeJob(result, prices).forEach(out::println);
        Operations operations = Operations.of(result);
        if (operations.undoRecords() > 0) {
            out.printf("Writes include about %,d undo record%s, so that the job can be reverted (--no-undo: none).%n",
                    operations.undoRecords(), operations.undoRecords() == 1 ? "" : "s");
        } else if (result.noUndo()) {
            out.println("Undo is off (--no-undo): this job cannot be reverted.");
        }
        out.flush();
    }

    /** A restore's dry run of {@code kind} from {@code export}: its counts, examples side by side, and operations. */
    public static void printRestore(RestoreDryRun dry, String kind, String export, PrintWriter out, PriceTable prices) {
        ExportDiff.Result r = dry.diff();
        out.printf("Dry run of restoring %s from %s (%s); nothing was written.%n", kind, export, dry.mode().id());
        out.printf("Compared %,d entities of the export with live data in %,d lookup%s:%n", r.compared(), r.lookups(),
                r.lookups() == 1 ? "" : "s");
        out.printf("  would restore %,d missing since the export%n", r.removed());
        switch (dry.mode()) {
            case OVERWRITE -> out.printf("  would overwrite %,d changed since the export%n", r.changed());
            case SKIP_CHANGED -> out.printf("  would leave %,d changed since the export (skipped: %s)%n", r.changed(),
                    RestoreMode.CHANGED);
            case MISSING_ONLY -> out.printf("  would leave %,d present live (%s)%n", r.changed(), RestoreMode.PRESENT);
        }
        out.printf("  %,d already as in the export%n", r.same());
        out.printf("  %-36s %-20s %-26s %s%n", "KEY", "PROPERTY", "NOW", "AFTER");
        for (ExportDiff.Example e : r.examples()) {
            boolean writes = dry.writes(e);
            List<SideBySide.Row> rows = SideBySide.of(e.before(), e.now()).stream()
                    .filter(SideBySide.Row::differs).toList();
            for (SideBySide.Row row : rows.subList(0, Math.min(rows.size(), SHOWN))) {
                out.printf("  %-36s %-20s %-26s %s%n", cut(KeyFormat.format(e.key()), 36), cut(row.property(), 20),
                        cut(row.live(), 26), writes ? row.exported() : "(left as now)");
            }
            if (rows.size() > SHOWN) {
                out.printf("  %-36s ... and %d more properties%n", "", rows.size() - SHOWN);
            }
        }
        out.printf("Whole restore: %s%n", dry.operations().describe(prices));
        if (dry.operations().undoRecords() > 0) {
            out.printf("Writes include about %,d undo record%s, so that the restore can be reverted (--no-undo: none).%n",
                    dry.operations().undoRecords(), dry.operations().undoRecords() == 1 ? "" : "s");
        }
        out.flush();
    }

    /**
     * Prints the dry run of a restore from the database's past ({@code from}: "the database as of T ..."): its
     * counters, named as the restore names them, every entity it would leave alone with why, and its operations.
     */
    public static void printPastRestore(PastRestoreDryRun dry, String kind, String from, PrintWriter out,
                                        PriceTable prices) {
        out.printf("Dry run of restoring %s from %s; nothing was written.%n", kind, from);
        out.printf("Compared %,d keys with live data: would write back %,d, delete %,d.%n", dry.compared(),
                dry.writes(), dry.deletes());
        dry.counters().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(c -> out.printf("  %s: %,d%n", c.getKey(), c.getValue()));
        for (MapResult.Problem p : dry.problems()) {
            String key = KeyFormat.format(p.key());
            out.printf("  would leave %s%n", p.reason().startsWith(key) ? p.reason() : key + ": " + p.reason());
        }
        Operations operations = Operations.of(dry);
        out.printf("Whole restore: %s%n", operations.describe(prices));
        if (operations.undoRecords() > 0) {
            out.printf("Writes include about %,d undo record%s, so that the restore can be reverted (--no-undo: none).%n",
                    operations.undoRecords(), operations.undoRecords() == 1 ? "" : "s");
        }
        out.flush();
    }

    private static String cut(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
