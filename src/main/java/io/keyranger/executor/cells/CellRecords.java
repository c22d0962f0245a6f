package io.keyranger.executor.cells;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.executor.range.Checkpoint;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.NodeStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job's ledgers read back cell by cell, for its report and for a run that goes on with it: a whole cell is its
 * root ledger, as before; a divided cell ({@link CellParts}) is its root (what committed before the first division)
 * and its parts together: their spans joined, their counts added, done when the joined spans cover the cell.
 */
public final class CellRecords {
    private CellRecords() {
    }

    /** The ledgers of a job (as {@code JobStore#loadLedgers} reads them) by the cell they belong to. */
    public static Map<Integer, List<Entity>> byCell(List<Entity> ledgers) {
        Map<Integer, List<Entity>> byCell = new TreeMap<>();
        for (Entity ledger : ledgers) {
            String id = ledger.getString("nodeId");
            int slash = id.indexOf('/');
            int cell = Integer.parseInt(id.substring(1, slash < 0 ? id.length() : slash));
            List<Entity> of = byCell.computeIfAbsent(cell, c -> new ArrayList<>());
            if (slash < 0) {
                of.add(0, ledger); // the root first
            } else {
                of.add(ledger);
            }
        }
        return byCell;
    }

    /** The spans a cell's ledgers cover together. */
    public static CoveredSpans spans(List<Entity> ofCell, KeyOrder order) {
        CoveredSpans spans = new CoveredSpans(order);
        ofCell.forEach(ledger -> Ledger.spans(ledger, order).spans().forEach(spans::add));
        return spans;
    }

    /** Whether every key of cell {@code range} is covered by its ledgers {@code ofCell}. */
    public static boolean done(List<Entity> ofCell, KeyRange range, KeyOrder order) {
        if (ofCell.size() == 1 && !ofCell.get(0).contains(Ledger.DIVISIONS)) {
            return NodeStatus.DONE.name().equals(ofCell.get(0).getString("status"));
        }
        return spans(ofCell, order).coversAll(range);
    }

    /** Cell {@code cell} (node {@code id}, key range {@code range}) as its ledgers record it, parts merged. */
    public static RangeNode node(String id, KeyRange range, List<Entity> ofCell, KeyOrder order) {
        RangeNode node = RangeEntities.toNode(ofCell.get(0), order);
        if (ofCell.size() == 1) {
            return node;
        }
        Key lastKey = null;
        long pages = 0;
        long entities = 0;
        int retries = 0;
        String lastError = null;
        boolean permanent = false;
        boolean failed = false;
        boolean started = false;
        Instant startedAt = null;
        Instant finishedAt = null;
        List<String> problems = new ArrayList<>();
        for (Entity ledger : ofCell) {
            RangeNode.State part = RangeEntities.toNode(ledger, order).state();
            Key last = part.checkpoint().lastKey();
            if (last != null && (lastKey == null || order.compare(last, lastKey) > 0)) {
                lastKey = last;
            }
            pages += part.checkpoint().pages();
            entities += part.checkpoint().entities();
            retries += part.retries();
            problems.addAll(part.problemExamples());
            started |= part.status() != NodeStatus.QUEUED;
            if (part.status() == NodeStatus.FAILED) {
                failed = true;
                lastError = part.lastError();
                permanent |= part.failurePermanent();
            }
            startedAt = earlier(startedAt, part.startedAt());
            finishedAt = part.finishedAt() == null || (finishedAt != null && finishedAt.isAfter(part.finishedAt()))
                    ? finishedAt : part.finishedAt();
        }
        boolean done = done(ofCell, range, order);
        NodeStatus status = done ? NodeStatus.DONE : failed ? NodeStatus.FAILED
                : started ? NodeStatus.RUNNING : NodeStatus.QUEUED;
        return new RangeNode(id, null, 0, range, new RangeNode.State(status, new Checkpoint(lastKey, pages, entities),
                retries, lastError, permanent, problems, startedAt, done ? finishedAt : null));
    }

    private static Instant earlier(Instant a, Instant b) {
        return a == null ? b : b == null || a.isBefore(b) ? a : b;
    }
}
