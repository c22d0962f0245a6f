package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.SourceRecord;
import java.util.List;
import java.util.Map;

/**
 * Where a job's pages come from, in an order of its own that its cells cut: the keys of a kind ({@link KindSource}),
 * or the positions of the entries of an import's files (each a key in a position space of its own). The page loop,
 * the ledgers and the splits work on either alike.
 */
public interface PageSource {
    /**
     * Up to {@code limit} keys of {@code range} in order, from the {@code offset}-th on (a benchmark's naive cursor;
     * 0 otherwise), with what the source holds at each when it is a file's, the database's past, or a kind whose
     * entities never change.
     */
    Page fetch(KeyRange range, int offset, int limit);

    /**
     * A page of a source.
     *
     * @param keys    the keys (or positions), in order
     * @param records what a file holds at each position, or the past or a fixed kind at each key; empty for a kind's
     *                keys alone
     */
    record Page(List<Key> keys, Map<Key, SourceRecord> records) {
        public static Page of(List<Key> keys) {
            return new Page(keys, Map.of());
        }
    }
}
