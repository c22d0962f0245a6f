package io.keyranger.executor.lease;

import io.keyranger.KeyRangerException;

/**
 * This runner's epoch is no longer the job's (another runner took it over), or a revert took the job back: this runner
 * must apply nothing more.
 */
public final class JobFencedException extends KeyRangerException {
    public JobFencedException(String message) {
        super(message);
    }

    /** For a runner of a job that revert {@code revertId} took back; {@code label} is "Job ID". */
    public static JobFencedException reverted(String label, String revertId) {
        return new JobFencedException(label + " was reverted (by " + revertId + "): this runner stopped, and the "
                + "chunks it had in flight committed nothing.");
    }

    /**
     * The refusal to go on with a job that revert {@code revertId} took back (a resume, a re-run of an import);
     * {@code label} is "Job ID" or "Import ID", {@code instead} what to do ("Start a new job instead.").
     */
    public static KeyRangerException notResumable(String label, String revertId, String instead) {
        return new KeyRangerException(label + " was reverted (by " + revertId + "): going on with it would apply "
                + "again what the revert took back. " + instead);
    }
}
