package io.keyranger.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.AtomicFiles;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** How a job ended, as {@code run} prints it and writes it with {@code --report}: the job's persisted counts. */
final class JobSummary {
    private static final int MAX_COUNTERS_SHOWN = 20;

    private JobSummary() {
    }

    /** The totals, the mapper's counters, the message and reasons, the cost, and how to resume an unfinished job. */
    static void print(JobResult result, PrintWriter out, PriceTable prices, String resumeHint) {
        out.printf("Job %s %s: read %,d, written %,d, deleted %,d, skipped %,d, failed %,d; %d ranges, depth %d, %.1f s%n",
                result.jobId(), result.status().name().toLowerCase().replace('_', ' '), result.total("read"),
                result.total("written"), result.total("deleted"), result.total("skipped"), result.total("failed"),
                result.ranges(), result.maxDepth(), result.wallMillis() / 1000.0);
        printMapperCounters(result, out);
        if (result.message() != null) {
            out.println(result.message());
        }
        result.report().lines().forEach(out::println);
        out.println("Operations: " + prices.describe(result.total("read"), result.writesBilled(),
                result.total("deleted")));
        if (result.status() != JobStatus.DONE && result.status() != JobStatus.TAKEN_OVER) {
            out.println(resumeHint);
        }
        out.flush();
    }

    /** The mapper's own counters (skips by reason, where matches, a histogram), the first few by name. */
    private static void printMapperCounters(JobResult result, PrintWriter out) {
        Set<String> main = Set.of("read", "written", "deleted", "skipped", "failed");
        List<Map.Entry<String, Long>> own = result.totals().entrySet().stream()
                .filter(e -> !main.contains(e.getKey())).sorted(Map.Entry.comparingByKey()).toList();
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

    static void writeReport(JobResult result, Path file, PriceTable prices) {
        ObjectNode root = AtomicFiles.JSON.createObjectNode();
        root.put("jobId", result.jobId());
        root.put("status", result.status().name());
        for (String field : new String[] {"read", "written", "deleted", "skipped", "failed"}) {
            root.put(field, result.total(field));
        }
        root.put("ranges", result.ranges());
        root.put("failedRanges", result.failedRanges());
        root.put("maxDepth", result.maxDepth());
        root.put("wallMillis", result.wallMillis());
        ArrayNode failures = root.putArray("failures");
        result.report().failures().forEach(g -> reason(failures.addObject(), g).put("retryingHelps", !g.permanent()));
        ArrayNode skips = root.putArray("skippedByReason");
        result.report().skips().forEach(g -> reason(skips.addObject(), g));
        ObjectNode cost = root.putObject("cost");
        cost.put("reads", result.total("read")).put("writes", result.writesBilled())
                .put("deletes", result.total("deleted"))
                .put("dollars", prices.price(result.total("read"), result.writesBilled(), result.total("deleted")))
                .put("location", prices.location()).put("pricesTakenOn", prices.takenOn());
        ObjectNode counters = root.putObject("counters");
        result.totals().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> counters.put(e.getKey(), e.getValue()));
        AtomicFiles.writeJson(file, root);
    }
}
