package io.keyranger.executor.local;

import java.util.Arrays;

/**
 * Whether the server has room for more concurrent work, judged from its page-query latency: a smoothed latency near
 * the lowest the job has seen (alone before it started, or smoothed since) means requests are not queueing; one well
 * above it means the server (or the link) is saturated, and more ranges in flight would only queue longer. It needs no
 * knowledge of the server's kind: the serial emulator and a production server with room to spare show the difference
 * by themselves.
 *
 * <p>Latencies are smoothed as logarithms (a running geometric mean, the median of a log-normal), the measure that a
 * median of a few calibration queries estimates too: an arithmetic mean would put production's long tail (p99 five
 * times the median) against a median floor, and a calibration that drew a few fast calls would then read an idle
 * server as saturated and stop every split.
 */
public final class ServerGauge {
    /** Calls before the gauge judges anything: until then the server is taken to have room. */
    public static final int WARM_UP_CALLS = 16;
    /**
     * How far above its floor the smoothed latency may rise while the server still counts as having room: a queueing
     * server shows five times and more (the emulator under a job's workers, tens of times); the median of three
     * calibration draws from production's latency is off by up to 2.5 times one time in fifty.
     */
    public static final double HEADROOM_FACTOR = 3.0;
    /** Weight of each new call in the smoothed latency (about the last 20 calls count). */
    private static final double ALPHA = 0.05;

    private long calls;
    private double smoothed;
    private double floor = Double.MAX_VALUE;
    private final double headroom = Math.log(HEADROOM_FACTOR);

    /**
     * Records the round trips of queries made alone, before the job's ranges start: their median is what the server's
     * latency is without load. Under load from the first page on, the lowest smoothed latency would already be a
     * loaded one.
     */
    public synchronized void calibrate(long... nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        floor = Math.min(floor, Math.log(Math.max(1, sorted[sorted.length / 2])));
    }

    /** Records one page query's round trip. */
    public synchronized void record(long nanos) {
        calls++;
        double log = Math.log(Math.max(1, nanos));
        smoothed = calls == 1 ? log : smoothed + ALPHA * (log - smoothed);
        if (calls >= WARM_UP_CALLS) {
            floor = Math.min(floor, smoothed);
        }
    }

    /**
     * Whether more concurrent calls would still raise the calls served a second, with {@code inFlight} calls in flight
     * now (a range has at most one): while the smoothed latency is within {@link #HEADROOM_FACTOR} of its floor, or
     * has grown less than {@link #SCALING} times as fast as the calls in flight. A serial server's latency grows as
     * fast as the calls in flight (each waits for all before it), so it has none; a server that serves them at once
     * has room, even when a machine short of processors slows every call down (64 calls in flight on two cores take
     * 5-9 times as long as one alone, yet serve many times as many a second).
     */
    public synchronized boolean headroom(int inFlight) {
        if (calls < WARM_UP_CALLS) {
            return true;
        }
        return smoothed <= floor + Math.max(headroom, Math.log(Math.max(1, inFlight) * SCALING));
    }

    /**
     * Below this share of the calls in flight, a latency's growth over its floor still leaves headroom ({@link
     * #headroom}): latency that grows half as fast as concurrency still doubles the calls served a second.
     */
    public static final double SCALING = 0.5;

    /** The smoothed latency over its floor (1.0 at the floor), for logs and benchmarks; 1.0 while warming up. */
    public synchronized double load() {
        return calls < WARM_UP_CALLS ? 1.0 : Math.exp(smoothed - floor);
    }
}
