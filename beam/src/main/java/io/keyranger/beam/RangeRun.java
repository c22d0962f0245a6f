package io.keyranger.beam;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.keys.KeyRange;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * What a DoFn of a KeyRanger job does with a range, whichever way its runner hands ranges out ({@link KeyRangeFn} as
 * restrictions that it may split, {@link FlinkRangeFn} as whole elements): the job's page loop over the range, each
 * commit counted in the pipeline's metrics and this JVM's timings, its stop at the launcher's Ctrl-C ({@link #CANCELLED})
 * and the tests' injected worker deaths. One per DoFn
 * instance; the page work it runs is the JVM's ({@link JobConfig#work}).
 */
final class RangeRun implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Test faults thrown after a commit in this JVM so far, by job: a test's job counts its own, whatever a pipeline
     * another test left winding down commits meanwhile.
     */
    static final Map<String, AtomicInteger> THROWN = new ConcurrentHashMap<>();
    /** DoFn instances set up in this JVM. */
    static final AtomicInteger SETUPS = new AtomicInteger();
    /** Nanoseconds spent processing ranges in this JVM, over all threads. */
    static final AtomicLong PROCESS_NANOS = new AtomicLong();
    /** When ({@code System.nanoTime}) this JVM set up its first DoFn of the run: 0 until it does. */
    static final AtomicLong FIRST_SETUP = new AtomicLong();
    /** When this JVM began its first range of the run: 0 until it does. */
    static final AtomicLong FIRST_PROCESS = new AtomicLong();
    /** When this JVM ended its last range so far: 0 until it does. */
    static final AtomicLong LAST_PROCESS_END = new AtomicLong();
    /**
     * Whether this JVM's launcher cancelled the job (Ctrl-C on a runner in its JVM: the DirectRunner, Flink's local
     * mini-cluster): every page loop here stops before its next call, so no range and no page starts and only the
     * commits under way end.
     */
    static final AtomicBoolean CANCELLED = new AtomicBoolean();
    /** Ranges this JVM is processing now. */
    static final AtomicInteger PROCESSING = new AtomicInteger();

    private final JobConfig config;
    private final Counter applied = Metrics.counter(KeyRangeFn.class, "applied");
    private final Counter alreadyApplied = Metrics.counter(KeyRangeFn.class, "alreadyApplied");
    private final Counter restrictions = Metrics.counter(KeyRangeFn.class, "restrictions");
    private transient CellPlan cells;
    private transient PageLoop loop;
    private transient int commits;

    RangeRun(JobConfig config) {
        this.config = config;
    }

    JobConfig config() {
        return config;
    }

    /** A DoFn's set-up: the job's cells, decoded once a JVM. */
    void setUp() {
        SETUPS.incrementAndGet();
        FIRST_SETUP.compareAndSet(0, System.nanoTime());
        cells = config.cells();
    }

    CellPlan cells() {
        return cells;
    }

    /** A tracker over {@code range} for this job's cells. */
    ConcurrentRangeTracker tracker(KeyRange range) {
        return new ConcurrentRangeTracker(range, cells, config.entitiesPerCell());
    }

    /**
     * Runs the page loop over {@code tracker}'s range, claiming each key through {@code claim}; {@code committed} hears
     * of each commit after the pipeline's metrics have counted it. The range's pages are the job's, or, when
     * {@code linear} (a range its runner will never split), each twice as wide as the last up to
     * {@link PageLoop#WIDEST_PAGE}, as a local run widens those of a range it cannot split: fewer calls an entity.
     */
    void process(ConcurrentRangeTracker tracker, Predicate<Key> claim, Consumer<CellCommitter.Outcome> committed,
                 boolean linear) {
        if (loop == null) { // only the instances that process ranges need the job's work
            loop = new PageLoop(config.work(), null, config.covered()).stopWhen(Cancellation.of(CANCELLED::get));
        }
        loop.pageSize(config.pageSize()); // each range starts from the job's page
        Predicate<Key> afterPage = !linear ? next -> true : next -> {
            loop.pageSize(PageLoop.wider(loop.pageSize(), config.pageSize()));
            return true;
        };
        restrictions.inc();
        long started = System.nanoTime();
        FIRST_PROCESS.compareAndSet(0, started);
        PROCESSING.incrementAndGet();
        try {
            loop.process(tracker, claim, outcome -> {
                applied.inc(outcome.applied());
                alreadyApplied.inc(outcome.alreadyApplied());
                committed.accept(outcome);
                commits++;
                if (config.failAfterCommits() > 0 && commits % config.failAfterCommits() == 0
                        && THROWN.computeIfAbsent(config.jobId(), id -> new AtomicInteger()).getAndIncrement()
                        < config.failures()) {
                    throw new IllegalStateException("Injected fault: the worker dies after a commit (test)");
                }
            }, afterPage);
        } finally {
            PROCESSING.decrementAndGet();
            long ended = System.nanoTime();
            PROCESS_NANOS.addAndGet(ended - started);
            LAST_PROCESS_END.accumulateAndGet(ended, Math::max);
        }
    }
}
