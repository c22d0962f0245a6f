package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import com.google.common.hash.Hashing;
import io.keyranger.datastore.Retries;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cells divided where ranges split inside them, so that ranges sharing a cell never abort each other's commits. A
 * cell's root ledger ({@code c0007}) is divided at a point in one transaction: the point joins the root's sorted
 * division points, and the spans of the part it falls in move to the two parts' ledgers. Each part has a ledger of
 * its own ({@code c0007/0} for the first, {@code c0007/<digest of its first key>} for the others), a root entity, so
 * its own entity group. From then on every commit in the cell reads the root, which only a further division or a
 * revert's mark writes, and reads and writes the ledger of its part: commits in different parts touch no entity in
 * common, and two commits of the same keys, whoever runs them, meet on their part's ledger. A commit that read the
 * root before a division conflicts with it (the division wrote the root) and is tried again against the new parts.
 * A root with no division points is the cell's one ledger, as before divisions existed.
 */
public final class CellParts {
    /** A part of a divided cell: its ledger's key and id, and its key range. */
    record Part(Key key, String id, KeyRange range) {
    }

    /** What a commit saw of a cell's divisions was out of date: it commits nothing and is cut again. */
    static final class Stale extends RuntimeException {
        Stale() {
            super("the cell was divided since its divisions were read", null, false, false);
        }
    }

    private final Datastore datastore;
    private final KeyOrder order;
    private final String jobId;
    private final CellPlan cells;
    /** The division points last seen of each cell: where commits cut their spans (each commit checks the root). */
    private final ConcurrentHashMap<Integer, List<Key>> seen = new ConcurrentHashMap<>();

    /** Where spans this committer committed ended lately: a range that starts at one goes on from its own work. */
    private final Set<Key> endsCommitted = ConcurrentHashMap.newKeySet();

    CellParts(Datastore datastore, KeyOrder order, String jobId, CellPlan cells) {
        this.datastore = datastore;
        this.order = order;
        this.jobId = jobId;
        this.cells = cells;
    }

    /** The division points last seen of each of {@code cells} (absent: none). */
    Map<Integer, List<Key>> seen(Collection<Integer> of) {
        Map<Integer, List<Key>> now = new HashMap<>();
        of.forEach(c -> now.put(c, seen.getOrDefault(c, List.of())));
        return now;
    }

    /**
     * Whether any of the cells (their roots {@code rootKeys}) has division points other than {@code before}, as
     * stored now: a commit aborted by a division is tried again at once, not counted against its retries.
     */
    boolean dividedSince(Map<Integer, List<Key>> before, Map<Integer, Key> rootKeys) {
        List<Integer> of = new ArrayList<>(rootKeys.keySet());
        List<Entity> roots = datastore.fetch(of.stream().map(rootKeys::get).toArray(Key[]::new));
        boolean changed = false;
        for (int i = 0; i < of.size(); i++) {
            List<Key> points = roots.get(i) == null ? List.of() : Ledger.divisions(roots.get(i));
            saw(of.get(i), points);
            changed |= !points.equals(before.get(of.get(i)));
        }
        return changed;
    }

    /** Records the division points read on cell {@code cell}'s root. */
    void saw(int cell, List<Key> points) {
        if (points.isEmpty()) {
            seen.remove(cell);
        } else {
            seen.put(cell, points);
        }
    }

    /** A span this committer committed ended at {@code end} (null: open). */
    void committedUpTo(Key end) {
        if (end != null) {
            if (endsCommitted.size() > 4_096) {
                endsCommitted.clear(); // a hint only: forgetting costs a look at the ledger
            }
            endsCommitted.add(end);
        }
    }

    /** The division points seen strictly inside {@code span}, in key order: where a commit of it is cut. */
    List<Key> cutsInside(KeyRange span) {
        if (seen.isEmpty()) {
            return List.of();
        }
        List<Key> cuts = new ArrayList<>();
        for (int cell : cells.cellsOf(span)) {
            for (Key point : seen.getOrDefault(cell, List.of())) {
                boolean afterStart = span.start() == null || order.compare(point, span.start()) > 0;
                if (afterStart && (span.end() == null || order.compare(point, span.end()) < 0)) {
                    cuts.add(point);
                }
            }
        }
        return cuts;
    }

    /** The part of cell {@code cell} that {@code piece} (a part of the cell) lies in, as last seen; null: undivided. */
    Part expected(int cell, KeyRange piece) {
        List<Key> points = seen.get(cell);
        return points == null ? null : partOf(cell, points, piece);
    }

    /**
     * The part of cell {@code cell}, divided at {@code points}, that {@code piece} lies in; null for a cell not
     * divided. Throws {@link Stale} when the piece crosses a division point (the commit is cut there again).
     */
    Part partOf(int cell, List<Key> points, KeyRange piece) {
        if (points.isEmpty()) {
            return null;
        }
        int index = index(points, piece.start());
        Part part = part(cell, points, index);
        if (index < points.size() && (piece.end() == null || order.compare(piece.end(), points.get(index)) > 0)) {
            throw new Stale();
        }
        return part;
    }

    /** The part holding {@code key} (null: the cell's start) of cell {@code cell} divided at {@code points}. */
    Part partHolding(int cell, List<Key> points, Key key) {
        return points.isEmpty() ? null : part(cell, points, index(points, key));
    }

