package io.keyranger.beam;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeyRangeTracker;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.SplitResult;

/**
 * Beam's view of KeyRanger's key-range tracker: claims, splits (checkpoints at fraction 0, dynamic work rebalancing at
 * any other fraction) and progress all go to the {@link ConcurrentRangeTracker}, which cuts only where data is known to be.
 */
public final class BeamKeyRangeTracker extends RestrictionTracker<KeyRange, Key>
        implements RestrictionTracker.HasProgress {
    /** Splits made in this JVM, for the run's summary and the tests: checkpoints (fraction 0), and the others. */
    static final AtomicLong CHECKPOINTS = new AtomicLong();
    static final AtomicLong SPLITS = new AtomicLong();

    private final ConcurrentRangeTracker tracker;

    BeamKeyRangeTracker(ConcurrentRangeTracker tracker) {
        this.tracker = tracker;
    }

    ConcurrentRangeTracker shared() {
        return tracker;
    }

    @Override
    public boolean tryClaim(Key position) {
        return tracker.tryClaim(position);
    }

    @Override
    public KeyRange currentRestriction() {
        return tracker.range();
    }

    @Override
    public SplitResult<KeyRange> trySplit(double fractionOfRemainder) {
        Optional<ConcurrentRangeTracker.Split> split = tracker.trySplit(fractionOfRemainder);
        if (split.isEmpty()) {
            return null;
        }
        (fractionOfRemainder <= 0 ? CHECKPOINTS : SPLITS).incrementAndGet();
        return SplitResult.of(split.get().primary(), split.get().residual());
    }

    @Override
    public void checkDone() throws IllegalStateException {
        tracker.checkDone();
    }

    @Override
    public IsBounded isBounded() {
        return IsBounded.BOUNDED;
    }

    @Override
    public Progress getProgress() {
        KeyRangeTracker.Progress progress = tracker.progress();
        return Progress.from(progress.completed(), progress.remaining());
    }
}
