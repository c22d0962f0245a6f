package io.keyranger.executor.cells;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.EntitySize;
import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import io.keyranger.undo.UndoImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The undo records of one commit: for every entity the mapper puts or deletes, its state as this transaction read it
 * and what the commit makes of it, written in the same transaction as the change. So a commit that applies keeps its
 * records, and one that does not (retried, covered already, aborted) keeps none: never twice, never missing.
 */
public final class UndoKeeper {
    /** The counter of undo records kept, so the cost line can show them. */
    static final String KEPT = io.keyranger.executor.job.JobResult.UNDO_RECORDS;
    static final String TOO_LARGE = "undo record over 1 MiB";

    private UndoKeeper() {
    }

    /** What commits: the mapper's result less the changes whose record would be too large, and the records. */
    public record Kept(MapResult result, List<Entity> records) {
    }

    /**
     * The records of {@code result}'s changes. {@code known} holds what this transaction read already (a key mapped to
     * null: it does not exist); the others are read now, in the transaction. Each record goes under the ledger
     * {@code ledgerOf} names for its target.
     */
    public static Kept keep(Transaction tx, String jobId, MapResult result, Map<Key, Entity> known,
                     Function<Key, Key> ledgerOf) {
        java.util.Set<Key> unknownSet = new java.util.LinkedHashSet<>();
        result.puts().forEach(e -> unknownSet.add(e.getKey()));
        unknownSet.addAll(result.deletes());
        unknownSet.removeAll(known.keySet());
        List<Key> unknown = new ArrayList<>(unknownSet);
        if (!unknown.isEmpty()) {
            List<Entity> read = tx.fetch(unknown.toArray(new Key[0]));
            for (int i = 0; i < unknown.size(); i++) {
                known.put(unknown.get(i), read.get(i));
            }
        }
        List<Entity> records = new ArrayList<>();
        List<Entity> puts = new ArrayList<>();
        List<Key> deletes = new ArrayList<>();
        List<MapResult.Problem> tooLarge = new ArrayList<>();
        for (Entity put : result.puts()) {
            Entity record = new UndoImage(put.getKey(), known.get(put.getKey()), put).toEntity(
                    ledgerOf.apply(put.getKey()), jobId);
            if (fits(record, put.getKey(), tooLarge)) {
                records.add(record);
                puts.add(put);
            }
        }
        for (Key key : result.deletes()) {
            Entity before = known.get(key);
            if (before == null) {
                deletes.add(key); // nothing to delete: nothing to take back
                continue;
            }
            Entity record = new UndoImage(key, before, null).toEntity(ledgerOf.apply(key), jobId);
            if (fits(record, key, tooLarge)) {
                records.add(record);
                deletes.add(key);
            }
        }
        Map<String, Long> counters = new HashMap<>(result.counters());
        counters.merge(KEPT, (long) records.size(), Long::sum);
        List<MapResult.Problem> problems = new ArrayList<>(result.problems());
        problems.addAll(tooLarge);
        if (!tooLarge.isEmpty()) {
            counters.merge(io.keyranger.executor.job.JobReport.SKIPPED_PREFIX + TOO_LARGE, (long) tooLarge.size(),
                    Long::sum);
        }
        return new Kept(new MapResult(puts, deletes, result.skipped() + tooLarge.size(), counters, result.lines(),
                problems), records);
    }

    /** Whether a record fits Datastore's entity limit; if not, its change is left out with a reason. */
    private static boolean fits(Entity record, Key target, List<MapResult.Problem> tooLarge) {
        int bytes = EntitySize.bytes(record);
        if (bytes <= EntitySize.MAX_BYTES) {
            return true;
        }
        tooLarge.add(new MapResult.Problem(target, "its undo record would be " + bytes + " bytes, over Datastore's "
                + "limit: left unchanged (run with --no-undo to change it without undo); " + KeyFormat.format(target),
                TOO_LARGE));
        return false;
    }
}
