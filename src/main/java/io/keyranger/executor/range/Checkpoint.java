package io.keyranger.executor.range;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;

/**
 * How far a range or cell has got: its last key committed, chunks and keys. Immutable; a local range keeps it in
 * memory for the live tree, and a cell's ledger stores it for the job's records.
 *
 * @param lastKey  the last key committed, or null before the first chunk
 * @param pages    chunks committed
 * @param entities keys committed
 */
public record Checkpoint(Key lastKey, long pages, long entities) {
    public static final Checkpoint START = new Checkpoint(null, 0, 0);

    /** Where a committed chunk of {@code keys} keys ending at {@code last} leaves the range. */
    public Checkpoint advance(Key last, int keys) {
        return new Checkpoint(last == null ? lastKey : last, pages + 1, entities + keys);
    }

    /** As stored on a ledger. */
    public static Checkpoint of(Entity stored) {
        return new Checkpoint(stored.isNull("lastKey") ? null : stored.getKey("lastKey"), stored.getLong("pages"),
                stored.getLong("entities"));
    }
}
