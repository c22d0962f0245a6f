package io.keyranger.executor.cells;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.EntitySize;
import io.keyranger.executor.cells.ChunkTransaction.Reads;
import io.keyranger.executor.cells.ChunkTransaction.Undo;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One try of one commit ({@link ChunkTransaction#commit} makes one a transaction): its lookup, the keys no covered
 * span holds, their mapping, and the ledgers it writes. The job's side of the commit (its mapper, what it reads and
 * keeps, its cells and counter) is the {@link ChunkTransaction}'s; what one try reads and decides is kept here.
 */
final class ChunkAttempt {
    private final ChunkTransaction job;
    private final KeyRange span;
    private final Map<Integer, List<Key>> byCell;
    private final List<Key> chunk;
    private final Map<Key, SourceRecord> records;
    private final Transaction tx;
    private final List<Integer> touched;
    private final Key shard;
    /** The chunk as a page of the entities that came with it ({@link Reads#GIVEN}), else null. */
    private final Page given;
    /** In a divided cell, the ledger of the part the piece lies in, as last seen (the root read says if so). */
    private final Map<Integer, CellParts.Part> expected = new HashMap<>();
    /** The keys the given page's mapper relates them to, read in the one lookup. */
    private List<Key> relatedFirst = List.of();
    private List<Entity> found;
    private int shardAt;
    private int relatedAt;
    private final Map<Integer, Ledger> ledgers = new HashMap<>();
    /** What each ledger covers: its cell, or its part. */
    private final Map<Integer, KeyRange> ranges = new HashMap<>();
    /** What this transaction read: a key to null does not exist. */
    private final Map<Key, Entity> known = new HashMap<>();
    /** Each target's undo record key, made once a commit. */
    private final Map<Key, Key> recordKeys = new HashMap<>();
    private final List<Key> fresh;
    private final List<Entity> freshEntities = new ArrayList<>();
    private final Map<Integer, Integer> appliedByCell = new HashMap<>();

    /**
     * What a commit's mapping wrote besides the ledgers.
     *
     * @param increments  the counters' increments
     * @param problems    the entities it skipped, and why
     * @param part        the export part it wrote, as its ledger records it, or null
     * @param undoRecords the undo records it wrote
     */
    private record Mapped(Map<String, Long> increments, List<MapResult.Problem> problems, String part,
                          List<Entity> undoRecords) {
        static final Mapped NOTHING = new Mapped(Map.of(), List.of(), null, List.of());
    }

    ChunkAttempt(ChunkTransaction job, KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                 Map<Key, SourceRecord> records, Transaction tx) {
        this.job = job;
        this.span = span;
        this.byCell = byCell;
        this.chunk = chunk;
        this.records = records;
        this.tx = tx;
        this.touched = new ArrayList<>(byCell.keySet());
        this.shard = job.counter.pickShard();
        this.given = job.reads == Reads.GIVEN ? given(chunk, records) : null;
        this.fresh = new ArrayList<>(chunk.size());
    }

    CellCommitter.Outcome run() {
        lookUp();
        readLedgers();
        pickFresh();
        Key last = chunk.isEmpty() ? null : chunk.get(chunk.size() - 1);
        boolean allCovered = touched.stream().allMatch(c -> ledgers.get(c).spans().coversAll(job.piece(span, c)));
        if (fresh.isEmpty() && allCovered) {
            return new CellCommitter.Outcome(0, chunk.size(), Map.of(), last);
        }
        Mapped mapped = fresh.isEmpty() ? Mapped.NOTHING : map();
        tx.put(updatedLedgers(mapped).toArray(new Entity[0]));
        if (!mapped.undoRecords().isEmpty()) {
            tx.put(mapped.undoRecords().toArray(new Entity[0]));
        }
        job.seams.beforeCommit("chunk " + CellPlan.nodeId(touched.get(0)));
        tx.commit();
        job.divided.committedUpTo(span.end());
        job.skipLog.committed(mapped.problems());
        return new CellCommitter.Outcome(fresh.size(), chunk.size() - fresh.size(), mapped.increments(), last);
    }

    /**
     * The one lookup: the touched cells' ledgers, the ledgers of the parts last seen, a counter shard, the chunk's
     * entities when they are read here, and the keys a given page relates to.
     */
    private void lookUp() {
        List<Key> keys = new ArrayList<>(touched.size() + 1 + chunk.size());
        touched.forEach(c -> keys.add(job.cellKey.apply(c)));
        for (int cell : touched) {
            CellParts.Part part = job.divided.expected(cell, job.piece(span, cell));
            if (part != null) {
                expected.put(cell, part);
                keys.add(part.key());
            }
        }
        shardAt = keys.size();
        keys.add(shard);
        if (job.reads == Reads.LOOKUP) {
            keys.addAll(chunk); // an undo record needs the state before, as this transaction reads it
        }
        relatedAt = keys.size();
        if (given != null) {
            relatedFirst = List.copyOf(new LinkedHashSet<>(job.mapper.related(given)));
        }
        keys.addAll(relatedFirst);
        found = CommitBytes.fetch(tx, keys, chunk.size());
        for (int i = 0; i < relatedFirst.size(); i++) {
            known.put(relatedFirst.get(i), found.get(relatedAt + i));
        }
    }

    /**
     * Each touched cell's ledger (a revert's mark stops the commit) or its part's, refused as stale when the cell
     * turned out divided other than as last seen.
     */
    private void readLedgers() {
        for (int i = 0; i < touched.size(); i++) {
            ledgers.put(touched.get(i), Ledger.of(job.cellKey.apply(touched.get(i)), found.get(i), job.order));
            String revert = ledgers.get(touched.get(i)).revertedBy();
            if (revert != null) {
                throw JobFencedException.reverted("Job " + job.jobId, revert);
            }
        }
        int partAt = touched.size();
        for (int cell : touched) {
            List<Key> points = ledgers.get(cell).divisions();
            job.divided.saw(cell, points);
            CellParts.Part part = job.divided.partOf(cell, points, job.piece(span, cell));
            CellParts.Part seen = expected.get(cell);
            if (part == null ? seen != null : seen == null || !part.key().equals(seen.key())) {
                throw new CellParts.Stale();
            }
            ranges.put(cell, part == null ? job.cells.cell(cell) : part.range());
            if (part != null) {
                ledgers.put(cell, job.divided.ledger(cell, part, found.get(partAt++)));
            }
        }
    }

    /** The chunk's keys that no covered span holds, with their entities: what this commit maps. */
    private void pickFresh() {
        int entitiesAt = shardAt + 1;
        for (int i = 0; i < chunk.size(); i++) {
            Key key = chunk.get(i);
            int cell = job.cells.cellOf(key);
            if (ledgers.get(cell).spans().covers(key)) {
                continue;
            }
            fresh.add(key);
            appliedByCell.merge(cell, 1, Integer::sum);
            Entity entity = given != null ? given.entities().get(i)
                    : job.reads == Reads.LOOKUP ? found.get(entitiesAt + i) : null;
            if (job.reads == Reads.LOOKUP && job.undo != Undo.NONE) {
                known.put(key, entity);
                if (job.undo == Undo.PER_KEY && job.mapper.entityGroupsPerKey() == 1) {
                    // a mapper that writes only its page's keys writes each once, in the commit that covers it:
                    // no record of it can exist yet, so none is read
                    known.put(recordOf(key), null);
                }
            }
            if (entity != null && job.mapper.needsEntities()) {
                freshEntities.add(entity);
            }
        }
    }

    private Key recordOf(Key target) {
        return recordKeys.computeIfAbsent(target, t -> job.recordKey(t, chunk.get(0), ledgers));
    }

    /**
     * Maps the fresh keys (with the keys their mapper asks for besides, read here), keeps their undo, writes what
     * fits one commit and its export part, and adds to the counters.
     */
    private Mapped map() {
        Map<Key, Key> owners = new HashMap<>(); // a source's entity belongs to its position
        Page freshPage = freshPage(owners);
        Set<Key> related = new LinkedHashSet<>(freshPage == given ? relatedFirst : job.mapper.related(freshPage));
        MapResult result = job.mapper.map(page(freshPage, related, job.undo == Undo.BATCHED ? null
                : this::recordOf));
        List<Entity> undoRecords = List.of();
        List<List<Key>> undoTargets = List.of();
        if (job.undo != Undo.NONE) {
            UndoKeeper.Kept kept = job.undo == Undo.BATCHED
                    ? UndoKeeper.keepBatched(tx, job.jobId, result, known,
                            ledgers.get(job.cells.cellOf(fresh.get(0))).key(), Chunker.imagesPerRecord(job.limits),
                            Chunker.restoreBytesPerRecord(job.limits))
                    : UndoKeeper.keep(tx, job.jobId, result, known, this::recordOf);
            result = kept.result();
            undoRecords = kept.records();
            undoTargets = kept.targets();
        }
        result.puts().forEach(EntitySize::check);
        MapResult fitting = CommitBytes.sized(result, undoRecords, undoTargets, fresh,
                k -> owners.getOrDefault(k, k), job.mapper::entitiesPer,
                CommitBytes.bookkeeping(found.subList(0, shardAt + 1)), job.limits, job.undo != Undo.NONE);
        if (fitting != result) {
            result = fitting;
            undoRecords = List.of();
        }
        if (!result.puts().isEmpty()) {
            tx.put(result.puts().toArray(new Entity[0]));
        }
        if (!result.deletes().isEmpty()) {
            tx.delete(result.deletes().toArray(new Key[0]));
        }
        String part = job.parts == null || result.lines().isEmpty() ? null
                : fresh.get(0).toUrlSafe() + " " + job.parts.write(job.cells.cellOf(fresh.get(0)), result.lines());
        // the keys read: the chunk's, and those its mapper asked for besides (a revert's entities); a position
        // in a source is counted as the one read its entry makes of its target
        Map<String, Long> increments = CellCommitter.increments(fresh.size() + (job.reads == Reads.POSITIONS ? 0
                : related.size()), result);
        job.counter.increment(tx, shard, found.get(shardAt), increments);
        return new Mapped(increments, result.problems(), part, undoRecords);
    }

    /**
     * The page the fresh keys make: the given page when every key is fresh; with a source's records, by position
     * in a file ({@code owners} hears which position each entity belongs to) or over the kind's own keys (the
     * database's past: what it holds at each key).
     */
    private Page freshPage(Map<Key, Key> owners) {
        if (given != null && fresh.size() == chunk.size()) {
            return given;
        }
        Map<Key, SourceRecord> freshRecords = new HashMap<>();
        if (job.reads == Reads.POSITIONS) {
            fresh.forEach(k -> {
                SourceRecord record = records.get(k);
                freshRecords.put(k, record);
                if (record.entity() != null) {
                    owners.putIfAbsent(record.entity().getKey(), k);
                }
            });
        } else if (given == null) {
            fresh.forEach(k -> {
                SourceRecord record = records.get(k);
                if (record != null) {
                    freshRecords.put(k, record);
                }
            });
        }
        if (records.size() > chunk.size()) { // the source's records of keys outside the page (a copy's ancestors)
            Set<Key> covered = new HashSet<>(chunk);
            records.forEach((k, record) -> {
                if (!covered.contains(k)) {
                    freshRecords.putIfAbsent(k, record);
                }
            });
        }
        return new Page(fresh, freshEntities, Map.of(), freshRecords);
    }

    /**
     * The page with the keys its mapper asks for besides its own ({@code related}: {@link PageMapper#related}), read
     * in this transaction; each read is also {@code known} for the undo records, and so are their records (named by
     * {@code recordOf}; null for a commit whose undo is one batch, which reads none), read in the same lookup. What
     * this transaction read already ({@code known}: the related keys of a page that came with its entities, read with
     * the ledgers) is not read again.
     */
    private Page page(Page page, Set<Key> related, Function<Key, Key> recordOf) {
        if (related.isEmpty()) {
            return page;
        }
        Set<Key> reads = new LinkedHashSet<>(related);
        if (job.mapper.keepsUndo() && recordOf != null) {
            related.forEach(key -> reads.add(recordOf.apply(key)));
        }
        reads.removeAll(known.keySet());
        if (!reads.isEmpty()) {
            Key[] keys = reads.toArray(new Key[0]);
            List<Entity> read = tx.fetch(keys);
            for (int i = 0; i < keys.length; i++) {
                known.put(keys[i], read.get(i));
            }
        }
        Map<Key, Entity> relatedFound = new HashMap<>();
        for (Key key : related) {
            if (known.get(key) != null) {
                relatedFound.put(key, known.get(key));
            }
        }
        return new Page(page.keys(), page.entities(), relatedFound, page.records());
    }

    /** Each touched cell's ledger with its piece of the span committed, and what the commit recorded there. */
    private List<Entity> updatedLedgers(Mapped mapped) {
        int partCell = mapped.part() == null ? -1 : job.cells.cellOf(fresh.get(0));
        List<Entity> updated = new ArrayList<>(touched.size());
        for (int cell : touched) {
            List<Key> keys = byCell.get(cell);
            List<MapResult.Problem> problemsHere = mapped.problems().stream()
                    .filter(p -> job.cellKeeping(p.key(), byCell, fresh) == cell).toList();
            updated.add(ledgers.get(cell).committed(job.jobId, cell, ranges.get(cell), job.piece(span, cell),
                    keys.isEmpty() ? null : keys.get(keys.size() - 1), appliedByCell.getOrDefault(cell, 0),
                    problemsHere, cell == partCell ? mapped.part() : null, job.order));
        }
        return updated;
    }

    /**
     * The chunk as a page of the entities its page query read with it, for a mapper whose page entities never change
     * ({@link PageMapper#pageEntitiesFixed}); each key has its entity, as the query found it.
     */
    private static Page given(List<Key> chunk, Map<Key, SourceRecord> records) {
        List<Entity> entities = new ArrayList<>(chunk.size());
        for (Key key : chunk) {
            SourceRecord record = records.get(key);
            if (record == null || record.entity() == null) {
                throw new IllegalStateException("a page of fixed entities came without the entity of " + key);
            }
            entities.add(record.entity());
        }
        return new Page(chunk, entities);
    }
}
