package io.keyranger.executor.local;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Retries;
import io.keyranger.job.JobInput;
import io.keyranger.job.MomentWatch;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adaptive split, for one range of a local run: the page loop ({@link PageLoop}) fetches a page of
 * its keys, claims them and commits them exactly once through their cells' ledgers; after each page the range splits
 * the rest when the policy finds a point, and the pieces go back to the pool. Splits live in this run's memory only:
 * what is committed is in the ledgers, so a split needs no transaction and a resume starts from the cells not done.
 * A range waits at the job's pause gate before it starts; once the job is cancelled it does not start (it ends
 * cancelled with no start time), and a running range begins no page and no commit (only a commit in flight ends).
 */
public final class RangeWorker {
    private static final Logger LOG = LoggerFactory.getLogger(RangeWorker.class);

    private final RunContext run;
    /** The run's pool: whether it stopped, how busy it is, and where split-off ranges go. */
    private final JobRun pool;
    private final RangeAttempts attempts;
    /** Why a range gave up on an unreachable server (it waited the policy's whole server-lost time), or null. */
    private final AtomicReference<String> serverGone = new AtomicReference<>();
    /** Why the run stopped: its moment of the past left the server's window ({@link MomentWatch}), or null. */
    private final AtomicReference<String> windowLeft = new AtomicReference<>();

    RangeWorker(RunContext run, JobRun pool) {
        this.run = run;
        this.pool = pool;
        this.attempts = new RangeAttempts(run.retries(), run.jobId(), run.listener(), pool::cancelled,
                this::retried);
    }

    void run(RangeNode node) {
        if (pool.stopped()) { // cancelled while it waited (a paused job's waits here): it never starts
            node.cancelled();
            run.tree().publish(node);
            return;
        }
        if (momentLeft(node, "not started: ")) {
            return;
        }
        String gone = serverGone.get();
        // waiting again, range after range, would only delay the job's end
        if (gone != null) {
            node.failed("not started: " + gone, false);
            run.tree().publish(node);
            return;
        }
        start(node);
        ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(node.range(), run.work().cells(), 0);
        PageLoop loop = new PageLoop(run.work(), calls(node), run.covered()).stopWhen(Cancellation.of(pool::cancelled));
        try {
            loop.process(tracker, tracker::tryClaim, outcome -> committed(node, outcome),
                    next -> afterPage(node, tracker, loop, next));
        } catch (CancellationException e) {
            if (!pool.cancelled()) { // an interrupt, not the job's Cancel: the range is not done, and says so
                fail(node, e);
                return;
            }
            node.cancelled();
            run.tree().publish(node);
            return;
        } catch (JobFencedException e) {
            throw e;
        } catch (RuntimeException e) {
            fail(node, e);
            return;
        }
        if (node.finished()) {
            run.tree().publish(node);
        }
    }

    private void start(RangeNode node) {
        node.started();
        run.tree().publish(node);
    }

    /** The loop's calls through this run's rate limit, latency gauge and retries, reported on the node. */
    private PageLoop.Calls calls(RangeNode node) {
        return new PageLoop.Calls() {
            @Override
            public <T> T query(Supplier<T> query) {
                return attempt(node, () -> {
                    run.limiter().acquire(1);
                    long started = System.nanoTime();
                    T value = query.get();
                    run.gauge().record(System.nanoTime() - started);
                    return value;
                });
            }

            @Override
            public <T> T commit(int keys, Supplier<T> commit) {
                run.limiter().acquire(Math.max(1, keys));
                if (pool.cancelled()) { // cancelled while it waited for the job's rate: it has not begun
                    throw new CancellationException("cancelled");
                }
                try {
                    return attempt(node, commit);
                } catch (RuntimeException e) {
                    node.couldNotCommit(keys);
                    throw e;
                }
            }
        };
    }

    private void committed(RangeNode node, CellCommitter.Outcome outcome) {
        int keys = outcome.applied() + outcome.alreadyApplied();
        node.committed(outcome.last(), keys);
        outcome.increments().forEach(run.tree()::addTotal);
        run.tree().addToAncestors(node, keys);
        run.tree().publish(node);
        run.tree().publishTotals();
    }

