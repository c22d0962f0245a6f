package io.keyranger.sharding;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every range of a plan exactly, several ranges at a time; cancellable between pages. A range counted before
 * (a count that was cancelled, then started again) keeps its count and is not read again.
 */
public final class RangeCounter {
    /**
     * What a count reports as it goes, from the threads that count: each range once it is counted, and the keys
     * counted so far, page by page, so that a long range shows it is moving.
     */
    public interface Listener {
        /** {@code range} is counted ({@link PlannedRange#exact()} holds its size): {@code done} of {@code total} are. */
        void counted(PlannedRange range, int done, int total);

        /** Keys counted so far in this plan's ranges (a COUNT aggregation's answer comes whole). */
        default void keys(long counted) {
        }

        /** Reports only how many ranges are counted, as {@code ranges} reads progress. */
        static Listener ofRanges(ProgressListener ranges) {
            return (range, done, total) -> ranges.progress(done, total);
        }
    }

    private final KeyCounter counter;
    private final int parallelism;

    public RangeCounter(KeyCounter counter, int parallelism) {
        this.counter = counter;
        this.parallelism = Math.max(1, parallelism);
    }

    /** The plan with each range's exact size, reporting each range to {@code listener} as it is counted. */
    public ShardPlan countExactly(ShardPlan plan, PlanRequest request, Listener listener, Cancellation cancellation) {
        if (plan.hasExactCounts()) {
            return plan;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, plan.ranges().size()), runnable -> {
            Thread thread = new Thread(runnable, "keyranger-count");
            thread.setDaemon(true);
            return thread;
        });
        int total = plan.ranges().size();
        AtomicInteger done = new AtomicInteger();
        AtomicLong keys = new AtomicLong();
        try {
            List<Future<Long>> futures = new ArrayList<>(total);
            for (PlannedRange range : plan.ranges()) {
                if (range.exact() != null) {
                    done.incrementAndGet();
                    futures.add(CompletableFuture.completedFuture(range.exact()));
                    continue;
                }
                futures.add(pool.submit(() -> {
                    long[] seen = {0}; // this range's keys already added to the plan's
                    long count = counter.count(request.namespace(), request.kind(),
                            range.range().filter(request.filters()), (counted, all) -> {
                                listener.keys(keys.addAndGet(counted - seen[0]));
                                seen[0] = counted;
                            }, cancellation).count();
                    listener.counted(range.withExact(count), done.incrementAndGet(), total);
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
