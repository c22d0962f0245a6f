package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import io.keyranger.formats.undo.UndoRecords;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * One transaction of the commit protocol ({@link CellCommitter} cuts chunks into them): it reads, in one lookup, the
 * ledgers of the cells (or cells' parts) the chunk's span touches, a counter shard and, for mappers that need them,
 * the chunk's entities (or, when they came with the page and never change, the keys they relate to); maps only the
 * keys that no covered span holds (with the keys its mapper asks for, read in the same transaction); writes the
 * mutations, their undo records, the shard's increments and each ledger with its piece of the span. A ledger a revert
 * marked stops it with nothing written. This class holds what is the job's (its mapper, what it reads and keeps, its
 * cells, counter and the turns of the groups it writes) and runs each try in a transaction of its own; one try's
 * reading, mapping and writing is a {@link ChunkAttempt}.
 */
final class ChunkTransaction {
    /** Where the entities of a chunk's keys come from in its transaction. */
    enum Reads {
        /** Nowhere: its mapper needs none and keeps no undo. */
        NONE,
        /** The transaction's one lookup: its mapper needs them, or an undo record needs the state before. */
        LOOKUP,
        /** None to read: the chunk's keys are positions in a file, whose entries came with the page. */
        POSITIONS,
        /** They came with the page and never change: only the keys they relate to are read, in the one lookup. */
        GIVEN;

        static Reads of(PageMapper mapper) {
            if (mapper.readsSource() && mapper.pageEntitiesFixed()) {
                throw new IllegalArgumentException("a mapper reads positions in a source or fixed page entities");
            }
            return mapper.readsSource() ? POSITIONS : mapper.pageEntitiesFixed() ? GIVEN
                    : mapper.needsEntities() || mapper.keepsUndo() ? LOOKUP : NONE;
        }
    }

    /** How a commit keeps what it changed for a revert. */
    enum Undo {
        /** It keeps nothing. */
        NONE,
        /** A record a key, named by the key ({@link #recordKey}). */
        PER_KEY,
        /** One record for the whole commit: its mapper writes each key once. */
        BATCHED;

        static Undo of(PageMapper mapper) {
            return !mapper.keepsUndo() ? NONE : mapper.writesEachKeyOnce() ? BATCHED : PER_KEY;
        }
    }

    private final Datastore datastore;
    private final GroupTurns turns;
    // the job's side of each commit, read by its attempts (ChunkAttempt)
    final KeyOrder order;
    final PageMapper mapper;
    final Reads reads;
    final Undo undo;
    final ShardedCounter counter;
    final String jobId;
    final CellPlan cells;
    final EngineSeams seams;
    final SkipLog skipLog;
    final PartFiles parts;
    final ServerLimits limits;
    final CellParts divided;
    final IntFunction<Key> cellKey;

    ChunkTransaction(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                     ServerLimits limits, EngineSeams seams, PartFiles parts, CellParts divided,
                     IntFunction<Key> cellKey, ShardedCounter counter) {
        this.datastore = datastore;
        this.order = order;
        this.mapper = mapper;
        this.reads = Reads.of(mapper);
        this.undo = Undo.of(mapper);
        this.counter = counter;
        this.jobId = jobId;
        this.cells = cells;
        this.seams = seams;
        this.skipLog = new SkipLog(jobId);
        this.parts = parts;
        this.limits = limits;
        this.turns = new GroupTurns(limits.maxEntityGroups() > 0);
        this.divided = divided;
        this.cellKey = cellKey;
    }

    /**
     * Commits the cells {@code byCell} of {@code span} (each with the chunk's keys in it) in one transaction, the
     * turns of the groups it writes held meanwhile; throws {@link CellParts.Stale} when a cell turned out divided
     * other than as last seen (nothing was written).
     */
    CellCommitter.Outcome commit(KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                                 Map<Key, SourceRecord> records) {
        List<Key> writes = reads != Reads.POSITIONS ? chunk : chunk.stream().map(records::get)
                .filter(r -> r != null && r.entity() != null).map(r -> r.entity().getKey()).toList();
        try (GroupTurns.Held held = turns.take(writes)) {
            Transaction tx = datastore.newTransaction();
            try {
                return new ChunkAttempt(this, span, byCell, chunk, records, tx).run();
            } catch (DatastoreException e) {
                if (Retries.isAborted(e)) {
                    counter.moveOn(); // the retry goes to another shard, in case this one is another writer's too
                }
                throw e;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        }
    }

    /**
     * The key of {@code target}'s undo record in this job, the same whichever commit writes it: under the ledger this
     * commit writes for the cell (or the cell's part) that holds it when it is in the job's key space (the kind and
     * partition of {@code ofJob}, a key of the job), else a record of its own ({@link UndoRecords#rootKey}). A key of
     * the job's own is written once, by the commit that covers it, so its record's parent is the one ledger of its
     * part then.
     */
    Key recordKey(Key target, Key ofJob, Map<Integer, Ledger> ledgers) {
        boolean own = target.getKind().equals(ofJob.getKind()) && target.getNamespace().equals(ofJob.getNamespace())
                && target.getProjectId().equals(ofJob.getProjectId())
                && Objects.equals(target.getDatabaseId(), ofJob.getDatabaseId());
        if (!own) {
            return UndoRecords.rootKey(jobId, target);
        }
        Ledger ledger = ledgers.get(cells.cellOf(target));
        return UndoRecords.key(ledger != null ? ledger.key() : cellKey.apply(cells.cellOf(target)), jobId, target);
    }

    /**
     * The cell whose ledger keeps what a commit records of a key (a problem): the key's own, or, for a
     * key of another kind (a copy's target), the chunk's.
     */
    int cellKeeping(Key key, Map<Integer, List<Key>> byCell, List<Key> fresh) {
        Key first = fresh.get(0);
        if (!key.getNamespace().equals(first.getNamespace()) || !key.getProjectId().equals(first.getProjectId())) {
            return cells.cellOf(first); // another partition: no cell of this job's key space holds it
        }
        int cell = cells.cellOf(key);
        return byCell.containsKey(cell) ? cell : cells.cellOf(first);
    }

    /** The part of {@code span} in cell {@code cell}. */
    KeyRange piece(KeyRange span, int cell) {
        return cells.intersect(span, cell);
    }
}
