package io.keyranger.bench;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.common.util.concurrent.RateLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The growing shape's writer: while a job runs it adds entities in about key order, commits of 500 from
 * {@link #WRITERS} threads (batch i from thread i mod WRITERS), at {@link #PER_SECOND} entities a second, until all
 * are written or the job ends: a steady ingest into one key region. The rate is fixed, not as fast as the machine
 * allows, so that the shape is the same from run to run and from strategy to strategy (a writer at full speed took
 * what CPU the job left it, and the job's time followed). What it wrote is known exactly, so the check can say what
 * the job did with them.
 */
final class Newcomers {
    private static final String PREFIX = "grow-";
    /** Writer threads: one thread's commits alone are slower than a range's pages on a busy two-core machine. */
    static final int WRITERS = 8;
    /** Entities added a second: the 25,000 newcomers of a 100,000-entity run arrive over 12.5 s. */
    static final double PER_SECOND = 2_000;

    private final Datastore datastore;
    private final List<Entity> entities;
    private final AtomicLong written = new AtomicLong();
    private volatile boolean stopped;
    private volatile Throwable failure;
    private final List<Thread> threads = new ArrayList<>();
    private final RateLimiter rate =
            RateLimiter.create(PER_SECOND);

    Newcomers(Datastore datastore, List<Entity> entities) {
        this.datastore = datastore;
        this.entities = entities;
    }

    static boolean isNewcomer(Key key) {
        return key.hasName() && key.getName().startsWith(PREFIX);
    }

    void start() {
        if (entities.isEmpty()) {
            return;
        }
        for (int t = 0; t < WRITERS; t++) {
            int first = t;
            Thread thread = new Thread(() -> write(first), "keyranger-bench-newcomers-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void write(int firstBatch) {
        try {
            for (int i = firstBatch * 500; i < entities.size() && !stopped; i += WRITERS * 500) {
                List<Entity> batch = entities.subList(i, Math.min(entities.size(), i + 500));
                rate.acquire(batch.size());
                datastore.put(batch.toArray(new Entity[0]));
                written.addAndGet(batch.size());
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Stops adding (after the commit under way) and waits for the writer. */
    void stop() throws InterruptedException {
        stopped = true;
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Entities written, all committed. */
    long written() {
        return written.get();
    }

    Throwable failure() {
        return failure;
    }
}
