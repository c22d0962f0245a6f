package io.keyranger.sharding;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts every range of a plan exactly, several ranges at a time; cancellable between pages. */
public final class RangeCounter {
    private final KeyCounter counter;
    private final int parallelism;

    public RangeCounter(KeyCounter counter, int parallelism) {
        this.counter = counter;
        this.parallelism = Math.max(1, parallelism);
    }

    /** The plan with each range's exact size; progress counts finished ranges. */
    public ShardPlan countExactly(ShardPlan plan, PlanRequest request, ProgressListener progress,
                                  Cancellation cancellation) {
        if (plan.hasExactCounts()) {
            return plan;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, plan.ranges().size()), runnable -> {
            Thread thread = new Thread(runnable, "keyranger-count");
            thread.setDaemon(true);
            return thread;
        });
        AtomicInteger done = new AtomicInteger();
        int total = plan.ranges().size();
        try {
            List<Future<Long>> futures = new ArrayList<>(total);
            for (PlannedRange range : plan.ranges()) {
                futures.add(pool.submit(() -> {
                    long count = counter.count(request.namespace(), request.kind(),
                            range.range().filter(request.filters()), ProgressListener.NONE, cancellation).count();
                    progress.progress(done.incrementAndGet(), total);
                    return count;
                }));
            }
            List<Long> counts = new ArrayList<>(total);
            for (Future<Long> future : futures) {
                counts.add(future.get());
            }
            return plan.withExactCounts(counts);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException cancelled) {
                throw cancelled;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } finally {
            pool.shutdownNow();
        }
    }
}
