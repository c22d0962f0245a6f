package io.keyranger.executor;

import static io.keyranger.executor.CoveredSpansTest.key;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Splits of a shared job's range: only where data is known to be, and never losing or doubling a key. */
class ConcurrentRangeTrackerTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    /** Cells at 100, 200, ..., 900. */
    private static final CellPlan CELLS = new CellPlan(ORDER, List.of(key(100), key(200), key(300), key(400),
            key(500), key(600), key(700), key(800), key(900)));

    private static List<Key> keys(long from, long to) {
        List<Key> keys = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            keys.add(key(id));
        }
        return keys;
    }

    @Test
    void nothingSplitsBeforeAnyKeyIsKnown() {
        ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(KeyRange.all(ORDER), CELLS, 100);
        assertThat(tracker.trySplit(0)).isEmpty();
        assertThat(tracker.trySplit(0.5)).isEmpty();
    }

    @Test
    void aCheckpointCutsAtTheFirstKeyReadButNotClaimed() {
        ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(KeyRange.of(ORDER, key(1), null), CELLS, 100);
        tracker.read(keys(1, 11), null); // a page of 10 and the key after it
        for (long id = 1; id <= 4; id++) {
            assertThat(tracker.tryClaim(key(id))).isTrue();
        }
        Optional<ConcurrentRangeTracker.Split> split = tracker.trySplit(0);
        assertThat(split).isPresent();
        assertThat(split.get().primary()).isEqualTo(KeyRange.of(ORDER, key(1), key(5)));
        assertThat(split.get().residual()).isEqualTo(KeyRange.of(ORDER, key(5), null));
        assertThat(tracker.tryClaim(key(5))).isFalse();
        tracker.checkDone();
    }

    @Test
    void otherFractionsCutAtCellBoundsOrAtKeysOfThePage() {
        ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(KeyRange.of(ORDER, key(1), null), CELLS, 100);
        tracker.read(keys(1, 11), null);
        tracker.tryClaim(key(1));
        ConcurrentRangeTracker.Split half = tracker.trySplit(0.5).orElseThrow();
        assertThat(CELLS.bounds()).contains(half.residual().start());
        assertThat(half.primary().end()).isEqualTo(half.residual().start());
        // within the last cell of the primary and no bound left: a key of the page
        ConcurrentRangeTracker small = new ConcurrentRangeTracker(KeyRange.of(ORDER, key(1), key(100)), CELLS, 100);
        small.read(keys(1, 11), null);
        small.tryClaim(key(1));
        ConcurrentRangeTracker.Split inCell = small.trySplit(0.5).orElseThrow();
        assertThat(keys(3, 11)).contains(inCell.residual().start());
    }

    /** For every fraction: the primary and residual meet exactly, and each keeps a key known to exist. */
    @Test
    void splitsAtArbitraryFractionsNeitherLoseNorDoubleAKey() {
        for (double fraction : new double[] {0, 0.01, 0.1, 0.25, 1.0 / 3, 0.5, 0.75, 0.9, 0.99}) {
            for (long claimed : new long[] {1, 5, 150, 850}) {
                ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(KeyRange.of(ORDER, key(1), key(1000)), CELLS,
                        100);
                long pageStart = claimed - (claimed - 1) % 10;
                tracker.read(keys(pageStart, pageStart + 10), null);
                for (long id = pageStart; id <= claimed; id++) {
                    assertThat(tracker.tryClaim(key(id))).isTrue();
                }
                Optional<ConcurrentRangeTracker.Split> split = tracker.trySplit(fraction);
                assertThat(split).as("fraction %s after %s", fraction, claimed).isPresent();
                KeyRange primary = split.get().primary();
                KeyRange residual = split.get().residual();
                assertThat(primary.end()).isEqualTo(residual.start());
                assertThat(residual.end()).isEqualTo(key(1000));
                assertThat(ORDER.compare(residual.start(), key(claimed))).isPositive();
                for (long id = 1; id < 1000; id++) {
                    assertThat(primary.contains(key(id)) ^ residual.contains(key(id)))
                            .as("key %s after a split at %s", id, fraction).isTrue();
                }
                // the residual's first key is data: the next key read, a page key or a scatter-sampled bound
                Key first = residual.start();
                assertThat(keys(pageStart, pageStart + 10).contains(first) || CELLS.bounds().contains(first))
                        .isTrue();
            }
        }
    }
}
