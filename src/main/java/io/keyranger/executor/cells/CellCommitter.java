package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.job.JobSpec;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import io.keyranger.undo.UndoRecords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one commit protocol of every job, whichever runner commits: a chunk of keys commits exactly once, however often
 * and by whomever it is committed. In one transaction it reads, in one lookup, the ledgers of the cells the chunk's span
 * touches, a counter shard and (for mappers that need them) the chunk's entities; maps only the keys that no covered
 * span of their cell holds; writes the mutations, the shard's increments and each ledger with its piece of the span
 * added. A retried commit whose answer was lost, a retried or split Beam bundle, a resumed or taken-over local run, a
 * zombie runner that wakes up, or a second runner on the same keys: each finds the keys covered and applies nothing
 * twice; two at once meet on a ledger entity and one of them is retried. No lease or epoch is read: correctness never
 * depends on one runner at a time. A ledger a revert marked ({@link Ledger#reverted}) stops the commit with nothing
 * written, so a runner that wakes up after its job was reverted adds no change the revert did not see. A commit whose
 * mutations come to more bytes than the server's request allows is cut by {@link Chunker#bySize} and committed in
 * pieces, each covering its part of the span; a single key whose change alone is too large is left unchanged, with a
 * reason.
 */
public final class CellCommitter {
    /**
     * Cells with no key of the chunk committed per transaction of their own: each a root ledger and, for a divided
     * cell, a part's ledger, within 25 entity groups.
     */
    public static final int EMPTY_CELLS_PER_COMMIT = 10;

    /**
     * What a commit did: keys whose effect it applied, keys it found already applied, its counter increments, and the
     * chunk's last key (null for an empty chunk).
     */
    public record Outcome(int applied, int alreadyApplied, Map<String, Long> increments, Key last) {
    }

    private final Datastore datastore;
    private final KeyOrder order;
    private final PageMapper mapper;
    private final ShardedCounter counter;
    private final String jobId;
    private final CellPlan cells;
    private final CommitHook hook;
    private final SkipLog skipLog;
    private final PartFiles parts;
    private final ServerLimits limits;
    private final GroupTurns turns;
    private final CellParts divided;
    /** The ledger keys made so far: the undo record of a key of the job's own kind is a child of one. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, Key> cellKeys =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** A committer within the emulator's limits, the strictest of any server's. */
    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells) {
        this(datastore, order, mapper, jobId, cells, ServerLimits.EMULATOR, CommitHook.NONE, null);
    }

    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                  ServerLimits limits) {
        this(datastore, order, mapper, jobId, cells, limits, CommitHook.NONE, null);
    }

    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                  ServerLimits limits, CommitHook hook, PartFiles parts) {
        this.limits = limits;
        this.turns = new GroupTurns(limits.maxEntityGroups() > 0);
        this.datastore = datastore;
        this.order = order;
        this.mapper = mapper;
        this.counter = ShardedCounter.existing(datastore, JobSpec.counterName(jobId));
        this.jobId = jobId;
        this.cells = cells;
        this.hook = hook;
        this.skipLog = new SkipLog(jobId);
        this.parts = parts;
        this.divided = new CellParts(datastore, order, jobId, cells);
    }

    /** The ledger key of cell {@code cell}. */
    public Key cellKey(int cell) {
        return cellKeys.computeIfAbsent(cell, c -> RangeEntities.key(datastore, jobId, CellPlan.nodeId(c)));
    }

    /** The covered spans of a cell as stored now (outside a transaction: a hint for skipping, never for applying). */
    public CoveredSpans read(int cell) {
        return divided.read(cell, cellKey(cell));
    }

    /**
     * Divides the cell holding {@code start}, the first key of a range that starts there, unless nothing works
     * before it (see {@link CellParts#divide}): the ranges on either side then commit through ledgers of their own.
     *
     * @return whether the cell was divided
     */
    public boolean divideAt(Key start) {
        return divided.divide(start, cellKey(cells.cellOf(start)));
    }

    /**
     * Commits {@code chunk} (keys in order; may be empty) as covering {@code span}, which holds them and no other key
     * that existed when they were read. The chunk's cells, from its first key's to one past its last key's, commit in
     * one transaction (as {@link Chunker} sized it); cells before and after those that its span crosses (a sparse key
     * space, the rest of a range after its last key, the bytes of an import's large entity) hold no key of it, and
     * commit first, a few per transaction.
     */
    public Outcome commit(KeyRange span, List<Key> chunk) {
        return commit(span, chunk, Map.of());
    }

    /**
     * As above, for a chunk of positions in a source: {@code records} holds what the source has at each (the page's,
     * a superset of the chunk's).
     */
    public Outcome commit(KeyRange span, List<Key> chunk, Map<Key, SourceRecord> records) {
        List<Key> cuts = divided.cutsInside(span);
        if (!cuts.isEmpty()) {
            return commitCut(span, chunk, records, cuts);
        }
        Map<Integer, List<Key>> byCell = new LinkedHashMap<>();
        for (int cell : cells.cellsOf(span)) {
            byCell.put(cell, new ArrayList<>());
        }
        for (Key key : chunk) {
            byCell.computeIfAbsent(cells.cellOf(key), c -> new ArrayList<>()).add(key);
        }
        int lastOwn = chunk.isEmpty() ? -1 : cells.cellOf(chunk.get(chunk.size() - 1)) + 1;
        int firstOwn = chunk.isEmpty() ? -1 : cells.cellOf(chunk.get(0));
        List<Integer> beyond = byCell.keySet().stream().filter(c -> c > lastOwn || c < firstOwn).toList();
        if (beyond.size() > (chunk.isEmpty() ? EMPTY_CELLS_PER_COMMIT : 0)) {
            for (int i = 0; i < beyond.size(); i += EMPTY_CELLS_PER_COMMIT) {
                Map<Integer, List<Key>> batch = new LinkedHashMap<>();
                beyond.subList(i, Math.min(beyond.size(), i + EMPTY_CELLS_PER_COMMIT)).forEach(c -> batch.put(c,
                        List.of()));
                once(span, batch, List.of(), records); // a retry of the whole commit finds these covered
            }
            beyond.forEach(byCell::remove);
            if (byCell.isEmpty()) {
                return new Outcome(0, 0, Map.of(), null);
            }
        }
        try {
            return once(span, byCell, chunk, records);
        } catch (CommitBytes.TooLarge big) {
            return commitInPieces(span, chunk, records, big);
        }
    }

    /**
     * Commits the cells {@code byCell} of {@code span} in one transaction; when a cell turns out divided where its
     * committer had not seen it, cut at the divisions now seen and commit again (nothing was written).
     */
    private Outcome once(KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                         Map<Key, SourceRecord> records) {
        for (int aborts = 0; ; aborts++) {
            Map<Integer, List<Key>> before = divided.seen(byCell.keySet());
            try {
                return cut(span, byCell, chunk, records);
            } catch (com.google.cloud.datastore.DatastoreException e) {
                Map<Integer, Key> roots = new HashMap<>();
                byCell.keySet().forEach(c -> roots.put(c, cellKey(c)));
                if (!Retries.isAborted(e) || aborts >= DIVISION_ABORTS || !divided.dividedSince(before, roots)) {
                    throw e;
                }
            }
        }
    }

    /** Aborts by a division (of the cells a commit reads) that a commit tries again at once, past its retries. */
    static final int DIVISION_ABORTS = 16;

    private Outcome cut(KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                        Map<Key, SourceRecord> records) {
        try {
            return commitOnce(span, byCell, chunk, records);
        } catch (CellParts.Stale stale) {
            List<Integer> touched = new ArrayList<>(byCell.keySet());
            KeyRange first = piece(span, touched.get(0));
            KeyRange last = piece(span, touched.get(touched.size() - 1));
            KeyRange these = first.startInclusive() || first.start() == null
                    ? KeyRange.of(order, first.start(), last.end())
                    : KeyRange.of(order, null, last.end()).advancePast(first.start());
            return commit(these, chunk, records);
        }
    }

    /** Commits {@code chunk} as {@code span} in pieces cut at {@code points} (strictly inside it, in key order). */
    private Outcome commitCut(KeyRange span, List<Key> chunk, Map<Key, SourceRecord> records, List<Key> points) {
        int applied = 0;
        int already = 0;
        Map<String, Long> increments = new HashMap<>();
        KeyRange rest = span;
        int from = 0;
        for (int i = 0; i <= points.size(); i++) {
            KeyRange piece = rest;
            int to = chunk.size();
            if (i < points.size()) {
                KeyRange[] halves = rest.splitAt(points.get(i));
                piece = halves[0];
                rest = halves[1];
                to = from;
                while (to < chunk.size() && order.compare(chunk.get(to), points.get(i)) < 0) {
                    to++;
                }
            }
            Outcome one = commit(piece, chunk.subList(from, to), records);
            applied += one.applied();
            already += one.alreadyApplied();
            one.increments().forEach((name, n) -> increments.merge(name, n, Long::sum));
            from = to;
        }
        return new Outcome(applied, already, increments, chunk.isEmpty() ? null : chunk.get(chunk.size() - 1));
    }

    /** Commits {@code chunk} in pieces cut by bytes, each covering its part of {@code span}, in order. */
    private Outcome commitInPieces(KeyRange span, List<Key> chunk, Map<Key, SourceRecord> records,
                                   CommitBytes.TooLarge big) {
        List<List<Key>> pieces = Chunker.bySize(chunk, k -> big.bytes().getOrDefault(k, 0L), big.fixed(), limits);
        if (pieces.size() < 2) { // sizes changed since they were measured: halve, so each try makes progress
            pieces = List.of(chunk.subList(0, chunk.size() / 2), chunk.subList(chunk.size() / 2, chunk.size()));
        }
        int applied = 0;
        int already = 0;
        Map<String, Long> increments = new HashMap<>();
        KeyRange rest = span;
        for (int i = 0; i < pieces.size(); i++) {
            KeyRange piece = rest;
            if (i < pieces.size() - 1) {
                KeyRange[] halves = rest.splitAt(pieces.get(i + 1).get(0));
                piece = halves[0];
                rest = halves[1];
            }
            Outcome one = commit(piece, pieces.get(i), records);
            applied += one.applied();
            already += one.alreadyApplied();
            one.increments().forEach((name, n) -> increments.merge(name, n, Long::sum));
        }
        return new Outcome(applied, already, increments, chunk.get(chunk.size() - 1));
    }

    private Outcome commitOnce(KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                               Map<Key, SourceRecord> records) {
        List<Key> writes = !mapper.readsSource() ? chunk : chunk.stream().map(records::get)
                .filter(r -> r != null && r.entity() != null).map(r -> r.entity().getKey()).toList();
        try (GroupTurns.Held held = turns.take(writes)) {
            return commitOnce(span, byCell, chunk, records, datastore.newTransaction());
        }
    }

    private Outcome commitOnce(KeyRange span, Map<Integer, List<Key>> byCell, List<Key> chunk,
                               Map<Key, SourceRecord> records, Transaction tx) {
        try {
            List<Integer> touched = new ArrayList<>(byCell.keySet());
            Key shard = counter.pickShard();
            List<Key> reads = new ArrayList<>(touched.size() + 1 + chunk.size());
            touched.forEach(c -> reads.add(cellKey(c)));
            // in a divided cell, the ledger of the part the piece lies in, as last seen (the root read says if so)
            Map<Integer, CellParts.Part> expected = new HashMap<>();
            for (int cell : touched) {
                CellParts.Part part = divided.expected(cell, piece(span, cell));
                if (part != null) {
                    expected.put(cell, part);
                    reads.add(part.key());
                }
            }
            int shardAt = reads.size();
            reads.add(shard);
            boolean undo = mapper.keepsUndo();
            boolean positions = mapper.readsSource(); // the chunk's keys are places in a file: nothing to read
            if ((mapper.needsEntities() || undo) && !positions) {
                reads.addAll(chunk); // an undo record needs the state before, as this transaction reads it
            }
            List<Entity> found = CommitBytes.fetch(tx, reads, chunk.size());
            Map<Integer, Ledger> ledgers = new HashMap<>();
            Map<Integer, KeyRange> ranges = new HashMap<>(); // what each ledger covers: its cell, or its part
            for (int i = 0; i < touched.size(); i++) {
                ledgers.put(touched.get(i), Ledger.of(cellKey(touched.get(i)), found.get(i), order));
                String revert = ledgers.get(touched.get(i)).revertedBy();
                if (revert != null) {
                    throw JobFencedException.reverted("Job " + jobId, revert);
                }
            }
            int partAt = touched.size();
            for (int cell : touched) {
                List<Key> points = ledgers.get(cell).divisions();
                divided.saw(cell, points);
                CellParts.Part part = divided.partOf(cell, points, piece(span, cell));
                CellParts.Part seen = expected.get(cell);
                if (part == null ? seen != null : seen == null || !part.key().equals(seen.key())) {
                    throw new CellParts.Stale();
                }
                ranges.put(cell, part == null ? cells.cell(cell) : part.range());
                if (part != null) {
                    ledgers.put(cell, divided.ledger(cell, part, found.get(partAt++)));
                }
            }
            int entitiesAt = shardAt + 1;
            List<Key> fresh = new ArrayList<>(chunk.size());
            List<Entity> freshEntities = new ArrayList<>();
            Map<Key, Entity> known = new HashMap<>(); // what this transaction read: a key to null does not exist
            Map<Key, Key> recordKeys = new HashMap<>(); // each target's undo record key, made once a commit
            java.util.function.Function<Key, Key> recordOf = target -> recordKeys.computeIfAbsent(target,
                    t -> recordKey(t, chunk.get(0), ledgers));
            Map<Integer, Integer> appliedByCell = new HashMap<>();
            for (int i = 0; i < chunk.size(); i++) {
                Key key = chunk.get(i);
                int cell = cells.cellOf(key);
                if (!ledgers.get(cell).spans().covers(key)) {
                    fresh.add(key);
                    appliedByCell.merge(cell, 1, Integer::sum);
                    Entity entity = (mapper.needsEntities() || undo) && !positions ? found.get(entitiesAt + i) : null;
                    if (undo && !positions) {
                        known.put(key, entity);
                        if (mapper.entityGroupsPerKey() == 1) {
                            // a mapper that writes only its page's keys writes each once, in the commit that covers
                            // it: no record of it can exist yet, so none is read
                            known.put(recordOf.apply(key), null);
                        }
                    }
                    if (entity != null && mapper.needsEntities()) {
                        freshEntities.add(entity);
                    }
                }
            }
            boolean allCovered = touched.stream().allMatch(c -> ledgers.get(c).spans().coversAll(piece(span, c)));
            if (fresh.isEmpty() && allCovered) {
                return new Outcome(0, chunk.size(), Map.of(), chunk.isEmpty() ? null : chunk.get(chunk.size() - 1));
            }
            Map<String, Long> increments = Map.of();
            List<MapResult.Problem> problems = List.of();
            String part = null;
            List<Entity> undoRecords = List.of();
            if (!fresh.isEmpty()) {
                Map<Key, SourceRecord> freshRecords = new HashMap<>();
                Map<Key, Key> owners = new HashMap<>(); // a source's entity belongs to its position
                if (positions) {
                    fresh.forEach(k -> {
                        SourceRecord record = records.get(k);
                        freshRecords.put(k, record);
                        if (record.entity() != null) {
                            owners.putIfAbsent(record.entity().getKey(), k);
                        }
                    });
                }
                MapResult result = mapper.map(page(tx, new Page(fresh, freshEntities, Map.of(), freshRecords), known,
                        recordOf));
                if (undo) {
                    UndoKeeper.Kept kept = UndoKeeper.keep(tx, jobId, result, known, recordOf);
                    result = kept.result();
                    undoRecords = kept.records();
                }
                result.puts().forEach(EntitySize::check);
                MapResult fitting = CommitBytes.sized(result, undoRecords, fresh, k -> owners.getOrDefault(k, k),
                        CommitBytes.bookkeeping(found.subList(0, shardAt + 1)), limits, undo);
                if (fitting != result) {
                    result = fitting;
                    undoRecords = List.of();
                }
                problems = result.problems();
                if (!result.puts().isEmpty()) {
                    tx.put(result.puts().toArray(new Entity[0]));
                }
                if (!result.deletes().isEmpty()) {
                    tx.delete(result.deletes().toArray(new Key[0]));
                }
                if (parts != null && !result.lines().isEmpty()) {
                    part = fresh.get(0).toUrlSafe() + " " + parts.write(cells.cellOf(fresh.get(0)), result.lines());
                }
                increments = increments(fresh.size(), result);
                counter.increment(tx, shard, found.get(shardAt), increments);
            }
            int partCell = part == null ? -1 : cells.cellOf(fresh.get(0));
            List<Entity> updated = new ArrayList<>(touched.size());
            for (int cell : touched) {
                List<Key> keys = byCell.get(cell);
                List<MapResult.Problem> problemsHere = problems.stream().filter(p -> cellKeeping(p.key(), byCell, fresh)
                        == cell).toList();
                updated.add(ledgers.get(cell).committed(jobId, cell, ranges.get(cell), piece(span, cell),
                        keys.isEmpty() ? null : keys.get(keys.size() - 1), appliedByCell.getOrDefault(cell, 0), problemsHere,
                        cell == partCell ? part : null, order));
            }
            tx.put(updated.toArray(new Entity[0]));
            if (!undoRecords.isEmpty()) {
                tx.put(undoRecords.toArray(new Entity[0]));
            }
            hook.beforeCommit("chunk " + CellPlan.nodeId(touched.get(0)));
            tx.commit();
            divided.committedUpTo(span.end());
            skipLog.committed(problems);
            return new Outcome(fresh.size(), chunk.size() - fresh.size(), increments,
                    chunk.isEmpty() ? null : chunk.get(chunk.size() - 1));
        } catch (com.google.cloud.datastore.DatastoreException e) {
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

    /**
     * The page with the keys its mapper asks for besides its own ({@link PageMapper#related}), read in this
     * transaction; each read is also {@code known} for the undo records, and so are their records, read in the same
     * lookup when the job keeps undo.
     */
    private Page page(Transaction tx, Page page, Map<Key, Entity> known,
                      java.util.function.Function<Key, Key> recordOf) {
        List<Key> related = mapper.related(page);
        if (related.isEmpty()) {
            return page;
        }
        java.util.Set<Key> reads = new java.util.LinkedHashSet<>(related);
        if (mapper.keepsUndo()) {
            related.forEach(key -> reads.add(recordOf.apply(key)));
        }
        Key[] keys = reads.toArray(new Key[0]);
        List<Entity> read = tx.fetch(keys);
        Map<Key, Entity> found = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
            known.put(keys[i], read.get(i));
        }
        for (Key key : related) {
            if (known.get(key) != null) {
                found.put(key, known.get(key));
            }
        }
        return new Page(page.keys(), page.entities(), found, page.records());
    }

    /**
     * The key of {@code target}'s undo record in this job, the same whichever commit writes it: under the ledger this
     * commit writes for the cell (or the cell's part) that holds it when it is in the job's key space (the kind and
     * partition of {@code ofJob}, a key of the job), else a record of its own ({@link UndoRecords#rootKey}). A key of
     * the job's own is written once, by the commit that covers it, so its record's parent is the one ledger of its
     * part then.
     */
    private Key recordKey(Key target, Key ofJob, Map<Integer, Ledger> ledgers) {
        boolean own = target.getKind().equals(ofJob.getKind()) && target.getNamespace().equals(ofJob.getNamespace())
                && target.getProjectId().equals(ofJob.getProjectId())
                && java.util.Objects.equals(target.getDatabaseId(), ofJob.getDatabaseId());
        if (!own) {
            return UndoRecords.rootKey(jobId, target);
        }
        Ledger ledger = ledgers.get(cells.cellOf(target));
        return UndoRecords.key(ledger != null ? ledger.key() : cellKey(cells.cellOf(target)), jobId, target);
    }

    /**
     * The cell whose ledger keeps what a commit records of a key (a problem): the key's own, or, for a
     * key of another kind (a copy's target), the chunk's.
     */
    private int cellKeeping(Key key, Map<Integer, List<Key>> byCell, List<Key> fresh) {
        Key first = fresh.get(0);
        if (!key.getNamespace().equals(first.getNamespace()) || !key.getProjectId().equals(first.getProjectId())) {
            return cells.cellOf(first); // another partition: no cell of this job's key space holds it
        }
        int cell = cells.cellOf(key);
        return byCell.containsKey(cell) ? cell : cells.cellOf(first);
    }

    /** The part of {@code span} in cell {@code cell}. */
    private KeyRange piece(KeyRange span, int cell) {
        return cells.intersect(span, cell);
    }

    /**
     * Records that work stopped at {@code at} with {@code error} (after its retries), on the ledger of its cell, so
     * the job's report says where and why; the spans are unchanged, and a later commit in the cell goes on from there.
     */
    public void recordFailure(Key at, String error, boolean permanent, Retries.Policy policy) {
        int cell = cells.cellOf(at);
        Retries.call(policy, Retries.Observer.NONE, () -> {
            Transaction tx = datastore.newTransaction();
            try {
                Ledger ledger = Ledger.of(cellKey(cell), tx.get(cellKey(cell)), order);
                CellParts.Part part = divided.partHolding(cell, ledger.divisions(), at);
                if (part != null) { // a divided cell: the part's ledger, never the root others read
                    tx.put(divided.ledger(cell, part, tx.get(part.key())).failed(jobId, cell, part.range(), error,
                            permanent));
                } else {
                    tx.put(ledger.failed(jobId, cell, cells.cell(cell), error, permanent));
                }
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        });
    }

    /** The job counters a committed chunk adds to: its keys, puts, deletes, skips and the mapper's own counts. */
    public static Map<String, Long> increments(int keys, MapResult result) {
        Map<String, Long> increments = new HashMap<>(result.counters());
        increments.merge("read", (long) keys, Long::sum);
        increments.merge("written", (long) result.puts().size(), Long::sum);
        increments.merge("deleted", (long) result.deletes().size(), Long::sum);
        increments.merge("skipped", result.skipped(), Long::sum);
        return increments;
    }
}
