package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeyRangeTracker;
import io.keyranger.mapper.PageMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The adaptive split, for one range: fetch a page of its keys (one more than a page, to know where the rest starts),
 * claim them, commit them in chunks exactly once, move past the last one, and split the rest in two when the policy
 * finds a point; the two halves go back to the pool. A {@link KeyRangeTracker} owns which keys are this range's.
 */
final class RangeWorker {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RangeWorker.class);
    /** What a worker needs of its job. */
    record Job(Datastore datastore, JobSpec spec, KeyOrder order, ServerLimits limits, PageMapper mapper,
               PageCommitter committer, JobStore store, JobLease lease, ShardedCounter counter, RetryPolicy retries,
               JobListener listener, ProgressTree tree, SplitPolicy policy, SplitPoints splitPoints,
               RampingRateLimiter limiter, BooleanSupplier cancelled, BooleanSupplier stopped,
               Supplier<SplitPolicy.Load> load, ServerGauge gauge, Consumer<RangeNode> submit) {
    }

    private final Job job;
    private final RangeAttempts attempts;

    RangeWorker(Job job) {
        this.job = job;
        this.attempts = new RangeAttempts(job.retries(), job.spec().jobId(), job.listener(), job.cancelled(),
                this::retried, this::fail);
    }

    void run(RangeNode node) {
        start(node);
        KeyRangeTracker tracker = KeyRangeTracker.resume(node.range, node.lastKey(), node.entities());
        int pageSize = job.spec().pageSize();
        while (true) {
            if (job.stopped().getAsBoolean()) {
                node.status = NodeStatus.CANCELLED;
                job.tree().publish(node);
                return;
            }
            Optional<List<Key>> fetched = attempt(node, () -> job.policy().pagesByOffset()
                    ? fetchKeys(node.range, (int) node.entities(), pageSize + 1) : fetchKeys(tracker.remaining(), 0,
                    pageSize + 1));
            if (fetched.isEmpty()) {
                return; // the range failed for good and is marked failed
            }
            List<Key> keys = fetched.get().subList(0, Math.min(pageSize, fetched.get().size()));
            Key next = fetched.get().size() > pageSize ? fetched.get().get(pageSize) : null;
            if (keys.isEmpty()) {
                tracker.markExhausted();
                finishEmpty(node);
                return;
            }
            for (Key key : keys) {
                if (!tracker.tryClaim(key)) {
                    throw new IllegalStateException("The server returned " + key + " outside " + tracker.range());
                }
            }
            if (!commit(node, keys, next == null)) {
                return;
            }
            if (next == null) {
                tracker.markExhausted(); // the page's last commit marked the range done
                return;
            }
            if (job.stopped().getAsBoolean()) {
                continue;
            }
            List<Key> points = splitPoints(node, tracker.remaining(), next);
            if (LOG.isDebugEnabled()) {
                LOG.debug("Range {}: {}, latency {}x its floor, {} split points", node.id, job.load().get(),
                        String.format("%.2f", job.gauge().load()), points.size());
            }
            Optional<KeyRange> right = points.isEmpty() ? Optional.empty() : job.policy().blind()
                    ? tracker.trySplitBlind(points.get(0)) : tracker.trySplit(next, points.get(0));
            if (right.isPresent()) {
                split(node, tracker, pieces(right.get(), points));
                return;
            }
            // no split point, or none past the next key: go on linearly
        }
    }

    private void start(RangeNode node) {
        node.status = NodeStatus.RUNNING;
        if (node.startedAt == null) {
            node.startedAt = Instant.now();
        }
        job.tree().publish(node);
    }

    /** Commits a page in chunks; the range's last chunk also marks it done. False when the range failed. */
    private boolean commit(RangeNode node, List<Key> keys, boolean last) {
        List<List<Key>> chunks = Chunker.chunks(keys, job.limits(), job.mapper().needsEntities()
                || job.mapper().writes(), job.mapper().entityGroupsPerKey());
        for (int c = 0; c < chunks.size(); c++) {
            List<Key> chunk = chunks.get(c);
            boolean finishes = last && c == chunks.size() - 1;
            job.limiter().acquire(chunk.size());
            Optional<PageCommitter.Outcome> outcome = attempt(node, () -> job.committer().commit(node, chunk,
                    finishes));
            if (outcome.isEmpty()) {
                countFailed(node, keys.size() - keys.indexOf(chunk.get(0)));
                return false;
            }
            long before = node.entities();
            node.checkpoint = outcome.get().checkpoint();
            outcome.get().increments().forEach(job.tree()::addTotal);
            if (outcome.get().finished()) {
                node.status = NodeStatus.DONE;
                node.finishedAt = outcome.get().finishedAt();
            }
            job.tree().addToAncestors(node, node.entities() - before);
            job.tree().publish(node);
            job.tree().publishTotals();
        }
        return true;
    }

    private List<Key> splitPoints(RangeNode node, KeyRange rest, Key next) {
        return job.policy().splitPoints(new SplitPolicy.Context(rest, node.lastKey(), next, job.load().get(),
                job.order(), job.splitPoints(),
                range -> attempt(node, () -> fetchKeys(range, 0, 1)).flatMap(found -> found.stream().findFirst()),
                node.probes));
    }

    /** The range given away cut at the further split points (the first one is its start), in key order. */
    private List<KeyRange> pieces(KeyRange right, List<Key> points) {
        List<KeyRange> pieces = new ArrayList<>();
        KeyRange rest = right;
        for (Key at : points.subList(1, points.size())) {
            KeyRange[] halves = rest.splitAt(at);
            pieces.add(halves[0]);
            rest = halves[1];
        }
        pieces.add(rest);
        return pieces;
    }

    /**
     * Records the split (the node, now SPLIT, and its pieces: the tracker's rest first) in one fenced transaction,
     * then queues the pieces.
     */
    private void split(RangeNode node, KeyRangeTracker tracker, List<KeyRange> givenAway) {
        List<RangeNode> children = new ArrayList<>();
        children.add(new RangeNode(node.id + ".0", node.id, node.depth + 1, tracker.remaining()));
        for (KeyRange piece : givenAway) {
            children.add(new RangeNode(node.id + "." + children.size(), node.id, node.depth + 1, piece));
        }
        if (attempt(node, () -> job.store().saveSplit(job.lease(), job.spec().jobId(),
                node.withStatus(NodeStatus.SPLIT), children)).isEmpty()) {
            return;
        }
        node.status = NodeStatus.SPLIT;
        node.finishedAt = Instant.now();
        job.tree().publish(node);
        children.forEach(job.tree()::add);
        children.forEach(job.submit());
    }

    /** A range whose rest held no key: it is done, recorded in a fenced transaction. */
    private void finishEmpty(RangeNode node) {
        RangeNode done = node.withStatus(NodeStatus.DONE);
        done.finishedAt = Instant.now();
        if (attempt(node, () -> {
            job.store().saveNode(job.lease(), job.spec().jobId(), done);
            return true;
        }).isPresent()) {
            node.status = NodeStatus.DONE;
            node.finishedAt = done.finishedAt;
            job.tree().publish(node);
        }
    }

    /** Entities of a range that failed for good, counted under the range's fence. */
    private void countFailed(RangeNode node, long keys) {
        job.tree().addTotal("failed", keys);
        try {
            job.counter().increment("failed", keys, job.retries(),
                    tx -> job.lease().checkRange(tx.get(job.store().nodeKey(job.spec().jobId(), node.id))));
        } catch (JobFencedException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("Could not count {} failed entities of job {}", keys, job.spec().jobId(), e);
        }
    }

    /**
     * A page of keys in the range; with an offset (the limit/offset baseline only) the server skips that many first,
     * rescanning everything before the page.
     */
    private List<Key> fetchKeys(KeyRange range, int offset, int limit) {
        job.limiter().acquire(1);
        long started = System.nanoTime();
        List<Key> keys = query(range, offset, limit);
        job.gauge().record(System.nanoTime() - started);
        return keys;
    }

    /** Queries made alone before the job's ranges start, to learn the server's unloaded latency. */
    static final int CALIBRATION_QUERIES = 3;

    /**
     * Times {@link #CALIBRATION_QUERIES} one-key queries of {@code range}, one after another, and gives the gauge
     * their median as the server's latency without load. Optional: a failure only leaves the gauge uncalibrated.
     */
    void calibrate(KeyRange range) {
        long[] nanos = new long[CALIBRATION_QUERIES];
        try {
            for (int i = 0; i < nanos.length; i++) {
                long started = System.nanoTime();
                query(range, 0, 1);
                nanos[i] = System.nanoTime() - started;
            }
        } catch (RuntimeException e) {
            LOG.debug("Job {}: no calibration of the server's latency: {}", job.spec().jobId(), e.toString());
            return;
        }
        java.util.Arrays.sort(nanos);
        job.gauge().calibrate(nanos[nanos.length / 2]);
    }

    private List<Key> query(KeyRange range, int offset, int limit) {
        KeyQuery.Builder query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(job.spec().namespace())
                .setKind(job.spec().kind()), job.spec().mapper().where()).setLimit(limit);
        if (offset > 0) {
            query.setOffset(offset);
        }
        List<Key> keys = new ArrayList<>(limit);
        job.datastore().run(query.build()).forEachRemaining(keys::add);
        return keys;
    }

    private <T> Optional<T> attempt(RangeNode node, Supplier<T> operation) {
        return attempts.run(node, operation);
    }

    private void retried(RangeNode node, String error) {
        node.retries++;
        node.lastError = error;
        job.tree().publish(node);
    }

    /** Marks a range failed for good, recorded under its fence (a fenced record throws: the job was taken over). */
    void fail(RangeNode node, Exception error) {
        node.status = NodeStatus.FAILED;
        node.lastError = RangeAttempts.describe(error);
        node.failurePermanent = !io.keyranger.datastore.Retries.isTransient(error)
                && !io.keyranger.datastore.Retries.isServerUnreachable(error);
        node.finishedAt = Instant.now();
        LOG.warn("Range {} of job {} failed: {}", node.id, job.spec().jobId(), node.lastError);
        try {
            job.store().saveNode(job.lease(), job.spec().jobId(), node.withStatus(NodeStatus.FAILED));
        } catch (JobFencedException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("Could not record the failure of range {}", node.id, e);
        } finally {
            job.tree().publish(node);
        }
    }
}
