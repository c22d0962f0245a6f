package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.KeyFormat;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Commits one chunk of a page exactly once. In one transaction it reads, in one lookup, the range's checkpoint, a
 * counter shard and, for mappers that need them, the chunk's entities; checks that the checkpoint carries this runner's
 * epoch, so that a runner that was taken over applies nothing ({@link JobLease#checkRange}); maps them; writes the mutations, the shard's increment and the advanced
 * checkpoint (marked done when the chunk ends the range). If the checkpoint is already at or past the chunk (an
 * earlier attempt committed but its answer was lost), it applies nothing. A checkpoint anywhere else means another
 * process is running the range: refused.
 */
final class PageCommitter {
    /** What a commit did, for in-memory totals. */
    record Outcome(boolean applied, boolean finished, Map<String, Long> increments) {
    }

    private final Datastore datastore;
    private final JobStore store;
    private final KeyOrder order;
    private final PageMapper mapper;
    private final ShardedCounter counter;
    private final String jobId;
    private final PartFiles parts;
    private final JobLease lease;
    private final CommitHook hook;

    PageCommitter(Datastore datastore, JobStore store, KeyOrder order, PageMapper mapper, ShardedCounter counter,
                  String jobId, PartFiles parts, JobLease lease, CommitHook hook) {
        this.parts = parts;
        this.lease = lease;
        this.hook = hook;
        this.datastore = datastore;
        this.store = store;
        this.order = order;
        this.mapper = mapper;
        this.counter = counter;
        this.jobId = jobId;
    }

    /**
     * Commits {@code chunk}, the next keys after {@code node.lastKey}; on success the node's checkpoint moves. When
     * {@code finishes}, the chunk is the range's last and the checkpoint is stored as done in the same commit.
     */
    Outcome commit(RangeNode node, List<Key> chunk, boolean finishes) {
        Key chunkLast = chunk.get(chunk.size() - 1);
        Transaction tx = datastore.newTransaction();
        try {
            // one lookup for the checkpoint, a counter shard and the chunk's entities: one round trip, not three
            Key shard = counter.pickShard();
            List<Key> reads = new ArrayList<>(chunk.size() + 2);
            reads.add(store.nodeKey(jobId, node.id));
            reads.add(shard);
            if (mapper.needsEntities()) {
                reads.addAll(chunk);
            }
            List<Entity> found = tx.fetch(reads.toArray(new Key[0]));
            Entity stored = found.get(0);
            lease.checkRange(stored); // nothing applies unless the range still carries this runner's epoch
            Key storedLast = stored == null ? null : JobStore.storedLastKey(stored);
            if (!Objects.equals(storedLast, node.lastKey)) {
                if (storedLast != null && order.compare(storedLast, chunkLast) >= 0
                        && (node.lastKey == null || order.compare(storedLast, node.lastKey) > 0)) {
                    return alreadyApplied(node, chunk, stored);
                }
                throw new KeyRangerException("Range " + node.id + " of job " + jobId + " moved to "
                        + (storedLast == null ? "its start" : KeyFormat.format(storedLast))
                        + " behind this run's back: is the job running elsewhere too?");
            }
            if (stored != null && NodeStatus.valueOf(stored.getString("status")).isFinal()) {
                throw new KeyRangerException("Range " + node.id + " of job " + jobId + " is "
                        + stored.getString("status").toLowerCase() + " already: is the job running elsewhere too?");
            }
            List<Entity> entities = found.subList(2, found.size()).stream().filter(Objects::nonNull).toList();
            MapResult result = mapper.map(new Page(chunk, entities));
            result.puts().forEach(io.keyranger.datastore.EntitySize::check);
            if (!result.puts().isEmpty()) {
                tx.put(result.puts().toArray(new Entity[0]));
            }
            if (!result.deletes().isEmpty()) {
                tx.delete(result.deletes().toArray(new Key[0]));
            }
            Map<String, Long> increments = increments(chunk.size(), result);
            counter.increment(tx, shard, found.get(1), increments);
            RangeNode next = advanced(node, chunk, chunkLast);
            if (finishes) {
                next.status = NodeStatus.DONE;
                next.finishedAt = java.time.Instant.now();
            }
            if (parts != null) {
                next.outputBytes = parts.append(node.id, node.outputBytes, result.lines());
            }
            tx.put(store.nodeEntity(jobId, next));
            hook.beforeCommit("chunk " + node.id);
            tx.commit();
            node.outputBytes = next.outputBytes;
            if (finishes) {
                node.finishedAt = next.finishedAt;
            }
            return new Outcome(true, finishes, increments);
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    private Outcome alreadyApplied(RangeNode node, List<Key> chunk, Entity stored) {
        node.lastKey = JobStore.storedLastKey(stored);
        node.pages = stored.getLong("pages");
        node.entities = stored.getLong("entities");
        node.outputBytes = stored.contains("outputBytes") ? stored.getLong("outputBytes") : 0;
        boolean finished = NodeStatus.DONE.name().equals(stored.getString("status"));
        if (finished) {
            node.finishedAt = stored.contains("finishedAt") ? stored.getTimestamp("finishedAt").toDate().toInstant()
                    : java.time.Instant.now();
        }
        return new Outcome(false, finished, Map.of());
    }

    private static Map<String, Long> increments(int keys, MapResult result) {
        Map<String, Long> increments = new HashMap<>(result.counters());
        increments.merge("read", (long) keys, Long::sum);
        increments.merge("written", (long) result.puts().size(), Long::sum);
        increments.merge("deleted", (long) result.deletes().size(), Long::sum);
        increments.merge("skipped", result.skipped(), Long::sum);
        return increments;
    }

    /** The node as it will be after this chunk, written in the same transaction. */
    private static RangeNode advanced(RangeNode node, List<Key> chunk, Key chunkLast) {
        RangeNode next = new RangeNode(node.id, node.parentId, node.depth, node.range);
        next.lastKey = chunkLast;
        next.status = NodeStatus.RUNNING;
        next.pages = node.pages + 1;
        next.entities = node.entities + chunk.size();
        next.retries = node.retries;
        next.lastError = node.lastError;
        next.startedAt = node.startedAt;
        next.outputBytes = node.outputBytes;
        return next;
    }

    /** Moves the in-memory node to where a successful commit left the stored one. */
    static void applyTo(RangeNode node, List<Key> chunk) {
        node.lastKey = chunk.get(chunk.size() - 1);
        node.pages++;
        node.entities += chunk.size();
    }
}
