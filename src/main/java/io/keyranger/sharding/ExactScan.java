package io.keyranger.sharding;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Keys-only scans for the planner: a few keys in key order, or every key of a kind too small for its scatter sample.
 * The full scan reads the ranges between every {@link #SAMPLES_PER_QUERY}th sample at once ({@link #PARALLELISM}
 * queries in flight), so a small kind is listed in about one round trip instead of one per thousand keys, a query
 * about a page of keys. A plan from a sample of the whole kind asks each of its ranges for its first match the same
 * way, at once ({@link MatchingSpans}).
 */
public final class ExactScan {
    /** Ranges scanned at once, at least (a job of more shards scans as many at once as it has shards). */
    public static final int PARALLELISM = 64;
    /** Keys a query returns per call (production's batch). */
    static final int PAGE = 1_000;
    /**
     * Samples a range of the full scan spans: a scatter sample stands for about 128 keys, so a range holds about a
     * page. A range between each two samples made a query of ~130 keys each: 78 queries for 10,000 keys in
     * production's scatter rate, where 11 read as much in the same round trip.
     */
    static final int SAMPLES_PER_QUERY = 7;

    private final Datastore datastore;
    private final KeyOrder order;

    public ExactScan(Datastore datastore, KeyOrder order) {
        this.datastore = datastore;
        this.order = order;
    }

    /** Ranges scanned at once for a plan of {@code shards} over {@code ranges} ranges between samples. */
    public static int parallelism(int shards, int ranges) {
        return Math.max(1, Math.min(ranges, Math.max(PARALLELISM, shards)));
    }

    /** Up to {@code max} keys of {@code range} the request selects, in key order. */
    public List<Key> keys(PlanRequest request, KeyRange range, long max, Cancellation cancellation) {
        return scan(request, range, max, new AtomicLong(), cancellation);
    }

    /**
     * Every key the request selects, in key order, read over the ranges between every {@link #SAMPLES_PER_QUERY}th of
     * {@code samples} at once; more than
     * {@code limit} keys are refused by {@code tooMany} (the scan stops once they are found).
     */
    public List<Key> all(PlanRequest request, List<Key> samples, long limit, Cancellation cancellation,
                         Supplier<KeyRangerException> tooMany) {
        List<Key> sorted = samples.stream().sorted(order).distinct().toList();
        List<Key> bounds = new ArrayList<>(sorted.size() / SAMPLES_PER_QUERY);
        for (int i = SAMPLES_PER_QUERY - 1; i < sorted.size(); i += SAMPLES_PER_QUERY) {
            bounds.add(sorted.get(i));
        }
        List<KeyRange> ranges = ShardPlanner.rangesAt(order, bounds);
        AtomicLong total = new AtomicLong();
        List<Key> keys = new ArrayList<>();
        for (List<Key> part : eachAtOnce(request, ranges, range -> scan(request, range, limit + 1, total,
                cancellation))) {
            keys.addAll(part);
        }
        if (keys.size() > limit) {
            throw tooMany.get();
        }
        return keys;
    }

    /**
     * The first key the request selects in each of {@code ranges} (null where it selects none), asked of every range
     * at once: one keys-only query of one key each.
     */
    List<Key> firstOfEach(PlanRequest request, List<KeyRange> ranges, Cancellation cancellation) {
        List<Key> firsts = new ArrayList<>(ranges.size());
        for (List<Key> first : eachAtOnce(request, ranges, range -> keys(request, range, 1, cancellation))) {
            firsts.add(first.isEmpty() ? null : first.get(0));
        }
        return firsts;
    }

    /** {@code read} of every range, up to {@link #parallelism} at once, in the ranges' order. */
    private <T> List<T> eachAtOnce(PlanRequest request, List<KeyRange> ranges, Function<KeyRange, T> read) {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism(request.shards(), ranges.size()), r -> {
            Thread thread = new Thread(r, "keyranger-scan-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> parts = new ArrayList<>(ranges.size());
            for (KeyRange range : ranges) {
                parts.add(pool.submit(() -> read.apply(range)));
            }
            List<T> results = new ArrayList<>(ranges.size());
            for (Future<T> part : parts) {
                results.add(part.get());
            }
            return results;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new KeyRangerException(e.getCause().toString(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Keys of {@code range} in key order until {@code max} have been read here and in the scans sharing {@code total}. */
    private List<Key> scan(PlanRequest request, KeyRange range, long max, AtomicLong total, Cancellation cancellation) {
        List<Key> keys = new ArrayList<>();
        Cursor cursor = null;
        while (total.get() < max) {
            cancellation.check();
            int batch = (int) Math.min(PAGE, max - total.get());
            KeyQuery.Builder query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(request.namespace())
                    .setKind(request.kind()), request.filters()).setLimit(batch);
            if (cursor != null) {
                query.setStartCursor(cursor);
            }
            QueryResults<Key> results = datastore.run(query.build());
            int read = 0;
            while (results.hasNext()) {
                keys.add(results.next());
                read++;
            }
            total.addAndGet(read);
            if (read < batch) {
                break;
            }
            cursor = results.getCursorAfter();
        }
        return keys;
    }
}
