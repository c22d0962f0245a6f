package io.keyranger.job;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A stored job, for listings.
 *
 * @param spec     its spec
 * @param status   its status; RUNNING for a job that is running or was interrupted
 * @param created  when it was created
 * @param runner   who runs it now, in words, or null when no runner holds a live lease: a RUNNING job without one was
 *                 interrupted
 * @param runners  the runners that worked on it ({@link #LOCAL}, {@code beam}), in the order they first did
 * @param reverted the last revert that took it, or null when none did
 */
public record ListedJob(JobSpec spec, JobStatus status, Instant created, String runner, List<String> runners,
                        Reverted reverted) {
    /** The name of the local runner in a job's list of runners. */
    public static final String LOCAL = "local";

    /**
     * The revert that took a job back, as far as it went.
     *
     * @param revertId its id (a job's, or a group's for a job over several kinds)
     * @param status   the status of its job over this job's undo records, or null when that job is not stored (it
     *                 was refused before it started)
     * @param finished when it ended, or null
     * @param kept     the entities it left as they were because they changed since the job (conflicts it skipped)
     */
    public record Reverted(String revertId, JobStatus status, Instant finished, long kept) {
        /** "reverted by R at T", or what is left of the job when the revert did not take all of it back. */
        String describe(String jobId) {
            String at = finished == null ? "" : " at " + finished.truncatedTo(ChronoUnit.SECONDS);
            if (status == null) {
                return "taken by revert " + revertId + ", which never started (revert " + jobId + " again)";
            }
            return switch (status) {
                case RUNNING -> "being reverted by " + revertId + " (if it was interrupted: run --resume "
                        + revertId + ")";
                case DONE -> kept == 0 ? "reverted by " + revertId + at
                        : "reverted in part by " + revertId + at + ": " + String.format("%,d", kept) + (kept == 1
                        ? " entity has changed since the job and keeps its value (revert --force " + jobId
                                + " restores it too)"
                        : " entities have changed since the job and keep their values (revert --force " + jobId
                                + " restores them too)");
                default -> "reverted in part: revert " + revertId + " " + status.word() + at + " (run --resume "
                        + revertId + " finishes it)";
            };
        }
    }

    /**
     * "running on …", "interrupted", "done", … with the runners when more than the local one worked on it, and the
     * revert that took it back.
     */
    public String describeStatus() {
        String name = status == JobStatus.RUNNING ? runner != null ? "running (" + runner + ")" : "interrupted"
                : status.word();
        String on = runners.equals(List.of(LOCAL)) || runners.isEmpty() ? name
                : name + " (on " + String.join(" + ", runners) + ")";
        return reverted == null ? on : on + "; " + reverted.describe(spec.jobId());
    }
}
