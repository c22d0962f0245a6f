package io.keyranger.beam;

import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.keys.KeyRange;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;

/**
 * The splittable DoFn of a KeyRanger job: its element and restriction are a key range (the planner's starting ranges,
 * made of whole cells), over a kind's keys or over the positions of an import's or restore's files; its tracker is
 * KeyRanger's key-range tracker; each page it claims commits exactly once
 * through its cell's ledger. Outputs the number of entities each commit applied.
 */
@DoFn.BoundedPerElement
final class KeyRangeFn extends DoFn<KeyRange, Long> {
    /** Test faults thrown after a commit in this JVM so far. */
    static final AtomicInteger THROWN = new AtomicInteger();
    /** DoFn instances set up in this JVM. */
    static final AtomicInteger SETUPS = new AtomicInteger();
    /** Nanoseconds spent in processElement in this JVM, over all threads. */
    static final AtomicLong PROCESS_NANOS = new AtomicLong();
    /** When ({@code System.nanoTime}) this JVM set up its first DoFn of the run: 0 until it does. */
    static final AtomicLong FIRST_SETUP = new AtomicLong();
    /** When this JVM began its first restriction of the run: 0 until it does. */
    static final AtomicLong FIRST_PROCESS = new AtomicLong();
    /** When this JVM ended its last restriction so far: 0 until it does. */
    static final AtomicLong LAST_PROCESS_END = new AtomicLong();

    private final JobConfig config;
    private final Counter applied = Metrics.counter(KeyRangeFn.class, "applied");
    private final Counter alreadyApplied = Metrics.counter(KeyRangeFn.class, "alreadyApplied");
    private final Counter restrictions = Metrics.counter(KeyRangeFn.class, "restrictions");
    private transient CellPlan cells;
    private transient PageLoop processor;
    /** The tracker this instance made last: the runner hands processElement a wrapper of it. */
    private transient BeamKeyRangeTracker made;
    private transient int commits;

    KeyRangeFn(JobConfig config) {
        this.config = config;
    }

    @Setup
    public void setup() {
        SETUPS.incrementAndGet();
        FIRST_SETUP.compareAndSet(0, System.nanoTime());
        cells = config.cells();
    }

    @GetInitialRestriction
    public KeyRange initialRestriction(@Element KeyRange range) {
        return range;
    }

    @GetRestrictionCoder
    public Coder<KeyRange> restrictionCoder() {
        return KeyRangeCoder.of();
    }

    @NewTracker
    public BeamKeyRangeTracker newTracker(@Restriction KeyRange restriction) {
        made = new BeamKeyRangeTracker(new ConcurrentRangeTracker(restriction, cells, config.entitiesPerCell()));
        return made;
    }

    @GetSize
    public double size(@Restriction KeyRange restriction) {
        return cells.cellsIn(restriction) * Math.max(1, config.entitiesPerCell());
    }

    @ProcessElement
    public void process(RestrictionTracker<KeyRange, com.google.cloud.datastore.Key> tracker,
                        OutputReceiver<Long> out) {
        if (made == null || !made.currentRestriction().equals(tracker.currentRestriction())) {
            throw new IllegalStateException("The runner gave processElement a tracker this DoFn did not make");
        }
        BeamKeyRangeTracker own = made;
        if (processor == null) { // only the instances that process ranges need the job's work
            processor = new PageLoop(config.work(), null, config.covered());
        }
        restrictions.inc();
        long started = System.nanoTime();
        FIRST_PROCESS.compareAndSet(0, started);
        try {
            processRestriction(own, tracker, out);
        } finally {
            long ended = System.nanoTime();
            PROCESS_NANOS.addAndGet(ended - started);
            LAST_PROCESS_END.accumulateAndGet(ended, Math::max);
        }
    }

    private void processRestriction(BeamKeyRangeTracker own,
                                    RestrictionTracker<KeyRange, com.google.cloud.datastore.Key> tracker,
                                    OutputReceiver<Long> out) {
        boolean[] claims = {false, false}; // some claim made, some claim refused: Beam allows output in between
        processor.process(own.shared(), key -> {
            boolean claimed = tracker.tryClaim(key);
            claims[claimed ? 0 : 1] = true;
            return claimed;
        }, outcome -> {
            applied.inc(outcome.applied());
            alreadyApplied.inc(outcome.alreadyApplied());
            if (claims[0] && !claims[1]) {
                out.output((long) outcome.applied());
            }
            commits++;
            if (config.failAfterCommits() > 0 && commits % config.failAfterCommits() == 0
                    && THROWN.getAndIncrement() < config.failures()) {
                throw new IllegalStateException("Injected fault: the worker dies after a commit (test)");
            }
        });
    }
}
