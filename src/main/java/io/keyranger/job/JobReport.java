package io.keyranger.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What went wrong in a job, grouped by reason, with a count and a few examples each: the ranges that failed (and
 * whether retrying can help), and the entities skipped for a reason of their own (counts from the job's counters,
 * exact; example keys from its ranges' records).
 *
 * @param failures failed ranges by reason
 * @param skips    skipped entities by reason
 */
public record JobReport(List<ReasonGroup> failures, List<ReasonGroup> skips) {
    /** No failures, no skips. */
    public static final JobReport EMPTY = new JobReport(List.of(), List.of());
    public static final String SKIPPED_PREFIX = "skipped: ";
    /** How many examples each reason keeps. */
    public static final int EXAMPLES = 3;

    public JobReport {
        failures = List.copyOf(failures);
        skips = List.copyOf(skips);
    }

    /**
     * One reason.
     *
     * @param reason    the reason
     * @param count     how many ranges failed or entities were skipped for it
     * @param examples  a few ranges (id and bounds) or entities (key and detail)
     * @param permanent for failures: whether retrying will not fix it (a refusal rather than a timeout)
     */
    public record ReasonGroup(String reason, long count, List<String> examples, boolean permanent) {
        public ReasonGroup {
            examples = List.copyOf(examples);
        }
    }

    public boolean isEmpty() {
        return failures.isEmpty() && skips.isEmpty();
    }

    /** The report as lines for a console: a heading per kind of problem, a line per reason, examples indented. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (!failures.isEmpty()) {
            lines.add("Failed ranges, by reason:");
            for (ReasonGroup g : failures) {
                lines.add(String.format("  %,d × %s%s", g.count(), g.reason(), g.permanent()
                        ? " (retrying will not fix this: " + Advice.forReason(g.reason()) + ")" : " (may pass on a resume)"));
                g.examples().forEach(e -> lines.add("      e.g. " + e));
            }
        }
        if (!skips.isEmpty()) {
            lines.add("Skipped entities, by reason:");
            for (ReasonGroup g : skips) {
                lines.add(String.format("  %,d × %s", g.count(), g.reason()));
                g.examples().forEach(e -> lines.add("      e.g. " + e));
            }
        }
        return lines;
    }

    /** What to change for a reason retrying will not fix. */
    public static String adviceFor(String reason) {
        return Advice.forReason(reason);
    }

    public static final class Advice {
        private Advice() {
        }

        static String forReason(String reason) {
            String r = reason.toUpperCase(Locale.ROOT);
            if (r.contains("PERMISSION_DENIED") || r.contains("403")) {
                return "grant the account the Datastore User role (roles/datastore.user) on the project, then resume";
            }
            if (r.contains("UNAUTHENTICATED") || r.contains("401")) {
                return "give valid credentials (--credentials FILE or gcloud auth application-default login), "
                        + "then resume";
            }
            if (r.contains("NOT_FOUND") && r.contains("DATABASE")) {
                return "check --project and --database name an existing database";
            }
            if (r.contains("TOO MANY ENTITY GROUPS") || r.contains("TOO MANY INDEX ENTRIES")) {
                return "lower --page-size so a commit touches fewer entities, then resume";
            }
            if (r.contains("INVALID_ARGUMENT") || r.contains("400")) {
                return "the server refused what the mapper wrote; fix the spec (see the reason) and run a new job";
            }
            return "read the reason, fix its cause, then resume";
        }
    }
}
