package io.keyranger.job;

import java.util.List;

/**
 * A local run as it ended, kept with its job so that Inspect shows that run and not only the job's stored cells.
 *
 * @param ranges     its split tree as it ended: every range, planned or split off, with its depth and figures; empty
 *                   when the tree was too big to keep (its summary still counts it)
 * @param throughput its chart, the points the Run tab drew live ({@link ThroughputSampler})
 */
public record RunRecord(List<NodeSnapshot> ranges, List<RunThroughput.Point> throughput) {
    public RunRecord {
        ranges = List.copyOf(ranges);
        throughput = List.copyOf(throughput);
    }
}
