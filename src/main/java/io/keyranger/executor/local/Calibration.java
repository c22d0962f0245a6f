package io.keyranger.executor.local;

import io.keyranger.executor.cells.PageSource;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's latency without load, as a job's {@link ServerGauge} starts from: {@link #QUERIES} one-key queries of
 * the job's input, one after another, made beside the job's start so that they cost its first page few round trips.
 * Its ranges start once they are done: under the load of the ranges the latency would already be a loaded one. On a
 * server that answers many requests at once (production) they are made beside a new job's plan; on one that answers
 * one at a time (the emulators) they would queue behind the plan's queries there, so they are made once the job's own
 * heavier reads are answered (a new job's plan, a resumed job's ledgers), beside its lighter last calls (the commit
 * that creates it).
 */
public final class Calibration {
    private static final Logger LOG = LoggerFactory.getLogger(Calibration.class);
    /** Queries made alone before the job's ranges start. */
    public static final int QUERIES = 3;

    private final CompletableFuture<long[]> measured;
    private final String jobId;

    private Calibration(CompletableFuture<long[]> measured, String jobId) {
        this.measured = measured;
        this.jobId = jobId;
    }

    /**
     * Times one-key queries of {@code source} over its whole key space (in {@code order}) on {@code beside}, once
     * {@code after} is done (whether it failed or not).
     */
    static Calibration start(PageSource source, KeyOrder order, String jobId, CompletableFuture<?> after,
                             Executor beside) {
        return new Calibration(after.handle((done, failed) -> null).thenApplyAsync(ignored -> {
            long[] nanos = new long[QUERIES];
            for (int i = 0; i < nanos.length; i++) {
                long started = System.nanoTime();
                source.fetch(KeyRange.all(order), 0, 1);
                nanos[i] = System.nanoTime() - started;
            }
            return nanos;
        }, beside), jobId);
    }

    /**
     * Waits for the queries and gives {@code gauge} their median. Optional: a failure only leaves the gauge
     * uncalibrated.
     */
    void applyTo(ServerGauge gauge) {
        long[] nanos;
        try {
            nanos = measured.join();
        } catch (CompletionException e) {
            LOG.debug("Job {}: no calibration of the server's latency: {}", jobId, String.valueOf(e.getCause()));
            return;
        }
        gauge.calibrate(nanos);
    }
}
