package io.keyranger.sharding;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A filtered job's ranges where its filters select entities, when its plan could only sample the whole kind (the
 * composite index of the filters and {@code __scatter__} is missing, as it is unless someone made it): a job whose
 * filter selects one tenth of a kind, in one region of its key space, would otherwise start one range where its
 * entities are for every ten where none is, and find out page by page. The planned ranges are counted under the
 * filters, all at once (COUNT aggregation, which the filters' built-in indexes serve), and the job's shards are dealt
 * to the ranges in proportion to what each holds, cut at the kind's samples inside them. Ranges that hold nothing
 * stay in the plan, so that the job still covers the whole key space, a few neighbours joined into one. A server
 * without COUNT (the legacy emulator) keeps the plan as it was.
 */
public final class MatchedRanges {
    /** Neighbouring planned ranges that select nothing joined into one range of the job, at most. */
    static final int EMPTY_JOINED = 4;

    private final Datastore datastore;
    private final KeyOrder order;

    public MatchedRanges(Datastore datastore, KeyOrder order) {
        this.datastore = datastore;
        this.order = order;
    }

    /**
     * {@code plan}, re-cut where {@code request}'s filters select entities, or {@code plan} itself when the request
     * has no filters, the server has no COUNT, or nothing is selected.
     */
    public ShardPlanner.RangePlan recut(PlanRequest request, ShardPlanner.RangePlan plan, Cancellation cancellation) {
        if (request.filters().isEmpty() || plan.ranges().size() < 2) {
            return plan;
        }
        long[] counts = counts(request, plan.ranges(), cancellation);
        if (counts == null) {
            return plan;
        }
        return new ShardPlanner.RangePlan(ShardPlanner.rangesAt(order, bounds(plan, counts, request.shards())),
                plan.samples());
    }

    /**
     * The bounds of the re-cut plan: each planned range that selects entities cut into its share of the pieces at
     * evenly spaced samples inside it, and runs of ranges that select nothing joined, {@link #EMPTY_JOINED} at most.
     * Null counts or none selected: the plan's own bounds.
     */
    List<Key> bounds(ShardPlanner.RangePlan plan, long[] counts, int shards) {
        List<KeyRange> ranges = plan.ranges();
        long total = 0;
        int matched = 0;
        for (long count : counts) {
            total += count;
            matched += count > 0 ? 1 : 0;
        }
        List<Key> bounds = new ArrayList<>();
        if (total == 0) {
            ranges.subList(1, ranges.size()).forEach(r -> bounds.add(r.start()));
            return bounds;
        }
        boolean[] starts = starts(counts);
        int emptyRanges = 0;
        for (int i = 0; i < counts.length; i++) {
            emptyRanges += starts[i] && counts[i] == 0 ? 1 : 0;
        }
        int[] pieces = dealt(counts, total, Math.max(matched, shards - emptyRanges));
        for (int i = 0; i < ranges.size(); i++) {
            if (i > 0 && starts[i]) {
                bounds.add(ranges.get(i).start());
            }
            if (counts[i] > 0) {
                bounds.addAll(inside(plan.samples(), ranges.get(i), pieces[i]));
            }
        }
        return bounds;
    }

    /**
     * Which planned ranges start a range of the job: every one that selects entities, and of a run that selects
     * nothing, the first and every {@link #EMPTY_JOINED}th after it.
     */
    private static boolean[] starts(long[] counts) {
        boolean[] starts = new boolean[counts.length];
        int joined = 0;
        for (int i = 0; i < counts.length; i++) {
            boolean join = i > 0 && counts[i] == 0 && counts[i - 1] == 0 && joined < EMPTY_JOINED;
            starts[i] = !join;
            joined = counts[i] > 0 ? 0 : join ? joined + 1 : 1;
        }
        return starts;
    }

    /** {@code pieces} dealt to the ranges in proportion to their counts, one at least to each that has any. */
    static int[] dealt(long[] counts, long total, int pieces) {
        int[] dealt = new int[counts.length];
        double[] rest = new double[counts.length];
        int given = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                double share = (double) pieces * counts[i] / total;
                dealt[i] = Math.max(1, (int) Math.floor(share));
                rest[i] = share - Math.floor(share);
                given += dealt[i];
            }
        }
        while (given < pieces) { // the largest remainders first
            int best = -1;
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0 && (best < 0 || rest[i] > rest[best])) {
                    best = i;
                }
            }
            dealt[best]++;
            rest[best] = -1;
            given++;
        }
        return dealt;
    }

    /** Up to {@code pieces - 1} evenly spaced samples strictly inside {@code range}, in key order. */
    private List<Key> inside(List<Key> samples, KeyRange range, int pieces) {
        List<Key> within = samples.stream().filter(k -> range.contains(k) && !k.equals(range.start())).toList();
        int cuts = Math.min(pieces - 1, within.size());
        List<Key> out = new ArrayList<>(cuts);
        for (int j = 1; j <= cuts; j++) {
            out.add(within.get((int) ((long) j * within.size() / (cuts + 1))));
        }
        return out;
    }

    /** Each range's count under the request's filters, counted at once; null when the server has no COUNT. */
    private long[] counts(PlanRequest request, List<KeyRange> ranges, Cancellation cancellation) {
        KeyCounter counter = new KeyCounter(datastore);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(ExactScan.parallelism(request.shards(), ranges.size()),
                r -> {
                    Thread thread = new Thread(r, "keyranger-count-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<Future<OptionalLong>> parts = new ArrayList<>(ranges.size());
            for (KeyRange range : ranges) {
                parts.add(pool.submit(() -> {
                    cancellation.check();
                    return counter.tryAggregate(range.applyTo(Query.newKeyQueryBuilder()
                            .setNamespace(request.namespace()).setKind(request.kind()), request.filters()).build());
                }));
            }
            long[] counts = new long[ranges.size()];
            for (int i = 0; i < counts.length; i++) {
                OptionalLong count = parts.get(i).get();
                if (count.isEmpty()) {
                    return null;
                }
                counts[i] = count.getAsLong();
            }
            return counts;
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
}
