package io.keyranger.executor.cells;

import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.job.JobReport;
import io.keyranger.mapper.MapResult;
import io.keyranger.formats.undo.UndoImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * The bytes of a commit, measured once its mutations are known (inside its transaction): a commit within the server's
 * request limit goes ahead as it is; a chunk over it is cut by {@link Chunker#bySize} on what each key's change comes
 * to; a single change that no commit can hold is left unchanged with a reason, never failing its job.
 */
public final class CommitBytes {
    /** Room for what one commit adds to a ledger, checkpoint or counter shard (a span, a problem, a count). */
    static final long BOOKKEEPING_GROWTH = 4_096;

    private CommitBytes() {
    }

    /**
     * A chunk whose mutations are too many bytes for one commit: the bytes each of its changes (puts, deletes and undo
     * records) comes to, by the key it belongs to, and those every commit writes besides (ledgers, counter shard).
     */
    public static final class TooLarge extends RuntimeException {
        private final transient Map<Key, Long> bytes;
        private final long fixed;

        TooLarge(Map<Key, Long> bytes, long fixed) {
            super(null, null, false, false);
            this.bytes = bytes;
            this.fixed = fixed;
        }

        public Map<Key, Long> bytes() {
            return bytes;
        }

        public long fixed() {
            return fixed;
        }
    }

    /** The bytes of bookkeeping a commit writes: the entities as read (null: new), and room for what it adds to each. */
    public static long bookkeeping(List<Entity> read) {
        long total = 0;
        for (Entity entity : read) {
            total += BOOKKEEPING_GROWTH + (entity == null ? 0 : Math.max(0, EntitySize.bytes(entity)));
        }
        return total;
    }

    /**
     * {@code result} as it commits with its undo {@code records} and {@code fixed} bytes of bookkeeping, for a chunk of
     * {@code keys} (the changes belong to them): as it is when it fits one commit; for a single key whose change alone
     * cannot fit, that key left unchanged (no puts, deletes or records) with a reason; otherwise a {@link TooLarge}
     * with each key's bytes, for the chunk to be cut.
     */
    public static MapResult sized(MapResult result, List<Entity> records, List<Key> keys, long fixed,
                                  ServerLimits limits, boolean undo) {
        return sized(result, records, records.stream().map(r -> List.of(UndoImage.targetOf(r))).toList(), keys,
                k -> k, k -> 1, fixed, limits, undo);
    }

    /**
     * As above, where record {@code i} keeps the images of {@code targets.get(i)} (its bytes shared among them alike),
     * the change of key {@code k} belongs to the chunk's key {@code owner.apply(k)} (a position in a source holds
     * the entity it writes), and a key left unchanged counts {@code entitiesPer} of it skipped (a revert's record, the
     * images it holds).
     */
    public static MapResult sized(MapResult result, List<Entity> records, List<List<Key>> targets, List<Key> keys,
                                  UnaryOperator<Key> owner, ToIntFunction<Key> entitiesPer, long fixed,
                                  ServerLimits limits, boolean undo) {
        Set<Key> own = new HashSet<>(keys);
        Map<Key, Long> bytes = new HashMap<>();
        long unplaced = 0;
        for (Entity put : result.puts()) {
            unplaced += place(bytes, own, owner.apply(put.getKey()), Chunker.bytes(List.of(put), List.of()));
        }
        for (Key key : result.deletes()) {
            unplaced += place(bytes, own, owner.apply(key), Chunker.bytes(List.of(), List.of(key)));
        }
        for (int i = 0; i < records.size(); i++) {
            List<Key> kept = targets.get(i);
            long size = Chunker.bytes(List.of(records.get(i)), List.of());
            long share = size / kept.size();
            for (int t = 0; t < kept.size(); t++) {
                unplaced += place(bytes, own, owner.apply(kept.get(t)), t == 0 ? size - share * (kept.size() - 1)
                        : share);
            }
        }
        long total = unplaced + bytes.values().stream().mapToLong(Long::longValue).sum();
        if (Chunker.fits(fixed + total, limits)) {
            return result;
        }
        if (keys.size() > 1) {
            long share = unplaced / keys.size(); // a change of a key of another kind is counted to all alike
            keys.forEach(k -> bytes.merge(k, share, Long::sum));
            bytes.merge(keys.get(0), unplaced - share * keys.size(), Long::sum);
            throw new TooLarge(bytes, fixed);
        }
        Key key = keys.get(0);
        String reason = Chunker.overRequestLimit(fixed + total, limits, undo);
        long skipped = Math.max(1, entitiesPer.applyAsInt(key));
        return new MapResult(List.of(), List.of(), skipped, Map.of(JobReport.SKIPPED_PREFIX + Chunker.OVER_REQUEST,
                skipped),
                result.lines(), List.of(new MapResult.Problem(key, reason, // the report writes the key before it
                Chunker.OVER_REQUEST)));
    }

    /**
     * Reads {@code keys} in {@code tx} for a chunk of {@code chunkKeys} keys. The legacy emulator refuses an answer
     * over 4 MiB ("gRPC message exceeds maximum size"): for a chunk of several keys that is a {@link TooLarge} of
     * sizes unknown, so the chunk is halved; a single key's is the server's error.
     */
    public static List<Entity> fetch(Transaction tx, List<Key> keys, int chunkKeys) {
        try {
            return tx.fetch(keys.toArray(new Key[0]));
        } catch (DatastoreException e) {
            if (chunkKeys > 1 && overAnswerLimit(e)) {
                throw new TooLarge(Map.of(), 0);
            }
            throw e;
        }
    }

    /** Keys per lookup: Datastore's limit on one. */
    public static final int LOOKUP_KEYS = 1_000;

    /**
     * Looks up {@code keys} outside a transaction with {@code fetch} (its answers in the order asked, null for a key
     * not found), {@link #LOOKUP_KEYS} at a time, and in halves (and so on) where the legacy emulator refuses an answer
     * over 4 MiB (production defers what does not fit, and the client asks again); one key's refusal is the server's
     * error.
     */
    public static List<Entity> lookup(List<Key> keys, Function<Key[], List<Entity>> fetch) {
        if (keys.isEmpty()) {
            return List.of();
        }
        if (keys.size() <= LOOKUP_KEYS) {
            return lookupHalving(keys, fetch);
        }
        List<Entity> found = new ArrayList<>(keys.size());
        for (int from = 0; from < keys.size(); from += LOOKUP_KEYS) {
            found.addAll(lookupHalving(keys.subList(from, Math.min(keys.size(), from + LOOKUP_KEYS)), fetch));
        }
        return found;
    }

    private static List<Entity> lookupHalving(List<Key> keys, Function<Key[], List<Entity>> fetch) {
        try {
            return fetch.apply(keys.toArray(new Key[0]));
        } catch (DatastoreException e) {
            if (keys.size() < 2 || !overAnswerLimit(e)) {
                throw e;
            }
            List<Entity> found = new ArrayList<>(lookupHalving(keys.subList(0, keys.size() / 2), fetch));
            found.addAll(lookupHalving(keys.subList(keys.size() / 2, keys.size()), fetch));
            return found;
        }
    }

    /** Whether the server refused a message over its size (the legacy emulator's 4 MiB, answers included). */
    private static boolean overAnswerLimit(DatastoreException e) {
        return e.getMessage() != null && e.getMessage().contains("exceeds maximum size");
    }

    /** Adds {@code size} to key {@code key} when it is one of the chunk's; else returns it, to be shared out. */
    private static long place(Map<Key, Long> bytes, Set<Key> own, Key key, long size) {
        if (own.contains(key)) {
            bytes.merge(key, size, Long::sum);
            return 0;
        }
        return size;
    }
}
