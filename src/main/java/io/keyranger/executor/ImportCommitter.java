package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Retries;
import io.keyranger.executor.cells.CommitHook;
import io.keyranger.executor.cells.UndoKeeper;
import io.keyranger.executor.job.JobReport;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.mapper.MapResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The commits of one import run: each chunk with the import's checkpoint (the entries it covers), its counter and its
 * undo records, in one transaction fenced by the import's lease. A checkpoint at or past a chunk's last entry means an
 * earlier attempt applied it, so a retried or resumed chunk applies once. A restore reads the chunk's keys in the same
 * transaction and lets its {@link RestoreMode} decide what to write.
 */
final class ImportCommitter {
    private static final int EXAMPLES = 5;

    private final Datastore datastore;
    private final RetryPolicy retries;
    private final JobLease lease;
    private final Key checkpoint;
    private final ShardedCounter counter;
    private final RestoreMode mode;
    private final boolean undo;
    private final CommitHook hook;
    private final List<MapResult.Problem> examples = new ArrayList<>();

    ImportCommitter(Datastore datastore, RetryPolicy retries, JobLease lease, Key checkpoint, ShardedCounter counter,
                    RestoreMode mode, boolean undo, CommitHook hook) {
        this.datastore = datastore;
        this.retries = retries;
        this.lease = lease;
        this.checkpoint = checkpoint;
        this.counter = counter;
        this.mode = mode;
        this.undo = undo;
        this.hook = hook;
    }

    /** The entries of a chunk that were not imported: of another kind, not entities, or not selected. */
    static final class Skips {
        long otherKinds;
        long badLines;
        long notSelected;

        long total() {
            return otherKinds + badLines;
        }
    }

    /** The first entities this run left alone because they changed since the export, with what differs. */
    List<MapResult.Problem> examples() {
        return List.copyOf(examples);
    }

    /** Commits a chunk with its checkpoint; returns the checkpoint after it. */
    long commit(List<Entity> chunk, long lastEntry, Skips skipped) {
        return Retries.call(retries, Retries.Observer.NONE, () -> commitOnce(chunk, lastEntry, skipped));
    }

    /** Ends the run: the lease is released, so another runner may resume the import at once. */
    void release() {
        retries.call(() -> {
            Transaction tx = datastore.newTransaction();
            try {
                lease.check(tx.get(checkpoint));
                tx.put(lease.released());
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        });
    }

    private long commitOnce(List<Entity> chunk, long lastEntry, Skips skipped) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity stored = tx.get(checkpoint);
            lease.check(stored);
            long storedLine = stored == null ? 0 : stored.getLong("line");
            if (storedLine >= lastEntry) {
                return storedLine;
            }
            Map<Key, Entity> live = new HashMap<>();
            if (mode.readsLive() && !chunk.isEmpty()) { // one lookup of the chunk's keys, in the transaction
                List<Key> keys = chunk.stream().map(Entity::getKey).toList();
                List<Entity> read = tx.fetch(keys.toArray(new Key[0]));
                for (int i = 0; i < keys.size(); i++) {
                    live.put(keys.get(i), read.get(i));
                }
            }
            MapResult writes = mode.decide(chunk, live);
            if (undo && !writes.puts().isEmpty()) { // each entity as it was: created or overwritten, under the checkpoint
                UndoKeeper.Kept kept = UndoKeeper.keep(tx, checkpoint.getName(), writes, live, key -> checkpoint);
                writes = kept.result();
                tx.put(kept.records().toArray(new Entity[0]));
            }
            if (!writes.puts().isEmpty()) {
                tx.put(writes.puts().toArray(new Entity[0]));
            }
            Map<String, Long> counts = new HashMap<>(writes.counters());
            counts.putAll(Map.of("read", (long) chunk.size() + skipped.total(), "written", (long) writes.puts().size(),
                    "skipped", skipped.total() + writes.skipped()));
            if (skipped.badLines > 0) {
                counts.put(JobReport.SKIPPED_PREFIX + ImportFile.BAD_LINE, skipped.badLines);
            }
            if (skipped.notSelected > 0) {
                counts.put(ImportJob.NOT_SELECTED, skipped.notSelected);
            }
            counter.increment(tx, counts);
            tx.put(Entity.newBuilder(stored).set("line", lastEntry).build());
            hook.beforeCommit("import " + lastEntry);
            tx.commit();
            writes.problems().stream().filter(p -> RestoreMode.CHANGED.equals(p.category()))
                    .limit(Math.max(0, EXAMPLES - examples.size())).forEach(examples::add);
            return lastEntry;
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }
}
