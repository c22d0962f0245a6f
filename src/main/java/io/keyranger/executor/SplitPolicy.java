package io.keyranger.executor;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a range splits after a page. KeyRanger's own is {@link #ADAPTIVE}; benchmarks bring baselines (see
 * {@code io.keyranger.bench.Baselines}) to compare it, on the same exactly-once path, with what a user would otherwise
 * run.
 */
public interface SplitPolicy {
    /**
     * KeyRanger's: whenever no range waits for a worker, split the rest at the median scatter sample after its first
     * key, else at the first key found past the key midpoint (a few probes at most); while ranges wait, go on
     * linearly, since a split costs a transaction and adds nothing. Both halves of a split hold data.
     */
    SplitPolicy ADAPTIVE = context -> context.workersWaiting() ? Optional.empty()
            : context.splitPoints().at(context);

    /** The key to split the rest at, or empty to go on with the range linearly. */
    Optional<Key> splitPoint(Context context);

    /**
     * Whether the split may fall where no data is known to be (the published midpoint baseline); KeyRanger's never
     * does: its split points are keys known to exist, after the next key of the range.
     */
    default boolean blind() {
        return false;
    }

    /** Whether pages are read with limit/offset from the range's start (a baseline) instead of past the last key. */
    default boolean pagesByOffset() {
        return false;
    }

    /**
     * What a policy knows after a page.
     *
     * @param rest           the unclaimed rest of the range
     * @param lastKey        the last key committed
     * @param next           the first key of the rest (read with the page)
     * @param workersWaiting whether ranges are waiting for a worker now
     * @param order          the server's key order
     * @param splitPoints    the job's scatter samples and the range's probes
     * @param probe          the first key in a range, read from the server (with retries), or empty
     * @param memory         what earlier probes of this range found
     */
    record Context(KeyRange rest, Key lastKey, Key next, boolean workersWaiting, KeyOrder order,
                   SplitPoints splitPoints, Function<KeyRange, Optional<Key>> probe, SplitPoints.ProbeMemory memory) {
    }
}
