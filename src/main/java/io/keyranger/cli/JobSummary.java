package io.keyranger.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.AtomicFiles;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobReport;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.Operations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** How a job ended, as {@code run} prints it and writes it with {@code --report}: its {@link JobOutcome}. */
final class JobSummary {
    private static final int MAX_COUNTERS_SHOWN = 20;

    private JobSummary() {
    }

    /** The totals, the mapper's counters, the message and reasons, the cost, and how to resume an unfinished job. */
    static void print(JobOutcome job, PrintWriter out, PriceTable prices, String resumeHint) {
        out.printf("Job %s %s: read %,d, written %,d, deleted %,d, skipped %,d, failed %,d; %d ranges, depth %d, %.1f s%n",
                job.jobId(), job.statusWord(), job.total("read"), job.total("written"), job.total("deleted"),
                job.total("skipped"), job.total("failed"), job.ranges(), job.maxDepth(), job.elapsedSeconds());
        printMapperCounters(job, out);
        if (job.message() != null) {
            out.println(job.message());
        }
        job.report().lines().forEach(out::println);
        out.println("Operations: " + job.operations().describe(prices));
        if (job.resumable()) {
            out.println(resumeHint);
        }
        out.flush();
    }

    /** The mapper's own counters (skips by reason, where matches, a histogram), the first few by name. */
    private static void printMapperCounters(JobOutcome job, PrintWriter out) {
        List<Map.Entry<String, Long>> own = job.ownCounters();
        own.stream().limit(MAX_COUNTERS_SHOWN).forEach(e -> out.printf("  %s: %,d%n", e.getKey(), e.getValue()));
        if (own.size() > MAX_COUNTERS_SHOWN) {
            out.printf("  ... and %d more counters (--report FILE.json has them all)%n", own.size() - MAX_COUNTERS_SHOWN);
        }
    }

    private static ObjectNode reason(ObjectNode node, JobReport.ReasonGroup g) {
        node.put("reason", g.reason()).put("count", g.count());
        g.examples().forEach(node.putArray("examples")::add);
        return node;
    }

    static void writeReport(JobOutcome job, Path file, PriceTable prices) {
        ObjectNode root = AtomicFiles.JSON.createObjectNode();
        root.put("jobId", job.jobId());
        root.put("status", job.status().name());
        JobOutcome.MAIN_COUNTERS.forEach(field -> root.put(field, job.total(field)));
        root.put("ranges", job.ranges());
        root.put("failedRanges", job.failedRanges());
        root.put("maxDepth", job.maxDepth());
        root.put("wallMillis", job.elapsedMillis());
        ArrayNode failures = root.putArray("failures");
        job.report().failures().forEach(g -> reason(failures.addObject(), g).put("retryingHelps", !g.permanent()));
        ArrayNode skips = root.putArray("skippedByReason");
        job.report().skips().forEach(g -> reason(skips.addObject(), g));
        Operations operations = job.operations();
        root.putObject("cost").put("reads", operations.reads()).put("writes", operations.writes())
                .put("deletes", operations.deletes()).put("dollars", operations.price(prices))
                .put("location", prices.location()).put("pricesTakenOn", prices.takenOn());
        ObjectNode counters = root.putObject("counters");
        job.totals().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> counters.put(e.getKey(), e.getValue()));
        AtomicFiles.writeJson(file, root);
    }
}
