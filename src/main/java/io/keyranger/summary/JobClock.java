package io.keyranger.summary;

import io.keyranger.summary.JobProgress.Phase;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The one clock of a job followed while it runs: running time with pauses left out, and the rate of the last
 * seconds of running, from which the time left comes. Every progress display reads its figures from here (through
 * {@link #progress}); none times a job itself. Times are given in nanoseconds, so that tests drive a made-up
 * timeline. Thread-safe: a command line's timer and a job's listener may use it at once.
 */
public final class JobClock {
    /** The rate is that of the last this many nanoseconds of running, never of a window with a pause in it. */
    public static final long RATE_WINDOW_NANOS = 10_000_000_000L;
    /** Running time after a start or a resume before an ETA is given. */
    public static final long MIN_RATE_NANOS = 2_000_000_000L;

    /** Reads at recent samples since the last start or resume: {nanos, read}. */
    private final ArrayDeque<long[]> recent = new ArrayDeque<>();
    private long startNanos;
    private long pausedAt = -1;
    private long pausedNanos;
    private boolean stopping;

    public JobClock() {
        this(System.nanoTime());
    }

    public JobClock(long now) {
        start(now);
    }

    /** Starts the clock (again) from zero. */
    public synchronized void start(long now) {
        startNanos = now;
        pausedAt = -1;
        pausedNanos = 0;
        stopping = false;
        recent.clear();
    }

    /** Stops the clock: a paused job's running time and rate stand still, and it has no ETA. */
    public synchronized void pause(long now) {
        if (pausedAt < 0) {
            pausedAt = now;
        }
    }

    /** Starts the clock again after a pause; the rate is measured afresh. */
    public synchronized void resume(long now) {
        if (pausedAt >= 0) {
            pausedNanos += now - pausedAt;
            pausedAt = -1;
            recent.clear();
        }
    }

    /** The job was asked to stop: it has no ETA from now on, though its clock runs until it ends. */
    public synchronized void stopping(long now) {
        resume(now);
        stopping = true;
    }

    public synchronized boolean isPaused() {
        return pausedAt >= 0;
    }

    /** Running time at {@code now}: from the start, pauses left out. */
    public synchronized long elapsedNanos(long now) {
        return (pausedAt >= 0 ? pausedAt : now) - startNanos - pausedNanos;
    }

    /** Records how many entities were read by {@code now}; ignored while paused. */
    public synchronized void sample(long now, long read) {
        if (pausedAt >= 0) {
            return;
        }
        recent.addLast(new long[] {now, read});
        while (now - recent.peekFirst()[0] > RATE_WINDOW_NANOS) {
            recent.removeFirst();
        }
    }

    /**
     * The job at {@code now}: its totals and ranges as given, its running time, its recent rate and, while it runs on
     * and {@code known} (how many entities it reads in all; -1 when unknown) is more than it read, the time left at
     * that rate once the rate has been measured over {@link #MIN_RATE_NANOS} of running.
     */
    public synchronized JobProgress progress(long now, Map<String, Long> totals, JobProgress.Ranges ranges,
                                             long known) {
        Phase phase = pausedAt >= 0 ? Phase.PAUSED : stopping ? Phase.STOPPING : Phase.RUNNING;
        long read = totals.getOrDefault("read", 0L);
        long at = pausedAt >= 0 ? pausedAt : now; // a paused job's rate stands still with its clock
        long[] first = recent.peekFirst();
        double rate = first == null || at <= first[0] ? Double.NaN : (read - first[1]) / ((at - first[0]) / 1e9);
        OptionalDouble eta = phase == Phase.RUNNING && known > 0 && read < known && first != null
                && now - first[0] >= MIN_RATE_NANOS && read > first[1] ? OptionalDouble.of((known - read) / rate)
                : OptionalDouble.empty();
        return new JobProgress(totals, ranges, phase, elapsedNanos(now), rate, eta);
    }
}
