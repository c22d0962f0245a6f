package io.keyranger.bench;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeySplitter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/** The split policies KeyRanger is compared with: what a user would otherwise run, on the same exactly-once path. */
public final class Baselines {
    /**
     * Never split: each planned range is processed linearly (fixed sharding, or one cursor loop; with
     * {@link EngineSeams#withPagesByOffset} the "Schlemiel" baseline, which pages with limit/offset from the range's
     * start).
     */
    public static final SplitPolicy NONE = context -> List.of();

    /** Split at the key midpoint after every page, data or not (the published adaptive sharding). */
    static final SplitPolicy MIDPOINT = new SplitPolicy() {
        @Override
        public List<Key> splitPoints(Context context) {
            return KeySplitter.midpoint(context.order(), context.lastKey(), context.rest().end()).map(List::of)
                    .orElse(List.of());
        }

        @Override
        public boolean blind() {
            return true;
        }
    };

    private Baselines() {
    }

    /**
     * The oracle's ranges: the {@code count} keys the job selects ({@code keyAt} the i-th in key order) cut into
     * {@code chunks} ranges of equal size (fewer when there are fewer keys).
     */
    public static List<KeyRange> equalChunks(KeyOrder order, LongFunction<Key> keyAt, long count,
                                             int chunks) {
        List<KeyRange> ranges = new ArrayList<>();
        Key previous = null;
        for (int j = 1; j <= chunks; j++) {
            Key end = j == chunks || count == 0 ? null : keyAt.apply(j * count / chunks);
            ranges.add(KeyRange.of(order, previous, end));
            previous = end;
            if (end == null) {
                break;
            }
        }
        return ranges;
    }
}