    /** How many points lie at or before {@code position} (null: the cell's start): the index of its part. */
    private int index(List<Key> points, Key position) {
        int i = 0;
        while (position != null && i < points.size() && order.compare(points.get(i), position) <= 0) {
            i++;
        }
        return i;
    }

    private Part part(int cell, List<Key> points, int index) {
        KeyRange whole = cells.cell(cell);
        Key start = index == 0 ? whole.start() : points.get(index - 1);
        Key end = index == points.size() ? whole.end() : points.get(index);
        String id = CellPlan.nodeId(cell) + "/" + (index == 0 ? "0" : digest(start));
        return new Part(RangeEntities.key(datastore, jobId, id), id, KeyRange.of(order, start, end));
    }

    /** A short name a part's first key alone gives it, the same for every runner. */
    private static String digest(Key start) {
        return Hashing.sha256().hashString(start.toUrlSafe(), StandardCharsets.UTF_8)
                .toString().substring(0, 20);
    }

    /** The ledger of {@code part} of cell {@code cell} as read. */
    Ledger ledger(int cell, Part part, Entity stored) {
        return Ledger.part(part.key(), stored, order, part.id(), CellPlan.nodeId(cell));
    }

    /**
     * The covered spans of cell {@code cell} as stored now, over all its parts (outside a transaction: a hint for
     * skipping, never for applying).
     */
    CoveredSpans read(int cell, Key rootKey) {
        Entity root = datastore.get(rootKey);
        Ledger ledger = Ledger.of(rootKey, root, order);
        List<Key> points = ledger.divisions();
        saw(cell, points);
        if (points.isEmpty()) {
            return ledger.spans();
        }
        List<Key> keys = new ArrayList<>(points.size() + 1);
        for (int i = 0; i <= points.size(); i++) {
            keys.add(part(cell, points, i).key());
        }
        CoveredSpans spans = new CoveredSpans(order);
        for (Entity part : datastore.fetch(keys.toArray(new Key[0]))) {
            if (part != null) {
                Ledger.spans(part, order).spans().forEach(spans::add);
            }
        }
        return spans;
    }

    /**
     * Divides the cell that holds {@code point} there, unless it is a cell bound or a division point already, the
     * cell's job was reverted, or the key space just before it is covered (what worked up to it is done: a range
     * resumed or checkpointed there, not split off another still running). One transaction over the root and the
     * part divided (a look outside one first, so a range that needs no division writes nothing).
     *
     * @return whether this call divided the cell
     */
    boolean divide(Key point, Key rootKey) {
        int cell = cells.cellOf(point);
        KeyRange whole = cells.cell(cell);
        if (whole.start() != null && order.compare(whole.start(), point) == 0 || endsCommitted.contains(point)) {
            return false; // a cell bound, or where this runner's own commits reached (a local range's rest)
        }
        for (int attempt = 0; ; attempt++) {
            if (!needsDivision(cell, point, rootKey, datastore.get(rootKey), null)) {
                return false;
            }
            try {
                return divideOnce(cell, whole, point, rootKey);
            } catch (DatastoreException e) {
                // another division of the cell, or a commit on its root: look again (it may be divided already)
                if (!Retries.isAborted(e) || attempt >= CellCommitter.DIVISION_ABORTS) {
                    throw e;
                }
                Retries.sleepBackoff(attempt, 20, 1_000);
            }
        }
    }

    private boolean divideOnce(int cell, KeyRange whole, Key point, Key rootKey) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity root = tx.get(rootKey);
            if (!needsDivision(cell, point, rootKey, root, tx)) {
                return false;
            }
            Ledger rootLedger = Ledger.of(rootKey, root, order);
            List<Key> before = rootLedger.divisions();
            List<Key> after = new ArrayList<>(before);
            int index = index(before, point);
            after.add(index, point);
            // the part divided: the root itself for a whole cell
            Ledger divided = before.isEmpty() ? rootLedger : ledger(cell, part(cell, before, index),
                    tx.get(part(cell, before, index).key()));
            Part left = part(cell, after, index);
            Part right = part(cell, after, index + 1);
            Ledger leftLedger = before.isEmpty() ? ledger(cell, left, null) : divided;
            List<Entity> writes = new ArrayList<>(3);
            writes.add(rootLedger.divided(jobId, cell, whole, after));
            writes.add(leftLedger.resized(jobId, cell, left.range(), divided.spans().within(left.range())));
            writes.add(ledger(cell, right, null).resized(jobId, cell, right.range(),
                    divided.spans().within(right.range())));
            tx.put(writes.toArray(new Entity[0]));
            tx.commit();
            saw(cell, after);
            return true;
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    /** Whether {@code point} is worth a division of cell {@code cell}, whose root is {@code root} as read. */
    private boolean needsDivision(int cell, Key point, Key rootKey, Entity root, Transaction tx) {
        Ledger ledger = Ledger.of(rootKey, root, order);
        if (ledger.revertedBy() != null) {
            return false; // every commit stops at the mark: nothing to divide for
        }
        List<Key> points = ledger.divisions();
        saw(cell, points);
        if (points.stream().anyMatch(p -> order.compare(p, point) == 0)) {
            return false;
        }
        CoveredSpans spans = ledger.spans();
        if (!points.isEmpty()) {
            Key partKey = partHolding(cell, points, point).key();
            Entity part = tx != null ? tx.get(partKey) : datastore.get(partKey);
            spans = part == null ? new CoveredSpans(order) : Ledger.spans(part, order);
        }
        return !spans.coversJustBefore(point);
    }
}
