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
    /**
     * What a commit did: whether it applied the chunk (false: an earlier attempt had), the range's checkpoint as now
     * stored, whether the range is done and when it finished, and the counter increments it made.
     */
    record Outcome(boolean applied, Checkpoint checkpoint, boolean finished, java.time.Instant finishedAt,
                   Map<String, Long> increments) {
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
    private final SkipLog skipLog;

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
        this.skipLog = new SkipLog(jobId);
    }

    /**
     * Commits {@code chunk}, the next keys after the node's checkpoint, and says where the checkpoint is now; the node
     * itself is left to its worker. When {@code finishes}, the chunk is the range's last and the checkpoint is stored
     * as done in the same commit.
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
            Key last = node.lastKey();
            if (!Objects.equals(storedLast, last)) {
                if (storedLast != null && order.compare(storedLast, chunkLast) >= 0
                        && (last == null || order.compare(storedLast, last) > 0)) {
                    return alreadyApplied(stored);
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
            long committedBytes = node.checkpoint.outputBytes();
            Checkpoint next = node.checkpoint.advance(chunk, parts == null ? committedBytes
                    : parts.append(node.id, committedBytes, result.lines()));
            RangeNode after = node.withStatus(finishes ? NodeStatus.DONE : NodeStatus.RUNNING);
            after.checkpoint = next;
            after.finishedAt = finishes ? java.time.Instant.now() : null;
            after.problemExamples = ProblemExamples.add(node.problemExamples, result.problems());
            tx.put(store.nodeEntity(jobId, after));
            hook.beforeCommit("chunk " + node.id);
            tx.commit();
            skipLog.committed(result.problems());
            node.problemExamples = after.problemExamples;
            return new Outcome(true, next, finishes, after.finishedAt, increments);
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }

    private static Outcome alreadyApplied(Entity stored) {
        boolean finished = NodeStatus.DONE.name().equals(stored.getString("status"));
        java.time.Instant finishedAt = !finished ? null : stored.contains("finishedAt")
                ? stored.getTimestamp("finishedAt").toDate().toInstant() : java.time.Instant.now();
        return new Outcome(false, Checkpoint.of(stored), finished, finishedAt, Map.of());
    }

    /** The job counters a committed chunk adds to: its keys, puts, deletes, skips and the mapper's own counts. */
    static Map<String, Long> increments(int keys, MapResult result) {
        Map<String, Long> increments = new HashMap<>(result.counters());
        increments.merge("read", (long) keys, Long::sum);
        increments.merge("written", (long) result.puts().size(), Long::sum);
        increments.merge("deleted", (long) result.deletes().size(), Long::sum);
        increments.merge("skipped", result.skipped(), Long::sum);
        return increments;
    }
}