    /**
     * After a page: stop when the run is stopped, else split the rest when the policy finds points, else go on with a
     * page of the size the policy says.
     */
    private boolean afterPage(RangeNode node, ConcurrentRangeTracker tracker, PageLoop loop, Key next) {
        if (pool.stopped()) {
            node.cancelled();
            run.tree().publish(node);
            return false;
        }
        if (momentLeft(node, "stopped: ")) {
            return false;
        }
        KeyRange rest = tracker.remaining();
        SplitPolicy.Load load = pool.load();
        List<Key> points = run.policy().splitPoints(new SplitPolicy.Context(rest, node.lastKey(), next,
                load, run.work().order(), run.splitPoints(),
                range -> Optional.ofNullable(probe(node, range)), node.probes()));
        if (LOG.isDebugEnabled()) {
            LOG.debug("Range {}: {}, latency {}x its floor, {} split points", node.id(), load,
                    String.format("%.2f", run.gauge().load()), points.size());
        }
        if (points.isEmpty()) {
            loop.pageSize(run.policy().nextPage(load, loop.pageSize(), run.spec().pageSize()));
            return true;
        }
        Optional<KeyRange> right = tracker.splitAt(next, points.get(0), run.policy().blind());
        if (right.isEmpty()) {
            return true; // no split point past the next key: go on linearly
        }
        split(node, tracker.remaining(), SplitPoints.pieces(right.get(), points));
        return false;
    }

    /** The first key in {@code range}, or null. */
    private Key probe(RangeNode node, KeyRange range) {
        return calls(node).query(() -> run.work().firstKey(range));
    }

    /** The node is split: its rest and the pieces given away become its children, queued in the pool. */
    private void split(RangeNode node, KeyRange rest, List<KeyRange> givenAway) {
        List<RangeNode> children = new ArrayList<>();
        children.add(new RangeNode(node.id() + ".0", node.id(), node.depth() + 1, rest));
        for (KeyRange piece : givenAway) {
            children.add(new RangeNode(node.id() + "." + children.size(), node.id(), node.depth() + 1, piece));
        }
        node.split();
        run.tree().publish(node);
        children.forEach(run.tree()::add);
        children.forEach(pool::submit);
    }

    private <T> T attempt(RangeNode node, Supplier<T> operation) {
        return attempts.run(node, operation);
    }

    private void retried(RangeNode node, String error) {
        node.retried(error);
        run.tree().publish(node);
    }

    /**
     * Whether the job's moment of the past has left the server's window (now, or as a range found before): then
     * {@code node} ends here, unfinished ({@code how}: "not started: ", "stopped: "), with nothing recorded on a
     * ledger (a resume finds its checkpoint intact, and no finished cell is repainted), and the run starts no more.
     */
    private boolean momentLeft(RangeNode node, String how) {
        String left = windowLeft.get();
        if (left == null) {
            left = run.watch().left(Instant.now());
            if (left == null) {
                return false;
            }
            windowLeft.compareAndSet(null, left);
        }
        node.failed(how + windowLeft.get(), false);
        run.tree().publish(node);
        return true;
    }

    /** Why this run stopped: its moment of the past left the server's window. Null while it has not. */
    String windowLeft() {
        return windowLeft.get();
    }

    /**
     * Why this run stopped starting ranges: a range waited the policy's whole server-lost time for an unreachable
     * server. Null while no range has.
     */
    String serverGone() {
        return serverGone.get();
    }

    /**
     * Marks a range failed for good, and records where and why on the ledger of the cell it stopped in (the job's
     * report reads it there). The keys of a chunk that could not commit are counted as failed. A range that failed
     * because the server stayed unreachable records nothing (that would wait for the server again) and stops the run
     * from starting more: their checkpoints are intact, and a resume takes them up.
     */
    void fail(RangeNode node, Exception error) {
        Instant readTime = ReadWindow.versionDropped(error);
        if (readTime != null) { // the server dropped the version the read needs: the moment left its window
            windowLeft.compareAndSet(null, MomentWatch.stopped(run.jobId(), JobInput.of(run.spec())
                    .restoresThePast(), "the moment " + readTime + " has left the server's version window: "
                    + ReadWindow.DROPPED));
        }
        if (momentLeft(node, "stopped: ")) {
            LOG.warn("Range {} of job {} stopped: {}", node.id(), run.jobId(), RangeAttempts.describe(error));
            return;
        }
        boolean unreachable = Retries.isServerUnreachable(error);
        node.failed(RangeAttempts.describe(error), !Retries.isTransient(error) && !unreachable);
        LOG.warn("Range {} of job {} failed: {}", node.id(), run.jobId(), node.lastError());
        if (unreachable) {
            serverGone.compareAndSet(null, "the server was unreachable for " + run.retries().serverLostMillis() / 1000.0
                    + " s (" + node.lastError() + ")");
            run.tree().publish(node);
            return;
        }
        try {
            if (node.failedKeys() > 0) {
                run.countFailed(node.failedKeys());
            }
            Key at = node.lastKey() != null ? node.lastKey() : node.range().start();
            run.work().committer().recordFailure(at, node.lastError(), node.failurePermanent(), run.retries());
        } catch (RuntimeException e) {
            LOG.warn("Could not record the failure of range {}", node.id(), e);
        } finally {
            run.tree().publish(node);
        }
    }
}
