package io.keyranger.executor;

/**
 * How transient errors are retried per page: up to {@code maxAttempts} tries with exponential backoff and jitter
 * between {@code baseMillis} and {@code capMillis}.
 */
public record RetryPolicy(int maxAttempts, long baseMillis, long capMillis) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, 50, 10_000);
}
