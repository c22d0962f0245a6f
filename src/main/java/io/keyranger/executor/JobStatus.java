package io.keyranger.executor;

/** A job's status as persisted. RUNNING after a crash means "interrupted": it can be resumed. */
public enum JobStatus {
    RUNNING, DONE, FAILED, CANCELLED
}
