package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeySplitter;
import io.keyranger.mapper.PageMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run of a job: the worker pool, the live tree and the in-memory totals. */
final class JobRun {
    private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);
    /** Probes past a midpoint that found nothing before a range stops looking for a split point without samples. */
    static final int MAX_EMPTY_PROBES = 3;

    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private final JobStore store;
    private final JobSpec spec;
    private final PageMapper mapper;
    private final ShardedCounter counter;
    private final JobListener listener;
    private final List<Key> samples;
    private final PageCommitter committer;
    private final PartFiles parts;
    private final RampingRateLimiter limiter;
    private final PauseGate gate = new PauseGate();
    private final CompletableFuture<JobResult> result = new CompletableFuture<>();
    private final JobHandle handle;
    private final Map<String, RangeNode> nodes = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> totals = new ConcurrentHashMap<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger maxDepth = new AtomicInteger();
    private final ThreadPoolExecutor pool;
    private long startNanos;
    private final SplitPolicy splitPolicy;
    private final RangeAttempts attempts;
    private final JobLease lease;
    private final java.util.concurrent.atomic.AtomicReference<JobFencedException> fencedBy =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final java.util.concurrent.ScheduledExecutorService renewals;

    JobRun(Datastore datastore, KeyOrder order, ServerLimits limits, RetryPolicy retries, JobStore store, JobSpec spec,
           PageMapper mapper, ShardedCounter counter, JobListener listener, List<Key> samples, SplitPolicy splitPolicy,
           JobLease lease, CommitHook hook) {
        this.splitPolicy = splitPolicy;
        this.lease = lease;
        this.datastore = datastore;
        this.order = order;
        this.limits = limits;
        this.retries = retries;
        this.store = store;
        this.spec = spec;
        this.mapper = mapper;
        this.counter = counter;
        this.listener = listener;
        this.samples = samples.stream().sorted(order).toList();
        this.parts = mapper.outputFile() == null ? null : new PartFiles(mapper.outputFile(), spec.jobId());
        this.committer = new PageCommitter(datastore, store, order, mapper, counter, spec.jobId(), parts, lease, hook);
        this.limiter = new RampingRateLimiter(spec.qps());
        this.handle = new JobHandle(spec.jobId(), gate, result);
        this.attempts = new RangeAttempts(retries, spec.jobId(), listener, handle::isCancelled, this::publish,
                this::fail);
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(spec.workers(), spec.workers(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "keyranger-job-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.renewals = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "keyranger-lease-" + spec.jobId());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Publishes the whole tree, then runs the pending nodes. */
    JobHandle start(List<RangeNode> all, List<RangeNode> pending) {
        startNanos = System.nanoTime();
        counter.totals().forEach((field, value) -> totals.computeIfAbsent(field, f -> new LongAdder()).add(value));
        for (RangeNode node : all) {
            nodes.put(node.id, node);
            maxDepth.accumulateAndGet(node.depth, Math::max);
        }
        for (RangeNode node : all) {
            addToAncestors(node, node.entities);
        }
        all.forEach(this::publish);
        publishTotals();
        long every = Math.max(100, lease.duration().toMillis() / 3);
        renewals.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        outstanding.incrementAndGet(); // held until every pending node is submitted
        pending.forEach(this::submit);
        release();
        return handle;
    }

    private void submit(RangeNode node) {
        outstanding.incrementAndGet();
        pool.execute(() -> {
            try {
                process(node);
            } catch (JobFencedException e) {
                fenced(e);
                node.status = NodeStatus.CANCELLED;
                publish(node);
            } catch (RuntimeException e) {
                LOG.error("Range {} of job {} failed unexpectedly", node.id, spec.jobId(), e);
                fail(node, e);
            } finally {
                release();
            }
        });
    }

    private void release() {
        if (outstanding.decrementAndGet() == 0) {
            finish();
        }
    }

    private void process(RangeNode node) {
        node.status = NodeStatus.RUNNING;
        if (node.startedAt == null) {
            node.startedAt = Instant.now();
        }
        publish(node);
        while (true) {
            if (!awaitGate() || handle.isCancelled()) {
                node.status = NodeStatus.CANCELLED;
                publish(node);
                return;
            }
            KeyRange remaining = node.remaining();
            int offset = (int) node.entities;
            // one key more than a page: whether anything is left after it, and where the rest starts
            int limit = spec.pageSize() + 1;
            Optional<List<Key>> page = attempt(node, () -> splitPolicy == SplitPolicy.OFFSET
                    ? fetchKeys(node.range, offset, limit) : fetchKeys(remaining, 0, limit));
            if (page.isEmpty()) {
                return;
            }
            List<Key> fetched = page.get();
            boolean more = fetched.size() > spec.pageSize();
            List<Key> keys = more ? fetched.subList(0, spec.pageSize()) : fetched;
            if (keys.isEmpty()) {
                finishNode(node);
                return;
            }
            List<List<Key>> chunks = Chunker.chunks(keys, limits, mapper.needsEntities() || mapper.writes(),
                    mapper.entityGroupsPerKey());
            for (int c = 0; c < chunks.size(); c++) {
                List<Key> chunk = chunks.get(c);
                boolean finishes = !more && c == chunks.size() - 1; // the range's last chunk marks it done
                limiter.acquire(chunk.size());
                Optional<PageCommitter.Outcome> outcome = attempt(node, () -> committer.commit(node, chunk, finishes));
                if (outcome.isEmpty()) {
                    countFailed(node, keys.size() - keys.indexOf(chunk.get(0)));
                    return;
                }
                long before = node.entities;
                if (outcome.get().applied()) {
                    PageCommitter.applyTo(node, chunk);
                    outcome.get().increments().forEach(this::addTotal);
                }
                if (outcome.get().finished()) {
                    node.status = NodeStatus.DONE;
                }
                addToAncestors(node, node.entities - before);
                publish(node);
                publishTotals();
            }
            if (!more) {
                return;
            }
            if (handle.isCancelled()) {
                continue;
            }
            if (splitPolicy == SplitPolicy.NONE || splitPolicy == SplitPolicy.OFFSET) {
                continue;
            }
            if (splitPolicy == SplitPolicy.SAMPLES && !pool.getQueue().isEmpty()) {
                // ranges are waiting for a worker already: a split would only add a bookkeeping transaction
                continue;
            }
            KeyRange rest = node.remaining();
            Optional<Key> at = splitPolicy == SplitPolicy.SAMPLES
                    ? splitPoint(node, rest, fetched.get(spec.pageSize()))
                    : KeySplitter.midpoint(order, node.lastKey, rest.end());
            if (at.isPresent()) {
                split(node, rest, at.get());
                return;
            }
            // the rest cannot be split, or all of it lies before the split point: continue linearly
        }
    }

    /**
     * Where KeyRanger splits the rest of a range whose first key is {@code next}: at the median scatter sample after
     * {@code next}, else at the first key at or after the key midpoint. Either way both halves hold data: the left one
     * {@code next}, the right one the split key itself. Empty when no key lies past the midpoint either, since a split
     * into empty key space would cost a transaction and two queries for nothing.
     */
    private Optional<Key> splitPoint(RangeNode node, KeyRange rest, Key next) {
        Optional<Key> sample = AdaptiveSplitExecutor.medianSampleInside(samples, rest.advancePast(next), order);
        if (sample.isPresent() || node.emptyProbes >= MAX_EMPTY_PROBES) {
            return sample;
        }
        // no sample to go by: probe past the midpoint of what is not known to be empty
        Key end = node.emptyFrom != null ? node.emptyFrom : rest.end();
        Optional<Key> midpoint = KeySplitter.midpoint(order, next, end);
        if (midpoint.isEmpty()) {
            return Optional.empty();
        }
        KeyRange pastMidpoint = KeyRange.of(order, midpoint.get(), rest.end());
        Optional<List<Key>> probe = attempt(node, () -> fetchKeys(pastMidpoint, 0, 1));
        Optional<Key> found = probe.flatMap(keys -> keys.stream().findFirst());
        if (probe.isPresent() && found.isEmpty()) {
            node.emptyFrom = midpoint.get(); // nothing from here to the end: look nearer next time
            node.emptyProbes++;
        }
        return found;
    }

    /**
     * A page of keys in the range; with an offset (the limit/offset baseline only) the server skips that many first,
     * rescanning everything before the page.
     */
    private List<Key> fetchKeys(KeyRange range, int offset, int limit) {
        limiter.acquire(1);
        KeyQuery.Builder query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(spec.namespace())
                .setKind(spec.kind()), spec.mapper().where()).setLimit(limit);
        if (offset > 0) {
            query.setOffset(offset);
        }
        List<Key> keys = new ArrayList<>(limit);
        datastore.run(query.build()).forEachRemaining(keys::add);
        return keys;
    }

    private void split(RangeNode node, KeyRange rest, Key at) {
        KeyRange[] halves = rest.splitAt(at);
        RangeNode left = new RangeNode(node.id + ".0", node.id, node.depth + 1, halves[0]);
        RangeNode right = new RangeNode(node.id + ".1", node.id, node.depth + 1, halves[1]);
        if (attempt(node, () -> store.saveSplit(lease, spec.jobId(), node.withStatus(NodeStatus.SPLIT), left, right))
                .isEmpty()) {
            return;
        }
        node.status = NodeStatus.SPLIT;
        node.finishedAt = Instant.now();
        publish(node);
        for (RangeNode child : List.of(left, right)) {
            nodes.put(child.id, child);
            maxDepth.accumulateAndGet(child.depth, Math::max);
            publish(child);
        }
        submit(left);
        submit(right);
    }

    private void finishNode(RangeNode node) {
        RangeNode done = node.withStatus(NodeStatus.DONE);
        done.finishedAt = Instant.now();
        if (attempt(node, () -> {
            store.saveNode(lease, spec.jobId(), done);
            return true;
        }).isPresent()) {
            node.status = NodeStatus.DONE;
            node.finishedAt = done.finishedAt;
            publish(node);
        }
    }

    /** Runs an operation with retries on transient errors; empty when the node failed for good. */
    private <T> Optional<T> attempt(RangeNode node, Supplier<T> operation) {
        return attempts.run(node, operation);
    }

    private void fail(RangeNode node, Exception error) {
        node.status = NodeStatus.FAILED;
        node.lastError = RangeAttempts.describe(error);
        node.finishedAt = Instant.now();
        LOG.warn("Range {} of job {} failed: {}", node.id, spec.jobId(), node.lastError);
        try {
            store.saveNode(lease, spec.jobId(), node.withStatus(NodeStatus.FAILED));
        } catch (JobFencedException e) {
            fenced(e);
        } catch (RuntimeException e) {
            LOG.warn("Could not record the failure of range {}", node.id, e);
        }
        publish(node);
    }

    private void countFailed(RangeNode node, long keys) {
        addTotal("failed", keys);
        try {
            counter.increment("failed", keys, retries.maxAttempts(),
                    tx -> lease.checkRange(tx.get(store.nodeKey(spec.jobId(), node.id))));
        } catch (JobFencedException e) {
            fenced(e);
        } catch (RuntimeException e) {
            LOG.warn("Could not count {} failed entities of job {}", keys, spec.jobId(), e);
        }
    }

    private boolean awaitGate() {
        try {
            gate.awaitOpen();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void addTotal(String field, long value) {
        totals.computeIfAbsent(field, f -> new LongAdder()).add(value);
    }

    /** Like {@link #publish}: totals are taken and delivered under one lock, so they never arrive out of order. */
    private void publishTotals() {
        synchronized (totals) {
            listener.onTotals(snapshotTotals());
        }
    }

    private Map<String, Long> snapshotTotals() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        totals.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    private void addToAncestors(RangeNode node, long entities) {
        if (entities == 0) {
            return;
        }
        for (RangeNode n = node; n != null; n = n.parentId == null ? null : nodes.get(n.parentId)) {
            synchronized (n) {
                n.subtreeEntities += entities;
            }
            if (n != node) {
                publish(n);
            }
        }
    }

    /**
     * Hands the node's current state to the listener. A node is published from its own worker and from every
     * descendant's (subtree totals), so the snapshot is taken and delivered under the node's lock: listeners that keep
     * the latest snapshot per node then never see an older one arrive after a newer one.
     */
    private void publish(RangeNode node) {
        synchronized (node) {
            listener.onNode(node.snapshot(spec.jobId()));
        }
    }

    /** Renews the lease; a take-over found here stops the job before its next commit would find it. */
    private void renew() {
        if (fencedBy.get() != null) {
            return;
        }
        try {
            lease.renew();
        } catch (JobFencedException e) {
            fenced(e);
        } catch (RuntimeException e) {
            // the next renewal tries again; if the lease runs out meanwhile, fencing still keeps every commit safe
            LOG.warn("Could not renew the lease of job {}: {}", spec.jobId(), RangeAttempts.describe(e));
        }
    }

    /** Another runner took the job: stop at once, applying nothing more (every commit is fenced anyway). */
    private void fenced(JobFencedException e) {
        if (fencedBy.compareAndSet(null, e)) {
            LOG.warn("{}", e.getMessage());
            handle.cancel(); // the result says who took the job over
        }
    }

    private void finish() {
        pool.shutdown();
        renewals.shutdownNow();
        long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        int failed = (int) nodes.values().stream().filter(n -> n.status == NodeStatus.FAILED).count();
        JobStatus status = handle.isCancelled() ? JobStatus.CANCELLED : failed > 0 ? JobStatus.FAILED : JobStatus.DONE;
        JobResult done;
        try {
            if (fencedBy.get() == null) {
                done = record(status, wall, failed);
            } else {
                done = takenOver(wall, failed);
            }
        } catch (JobFencedException e) {
            fenced(e);
            done = takenOver(wall, failed);
        } catch (RuntimeException e) {
            // the server may be gone: end cleanly with what is known; the checkpoints are intact for a resume
            LOG.error("Job {} could not record its end", spec.jobId(), e);
            done = new JobResult(spec.jobId(), status == JobStatus.DONE ? JobStatus.FAILED : status, snapshotTotals(),
                    nodes.size(), maxDepth.get(), wall, Math.max(1, failed), "Could not record the end of the job: "
                    + RangeAttempts.describe(e));
        } finally {
            lease.ended();
        }
        listener.onFinished(done);
        result.complete(done);
    }

    /**
     * Records the job's end in a fenced transaction that also releases the lease. An export's parts are joined
     * before (every runner would join the same committed bytes, and the move into place is atomic) and removed only by
     * the runner whose end was recorded, so a runner taken over during the join never pulls them from under another.
     */
    private JobResult record(JobStatus status, long wall, int failed) {
        if (parts != null && status == JobStatus.DONE) {
            try {
                parts.join(List.copyOf(nodes.values()));
            } catch (RuntimeException e) {
                retries.call(() -> {
                    checkFence();
                    return null;
                });
                throw e;
            }
        }
        retries.call(() -> {
            store.finishJob(lease, status, wall);
            return null;
        });
        if (parts != null && status == JobStatus.DONE) {
            parts.removeParts();
        }
        Map<String, Long> persisted = retries.call(counter::totals);
        return new JobResult(spec.jobId(), status, persisted, nodes.size(), maxDepth.get(), wall, failed);
    }

    private void checkFence() {
        lease.check(datastore.get(lease.fenceKey()));
    }

    private JobResult takenOver(long wall, int failed) {
        Map<String, Long> totalsNow;
        try {
            totalsNow = retries.call(counter::totals);
        } catch (RuntimeException e) {
            totalsNow = snapshotTotals();
        }
        return new JobResult(spec.jobId(), JobStatus.TAKEN_OVER, totalsNow, nodes.size(), maxDepth.get(), wall, failed,
                fencedBy.get().getMessage());
    }
}
