package io.keyranger.job;

import io.keyranger.datastore.Retries;
import java.util.function.Supplier;

/**
 * How transient errors are retried per page: up to {@code maxAttempts} tries with exponential backoff and jitter
 * between {@code baseMillis} and {@code capMillis}. When the server cannot be reached at all, the job waits for it,
 * retrying with the same backoff, for up to {@code serverLostMillis} before the range fails (its checkpoint intact).
 */
public record RetryPolicy(int maxAttempts, long baseMillis, long capMillis, long serverLostMillis)
        implements Retries.Policy {
    public static final long DEFAULT_SERVER_LOST_MILLIS = 10 * 60_000L;
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, 50, 10_000);
    /** One attempt, no retry, no wait for the server. */
    public static final RetryPolicy ONCE = new RetryPolicy(1, 0, 0, 0);

    public RetryPolicy(int maxAttempts, long baseMillis, long capMillis) {
        this(maxAttempts, baseMillis, capMillis, DEFAULT_SERVER_LOST_MILLIS);
    }

    /** Runs bookkeeping outside any range with the one retry loop ({@link io.keyranger.datastore.Retries#call}). */
    public <T> T call(Supplier<T> operation) {
        return Retries.call(this, Retries.Observer.NONE, operation);
    }
}
