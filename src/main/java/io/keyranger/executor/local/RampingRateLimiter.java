package io.keyranger.executor.local;

import com.google.common.util.concurrent.RateLimiter;
import java.util.concurrent.TimeUnit;

/**
 * Limits entity operations per second, ramping up as Datastore advises ("500/50/5"): start at no more than 500
 * operations a second and grow by 50% every 5 minutes, up to the job's limit. Guava's RateLimiter does the pacing.
 */
public final class RampingRateLimiter {
    public static final double START_QPS = 500;
    public static final long RAMP_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final double maxQps;
    private final long startNanos = System.nanoTime();
    private final RateLimiter limiter;

    /** A limiter for at most {@code maxQps} operations a second; 0 means unlimited. */
    public RampingRateLimiter(int maxQps) {
        this.maxQps = maxQps;
        this.limiter = maxQps > 0 ? RateLimiter.create(Math.min(START_QPS, maxQps)) : null;
    }

    public static double rateAt(double maxQps, long elapsedNanos) {
        double grown = START_QPS * Math.pow(1.5, (double) elapsedNanos / RAMP_NANOS);
        return Math.min(maxQps, grown);
    }

    public void acquire(int operations) {
        if (limiter == null || operations <= 0) {
            return;
        }
        double rate = rateAt(maxQps, System.nanoTime() - startNanos);
        if (Math.abs(limiter.getRate() - rate) > 0.5) {
            limiter.setRate(rate);
        }
        limiter.acquire(operations);
    }
}
