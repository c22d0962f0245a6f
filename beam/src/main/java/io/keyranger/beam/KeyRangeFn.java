package io.keyranger.beam;

import io.keyranger.keys.KeyRange;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;

/**
 * The splittable DoFn of a KeyRanger job on a runner that splits and checkpoints running work (the DirectRunner,
 * Dataflow): its element and restriction are a key range (the planner's starting ranges, made of whole cells), over a
 * kind's keys or over the positions of an import's or restore's files; its tracker is KeyRanger's key-range tracker;
 * each page it claims commits exactly once through its cell's ledger ({@link RangeRun}). Outputs the number of
 * entities each commit applied.
 */
@DoFn.BoundedPerElement
final class KeyRangeFn extends DoFn<KeyRange, Long> {
    private final RangeRun run;
    /** The tracker this instance made last: the runner hands processElement a wrapper of it. */
    private transient BeamKeyRangeTracker made;

    KeyRangeFn(JobConfig config) {
        this.run = new RangeRun(config);
    }

    @Setup
    public void setup() {
        run.setUp();
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
        made = new BeamKeyRangeTracker(run.tracker(restriction));
        return made;
    }

    @GetSize
    public double size(@Restriction KeyRange restriction) {
        return run.cells().cellsIn(restriction) * Math.max(1, run.config().entitiesPerCell());
    }

    @ProcessElement
    public void process(RestrictionTracker<KeyRange, com.google.cloud.datastore.Key> tracker,
                        OutputReceiver<Long> out) {
        if (made == null || !made.currentRestriction().equals(tracker.currentRestriction())) {
            throw new IllegalStateException("The runner gave processElement a tracker this DoFn did not make");
        }
        boolean[] claims = {false, false}; // some claim made, some claim refused: Beam allows output in between
        run.process(made.shared(), key -> {
            boolean claimed = tracker.tryClaim(key);
            claims[claimed ? 0 : 1] = true;
            return claimed;
        }, outcome -> {
            if (claims[0] && !claims[1]) {
                out.output((long) outcome.applied());
            }
        }, false); // the job's pages: the runner splits a range that lags
    }
}
