package io.keyranger.job;

import java.time.Instant;
import java.util.List;

/**
 * A stored job, for listings.
 *
 * @param spec    its spec
 * @param status  its status; RUNNING for a job that is running or was interrupted
 * @param created when it was created
 * @param runner  who runs it now, in words, or null when no runner holds a live lease: a RUNNING job without one was
 *                interrupted
 * @param runners the runners that worked on it ({@link #LOCAL}, {@code beam}), in the order they first did
 */
public record ListedJob(JobSpec spec, JobStatus status, Instant created, String runner, List<String> runners) {
    /** The name of the local runner in a job's list of runners. */
    public static final String LOCAL = "local";

    /** "running on …", "interrupted", "done", … with the runners when more than the local one worked on it. */
    public String describeStatus() {
        String name = status == JobStatus.RUNNING ? runner != null ? "running (" + runner + ")" : "interrupted"
                : status.word();
        return runners.equals(List.of(LOCAL)) || runners.isEmpty() ? name
                : name + " (on " + String.join(" + ", runners) + ")";
    }
}
