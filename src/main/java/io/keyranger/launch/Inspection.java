package io.keyranger.launch;

import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.Pause;
import io.keyranger.job.RunRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A stored job as read back ({@link Jobs#inspect}), with its last run as it ended: the figures its summary gave then.
 *
 * @param jobId          the job
 * @param nodes          its ranges, as stored (its planned cells)
 * @param totals         its persisted counters
 * @param status         its persisted status: RUNNING while a runner elsewhere (another process, Beam) works on it
 * @param backup         where it was backed up first, or null
 * @param lastRanges     the ranges its last local run's tree had as it ended (0: none recorded)
 * @param lastDepth      that tree's depth
 * @param lastWallMillis how long its last run took, its pauses left out (0 before it ended once)
 * @param lastPauses     when its last run stood paused
 * @param finished       when its last run ended, or null
 * @param lastRun        its last run as it ended, when that run was local and ended here: its tree and chart; or null
 */
public record Inspection(String jobId, List<NodeSnapshot> nodes, Map<String, Long> totals, JobStatus status,
                         String backup, int lastRanges, int lastDepth, long lastWallMillis,
                         List<Pause> lastPauses, Instant finished, RunRecord lastRun) {
    /** Whether its last run ended and said how long it took: a job running (elsewhere) has no such figures yet. */
    public boolean ended() {
        return status != JobStatus.RUNNING && lastWallMillis > 0;
    }
}
