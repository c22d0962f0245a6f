package io.keyranger.cli;

import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.DryRunSummary;
import io.keyranger.dryrun.DryRunner;
import java.io.PrintWriter;

/** Prints a dry run: before and after per entity and property, then the whole job's estimated operations. */
public final class DryRunPrinter {
    private static final int MAX_ROWS = 200;
    private static final int MAX_PROBLEMS = 10;

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
        if (result.undoRecords() > 0) {
            out.printf("Writes include about %,d undo records, so that the job can be reverted (--no-undo: none).%n",
                    result.undoRecords());
        } else if (result.noUndo()) {
            out.println("Undo is off (--no-undo): this job cannot be reverted.");
        }
        out.flush();
    }

    private static String cut(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
