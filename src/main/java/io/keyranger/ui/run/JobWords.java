package io.keyranger.ui.run;

import io.keyranger.KeyRangerException;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.JobProgress;
import io.keyranger.launch.Inspection;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.ui.common.KindTarget;
import java.util.List;

/**
 * A job's state in the Run tab's words, from the report model: how it ended ({@link JobOutcome}), its timing while it
 * runs ({@link JobProgress}), and what its stored ranges are.
 */
final class JobWords {
    private JobWords() {
    }

    /**
     * The job Start runs, handed over and not started yet: "Restore of Account from /exports/x" (or "from the
     * database as of …"), else the mapper over what it reads ("increment · property balance · amount 10 over Account").
     */
    static String next(KindTarget target, String mapperJson, String gql, List<String> kinds) {
        String over = !kinds.isEmpty() ? String.join(", ", kinds) : target == null ? "the kind chosen on the left"
                : target.kind();
        String source;
        try {
            source = RestoreSpec.source(MapperSpec.parse(mapperJson));
        } catch (KeyRangerException e) {
            return JobForm.describe(mapperJson); // what is wrong with it
        }
        if (source != null) {
            return "Restore of " + over + " from " + source;
        }
        return JobForm.describe(mapperJson) + " over " + (gql == null || gql.isBlank() ? over : gql.strip());
    }

    /**
     * "Job J done: 36 ranges, depth 3, 19.8 s. …", with its failed ranges, the entities it could not write, message
     * and cost.
     */
    static String finished(JobOutcome job, PriceTable prices) {
        long notWritten = job.notWritten();
        return String.format("Job %s %s: %d ranges, depth %d, %.1f s%s%s. Totals are the persisted counters.%s",
                job.jobId(), job.statusWord(), job.ranges(), job.maxDepth(), job.elapsedSeconds(),
                job.failedRanges() > 0 ? ", " + job.failedRanges() + " ranges failed" : "",
                notWritten == 0 ? "" : String.format(", but %,d entit%s could not be written (see skipped)", notWritten,
                        notWritten == 1 ? "y" : "ies"),
                job.message() == null ? "" : " " + job.message())
                + " Operations: " + job.operations().describe(prices) + ".";
    }

    /**
     * The timing line: "elapsed 12.3 s" (running time, pauses left out), "paused · elapsed 12.3 s" while paused, with
     * " · ETA 40 s" when the job has one (it runs on, and how much is left is known).
     */
    static String timing(JobProgress job) {
        String elapsed = String.format("elapsed %.1f s", job.elapsedSeconds());
        if (job.paused()) {
            return "paused · " + elapsed;
        }
        return elapsed + (job.etaSeconds().isPresent() ? String.format(" · ETA %.0f s", job.etaSeconds()
                .getAsDouble()) : "");
    }

    /** The timing line of a job that ended: its run's own elapsed time, the one its summary gives; no ETA. */
    static String timing(JobOutcome job) {
        return timing(job.elapsedSeconds());
    }

    /** The timing line of a run that ended after {@code seconds}: "elapsed 104.3 s". */
    static String timing(double seconds) {
        return String.format("elapsed %.1f s", seconds);
    }

    /**
     * What the Run tab says of a stored job it shows: "Job X (stored, done): 35 ranges, depth 2, 97.0 s; stored as
     * 1025 cells: …" (its last run as its summary gave it, then what is stored of it), or that it follows it.
     */
    static String inspected(Inspection inspection) {
        boolean live = inspection.status() == JobStatus.RUNNING;
        String lastRun = !inspection.ended() ? "" : String.format("%s%.1f s; stored as ", inspection.lastRanges() > 0
                ? String.format("%d ranges, depth %d, ", inspection.lastRanges(), inspection.lastDepth()) : "",
                inspection.lastWallMillis() / 1000.0);
        return "Job " + inspection.jobId() + " (stored" + (live ? ", following: running elsewhere" : ", "
                + inspection.status().word()) + "): " + lastRun
                + ranges(inspection.nodes(), lastRun.isEmpty() ? "ranges" : "cells")
                + (inspection.backup() == null ? "" : "; backed up first to " + inspection.backup());
    }

    /** "44 ranges: 30 read to the end, 14 split into others", with those failed or still to go when there are any. */
    static String ranges(List<NodeSnapshot> nodes) {
        return ranges(nodes, "ranges");
    }

    /** As {@link #ranges(List)}, naming them {@code noun}: "1025 cells: …" for a job's stored cells. */
    private static String ranges(List<NodeSnapshot> nodes, String noun) {
        JobProgress.Ranges ranges = JobProgress.Ranges.of(nodes);
        return ranges.count() + " " + noun + ": " + ranges.done() + " read to the end, " + ranges.split()
                + " split into others" + (ranges.failed() > 0 ? ", " + ranges.failed() + " failed" : "")
                + (ranges.toGo() > 0 ? ", " + ranges.toGo() + " to go" : "");
    }
}
