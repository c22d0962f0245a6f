package io.keyranger.job;

import java.util.Locale;

/**
 * A job's status as persisted. RUNNING after a crash means "interrupted": it can be resumed. TAKEN_OVER is never
 * persisted: it ends the run of a runner that another runner took the job from (see {@link io.keyranger.executor.lease.JobLease}).
 */
public enum JobStatus {
    RUNNING, DONE, FAILED, CANCELLED, TAKEN_OVER;

    /** The status in a sentence: "done", "cancelled", "taken over". */
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
