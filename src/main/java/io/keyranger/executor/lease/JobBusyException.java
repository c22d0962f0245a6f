package io.keyranger.executor.lease;

import io.keyranger.KeyRangerException;
import java.time.temporal.ChronoUnit;

/** A job could not be taken: another runner holds a live lease on it. Says who, and how to take it over. */
public final class JobBusyException extends KeyRangerException {
    private final transient Holding holding;

    public JobBusyException(String label, Holding holding) {
        super(label + " is being run by " + holding.runner().describe() + "; its lease is live until "
                + holding.expiresAt().truncatedTo(ChronoUnit.SECONDS) + " and renewed while it "
                + "runs. Let it finish, or take the job over: once that lease runs out (a stopped runner's does within "
                + JobLease.DEFAULT_DURATION.toSeconds() + " s; on the command line --take-over), or at once (that runner "
                + "then stops at its next lease renewal, and what it still commits is applied once; --take-over --force).");
        this.holding = holding;
    }

    public Holding holding() {
        return holding;
    }
}
