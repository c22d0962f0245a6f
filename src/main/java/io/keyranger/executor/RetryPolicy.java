package io.keyranger.executor;

/**
 * How transient errors are retried per page: up to {@code maxAttempts} tries with exponential backoff and jitter
 * between {@code baseMillis} and {@code capMillis}. When the server cannot be reached at all, the job waits for it,
 * retrying with the same backoff, for up to {@code serverLostMillis} before the range fails (its checkpoint intact).
 */
public record RetryPolicy(int maxAttempts, long baseMillis, long capMillis, long serverLostMillis) {
    public static final long DEFAULT_SERVER_LOST_MILLIS = 10 * 60_000L;
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, 50, 10_000);

    public RetryPolicy(int maxAttempts, long baseMillis, long capMillis) {
        this(maxAttempts, baseMillis, capMillis, DEFAULT_SERVER_LOST_MILLIS);
    }

    /** Runs bookkeeping outside any range, retrying transient errors with this policy's backoff. */
    public <T> T call(java.util.function.Supplier<T> operation) {
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (io.keyranger.KeyRangerException e) {
                throw e;
            } catch (RuntimeException e) {
                if (!io.keyranger.datastore.Retries.isTransient(e) || attempt >= maxAttempts) {
                    throw e;
                }
                io.keyranger.datastore.Retries.sleepBackoff(attempt, baseMillis, capMillis);
            }
        }
    }
}
