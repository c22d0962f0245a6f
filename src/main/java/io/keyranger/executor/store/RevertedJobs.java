package io.keyranger.executor.store;

import com.google.cloud.datastore.Datastore;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.ListedJob;
import io.keyranger.mapper.Mappers;
import io.keyranger.formats.undo.UndoRecords;
import java.util.List;

/**
 * What a listing says of a reverted job: the revert that took it (the job's fence names it) and how far that revert
 * went, read from the revert's own job over the job's undo records and its counters.
 */
public final class RevertedJobs {
    private RevertedJobs() {
    }

    /** The revert that took {@code job}, or null when none did; {@code stored}: every job of the database. */
    public static ListedJob.Reverted of(Datastore datastore, JobStore.StoredJob job, List<JobStore.StoredJob> stored) {
        String by = job.revertedBy();
        if (by == null) {
            return null;
        }
        String undoKind = UndoRecords.kind(job.spec().jobId());
        // a revert of one job is a job named by; one of a job over several kinds is a group named by, whose job over
        // this kind's undo records is the one to read
        JobStore.StoredJob revert = stored.stream().filter(r -> r.spec().kind().equals(undoKind)
                && (r.spec().jobId().equals(by) || by.equals(r.spec().group()))).findFirst().orElse(null);
        if (revert == null) {
            return new ListedJob.Reverted(by, null, null, 0);
        }
        long kept = revert.status() == JobStatus.DONE ? ShardedCounter.existing(datastore,
                JobSpec.counterName(revert.spec().jobId())).totals().getOrDefault(Mappers.revertConflictCounter(), 0L)
                : 0;
        return new ListedJob.Reverted(by, revert.status(), revert.finished(), kept);
    }
}
