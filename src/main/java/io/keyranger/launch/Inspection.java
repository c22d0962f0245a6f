package io.keyranger.launch;

import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import java.util.List;
import java.util.Map;

/**
 * A stored job as read back ({@link Jobs#inspect}).
 *
 * @param jobId  the job
 * @param nodes  its ranges
 * @param totals its persisted counters
 * @param status its persisted status: RUNNING while a runner elsewhere (another process, Beam) works on it
 * @param backup where it was backed up first, or null
 */
public record Inspection(String jobId, List<NodeSnapshot> nodes, Map<String, Long> totals, JobStatus status,
                         String backup) {
}
