package io.keyranger.executor.cells;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.EntitySize;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import io.keyranger.formats.undo.UndoBatch;
import io.keyranger.formats.undo.UndoImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The undo records of one commit: for every entity the mapper puts or deletes, its state before the job and what the
 * commit makes of it, written in the same transaction as the change. A target has one record per job, at one key
 * whichever commit writes it ({@code recordOf}); a commit that finds it (read in its transaction) keeps the record's
 * before (the state before the job's first change) and sets its after to what this commit leaves, so a revert takes
 * the job's last write for the job's own and brings back the first before. A commit that applies keeps its records,
 * and one that does not (retried, covered already, aborted) keeps none: never twice, never missing, never a before
 * that is the job's own earlier write. A job that writes each key once keeps the commit's images together in one
 * record instead ({@link #keepBatched}): no record of a target can exist before its one commit, so none is read.
 */
public final class UndoKeeper {
    /** The counter of undo record entities written (one write each), so the cost line can show them. */
    static final String KEPT = JobResult.UNDO_RECORDS;
    /** The counter of before-images kept: one for each entity changed. */
    static final String IMAGES = JobResult.UNDO_IMAGES;
    /** Why a change is left unchanged when the undo record that keeps it alone would be over Datastore's limit. */
    public static final String TOO_LARGE = "undo record over 1 MiB";

    private UndoKeeper() {
    }

    /**
     * What commits: the mapper's result less the changes whose record would be too large, the records, and the
     * targets each record keeps (in the order of the records).
     */
    public record Kept(MapResult result, List<Entity> records, List<List<Key>> targets) {
    }

    /**
     * The records of {@code result}'s changes for a mapper that writes each key once ({@code writesEachKeyOnce}): one
     * batch for the commit ({@link UndoBatch}) under {@code parent} (a ledger the commit writes), cut where it would be
     * over the entity limit, hold more than {@code maxImages} or its revert write more than {@code maxRestoreBytes};
     * no earlier record can exist, so none is read. The
     * targets not in {@code known} are read now, in the transaction, in one lookup.
     */
    public static Kept keepBatched(Transaction tx, String jobId, MapResult result, Map<Key, Entity> known,
                                   Key parent, int maxImages, long maxRestoreBytes) {
        readUnknown(tx, Stream.concat(result.puts().stream().map(Entity::getKey), result.deletes().stream())
                .filter(target -> !known.containsKey(target)).toList(), known);
        Map<Key, UndoImage> images = new LinkedHashMap<>(); // by target: a key put twice in one commit keeps the last
        List<Key> deletes = new ArrayList<>();
        for (Entity put : result.puts()) {
            images.put(put.getKey(), new UndoImage(put.getKey(), known.get(put.getKey()), put));
        }
        for (Key key : result.deletes()) {
            if (known.get(key) == null) {
                deletes.add(key); // nothing to delete: nothing to take back
            } else {
                images.put(key, new UndoImage(key, known.get(key), null));
            }
        }
        List<Entity> records = new ArrayList<>();
        List<List<Key>> targets = new ArrayList<>();
        Set<Key> left = new HashSet<>(); // changes whose image alone is over the entity limit
        List<MapResult.Problem> tooLarge = new ArrayList<>();
        List<UndoBatch> batches = images.isEmpty() ? List.of()
                : UndoBatch.of(parent, jobId, new ArrayList<>(images.values()), maxImages,
                        maxRestoreBytes);
        for (UndoBatch batch : batches) {
            if (fits(batch.record(), batch.images().get(0).target(), tooLarge)) {
                records.add(batch.record());
                targets.add(batch.images().stream().map(UndoImage::target).toList());
            } else {
                left.add(batch.images().get(0).target());
            }
        }
        List<Entity> puts = left.isEmpty() ? result.puts() // the usual commit: no key hashed again to keep them all
                : result.puts().stream().filter(p -> !left.contains(p.getKey())).toList();
        result.deletes().stream().filter(k -> known.get(k) != null && !left.contains(k)).forEach(deletes::add);
        return kept(result, puts, deletes, records, targets, images.size() - left.size(), tooLarge);
    }

    private static Kept kept(MapResult result, List<Entity> puts, List<Key> deletes, List<Entity> records,
                             List<List<Key>> targets, long images, List<MapResult.Problem> tooLarge) {
        Map<String, Long> counters = new HashMap<>(result.counters());
        counters.merge(KEPT, (long) records.size(), Long::sum);
        counters.merge(IMAGES, images, Long::sum);
        List<MapResult.Problem> problems = new ArrayList<>(result.problems());
        problems.addAll(tooLarge);
        if (!tooLarge.isEmpty()) {
            counters.merge(JobReport.SKIPPED_PREFIX + TOO_LARGE, (long) tooLarge.size(),
                    Long::sum);
        }
        return new Kept(new MapResult(puts, deletes, result.skipped() + tooLarge.size(), counters, result.lines(),
                problems), records, targets);
    }

    private static void readUnknown(Transaction tx, List<Key> unknown, Map<Key, Entity> known) {
        if (!unknown.isEmpty()) {
            Key[] keys = new LinkedHashSet<>(unknown).toArray(new Key[0]);
            List<Entity> read = tx.fetch(keys);
            for (int i = 0; i < keys.length; i++) {
                known.put(keys[i], read.get(i));
            }
        }
    }

    /**
     * The records of {@code result}'s changes. {@code known} holds what this transaction read already, targets and
     * records alike (a key mapped to null: it does not exist); the others are read now, in the transaction, in one
     * lookup. {@code recordOf} names a target's record key.
     */
    public static Kept keep(Transaction tx, String jobId, MapResult result, Map<Key, Entity> known,
                     Function<Key, Key> recordOf) {
        Map<Key, Key> recordKeys = new HashMap<>();
        Set<Key> unknown = new LinkedHashSet<>();
        Stream.concat(result.puts().stream().map(Entity::getKey), result.deletes().stream())
                .forEach(target -> {
                    Key record = recordKeys.computeIfAbsent(target, recordOf);
                    if (!known.containsKey(target)) {
                        unknown.add(target);
                    }
                    if (!known.containsKey(record)) {
                        unknown.add(record);
                    }
                });
        readUnknown(tx, new ArrayList<>(unknown), known);
        Map<Key, Entity> records = new LinkedHashMap<>(); // by target: a key put twice in one commit keeps the last
        List<Entity> puts = new ArrayList<>();
        List<Key> deletes = new ArrayList<>();
        List<MapResult.Problem> tooLarge = new ArrayList<>();
        for (Entity put : result.puts()) {
            Key target = put.getKey();
            Entity record = record(target, put, recordKeys.get(target), known);
            if (fits(record, target, tooLarge)) {
                records.put(target, record);
                puts.add(put);
            }
        }
        for (Key key : result.deletes()) {
            if (known.get(key) == null) {
                deletes.add(key); // nothing to delete: nothing to take back
                continue;
            }
            Entity record = record(key, null, recordKeys.get(key), known);
            if (fits(record, key, tooLarge)) {
                records.put(key, record);
                deletes.add(key);
            }
        }
        List<List<Key>> targets = records.keySet().stream().map(List::of).toList();
        return kept(result, puts, deletes, new ArrayList<>(records.values()), targets, records.size(), tooLarge);
    }

    /**
     * The record of {@code target} once this commit leaves it as {@code after}: its before is the one the job's record
     * holds already (an earlier commit of the job changed it), else the target as this transaction read it.
     */
    private static Entity record(Key target, Entity after, Key recordKey, Map<Key, Entity> known) {
        Entity earlier = known.get(recordKey);
        Entity before = earlier != null ? UndoImage.of(earlier).before() : known.get(target);
        return new UndoImage(target, before, after).toEntity(recordKey);
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
