package io.keyranger.executor.cells;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.formats.undo.UndoBatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Cuts a page into commit-sized chunks: each chunk's transaction, with the ledgers of the cells it spans (one more for
 * the span's tail into the next cell; a divided cell's root and part) and a counter shard, stays within the server's entity-group and mutation
 * limits. Keys under the same root share an entity group. A chunk is sized by bytes as well ({@link #bySize}): what
 * a commit writes, entities, undo records and bookkeeping, stays within the server's request limit.
 */
public final class Chunker {
    /** One counter shard rides in every commit. */
    public static final int SHARD = 1;

    private Chunker() {
    }

    /** As below, for a job with one cell. */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities) {
        return chunks(page, limits, touchesEntities, 1, null);
    }

    /** As below, for a job with one cell. */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey) {
        return chunks(page, limits, touchesEntities, groupsPerKey, null);
    }

    /**
     * Chunks for a mapper that touches {@code groupsPerKey} entity groups (and mutations) per key, or none when it does
     * not touch entities (a count), in a job cut into {@code cells} (null: one cell).
     */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey,
                                  CellPlan cells) {
        return chunks(page, limits, touchesEntities, groupsPerKey, false, cells);
    }

    /** As below, for a mapper whose page keys stand for one entity each and whose undo is one record per target. */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey,
                                  boolean undo, CellPlan cells) {
        return chunks(page, limits, touchesEntities, groupsPerKey, undo, false, k -> 1, cells);
    }

    /**
     * The entity groups that reverting one undo record takes besides those of the entities it restores: the record's
     * own group, the revert's ledgers of two cells (each with a divided cell's root, as {@link #chunks} counts them)
     * and the counter shard. The revert's own undo is one batch under its ledger: no group more.
     */
    static final int REVERT_BOOKKEEPING = 1 + 2 * 2 + SHARD;

    /**
     * The most before-images one batched undo record holds ({@code PageMapper.writesEachKeyOnce}): unbounded where
     * the server has no entity-group limit; else so that reverting the record fits one transaction, each image's
     * entity a group of its own (the legacy emulator's 25 groups: 19 images).
     */
    public static int imagesPerRecord(ServerLimits limits) {
        return limits.maxEntityGroups() == 0 ? Integer.MAX_VALUE
                : Math.max(1, limits.maxEntityGroups() - REVERT_BOOKKEEPING);
    }

    /**
     * About how many entities one commit changes where the server has no entity-group limit, for an estimate of the
     * undo records of a job that keeps one per commit (the model benchmark's commits held about 97).
     */
    static final long ENTITIES_PER_COMMIT = 100;

    /**
     * The undo records a job writes for {@code changes} entities put or deleted, as every estimate counts them: one
     * each unless {@code batched} (a job that writes each key once), else about one a commit. A commit changes about
     * {@link #ENTITIES_PER_COMMIT} entities, never more than a page of {@code pageSize} keys (0: not known); on a
     * server with an entity-group limit a record holds at most {@link #imagesPerRecord} images (the legacy
     * emulator: 19, and its commits hold 20 at most), so there the estimate is the fewest the job can write.
     */
    public static long undoRecords(long changes, boolean batched, int pageSize, ServerLimits limits) {
        if (!batched) {
            return changes;
        }
        long perRecord = pageSize > 0 ? Math.min(pageSize, ENTITIES_PER_COMMIT) : ENTITIES_PER_COMMIT;
        perRecord = Math.min(perRecord, imagesPerRecord(limits));
        return (changes + perRecord - 1) / perRecord;
    }

    /**
     * The most bytes reverting one batched undo record may write ({@link UndoBatch#restoreBytes} of its images): a
     * commit's, less room for an entity-limit record (the ledgers and counter shard the revert's commit writes, as
     * read) and for what the commit adds to each of them.
     */
    public static long restoreBytesPerRecord(ServerLimits limits) {
        return limits.commitBytes() - EntitySize.MAX_BYTES - (long) REVERT_BOOKKEEPING * CommitBytes.BOOKKEEPING_GROWTH;
    }

    /**
     * The undo records a commit of {@code images} changes writes when its undo is batched, at most: one a
     * {@link #imagesPerRecord} images, and one more for each piece a batch is cut into by the entity limit (a commit's
     * bytes hold that many 1-MiB records at most); never more than one an image.
     */
    static long batchRecords(long images, ServerLimits limits) {
        long byCount = (images + imagesPerRecord(limits) - 1) / imagesPerRecord(limits);
        long byBytes = limits.commitBytes() / EntitySize.MAX_BYTES + 1;
        return Math.min(images, byCount + byBytes);
    }

    /**
     * Chunks of a page of positions in a source (an import's entries): each entry writes one entity, its own entity
     * group, and with {@code undo} its undo record, another, unless {@code batched} (the input writes each key once):
     * then the commit's records are a batch under its ledger ({@link #batchRecords}), no group more. The positions
     * themselves are neither read nor written.
     */
    public static List<List<Key>> records(List<Key> page, ServerLimits limits, boolean undo, boolean batched,
                                          CellPlan cells) {
        return records(page, limits, undo, batched, k -> 1, cells);
    }

    /** As above, where a position stands for {@code entitiesPer} entities written (a copy's, with its ancestors). */
    public static List<List<Key>> records(List<Key> page, ServerLimits limits, boolean undo, boolean batched,
                                          ToIntFunction<Key> entitiesPer, CellPlan cells) {
        int perRecord = undo && !batched ? 2 : 1;
        int maxGroups = limits.maxEntityGroups() == 0 ? Integer.MAX_VALUE : limits.maxEntityGroups();
        List<List<Key>> chunks = new ArrayList<>();
        List<Key> current = new ArrayList<>();
        int firstCell = 0;
        long entities = 0; // what the current chunk's positions stand for
        for (Key key : page) {
            int cell = cells.cellOf(key);
            int weight = Math.max(1, entitiesPer.applyAsInt(key));
            if (!current.isEmpty()) {
                int bookkeeping = cell - firstCell + 2 + SHARD; // the ledgers from the first's cell to this one's, the tail
                long groups = (entities + weight) * perRecord + bookkeeping;
                long mutations = undo && batched ? groups + batchRecords(entities + weight, limits) : groups;
                if (groups > maxGroups || mutations > limits.maxMutations()) {
                    chunks.add(current);
                    current = new ArrayList<>();
                    entities = 0;
                }
            }
            if (current.isEmpty()) {
                firstCell = cell;
            }
            current.add(key);
            entities += weight;
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    /**
     * As above; with {@code undo}, each key also writes an undo record: a mutation more, in its ledger's entity group
     * (which the chunk counts already) for a key of the job's own, in a group of its own for each other group a key
     * touches (a copy's target, a revert's entity: their records are their own entity groups). With {@code batched}
     * the commit's undo is one record (or a few: {@link #batchRecords}) under its ledger: no group more. A key
     * stands for {@code entitiesPer} entities (a revert's record, for the images it holds): each of them counts, in
     * its groups besides the key's own and in its mutations.
     */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey,
                                  boolean undo, boolean batched, ToIntFunction<Key> entitiesPer, CellPlan cells) {
        int perKey = touchesEntities ? Math.max(1, groupsPerKey) : 0;
        int mutationsPerKey = perKey + (undo ? 1 : 0);
        int othersPerEntity = Math.max(0, perKey - 1) * (undo && !batched ? 2 : 1);
        int maxGroups = limits.maxEntityGroups() == 0 ? Integer.MAX_VALUE : limits.maxEntityGroups();
        List<List<Key>> chunks = new ArrayList<>();
        List<Key> current = new ArrayList<>();
        Set<PathElement> roots = new HashSet<>();
        int firstCell = 0;
        long entities = 0; // what the current chunk's keys stand for
        for (Key key : page) {
            PathElement root = root(key);
            int cell = cells == null ? 0 : cells.cellOf(key);
            int weight = Math.max(1, entitiesPer.applyAsInt(key));
            if (!current.isEmpty()) {
                // the cells from the first key's to this one's, and the tail: each a ledger written and, in a
                // divided cell, its root read besides (CellParts)
                int ledgers = cell - firstCell + 2;
                // the keys' own groups, and each key's others (a copy's target, a revert's entity, and with undo
                // their records) counted apart
                int own = perKey == 0 ? 0 : roots.size() + (roots.contains(root) ? 0 : 1);
                long groups = own + othersPerEntity * (entities + weight) + 2L * ledgers + SHARD;
                long mutations = batched
                        ? (entities + weight) * Math.max(1, perKey - 1) + (undo ? batchRecords(entities + weight,
                                limits) : 0)
                        : (entities + weight) * mutationsPerKey;
                mutations += ledgers + SHARD;
                if (groups > maxGroups || mutations > limits.maxMutations()) {
                    chunks.add(current);
                    current = new ArrayList<>();
                    roots.clear();
                    entities = 0;
                }
            }
            if (current.isEmpty()) {
                firstCell = cell;
            }
            current.add(key);
            roots.add(root);
            entities += weight;
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    private static PathElement root(Key key) {
        if (!key.getAncestors().isEmpty()) {
            return key.getAncestors().get(0);
        }
        return key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName());
    }

    /**
     * Cuts {@code items} (in order) into runs whose bytes ({@code bytes} of each), with the {@code fixed} bytes every
     * commit of them writes besides (ledgers, checkpoint, counter shard), stay within one commit's bytes
     * ({@link ServerLimits#commitBytes}). An item too large for a commit even alone is a run of its own, which its
     * committer leaves unchanged with a reason ({@link #fits}). Every committer sizes its commits by bytes here.
     */
    public static <T> List<List<T>> bySize(List<T> items, ToLongFunction<T> bytes, long fixed, ServerLimits limits) {
        List<List<T>> runs = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long total = fixed;
        for (T item : items) {
            long size = bytes.applyAsLong(item);
            if (!current.isEmpty() && !fits(total + size, limits)) {
                runs.add(current);
                current = new ArrayList<>();
                total = fixed;
            }
            current.add(item);
            total += size;
        }
        if (!current.isEmpty()) {
            runs.add(current);
        }
        return runs;
    }

    /** Whether a commit that writes {@code bytes} (its mutations and bookkeeping) fits the server's request limit. */
    public static boolean fits(long bytes, ServerLimits limits) {
        return bytes <= limits.commitBytes();
    }

    /** The bytes a commit's mutations send: the entities it puts, in full, and the keys it deletes. */
    public static long bytes(Collection<Entity> puts, Collection<Key> deletes) {
        long total = 0;
        for (Entity put : puts) {
            total += Math.max(0, EntitySize.bytes(put));
        }
        for (Key key : deletes) {
            total += Math.max(0, EntitySize.keyBytes(key));
        }
        return total;
    }

    /** Why an entity (a key's change) is left unchanged: no commit of this server can hold it. */
    public static String overRequestLimit(long bytes, ServerLimits limits, boolean undo) {
        return "its commit would write " + bytes + " bytes" + (undo ? " with its undo record" : "") + ", over the "
                + limits.commitBytes() + " bytes one commit of this server may hold: left unchanged"
                + (undo ? " (run with --no-undo to change it without undo)" : "");
    }

    /** The reason counted for a change that no commit can hold ({@link #overRequestLimit}). */
    public static final String OVER_REQUEST = "commit over the request limit";
}
