package io.keyranger.job;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A run's throughput as the run measures it: once a second, what it read since the last sample, spread over the
 * running time between them ({@link RunThroughput#add}). The one chart of a run: the Run tab draws it live from the
 * job's handle, and the run's end stores it, so that Inspect draws the same points afterwards.
 */
public final class ThroughputSampler implements AutoCloseable {
    /** How often the run is sampled. */
    static final long EVERY_MILLIS = 1000;

    private final LongSupplier read;
    private final LongSupplier runningMillis;
    private final RunThroughput run = new RunThroughput();
    private final ScheduledExecutorService clock;
    private long lastRead;
    private long lastMillis;

    /**
     * Starts sampling now, once a second: {@code read} is what the run has read in all (a resumed job's earlier runs
     * included; only what it reads from now on counts), {@code runningMillis} its running time, its pauses left out.
     */
    public static ThroughputSampler start(String name, LongSupplier read, LongSupplier runningMillis) {
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "keyranger-throughput-" + name);
            thread.setDaemon(true);
            return thread;
        });
        ThroughputSampler sampler = new ThroughputSampler(read, runningMillis, clock);
        clock.scheduleAtFixedRate(sampler::sample, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
        return sampler;
    }

    /** A sampler that samples only when {@link #sample} is called ({@code clock} null), or on {@code clock}. */
    ThroughputSampler(LongSupplier read, LongSupplier runningMillis, ScheduledExecutorService clock) {
        this.read = read;
        this.runningMillis = runningMillis;
        this.clock = clock;
        this.lastRead = read.getAsLong();
        this.lastMillis = runningMillis.getAsLong();
    }

    /** Adds what was read since the last sample; paused, the running time stands and so does the chart. */
    synchronized void sample() {
        long now = runningMillis.getAsLong();
        long readNow = read.getAsLong();
        if (now > lastMillis || readNow != lastRead) {
            run.add(readNow - lastRead, lastMillis, Math.max(now, lastMillis));
            lastRead = readNow;
            lastMillis = Math.max(now, lastMillis);
        }
    }

    /** The points so far. */
    public synchronized List<RunThroughput.Point> points() {
        return run.points();
    }

    /** Stops sampling, after a last sample: what the run read up to its end is in the chart. */
    @Override
    public void close() {
        if (clock != null) {
            clock.shutdownNow();
        }
        sample();
    }
}
