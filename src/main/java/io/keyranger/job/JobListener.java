package io.keyranger.job;

import java.util.Map;

/** Receives a job's events on worker threads; implementations must be quick and thread-safe. */
public interface JobListener {
    public JobListener NONE = new JobListener() {
    };

    /**
     * A node changed. Many per second on a big job: coalesce before touching a UI. Called from worker threads;
     * snapshots of one node arrive in the order they were taken, so keeping the latest one per node is right.
     */
    public default void onNode(NodeSnapshot node) {
    }

    /** In-memory running totals (read, written, …): fast but not the truth; the persisted counter is. */
    public default void onTotals(Map<String, Long> totals) {
    }

    /** The job is waiting for an unreachable server (a message), or it is reachable again (null). */
    public default void onServerStatus(String problem) {
    }

    public default void onFinished(JobResult result) {
    }
}
