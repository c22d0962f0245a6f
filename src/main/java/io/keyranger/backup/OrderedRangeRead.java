package io.keyranger.backup;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every entity of a kind (or every key: {@link #each}), read over key ranges at once and handed on in key order, as
 * one query over the whole kind returns them: the past side of {@code diff --as-of} and the live keys that
 * {@code diff} reads for what was added since. The ranges are planned as a job's are ({@link ShardPlanner}, on the
 * client given: a past moment's client plans over the kind as it was then) and cut further at every
 * {@link #STRIDE}th of the plan's samples, so that a range is about {@link #PIECE} entities. They are contiguous and
 * in key order: each one's entities in turn are the kind's in key order.
 *
 * <p>Up to {@code parallel} ranges are read at once, and at most {@code 2 × parallel} are begun ahead of the one
 * handed on now, each holding at most {@link #AHEAD} entities until it is reached (a range larger than that waits
 * there): what it holds stays bounded whatever the kind's size. The first range is planned and read when the first
 * entity is asked for; no range begins once the cancellation says stop (asking for one then is a
 * {@link CancellationException}).
 */
final class OrderedRangeRead<T> implements Iterator<T>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OrderedRangeRead.class);
    /** Entities a range is cut to hold, about (scatter keeps about one key in {@value JobPlans#ENTITIES_PER_SAMPLE}). */
    static final int PIECE = 1_024;
    /** Samples between two cuts of a range. */
    static final int STRIDE = Math.max(1, PIECE / JobPlans.ENTITIES_PER_SAMPLE);
    /** Entities a range read ahead holds before it waits for the reader to reach it. */
    static final int AHEAD = 2 * PIECE;
    /** Samples asked of the planner, at most: enough to cut about 16 million entities into pieces. */
    private static final int SAMPLES = 16_384;
    private static final Object END = new Object();
    /** Put by a range that did not begin: the cancellation said stop before it. */
    private static final Object STOPPED = new Object();

    private final Datastore datastore;
    private final KeyOrder order;
    private final String namespace;
    private final String kind;
    private final int parallel;
    private final Cancellation cancellation;
    private final Supplier<? extends StructuredQuery.Builder<?>> query;
    private final Function<Object, ? extends T> each;
    private final List<BlockingQueue<Object>> read = new ArrayList<>();
    private List<KeyRange> ranges;
    private LookupPool pool;
    private int current;
    private T next;
    private volatile boolean closed;

    /** A range's read that failed: its exception, thrown where the entities are handed on. */
    private record Failed(RuntimeException error) {
    }

    private OrderedRangeRead(Datastore datastore, KeyOrder order, String namespace, String kind, int parallel,
                             Cancellation cancellation, Supplier<? extends StructuredQuery.Builder<?>> query,
                             Function<Object, ? extends T> each) {
        this.query = query;
        this.each = each;
        this.datastore = datastore;
        this.order = order;
        this.namespace = namespace;
        this.kind = kind;
        this.parallel = Math.max(1, parallel);
        this.cancellation = cancellation;
    }

    /** The kind's entities, whole. */
    static OrderedRangeRead<Entity> entities(Datastore datastore, KeyOrder order, String namespace, String kind,
                                             int parallel, Cancellation cancellation) {
        return new OrderedRangeRead<>(datastore, order, namespace, kind, parallel, cancellation,
                Query::newEntityQueryBuilder, Entity.class::cast);
    }

    /**
     * The kind's keys (its entities, whole, when {@code entities}), each turned by {@code each} in the thread that
     * read it, so that what each costs is spread over the ranges read at once; those it turns to null are passed over.
     */
    static <T> OrderedRangeRead<T> each(Datastore datastore, KeyOrder order, String namespace, String kind,
                                        int parallel, Cancellation cancellation, boolean entities,
                                        Function<Object, ? extends T> each) {
        return new OrderedRangeRead<>(datastore, order, namespace, kind, parallel, cancellation,
                entities ? Query::newEntityQueryBuilder : Query::newKeyQueryBuilder, each);
    }

    /**
     * The ranges the kind is read over, in key order: the planner's (twice as many as are read at once), cut at every
     * {@link #STRIDE}th sample. A kind the planner refuses to plan (more keys than it scans exactly on a server
     * without scatter samples) is read as one range, as before.
     */
    static List<KeyRange> plan(Datastore datastore, KeyOrder order, String namespace, String kind, int parallel,
                               Cancellation cancellation) {
        int shards = Math.min(PlanRequest.MAX_SHARDS, Math.max(1, parallel * 2));
        ShardPlanner.RangePlan plan;
        try {
            plan = new ShardPlanner(datastore, order).planRangesOrWhole(new PlanRequest(namespace, kind, List.of(),
                    shards, Math.max(PlanRequest.DEFAULT_OVERSAMPLE, Math.min(1000, SAMPLES / shards))),
                    cancellation);
        } catch (KeyRangerException unplanned) {
            LOG.info("Reading {} as one range: {}", kind, unplanned.getMessage());
            return List.of(KeyRange.all(order));
        }
        TreeSet<Key> bounds = new TreeSet<>(order);
        for (KeyRange range : plan.ranges()) {
            if (range.end() != null) {
                bounds.add(range.end());
            }
        }
        List<Key> samples = plan.samples().stream().sorted(order).toList();
        for (int i = STRIDE - 1; i < samples.size(); i += STRIDE) {
            bounds.add(samples.get(i));
        }
        return ShardPlanner.rangesAt(order, List.copyOf(bounds));
    }

    /** The ranges planned, once the first entity was asked for (0 before). */
    int ranges() {
        return ranges == null ? 0 : ranges.size();
    }

    @Override
    public boolean hasNext() {
        if (ranges == null) {
            ranges = plan(datastore, order, namespace, kind, parallel, cancellation);
            pool = new LookupPool(parallel, "keyranger-diff-range");
            LOG.info("Reading {} over {} ranges, {} at once", kind, ranges.size(), parallel);
        }
        while (next == null && current < ranges.size()) {
            begin();
            Object taken = current < read.size() ? take(read.get(current)) : STOPPED;
            if (taken == STOPPED) {
                throw new CancellationException("stopped before reading " + ranges.get(current));
            } else if (taken == END) {
                read.set(current, null);
                current++;
            } else if (taken instanceof Failed failed) {
                throw failed.error();
            } else {
                @SuppressWarnings("unchecked") // only a range's query results and the markers above are put
                T found = (T) taken;
                next = found;
            }
        }
        return next != null;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T found = next;
        next = null;
        return found;
    }

    /** Begins the ranges up to twice {@code parallel} ahead of the current one, unless stopped. */
    private void begin() {
        while (read.size() < ranges.size() && read.size() < current + 2 * parallel && !cancellation.isCancelled()) {
            KeyRange range = ranges.get(read.size());
            BlockingQueue<Object> into = new LinkedBlockingQueue<>(AHEAD);
            read.add(into);
            pool.submit(() -> {
                readInto(range, into);
                return null;
            });
        }
    }

    /** Reads {@code range} into {@code into}, then its end (or its failure); not at all once stopped. */
    private void readInto(KeyRange range, BlockingQueue<Object> into) throws InterruptedException {
        if (closed || cancellation.isCancelled()) {
            into.put(STOPPED); // a range the reader will not reach: the comparison stops before it
            return;
        }
        try {
            QueryResults<?> results = datastore.run(range.applyTo(query.get().setNamespace(namespace)
                    .setKind(kind), List.of()).build());
            while (results.hasNext() && !closed) {
                T found = each.apply(results.next());
                if (found != null) {
                    into.put(found);
                }
            }
            into.put(END);
        } catch (RuntimeException e) {
            into.put(new Failed(e));
        }
    }

    private static Object take(BlockingQueue<Object> from) {
        try {
            return from.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        }
    }

    @Override
    public void close() {
        closed = true;
        if (pool != null) {
            pool.close();
        }
    }
}
