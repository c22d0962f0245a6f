package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.Retries;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one commit protocol of every job, whichever runner commits: a chunk of keys commits exactly once, however often
 * and by whomever it is committed. In one transaction ({@link ChunkTransaction}) it reads, in one lookup, the ledgers
 * of the cells the chunk's span touches, a counter shard and (for mappers that need them) the chunk's entities; maps
 * only the keys that no covered span of their cell holds; writes the mutations, the shard's increments and each
 * ledger with its piece of the span added. Here a chunk is cut into such transactions: at the points where its cells
 * divided, apart for the cells that hold no key of it, and by bytes. A retried commit whose answer was lost, a retried or split Beam bundle, a resumed or taken-over local run, a
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
     * Cells with no key of the chunk committed per transaction of their own where transactions have an entity-group
     * limit: each a root ledger and, for a divided cell, a part's ledger, within 25 entity groups.
     */
    public static final int EMPTY_CELLS_PER_COMMIT = 10;

    /**
     * Cells with no key of the chunk per transaction of their own on a server {@code limits} describes: {@link
     * #EMPTY_CELLS_PER_COMMIT} under an entity-group limit, else a quarter of a commit's mutations (each cell writes
     * its ledger and at most a part's, with room to spare). A planned range where a filter matches nothing spans a
     * few dozen cells: in production it is covered in one transaction, not one per ten cells.
     */
    public static int emptyCellsPerCommit(ServerLimits limits) {
        return limits.maxEntityGroups() > 0 ? EMPTY_CELLS_PER_COMMIT : Math.max(1, limits.maxMutations() / 4);
    }

    /**
     * What a commit did: keys whose effect it applied, keys it found already applied, its counter increments, and the
     * chunk's last key (null for an empty chunk).
     */
    public record Outcome(int applied, int alreadyApplied, Map<String, Long> increments, Key last) {
    }

    private final Datastore datastore;
    private final KeyOrder order;
    private final String jobId;
    private final CellPlan cells;
    private final ServerLimits limits;
    private final ChunkTransaction transaction;
    private final CellParts divided;
    /** The ledger keys made so far: the undo record of a key of the job's own kind is a child of one. */
    private final ConcurrentHashMap<Integer, Key> cellKeys =
            new ConcurrentHashMap<>();

    /** A committer within the emulator's limits, the strictest of any server's. */
    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells) {
        this(datastore, order, mapper, jobId, cells, ServerLimits.EMULATOR);
    }

    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                  ServerLimits limits) {
        this(datastore, order, mapper, jobId, cells, limits, EngineSeams.NONE, null,
                ShardedCounter.existing(datastore, JobSpec.counterName(jobId)));
    }

    /** A committer whose commits count in {@code counter}, the job's. */
    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                  ServerLimits limits, EngineSeams seams, PartFiles parts, ShardedCounter counter) {
        this.limits = limits;
        this.datastore = datastore;
        this.order = order;
        this.jobId = jobId;
        this.cells = cells;
        this.divided = new CellParts(datastore, order, jobId, cells);
        this.transaction = new ChunkTransaction(datastore, order, mapper, jobId, cells, limits, seams, parts, divided,
                this::cellKey, counter);
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
        int perCommit = emptyCellsPerCommit(limits);
        if (beyond.size() > (chunk.isEmpty() ? perCommit : 0)) {
            for (int i = 0; i < beyond.size(); i += perCommit) {
                Map<Integer, List<Key>> batch = new LinkedHashMap<>();
                beyond.subList(i, Math.min(beyond.size(), i + perCommit)).forEach(c -> batch.put(c,
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
            } catch (DatastoreException e) {
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
            return transaction.commit(span, byCell, chunk, records);
        } catch (CellParts.Stale stale) {
            List<Integer> touched = new ArrayList<>(byCell.keySet());
            KeyRange first = cells.intersect(span, touched.get(0));
            KeyRange last = cells.intersect(span, touched.get(touched.size() - 1));
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


    /**
     * Records that work stopped at {@code at} with {@code error} (after its retries), on the ledger of its cell, so
     * the job's report says where and why; the spans are unchanged, and a later commit in the cell goes on from there.
     */
    public void recordFailure(Key at, String error, boolean permanent, Retries.Policy policy) {
        Retries.call(policy, Retries.Observer.NONE, () -> {
            Transaction tx = datastore.newTransaction();
            try {
                int cell = cells.cellOf(at);
                Key where = at;
                Ledger ledger = Ledger.of(cellKey(cell), tx.get(cellKey(cell)), order);
                // work stops after the last key it committed: past a cell that key finished, in the first cell after
                // it that is not done (a done cell is never painted failed)
                while (ledger.done() && cell + 1 < cells.cells()) {
                    cell++;
                    where = cells.cell(cell).start();
                    ledger = Ledger.of(cellKey(cell), tx.get(cellKey(cell)), order);
                }
                CellParts.Part part = divided.partHolding(cell, ledger.divisions(), where);
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
