package io.keyranger.executor.cells;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.ProblemExamples;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One cell's ledger as its {@code _KeyRangerRange} entity stores it: the spans of the cell that committed pages
 * covered, the counts of what they applied, the examples of entities they skipped, the export parts they wrote, and
 * the last failure seen in the cell. A ledger is created by the first commit in its cell, so a job is created with
 * none; a cell without one has committed nothing. A revert marks every ledger of the job it takes back ({@link
 * #reverted}), creating those no commit reached yet: a commit that reads a marked ledger commits nothing. A cell
 * divided where ranges split inside it ({@link CellParts}) keeps its division points and the revert's mark on this
 * root ledger, and its spans on its parts' ledgers.
 */
public final class Ledger {
    /** On a divided cell's root ledger: its division points, in key order (url-safe keys). */
    static final String DIVISIONS = "divisions";
    /**
     * A divided root's spans: not a span, so that a KeyRanger from before divided cells, which would take the root's
     * spans for the cell's, refuses the ledger instead of applying keys again.
     */
    static final String DIVIDED = "divided-cell:its-spans-are-on-its-parts'-ledgers;needs-a-newer-KeyRanger";

    private final Key key;
    private final Entity stored;
    private final CoveredSpans spans;
    /** The node id and parent of a divided cell's part (null: a cell's root ledger). */
    private final String partId;
    private final String rootId;

    private Ledger(Key key, Entity stored, CoveredSpans spans, String partId, String rootId) {
        this.key = key;
        this.stored = stored;
        this.spans = spans;
        this.partId = partId;
        this.rootId = rootId;
    }

    /** The root ledger of a cell as read ({@code stored} null: none yet). */
    public static Ledger of(Key key, Entity stored, KeyOrder order) {
        return new Ledger(key, stored, stored == null ? new CoveredSpans(order) : spans(stored, order), null, null);
    }

    /** The ledger of part {@code partId} of the divided cell {@code rootId} as read ({@code stored} null: none yet). */
    static Ledger part(Key key, Entity stored, KeyOrder order, String partId, String rootId) {
        return new Ledger(key, stored, stored == null ? new CoveredSpans(order) : spans(stored, order), partId,
                rootId);
    }

    /** The division points of a cell's root ledger, in key order (none: the cell is whole). */
    public List<Key> divisions() {
        return stored == null ? List.of() : divisions(stored);
    }

    public static List<Key> divisions(Entity stored) {
        return !stored.contains(DIVISIONS) ? List.of()
                : stored.<StringValue>getList(DIVISIONS).stream().map(v -> Key.fromUrlSafe(v.get())).toList();
    }

    /**
     * The root ledger divided at {@code points} (all of them, in key order): its spans are its parts' now, and its
     * counts, problems and parts stay as they were, the record of what committed before the first division.
     */
    Entity divided(String jobId, int cell, KeyRange cellRange, List<Key> points) {
        return Entity.newBuilder(base(jobId, cell, cellRange))
                .set(DIVISIONS, ListValue.of(points.stream().<Value<?>>map(k -> unindexed(k.toUrlSafe())).toList()))
                .set("spans", ListValue.of(List.<Value<?>>of(unindexed(DIVIDED)))).build();
    }

    /** This part's ledger covering {@code range} now, holding {@code held} of the spans (a division moved them). */
    Entity resized(String jobId, int cell, KeyRange range, CoveredSpans held) {
        List<Value<?>> encoded = new ArrayList<>();
        held.encode().forEach(s -> encoded.add(unindexed(s)));
        Entity resized = RangeEntities.toEntity(key, jobId, new RangeNode(partId, rootId, 1, range));
        Entity.Builder b = Entity.newBuilder(stored != null ? stored : resized).set("spans", ListValue.of(encoded))
                .set("start", resized.<Value<?>>getValue("start"))
                .set("startInclusive", resized.<Value<?>>getValue("startInclusive"))
                .set("end", resized.<Value<?>>getValue("end"));
        if (held.coversAll(range)) {
            b.set("status", NodeStatus.DONE.name());
        } else if (stored == null && held.size() > 0) {
            b.set("status", NodeStatus.RUNNING.name());
        }
        return b.build();
    }

    public CoveredSpans spans() {
        return spans;
    }

    /** The ledger entity's key (a cell's root, or a divided cell's part). */
    public Key key() {
        return key;
    }

    /** The revert that took this cell's job back, or null: a commit that finds one commits nothing. */
    public String revertedBy() {
        return stored != null && stored.contains(JobLease.REVERTED_BY) ? stored.getString(JobLease.REVERTED_BY) : null;
    }

    /**
     * The ledger marked as taken back by revert {@code revertId} (as stored, or new for a cell no commit reached yet,
     * so that a late first commit finds the mark too); its spans and counts unchanged.
     */
    public Entity reverted(String jobId, int cell, KeyRange cellRange, String revertId) {
        return Entity.newBuilder(base(jobId, cell, cellRange)).set(JobLease.REVERTED_BY, revertId).build();
    }

    /** The spans a ledger holds (none for a divided root: its parts hold them). */
    public static CoveredSpans spans(Entity stored, KeyOrder order) {
        if (!stored.contains("spans") || stored.contains(DIVISIONS)) {
            return new CoveredSpans(order);
        }
        List<String> encoded = new ArrayList<>();
        for (Value<?> v : stored.<Value<?>>getList("spans")) {
            encoded.add(Objects.toString(v.get()));
        }
        return CoveredSpans.decode(order, encoded);
    }

    /** The export parts recorded in a ledger: "FIRSTKEY FILE", FIRSTKEY url-safe. */
    public static List<String> parts(Entity stored) {
        return !stored.contains("parts") ? List.of()
                : stored.<StringValue>getList("parts").stream().map(StringValue::get).toList();
    }

    /**
     * The ledger after a commit added {@code piece} to its spans, with {@code applied} keys applied and these
     * problems and export part (null: none), in cell {@code cellRange} of job {@code jobId}.
     */
    public Entity committed(String jobId, int cell, KeyRange cellRange, KeyRange piece, Key lastKey, int applied,
                     List<MapResult.Problem> problems, String part, KeyOrder order) {
        spans.add(piece);
        boolean done = spans.coversAll(cellRange);
        Entity base = base(jobId, cell, cellRange);
        List<Value<?>> encoded = new ArrayList<>();
        spans.encode().forEach(s -> encoded.add(unindexed(s)));
        Entity.Builder b = Entity.newBuilder(base).set("spans", ListValue.of(encoded))
                .set("entities", base.getLong("entities") + applied).set("pages", base.getLong("pages") + 1)
                .set("status", done ? NodeStatus.DONE.name() : NodeStatus.RUNNING.name());
        Key storedLast = RangeEntities.storedLastKey(base);
        if (lastKey != null && (storedLast == null || order.compare(lastKey, storedLast) > 0)) {
            b.set("lastKey", lastKey);
        }
        if (!base.contains("startedAt")) {
            b.set("startedAt", Timestamp.now());
        }
        if (done && !base.contains("finishedAt")) {
            b.set("finishedAt", Timestamp.now());
        }
        List<String> kept = !base.contains("problems") ? List.of()
                : base.<StringValue>getList("problems").stream().map(StringValue::get).toList();
        List<String> now = ProblemExamples.add(kept, problems);
        if (!now.isEmpty()) {
            b.set("problems", ListValue.of(now.stream().<Value<?>>map(Ledger::unindexed).toList()));
        }
        if (part != null) {
            List<Value<?>> withPart = new ArrayList<>(parts(base).stream().<Value<?>>map(Ledger::unindexed).toList());
            withPart.add(unindexed(part));
            b.set("parts", ListValue.of(withPart));
        }
        return b.build();
    }

    /** Whether the cell is done: every key of it committed. */
    public boolean done() {
        return stored != null && NodeStatus.DONE.name().equals(stored.getString("status"));
    }

    /**
     * The ledger with a failure recorded (its spans unchanged): a later commit in the cell sets it running again. A
     * cell already done stays done: every key of it is committed, so a range that fails at its keys (a resumed range
     * whose first cell was finished before) failed after it, and painting it failed would hide finished work.
     */
    public Entity failed(String jobId, int cell, KeyRange cellRange, String error, boolean permanent) {
        Entity base = base(jobId, cell, cellRange);
        if (done()) {
            return stored;
        }
        return Entity.newBuilder(base).set("status", NodeStatus.FAILED.name()).set("lastError", unindexed(error))
                .set("failurePermanent", permanent).set("retries", base.getLong("retries") + 1).build();
    }

    /** The ledger as stored, or a new one for a cell no commit reached yet. */
    private Entity base(String jobId, int cell, KeyRange cellRange) {
        return stored != null ? stored : RangeEntities.toEntity(key, jobId, partId != null
                ? new RangeNode(partId, rootId, 1, cellRange) : new RangeNode(CellPlan.nodeId(cell), null, 0, cellRange));
    }

    private static StringValue unindexed(String s) {
        return StringValue.newBuilder(s).setExcludeFromIndexes(true).build();
    }
}
