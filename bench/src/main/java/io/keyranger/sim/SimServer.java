package io.keyranger.sim;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The server and the machines of a simulated job, on a virtual clock: each call takes a latency drawn from the
 * production model's log-normal (a median and a 99th percentile, as {@code ModelServer} draws it), waits its turn when
 * the server already serves {@code capacity} calls, and, before that, takes {@code cpuNanos} of CPU on one of
 * {@code cores} processors shared by the client and the server (the bench's machine: client and model on 2 cores).
 * A capacity or a core count of 0 is unbounded (production, with a machine per worker group). Calls must be made in
 * order of their start times, as the simulation's event loop makes them.
 */
final class SimServer {
    private final double median;
    private final double sigma;
    private final long cpuNanos;
    private final PriorityQueue<Long> slots;
    private final PriorityQueue<Long> cores;
    private final int capacity;
    private final int coreCount;
    private final SplittableRandom random;
    private long calls;

    SimServer(double medianMs, double p99Ms, int capacity, int cores, double cpuMicrosPerCall, long seed) {
        this.median = medianMs * 1_000_000;
        this.sigma = medianMs == 0 ? 0 : Math.log(p99Ms / medianMs) / 2.326;
        this.capacity = capacity;
        this.coreCount = cores;
        this.cpuNanos = Math.round(cpuMicrosPerCall * 1000);
        this.slots = new PriorityQueue<>();
        this.cores = new PriorityQueue<>();
        this.random = new SplittableRandom(seed);
    }

    /** Makes a call at {@code now}: the time its answer arrives. */
    long call(long now) {
        calls++;
        long t = now;
        if (cpuNanos > 0) {
            t = take(cores, coreCount, t, cpuNanos);
        }
        long latency = Math.round(median * Math.exp(sigma * random.nextGaussian()));
        return capacity > 0 ? take(slots, capacity, t, latency) : t + latency;
    }

    /** One of {@code count} servers (none: unbounded) from {@code at} for {@code nanos}: when it is done. */
    private static long take(PriorityQueue<Long> free, int count, long at, long nanos) {
        if (count == 0) {
            return at + nanos;
        }
        long start = free.size() < count ? at : Math.max(at, free.poll());
        free.add(start + nanos);
        return start + nanos;
    }

    long calls() {
        return calls;
    }
}
