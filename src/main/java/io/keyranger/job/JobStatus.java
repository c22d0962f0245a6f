package io.keyranger.job;

/**
 * A job's status as persisted. RUNNING after a crash means "interrupted": it can be resumed. TAKEN_OVER is never
 * persisted: it ends the run of a runner that another runner took the job from (see {@link JobLease}).
 */
public enum JobStatus {
    RUNNING, DONE, FAILED, CANCELLED, TAKEN_OVER
}
