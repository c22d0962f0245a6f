package io.keyranger.executor;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Transaction;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.Retries;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Commits a chunk of a shared job exactly once, whoever commits it and however often. In one transaction it reads the
 * chunk's cell ledger, a counter shard and (for mappers that need them) the chunk's entities; maps only the keys no
 * covered span of the cell holds; writes the mutations, the shard's increments and the ledger with the chunk's span
 * added. A retried commit whose answer was lost, a retried bundle with its original restriction or only its primary,
 * a checkpoint that cut a page, a rerun under the same job id, or a second runner on the same keys: each finds the
 * keys covered and applies nothing twice; two at once meet on the ledger entity and one of them is retried.
 */
public final class CellCommitter {
    /** What a commit did: keys whose effect it applied, and keys it found already applied. */
    public record Outcome(int applied, int alreadyApplied, Map<String, Long> increments) {
    }

    private final Datastore datastore;
    private final JobStore store;
    private final KeyOrder order;
    private final PageMapper mapper;
    private final ShardedCounter counter;
    private final String jobId;
    private final CellPlan cells;
    private final CommitHook hook;
    private final SkipLog skipLog;

    public CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells) {
        this(datastore, order, mapper, jobId, cells, CommitHook.NONE);
    }

    CellCommitter(Datastore datastore, KeyOrder order, PageMapper mapper, String jobId, CellPlan cells,
                  CommitHook hook) {
        this.datastore = datastore;
        this.store = new JobStore(datastore);
        this.order = order;
        this.mapper = mapper;
        this.counter = ShardedCounter.existing(datastore, AdaptiveSplitExecutor.counterName(jobId));
        this.jobId = jobId;
        this.cells = cells;
        this.hook = hook;
        this.skipLog = new SkipLog(jobId);
    }

    /** The ledger key of cell {@code cell}. */
    public Key cellKey(int cell) {
        return store.nodeKey(jobId, CellPlan.nodeId(cell));
    }

    /** The covered spans of a cell as stored now (outside a transaction: a hint for skipping, never for applying). */
    public CoveredSpans read(int cell) {
        Entity stored = datastore.get(cellKey(cell));
        return stored == null ? new CoveredSpans(order) : spans(stored);
    }

    /**
     * Commits {@code chunk} (keys of cell {@code cell}, in order; may be empty) as covering {@code span}, which holds
     * them and no other key that existed when they were read.
     */
    public Outcome commit(int cell, KeyRange span, List<Key> chunk) {
        Transaction tx = datastore.newTransaction();
        try {
            Key shard = counter.pickShard();
            List<Key> reads = new ArrayList<>(chunk.size() + 2);
            reads.add(cellKey(cell));
            reads.add(shard);
            if (mapper.needsEntities()) {
                reads.addAll(chunk);
            }
            List<Entity> found = tx.fetch(reads.toArray(new Key[0]));
            Entity ledger = found.get(0);
            if (ledger == null) {
                throw new KeyRangerException("Cell " + CellPlan.nodeId(cell) + " of job " + jobId + " is missing: "
                        + "was the job's bookkeeping deleted while it ran?");
            }
            CoveredSpans spans = spans(ledger);
            List<Key> fresh = new ArrayList<>(chunk.size());
            List<Entity> freshEntities = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                Key key = chunk.get(i);
                if (!spans.covers(key)) {
                    fresh.add(key);
                    Entity entity = mapper.needsEntities() ? found.get(2 + i) : null;
                    if (entity != null) {
                        freshEntities.add(entity);
                    }
                }
            }
            if (fresh.isEmpty() && spans.coversAll(span)) {
                return new Outcome(0, chunk.size(), Map.of());
            }
            Map<String, Long> increments = Map.of();
            List<MapResult.Problem> problems = List.of();
            if (!fresh.isEmpty()) {
                MapResult result = mapper.map(new Page(fresh, freshEntities));
                problems = result.problems();
                result.puts().forEach(EntitySize::check);
                if (!result.puts().isEmpty()) {
                    tx.put(result.puts().toArray(new Entity[0]));
                }
                if (!result.deletes().isEmpty()) {
                    tx.delete(result.deletes().toArray(new Key[0]));
                }
                increments = PageCommitter.increments(fresh.size(), result);
                counter.increment(tx, shard, found.get(1), increments);
            }
            spans.add(span);
            tx.put(updated(ledger, cell, spans, chunk, fresh.size()));
            hook.beforeCommit("chunk " + CellPlan.nodeId(cell));
            tx.commit();
            skipLog.committed(problems);
            return new Outcome(fresh.size(), chunk.size() - fresh.size(), increments);
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    private Entity updated(Entity ledger, int cell, CoveredSpans spans, List<Key> chunk, int applied) {
        List<Value<?>> stored = new ArrayList<>();
        spans.encode().forEach(s -> stored.add(StringValue.newBuilder(s).setExcludeFromIndexes(true).build()));
        boolean done = spans.coversAll(cells.cell(cell));
        Entity.Builder b = Entity.newBuilder(ledger).set("spans", ListValue.of(stored))
                .set("entities", ledger.getLong("entities") + applied).set("pages", ledger.getLong("pages") + 1)
                .set("status", done ? NodeStatus.DONE.name() : NodeStatus.RUNNING.name());
        if (!chunk.isEmpty()) {
            Key last = chunk.get(chunk.size() - 1);
            Key storedLast = JobStore.storedLastKey(ledger);
            if (storedLast == null || order.compare(last, storedLast) > 0) {
                b.set("lastKey", last);
            }
        }
        if (!ledger.contains("startedAt")) {
            b.set("startedAt", Timestamp.now());
        }
        if (done && !ledger.contains("finishedAt")) {
            b.set("finishedAt", Timestamp.now());
        }
        return b.build();
    }

    private CoveredSpans spans(Entity ledger) {
        if (!ledger.contains("spans")) {
            return new CoveredSpans(order);
        }
        List<String> stored = new ArrayList<>();
        for (Value<?> v : ledger.<Value<?>>getList("spans")) {
            stored.add(Objects.toString(v.get()));
        }
        return CoveredSpans.decode(order, stored);
    }
}
