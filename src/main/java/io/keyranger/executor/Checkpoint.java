package io.keyranger.executor;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.List;

/**
 * What a range has committed, as its checkpoint entity stores it: the last key, pages, entities and, for an export,
 * the bytes of its part file. Immutable; {@link #advance} is the one rule for moving it.
 *
 * @param lastKey     the last key committed, or null before the first chunk
 * @param pages       chunks committed
 * @param entities    keys committed
 * @param outputBytes committed bytes of the range's export part
 */
record Checkpoint(Key lastKey, long pages, long entities, long outputBytes) {
    static final Checkpoint START = new Checkpoint(null, 0, 0, 0);

    /** Where a committed chunk leaves the range. */
    Checkpoint advance(List<Key> chunk, long newOutputBytes) {
        return new Checkpoint(chunk.get(chunk.size() - 1), pages + 1, entities + chunk.size(), newOutputBytes);
    }

    /** As stored on a range's entity. */
    static Checkpoint of(Entity stored) {
        return new Checkpoint(stored.isNull("lastKey") ? null : stored.getKey("lastKey"), stored.getLong("pages"),
                stored.getLong("entities"), stored.contains("outputBytes") ? stored.getLong("outputBytes") : 0);
    }
}
