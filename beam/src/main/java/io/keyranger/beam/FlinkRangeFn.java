package io.keyranger.beam;

import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.keys.KeyRange;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * The DoFn of a KeyRanger job on Flink, whose batch mode never splits nor checkpoints running work: each starting
 * range is a plain element, processed whole by the same page loop as {@link KeyRangeFn}'s ({@link RangeRun}), so the
 * pipeline needs none of a splittable DoFn's expansion (a shuffle of the ranges with its sorting tasks, one group of
 * them a task slot), and Flink hands the ranges to its slots as the source's splits, on demand. A range that fails is
 * run again whole, by Flink or by a rerun of the job: its cells' ledgers skip what it committed. As nothing splits
 * it, its pages widen as they go ({@link RangeRun#process}). Outputs the number of entities the range applied.
 */
final class FlinkRangeFn extends DoFn<KeyRange, Long> {
    private final RangeRun run;

    FlinkRangeFn(JobConfig config) {
        this.run = new RangeRun(config);
    }

    @Setup
    public void setup() {
        run.setUp();
    }

    @ProcessElement
    public void process(@Element KeyRange range, OutputReceiver<Long> out) {
        ConcurrentRangeTracker tracker = run.tracker(range);
        long[] applied = {0};
        run.process(tracker, tracker::tryClaim, outcome -> applied[0] += outcome.applied(), true);
        tracker.checkDone();
        out.output(applied[0]);
    }
}
