package io.keyranger.job;

import io.keyranger.KeyRangerException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A job could not be taken: another runner holds a live lease on it. Says who, and how to take it over.
 *
 * @see #holder()
 */
public final class JobBusyException extends KeyRangerException {
    private final String holder;
    private final Instant expiresAt;

    /**
     * @param label     what could not be taken ("Job X")
     * @param holder    the runner that holds it, in words
     * @param expiresAt when its lease runs out unless renewed
     * @param lease     how long a lease lasts without renewal
     */
    public JobBusyException(String label, String holder, Instant expiresAt, Duration lease) {
        super(label + " is being run by " + holder + "; its lease is live until "
                + expiresAt.truncatedTo(ChronoUnit.SECONDS) + " and renewed while it "
                + "runs. Let it finish, or take the job over: once that lease runs out (a stopped runner's does within "
                + lease.toSeconds() + " s; on the command line --take-over), or at once (that runner "
                + "then stops at its next lease renewal, and what it still commits is applied once; --take-over --force).");
        this.holder = holder;
        this.expiresAt = expiresAt;
    }

    /** The runner that holds the job, in words. */
    public String holder() {
        return holder;
    }

    /** When the holder's lease runs out unless it renews it. */
    public Instant expiresAt() {
        return expiresAt;
    }
}
