package io.keyranger.ui.run;

import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.launch.Inspection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A job's state in the Run tab's words: how it ended, and what its stored ranges are. */
final class JobWords {
    private JobWords() {
    }

    /** "Job J done: 36 ranges, depth 3, 19.8 s. …", with its failed ranges, message and cost. */
    static String finished(JobResult result, PriceTable prices) {
        return String.format("Job %s %s: %d ranges, depth %d, %.1f s%s. Totals are the persisted counters.%s",
                result.jobId(), result.status().name().toLowerCase().replace('_', ' '), result.ranges(),
                result.maxDepth(), result.wallMillis() / 1000.0, result.failedRanges() > 0 ? ", "
                        + result.failedRanges() + " ranges failed" : "",
                result.message() == null ? "" : " " + result.message())
                + " Operations: " + prices.describe(result.total("read"), result.writesBilled(),
                result.total("deleted")) + ".";
    }

    /** What the Run tab says of a stored job it shows: "Job X (stored, done): 44 ranges: …", or that it follows it. */
    static String inspected(Inspection inspection) {
        boolean live = inspection.status() == JobStatus.RUNNING;
        return "Job " + inspection.jobId() + " (stored" + (live ? ", following: running elsewhere" : ", "
                + inspection.status().name().toLowerCase()) + "): " + ranges(inspection.nodes())
                + (inspection.backup() == null ? "" : "; backed up first to " + inspection.backup());
    }

    /** "44 ranges: 30 read to the end, 14 split into others", with those failed or still to go when there are any. */
    static String ranges(List<NodeSnapshot> nodes) {
        Map<NodeStatus, Long> by = new EnumMap<>(NodeStatus.class);
        nodes.forEach(n -> by.merge(n.status(), 1L, Long::sum));
        long done = by.getOrDefault(NodeStatus.DONE, 0L);
        long split = by.getOrDefault(NodeStatus.SPLIT, 0L);
        long failed = by.getOrDefault(NodeStatus.FAILED, 0L);
        long rest = nodes.size() - done - split - failed;
        return nodes.size() + " ranges: " + done + " read to the end, " + split + " split into others"
                + (failed > 0 ? ", " + failed + " failed" : "") + (rest > 0 ? ", " + rest + " to go" : "");
    }
}
