package io.keyranger.job;

/** How a runner takes a job: as a new one, to resume it, or from another runner. */
public enum LeaseMode {
    /** A new job: its id must be free. */
    CREATE,
    /** Resume: refused while another runner holds a live lease. */
    RESUME,
    /** Take over: wait for another runner's lease to expire, then take the job. */
    TAKE_OVER,
    /** Take over at once, even from a live runner (which is fenced at its next commit). */
    TAKE_OVER_NOW
}
